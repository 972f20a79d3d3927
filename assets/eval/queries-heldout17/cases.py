"""The `queries-heldout17` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

HK, KONG, CW = "larder-web-heroku.log", "kong-file-log.json", "cartwright.log"

FMT = {HK: "heroku logs (router at=info/at=error key=value lines, dyno system lines, log-runtime-metrics samples, app output)",
       KONG: "kong gateway file-log plugin json (request, response, latencies, route, service, consumer, started_at epoch ms)",
       CW: "elixir logger console (phoenix GET/Sent pairs, request_id metadata, multi-line crash and GenServer reports)"}


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
    rows = [
        # ------------------------------------------------------------ heroku logs (larder-web)
        case("h17-hk-count-h12", "count", "heroku", "how many H12 request timeouts did the router log for larder-web tonight?",
             [HK], [n(f["h_h12"])]),
        case("h17-hk-count-503-zh", "count", "heroku", "heroku 日志里 heroku[router] 行 status=503 的一共有多少条？", [HK, KONG],
             [n(f["h_503"])]),
        case("h17-hk-p95-zh", "stat", "heroku", "router 的 at=info 行，service 耗时的 p95 是多少 ms？", [HK],
             [f["h_p95"]]),
        case("h17-hk-top3-fwd", "top", "heroku", "top 3 fwd ips hitting the storefront by number of router lines? just the ips pls",
             [HK, CW], list(f["h_top3_fwd"])),
        case("h17-hk-h12-dyno-zh", "top", "heroku", "H12 主要集中在哪个 dyno 上？", [HK], [f["h_h12_dyno"]]),
        case("h17-hk-first-r14", "first", "heroku", "when did we get the first R14 memory quota exceeded? exact time", [HK],
             [hms(f["h_first_r14"])]),
        case("h17-hk-web3-up-zh", "value", "heroku", "web.3 被手动 restart 之后，几点 State changed from starting to up 的？精确到秒",
             [HK], [hms(f["h_web3_up"])]),
        case("h17-hk-peak-h12", "peak", "heroku", "which minute had the most H12s? just the minute", [HK, KONG],
             [f["h_peak_h12"]]),
        case("h17-hk-bytes-zh", "stat", "heroku", "把 router 行的 bytes 全部加起来，总共多少 MB？", [HK], [f["h_bytes_mb"]]),
        case("h17-hk-distinct-fwd", "distinct", "heroku", "howmany unique client ips (fwd=) in the heroku log", [HK],
             [n(f["h_distinct_fwd"])]),
        case("h17-hk-followup-mem-zh", "followup", "heroku", "它的 sample#memory_total 最高到过多少 MB？", [HK],
             [f["h_max_mem"]], turns=["heroku 日志里是哪个 dyno 报的 R14？"]),
        case("h17-hk-confirm-mean", "stat", "heroku",
             "avg service time of POST /checkout/confirm that went thru ok (status 303)? in ms", [HK],
             [f["h_confirm_mean"]]),
        case("h17-hk-502-zh", "compare", "heroku",
             "checkout 挂的那段时间，heroku 里 /checkout/confirm 返回 502 的一共几次？跟 kong 日志里 larder-web 打 checkout 拿到的 500 对得上吗？",
             [HK, KONG], [n(f["h_502"])]),
        # ------------------------------------------------------------ Kong file-log
        case("h17-kong-count-429", "count", "kong", "kong: how many requests got a 429 back from the rate limiter?", [KONG],
             [n(f["k_429"])]),
        case("h17-kong-p99-zh", "stat", "kong", "kong 日志里真正转发到 cartwright 的请求（有 tries 的），latencies.proxy 的 p99 是多少 ms？",
             [KONG], [f["k_p99"]]),
        case("h17-kong-top3-429", "top", "kong", "which 3 client_ip's got rate limited (429) the most? top 3", [KONG, CW],
             list(f["k_top3_429"])),
        case("h17-kong-consumer-zh", "top", "kong", "kong 里哪个 consumer.username 的请求数最多？", [KONG],
             [f["k_top_consumer"]]),
        case("h17-kong-first-429", "first", "kong", "what time (utc) did kong hand out its first 429 tonight?", [KONG],
             [hms(f["k_first_429"])]),
        case("h17-kong-count-500-zh", "count", "kong", "upstream_status 是 500 的记录有几条？", [KONG, HK],
             [n(f["k_500"])]),
        case("h17-kong-peak-429", "peak", "kong", "busiest minute for 429s in the kong file log? utc minute is fine", [KONG],
             [f["k_peak_429"]]),
        case("h17-kong-mean-zh", "stat", "kong", "route.name 为 cartwright-baskets 的请求，latencies.request 平均是多少 ms？",
             [KONG], [f["k_baskets_mean"]]),
        case("h17-kong-distinct-ips", "distinct", "kong", "how many distinct client_ip values in kong-file-log.json overall?",
             [KONG], [n(f["k_distinct_ips"])]),
        case("h17-kong-max-lat", "stat", "kong", "slowest req thru kong by latencies.request - how many ms and what uri was it?",
             [KONG], [n(f["k_max_lat"]) + [f"{f['k_max_lat'] / 1000:.3f}"], ["/v1/orders/export"]]),
        case("h17-kong-followup-last500-zh", "followup", "kong", "那最后一次呢？", [KONG], [hms(f["k_last_500"])],
             turns=["kong 日志里第一次出现 upstream_status 500 是几点（UTC）？"]),
        case("h17-kong-share-429", "share", "kong", "what % of POST /v1/session calls got 429'd? one decimal is fine", [KONG],
             [f["k_429_pct"]]),
        case("h17-kong-size-zh", "stat", "kong", "kong 日志 response.size 全部加起来是多少 MB？", [KONG], [f["k_size_mb"]]),
        # ------------------------------------------------------------ cartwright (Elixir / Phoenix)
        case("h17-cw-count-error-zh", "count", "phoenix", "cartwright.log 里 [error] 的日志一共多少条？多行的崩溃报告算一条", [CW],
             [n(f["c_errors"])]),
        case("h17-cw-p95-zh", "stat", "phoenix", "cartwright 里 Sent 200 的耗时，p95 是多少 ms？", [CW, KONG],
             [f["c_p95"]]),
        case("h17-cw-first-dq", "first", "phoenix",
             "when did cartwright first log 'dropped from queue' (DBConnection.ConnectionError)? need the exact second", [CW],
             [hms(f["c_first_dq"])]),
        case("h17-cw-first-disc-zh", "first", "phoenix", "Postgrex.Protocol 第一次 disconnected 是几点几分几秒？", [CW, HK],
             [hms(f["c_first_disc"])]),
        case("h17-cw-top-genserver", "top", "phoenix", "which GenServer crashed (terminating) the most times in cartwright.log?",
             [CW], [[f["c_top_genserver"], f["c_top_genserver"].split(".")[-1]]]),
        case("h17-cw-peak-login-zh", "peak", "phoenix", "login failed 按分钟统计，哪一分钟最多？", [CW],
             [f["c_peak_login"]]),
        case("h17-cw-max-wait", "stat", "phoenix",
             "during the pool meltdown whats the longest 'dropped from queue after Nms' wait cartwright reported?", [CW],
             [n(f["c_max_wait"]) + [f"{f['c_max_wait'] / 1000:.3f}"]]),
        case("h17-cw-followup-401-zh", "followup", "phoenix", "这个状态码一共出现了多少次？", [CW],
             [n(f["c_sent401"])], turns=["cartwright 里除了 200，Sent 后面哪个状态码最多？"]),
        case("h17-cw-psp-mean", "stat", "phoenix", "avg psp_ms across the 'payment authorized' lines?", [CW],
             [[str(f["c_psp_mean"]), f"{f['c_psp_mean'] / 1000:.3f}"]]),
        case("h17-cw-warnings-zh", "count", "phoenix", "cartwright 的 [warning] 一共有多少条？", [CW],
             [n(f["c_warnings"])]),
        case("h17-cw-session-posts", "count", "phoenix", "how many POST /api/v1/session actually made it to cartwright?",
             [CW, KONG], [n(f["c_session_posts"])]),
        case("h17-cw-checkout-crash", "count", "phoenix",
             "how many of the crash reports were for checkout requests (Request: POST .../checkout)?", [CW],
             [n(f["c_checkout_crash"])]),
        # ------------------------------------------------------------ processes on this machine
        case("h17-proc-count", "process", "proc", "how many van-router procs running rn?", [], ["{count:van-router}"],
             procs=[{"name": "van-router", "count": 3, "args": ["--depot", "leeds-2"]}]),
        case("h17-proc-script-count-zh", "process", "proc", "label-print 这个脚本现在起了几个？", [], ["{count:label-print}"],
             procs=[{"name": "label-print", "count": 2, "interp": True, "args": ["--printer", "zebra-3"]}]),
        case("h17-proc-pid", "process", "proc", "pid of slot-keeper?", [], ["{pid:slot-keeper}"],
             procs=[{"name": "slot-keeper", "args": ["--horizon", "7d"]}]),
        case("h17-proc-user-zh", "process", "proc", "chill-monitor 是哪个用户跑的？", [], ["{user:chill-monitor}"],
             procs=[{"name": "chill-monitor", "args": ["--probe", "fridge-a"]}]),
        case("h17-proc-cmdline-zh", "process", "proc", "price-feeder 的完整启动命令行是什么？带了哪些参数？", [],
             ["yorkshire", "480"],
             procs=[{"name": "price-feeder", "args": ["--region", "yorkshire", "--batch", "480"]}]),
        case("h17-proc-port", "socket", "proc", "which port is picker-gw listening on", [], ["{port:picker-gw}"],
             procs=[{"name": "picker-gw", "listen": True, "args": ["--mode", "lan"]}]),
        case("h17-proc-mem-zh", "process", "proc", "basket-cache、promo-engine、route-optim 这三个进程哪个吃内存最多？", [],
             ["promo-engine"],
             procs=[{"name": "basket-cache", "mem_mb": 60}, {"name": "promo-engine", "mem_mb": 220},
                    {"name": "route-optim", "mem_mb": 120}]),
        case("h17-proc-followup-pid-zh", "followup", "proc", "它的 pid 是多少？", [], ["{pid:subs-renewer}"],
             turns=["subs-renewer 现在还在跑吗？"], procs=[{"name": "subs-renewer", "args": ["--cycle", "weekly"]}]),
        case("h17-proc-followup-user", "followup", "proc", "and what user is it running under?", [], ["{user:invoice-mailer}"],
             turns=["is invoice-mailer up?"], procs=[{"name": "invoice-mailer", "args": ["--queue", "invoices"]}]),
        case("h17-action-kill", "action", "proc", "stock-pull is hung again, kill it pls", [],
             approval={"kill": "stock-pull"}, procs=[{"name": "stock-pull", "args": ["--supplier", "brakes-uk"]}]),
        case("h17-action-kill-zh", "action", "proc", "receipt-ocr 跑了三个，全都杀掉", [],
             approval={"kill": "receipt-ocr"}, procs=[{"name": "receipt-ocr", "count": 3, "args": ["--lang", "eng"]}]),
        case("h17-action-followup-kill", "action", "proc", "ok kill em all", [],
             turns=["how many crate-tracker processes are there"],
             approval={"kill": "crate-tracker"}, procs=[{"name": "crate-tracker", "count": 2, "args": ["--rfid", "on"]}]),
    ]
    return rows
