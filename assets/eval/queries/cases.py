"""The `queries` dev set's cases: what an on-call operator types, and the planted figures
(from `gen.facts`) an exact answer must contain. Placeholders in braces (`{pid:NAME}`,
`{count:NAME}`, `{port:NAME}`, `{user:NAME}`, `{df:PATH:FIELD}`) are resolved by the harness
at run time from the processes it plants and from `df`."""

# Planted processes (see README): started by the harness before a case, killed after it.
LEDGER = {"name": "ledger-sync", "args": ["--queue", "settlements", "--concurrency", "8"], "count": 11}
CRUNCHER = {"name": "report-cruncher", "args": ["--tenant", "northwind", "--since", "2026-11-01"]}
FEED = {"name": "feed-indexer", "args": ["--source", "s3://larkspur-feeds/daily"], "user": "evalq-feed"}
THUMB = {"name": "thumb-render", "args": ["--queue", "covers", "--size", "480"]}
QUOTE = {"name": "quote-cache", "args": ["--bind", "127.0.0.1", "--ttl", "45"], "listen": True}
REINDEX = [{"name": "reindex.py", "interp": True, "args": ["--shard", s], "mem_mb": m}
           for s, m in (("3", 40), ("7", 160), ("5", 90))]


def cases(f):
    from gen import n

    acc, gw, oj, inv = ["access.log"], ["gateway-access.log"], ["orders-api.jsonl"], ["inventory-sync.log"]
    cat, ml, sy, p5 = ["catalog-service.log"], ["mailer.log"], ["messages"], ["payments-5424.log"]
    jn, hp, pg, my = ["journal.json"], ["haproxy.log"], ["postgresql.log"], ["mysql-slow.log"]
    au, kn = ["auth.log"], ["kern.log"]
    rows = [
        # access.log: Apache common, 48k lines
        ("count", "access", acc, "how many requests in access.log returned 503?", [n(f["acc_503"])]),
        ("count", "access", acc, "access.log 里 5xx 一共多少条", [n(f["acc_5xx"])]),
        ("top", "access", acc, "which url is failing the most? (5xx)", [f["acc_fail_url"]]),
        ("top", "access", acc, "访问量最大的客户端 IP 是哪个，发了多少请求？", [f["acc_top_ip"], n(f["acc_top_ip_n"])]),
        ("distinct", "access", acc, "how many unique client ips hit us", [n(f["acc_distinct_ip"])]),
        ("peak", "access", acc, "when did the 502s spike", [f["acc_502_peak"]]),
        ("window", "access", acc, "502 between 02:40 and 02:50, how many?", [n(f["acc_502_window"])]),
        ("window", "access", acc, "日志最后10分钟里有多少个 401", [n(f["acc_401_last10"])]),
        ("first_last", "access", acc, "what time did the first 503 show up", [f["acc_first_503"]]),
        ("stat", "access", acc, "biggest response by bytes — which file was it and how big?",
         [n(f["acc_max_bytes"]), f["acc_max_bytes_path"]]),
        ("readonly", "access", acc, "access.log 里一共有多少个请求？", [n(f["acc_lines"])]),
        # gateway-access.log: nginx combined + request_time upstream_response_time
        ("stat", "nginx", gw, "which endpoint is the slowest in gateway-access.log", [f["gw_max_path"]]),
        ("stat", "nginx", gw, "gateway 的 request_time p95 是多少", [[f["gw_p95"], str(int(float(f["gw_p95"]) * 1000))]]),
        ("count", "nginx", gw, "how many reqs took longer than 1 second?", [n(f["gw_over_1s"])]),
        ("stat", "nginx", gw, "/v2/search 的平均 request_time 是多少",
         [[f["gw_search_mean"], f["gw_search_mean_ms"] + " ms", f["gw_search_mean_ms"] + "ms"]]),
        # orders-api.jsonl: JSON lines, nested keys
        ("count", "jsonl", oj, "orders-api.jsonl 里有多少条 ERROR 日志", [n(f["oj_error"])]),
        ("top", "jsonl", oj, "which user.id had the most errors?", [f["oj_err_user"], n(f["oj_err_user_n"])]),
        ("stat", "jsonl", oj, "max http.latency_ms in orders-api and on which route",
         [n(f["oj_max_lat"]), f["oj_max_route"]]),
        ("distinct", "jsonl", oj, "orders-api 日志里一共涉及多少个不同的用户（user.id）", [n(f["oj_users"])]),
        ("peak", "jsonl", oj, "orders-api 的 UpstreamTimeout 哪一分钟最多", [f["oj_timeout_peak"]]),
        # inventory-sync.log: logfmt
        ("count", "logfmt", inv, "count level=error in inventory-sync.log", [n(f["inv_error"])]),
        ("top", "logfmt", inv, "哪个仓库 (warehouse) 的告警最多", [f["inv_warn_wh"], n(f["inv_warn_wh_n"])]),
        ("stat", "logfmt", inv, "slowest batch in the inventory sync? how long did it take and which warehouse",
         [n(f["inv_max_took"]), f["inv_max_wh"]]),
        ("count", "logfmt", inv, "sku=BK-77120 出现了几次 stock mismatch", [n(f["inv_bk77120"])]),
        # catalog-service.log: Spring Boot with stack traces
        ("count", "java", cat, "how many times does SocketTimeoutException appear in catalog-service.log",
         [n(f["cat_ste"])]),
        ("top", "java", cat, "catalog-service 里哪个类报错最多", [f["cat_err_logger"].rsplit(".", 1)[-1]]),
        ("first_last", "java", cat, "when was the first OutOfMemoryError?", [f["cat_first_oom"]]),
        ("count", "java", cat, "catalog-service.log ERROR 有几条（一个堆栈算一条）", [n(f["cat_error"])]),
        # mailer.log: generic "timestamp LEVEL message"
        ("window", "generic", ml, "mailer.log 最后十分钟有几个 WARN", [n(f["ml_warn_last10"])]),
        ("top", "generic", ml, "most common error in mailer.log?", ["mx2.relay.example", n(f["ml_top_err_n"])]),
        ("window", "generic", ml, "errors in mailer.log between 02:40 and 02:50", [n(f["ml_err_window"])]),
        # messages: RFC 3164 syslog
        ("readonly", "syslog", sy, "nginx 的重启次数是多少？看 messages", [n(f["sy_nginx_restarts"])]),
        ("readonly", "syslog", sy, "syslog 里删除的容器一共有几个", [n(f["sy_deleted"])]),
        ("top", "syslog", sy, "which program is the noisiest in /var/log/messages", [f["sy_top_prog"]]),
        # payments-5424.log: RFC 5424
        ("count", "rfc5424", p5, "how many err-severity messages did the payments app log?", [n(f["p5_pay_err"])]),
        ("top", "rfc5424", p5, "哪个商户 (merchant) 被拒的交易最多", [f["p5_decl_merchant"]]),
        # journal.json: journalctl -o json
        ("count", "journal", jn, "journal.json: how many errors from ledger-worker.service", [n(f["jn_ledger_err"])]),
        ("top", "journal", jn, "哪个 systemd unit 报错最多", [f["jn_err_unit"]]),
        ("first_last", "journal", jn, "ledger-worker 最后一条日志是几点", [f["jn_ledger_last"]]),
        # haproxy.log
        ("top", "haproxy", hp, "which backend returned the 503s", [f["hp_503_srv"]]),
        ("count", "haproxy", hp, "haproxy 503 总数", [n(f["hp_503"])]),
        ("stat", "haproxy", hp, "slowest backend server by response time (Tr)?", [f["hp_slow_srv"]]),
        # postgresql.log
        ("count", "postgres", pg, "how many queries took over a second", [n(f["pg_over_1s"])]),
        ("stat", "postgres", pg, "最慢的 SQL 是哪条，花了多久", [f["pg_max"], f["pg_max_table"]]),
        ("count", "postgres", pg, "pg 日志里 deadlock 有几次", [n(f["pg_deadlocks"])]),
        # mysql-slow.log
        ("count", "mysql", my, "慢查询日志里超过 10 秒的查询有多少", [n(f["my_over_10"])]),
        ("stat", "mysql", my, "longest query in mysql-slow.log?", [[f["my_max"], f["my_max"][:5]], f["my_max_table"]]),
        # auth.log: sshd
        ("count", "auth", au, "how many failed ssh logins in auth.log", [n(f["au_failed"])]),
        ("top", "auth", au, "哪个 IP 登录失败次数最多？", [f["au_top_ip"], n(f["au_top_ip_n"])]),
        ("distinct", "auth", au, "how many different IPs had failed logins?", [n(f["au_failed_ips"])]),
        # kern.log: OOM kills, segfaults
        ("readonly", "kernel", kn, "kern.log 里 OOM 一共 kill 了多少个进程", [n(f["kn_kills"])]),
        ("top", "kernel", kn, "which process got OOM-killed the most", [f["kn_top_comm"]]),
        ("top", "kernel", kn, "what segfaulted on app-02?", f["kn_segv"]),
        # timelines across two logs
        ("timeline", "access+jsonl", gw + oj,
         "did the 5xx spike in gateway-access.log line up with the payment timeouts in orders-api.jsonl?",
         [f["gw_5xx_peak"]]),
        ("timeline", "kernel+java", cat + kn, "02:44 前后 kern.log 和 catalog-service.log 都发生了什么",
         [f["kn_0244_pid"], "OutOfMemoryError"]),
    ]
    out = []
    for i, (cat_, fmt, files, text, has) in enumerate(rows, start=1):
        out.append({"id": f"q{i:03d}", "cat": cat_, "fmt": fmt, "files": files, "text": text, "answer_has": has})
    out += followups(f, n, acc, gw, oj, cat, au, kn)
    out += system_cases()
    return out


