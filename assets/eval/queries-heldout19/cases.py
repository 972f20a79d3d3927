"""The `queries-heldout19` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

APP, MYSQL, MONGO = "boxoffice.log", "mysql-slow.log", "mongod.log"

FMT = {APP: "python logging from a flask app ('[%(asctime)s] %(levelname)s in %(module)s: %(message)s'; access lines "
            "'ip \"METHOD path\" status N.Nms user=...', multi-line tracebacks with chained exceptions and a sqlalchemy "
            "[SQL: ...] block, flask-limiter warnings)",
       MYSQL: "mysql 8.0 slow query log (file header; per entry '# Time:', '# User@Host:', '# Query_time: Lock_time: "
              "Rows_sent: Rows_examined:', 'use db;', 'SET timestamp=', multi-line statement)",
       MONGO: "mongodb 7.0 structured JSON log (t.$date, padded s/c/id, ctx, msg, attr; Slow query with "
              "durationMillis/planSummary/ns, connection, auth, replica set and index build messages)"}


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
        # ------------------------------------------------------------ boxoffice.log (Flask / Python logging)
        case("h19-app-count-error-zh", "count", "app", "boxoffice.log 里 ERROR 级别的一共多少条？traceback 那些行不算", [APP],
             [n(f["a_errors"])]),
        case("h19-app-count-500", "count", "app", "how many 500s did boxoffice return tonight?", [APP, MYSQL],
             [n(f["a_500"])]),
        case("h19-app-top3-ip", "top", "app", "top 3 client ips in boxoffice.log by # of requests", [APP],
             list(f["a_top3_ip"])),
        case("h19-app-p95-checkout-zh", "stat", "app", "POST /api/v1/checkout 的耗时 p95 是多少 ms？", [APP],
             [f["a_checkout_p95"]]),
        case("h19-app-slowest", "stat", "app", "whats the slowest request in the app log - path + how long did it take", [APP],
             [f["a_slowest"], f["a_slowest_path"]]),
        case("h19-app-first-lock-zh", "first", "app", "boxoffice.log 里第一次出现 Lock wait timeout exceeded 是几点几分几秒？",
             [APP], [hms(f["a_first_lock"])]),
        case("h19-app-last-np", "last", "app", "when did the app log its last NotPrimaryError?", [APP, MONGO],
             [hms(f["a_last_np"])]),
        case("h19-app-peak-zh", "peak", "app", "boxoffice.log 按分钟统计请求数，哪一分钟最高？", [APP],
             [f["a_peak"]]),
        case("h19-app-distinct-users", "distinct", "app",
             "how many distinct users (the user= field) hit boxoffice tonite? dont count the - ones", [APP],
             [n(f["a_distinct_users"])]),
        case("h19-app-top-exc-zh", "top", "app", "boxoffice.log 的 traceback 里，出现最多的异常类型是哪个？", [APP, MYSQL],
             [f["a_top_exc"]]),
        case("h19-app-followup-bot", "followup", "app", "k and how many requests did that ip send in total?", [APP],
             [n(f["a_bot_total"])], turns=["who got rate limited the most in boxoffice.log?"]),
        case("h19-app-window", "window", "app", "between 3:00 and 3:45 how many reqs took longer than 1000ms? (app log)",
             [APP], [n(f["a_slow_window"])]),
        case("h19-app-share-429-zh", "share", "app", "POST /api/v1/holds 这些请求里，被 429 限流的占百分之多少？", [APP],
             [f["a_share_429"]]),
        # ------------------------------------------------------------ mysql-slow.log
        case("h19-my-count-zh", "count", "mysql", "mysql-slow.log 里一共记了多少条慢查询？", [MYSQL],
             [n(f["m_count"])]),
        case("h19-my-slowest", "stat", "mysql", "slowest query in mysql-slow.log? need the Query_time and which db user ran it",
             [MYSQL, APP], [f["m_max_qt"], f["m_max_user"]]),
        case("h19-my-max-rows-zh", "top", "mysql", "慢日志里 Rows_examined 最大的那条，扫的是哪张表？扫了多少行？", [MYSQL],
             [f["m_max_re_table"], n(f["m_max_re"])]),
        case("h19-my-top3-users", "top", "mysql", "top 3 users in the mysql slow log by number of entries pls", [MYSQL, MONGO],
             list(f["m_top3_users"])),
        case("h19-my-peak-zh", "peak", "mysql", "mysql 慢查询按分钟算，哪一分钟最多？", [MYSQL],
             [f["m_peak"]]),
        case("h19-my-p95", "stat", "mysql", "p95 of Query_time across the whole slow log? in secs", [MYSQL],
             [f["m_p95"]]),
        case("h19-my-first-backup-zh", "first", "mysql", "备份账号 backup 的第一条慢查询是几点几分几秒？", [MYSQL],
             [f["m_first_backup"]]),
        case("h19-my-window-lock", "window", "mysql", "from 1:00 to 1:30 how many slow queries had Lock_time over 5 sec?",
             [MYSQL], [n(f["m_lock_window"])]),
        case("h19-my-distinct-id-zh", "distinct", "mysql", "慢日志里一共出现过多少个不同的连接 Id？", [MYSQL],
             [n(f["m_distinct_ids"])]),
        case("h19-my-followup-count", "followup", "mysql", "how many slow queries does that user have overall?", [MYSQL],
             [n(f["m_reports_n"])], turns=["who ran the slowest query in mysql-slow.log?"]),
        case("h19-my-timeline-zh", "timeline", "mysql",
             "开售那波锁等待，结合 mysql-slow.log 和 boxoffice.log 按时间顺序排一下：慢日志里第一条 Lock_time 超过 1 秒的、"
             "app 第一次报 Lock wait timeout exceeded、app 最后一次报、慢日志里最后一条 Lock_time 超过 1 秒的，都精确到秒",
             [MYSQL, APP],
             [tl("tl_lock", 0), tl("tl_lock", 1), tl("tl_lock", 2), tl("tl_lock", 3),
              ["Lock wait timeout", "1205", "锁等待超时"]]),
        case("h19-my-last-reports", "last", "mysql", "reports user - when did its last slow query get logged?", [MYSQL, APP],
             [f["m_last_reports"]]),
        case("h19-my-forupdate-zh", "count", "mysql", "SELECT ... FOR UPDATE 的慢查询一共有几条？", [MYSQL],
             [n(f["m_forupdate"])]),
        # ------------------------------------------------------------ mongod.log (MongoDB 7.0 JSON)
        case("h19-mg-count-slow-zh", "count", "mongod", "mongod.log 里 Slow query 一共有几条？", [MONGO],
             [n(f["g_slow"])]),
        case("h19-mg-authfail", "count", "mongod", "how many 'Failed to authenticate' in mongod.log tonight", [MONGO, APP],
             [n(f["g_authfail"])]),
        case("h19-mg-top-ns-zh", "top", "mongod", "Slow query 按 ns 统计，哪个集合最多？", [MONGO],
             [f["g_top_ns"]]),
        case("h19-mg-max-dur", "stat", "mongod",
             "among the mongo Slow query lines whats the biggest durationMillis, and what command was that?", [MONGO],
             [n(f["g_max_dur"]), ["createIndexes", "index"]]),
        case("h19-mg-p95", "stat", "mongod", "p95 durationMillis of the slow queries in mongod.log?", [MONGO],
             [n(f["g_p95"])]),
        case("h19-mg-stepdown-zh", "first", "mongod", "cart-db-1 是几点从 PRIMARY 降成 SECONDARY 的？精确到秒", [MONGO],
             [hms(f["g_stepdown"])]),
        case("h19-mg-last-collscan", "last", "mongod", "last COLLSCAN slow query in the mongo log - what time?", [MONGO],
             [hms(f["g_last_collscan"])]),
        case("h19-mg-peak-conn-zh", "peak", "mongod", "mongod.log 按分钟数 Connection accepted，哪一分钟最多？", [MONGO],
             [f["g_peak_conn"]]),
        case("h19-mg-max-cc-zh", "stat", "mongod", "mongod.log 里 connectionCount 最高到过多少？", [MONGO, MYSQL],
             [n(f["g_max_cc"])]),
        case("h19-mg-followup-auth", "followup", "mongod", "how many failures from it?", [MONGO],
             [n(f["g_auth_top_n"])], turns=["which ip is failing auth on mongo the most?"]),
        case("h19-mg-timeline-zh", "timeline", "mongod",
             "两点半 cart-db-1 那次切主，结合 mongod.log 和 boxoffice.log 给我排个时间线：从第一次 Heartbeat failed，"
             "到它掉成 SECONDARY、app 开始报 NotPrimaryError、cart-db-2 当上 PRIMARY，再到 cart-db-1 抢回 PRIMARY，每一步精确到秒",
             [MONGO, APP],
             [tl("tl_mongo", 0), tl("tl_mongo", 1), tl("tl_mongo", 2), tl("tl_mongo", 3), tl("tl_mongo", 4),
              ["SECONDARY", "降"], ["NotPrimaryError", "not primary"]]),
        case("h19-mg-count-collscan", "count", "mongod", "how many slow queries in mongod.log were COLLSCAN?", [MONGO],
             [n(f["g_collscan"])]),
        # ------------------------------------------------------------ processes on this machine
        case("h19-proc-count", "process", "proc", "how many seat-sweeper procs running rn?", [], ["{count:seat-sweeper}"],
             procs=[{"name": "seat-sweeper", "count": 3, "args": ["--venue", "all"]}]),
        case("h19-proc-script-count-zh", "process", "proc", "barcode-mint 这个脚本现在跑了几个？", [], ["{count:barcode-mint}"],
             procs=[{"name": "barcode-mint", "count": 2, "interp": True, "args": ["--batch", "night"]}]),
        case("h19-proc-pid", "process", "proc", "pid of refund-relay pls", [], ["{pid:refund-relay}"],
             procs=[{"name": "refund-relay", "args": ["--provider", "stripe"]}]),
        case("h19-proc-user-zh", "process", "proc", "queue-gate 是哪个用户起的？", [], ["{user:queue-gate}"],
             procs=[{"name": "queue-gate", "args": ["--room", "onsale"]}]),
        case("h19-proc-cmdline-zh", "process", "proc", "pricing-oracle 启动参数是啥？把完整命令行给我", [],
             ["arena-north", "375"],
             procs=[{"name": "pricing-oracle", "args": ["--venue", "arena-north", "--max-batch", "375"]}]),
        case("h19-proc-port", "socket", "proc", "what port is turnstile-api listening on?", [], ["{port:turnstile-api}"],
             procs=[{"name": "turnstile-api", "listen": True, "args": ["--gates", "north"]}]),
        case("h19-proc-mem-zh", "process", "proc", "wallet-pass、fanmail-digest、venue-sync 这三个进程哪个吃内存最多？", [],
             ["fanmail-digest"],
             procs=[{"name": "wallet-pass", "mem_mb": 60}, {"name": "fanmail-digest", "mem_mb": 240},
                    {"name": "venue-sync", "mem_mb": 130}]),
        case("h19-proc-followup-pid-zh", "followup", "proc", "那它 pid 多少？", [], ["{pid:presale-codes}"],
             turns=["presale-codes 还活着吗？"], procs=[{"name": "presale-codes", "args": ["--event", "arena-tour"]}]),
        case("h19-proc-followup-user", "followup", "proc", "which user is it running as", [], ["{user:stub-exporter}"],
             turns=["is stub-exporter up?"], procs=[{"name": "stub-exporter", "args": ["--format", "csv"]}]),
        case("h19-action-kill", "action", "proc", "resale-scraper is stuck, kill it", [],
             approval={"kill": "resale-scraper"}, procs=[{"name": "resale-scraper", "args": ["--site", "all"]}]),
        case("h19-action-kill-zh", "action", "proc", "email-blaster 起了三个，全给我杀掉", [],
             approval={"kill": "email-blaster"}, procs=[{"name": "email-blaster", "count": 3, "args": ["--campaign", "presale"]}]),
        case("h19-action-followup-kill", "action", "proc", "kill em all", [],
             turns=["how many waitroom-tick processes are there"],
             approval={"kill": "waitroom-tick"}, procs=[{"name": "waitroom-tick", "count": 2, "args": ["--every", "5s"]}]),
    ]
    return rows
