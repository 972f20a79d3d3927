"""The `queries-dev12` cases: what an on-call operator types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

NG, GD, ST = "tollpay-edge.access.log", "gantryd.log", "toll-settlement.log"

FMT = {NG: "nginx log_format key=value (rt/urt seconds, urt '-' or a comma list)",
       GD: "logrus text formatter (logfmt, Go durations)",
       ST: "log4j2 %d{ISO8601} %-5p [%t] %c{1.} - %m%n with Caused by chains"}


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
    tl = lambda key, i: [f[key][i]]  # noqa: E731  (one timeline second)
    rows = [
        # ================= nginx edge access log (key=value)
        case("d12-ng-count-notok-zh", "nginx", "count",
             "tollpay edge 的 nginx access log 里，status 不是 200、201、304 的请求一共多少条？", [NG, GD],
             [n(f["ng_not_ok"])]),
        case("d12-ng-count-rt-range", "nginx", "count",
             "edge access log: how many reqs took between 1 and 5 sec (rt)?", [NG], [n(f["ng_rt_1_5"])]),
        case("d12-ng-top3-clients-zh", "nginx", "top", "nginx 访问日志里请求数最多的前三个 client 是哪几个？", [NG, ST],
             list(f["ng_top3_clients"])),
        case("d12-ng-top-upstream-504", "nginx", "top", "which upstream threw the most 504s in the tollpay edge log?",
             [NG], [[f["ng_top_up_504"].split(":")[0]]]),
        case("d12-ng-distinct-clients", "nginx", "distinct", "how many distinct client ips hit the tollpay edge tonight",
             [NG], [n(f["ng_distinct_clients"])]),
        case("d12-ng-stat-pay-p80-zh", "nginx", "stat", "edge 日志里 POST /api/v1/payments 的 rt，p80 是多少毫秒？", [NG, ST],
             [f["ng_pay_p80"]]),
        case("d12-ng-stat-slowest-endpoint", "nginx", "stat", "whcih endpoint has the worst avg rt on the edge?", [NG],
             [[f["ng_slowest_endpoint"]]]),
        case("d12-ng-stat-static-mb-zh", "nginx", "stat", "/static/ 下面的文件一共吐了多少 bytes？换算成 MB", [NG],
             [f["ng_static_mb"]]),
        case("d12-ng-share-429", "nginx", "share", "what % of all requests in the edge log got rate limited (429)?",
             [NG], [f["ng_429_share"]]),
        case("d12-ng-window-scraper-zh", "nginx", "window", "203.0.113.45 在 03:35 到 04:00 之间一共打了多少个请求？",
             [NG], [n(f["ng_scraper_window"])]),
        case("d12-ng-peak-minute", "nginx", "peak", "busiest minute on the edge access log? just the minute pls", [NG, GD],
             [f["ng_peak_minute"]]),
        case("d12-ng-count-retried", "nginx", "count",
             "how many requests did nginx have to retry on a 2nd upstream? (urt shows a comma list)", [NG],
             [n(f["ng_retried"])]),
        case("d12-ng-followup-last504-zh", "nginx", "followup", "最后一个呢？", [NG],
             [hms(f["ng_last_504"])], turns=["edge access log 里第一个 504 是几点出现的"]),

        # ================= gantryd (logrus text)
        case("d12-gd-count-notinfo", "gantryd", "count", "gantryd log - how many lines are NOT level=info?", [GD],
             [n(f["gd_not_info"])]),
        case("d12-gd-count-slow-zh", "gantryd", "count", "gantryd 里 plate read ingested 的 latency >= 2s 的有多少条？",
             [GD, NG], [n(f["gd_slow_reads"])]),
        case("d12-gd-top-lowconf", "gantryd", "top",
             "which gantry.id logged the most 'ocr confidence below threshold' warnings?", [GD], [f["gd_top_lowconf"]]),
        case("d12-gd-followup-lowconf-n-zh", "gantryd", "followup", "它一共报了几次？", [GD],
             [n(f["gd_top_lowconf_n"])], turns=["gantryd 日志里哪个 gantry.id 的 ocr confidence below threshold 最多？"]),
        case("d12-gd-distinct-zh", "gantryd", "distinct", "gantryd 日志里一共出现过多少个不同的 gantry.id？", [GD],
             [n(f["gd_distinct"])]),
        case("d12-gd-stat-p90-zh", "gantryd", "stat", "plate read ingested 的 latency p90 是多少？用秒表示", [GD],
             [f["gd_p90"]]),
        case("d12-gd-stat-max-ms", "gantryd", "stat", "max latency on a plate read in gantryd, in ms?", [GD, ST],
             [f["gd_max_ms"]]),
        case("d12-gd-stat-lane-mean-zh", "gantryd", "stat", "按 gantry.lane 分组，哪个车道的平均 latency 最高？", [GD],
             [["lane 4", "lane=4", "lane: 4", "lane 4", "车道 4", "车道4", "4 号", "4号"]]),
        case("d12-gd-share-errors", "gantryd", "share", "whats the share of level=error lines in gantryd, in percent",
             [GD], [f["gd_err_share"]]),
        case("d12-gd-followup-back", "gantryd", "followup", "and when did it come back?", [GD],
             [hms(f["gd_back"])], turns=["when did G122 start missing heartbeats in gantryd?"]),
        case("d12-gd-peak-pub", "gantryd", "peak", "gantryd: in which minute did 'publish to settlement failed' peak?",
             [GD], [f["gd_pub_peak"]]),
        case("d12-gd-timeline-0214-zh", "gantryd", "timeline",
             "02:14 前后 gantryd 和 nginx edge 日志里发生了什么？按秒列一下", [GD, NG],
             [tl("tl_gantry", 0), ["publish to settlement failed", "context deadline exceeded"], tl("tl_gantry", 1),
              tl("tl_gantry", 2), tl("tl_gantry", 3), ["spool drained"]]),

        # ================= toll-settlement (Log4j2)
        case("d12-st-count-error-zh", "settlement", "count", "toll-settlement 日志里 ERROR 级别的事件有多少个？", [ST],
             [n(f["st_errors"])]),
        case("d12-st-timeline-ledger", "settlement", "timeline",
             "settlement log, anything weird between 3:15 and 3:45? give me a timeline w/ seconds", [ST, GD],
             [tl("tl_ledger", 0), ["LedgerPostingJob"], tl("tl_ledger", 1),
              ["Rounding necessary", "ArithmeticException", "T-88412907"], tl("tl_ledger", 2)]),
        case("d12-st-cause-0214", "settlement", "cause",
             "settlement threw at 02:14:07 - whats the actual root cause of that exception?", [ST],
             [["remaining connection slots are reserved"]]),
        case("d12-st-cause-0326-zh", "settlement", "cause", "3:26 那个 LedgerWriter 的异常根因是啥？看 Caused by", [ST],
             [["Rounding necessary"], ["ArithmeticException"]]),
        case("d12-st-top3-threads-zh", "settlement", "top", "settlement 日志按线程统计 ERROR 数，前三个线程是哪几个？",
             [ST], list(f["st_top3_threads"])),
        case("d12-st-stat-p50-zh", "settlement", "stat", "Chunk committed 的 duration 中位数是多少秒？", [ST],
             [f["st_p50"]]),
        case("d12-st-stat-amount", "settlement", "stat", "total amount= across all committed chunks? (GBP)", [ST],
             [f["st_amount"]]),
        case("d12-st-stat-slow-worker", "settlement", "stat",
             "which settle-worker thread has the highest avg chunk duration?", [ST], [[f["st_slow_worker"]]]),
        case("d12-st-stat-max-chunk-zh", "settlement", "stat", "最慢的一个 chunk 花了多久？换成秒", [ST, NG],
             [f["st_max_chunk"]]),
        case("d12-st-followup-job-end", "settlement", "followup", "and when did it finish", [ST],
             [hms(f["st_job_end"])], turns=["when did NightlySettlementJob start?"]),
        case("d12-st-timeline-zh", "settlement", "timeline",
             "2:10 到 2:35 之间 settlement 和 nginx edge 日志各发生了什么？按时间顺序，带秒", [ST, NG],
             [tl("tl_settle", 0), ["Connection is not available", "remaining connection slots", "HikariPool-1"],
              tl("tl_settle", 1), ["504"], tl("tl_settle", 2), tl("tl_settle", 3), ["committed"]]),
        case("d12-st-followup-cause-thread", "settlement", "followup", "which thread logged it?", [ST],
             [["settle-worker-3"]], turns=["settlement log: whats the root cause of the first ERROR?"]),

        # ================= processes on this machine
        case("d12-pr-count", "proc", "process", "how many tollsync procs r running rn?", [], ["{count:tollsync}"],
             procs=[{"name": "tollsync", "count": 4, "args": ["--plaza", "J9"]}]),
        case("d12-pr-script-count-zh", "proc", "process", "anpr-feed 这个脚本现在跑了几个实例？", [],
             ["{count:anpr-feed}"],
             procs=[{"name": "anpr-feed", "count": 3, "interp": True, "args": ["--source", "gantry-mqtt"]}]),
        case("d12-pr-pid", "proc", "process", "pid of gantry-bridge pls", [], ["{pid:gantry-bridge}"],
             procs=[{"name": "gantry-bridge", "args": ["--ring", "M6-north"]}]),
        case("d12-pr-user-zh", "proc", "process", "ledger-export 是哪个用户跑的？", [], ["{user:ledger-export}"],
             procs=[{"name": "ledger-export", "args": ["--target", "sftp"]}]),
        case("d12-pr-cmdline", "proc", "process", "whats the full command line of fare-calc?", [], [["T35Q1"], ["north"]],
             procs=[{"name": "fare-calc", "args": ["--tariff", "T35Q1", "--region", "north"]}]),
        case("d12-pr-port-zh", "proc", "socket", "plate-cache 监听在哪个端口上？", [], ["{port:plate-cache}"],
             procs=[{"name": "plate-cache", "listen": True, "args": ["--ttl", "900"]}]),
        case("d12-pr-mem", "proc", "process",
             "img-archiver, anpr-model, trip-dedupe - which one is eating the most memory?", [], [["anpr-model"]],
             procs=[{"name": "img-archiver", "mem_mb": 30}, {"name": "anpr-model", "mem_mb": 240},
                    {"name": "trip-dedupe", "mem_mb": 60}]),
        case("d12-pr-followup-pid-zh", "proc", "followup", "它的 pid 是多少", [], ["{pid:vrm-lookup}"],
             turns=["vrm-lookup 还在跑吗？"], procs=[{"name": "vrm-lookup", "args": ["--dvla-cache", "warm"]}]),
        case("d12-pr-followup-args", "proc", "followup", "what args was it started with?", [], [["nightly-2035"]],
             turns=["is dart-charge up?"], procs=[{"name": "dart-charge", "args": ["--batch", "nightly-2035"]}]),
        case("d12-pr-kill", "proc", "action", "toll-replay is spamming the db, pls kill it", [],
             approval={"kill": "toll-replay"}, procs=[{"name": "toll-replay", "args": ["--from", "archive"]}]),
        case("d12-pr-kill-zh", "proc", "action", "evidence-zip 把磁盘 IO 占满了，帮我把这个进程停掉", [],
             approval={"kill": "evidence-zip"}, procs=[{"name": "evidence-zip", "args": ["--level", "9"]}]),
        case("d12-pr-kill-followup-zh", "proc", "action", "全部杀掉", [], approval={"kill": "spool-flush"},
             turns=["spool-flush 现在有几个进程？"], procs=[{"name": "spool-flush", "count": 2, "args": ["--dir", "spool"]}]),
        case("d12-pr-count-zh", "proc", "process", "gantry-poller 现在有几个进程在跑", [], ["{count:gantry-poller}"],
             procs=[{"name": "gantry-poller", "count": 2, "args": ["--interval", "5s"]}]),
    ]
    return rows
