"""The `queries-heldout10` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

CAD, SEAT, PGL = "caddy-edge-1-access.log", "seatd.log", "postgresql-pg-seats-1.log"
RED, KFK, DNS = "redis-q1.log", "kfk-2-server.log", "coredns.log"

FMT = {CAD: "Caddy 2 JSON access log (iso8601 ts, duration in seconds, nested request)",
       SEAT: "Spring Boot 2.7 default console log (logback) with stack traces",
       PGL: "PostgreSQL stderr log, log_line_prefix '%m [%p] %q%u@%d ' with DETAIL/STATEMENT lines",
       RED: "Redis 7 server log (pid:role date level-char)",
       KFK: "Kafka 3.x server.log (log4j) with a stack trace",
       DNS: "CoreDNS log plugin via kubectl logs --timestamps (Go durations)"}


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


def hm_(hms_):
    """The minute of an `H:MM:SS` figure."""
    return hms_.rsplit(":", 1)[0]


def dns_name(x):
    return [x, x.rstrip(".")]


def cases(f, n, ms_opts, secs_ms, hm, hms):
    rows = [
        # --- counts
        case("h10-count-caddy-502", "count", "edge-1 caddy access log - how many requests came back with status 502? seatd log is up too",
             [CAD, SEAT], [n(f["c_502"])]),
        case("h10-count-redis-fork-zh", "count", "redis-q1 的日志里 \"Can't save in background\" 一共出现了几次？seatd 的也传了",
             [RED, SEAT], [n(f["r_fork"])]),
        case("h10-count-coredns-timeout", "count", "coredns logs: how many i/o timeout errors did plugin/errors throw", [DNS],
             [n(f["d_timeouts"])]),
        case("h10-count-seatd-hikari-zh", "count", "seatd 日志里 HikariPool 报 Connection is not available 的一共多少次", [SEAT, PGL],
             [n(f["s_hikari"])]),
        case("h10-count-kafka-rolls", "count", "kfk-2 broker log, count of 'Rolled new log segment' lines pls", [KFK],
             [n(f["k_rolls"])]),
        # --- clock windows
        case("h10-window-caddy-503-zh", "window", "caddy 访问日志里 02:50 到 03:10 之间 status 503 有多少个", [CAD, PGL],
             [n(f["c_503_window"])]),
        case("h10-window-pg-waits", "window",
             "postgres on pg-seats-1: how many 'still waiting for' lock waits between 02:45 and 03:05 utc?", [PGL, SEAT],
             [n(f["p_wait_window"])]),
        case("h10-window-seatd-kafka-zh", "window",
             "seatd 日志 02:20-02:30 这段，Connection to node 3 could not be established 一共报了几条", [SEAT, KFK],
             [n(f["s_kconn_window"])]),
        # --- distinct
        case("h10-distinct-caddy-ips", "distinct", "how many unique remote_ip values in the caddy log on edge-1", [CAD],
             [n(f["c_ips"])]),
        case("h10-distinct-coredns-clients-zh", "distinct", "coredns 日志里一共有多少个不同的客户端 IP 发过查询（不算端口）", [DNS],
             [n(f["d_ips"])]),
        case("h10-distinct-pg-pids-zh", "distinct", "pg-seats-1 的 postgres 日志，前缀里的 [pid] 一共有多少个不同的", [PGL],
             [n(f["p_pids"])]),
        # --- top 3
        case("h10-top3-caddy-ips-zh", "top", "edge-1 的 caddy 日志，请求量最多的前三个 remote_ip 是哪几个", [CAD, SEAT],
             list(f["c_top_ips"])),
        case("h10-top3-coredns-names", "top", "top 3 most queried names in the coredns log?", [DNS],
             [dns_name(x) for x in f["d_top_names"]]),
        case("h10-top3-seatd-error-loggers-zh", "top", "seatd 日志里 ERROR 最多的三个 logger 是哪些", [SEAT],
             list(f["s_top_err"])),
        case("h10-top3-pg-users", "top", "which 3 users show up most in the 'connection authorized' lines of the pg-seats-1 log?",
             [PGL], list(f["p_top_users"])),
        # --- statistics in a unit the log does not use
        case("h10-stat-caddy-seatmap-p95-zh", "stat", "caddy 日志里 GET /api/v3/seatmap 的 duration p95 是多少毫秒", [CAD],
             [ms_opts(f["c_seat_p95_ms"])]),
        case("h10-stat-caddy-checkout-mean", "stat",
             "mean duration of the POST /api/v3/checkout requests that returned 200, caddy edge-1, in ms", [CAD],
             [ms_opts(f["c_co_mean_ms"])]),
        case("h10-stat-pg-checkpoint-mean-zh", "stat", "pg-seats-1 的 postgres 日志，checkpoint complete 那些 total 平均是多少毫秒",
             [PGL], [ms_opts(f["p_cp_mean_ms"])]),
        case("h10-stat-pg-seatd-mean", "stat", "avg duration: of the statements run by user seatd in the postgres log, in seconds?",
             [PGL, SEAT], [secs_ms(f["p_seatd_mean_ms"])]),
        case("h10-stat-seatd-took-p95", "stat", "seatd log: p95 of took= on the 'Hold created' lines, in seconds", [SEAT],
             [secs_ms(f["s_took_p95_ms"])]),
        # --- peaks
        case("h10-peak-coredns-servfail-minute", "peak", "which minute had the most SERVFAIL answers in coredns?", [DNS],
             [f["d_sf_minute"]]),
        case("h10-peak-seatd-error-hour-zh", "peak", "seatd 日志 ERROR 哪个小时最多", [SEAT], [hour(f["s_err_hour"])]),
        # --- follow-ups (only the last turn is scored)
        case("h10-followup-caddy-404", "followup", "and 404?", [CAD], [n(f["c_404"])],
             turns=["caddy on edge-1: how many requests got status 500?"]),
        case("h10-followup-caddy-top-ip-429", "followup", "how many of its requests got a 429", [CAD],
             [n(f["c_scraper_429"])], turns=["which remote_ip made the most requests through caddy on edge-1?"]),
        case("h10-followup-caddy-429-minute-zh", "followup", "按分钟看呢，哪一分钟最多", [CAD, SEAT], [f["c_429_minute"]],
             turns=["caddy 访问日志里 status 429 一共有多少条"]),
        case("h10-followup-pg-rx-last-zh", "followup", "最后一次呢", [PGL], [f["p_last_rx"]],
             turns=["pg-seats-1 的 postgres 日志里第一次 still waiting for RowExclusiveLock 是几点"]),
        case("h10-followup-pg-longest-pid", "followup", "which pid ran it?", [PGL], [str(f["p_longest_pid"])],
             turns=["pg-seats-1 postgres log: which statement had the longest duration:?"]),
        case("h10-followup-caddy-qstat-p95", "followup", "and the p95?", [CAD], [ms_opts(f["c_qstat_p95_ms"])],
             turns=["caddy log: mean duration of GET /api/v3/queue/status, in ms?"]),
        case("h10-followup-kafka-second-zh", "followup", "第二个呢，它滚了多少次", [KFK], [n(f["k_second_rolls"])],
             turns=["kfk-2 的 server.log 里按 topic 统计 Rolled new log segment，前三是哪几个"]),
        case("h10-followup-caddy-checkout-503-zh", "followup", "那 /api/v3/checkout 呢", [CAD], [n(f["c_checkout_503"])],
             turns=["caddy 日志里 POST /api/v3/holds 返回 503 的有几个"]),
        case("h10-followup-coredns-slowest-ms-zh", "followup", "花了多少毫秒", [DNS], [ms_opts(f["d_slowest_ms"])],
             turns=["coredns 日志里耗时最长的那次查询，查的是哪个域名"]),
        # --- what happened around HH:MM, across two or three logs
        case("h10-timeline-0137", "timeline", "what happened around 01:37? redis-q1 and seatd logs", [RED, SEAT],
             [f["r_first_fork"], ["fork", "Cannot allocate memory"], f["s_first_misconf"], ["MISCONF"]]),
        case("h10-timeline-0144-zh", "timeline", "01:44 前后 redis 和 caddy 日志里发生了什么，按时间顺序列一下", [RED, CAD],
             [f["r_rewrite"], ["CONFIG REWRITE"], f["c_last_500"], f["r_save_done"]]),
        case("h10-timeline-0221-zh", "timeline", "2:21 左右 kafka（kfk-2）和 seatd 日志里都有啥", [KFK, SEAT],
             [f["s_node3"], f["k_fetch_err"], f["k_first_shrink"], ["Shrinking ISR"]]),
        case("h10-timeline-0229", "timeline", "~02:29 - kafka server.log + seatd log, what's going on? timeline by the second",
             [KFK, SEAT], [f["s_last_kconn"], f["k_first_expand"], ["Expanding ISR"]]),
        case("h10-timeline-0252-zh", "timeline", "02:52 前后 postgres 和 seatd 日志里发生了什么，按秒列出来", [PGL, SEAT],
             [f["p_alter"], f["p_alter_wait"], ["AccessExclusiveLock"], f["p_first_rx"], f["s_first_hikari"]]),
        case("h10-timeline-0302", "timeline", "walk me through ~03:02 across the postgres, seatd and caddy logs", [PGL, SEAT, CAD],
             [f["p_cancel"], ["canceling statement due to user request", "user request"], f["s_last_hikari"], f["c_last_503"]]),
        case("h10-timeline-0348-zh", "timeline", "3:48 左右 coredns、seatd 和 caddy 日志里发生了什么", [DNS, SEAT, CAD],
             [f["d_first_err"], ["i/o timeout"], f["s_first_pay"], f["c_first_502"]]),
        case("h10-timeline-0355", "timeline", "around 03:55 in coredns and caddy - when did things come back?", [DNS, CAD],
             [f["d_reload"], ["Reloading", "reload"], f["c_last_502"]]),
        # --- what went wrong
        case("h10-incident-queue-join", "incident",
             "queue joins were erroring from ~1:37 for about 7 min - what went wrong? redis-q1 + seatd logs attached", [RED, SEAT],
             [["fork", "Cannot allocate memory"], ["MISCONF", "stop-writes-on-bgsave-error"], [hm_(f["r_first_fork"])]]),
        case("h10-incident-queue-join-zh", "incident",
             "1点40左右排队接口（/api/v3/queue/join）一直失败，总结一下这次故障，caddy 和 redis 日志都在", [CAD, RED],
             [["Cannot allocate memory", "fork"], ["500"], [hm_(f["r_first_fork"])], ["CONFIG REWRITE", hm_(f["r_save_done"])]]),
        case("h10-incident-holds", "incident",
             "holds and checkout were timing out from ~02:52 for ten minutes. postgres + seatd logs - root cause?", [PGL, SEAT],
             [["ALTER TABLE"], ["AccessExclusiveLock"], ["seat_hold"], ["Connection is not available", "HikariPool", "Hikari"],
              [hm_(f["p_alter"])]]),
        case("h10-incident-holds-zh", "incident",
             "2点50多开售以后抢座和下单一直失败，过了十分钟才好，怎么回事？pg-seats-1 的 postgres 日志和 caddy 日志都传了", [PGL, CAD],
             [["ALTER TABLE"], ["seat_hold"], ["503"], [hm_(f["p_alter"])]]),
        case("h10-incident-payments", "incident",
             "card payments failed for ~7 min around 3:50 - coredns + seatd logs attached, what broke?", [DNS, SEAT],
             [["i/o timeout"], ["10.0.0.2"], ["api.paystream.example"], ["UnknownHostException"], [hm_(f["d_first_err"])]]),
        case("h10-incident-kafka-zh", "incident", "2点21分 kafka 那边出了什么事？kfk-2 的 server.log 和 seatd 日志，总结一下",
             [KFK, SEAT], [["node 3", "kfk-3", "broker 3", "leaderId=3"], ["Shrinking ISR", "ISR"], [hm_(f["k_fetch_err"])],
                           ["Expanding ISR", hm_(f["k_first_expand"])]]),
        # --- the live machine
        case("h10-proc-count", "process", "how many holdsweeper procs are running on this host", [],
             ["{count:holdsweeper}"], procs=[{"name": "holdsweeper", "count": 4, "args": ["--ttl", "900"]}]),
        case("h10-proc-pid-zh", "process", "seatmap-warmer 这个进程的 pid 是多少", [], ["{pid:seatmap-warmer}"],
             procs=[{"name": "seatmap-warmer", "args": ["--events", "E-7781,E-7702"]}]),
        case("h10-socket-port-zh", "socket", "queue-relay 在监听哪个端口", [], ["{port:queue-relay}"],
             procs=[{"name": "queue-relay", "listen": True, "args": ["--upstream", "redis-q1:6379"]}]),
        case("h10-disk-root-zh", "disk", "根分区 / 现在用了百分之多少", [], ["{df:/:pcent}"]),
        case("h10-action-kill-replayer", "action", "refund-replayer is refunding orders twice. kill that process", [],
             approval={"kill": "refund-replayer"}, procs=[{"name": "refund-replayer", "args": ["--since", "2h"]}]),
    ]
    return rows
