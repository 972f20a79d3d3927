"""The `queries-heldout15` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

ELB, BUN, JUL = "pellucid-web-elb.log", "lens-api.log", "lab-router.log"

FMT = {ELB: "aws classic elb access log (seconds, 6 decimals)", BUN: "node bunyan json lines (numeric levels)",
       JUL: "java.util.logging SimpleFormatter (two-line records, stack traces, 12-hour clock)"}
AREA = {ELB: "elb", BUN: "bunyan", JUL: "jul"}


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
    tl = lambda key, i: [f[key][i]]  # noqa: E731  (one timeline second)
    PKIX = ["SSLHandshakeException", "PKIX", "SunCertPathBuilderException", "certification path"]
    rows = [
        # ------------------------------------------------------------ the Classic ELB access log
        case("h15-elb-count-notok", "count", "elb",
             "pellucid-web elb access log: how many reqs came back with an elb_status_code thats not 200, 201 or 304?",
             [ELB, BUN], [n(f["e_other_status"])]),
        case("h15-elb-count-slow-zh", "count", "elb", "pellucid-web 的 ELB 日志里，backend_processing_time 超过 2 秒的请求一共有多少个？",
             [ELB], [n(f["e_slow2"])]),
        case("h15-elb-top3-clients", "top", "elb", "top 3 client IPs in the load balancer log by request count pls", [ELB, JUL],
             list(f["e_top3_clients"])),
        case("h15-elb-p95-presc-zh", "stat", "elb",
             "ELB 日志中 /api/v1/prescriptions/ 这类请求的 backend_processing_time p95 是多少？用毫秒表示", [ELB],
             [f["e_presc_p95"]]),
        case("h15-elb-mean-path", "stat", "elb", "whcih endpoint's got the worst avg backend_processing_time on the elb?",
             [ELB, BUN], [f["e_slowest_path"]]),
        case("h15-elb-share-4xx-zh", "share", "elb", "ELB 日志里 elb_status_code 是 4xx 的占全部请求的百分之几？", [ELB],
             [f["e_4xx_pct"]]),
        case("h15-elb-window-503", "window", "elb", "how many 503s did the elb log between 01:15 and 02:00?", [ELB, JUL],
             [n(f["e_503_window"])]),
        case("h15-elb-peak-minute", "peak", "elb", "whats the busiest minute in the elb access log", [ELB], [f["e_peak_minute"]]),
        case("h15-elb-max-bpt-zh", "stat", "elb", "整晚 backend_processing_time 最大的那一次是多少毫秒？看 ELB 日志", [ELB],
             [f["e_max_bpt_ms"]]),
        case("h15-elb-first-504-zh", "first", "elb", "ELB 第一次返回 504 是几点几分几秒？", [ELB, BUN], [hms(f["e_first_504"])]),
        case("h15-elb-distinct-clients", "distinct", "elb", "how many distinct client ips hit the elb tonight?", [ELB],
             [n(f["e_distinct_clients"])]),
        case("h15-elb-followup-429", "followup", "elb", "how many of its requests got a 429?", [ELB],
             [n(f["e_scraper_429"])], turns=["which client ip sent the most requests thru the elb?"]),
        case("h15-elb-timeline-0118-zh", "timeline", "elb", "1:18 左右 ELB 日志和 lab-router.log 里都发生了什么？按秒列出来",
             [ELB, JUL],
             [tl("tl_1818", 0), PKIX, tl("tl_1818", 1), ["503"], tl("tl_1818", 2), ["DEGRADED", "degraded"]]),
        # ------------------------------------------------------------ lens-api (Bunyan)
        case("h15-bun-count-not30-zh", "count", "bunyan", "lens-api 的 bunyan 日志里 level 不是 30 的记录有多少条？", [BUN],
             [n(f["b_not30"])]),
        case("h15-bun-count-ge40", "count", "bunyan", "lens-api log: count of entries at warn or above (level >= 40)?",
             [BUN, ELB], [n(f["b_ge40"])]),
        case("h15-bun-top-lens", "top", "bunyan", "in lens-api.log which order.lensType shows up most on the 'order routed' lines?",
             [BUN], [f["b_top_lens"]]),
        case("h15-bun-sum-eur-zh", "stat", "bunyan", "lens-api 里所有 order routed 的 order.totalCents 加起来是多少？换算成欧元",
             [BUN], [f["b_sum_eur"]]),
        case("h15-bun-p90-quote", "stat", "bunyan", "p90 of durationMs for 'quote computed' in lens-api, in seconds", [BUN, JUL],
             [f["b_quote_p90_s"]]),
        case("h15-bun-mean-lens-zh", "stat", "bunyan", "按 quote.lensType 分组，哪一种的 durationMs 平均值最高？", [BUN],
             [f["b_slowest_quote_lens"]]),
        case("h15-bun-distinct-customers", "distinct", "bunyan",
             "how many unique order.customerId values among the routed orders in lens-api.log?", [BUN],
             [n(f["b_distinct_customers"])]),
        case("h15-bun-last-ratelimit-zh", "last", "bunyan", "lens-api 日志里最后一条 rate limit exceeded 是什么时候？", [BUN, ELB],
             [hms(f["b_last_ratelimit"])]),
        case("h15-bun-peak-err-zh", "peak", "bunyan", "lens-api 的 error（level 50 及以上）按分钟统计，哪一分钟最多？", [BUN],
             [f["b_err_minute"]]),
        case("h15-bun-share-prog", "share", "bunyan", "what % of routed orders were progressive lenses (order.lensType)? lens-api log",
             [BUN], [f["b_prog_pct"]]),
        case("h15-bun-followup-mean-zh", "followup", "bunyan", "它的 order.totalCents 平均是多少欧元？", [BUN],
             [f["b_kestrel_mean_eur"]], turns=["lens-api 里 order routed 最多的 order.lab 是哪个？"]),
        case("h15-bun-timeline-0240", "timeline", "bunyan",
             "lens-api-2 went weird around 2:40 - what did lens-api.log record between 2:35 and 2:45, in order w/ timestamps?",
             [BUN],
             [tl("tl_0240", 0), ["heap"], tl("tl_0240", 1), ["event loop"], tl("tl_0240", 2),
              ["Invalid string length", "RangeError", "uncaught exception"], tl("tl_0240", 3), ["listening"]]),
        # ------------------------------------------------------------ lab-router (java.util.logging)
        case("h15-jul-count-severe", "count", "jul", "how many SEVERE records r in lab-router.log?", [JUL], [n(f["j_severe"])]),
        case("h15-jul-count-notinfo-zh", "count", "jul", "lab-router.log 里级别不是 INFO 的记录一共多少条？", [JUL, BUN],
             [n(f["j_not_info"])]),
        case("h15-jul-cause-0118", "cause", "jul",
             "lab-router threw a SEVERE at 1:18:40 - whats the actual root cause? follow the Caused by chain", [JUL],
             [["unable to find valid certification path", "SunCertPathBuilderException", "PKIX path building failed"],
              ["nordlys"]]),
        case("h15-jul-cause-0306-zh", "cause", "jul", "3:06 开始 lab-router 一直报 SEVERE，根本原因（最里层的 Caused by）是什么？",
             [JUL], [["Connection refused", "ConnectException"], ["pg-orders-1"]]),
        case("h15-jul-top3-labs-zh", "top", "jul", "lab-router.log 里按 Routed order 的条数排，前三个 lab 是哪几个？", [JUL],
             list(f["j_top3_labs"])),
        case("h15-jul-mean-lab", "stat", "jul", "lab-router: which lab has the slowest avrage took= on its Routed order lines?", [JUL, ELB],
             [f["j_slowest_lab"]]),
        case("h15-jul-p50-took-zh", "stat", "jul", "Routed order 的 took 中位数是多少？用秒表示", [JUL], [f["j_took_p50_s"]]),
        case("h15-jul-window-db", "window", "jul", "lab-router: how many SEVERE from StatusPoller between 03:00 and 03:20?", [JUL],
             [n(f["j_db_window"])]),
        case("h15-jul-count-took-zh", "count", "jul", "lab-router 里 Routed order 的 took >= 1500ms 的有几条？", [JUL],
             [n(f["j_took_ge1500"])]),
        case("h15-jul-first-warn", "first", "jul", "when did the first WARNING show up in lab-router.log?", [JUL, BUN],
             [[hms(f["j_first_warn"]), "12" + hms(f["j_first_warn"])[1:]]]),
        case("h15-jul-followup-last-zh", "followup", "jul", "那最后一条呢？", [JUL], [hms(f["j_last_severe"])],
             turns=["lab-router.log 第一条 SEVERE 是几点？"]),
        case("h15-jul-peak-minute", "peak", "jul", "busiest minute for Routed order lines in lab-router?", [JUL],
             [f["j_peak_minute"]]),
        case("h15-jul-timeline-0152-zh", "timeline", "jul", "1:52 前后 lab-router 和 lens-api 两个日志里发生了什么？按时间顺序说",
             [JUL, BUN],
             [tl("tl_0152", 0), PKIX, tl("tl_0152", 1), ["trust store", "truststore"], tl("tl_0152", 2),
              ["Replaying", "parked"], tl("tl_0152", 3), ["order routed"]]),
        # ------------------------------------------------------------ processes on this machine
        case("h15-proc-count", "process", "proc", "how many edger-sync processes running rn?", [], ["{count:edger-sync}"],
             procs=[{"name": "edger-sync", "count": 3, "args": ["--line", "B"]}]),
        case("h15-proc-script-count-zh", "process", "proc", "rx-import 这个脚本现在起了几个？", [], ["{count:rx-import}"],
             procs=[{"name": "rx-import", "count": 2, "interp": True, "args": ["--source", "sftp"]}]),
        case("h15-proc-pid", "process", "proc", "pid of lensmeter-gw?", [], ["{pid:lensmeter-gw}"],
             procs=[{"name": "lensmeter-gw", "args": ["--device", "LM-7"]}]),
        case("h15-proc-user-zh", "process", "proc", "coating-watch 是哪个用户跑的？", [], ["{user:coating-watch}"],
             procs=[{"name": "coating-watch", "args": ["--bath", "AR2"]}]),
        case("h15-proc-cmdline", "process", "proc", "what args was tint-queue started with? full command line pls", [],
             ["nordlys-eu", "15m"], procs=[{"name": "tint-queue", "args": ["--lab-profile", "nordlys-eu", "--window", "15m"]}]),
        case("h15-proc-port-zh", "socket", "proc", "frame-cdn-sync 在监听哪个端口？", [], ["{port:frame-cdn-sync}"],
             procs=[{"name": "frame-cdn-sync", "listen": True, "args": ["--bucket", "frames"]}]),
        case("h15-proc-mem", "process", "proc", "prism-calc, blank-picker, axis-ocr - which one of them is eating the most memory?",
             [], ["blank-picker"],
             procs=[{"name": "prism-calc", "mem_mb": 40}, {"name": "blank-picker", "mem_mb": 180},
                    {"name": "axis-ocr", "mem_mb": 90}]),
        case("h15-proc-followup-pid-zh", "followup", "proc", "它的 pid 是多少？", [], ["{pid:surface-cam}"],
             turns=["surface-cam 还在跑吗？"], procs=[{"name": "surface-cam", "args": ["--cell", "3"]}]),
        case("h15-proc-followup-user", "followup", "proc", "who owns it?", [], ["{user:hinge-indexer}"],
             turns=["is hinge-indexer running?"], procs=[{"name": "hinge-indexer", "args": ["--full"]}]),
        case("h15-action-kill", "action", "proc", "lens-recon is eating cpu, get rid of it pls", [],
             approval={"kill": "lens-recon"}, procs=[{"name": "lens-recon", "args": ["--since", "yesterday"]}]),
        case("h15-action-kill-zh", "action", "proc", "把 3 个 edge-bevel 进程都停掉", [],
             approval={"kill": "edge-bevel"}, procs=[{"name": "edge-bevel", "count": 3, "args": ["--station", "E"]}]),
        case("h15-action-followup-kill-zh", "action", "proc", "全部杀掉", [], turns=["polish-bot 现在有几个进程？"],
             approval={"kill": "polish-bot"}, procs=[{"name": "polish-bot", "count": 2, "args": ["--pad", "fine"]}]),
    ]
    return rows