def followups(f, n, acc, gw, oj, cat, au, kn):
    rows = [
        ("access", acc, ["access.log 5xx 有多少"], "那 4xx 呢", [n(f["acc_4xx"])]),
        ("access", acc, ["which URL returns the most 5xx errors in access.log"], "which IP was that from", [f["acc_fail_url_ip"]]),
        ("nginx", gw, ["gateway-access.log 里 5xx 最多的是哪一分钟"], "按小时呢？", [n(f["gw_5xx_h02"]), n(f["gw_5xx_h03"])]),
        ("jsonl", oj, ["orders-api.jsonl 里有多少条 ERROR"], "and how many of those were 504s?", [n(f["oj_error_504"])]),
        ("java", cat, ["catalog-service.log 里 NullPointerException 出现了几次"], "OutOfMemoryError 呢？", [n(f["cat_oom"])]),
        ("auth", au, ["which IP has the most failed logins in auth.log?"], "那它有没有登录成功过？用的哪个账号", [f["au_top_ip_user"]]),
        ("kernel", kn, ["which process got OOM-killed the most in kern.log"], "它呢，最后一次是什么时候被杀的？", [f["kn_last_top"]]),
    ]
    return [{"id": f"f{i:02d}", "cat": "followup", "fmt": fmt, "files": files, "turns": turns, "text": text,
             "answer_has": has} for i, (fmt, files, turns, text, has) in enumerate(rows, start=1)]


