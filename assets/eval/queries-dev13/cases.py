"""The `queries-dev13` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

PN, EC, RP = "shopfront-bff.log", "slot-allocator.ecs.ndjson", "route-planner.json"

FMT = {PN: "pino JSON (numeric level, epoch-ms time, pino-http req/res/responseTime/err)",
       EC: "ECS JSON from ecszap (@timestamp, log.level, dotted keys beside nested http/url/event/labels, "
           "event.duration ns)",
       RP: "Cloud Logging structured JSON (severity, time, httpRequest.latency as '0.231s', "
           "logging.googleapis.com/labels and trace)"}


def case(id_, area, cat, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    c["area"] = area
    c["fmt"] = " + ".join(FMT[x] for x in sorted(files)) if files else "live processes"
    return c


def cases(f, n, hm, hms):
    crash_what = ["Cannot read properties of undefined", "slotId", "TypeError"]
    rows = [
        # ================= shopfront-bff (Node.js, pino)
        case("d13-pn-count-lvl50-zh", "pino", "count", "shopfront-bff 的 pino 日志里 level 是 50 的一共几条？", [PN, EC],
             [n(f["pn_lvl50"])]),
        case("d13-pn-count-warn", "pino", "count", "bff log: how many warn lines? (pino level 40)", [PN],
             [n(f["pn_lvl40"])]),
        case("d13-pn-followup-5xx-zh", "pino", "followup", "那 5xx 呢", [PN], [n(f["pn_5xx"])],
             turns=["bff 日志里 res.statusCode 是 4xx 的请求有多少？"]),
        case("d13-pn-top3-5xx-paths", "pino", "top",
             "which 3 endpoints in the bff threw the most 5xx? group by path, ignore the ?query part", [PN, RP],
             list(f["pn_top3_5xx"])),
        case("d13-pn-stat-slots-p95-zh", "pino", "stat",
             "GET /api/slots 的 responseTime p95 是多少 ms？url 后面 query 不一样的也算同一个接口", [PN],
             [f["pn_slots_p95"]]),
        case("d13-pn-stat-worst-avg", "pino", "stat",
             "bff: slowest endpoint by avg responseTime? dont care about query strigns", [PN],
             [[f["pn_worst_avg"]]]),
        case("d13-pn-stat-slowest-req-zh", "pino", "stat", "bff 里 responseTime 最大的那个请求，url 是啥，花了多少毫秒？",
             [PN, EC], [[f["pn_slowest_url"]], f["pn_slowest_ms"]]),
        case("d13-pn-peak-minute", "pino", "peak", "in shopfront-bff which minute had the most requests logged? utc",
             [PN], [f["pn_peak"]]),
        case("d13-pn-count-timeout", "pino", "count", "how many err.type=TimeoutError in the bff log", [PN],
             [n(f["pn_timeout"])]),
        case("d13-pn-time-fatal", "pino", "time",
             "the bff crashed sometime last night (level 60) - when exactly in UTC, and what was the error?", [PN],
             [hms(f["pn_fatal"]), crash_what]),
        case("d13-pn-followup-newpid-zh", "pino", "followup", "重启之后进程的 pid 变成多少了", [PN],
             [n(f["pn_new_pid"])], turns=["bff 那条 level 60 的 fatal 是几点（UTC）？"]),
        case("d13-pn-sum-search-bytes", "pino", "sum",
             "sum of res content-length for /api/catalog/search in the bff log? give it in MB", [PN],
             [f["pn_search_mb"]]),
        case("d13-pn-cross-first-zh", "pino", "cross",
             "slot-allocator 第一条 error 和 bff 第一个 503 分别是几点几分几秒（UTC）？哪个先？", [PN, EC],
             [hms(f["ec_first_error"]), hms(f["pn_first_503"])]),

        # ================= slot-allocator (Go, ecszap ECS JSON)
        case("d13-ec-count-error-zh", "ecs", "count", "slot-allocator 的 ECS 日志里 log.level=error 的有多少条？", [EC],
             [n(f["ec_errors"])]),
        case("d13-ec-top-errtype", "ecs", "top", "slot-allocator: most common error.type?", [EC, PN],
             [[f["ec_top_errtype"].lstrip("*")]]),
        case("d13-ec-followup-errtype-n-zh", "ecs", "followup", "它一共出现了多少次", [EC],
             [n(f["ec_top_errtype_n"])], turns=["slot-allocator 日志里出现最多的 error.type 是哪个？"]),
        case("d13-ec-stat-avail-p99-zh", "ecs", "stat", "/v2/slots/availability 的 event.duration p99 是多少？换算成毫秒",
             [EC], [f["ec_avail_p99"]]),
        case("d13-ec-stat-reserve-avg", "ecs", "stat", "avg event.duration for POST /v2/slots/reserve, in ms pls", [EC],
             [f["ec_reserve_avg"]]),
        case("d13-ec-top-store-503-zh", "ecs", "top", "按 labels.store_id 看，slot-allocator 哪个门店的 503 最多？", [EC, RP],
             [[f["ec_top_store"]]]),
        case("d13-ec-followup-trace", "ecs", "followup", "ok whats its trace.id", [EC], [[f["ec_slowest_trace"]]],
             turns=["what was the single slowest request in slot-allocator (event.duration)?"]),
        case("d13-ec-distinct-stores-zh", "ecs", "distinct", "slot-allocator 日志里总共出现过多少个不同的 labels.store_id？",
             [EC], [n(f["ec_stores"])]),
        case("d13-ec-peak-503", "ecs", "peak", "slot allocator - which minute had the most 503s?", [EC],
             [f["ec_peak_503"]]),
        case("d13-ec-time-breaker", "ecs", "time",
             "when did the redis circuit breaker first open in slot-allocator? need the exact second", [EC, PN],
             [hms(f["ec_breaker"])]),
        case("d13-ec-share-5xx-zh", "ecs", "share",
             "slot-allocator 所有 http 请求里 http.response.status_code 是 5xx 的占百分之多少？", [EC],
             [f["ec_5xx_share"]]),
        case("d13-ec-count-409", "ecs", "count", "how many reserves got a 409 (slot already taken) in the slot allocator log?",
             [EC], [n(f["ec_409"])]),

        # ================= route-planner (Python, Cloud Logging structured JSON)
        case("d13-rp-count-warn-up-zh", "gcp", "count", "route-planner 日志里 severity 是 WARNING 及以上的有几条？", [RP],
             [n(f["rp_warn_up"])]),
        case("d13-rp-stat-opt-p90", "gcp", "stat", "p90 of httpRequest.latency for routes:optimize in route-planner, in ms?",
             [RP], [f["rp_opt_p90"]]),
        case("d13-rp-stat-slowest-msg-zh", "gcp", "stat", "route-planner 里 httpRequest.latency 最长的那个请求，message 写的是什么？",
             [RP, EC], [[f["rp_slowest_msg"], "fallback heuristic"]]),
        case("d13-rp-followup-trace-zh", "gcp", "followup", "它的 trace id 是多少", [RP], [[f["rp_slowest_trace"]]],
             turns=["route-planner 里最慢的一个请求是哪个？看 httpRequest.latency"]),
        case("d13-rp-sum-stops", "gcp", "sum", "route planner: add up stops over all the 'route optimized' lines, total?",
             [RP], [n(f["rp_stops"])]),
        case("d13-rp-top-depot-err-zh", "gcp", "top", "route-planner 里 ERROR 最多的是哪个 depot（labels 里的 depot）？", [RP],
             [[f["rp_top_depot"]]]),
        case("d13-rp-distinct-vans", "gcp", "distinct", "how many diff van_id labels show up in route planner logs", [RP, PN],
             [n(f["rp_vans"])]),
        case("d13-rp-stat-eta-mean-zh", "gcp", "stat", "GET /v1/eta 的平均 httpRequest.latency 是几秒？", [RP],
             [f["rp_eta_mean"]]),
        case("d13-rp-time-critical", "gcp", "time", "was there anything CRITICAL in route-planner? when + what", [RP],
             [hms(f["rp_critical"]), ["worker pool exhausted"]]),
        case("d13-rp-count-504", "gcp", "count", "count of httpRequest.status 504 in the route planner log?", [RP, EC],
             [n(f["rp_504"])]),
        case("d13-rp-peak-err-zh", "gcp", "peak", "route-planner 的 ERROR 在哪一分钟最集中？", [RP], [f["rp_peak_err"]]),
        case("d13-rp-followup-other-svc", "gcp", "followup", "and for the route planner?", [RP, EC],
             [n(f["rp_over5s"])], turns=["how many requests took longer than 5s in slot-allocator?"]),

        # ================= processes on this machine
        case("d13-pr-count", "proc", "process", "how many picker-sync processes are up atm?", [], ["{count:picker-sync}"],
             procs=[{"name": "picker-sync", "count": 4, "args": ["--site", "MAN-07"]}]),
        case("d13-pr-script-count-zh", "proc", "process", "label-print 脚本起了几个？", [], ["{count:label-print}"],
             procs=[{"name": "label-print", "count": 3, "interp": True, "args": ["--printer", "zebra-2"]}]),
        case("d13-pr-pid", "proc", "process", "gimme the pid for chiller-watch", [], ["{pid:chiller-watch}"],
             procs=[{"name": "chiller-watch", "args": ["--zone", "frozen"]}]),
        case("d13-pr-user-zh", "proc", "process", "invoice-batch 是用哪个账号在跑？", [], ["{user:invoice-batch}"],
             procs=[{"name": "invoice-batch", "args": ["--period", "2036-03"]}]),
        case("d13-pr-cmdline", "proc", "process", "what flags is promo-loader running with? full cmdline", [],
             [["SPRING36"], ["--dry-run"]],
             procs=[{"name": "promo-loader", "args": ["--campaign", "SPRING36", "--dry-run"]}]),
        case("d13-pr-port-zh", "proc", "socket", "slot-cache 在监听哪个端口？", [], ["{port:slot-cache}"],
             procs=[{"name": "slot-cache", "listen": True, "args": ["--maxmemory", "64mb"]}]),
        case("d13-pr-mem", "proc", "process",
             "out of van-tracker, substitutor and basket-diff, which one's hogging the most RAM?", [], [["substitutor"]],
             procs=[{"name": "van-tracker", "mem_mb": 40}, {"name": "substitutor", "mem_mb": 250},
                    {"name": "basket-diff", "mem_mb": 70}]),
        case("d13-pr-followup-pid-zh", "proc", "followup", "pid 多少？", [], ["{pid:depot-sync}"],
             turns=["depot-sync 在跑吗"], procs=[{"name": "depot-sync", "args": ["--depot", "D11"]}]),
        case("d13-pr-followup-args", "proc", "followup", "what args did it get", [], [["eu-west-prices"]],
             turns=["is pricing-feed alive?"], procs=[{"name": "pricing-feed", "args": ["--topic", "eu-west-prices"]}]),
        case("d13-pr-kill", "proc", "action", "kill eta-backfill, its hammering osrm", [],
             approval={"kill": "eta-backfill"}, procs=[{"name": "eta-backfill", "args": ["--since", "yesterday"]}]),
        case("d13-pr-kill-zh", "proc", "action", "把 cart-reaper 这个进程干掉，它在乱删购物车", [],
             approval={"kill": "cart-reaper"}, procs=[{"name": "cart-reaper", "args": ["--older-than", "1h"]}]),
        case("d13-pr-kill-followup-zh", "proc", "action", "都停掉吧", [], approval={"kill": "stock-pull"},
             turns=["stock-pull 现在起了几个？"], procs=[{"name": "stock-pull", "count": 2, "args": ["--feed", "wholesale"]}]),
        case("d13-pr-count-zh", "proc", "process", "现在有多少个 order-relay 进程？", [], ["{count:order-relay}"],
             procs=[{"name": "order-relay", "count": 2, "args": ["--queue", "orders.v2"]}]),
    ]
    return rows
