"""The `queries-heldout13` cases: what an operator types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

import writers as W

CF, LG, IM = W.CF_FILE, W.LEDGER_FILE, W.IMPOSER_FILE

FMT = {CF: "cloudfront standard log (W3C header, 33 tab-separated fields, time-taken in s)",
       LG: "spring boot / log4j2 with stack traces and Caused by",
       IM: "rust tracing-subscriber json (fields/span/spans)"}


def case(id_, cat, area, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    c["area"] = area
    if files:
        c["fmt"] = " + ".join(FMT[x] for x in sorted(files))
    return c


def cases(f, n, hm, hms):
    tl = lambda key, i: [f[key][i]]  # noqa: E731  (one timeline second)
    rows = [
        # ================= HTTP access log (CloudFront standard log)
        case("h13-cf-count-img-not-200-304", "count", "http",
             "cloudfront log - how many reqs on img.tinderboxbooks.example got a status thats neither 200 nor 304?",
             [CF, IM], [n(f["cf_img_not_200_304"])]),
        case("h13-cf-share-img-hit-zh", "share", "http",
             "CDN 日志里 img.tinderboxbooks.example 这个 host 的缓存命中率多少？就是 x-edge-result-type=Hit 占这个域名全部请求的百分比",
             [CF], [f["cf_img_hit_pct"]]),
        case("h13-cf-stat-checkout-p90", "stat", "http",
             "whats the p90 time-taken for POST /api/v2/checkout in the cloudfront log, in ms", [CF, LG],
             [f["cf_co_p90"]]),
        case("h13-cf-top3-ips-zh", "top", "http", "cloudfront 日志按请求数排前三的 c-ip 是哪几个？", [CF],
             list(f["cf_top3_ips"])),
        case("h13-cf-distinct-checkout-ips", "distinct", "http",
             "how many unique client ips did a POST /api/v2/checkout tonight? any status counts", [CF],
             [n(f["cf_checkout_ips"])]),
        case("h13-cf-window-cart-504-zh", "window", "http", "CDN 日志 01:10 到 01:25 之间 /api/v2/cart 回了多少个 504？",
             [CF, LG], [n(f["cf_cart504_window"])]),
        case("h13-cf-peak-miss-minute", "peak", "http",
             "which minute had the most cache Misses on the cdn? (x-edge-result-type = Miss)", [CF],
             [f["cf_miss_peak"]]),
        case("h13-cf-first-last-403-zh", "first", "http", "cloudfront 日志里 198.51.100.73 第一次吃到 403 是几点，最后一次呢？",
             [CF], [hms(f["cf_scraper_first403"]), hms(f["cf_scraper_last403"])]),
        case("h13-cf-stat-proofs-gb", "stat", "http", "total sc-bytes we served for /proofs/ pdfs tonight, in GB?", [CF],
             [f["cf_proofs_gb"]]),
        case("h13-cf-followup-403-total", "followup", "http", "how many requests did it send in total, all statuses?", [CF],
             [n(f["cf_scraper_total"])], turns=["cloudfront log: which c-ip got the most 403s?"]),
        case("h13-cf-count-over-10s-zh", "count", "http", "CDN 日志里 time-taken 超过 10 秒的请求有几个", [CF],
             [n(f["cf_over10s"])]),
        case("h13-cf-slowest-zh", "stat", "http", "cloudfront 里最慢的一个请求是哪个 uri？用了多少秒", [CF, IM],
             [f["cf_slowest_stem"], f["cf_slowest_s"]]),
        case("h13-cf-timeline-0115", "timeline", "http",
             "what happened around 01:15? i uploaded the cloudfront log + order-ledger.log, give me the sequence with timestamps",
             [CF, LG],
             [tl("tl_pool", 0), ["ReportExporter", "export", "Export"], tl("tl_pool", 1), ["504"], tl("tl_pool", 2),
              tl("tl_pool", 3), ["HikariPool", "Connection is not available", "SQLTransientConnectionException"]]),

        # ================= JSON application log (imposer, Rust tracing JSON)
        case("h13-im-count-pages-zh", "count", "json", "imposer 日志里 render finished 的 job，pages 在 40 到 60 页之间的有几个", [IM],
             [n(f["im_pages_40_60"])]),
        case("h13-im-stat-render-p90", "stat", "json", "imposer: p90 of render_ms for finished renders? in seconds", [IM, CF],
             [f["im_render_p90"]]),
        case("h13-im-stat-studio-wait-zh", "stat", "json", "studio 这个 tier 的 job 平均 queue_wait_ms 是多少？按 job received 算",
             [IM], [n(f["im_studio_wait_mean"])]),
        case("h13-im-top3-fonts", "top", "json", "top 3 fonts causing 'font fallback' warnings in the imposer log", [IM],
             list(f["im_top3_fonts"])),
        case("h13-im-distinct-failed-zh", "distinct", "json", "imposer 里出现过 render failed 的 job_id 去重后有多少个", [IM, LG],
             [n(f["im_failed_jobs"])]),
        case("h13-im-stat-output-gb", "stat", "json",
             "sum of output_bytes over all finished renders in imposer.log - how many GB is that", [IM],
             [f["im_output_gb"]]),
        case("h13-im-share-failed-zh", "share", "json", "imposer 日志：render failed 的条数占 job received 条数的百分之多少？", [IM],
             [f["im_fail_pct"]]),
        case("h13-im-followup-last-retry", "followup", "json", "and the last one?", [IM], [hms(f["im_last_retry"])],
             turns=["imposer.log: when was the first 'asset fetch retry'?"]),
        case("h13-im-top-worker-zh", "top", "json", "imposer 里哪个 worker 的 render failed 最多", [IM],
             [f["im_top_worker"]]),
        case("h13-im-count-not-info", "count", "json", "how many entries in imposer.log aren't level INFO?", [IM],
             [n(f["im_not_info"])]),
        case("h13-im-followup-pages-zh", "followup", "json", "它一共多少页", [IM], [n(f["im_rss_job_pages"])],
             turns=["imposer 日志里 peak_rss_mb 最高的是哪个 job_id？"]),
        case("h13-im-timeline-0311", "timeline", "json", "what went on in the imposer around 3:11? timestamps pls", [IM],
             [tl("tl_imposer", 0), ["memory high-water", "high-water", "7412"], tl("tl_imposer", 1),
              ["panicked", "panic", "AllocError"], tl("tl_imposer", 2), ["restarted", "restart"]]),
        case("h13-im-cf-timeline-zh", "timeline", "json",
             "2:05 以后图片那边出了啥问题？imposer 和 cloudfront 两个日志对一下，给我开始和结束的时间点（精确到秒）", [IM, CF],
             [tl("tl_slowdown", 0), tl("tl_slowdown", 1), tl("tl_slowdown", 2), tl("tl_slowdown", 3), ["SlowDown"],
              ["503"]]),

        # ================= Java application log (order-ledger, Spring Boot / Log4j2)
        case("h13-lg-count-errors", "count", "java", "order-ledger.log: how many ERROR level entries in total?", [LG],
             [n(f["lg_errors"])]),
        case("h13-lg-count-sqltransient-zh", "count", "java", "order-ledger 里 SQLTransientConnectionException 一共出现几次",
             [LG, CF], [n(f["lg_sqltransient"])]),
        case("h13-lg-top3-root-causes", "top", "java",
             "top 3 root causes in order-ledger's stack traces (innermost Caused by), most frequent first", [LG],
             list(f["lg_top3_roots"])),
        case("h13-lg-cause-0112-zh", "cause", "java", "01:12 左右开始 checkout 一直报错，根因是什么？看下 stack trace 的 Caused by",
             [LG], [["SQLTransientConnectionException", "Connection is not available"],
                    ["HikariPool-1", "HikariPool", "Hikari"]]),
        case("h13-lg-stat-auth-p99", "stat", "java", "p99 latencyMs on the 'Payment authorised' lines? give it in seconds",
             [LG], [f["lg_auth_p99"]]),
        case("h13-lg-stat-sum-02-zh", "stat", "java", "02:00 到 03:00 之间所有 Checkout ok 的 total 加起来是多少 EUR", [LG, IM],
             [f["lg_sum_02"]]),
        case("h13-lg-breaker-open-close", "first", "java",
             "when did the paywise circuit breaker open? and when did it go back to CLOSED", [LG],
             [tl("tl_breaker", 0), tl("tl_breaker", 1)]),
        case("h13-lg-share-declined-zh", "share", "java", "Payment authorised 和 Payment declined 两种里面 declined 占百分之几", [LG],
             [f["lg_declined_pct"]]),
        case("h13-lg-timeline-0327", "timeline", "java", "order-ledger died around 3:27 - what happened, in order, w/ timestamps?",
             [LG, CF],
             [tl("tl_oom", 0), ["Heap usage", "96%", "HeapWatchdog"], tl("tl_oom", 1), ["OutOfMemoryError", "Java heap space"],
              tl("tl_oom", 2), tl("tl_oom", 3)]),
        case("h13-lg-peak-error-minute-zh", "peak", "java", "order-ledger 哪一分钟 ERROR 最多？", [LG], [f["lg_err_minute"]]),
        case("h13-lg-distinct-failed-orders", "distinct", "java", "how many distinct orders hit 'Checkout failed'?", [LG],
             [n(f["lg_failed_orders"])]),
        case("h13-lg-followup-decline-reason", "followup", "java", "whats the most common reason= among them and how many?",
             [LG], [f["lg_top_reason"], n(f["lg_top_reason_n"])],
             turns=["order-ledger: how many 'Payment declined' lines?"]),
        case("h13-lg-count-items-zh", "count", "java", "Checkout ok 的订单里 items>=5 的有多少单", [LG],
             [n(f["lg_items5"])]),

        # ================= processes on this machine, by name
        case("h13-proc-count", "process", "proc", "how many thumb-baker processes r running rn?", [],
             ["{count:thumb-baker}"], procs=[{"name": "thumb-baker", "count": 7, "args": ["--queue", "thumbs"]}]),
        case("h13-proc-pid-zh", "process", "proc", "proof-mailer 的 pid 是多少？", [], ["{pid:proof-mailer}"],
             procs=[{"name": "proof-mailer", "args": ["--smtp", "relay-2"]}]),
        case("h13-proc-user", "process", "proc", "which user is spool-watch running under?", [], ["{user:spool-watch}"],
             procs=[{"name": "spool-watch", "args": ["--dir", "/var/spool/tbx"]}]),
        case("h13-proc-cmdline-zh", "process", "proc", "icc-sync 这个进程带的启动参数是啥，完整命令行发我看看", [],
             [["FOGRA39"], ["900s"]], procs=[{"name": "icc-sync", "args": ["--profile", "FOGRA39", "--every", "900s"]}]),
        case("h13-proc-port", "process", "proc", "what port is preflight-api listening on?", [], ["{port:preflight-api}"],
             procs=[{"name": "preflight-api", "listen": True, "args": ["--profile", "pdfx4"]}]),
        case("h13-proc-count-script-zh", "process", "proc", "bleed-check 脚本现在跑着几个实例？", [], ["{count:bleed-check}"],
             procs=[{"name": "bleed-check", "count": 5, "interp": True, "args": ["--mm", "3"]}]),
        case("h13-proc-followup-pid", "followup", "proc", "whats its pid", [], ["{pid:colorprof-agent}"],
             turns=["is colorprof-agent running?"], procs=[{"name": "colorprof-agent", "args": ["--icc", "/etc/tbx/icc"]}]),
        case("h13-proc-mem-zh", "process", "proc", "tbx- 开头的那几个进程里哪个最吃内存？pid 多少", [],
             ["tbx-raster", "{pid:tbx-raster}"],
             procs=[{"name": "tbx-raster", "mem_mb": 400, "args": ["--dpi", "600"]},
                    {"name": "tbx-merge", "args": ["--batch", "nightly"]},
                    {"name": "tbx-stamp", "args": ["--mark", "proof"]}]),
        case("h13-action-kill", "action", "proc", "bindery-sim is hung again, kill it pls", [],
             approval={"kill": "bindery-sim"}, procs=[{"name": "bindery-sim", "args": ["--line", "2"]}]),
        case("h13-action-kill-zh", "action", "proc", "jacket-upscale 把 CPU 吃满了，把它的进程都干掉", [],
             approval={"kill": "jacket-upscale"}, procs=[{"name": "jacket-upscale", "count": 2, "args": ["--scale", "4"]}]),
        case("h13-proc-followup-user-zh", "followup", "proc", "谁起的？带了什么参数", [],
             ["{user:ink-monitor}", "xl106-hall2"], turns=["ink-monitor 在跑吗"],
             procs=[{"name": "ink-monitor", "args": ["--press", "xl106-hall2"]}]),
    ]
    return rows
