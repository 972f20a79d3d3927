"""The `queries-heldout9` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

VAR, KAPI, ETCD = "varnishncsa-cache-1.log", "kube-apiserver-k8s-cp-1.log", "etcd-k8s-cp-1.log"
MY, CASS, FLU, SYS = "db-acct-1-mysqld.log", "cass-2-system.log", "fluentd-logship-1.log", "syslog-cache.log"

FMT = {VAR: "varnishncsa with %{Varnish:handling}x and %D (µs, %t = request start, absolute URL in %r)",
       KAPI: "kube-apiserver klog with httplog key=value lines (Go-duration latency) and Trace continuations",
       ETCD: "etcd 3.5 zap JSON (Go-duration took)",
       MY: "MySQL 8.0 error log with a crash dump",
       CASS: "Cassandra 4.1 system.log (logback, stack traces)",
       FLU: "Fluentd 1.16 log with indented backtraces",
       SYS: "syslog RFC 3164 of two hosts (keepalived, varnishd, kernel, cron)"}


def case(id_, cat, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    if files:
        c["fmt"] = " + ".join(FMT[x] for x in sorted(files))
    return c


def hour(h):
    """An hour as an answer may name it."""
    return [f"{h}:00", f"0{h}:00", f"{h}点", f"{h} 点", f"{h}时", f"{h}h", f"hour {h}", f"{h}:xx"]


def cases(f, n, ms_opts, secs_ms, hm, hms):
    rows = [
        # --- counts
        case("h9-count-varnish-503", "count", "varnish on cache-1 - how many 503s in its access log? syslog's up too",
             [VAR, SYS], [n(f["v_503"])]),
        case("h9-count-etcd-slow-apply-zh", "count",
             "k8s-cp-1 上 etcd 的日志，\"apply request took too long\" 一共多少条？apiserver 的日志也传了", [ETCD, KAPI],
             [n(f["e_slow_apply"])]),
        case("h9-count-mysql-aborted", "count", "db-acct-1 mysql error log: count of Aborted connection notes pls", [MY],
             [n(f["m_aborted"])]),
        case("h9-count-syslog-conntrack-zh", "count", "cache 机器那份 syslog 里 nf_conntrack table full 报了几次", [SYS, VAR],
             [n(f["s_conntrack"])]),
        case("h9-count-fluentd-flush", "count",
             "fluentd on logship-1 - how many times did it log 'failed to flush the buffer'?", [FLU, KAPI],
             [n(f["f_flush_fail"])]),
        # --- clock windows
        case("h9-window-varnish-503-zh", "window", "varnish 访问日志 01:20~01:30 之间一共有多少个 503", [VAR, MY],
             [n(f["v_503_window"])]),
        case("h9-window-apiserver-504-zh", "window", "kube-apiserver 日志，00:40 到 01:00 这段时间 resp=504 的有几条",
             [KAPI, ETCD], [n(f["k_504_window"])]),
        case("h9-window-mysql-denied", "window",
             "mysql error log on db-acct-1, how many Access denied between 02:00 and 02:30 utc?", [MY, KAPI],
             [n(f["m_denied_window"])]),
        # --- distinct
        case("h9-distinct-varnish-ips", "distinct", "how many distinct client ips hit varnish (cache-1) tonight", [VAR],
             [n(f["v_ips"])]),
        case("h9-distinct-apiserver-srcip", "distinct",
             "apiserver httplog lines: how many unique source IPs in srcIP? ignore the port", [KAPI],
             [n(f["k_src_ips"])]),
        case("h9-distinct-mysql-aborted-hosts-zh", "distinct", "mysql 错误日志里 Aborted connection 的 host 一共有多少个不同的",
             [MY], [n(f["m_aborted_hosts"])]),
        # --- top 3
        case("h9-top3-varnish-ips", "top", "varnish access log on cache-1, top 3 client IPs by number of requests?",
             [VAR, SYS], list(f["v_top_ips"])),
        case("h9-top3-apiserver-ua-zh", "top", "kube-apiserver 的日志按 userAgent 统计请求数，前三是哪几个", [KAPI, ETCD],
             [[f["k_top_ua"][0]], [f["k_top_ua"][1]], [f["k_top_ua"][2], "argocd"]]),
        case("h9-top3-mysql-aborted-users", "top", "which 3 mysql users rack up the most aborted connections? db-acct-1 error log",
             [MY], list(f["m_top_users"])),
        case("h9-top3-cassandra-tombstone-zh", "top", "cass-2 的 cassandra system.log，tombstone 告警最多的前三张表是哪些", [CASS],
             list(f["c_top_tables"])),
        # --- statistics in a unit the log does not use
        case("h9-stat-varnish-history-p95", "stat", "p95 of %D for GET /v2/rides/history in the varnish log - in ms please",
             [VAR], [ms_opts(f["v_hist_p95_ms"])]),
        case("h9-stat-apiserver-list-mean-zh", "stat", "apiserver 日志里 verb=LIST 的请求 latency 平均多少毫秒", [KAPI],
             [ms_opts(f["k_list_mean_ms"])]),
        case("h9-stat-cassandra-young-mean", "stat", "cassandra cass-2: average G1 Young Generation GC pause, in seconds?",
             [CASS], [secs_ms(f["c_young_mean_ms"])]),
        case("h9-stat-mysql-pagecleaner-mean-zh", "stat", "db-acct-1 的 mysql 日志里 Page cleaner took 那些，平均耗时多少秒",
             [MY], [secs_ms(f["m_pc_mean_ms"])]),
        case("h9-stat-etcd-fdatasync-min", "stat", "etcd log on k8s-cp-1: shortest took among the slow fdatasync warnings, in ms?",
             [ETCD, KAPI], [ms_opts(f["e_fdsync_min_ms"])]),
        # --- peaks
        case("h9-peak-varnish-503-minute", "peak", "which minute had the most 503s in the varnish log?", [VAR],
             [f["v_503_minute"]]),
        case("h9-peak-mysql-aborted-hour-zh", "peak", "mysql 错误日志里 Aborted connection 哪个小时最多", [MY],
             [hour(f["m_aborted_hour"])]),
        # --- follow-ups (only the last turn is scored)
        case("h9-followup-apiserver-404", "followup", "and 404?", [KAPI], [n(f["k_404"])],
             turns=["kube-apiserver log on k8s-cp-1 - how many requests ended with resp=409?"]),
        case("h9-followup-varnish-top-ip-429", "followup", "how many of its requests got a 429?", [VAR],
             [n(f["v_scraper_429"])], turns=["which client IP sent the most requests through varnish on cache-1?"]),
        case("h9-followup-varnish-miss-minute-zh", "followup", "按分钟看呢，哪一分钟 miss 最多", [VAR, SYS],
             [f["v_miss_minute"]], turns=["varnish 日志里 handling 是 miss 的请求有多少条"]),
        case("h9-followup-mysql-denied-last-zh", "followup", "它最后一次被拒是几点", [MY], [f["m_denied_last"]],
             turns=["db-acct-1 mysql error log 里 Access denied 最多的是哪个用户"]),
        case("h9-followup-apiserver-slowest-id", "followup", "its audit-ID?", [KAPI], [f["k_slowest_id"]],
             turns=["apiserver log: what was the slowest request that isn't a WATCH?"]),
        case("h9-followup-varnish-unlock-p95", "followup", "and p95?", [VAR], [ms_opts(f["v_unlock_p95_ms"])],
             turns=["varnish log: mean %D of the 200 POST /v2/unlock requests, in ms?"]),
        case("h9-followup-varnish-503-second-zh", "followup", "第二个呢，它一共有多少请求（不管状态码）", [VAR],
             [n(f["v_history_total"])], turns=["varnish 访问日志里 503 最多的前三个 path 是哪些"]),
        case("h9-followup-fluentd-last-zh", "followup", "最后一次呢", [FLU], [f["f_last_fail"]],
             turns=["logship-1 的 fluentd 日志，第一次 failed to flush the buffer 是几点"]),
        case("h9-followup-cassandra-gc-secs-zh", "followup", "停了多少秒", [CASS], [secs_ms(f["c_gc_max_ms"])],
             turns=["cass-2 的 system.log 里最长的那次 GC 是几点"]),
        # --- what happened around HH:MM, across two or three logs
        case("h9-timeline-0044", "timeline", "what happened around 00:44? etcd + kube-apiserver logs from k8s-cp-1",
             [ETCD, KAPI], [f["e_defrag_start"], ["defrag", "Defrag"], f["e_leader_change"], f["k_first_504"]]),
        case("h9-timeline-0123-zh", "timeline", "01:23 前后 mysql error log 和 varnish 访问日志里都发生了什么，按时间顺序列一下",
             [MY, VAR], [f["m_disk_full"], ["ABORT_SERVER", "signal 6", "Server is being stopped"], f["v_i2_first"],
                         f["m_restart_try"]]),
        case("h9-timeline-0205-zh", "timeline", "2:05 左右 cache-1 上发生了什么？syslog 和 varnish 日志一起看", [SYS, VAR],
             [f["s_ban"], ["varnishadm", "ban"], ["miss"]]),
        case("h9-timeline-0207-zh", "timeline", "02:07 前后 apiserver 和 mysql 日志里发生了啥", [KAPI, MY],
             [f["k_job_create"], f["m_denied_first"], ["Access denied"], ["reporting"]]),
        case("h9-timeline-0233", "timeline", "around 02:33 - cassandra cass-2 log + varnish log, what's going on? timeline pls",
             [CASS, VAR], [f["c_repair_start"], f["c_first_old"], ["Old Generation", "Old Gen"], f["v_i3_first"]]),
        case("h9-timeline-0311-zh", "timeline", "3:11 左右 syslog 和 varnish 日志都有什么，按秒列出来", [SYS, VAR],
             [f["s_panic"], ["died", "Panic", "signal=6"], f["s_fault"], f["s_c2_master"]]),
        case("h9-timeline-0340", "timeline", "walk me through ~03:40 across the apiserver, fluentd and mysql logs",
             [KAPI, FLU, MY], [f["k_cordon"], f["m_burst_first"], f["k_es_evict"], f["f_first_fail"]]),
        case("h9-timeline-0127", "timeline",
             "anything around 01:27 in the db-acct-1 mysql error log and varnish? need to know when things came back",
             [MY, VAR], [f["m_manual_start"], f["m_ready"], f["v_i2_last"]]),
        # --- what went wrong
        case("h9-incident-apiserver-timeouts", "incident",
             "kubectl was hanging and kube-apiserver threw timeouts around 00:45 - what went wrong? etcd + apiserver logs attached",
             [ETCD, KAPI], [["defrag", "Defrag"], [hm_(f["e_defrag_start"])], ["504", "timed out", "Timeout", "timeout"],
                            ["leader"]]),
        case("h9-incident-unlock-down-zh", "incident",
             "1点20几分开锁和还车接口全挂了，总结一下这次故障。mysql 错误日志和 varnish 日志都在", [MY, VAR],
             [["Disk is full", "No space left", "errno 28", "disk full", "磁盘已满", "磁盘满"], ["binlog"],
              [hm_(f["m_disk_full"])], ["503"]]),
        case("h9-incident-history-503", "incident",
             "ride history kept failing from ~2:33 for 15 min or so. cassandra (cass-2) + varnish logs - root cause?",
             [CASS, VAR], [["repair", "Repair"], ["Old Generation", "Old Gen", "GC"], [hm_(f["c_repair_start"])],
                           ["/v2/rides/history", "rides/history"]]),
        case("h9-incident-cache1-zh", "incident", "3点11分 cache-1 出了什么事？总结一下，syslog + varnish", [SYS, VAR],
             [["Panic", "died", "signal=6", "signal 6"], ["cache-2"], ["FAULT", "MASTER", "keepalived", "Keepalived", "VIP"]]),
        case("h9-incident-logs-missing", "incident",
             "kibana had no logs from ~3:40 to ~3:52, why? fluentd (logship-1) and apiserver logs attached", [FLU, KAPI],
             [["drain", "evict", "Evict", "cordon"], ["es-logs"], ["Connection refused", "ECONNREFUSED"],
              [hm_(f["k_es_evict"])]]),
        case("h9-incident-reporting-zh", "incident",
             "2点多 reporting 那边一直连不上 mysql，怎么回事？apiserver 和 db-acct-1 的 mysql 日志都传了", [KAPI, MY],
             [["Access denied"], ["reporting"], [f["k_job_name"], "nightly-export"], [hm_(f["m_denied_first"])]]),
        # --- the live machine
        case("h9-proc-count", "process", "how many dockd-reaper processes running on this box rn?", [],
             ["{count:dockd-reaper}"], procs=[{"name": "dockd-reaper", "count": 5, "args": ["--older-than", "6h"]}]),
        case("h9-proc-pid-zh", "process", "ridelog-shipper 的 pid 是多少", [], ["{pid:ridelog-shipper}"],
             procs=[{"name": "ridelog-shipper", "args": ["--to", "logship-1:24224"]}]),
        case("h9-socket-port-zh", "socket", "tilecache-warm 在监听哪个端口", [], ["{port:tilecache-warm}"],
             procs=[{"name": "tilecache-warm", "listen": True, "args": ["--zoom", "12-16"]}]),
        case("h9-disk-root-zh", "disk", "这台机器根分区 / 用了百分之多少", [], ["{df:/:pcent}"]),
        case("h9-action-kill-poller", "action", "kiosk-poller is hammering the accounts db again. kill it", [],
             approval={"kill": "kiosk-poller"}, procs=[{"name": "kiosk-poller", "args": ["--interval", "1s"]}]),
    ]
    return rows


def hm_(hms_):
    """The minute of an `H:MM:SS` figure."""
    return hms_.rsplit(":", 1)[0]
