"""The `queries-heldout21` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

ALB, PG, REDIS = "alb-access.log", "postgresql-16-main.log", "redis-server.log"

FMT = {ALB: "aws application load balancer access log (space-separated: type, time (response sent), elb, client:port, "
            "target:port, request/target/response processing times in s (-1 when none), elb_status_code, "
            "target_status_code ('-' when none), received/sent bytes, quoted request and user agent, tls, target group, "
            "trace, domain, cert, rule priority, request_creation_time, actions and lists)",
       PG: "postgresql 16 stderr log, log_line_prefix '%m [%p] %q%u@%d ' (LOG/ERROR/FATAL with DETAIL, HINT, CONTEXT, "
           "STATEMENT lines; 'duration: N ms  execute/statement:' slow statements; tab-led continuation lines)",
       REDIS: "redis 7.2 server log ('pid:role dd Mon yyyy hh:mm:ss.mmm level message', role M primary / C rdb child, "
              "level * notice / # warning; bgsave, fork CoW, client list lines closed for output buffer limits, "
              "replica sync)"}


def case(id_, cat, area, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    c["area"] = area
    c["fmt"] = " + ".join(FMT[x] for x in sorted(files)) if files else "live processes"
    return c


def cases(f, n, hm, hms):
    tl = lambda key, i: f[key][i]  # noqa: E731  (one timeline event: its second, or either of two readings)
    rows = [
        # ------------------------------------------------------------ alb-access.log (AWS ALB)
        case("h21-alb-count-504", "count", "alb", "how many 504s did the alb log tonight", [ALB],
             [n(f["a_504"])]),
        case("h21-alb-count-tgt500-zh", "count", "alb", "alb-access.log 里 target_status_code 是 500 的请求有多少条？",
             [ALB, REDIS], [n(f["a_tgt500"])]),
        case("h21-alb-p95-seats", "stat", "alb",
             "p95 target_processing_time for GET /api/v2/events/48213/seats across the whole alb log?", [ALB],
             [f["a_seats_p95"]]),
        case("h21-alb-slowest-zh", "stat", "alb", "ALB 日志里 target_processing_time 最长的那个请求是哪个路径？花了多少秒？",
             [ALB], [f["a_slowest_path"], f["a_slowest"]]),
        case("h21-alb-biggest", "stat", "alb",
             "largest response in the alb access log by sent_bytes? which file was it and exact bytes", [ALB, PG],
             [f["a_biggest_path"], n(f["a_biggest"])]),
        case("h21-alb-top3-clients-zh", "top", "alb", "alb-access.log 按 client IP 统计请求数，前三名是谁？", [ALB],
             list(f["a_top3_clients"])),
        case("h21-alb-top3-bytes", "top", "alb", "top 3 client ips by total sent_bytes in the load balancer log", [ALB],
             list(f["a_top3_bytes"])),
        case("h21-alb-first-504-zh", "first", "alb", "ALB 第一次出现 504 是几点几分几秒（UTC）？", [ALB, PG],
             [f["a_first_504"]]),
        case("h21-alb-last-504", "last", "alb", "when did the last 504 happen on the alb? to the second pls", [ALB],
             [f["a_last_504"]]),
        case("h21-alb-peak-zh", "peak", "alb", "ALB 日志按分钟算请求量，哪一分钟最高？", [ALB],
             [f["a_peak"]]),
        case("h21-alb-window-500", "window", "alb", "between 02:15 and 02:35 how many requests got elb_status_code 500?",
             [ALB], [n(f["a_window_500"])]),
        case("h21-alb-distinct-ips", "distinct", "alb", "how many unique client ips hit the alb tonite?", [ALB],
             [n(f["a_distinct_ips"])]),
        case("h21-alb-share-5xx-zh", "share", "alb", "今晚 ALB 的请求里 elb_status_code 是 5xx 的占百分之多少？", [ALB],
             [f["a_share_5xx"]]),
        # ------------------------------------------------------------ postgresql-16-main.log
        case("h21-pg-count-toomany-zh", "count", "pg", "postgres 日志里 \"sorry, too many clients already\" 一共出现了多少次？",
             [PG], [n(f["p_toomany"])]),
        case("h21-pg-count-lockwait", "count", "pg", "how many 'still waiting for' lock waits are in the postgres log?",
             [PG, ALB], [n(f["p_lockwait"])]),
        case("h21-pg-count-errors-zh", "count", "pg", "postgresql-16-main.log 里 ERROR 级别的有几条？", [PG],
             [n(f["p_errors"])]),
        case("h21-pg-slowest", "stat", "pg",
             "slowest statement in the pg log by duration - how many ms and which db user ran it?", [PG],
             [f["p_slowest"], f["p_slowest_user"]]),
        case("h21-pg-median-zh", "stat", "pg", "pg 日志里所有 duration 的中位数是多少 ms？", [PG, REDIS],
             [f["p_median"]]),
        case("h21-pg-top-user", "top", "pg", "which db user has the most slow statements (duration lines) in postgres log",
             [PG], [f["p_top_user"]]),
        case("h21-pg-first-deadlock-zh", "first", "pg", "postgres 第一次 deadlock detected 是什么时候？精确到秒", [PG],
             [f["p_first_deadlock"]]),
        case("h21-pg-last-toomany", "last", "pg", "last time postgres said too many clients already?", [PG],
             [f["p_last_toomany"]]),
        case("h21-pg-peak-err-zh", "peak", "pg", "按分钟统计 postgres 的 ERROR，哪一分钟最多？", [PG],
             [f["p_peak_err"]]),
        case("h21-pg-window-lockwait", "window", "pg",
             "from 1:00 to 1:30 how many lock waits ('still waiting for') did postgres log?", [PG],
             [n(f["p_window_wait"])]),
        case("h21-pg-ckpt-zh", "stat", "pg", "今晚哪次 checkpoint 写的 buffers 最多？wrote 了多少个 buffers？", [PG],
             [n(f["p_ckpt_max"])]),
        case("h21-pg-followup-term", "followup", "pg", "which db user did those sessions belong to?", [PG],
             [f["p_term_user"]],
             turns=["how many postgres sessions got 'terminating connection due to administrator command' tonight?"]),
        case("h21-pg-timeline-zh", "timeline", "pg",
             "结合 postgresql-16-main.log 和 alb-access.log 排个时间线，精确到秒：postgres 第一次 too many clients、"
             "ALB 第一个 504、postgres 最后一次 too many clients、ALB 最后一个 504",
             [PG, ALB],
             [tl("tl_pg", 0), tl("tl_pg", 1), tl("tl_pg", 2), tl("tl_pg", 3), ["too many clients"]]),
        # ------------------------------------------------------------ redis-server.log
        case("h21-rd-count-bgsave", "count", "redis", "how many background saves did redis start tonight?", [REDIS],
             [n(f["r_bgsave"])]),
        case("h21-rd-count-obl-zh", "count", "redis", "redis 日志里因为 output buffer limits 被关掉的 client 一共多少次？",
             [REDIS], [n(f["r_obl"])]),
        case("h21-rd-count-cant", "count", "redis", "count of \"Can't save in background\" in redis-server.log?", [REDIS, PG],
             [n(f["r_cant"])]),
        case("h21-rd-cow-zh", "stat", "redis", "Fork CoW for RDB 里 peak 最大是多少 MB？", [REDIS],
             [n(f["r_cow_max"])]),
        case("h21-rd-top-obl-ip", "top", "redis",
             "which client ip got closed for output buffer limits the most times in the redis log?", [REDIS],
             [f["r_top_obl_ip"]]),
        case("h21-rd-first-lost-zh", "first", "redis", "redis 第一次 Connection with replica lost 是几点几分几秒？", [REDIS],
             [f["r_first_lost"]]),
        case("h21-rd-last-cant", "last", "redis", "when was the last can't save in background error in redis? exact time",
             [REDIS], [f["r_last_cant"]]),
        case("h21-rd-peak-warn-zh", "peak", "redis", "redis 日志里 # 级别（warning）的行按分钟统计，哪一分钟最多？", [REDIS, ALB],
             [f["r_peak_warn"]]),
        case("h21-rd-window-obl", "window", "redis",
             "between 01:00 and 01:10, how many clients did redis close for output buffer limits", [REDIS],
             [n(f["r_window_obl"])]),
        case("h21-rd-omem", "stat", "redis",
             "of the clients redis closed for output buffer limits whats the biggest omem? and that client's ip", [REDIS],
             [n(f["r_omem_max"]), f["r_omem_ip"]]),
        case("h21-rd-followup-lost-zh", "followup", "redis", "最后一次断开是几点几分几秒？", [REDIS],
             [f["r_last_lost"]], turns=["redis 的 replica 今晚断开过几次？"]),
        case("h21-rd-timeline-zh", "timeline", "redis",
             "redis 出问题那段，结合 redis-server.log 和 alb-access.log 按时间排一下，精确到秒：第一次 Can't save in background、"
             "ALB 第一个 POST /api/v2/cart 返回 500、最后一次 Can't save in background、之后第一次 Background saving terminated with success",
             [REDIS, ALB],
             [tl("tl_redis", 0), tl("tl_redis", 1), tl("tl_redis", 2), tl("tl_redis", 3), ["Can't save", "fork"]]),
        # ------------------------------------------------------------ processes on this machine
        case("h21-proc-count", "process", "proc", "how many seat-sweeper procs running rn?", [], ["{count:seat-sweeper}"],
             procs=[{"name": "seat-sweeper", "count": 3, "args": ["--venue", "all"]}]),
        case("h21-proc-script-count-zh", "process", "proc", "price-sync 这个脚本现在跑着几个？", [], ["{count:price-sync}"],
             procs=[{"name": "price-sync", "count": 2, "interp": True, "args": ["--market", "eu"]}]),
        case("h21-proc-pid", "process", "proc", "pid of gate-scanner?", [], ["{pid:gate-scanner}"],
             procs=[{"name": "gate-scanner", "args": ["--gate", "west"]}]),
        case("h21-proc-user-zh", "process", "proc", "wallet-pass 是哪个用户启动的？", [], ["{user:wallet-pass}"],
             procs=[{"name": "wallet-pass", "args": ["--issuer", "apple"]}]),
        case("h21-proc-cmdline-zh", "process", "proc", "barcode-minter 的完整命令行是什么？带上所有参数", [],
             ["arena-north", "913"],
             procs=[{"name": "barcode-minter", "args": ["--venue", "arena-north", "--batch", "913"]}]),
        case("h21-proc-port", "socket", "proc", "what port is box-office listening on?", [], ["{port:box-office}"],
             procs=[{"name": "box-office", "listen": True, "args": ["--tier", "front"]}]),
        case("h21-proc-mem-zh", "process", "proc", "promo-engine、fanclub-sync、resale-watch 这三个进程谁的内存占用最大？", [],
             ["resale-watch"],
             procs=[{"name": "promo-engine", "mem_mb": 60}, {"name": "fanclub-sync", "mem_mb": 140},
                    {"name": "resale-watch", "mem_mb": 260}]),
        case("h21-proc-followup-pid-zh", "followup", "proc", "那它的 pid 是多少？", [], ["{pid:queue-bouncer}"],
             turns=["queue-bouncer 还活着吗？"], procs=[{"name": "queue-bouncer", "args": ["--room", "onsale"]}]),
        case("h21-proc-followup-user", "followup", "proc", "which user's it running as?", [], ["{user:refund-daemon}"],
             turns=["is refund-daemon up?"], procs=[{"name": "refund-daemon", "args": ["--psp", "adyen"]}]),
        case("h21-action-kill", "action", "proc", "scalp-detect is stuck at 100% cpu, kill it", [],
             approval={"kill": "scalp-detect"}, procs=[{"name": "scalp-detect", "args": ["--window", "5m"]}]),
        case("h21-action-kill-zh", "action", "proc", "email-blaster 起了三个，全部 kill 掉", [],
             approval={"kill": "email-blaster"}, procs=[{"name": "email-blaster", "count": 3, "args": ["--list", "presale"]}]),
        case("h21-action-followup-kill", "action", "proc", "kill both of them then", [],
             turns=["how many pdf-render processes are there?"],
             approval={"kill": "pdf-render"}, procs=[{"name": "pdf-render", "count": 2, "args": ["--queue", "tickets"]}]),
    ]
    return rows
