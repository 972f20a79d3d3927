"""The `queries-dev14` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

GN, LV, LM = "seatlock-api.log", "laravel-2036-04-18.log", "lambda-payment-webhook.log"

FMT = {GN: "Gin default logger in release mode ([GIN] date - time | status | Go duration latency | client ip | "
           "method \"path\"; Error #01 lines) mixed with Go std log lines, a gin Recovery block and a Go fatal "
           "error dump",
       LV: "Laravel daily log (Monolog LineFormatter: [Y-m-d H:i:s] production.LEVEL: msg {json context}, "
           "exceptions with [stacktrace] and [previous exception] across lines)",
       LM: "aws logs tail --format detailed of a Node.js 20 Lambda (INIT_START/START/END/REPORT with tab-separated "
           "Duration, Billed Duration, Max Memory Used, Init Duration, Status; runtime lines; Task timed out)"}


def case(id_, area, cat, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    c["area"] = area
    c["fmt"] = " + ".join(FMT[x] for x in sorted(files)) if files else "live processes"
    return c


def mk(*alts):
    """A marker as the log spells it, also in lower case (an answer may not keep the case)."""
    out = []
    for a in alts:
        for x in (a, a.lower()):
            if x not in out:
                out.append(x)
    return out


def cases(f, n, hm, hms):
    oom_marker = mk("OOM command not allowed", "maxmemory")
    lock_wait = mk("Lock wait timeout", "1205")
    slowest_took = ["1m4s", "64s", "64 s", "64.0", "64秒", "64 秒", "1 min 4", "1 minute 4", "1分4秒", "1 分 4 秒"]
    rows = [
        # ================= seatlock-api (Go, gin)
        case("d14-gn-top3-clients", "gin", "top", "top 3 client IPs hitting seatlock-api, by number of requests?",
             [GN, LM], [[ip] for ip in f["gn_top3_ip"]]),
        case("d14-gn-top-st409-zh", "gin", "top", "seatlock-api 里哪个场次（showtime）返回的 409 最多？", [GN],
             [[f["gn_top_st409"]]]),
        case("d14-gn-top-2nd-st409", "gin", "top",
             "which showtime got the second most 409 conflicts in seatlock? not the top one, the runner-up", [GN, LV],
             [[f["gn_2nd_st409"]]]),
        case("d14-gn-count-409", "gin", "count", "how many 409s did seatlock-api send back last night", [GN],
             [n(f["gn_409"])]),
        case("d14-gn-followup-429ip-zh", "gin", "followup", "主要是哪个 IP 打出来的？", [GN], [[f["gn_top429_ip"]]],
             turns=["seatlock-api 一共返回了多少个 429？"]),
        case("d14-gn-followup-st-total", "gin", "followup",
             "ok and how many requests in total went to that showtime's endpoints? seat map + holds, all methods",
             [GN], [n(f["gn_top_st_total"])], turns=["which showtime got the most 409s in seatlock-api?"]),
        case("d14-gn-peak", "gin", "peak", "seatlock: busiest minute of the night?", [GN], [f["gn_peak"]]),
        case("d14-gn-window-500-zh", "gin", "window", "01:15 到 01:25 之间 seatlock-api 一共返回了多少个 500？", [GN],
             [n(f["gn_500_window"])]),
        case("d14-gn-stat-seats-p99-zh", "gin", "stat",
             "GET /v1/showtimes/{id}/seats 的 p99 延迟是多少毫秒？不同场次算同一个接口", [GN], [f["gn_seats_p99"]]),
        case("d14-gn-stat-holds-p50", "gin", "stat",
             "median latency of the seat hold POSTs (POST /v1/showtimes/*/holds) in seatlock, in ms", [GN],
             [f["gn_holds_p50"]]),
        case("d14-gn-stat-slowest", "gin", "stat",
             "what was the single slowest request in seatlock-api? url + how long it took", [GN, LM],
             [["/v1/reports/occupancy"], slowest_took]),
        case("d14-gn-stat-worst-mean-zh", "gin", "stat", "seatlock-api 哪个接口平均延迟最高？平均多少？路径里的 ID 不用管",
             [GN], [[f["gn_worst_path"]], f["gn_worst_mean"]]),
        case("d14-gn-timeline-bot-zh", "gin", "timeline", "00:50 到 01:00 之间 seatlock-api 有什么异常吗？", [GN],
             [[f["gn_top429_ip"]], [hms(f["gn_bot_first"]), hms(f["gn_bot_first429"])], [hms(f["gn_bot_last429"])]]),
        case("d14-gn-timeline-panic", "gin", "timeline", "what's going on in seatlock around 02:20?", [GN],
             [[hms(f["gn_panic"])], mk("index out of range", "panic recovered", "panic")]),
        case("d14-gn-timeline-crash", "gin", "timeline", "seatlock-api: what happened between 2:45 and 2:55?",
             [GN, LV], [mk("concurrent map writes"), [hms(f["gn_restart"])]]),
        case("d14-gn-incident-crash", "gin", "incident",
             "seatlock-api crashed and came back at some point tonight - why, and when did it go down?", [GN],
             [mk("concurrent map writes"), [hm(f["gn_crash_after"])]]),

        # ================= laravel (web-1)
        case("d14-lv-count-error-zh", "laravel", "count", "laravel 日志里 ERROR 级别的日志一共多少条？", [LV],
             [n(f["lv_errors"])]),
        case("d14-lv-top-exc-zh", "laravel", "top", "laravel 日志里出现次数最多的异常类是哪个？", [LV, GN],
             [["RequestException"]]),
        case("d14-lv-top-least-site", "laravel", "top", "which cinema (site) had the fewest completed checkouts?",
             [LV], [[f["lv_least_site"], f["lv_least_site"].capitalize()]]),
        case("d14-lv-top-user-zh", "laravel", "top", "哪个 userId 的 Seat hold conflict 最多？", [LV],
             [str(f["lv_scalper"])]),
        case("d14-lv-stat-p95-zh", "laravel", "stat", "Checkout completed 里 duration_ms 的 p95 是多少？", [LV],
             [f["lv_dur_p95"]]),
        case("d14-lv-stat-amount", "laravel", "stat",
             "whats the average amount_pence on completed checkouts in the laravel log", [LV], [f["lv_amount_mean"]]),
        case("d14-lv-stat-slowest-zh", "laravel", "stat", "duration_ms 最大的那次 checkout 是哪个订单？用了多少 ms？",
             [LV, LM], [[f["lv_slowest_order"]], n(f["lv_slowest_ms"])]),
        case("d14-lv-peak-fail-zh", "laravel", "peak", "Seat hold failed 在哪一分钟最多？", [LV], [f["lv_fail_peak"]]),
        case("d14-lv-timeline-deadlock", "laravel", "timeline",
             "anything weird in the laravel log between 1:40 and 1:55? first and last time pls", [LV],
             [[hms(f["lv_dl_first"])], [hms(f["lv_dl_last"])], mk("Deadlock", "1213", "40001")]),
        case("d14-lv-followup-lw-last-zh", "laravel", "followup", "最后一次是几点？", [LV], [hms(f["lv_lw_last"])],
             turns=["laravel 日志里 Lock wait timeout 出现了几次？"]),

        # ================= the payment webhook lambda (aws logs tail)
        case("d14-lm-count-cold", "lambda", "count", "how many cold starts did the webhook lambda have?", [LM],
             [n(f["lm_cold"])]),
        case("d14-lm-count-timeout-zh", "lambda", "count", "webhook lambda 的 Task timed out 一共出现了几次？", [LM, LV],
             [n(f["lm_timeouts"])]),
        case("d14-lm-followup-last-to", "lambda", "followup", "when was the last one", [LM], [hms(f["lm_last_to"])],
             turns=["how many invocations of the payment webhook timed out?"]),
        case("d14-lm-stat-p90", "lambda", "stat", "p90 Duration across all REPORT lines in the webhook lambda log? ms",
             [LM], [f["lm_p90"]]),
        case("d14-lm-stat-init-zh", "lambda", "stat", "冷启动的 Init Duration 平均多少毫秒？", [LM], [f["lm_init_mean"]]),
        case("d14-lm-stat-maxmem", "lambda", "stat",
             "which invocation had the highest Max Memory Used? need the request id", [LM], [[f["lm_maxmem_rid"]]]),
        case("d14-lm-top-2nd-type", "lambda", "top", "2nd most common stripe event type the webhook got?", [LM],
             [[f["lm_2nd_type"]]]),
        case("d14-lm-top-order-zh", "lambda", "top", "lambda 里哪个订单号被处理的次数最多？（重复投递的那种）", [LM],
             [[f["lm_top_order"]]]),
        case("d14-lm-timeline-oom-zh", "lambda", "timeline", "webhook lambda 在 02:30 到 02:45 之间发生了什么？", [LM],
             [[hms(f["lm_oom_start"]), hms(f["lm_oom_exit"])],
              mk("OutOfMemory", "signal: killed", "Runtime.ExitError", "Runtime exited", "out of memory") + ["内存"]]),

        # ================= across the logs
        case("d14-mx-timeline-oom-zh", "multi", "timeline", "01:12 前后 seatlock-api 和 laravel 那边出了什么事？", [GN, LV],
             [[hms(f["gn_first_5xx"])], oom_marker, [hms(f["lv_first_fail"])]]),
        case("d14-mx-timeline-recon", "multi", "timeline",
             "walk me through what happened from 02:00 to 02:10 across all three logs", [GN, LV, LM],
             [[hms(f["lv_recon"])], [hms(f["lm_first_to"])], [hms(f["lv_lw_first"])], mk("Task timed out", "timed out"),
              lock_wait]),
        case("d14-mx-timeline-recover-zh", "multi", "timeline", "01:25 到 01:35 这段时间 seatlock-api 和 laravel 里发生了什么？",
             [GN, LV], [sorted({hms(f["gn_last_oom"]), hms(f["lv_last_fail"])}), [hms(f["gn_redis_ok"])]]),
        case("d14-mx-incident-holds", "multi", "incident",
             "customers couldnt hold seats for a chunk of the night. what broke, and when did it start?", [GN, LV],
             [oom_marker, [hm(f["gn_first_5xx"])]]),
        case("d14-mx-incident-webhook-zh", "multi", "incident", "支付 webhook 那个 lambda 昨晚一直超时，根因是什么？从几点开始的？",
             [LM, LV], [lock_wait + mk("Reconciliation") + ["对账", "锁等待"], [hm(f["lm_first_to"])]]),
        case("d14-mx-cross-lw-zh", "multi", "cross",
             "laravel 第一条 Lock wait timeout 和 lambda 第一次 Task timed out 分别是几点几分几秒？哪个先？", [LV, LM],
             [hms(f["lv_lw_first"]), hms(f["lm_first_to"])]),
        case("d14-mx-cross-first", "multi", "cross",
             "first 5xx in seatlock-api vs the first ERROR in the laravel log - exact times?", [GN, LV],
             [hms(f["gn_first_5xx"]), hms(f["lv_first_error"])]),

        # ================= processes on this machine
        case("d14-pr-count", "proc", "process", "how many seat-sweeper procs running rn", [], ["{count:seat-sweeper}"],
             procs=[{"name": "seat-sweeper", "count": 3, "args": ["--interval", "30s"]}]),
        case("d14-pr-script-count-zh", "proc", "process", "recon-runner 这个脚本现在跑了几个？", [],
             ["{count:recon-runner}"],
             procs=[{"name": "recon-runner", "count": 2, "interp": True, "args": ["--provider", "stripe"]}]),
        case("d14-pr-pid", "proc", "process", "pid of poster-render?", [], ["{pid:poster-render}"],
             procs=[{"name": "poster-render", "args": ["--queue", "posters"]}]),
        case("d14-pr-mem-zh", "proc", "process", "trailer-cache、subtitle-conv、popcorn-stats 这三个哪个占内存最多？", [],
             [["trailer-cache"]],
             procs=[{"name": "trailer-cache", "mem_mb": 260}, {"name": "subtitle-conv", "mem_mb": 50},
                    {"name": "popcorn-stats", "mem_mb": 90}]),
        case("d14-pr-cmdline", "proc", "process", "what args is loyalty-sync running with? full command line", [],
             [["gold"], ["2036-04-01"]],
             procs=[{"name": "loyalty-sync", "args": ["--tier", "gold", "--since", "2036-04-01"]}]),
        case("d14-pr-followup-pid-zh", "proc", "followup", "它的 pid 是多少", [], ["{pid:box-office-tv}"],
             turns=["box-office-tv 在跑吗？"], procs=[{"name": "box-office-tv", "args": ["--screen", "foyer-2"]}]),
        case("d14-pr-kill", "proc", "action", "kill scalper-crawl please, it's hammering the seat map", [],
             approval={"kill": "scalper-crawl"},
             procs=[{"name": "scalper-crawl", "args": ["--showtime", "ST-90417"]}]),
        case("d14-pr-kill-zh", "proc", "action", "把 refund-replay 这个进程停掉", [], approval={"kill": "refund-replay"},
             procs=[{"name": "refund-replay", "args": ["--from", "2036-04-17"]}]),
    ]
    return rows
