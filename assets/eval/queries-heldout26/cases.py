"""The `queries-heldout26` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

EDGE, PY, JAVA = "quillfern-edge.access.log", "basket-api.log", "fulfilment-service.log"

FMT = {EDGE: "nginx access log, log_format combined + $request_time ('IP - - [dd/Mon/yyyy:HH:MM:SS +0000] \"METHOD URI "
             "PROTO\" status bytes \"referer\" \"UA\" 0.123'), written when a request ends",
       PY: "structlog JSON lines of a FastAPI service (call keys, event, request_id, client_ip, user_id, level, logger, "
           "timestamp ISO-8601 UTC with microseconds; exception tracebacks as one JSON string)",
       JAVA: "Spring Boot 3 logback console pattern ('yyyy-MM-ddTHH:mm:ss.SSSZ LEVEL PID --- [thread] logger : msg') "
             "with multi-line stack traces (Caused by:, ... N common frames omitted)"}


def case(id_, cat, area, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    c["area"] = area
    c["fmt"] = " + ".join(FMT[x] for x in sorted(files)) if files else "live processes"
    return c


def cases(f, n):
    rows = [
        # ------------------------------------------------------------ the edge nginx
        case("h26-edge-count-504", "count", "edge", "how many 504s did the edge hand out overnight? whole log pls",
             [EDGE], [n(f["e_504"])]),
        case("h26-edge-count-429-zh", "count", "edge", "quillfern-edge.access.log 里被限流的 429 一共多少条？", [EDGE, PY],
             [n(f["e_429"])]),
        case("h26-edge-p95-menu", "stat", "edge", "p95 request_time for /api/v2/menu on nginx? 200s only", [EDGE],
             [f["e_menu_p95"]]),
        case("h26-edge-slowest-zh", "stat", "edge", "nginx 日志里最慢的一个请求是哪个？request_time 多少秒", [EDGE, JAVA],
             [f["e_slowest_path"], f["e_slowest"]]),
        case("h26-edge-top3-ips", "top", "edge", "top 3 client IPs by request count at the edge", [EDGE],
             list(f["e_top3"])),
        case("h26-edge-top-401-zh", "top", "edge", "登录接口是不是被撞库了？哪个 IP 吃的 401 最多", [EDGE, PY],
             [f["e_top401"]]),
        case("h26-edge-distinct-ips", "distinct", "edge", "how many distinct client ips hit nginx last night", [EDGE],
             [n(f["e_distinct_ips"])]),
        case("h26-edge-first-504-zh", "first", "edge", "edge 上第一个 504 是几点几分几秒？", [EDGE],
             [f["e_first_504"]]),
        case("h26-edge-last-429", "last", "edge",
             "when did nginx last rate-limit somebody? need the exact second of the last 429", [EDGE],
             [f["e_last_429"]]),
        case("h26-edge-peak-zh", "peak", "edge", "nginx access log 按分钟算请求数，哪一分钟最高？", [EDGE],
             [f["e_peak"]]),
        case("h26-edge-window-504", "window", "edge", "504s between 02:10 and 02:35 at the edge, how many", [EDGE, PY],
             [n(f["e_window_504"])]),
        case("h26-edge-sum-scraper-zh", "sum", "edge",
             "那个 UA 是 python-requests 的爬虫一共从我们这拿走了多少字节？body_bytes_sent 加起来", [EDGE],
             [n(f["e_scraper_bytes"])]),
        case("h26-edge-followup-502", "followup", "edge", "ok when was the last one, to the second", [EDGE],
             [f["e_last_502"]], turns=["did the edge throw any 502s tonight?"]),
        # ------------------------------------------------------------ basket-api (structlog JSON)
        case("h26-app-count-timeouts", "count", "app", "basket-api.log - how many upstream_timeout events in total?", [PY],
             [n(f["a_timeouts"])]),
        case("h26-app-count-errors-zh", "count", "app", "basket-api 里 level=error 的日志一共几条", [PY, EDGE],
             [n(f["a_errors"])]),
        case("h26-app-mean-checkout", "stat", "app",
             "whats the avg duration_ms of successful checkouts? POST /api/v2/checkout with status 201", [PY],
             [f["a_checkout_mean"]]),
        case("h26-app-p95-basket-zh", "stat", "app", "GET /api/v2/basket 状态 200 的 duration_ms，p95 是多少？", [PY],
             [f["a_basket_p95"]]),
        case("h26-app-top-declined", "top", "app", "someone card testing us? which user_id has the most payment_declined",
             [PY], [f["a_top_declined"]]),
        case("h26-app-top-timeout-path-zh", "top", "app", "upstream_timeout 主要出在哪个接口？按 path 看哪个最多", [PY],
             ["basket/items"]),
        case("h26-app-distinct-buyers", "distinct", "app",
             "how many unique users actually placed an order (order_placed) in basket-api?", [PY],
             [n(f["a_buyers"])]),
        case("h26-app-first-timeout", "first", "app", "when did basket-api log its very first upstream_timeout? to the second",
             [PY, JAVA], [f["a_first_timeout"]]),
        case("h26-app-last-redis-zh", "last", "app",
             "basket-api 里 redis 是不是抖过一次？最后一条 redis ConnectionError 是几点几分几秒", [PY],
             [f["a_last_redis"]]),
        case("h26-app-peak-timeouts-zh", "peak", "app", "upstream_timeout 按分钟统计，哪一分钟最多？", [PY],
             [f["a_peak_timeouts"]]),
        case("h26-app-sum-amount-zh", "sum", "app", "今晚 order_placed 的 amount 全部加起来是多少？", [PY],
             [f["a_amount"]]),
        case("h26-app-followup-slowest-zh", "followup", "app", "这个是谁发的？给我 user_id", [PY],
             [f["a_slowest_user"]], turns=["basket-api 里 duration_ms 最大的是哪个请求？"]),
        case("h26-app-timeline-sync", "timeline", "app",
             "put together a timeline of the 2:14-2:30 mess across all three logs, exact seconds: when StockSyncJob "
             "started, first hikari SQLTransientConnectionException in fulfilment, when nginx started returning 502s, "
             "when the basket-api workers came back (worker_started), when StockSyncJob finished",
             [EDGE, PY, JAVA], list(f["tl_sync"])),
        # ------------------------------------------------------------ fulfilment-service (Spring Boot / logback)
        case("h26-java-count-errors", "count", "java",
             "how many ERROR entries in fulfilment-service.log? entries, not stack trace lines", [JAVA],
             [n(f["j_errors"])]),
        case("h26-java-count-sqlt-zh", "count", "java", "fulfilment 里 SQLTransientConnectionException 出现了几次？",
             [JAVA, PY], [n(f["j_sqlt"])]),
        case("h26-java-timeline-courier", "timeline", "java",
             "what happened in fulfilment around 2:50? the courier manifest thing - when did the job start, first and "
             "last courier read timeout, when did it finish", [JAVA], list(f["tl_courier"])),
        case("h26-java-top-sku-zh", "top", "java", "Availability check failed 里面哪个 sku 最多？", [JAVA],
             [f["j_top_sku"]]),
        case("h26-java-longest-sync", "stat", "java", "longest StockSyncJob run tonight - how long did it take?", [JAVA],
             [f["j_longest_sync"]]),
        case("h26-java-cross-user-zh", "cross", "java",
             "fulfilment 里第一个 Reservation failed 的订单号，去 basket-api 查一下是哪个 user_id 下的单", [JAVA, PY],
             [f["x_first_rf_user"]]),
        case("h26-java-first-npe-zh", "first", "java", "fulfilment-service 今晚第一次 NullPointerException 是几点？", [JAVA],
             [f["j_first_npe"]]),
        case("h26-java-last-sqlt", "last", "java",
             "last time fulfilment logged a hikari 'Connection is not available' (SQLTransientConnectionException)? "
             "exact time", [JAVA], [f["j_last_sqlt"]]),
        case("h26-java-peak-errors", "peak", "java", "ERRORs per minute in fulfilment-service.log - which minute was the worst?",
             [JAVA], [f["j_peak_errors"]]),
        case("h26-java-window-errors-zh", "window", "java", "fulfilment 里 02:45 到 03:10 之间一共有多少条 ERROR？", [JAVA],
             [n(f["j_window_errors"])]),
        case("h26-java-distinct-orders-zh", "distinct", "java",
             "fulfilment-service.log 里一共出现过多少个不同的订单号（QF- 开头的）？", [JAVA], [n(f["j_orders"])]),
        case("h26-java-sum-skus", "sum", "java", "add up the SKUs updated across all the StockSyncJob runs tonight", [JAVA],
             [n(f["j_sum_skus"])]),
        # ------------------------------------------------------------ processes on this machine
        case("h26-proc-count", "process", "proc", "how many menu-indexer procs running rn?", [],
             ["{count:menu-indexer}"], procs=[{"name": "menu-indexer", "count": 3, "args": ["--week", "2036-W45"]}]),
        case("h26-proc-script-count-zh", "process", "proc", "label-render 这个 python 脚本现在跑着几个？", [],
             ["{count:label-render}"],
             procs=[{"name": "label-render", "count": 2, "interp": True, "args": ["--printer", "zebra-dock-2"]}]),
        case("h26-proc-pid-zh", "process", "proc", "slot-planner 的 pid 多少", [], ["{pid:slot-planner}"],
             procs=[{"name": "slot-planner", "args": ["--region", "vic-metro"]}]),
        case("h26-proc-user", "process", "proc", "which user is promo-mailer running as?", [], ["{user:promo-mailer}"],
             procs=[{"name": "promo-mailer", "args": ["--campaign", "spring-lunch"]}]),
        case("h26-proc-cmdline-zh", "process", "proc", "driver-sync 是带什么参数起的？完整命令行贴一下", [],
             ["dandenong-south", "7300"],
             procs=[{"name": "driver-sync", "args": ["--depot", "dandenong-south", "--batch-size", "7300"]}]),
        case("h26-proc-port", "socket", "proc", "kitchen-ws listening on what port?", [], ["{port:kitchen-ws}"],
             procs=[{"name": "kitchen-ws", "listen": True, "args": ["--room", "packing-line"]}]),
        case("h26-proc-mem-zh", "process", "proc", "recipe-thumbs、cart-sweeper、pantry-audit 这三个哪个最吃内存？", [],
             ["cart-sweeper"],
             procs=[{"name": "recipe-thumbs", "mem_mb": 80}, {"name": "cart-sweeper", "mem_mb": 260},
                    {"name": "pantry-audit", "mem_mb": 150}]),
        case("h26-proc-followup-pid", "followup", "proc", "pid?", [], ["{pid:boxcount-agent}"],
             turns=["is boxcount-agent running?"], procs=[{"name": "boxcount-agent", "args": ["--site", "truganina"]}]),
        case("h26-proc-followup-user-zh", "followup", "proc", "是哪个用户跑的", [], ["{user:tray-exporter}"],
             turns=["tray-exporter 还在跑吗？"], procs=[{"name": "tray-exporter", "args": ["--format", "csv"]}]),
        case("h26-action-kill", "action", "proc", "coupon-blaster is spamming customers with promo sms, kill it", [],
             approval={"kill": "coupon-blaster"}, procs=[{"name": "coupon-blaster", "args": ["--list", "all-active"]}]),
        case("h26-action-kill-zh", "action", "proc", "ghost-cart-gen 起了三个，全部杀掉", [],
             approval={"kill": "ghost-cart-gen"}, procs=[{"name": "ghost-cart-gen", "count": 3, "args": ["--rate", "12"]}]),
        case("h26-action-followup-kill", "action", "proc", "kill em all", [],
             turns=["any dup-webhook-rx running? how many"],
             approval={"kill": "dup-webhook-rx"}, procs=[{"name": "dup-webhook-rx", "count": 2, "args": ["--port-hint", "9443"]}]),
    ]
    return rows
