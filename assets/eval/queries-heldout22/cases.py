"""The `queries-heldout22` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

ACCESS, ERROR, FPM = "shop.access.log", "shop.error.log", "php8.3-fpm.log"

FMT = {ACCESS: "nginx access log, combined layout + $request_time $upstream_response_time ('-' when nginx served it "
               "itself); $time_local is when the request ended",
       ERROR: "nginx error log ('yyyy/mm/dd hh:mm:ss [level] pid#tid: *conn message, client: ..., server: ..., "
              "request: \"...\", upstream: \"...\", host: \"...\"'; a PHP stack trace from FastCGI stderr runs over "
              "several lines)",
       FPM: "php-fpm 8.3 master log ('[dd-Mon-yyyy hh:mm:ss] LEVEL: message'; pools shop and admin: slow log, "
            "execution timed out, child exits with their signal and age, child started, max_children, seems busy, "
            "reloads)"}


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
        # ------------------------------------------------------------ shop.access.log (nginx)
        case("h22-acc-count-504", "count", "access", "how many 504s did nginx log in shop.access.log overnight?", [ACCESS],
             [n(f["a_504"])]),
        case("h22-acc-count-502-zh", "count", "access", "access log 里状态码 502 的一共有几条？", [ACCESS, ERROR],
             [n(f["a_502"])]),
        case("h22-acc-p95-orders", "stat", "access",
             "p95 request_time of the warehouse sync's GET /wp-json/wc/v3/orders calls? only count the ones that came back 200",
             [ACCESS], [f["a_orders_p95"]]),
        case("h22-acc-slowest-zh", "stat", "access", "nginx 访问日志里 request_time 最长的是哪个请求？多少秒？", [ACCESS],
             [f["a_slowest_file"], f["a_slowest"]]),
        case("h22-acc-biggest", "stat", "access",
             "what was the single biggest response by body_bytes_sent in the access log - which file, and exact bytes?",
             [ACCESS, FPM], [f["a_biggest_file"], n(f["a_biggest"])]),
        case("h22-acc-top3-clients-zh", "top", "access", "shop.access.log 按 remote_addr 数请求数，排前三的 IP 是谁？", [ACCESS],
             list(f["a_top3_clients"])),
        case("h22-acc-top3-bytes", "top", "access",
             "top 3 client IPs by total bytes sent (sum body_bytes_sent) in the nginx access log?", [ACCESS],
             list(f["a_top3_bytes"])),
        case("h22-acc-first-500-zh", "first", "access", "今晚 access log 里第一个 500 是几点几分几秒出的？", [ACCESS],
             [f["a_first_500"]]),
        case("h22-acc-last-504", "last", "access", "when did the last 504 show up in the access log? exact second pls",
             [ACCESS, ERROR], [f["a_last_504"]]),
        case("h22-acc-peak-zh", "peak", "access", "access log 按分钟算请求量，峰值在哪一分钟？", [ACCESS],
             [f["a_peak"]]),
        case("h22-acc-window-502", "window", "access", "between 02:10 and 02:40, how many requests got a 502?",
             [ACCESS], [n(f["a_window_502"])]),
        case("h22-acc-distinct-ips", "distinct", "access", "how many different client ips hit the shop last night?", [ACCESS],
             [n(f["a_distinct_ips"])]),
        case("h22-acc-share-5xx-zh", "share", "access", "access log 里 5xx 占全部请求的百分比是多少？", [ACCESS, FPM],
             [f["a_share_5xx"]]),
        # ------------------------------------------------------------ shop.error.log (nginx)
        case("h22-err-count-notfound", "count", "error",
             "count the open() ... failed (2: No such file or directory) errors in the nginx error log", [ERROR],
             [n(f["e_notfound"])]),
        case("h22-err-count-eagain-zh", "count", "error",
             "error log 里 connect() to unix:/run/php/php8.3-fpm-shop.sock failed (11: Resource temporarily unavailable) 总共出现几次？",
             [ERROR], [n(f["e_eagain"])]),
        case("h22-err-count-limit-zh", "count", "error", "nginx 限流（limiting requests）今晚一共拦了多少次？", [ERROR, ACCESS],
             [n(f["e_limit"])]),
        case("h22-err-count-fatal", "count", "error",
             "how many PHP Fatal errors came through FastCGI stderr into the nginx error log?", [ERROR],
             [n(f["e_fatal"])]),
        case("h22-err-alloc-zh", "stat", "error",
             "Allowed memory size exhausted 的那些报错里，tried to allocate 最大的一次是多少 bytes？", [ERROR],
             [n(f["e_alloc_max"])]),
        case("h22-err-top-limit-ip", "top", "error", "which client got hit by limiting requests the most in shop.error.log?",
             [ERROR], [f["e_top_limit_ip"]]),
        case("h22-err-top-warn-file-zh", "top", "error", "error log 里的 PHP Warning 按文件分一下，哪个文件报得最多？", [ERROR],
             [f["e_top_warn_file"]]),
        case("h22-err-followup-forbidden", "followup", "error", "which client ip caused most of those?", [ERROR],
             [f["e_forbid_top"]], turns=["any 'access forbidden by rule' entries in the nginx error log? how many?"]),
        case("h22-err-first-eagain-zh", "first", "error", "error log 里最早一次 Resource temporarily unavailable 是什么时候？精确到秒",
             [ERROR], [f["e_first_eagain"]]),
        case("h22-err-last-limit", "last", "error",
             "when was the last time nginx rate-limited somebody (limiting requests)? exact time", [ERROR, FPM],
             [f["e_last_limit"]]),
        case("h22-err-peak", "peak", "error", "which minute had the most [error] entries in the nginx error log?", [ERROR],
             [f["e_peak"]]),
        case("h22-err-window-reset-zh", "window", "error", "03:00 到 03:15 这段 error log 里 Connection reset by peer 有多少条？",
             [ERROR], [n(f["e_window_reset"])]),
        case("h22-err-timeline-zh", "timeline", "error",
             "把 php8.3-fpm.log 和 shop.error.log 对一下，按时间排个时间线，精确到秒：php-fpm 第一次 Reloading in progress、"
             "那之后 nginx 第一次 Connection reset by peer、nginx 最后一次 Connection reset by peer、php-fpm 最后一次 Reloading in progress",
             [ERROR, FPM],
             [[tl("tl_deploy", 0)], [tl("tl_deploy", 1)], [tl("tl_deploy", 2)], [tl("tl_deploy", 3)],
              ["Connection reset", "reset by peer"]]),
        # ------------------------------------------------------------ php8.3-fpm.log
        case("h22-fpm-count-slow-zh", "count", "fpm", "php-fpm 日志里 executing too slow 总共多少条？", [FPM],
             [n(f["f_slow"])]),
        case("h22-fpm-count-exec", "count", "fpm", "how many requests did php-fpm kill for 'execution timed out'?", [FPM, ACCESS],
             [n(f["f_exec"])]),
        case("h22-fpm-count-segv-zh", "count", "fpm", "php-fpm 有多少个 child 是 SIGSEGV 崩掉退出的？", [FPM, ERROR],
             [n(f["f_segv"])]),
        case("h22-fpm-count-started", "count", "fpm",
             "how many new php-fpm children got spawned overnight (the 'child NNN started' notices)?", [FPM],
             [n(f["f_started"])]),
        case("h22-fpm-longest-child", "stat", "fpm",
             "which php-fpm child had been alive the longest when it exited (the 'seconds from start' figure)? pid and how long",
             [FPM], [f["f_longest_pid"], f["f_longest_age"]]),
        case("h22-fpm-mean-slow-zh", "stat", "fpm", "executing too slow 后面那个秒数，平均是多少秒？", [FPM],
             [f["f_mean_slow"]]),
        case("h22-fpm-first-maxc", "first", "fpm", "when did php-fpm first say server reached pm.max_children?", [FPM],
             [f["f_first_maxc"]]),
        case("h22-fpm-followup-segv-zh", "followup", "fpm", "最早那次是几点几分几秒？是哪个 child pid？", [FPM],
             [f["f_first_segv"], f["f_first_segv_pid"]], turns=["php-fpm 今晚有没有 child 因为 SIGSEGV 挂掉？"]),
        case("h22-fpm-last-segv-zh", "last", "fpm", "最后一个 signal 11 段错误退出的 child 是几点几分几秒？", [FPM],
             [f["f_last_segv"]]),
        case("h22-fpm-peak-segv-zh", "peak", "fpm", "SIGSEGV 按分钟统计，哪一分钟最多？", [FPM, ERROR],
             [f["f_peak_segv"]]),
        case("h22-fpm-window-slow", "window", "fpm",
             "from 01:00 to 01:15 how many 'executing too slow' warnings did php-fpm write?", [FPM],
             [n(f["f_window_slow"])]),
        case("h22-fpm-timeline", "timeline", "fpm",
             "give me a timeline of the checkout outage from shop.access.log and php8.3-fpm.log, to the second: the first 504, "
             "php-fpm's first 'execution timed out', the last 504, php-fpm's last 'execution timed out'",
             [ACCESS, FPM],
             [tl("tl_outage", 0), tl("tl_outage", 1), tl("tl_outage", 2), tl("tl_outage", 3), ["execution timed out"]]),
        # ------------------------------------------------------------ processes on this machine
        case("h22-proc-count", "process", "proc", "how many stock-syncer processes are up right now?", [],
             ["{count:stock-syncer}"], procs=[{"name": "stock-syncer", "count": 3, "args": ["--warehouse", "leeds"]}]),
        case("h22-proc-script-count-zh", "process", "proc", "feed-builder 这个 python 脚本现在开着几份？", [],
             ["{count:feed-builder}"],
             procs=[{"name": "feed-builder", "count": 2, "interp": True, "args": ["--channel", "marketplace"]}]),
        case("h22-proc-pid", "process", "proc", "whats the pid of label-printer", [], ["{pid:label-printer}"],
             procs=[{"name": "label-printer", "args": ["--carrier", "dpd"]}]),
        case("h22-proc-user-zh", "process", "proc", "mailq-drainer 是用哪个账号跑的？", [], ["{user:mailq-drainer}"],
             procs=[{"name": "mailq-drainer", "args": ["--queue", "transactional"]}]),
        case("h22-proc-cmdline-zh", "process", "proc", "img-resizer 启动时带的完整参数是什么？把命令行贴出来", [],
             ["fernhollow-media", "1280"],
             procs=[{"name": "img-resizer", "args": ["--bucket", "fernhollow-media", "--width", "1280"]}]),
        case("h22-proc-port", "socket", "proc", "which port is cart-pinger listening on?", [], ["{port:cart-pinger}"],
             procs=[{"name": "cart-pinger", "listen": True, "args": ["--interval", "15s"]}]),
        case("h22-proc-mem-zh", "process", "proc", "sitemap-gen、price-watch、review-fetch 这三个里谁占内存最多？", [],
             ["price-watch"],
             procs=[{"name": "sitemap-gen", "mem_mb": 70}, {"name": "price-watch", "mem_mb": 250},
                    {"name": "review-fetch", "mem_mb": 130}]),
        case("h22-proc-followup-pid-zh", "followup", "proc", "它的 pid 呢？", [], ["{pid:coupon-reaper}"],
             turns=["coupon-reaper 在跑吗？"], procs=[{"name": "coupon-reaper", "args": ["--expired-after", "72h"]}]),
        case("h22-proc-followup-user", "followup", "proc", "and which user owns it?", [], ["{user:wishlist-sync}"],
             turns=["is wishlist-sync running?"], procs=[{"name": "wishlist-sync", "args": ["--batch", "500"]}]),
        case("h22-action-kill", "action", "proc", "cart-reminder is spamming customers, kill it now", [],
             approval={"kill": "cart-reminder"}, procs=[{"name": "cart-reminder", "args": ["--campaign", "bf-2036"]}]),
        case("h22-action-kill-zh", "action", "proc", "thumb-regen 开了三个把 CPU 吃满了，全部杀掉", [],
             approval={"kill": "thumb-regen"}, procs=[{"name": "thumb-regen", "count": 3, "args": ["--size", "all"]}]),
        case("h22-action-followup-kill", "action", "proc", "ok stop all of them", [],
             turns=["any export-worker processes running? how many"],
             approval={"kill": "export-worker"}, procs=[{"name": "export-worker", "count": 2, "args": ["--format", "csv"]}]),
    ]
    return rows
