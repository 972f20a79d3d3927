"""The `queries-heldout12` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

BA, TC, PG = "booking-api.log", "localhost_access_log.2034-03-09.txt", "payments-gw-20340309.clef"
PX, TM, OV = "proxysql.log", "ticket-mailer.log", "openvpn-kiosks.log"
ALL = [BA, TC, PG, PX, TM, OV]

FMT = {BA: "zap console (tab-separated, JSON fields)", TC: "tomcat 9 AccessLogValve + %D (ms)",
       PG: "serilog compact JSON (CLEF)", PX: "proxysql 2.5 log (table dumps)", TM: "winston JSON",
       OV: "openvpn 2.6 server log"}


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


def cases(f, n, hm, hms):
    tl = lambda key, i: [f[key][i]]  # noqa: E731  (one timeline second)
    rows = [
        # --- counts
        case("h12-count-booking-failed", "count", "booking-api log: how many 'create booking failed' errors in total?",
             [BA, PX], [n(f["ba_create_failed"])]),
        case("h12-count-vpn-handshake-zh", "count", "openvpn 日志里 TLS handshake failed 一共出现了几次？", [OV],
             [n(f["ov_handshake_failed"])]),
        case("h12-count-proxysql-denied-zh", "count", "proxysql.log 里面 Access denied 的报错有多少条", [PX, BA],
             [n(f["px_denied"])]),
        case("h12-count-payments-void-zh", "count", "payments-gw 的 clef 日志，Voiding authorization 一共几次？", [PG],
             [n(f["pg_voids"])]),
        case("h12-count-tomcat-404", "count", "fares tomcat access log - how many 404s all night?", [TC],
             [n(f["tc_404"])]),
        # --- stats
        case("h12-stat-booking-quote-p95", "stat",
             "p95 latency_ms for POST /v1/quotes in booking-api (only the status 200 ones)?", [BA, TC], [f["ba_quote_p95"]]),
        case("h12-stat-tomcat-quote-p99-zh", "stat", "tomcat access log 里 /fares-engine/api/quote 的 %D 的 p99 是多少？换算成秒",
             [TC], [f["tc_quote_p99"]]),
        case("h12-stat-payments-acquirer-mean", "stat",
             "payments gw: which Acquirer has the highest avg Elapsed on the authorized charges?", [PG],
             [f["pg_slowest_acq"]]),
        case("h12-stat-booking-route-mean-zh", "stat", "booking-api 日志里按 route 算平均 latency_ms，哪个 route 最慢", [BA],
             [f["ba_slowest_route"]]),
        case("h12-stat-tomcat-timetable-mb", "stat",
             "total bytes served for /fares-engine/api/timetable in the tomcat log? give it in MB", [TC],
             [f["tc_timetable_mb"]]),
        case("h12-stat-payments-auth-p90-zh", "stat", "payments-gw 日志里 authorized 的 Elapsed，p90 是多少 ms", [PG, BA],
             [f["pg_auth_p90"]]),
        case("h12-stat-tomcat-max-d-zh", "stat", "fares-engine 的 tomcat 访问日志，%D 最大的一次是多少秒？", [TC],
             [f["tc_max_D_s"]]),
        # --- top / distinct
        case("h12-top3-tomcat-clients", "top", "top 3 client ips in localhost_access_log by request count pls", [TC],
             list(f["tc_top3_clients"])),
        case("h12-top3-mailer-domains-zh", "top", "ticket-mailer 日志里 ticket sent 按收件人域名统计，前三名是哪几个", [TM],
             list(f["tm_top3_domains"])),
        case("h12-top3-booking-5xx-zh", "top", "booking-api 里 5xx 最多的 3 个 route 是哪些？", [BA],
             list(f["ba_top3_5xx"])),
        case("h12-top-booking-route", "top", "which route gets the most requests in the booking api log?", [BA],
             [f["ba_top_route"]]),
        case("h12-distinct-vpn-cn", "distinct", "how many distinct kiosks (common names) connected to the vpn tonight?",
             [OV], [n(f["ov_distinct_cn"])]),
        case("h12-distinct-tomcat-ips", "distinct", "how many unique client IPs in the fares tomcat access log", [TC, BA],
             [n(f["tc_distinct_ips"])]),
        case("h12-distinct-booking-remote-zh", "distinct", "booking-api 日志里 remote 字段有多少个不同的 IP", [BA],
             [n(f["ba_distinct_remote"])]),
        # --- peaks and windows
        case("h12-peak-tomcat-minute", "peak", "busiest minute in the tomcat access log?", [TC], [f["tc_peak_minute"]]),
        case("h12-peak-mailer-hour-zh", "peak", "ticket-mailer 按小时统计 ticket sent，哪个小时发得最多", [TM],
             [hour(f["tm_sent_hour"])]),
        case("h12-window-booking-503-zh", "window", "booking-api 日志 02:10 到 02:30 之间 status 503 的请求有多少个", [BA],
             [n(f["ba_503_window"])]),
        case("h12-window-proxysql-maxconn-zh", "window",
             "proxysql 日志里 02:10-02:30 这段时间 Max connect timeout 出现了几次", [PX], [n(f["px_maxconn_window"])]),
        case("h12-window-tomcat-aggregator", "window",
             "how many requests did 198.51.100.23 send between 03:10 and 03:40 per the tomcat log?", [TC],
             [n(f["tc_agg_window"])]),
        # --- follow-ups (only the last turn is scored)
        case("h12-followup-booking-failed-last", "followup", "and the last one?", [BA], [hms(f["ba_cbf_last"])],
             turns=["how many create booking failed in booking-api.log?", "when was the first?"]),
        case("h12-followup-tomcat-client-bytes-zh", "followup", "它总共传了多少字节？用 MB", [TC], [f["tc_agg_bytes"]],
             turns=["tomcat access log 里哪个 IP 请求数最多"]),
        case("h12-followup-payments-acquirer-n", "followup", "how many did it authorize?", [PG], [n(f["pg_top_acq_n"])],
             turns=["payments log - which acquirer authorized the most charges?"]),
        case("h12-followup-vpn-expired-last-zh", "followup", "那最后一次呢", [OV], [hms(f["ov_expired_last"])],
             turns=["openvpn 日志里哪个 kiosk 握手失败最多？", "它第一次失败是几点"]),
        case("h12-followup-mailer-mean-seconds", "followup", "in seconds?", [TM], [f["tm_mean_s"]],
             turns=["ticket-mailer: avg durationMs of 'ticket sent'?"]),
        case("h12-followup-booking-5xx-hour-zh", "followup", "按小时分呢，哪个小时最多，多少个", [BA],
             [hour(f["ba_5xx_hour"]), n(f["ba_5xx_hour_n"])], turns=["booking-api 的 request served 里 5xx 一共多少"]),
        case("h12-followup-proxysql-denied-user", "followup", "which user is that, from which host?", [PX],
             [f["px_denied_user"], f["px_denied_host"]],
             turns=["anything noisy in proxysql.log?", "how many Access denied errors?"]),
        case("h12-followup-disk-avail-zh", "followup", "那还剩多少空间", [], ["{df:/:avail}"], turns=["/ 用了百分之多少"]),
        case("h12-followup-tomcat-404-second", "followup", "the 2nd one, how many exactly?", [TC],
             [n(f["tc_404_second"])], turns=["top 3 paths returning 404 in the fares tomcat log"]),
        # --- what happened around HH:MM, across two or three logs (each event's second, and its marker)
        case("h12-timeline-0107", "timeline",
             "what happened around 1:07? booking-api + the fares tomcat access log, with timestamps", [BA, TC],
             [tl("tl_fares", 0), tl("tl_fares", 1), ["connection refused"], tl("tl_fares", 2), tl("tl_fares", 3)]),
        case("h12-timeline-0213-zh", "timeline", "2:13 前后 proxysql 和 booking-api 日志里发生了什么？按秒排一下", [PX, BA],
             [tl("tl_load", 0), ["LOAD MYSQL SERVERS", "OFFLINE_SOFT"], tl("tl_load", 1), ["Max connect timeout"],
              tl("tl_load", 2), ["create booking failed"]]),
        case("h12-timeline-0224", "timeline",
             "walk me thru 02:24-02:25: proxysql, booking-api and the ticket mailer, in order", [PX, BA, TM],
             [tl("tl_fix", 0), ["LOAD MYSQL SERVERS", "ONLINE"], tl("tl_fix", 1), ["create booking failed"],
              tl("tl_fix", 2), ["ticket sent"]]),
        case("h12-timeline-0210-0230-zh", "timeline", "02:10 到 02:30 payments-gw 和 ticket-mailer 两个日志的时间线，带秒",
             [PG, TM],
             [tl("tl_mail", 0), ["Voiding authorization", "booking not confirmed"], tl("tl_mail", 1),
              ["no booking.confirmed"], tl("tl_mail", 2), tl("tl_mail", 3)]),
        case("h12-timeline-0315", "timeline", "fares got slow ~3:15. timeline from tomcat access log + booking-api pls",
             [TC, BA],
             [tl("tl_agg", 0), ["198.51.100.23"], tl("tl_agg", 1), ["fares quote slow"], tl("tl_agg", 2), ["403"],
              tl("tl_agg", 3)]),
        case("h12-timeline-0341-zh", "timeline", "3:41 左右 openvpn 和 booking-api 发生了什么，按时间顺序列出来", [OV, BA],
             [tl("tl_vpn", 0), ["SIGTERM"], tl("tl_vpn", 1), ["Initialization Sequence Completed"], tl("tl_vpn", 2),
              ["Peer Connection Initiated"], tl("tl_vpn", 3)]),
        case("h12-timeline-0352", "timeline", "what happend 03:52-04:03 in payments-gw and booking-api? exact seconds", [PG, BA],
             [tl("tl_np", 0), ["did not respond", "TimeoutMs", "TaskCanceledException"], tl("tl_np", 1), ["opened"],
              tl("tl_np", 2), ["payment failed"], tl("tl_np", 3), ["closed"]]),
        # --- incident summaries: the cause and the first failure
        case("h12-incident-db", "incident",
             "bookings failed for ~10 min after 2am. root cause + when did it start failing? proxysql + booking-api attached",
             [PX, BA], [["OFFLINE_SOFT"], [hm(f["px_maxconn_first"]), hm(f["ba_cbf_first"])]]),
        case("h12-incident-payments-zh", "incident", "快 4 点的时候付款一直失败，原因是啥，从几点开始的？", [PG, BA],
             [["NorthPay"], [hm(f["pg_timeout_first"])]]),
        case("h12-incident-vpn", "incident", "rosslare terminal kiosk went offline, whats wrong and since when? vpn log", [OV],
             [[f["ov_worst_cn"]], ["certificate has expired", "expired"], [hm(f["ov_expired_first"])]]),
        case("h12-incident-quotes-zh", "incident", "1 点多报价接口报错了，看下 booking-api 和 tomcat 日志，什么原因，几点开始", [BA, TC],
             [["connection refused"], [hm(f["ba_refused_first"])]]),
        case("h12-incident-fares-slow", "incident", "why were quotes slow after 3am? who caused it and from what time?",
             [TC, BA], [["198.51.100.23"], [hm(f["tc_agg_first"]), hm(f["ba_slow_first"])]]),
        case("h12-incident-night-zh", "incident", "把昨晚所有的故障总结一下，六个日志都在", ALL,
             [["OFFLINE_SOFT"], ["NorthPay"], [f["ov_worst_cn"]], ["198.51.100.23"]]),
        # --- the live machine
        case("h12-proc-count", "process", "how many fare-sync processes running rn?", [], ["{count:fare-sync}"],
             procs=[{"name": "fare-sync", "count": 3, "args": ["--route", "DOV-CAL"]}]),
        case("h12-proc-pid-zh", "process", "berth-monitor 进程的 pid 是多少？", [], ["{pid:berth-monitor}"],
             procs=[{"name": "berth-monitor", "args": ["--port", "RSL"]}]),
        case("h12-action-kill", "action", "manifest-export is stuck eating cpu, kill it pls", [],
             approval={"kill": "manifest-export"}, procs=[{"name": "manifest-export", "args": ["--sailing", "all"]}]),
        case("h12-action-kill-zh", "action", "kiosk-relay 这个进程卡住了，帮我把它停掉", [],
             approval={"kill": "kiosk-relay"}, procs=[{"name": "kiosk-relay", "args": ["--site", "dover"]}]),
    ]
    return rows