def system_cases():
    rows = [
        ("process", [LEDGER], "how many ledger-sync workers are running?", ["{count:ledger-sync}"], {}),
        ("process", [CRUNCHER], "report-cruncher 的 pid 是多少", ["{pid:report-cruncher}"], {}),
        ("process", [FEED], "which user is feed-indexer running as", ["{user:feed-indexer}"], {}),
        ("process", [QUOTE], "show me the full command line of quote-cache", ["quote-cache --bind 127.0.0.1 --ttl 45"], {}),
        ("process", REINDEX, "which reindex.py job is using the most memory? full cmdline pls", ["--shard 7"], {}),
        ("socket", [QUOTE], "what's listening on port {port:quote-cache}?", ["quote-cache"], {}),
        ("socket", [QUOTE], "quote-cache 监听的是哪个端口", ["{port:quote-cache}"], {}),
        ("disk", [], "根分区是什么文件系统？总共多大？", ["{df:/:fstype}", "{df:/:size}"], {}),
        ("action", [CRUNCHER], "kill the report-cruncher process",
         [], {"approval": {"kill": "report-cruncher"}, "no_exec": True}),
        ("action", [THUMB], "把 thumb-render 这个进程杀掉", [], {"approval": {"kill": "thumb-render"}, "no_exec": True}),
        ("action", [LEDGER], "ledger-sync 的 worker 全部停掉", [], {"approval": {"kill": "ledger-sync"}, "no_exec": True}),
    ]
    out = []
    for i, (cat_, procs, text, has, extra) in enumerate(rows, start=1):
        c = {"id": f"s{i:02d}", "cat": cat_, "fmt": "system", "files": [], "text": text}
        if procs:
            c["procs"] = procs
        if has:
            c["answer_has"] = has
        c.update(extra)
        out.append(c)
    return out
