"""The `queries-heldout6` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

VA, CA, BA, CO = "varnishncsa.log", "cassandra-system.log", "booking-api.json", "consul.log"
VL, NO, SY, NG = "vault-audit.log", "notify-worker.log", "syslog", "checkin-access.log"

FMT = {VA: "varnishncsa (-F with %D, hitmiss, handling)", CA: "cassandra system.log + stack traces",
       BA: "go zap production json (epoch ts)", CO: "consul agent (hclog)", VL: "vault audit log (file device json)",
       NO: "node pino json (epoch ms)", SY: "syslog rfc3164", NG: "nginx combined"}


def case(id_, cat, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    if files:
        c["fmt"] = " + ".join(FMT[x] for x in files)
    return c


def hour(h):
    """An hour as an answer may name it."""
    return [f"{h}:00", f"0{h}:00", f"{h}点", f"{h} 点", f"{h}时", f"{h}h", f"hour {h}", f"{h}:xx"]


def cases(f, n):
    rows = [
        # --- one-shot questions over one log
        case("h6-count-cass-errors-zh", "count", "cass-03 的 system.log 里 ERROR 有几条？一个 ERROR 连同下面的 stack trace 算一条",
             [CA], [str(f["ca_errors"])]),
        case("h6-count-booking-errors", "count", "booking-api.json -- how many level error entries in total?", [BA, CA],
             [str(f["ba_errors"])]),
        case("h6-count-consul-critical", "count", "consul log: how many 'Check is now critical' lines", [CO],
             [str(f["co_crit"])]),
        case("h6-count-notify-cert-zh", "count", "notify-worker 日志里 CERT_HAS_EXPIRED 一共报了多少次", [NO, SY],
             [str(f["no_cert"])]),
        case("h6-window-varnish-503-zh", "window", "varnish 在 02:10 到 02:40 之间回了多少个 503", [VA],
             [str(f["va_503_window"])]),
        case("h6-window-booking-lasthour", "window",
             "how many errors did booking-api log in the last hour of its log? (level error)", [BA],
             [str(f["ba_err_last60"])]),
        case("h6-distinct-varnish-clients", "distinct", "varnishncsa.log: how many unique client IPs (%h)?", [VA],
             [n(f["va_clients"])]),
        case("h6-distinct-notify-sms-refs-zh", "distinct",
             "notify-worker 里 channel=sms 的 notification sent，booking_ref 去重后有几个", [NO], [str(f["no_sms_refs"])]),
        case("h6-distinct-vault-addrs-zh", "distinct", "vault audit log 里一共出现过多少个不同的 remote_address", [VL],
             [str(f["vl_addrs"])]),
        case("h6-top3-checkin-ips-zh", "top", "checkin-access.log 请求量最多的前三个客户端 IP 是哪几个", [NG],
             list(f["ng_top_ips"])),
        case("h6-least-notify-template", "top",
             "notify-worker: which template was sent the least? only the 'notification sent' lines", [NO],
             [f["no_least_tmpl"]]),
        case("h6-top-vault-who", "top", "vault audit - which display_name made the most requests?", [VL],
             [f["vl_top_who"]]),
        case("h6-stat-varnish-hit-p95", "stat", "p95 of %D for cache hits in the varnish log, in ms pls", [VA],
             [f["va_hit_p95"]]),
        case("h6-stat-cass-dropped-zh", "stat", "cassandra 日志里 READ_REQ 被 drop 的 internal 数量加起来一共多少", [CA],
             [n(f["ca_dropped_read"])]),
        case("h6-stat-booking-ports-mean-zh", "stat", "booking-api 里 /v1/ports 请求的平均 elapsed 是多少毫秒", [BA],
             [f["ba_ports_mean"]]),
        case("h6-stat-notify-max-dur", "stat",
             "longest durationMs of a 'notification sent' in notify-worker -- in seconds?", [NO], [f["no_max_dur"]]),
        case("h6-peak-checkin-minute", "peak", "busiest minute in the kiosk checkin access log, all requests counted?",
             [NG], [f["ng_peak_min"]]),
        case("h6-peak-consul-warn-hour-zh", "peak", "consul.log 里 [WARN] 按小时统计哪个小时最多", [CO],
             [hour(f["co_warn_hour"])]),
        # --- follow-ups (only the last turn is scored)
        case("h6-followup-varnish-503-minute-zh", "followup", "哪一分钟最多？", [VA], [f["va_503_peak"]],
             turns=["varnish 日志里 503 一共几个"]),
        case("h6-followup-varnish-404-first-n", "followup", "how many did the first one have", [VA],
             [str(f["va_top404_n"])], turns=["top 3 paths answering 404 in varnishncsa.log? ignore query strings"]),
        case("h6-followup-cass-gc-when", "followup", "when was that", [CA], [f["ca_max_gc_at"]],
             turns=["longest GC pause in the cassandra log?"]),
        case("h6-followup-booking-504-runnerup", "followup", "and the runner-up? how many", [BA],
             [f["ba_504_2nd"], str(f["ba_504_2nd_n"])], turns=["booking-api: which path got the most 504s"]),
        case("h6-followup-consul-last-zh", "followup", "它最后一次是几点", [CO], [f["co_top_last"]],
             turns=["consul 里哪个 check 变成 critical 的次数最多"]),
        case("h6-followup-notify-hour-zh", "followup", "按小时呢，哪个小时最多", [NO], [hour(f["no_err_hour"])],
             turns=["notify-worker 的 level 50 一共多少条"]),
        case("h6-followup-502-other-log-zh", "followup", "那 varnish 日志呢", [NG, VA], [str(f["va_502"])],
             turns=["checkin-access.log 里 502 有多少个"]),
        case("h6-followup-ssh-top-ip", "followup", "which ip is hammering us the most", [SY], [f["sy_top_ip"]],
             turns=["syslog: how many sshd Failed password on bastion-01?"]),
        case("h6-followup-checkin-next3", "followup", "next 3", [NG], list(f["ng_paths_4_6"]),
             turns=["checkin access log, top 3 paths by hits? boardingpass/<ref> counts as one path"]),
        case("h6-followup-vault-last-ok-zh", "followup", "那它被拒之前最后一次成功读取是几点", [VL], [f["vl_last_ok"]],
             turns=["vault audit 里被 permission denied 最多的是哪个 path"]),
        case("h6-followup-proc-count", "followup", "how many of them tho", [], ["{count:berth-sync}"],
             turns=["is berth-sync running?"], procs=[{"name": "berth-sync", "count": 5, "args": ["--port", "fishguard"]}]),
        case("h6-followup-cass-young-mean-zh", "followup", "young gen 平均停顿多少 ms", [CA], [f["ca_young_mean"]],
             turns=["cassandra system.log 里 G1 Old Generation 的 GC 有几次", "young gen 的呢"]),
        # --- what happened around HH:MM, across two or three logs
        case("h6-timeline-0214", "timeline", "what happened around 02:14? looking at the cassandra and booking-api logs",
             [CA, BA], [f["ca_first_gc_warn"], ["GC", "GCInspector"], f["ba_first_timeout"],
                        ["Operation timed out", "timed out", "timeout", "超时"]]),
        case("h6-timeline-0215-zh", "timeline", "02:15 前后 consul 和 varnish 各自出了什么事", [CO, VA],
             [f["co_first_crit_booking"], ["critical"], f["va_first_503"]]),
        case("h6-timeline-0232", "timeline", "what went on with cass-03 around 02:32? syslog + its cassandra log", [SY, CA],
             [f["sy_oom"], ["Out of memory", "oom", "OOM"], f["ca_last_error"], ["OutOfMemoryError", "unstable"]]),
        case("h6-timeline-0306-zh", "timeline", "03:06 左右 vault 和 booking-api 怎么了", [VL, BA],
             [f["vl_policy_at"], ["sys/policies/acl/booking-api"], f["vl_first_denied"], ["permission denied"]]),
        case("h6-timeline-0300", "timeline", "anything notable around 3am in syslog / notify-worker?", [SY, NO],
             [f["sy_certbot_last"], ["certbot"], f["no_first_cert"], ["CERT_HAS_EXPIRED", "certificate has expired"]]),
        case("h6-timeline-0233-zh", "timeline", "02:33 那会儿 cass-03 回来了吗？consul 和 cassandra 日志对一下时间线", [CO, CA],
             [f["ca_cql_up"], ["9042", "CQL", "Startup complete"], f["co_join"], ["EventMemberJoin", "joined"]]),
        case("h6-timeline-0141", "timeline",
             "whats going on around 01:41? got syslog, the checkin nginx log and consul", [SY, NG, CO],
             [f["sy_checkin_exit"], ["checkin-web"], f["ng_first_502"], f["co_checkin_crit"]]),
        case("h6-timeline-0310-zh", "timeline", "03:10 那波 varnish 503 是怎么来的？vault、booking-api、varnish 一起看", [VL, BA, VA],
             [f["vl_first_denied"], ["permission denied"], ["database/creds/booking-rw"], f["va_first_503_vault"]]),
        # --- incident summaries
        case("h6-incident-whole", "incident", "ok so what actually went wrong tonight? short version pls",
             [SY, CA, BA, VA, CO], [["cass-03"], ["OutOfMemoryError", "Out of memory", "OOM", "oom", "heap"],
                                    ["Operation timed out", "timed out", "timeout"], ["503"]]),
        case("h6-incident-cass-zh", "incident", "总结一下这次故障，cassandra、booking-api、consul 三个日志都在", [CA, BA, CO],
             [["cass-03"], ["GC", "OutOfMemoryError"], ["504"], ["critical"]]),
        case("h6-incident-vault", "incident",
             "bookings started failing again after 3. what went wrong? vault audit + booking-api attached", [VL, BA],
             [["sys/policies/acl/booking-api"], ["tdevlin"], ["permission denied"], ["database/creds/booking-rw"]]),
        case("h6-incident-mail-zh", "incident", "邮件通知全挂了，帮忙总结下原因 (syslog + notify-worker)", [SY, NO],
             [["certbot"], ["mail-relay"], ["CERT_HAS_EXPIRED", "certificate has expired", "证书过期", "证书已过期"]]),
        # --- the live machine
        case("h6-proc-count-zh", "process", "quay-poller 现在起了几个进程", [], ["{count:quay-poller}"],
             procs=[{"name": "quay-poller", "count": 4, "args": ["--berth", "all"]}]),
        case("h6-proc-pid", "process", "pid of fare-cache?", [], ["{pid:fare-cache}"],
             procs=[{"name": "fare-cache", "args": ["--ttl", "90s"]}]),
        case("h6-proc-user", "process", "which user is tally-gate running as", [], ["{user:tally-gate}"],
             procs=[{"name": "tally-gate", "args": ["--lane", "b"]}]),
        case("h6-socket-port-zh", "socket", "manifest-push 监听的是哪个端口", [], ["{port:manifest-push}"],
             procs=[{"name": "manifest-push", "listen": True}]),
        case("h6-disk-avail", "disk", "hw much free space left on / ?", [], ["{df:/:avail}"]),
        case("h6-disk-size-pcent-zh", "disk", "根分区总共多大，已经用了百分之几", [], ["{df:/:size}", "{df:/:pcent}"]),
        case("h6-action-kill-dock-relay", "action", "dock-relay is wedged again, kill the dock-relay process", [],
             approval={"kill": "dock-relay"}, procs=[{"name": "dock-relay", "args": ["--dock", "pembroke"]}]),
        case("h6-action-kill-ferrylog-zh", "action", "把 ferrylog-ship 进程杀掉", [],
             approval={"kill": "ferrylog-ship"}, procs=[{"name": "ferrylog-ship", "args": ["--to", "loki"]}]),
    ]
    return rows
