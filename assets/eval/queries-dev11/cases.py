"""The `queries-dev11` cases: what an on-call operator types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

import writers as W

AC, ZP, LB = "other_vhosts_access.log", "irrigod.log", "crate-allocator.log"

FMT = {AC: "apache vhost_combined + %D (microseconds)", ZP: "zap production json (go)",
       LB: "logback (spring kafka, stack traces with Caused by)"}


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
    A, Z, L, P = "apache", "zap", "logback", "proc"
    gh = [{"name": "gh-seedidx", "mem_mb": 30, "args": ["--catalog", "seeds-2035"]},
          {"name": "gh-frostguard", "mem_mb": 240, "args": ["--sensor-map", "frost-v3.yaml", "--min-temp", "4.5"]},
          {"name": "gh-palletsync", "mem_mb": 70, "args": ["--dock", "north"]}]
    rows = [
        # ------------------------------------------------------------ Apache vhost_combined + %D
        case("d11-apache-count-not-200-304", A, "count",
             "other_vhosts_access.log, shop vhost only: how many requests came back with a status other than 200 or 304?",
             [AC, LB], [n(f["ac_shop_not_200_304"])]),
        case("d11-apache-count-ge400-zh", A, "count",
             "other_vhosts_access.log 里 grow.halvardgreens.example 这个 vhost，status >= 400 的请求一共多少条？", [AC],
             [n(f["ac_grow_ge400"])]),
        case("d11-apache-count-slow", A, "count", "apache vhosts log - how many reqs took longer than 5 seconds?", [AC, ZP],
             [n(f["ac_over_5s"])]),
        case("d11-apache-top3-grow-clients", A, "top", "grow vhost - top 3 client IPs by request count?", [AC],
             list(f["ac_grow_top3"])),
        case("d11-apache-distinct-shop-ips-zh", A, "distinct",
             "shop.halvardgreens.example 一晚上有多少个不同的客户端 IP 访问过？", [AC], [n(f["ac_shop_distinct"])]),
        case("d11-apache-p95-produce-zh", A, "stat", "shop vhost 的 /produce/ 商品页，%D 的 p95 是多少毫秒？", [AC, LB],
             [f["ac_produce_p95"]]),
        case("d11-apache-grow-bytes-mb", A, "stat", "total bytes sent (%O) by the grow vhost? in MB pls", [AC],
             [f["ac_grow_bytes"] + ["67 MB", "67MB"]]),
        case("d11-apache-share-503", A, "share", "what share of the shop vhost's requests were 503s? as a percent", [AC],
             [f["ac_shop_503_pct"]]),
        case("d11-apache-window-scanner", A, "window",
             "vhost access log: how many requests did 198.51.100.23 send between 02:00 and 02:40?", [AC],
             [n(f["ac_scanner_window"])]),
        case("d11-apache-peak-grow-zh", A, "peak", "grow.halvardgreens.example 哪一分钟的请求量最大？", [AC, ZP],
             [f["ac_grow_peak"]]),
        case("d11-apache-last-503-zh", A, "first_last", "shop vhost 上最后一个 503 是几点几分几秒", [AC],
             [hms(f["ac_last_503"])]),
        case("d11-apache-followup-404-zh", A, "followup", "它一共被请求了多少次？", [AC],
             [n(f["ac_top404_n"])], turns=["shop vhost 上哪个 path 的 404 最多？"]),
        # ------------------------------------------------------------ zap (irrigod)
        case("d11-zap-not-info-zh", Z, "count", "irrigod.log 里 level 不是 info 的日志有多少条", [ZP], [n(f["zp_not_info"])]),
        case("d11-zap-kafka-fails-zh", Z, "count", "irrigod 今晚 kafka produce failed 一共报了几次？", [ZP, LB],
             [n(f["zp_kafka_fails"])]),
        case("d11-zap-top3-water-zh", Z, "top", "irrigod 按 zone.id 汇总 water_ml，用水最多的前三个 zone 是哪几个", [ZP],
             list(f["zp_top3_water_zones"])),
        case("d11-zap-distinct-zones", Z, "distinct", "how many different zone ids show up in the irrigod cycle logs?",
             [ZP], [n(f["zp_distinct_zones"])]),
        case("d11-zap-p90-elapsed-zh", Z, "stat", "irrigod 里 irrigation cycle finished 的 elapsed，p90 是多少秒？", [ZP, AC],
             [f["zp_elapsed_p90"]]),
        case("d11-zap-mean-gh2", Z, "stat", "avg water per irrigation cycle in greenhouse GH2? in litres", [ZP],
             [f["zp_gh2_mean_l"]]),
        case("d11-zap-total-water", Z, "stat", "whats the total water_ml across every irrigation cycle tonight - in liters pls",
             [ZP], [f["zp_total_l"]]),
        case("d11-zap-share-aborted-zh", Z, "share", "irrigod 的灌溉周期里 status=aborted 的占比是多少（百分比）", [ZP],
             [f["zp_aborted_pct"]]),
        case("d11-zap-max-schedule", Z, "stat", "longest schedule recompute (took) in irrigod? in ms", [ZP],
             [f["zp_sched_max"]]),
        case("d11-zap-around-0327-zh", Z, "timeline", "irrigod 日志 03:27 前后出了什么问题？", [ZP],
             [tl("tl_valve", 0), ["valve did not close"], [W.VALVE_ZONE], tl("tl_valve", 1),
              ["locked out", "lockout", "lock out"]]),
        case("d11-zap-followup-fw", Z, "followup", "what fw is it on", [ZP], [f["zp_flood_fw"]],
             turns=["which gateway got rate limited the most in irrigod?"]),
        case("d11-zap-lb-timeline-0246", Z, "timeline",
             "what went on around 02:46? irrigod + crate-allocator logs, in order, to the second pls", [ZP, LB],
             [tl("tl_kafka", 0), ["kafka produce failed", "produce failed"], tl("tl_kafka", 1),
              ["could not be established", "kfk-2"], tl("tl_kafka", 2), ["CommitFailedException"], tl("tl_kafka", 3),
              ["recovered"]]),
        # ------------------------------------------------------------ Logback (crate-allocator)
        case("d11-lb-count-error-zh", L, "count", "crate-allocator.log 里 ERROR 级别的日志一共有多少条？", [LB, ZP],
             [n(f["lb_errors"])]),
        case("d11-lb-count-kg-ge20", L, "count", "crate-allocator: how many 'allocated crate' lines have kg >= 20?", [LB],
             [n(f["lb_kg_ge20"])]),
        case("d11-lb-cause-reserve", L, "cause",
             "reserve endpoint kept throwing around 1:45 - whats at the bottom of the Caused by chain?", [LB, AC],
             [["SQLTransientConnectionException", "Connection is not available"], ["HikariPool-1", "Hikari"]]),
        case("d11-lb-cause-poison-zh", L, "cause", "03:12 之后 harvest.picked-3 一直报错，异常最底层的 Caused by 是什么？", [LB],
             [["InvalidFormatException"], ["BigDecimal"]]),
        case("d11-lb-top3-kg-zh", L, "top", "按 greenhouse 汇总 allocated crate 的 kg，前三名是哪几个温室", [LB],
             list(f["lb_top3_kg"])),
        case("d11-lb-p95-took", L, "stat", "p95 of took= on the allocated crate lines? in seconds", [LB], [f["lb_took_p95"]]),
        case("d11-lb-mean-took-zh", L, "stat", "crate-allocator 里哪个 greenhouse 的 allocated 平均 took 最高？", [LB],
             [f["lb_slowest_gh"]]),
        case("d11-lb-distinct-orders", L, "distinct", "how many unique orders got crates allocated in crate-allocator.log?",
             [LB], [n(f["lb_distinct_orders"])]),
        case("d11-lb-peak-alloc", L, "peak", "which minute had the most 'allocated crate' lines in crate-allocator?", [LB], [f["lb_peak_alloc"]]),
        case("d11-lb-window-shortweight-zh", L, "window", "crate-allocator 里 02:00 到 03:00 之间 short weight 的 WARN 有几条",
             [LB], [n(f["lb_short_weight_window"])]),
        case("d11-lb-followup-last-hikari", L, "followup", "and the last one?", [LB], [hms(f["lb_last_hikari"])],
             turns=["when did the first HikariPool connection timeout show up in crate-allocator?"]),
        case("d11-lb-apache-timeline-0140-zh", L, "timeline",
             "01:40 到 02:00 之间 apache 访问日志和 crate-allocator 日志里发生了什么？按时间顺序，精确到秒", [LB, AC],
             [tl("tl_pool", 0), ["yield rollup", "YieldRollupJob", "rollup"], tl("tl_pool", 1), ["503"],
              tl("tl_pool", 2), tl("tl_pool", 3)]),
        case("d11-lb-share-reserve-failed-zh", L, "share", "crate-allocator 里 reserve 调用的失败率是多少？给百分比",
             [LB], [f["lb_fail_pct"]]),
        # ------------------------------------------------------------ processes on this machine
        case("d11-proc-count", P, "process", "how many crate-labeler procs r up rn?", [], ["{count:crate-labeler}"],
             procs=[{"name": "crate-labeler", "count": 4, "args": ["--line", "packhouse-2"]}]),
        case("d11-proc-script-count-zh", P, "process", "sensor-poll 这个脚本现在跑着几个实例？", [], ["{count:sensor-poll}"],
             procs=[{"name": "sensor-poll", "count": 3, "interp": True, "args": ["--bus", "rs485"]}]),
        case("d11-proc-pid", P, "process", "pid of fert-mixer?", [], ["{pid:fert-mixer}"],
             procs=[{"name": "fert-mixer", "args": ["--tank", "B"]}]),
        case("d11-proc-user-zh", P, "process", "climate-bridge 这个进程是哪个用户跑的", [], ["{user:climate-bridge}"],
             procs=[{"name": "climate-bridge", "args": ["--site", "halvard-north"]}]),
        case("d11-proc-cmdline", P, "process", "what args was dosing-agent started with? full command line pls", [],
             [["lettuce-v7"], ["GH4"]],
             procs=[{"name": "dosing-agent", "args": ["--greenhouse", "GH4", "--recipe", "lettuce-v7"]}]),
        case("d11-proc-port-zh", P, "process", "grow-relay 监听在哪个端口上？", [], ["{port:grow-relay}"],
             procs=[{"name": "grow-relay", "listen": True, "args": ["--upstream", "irrigod"]}]),
        case("d11-proc-most-mem", P, "process", "which of the gh- processes is eating the most memory?", [],
             ["gh-frostguard"], procs=gh),
        case("d11-proc-followup-pid-zh", P, "followup", "它的 pid 是多少", [], ["{pid:harvest-cam}"],
             turns=["harvest-cam 还在跑吗？"], procs=[{"name": "harvest-cam", "args": ["--row", "R12"]}]),
        case("d11-proc-followup-cmdline", P, "followup", "whats its command line", [], ["frost-v3.yaml"],
             turns=["which gh- process uses the most ram?"], procs=gh),
        case("d11-proc-followup-user", P, "followup", "who's it running as?", [], ["{user:frost-alarm}"],
             turns=["is frost-alarm running?"], procs=[{"name": "frost-alarm", "args": ["--notify", "pager"]}]),
        case("d11-proc-kill", P, "action", "seed-indexer is stuck at 100% cpu, kill it pls", [],
             approval={"kill": "seed-indexer"}, procs=[{"name": "seed-indexer", "args": ["--full"]}]),
        case("d11-proc-kill-zh", P, "action", "label-spooler 卡住了，帮我把这个进程停掉", [],
             approval={"kill": "label-spooler"}, procs=[{"name": "label-spooler", "args": ["--printer", "zebra-3"]}]),
        case("d11-proc-kill-both-zh", P, "action", "两个 crate-printer 进程都挂住不动了，全部结束掉", [],
             approval={"kill": "crate-printer"}, procs=[{"name": "crate-printer", "count": 2, "args": ["--queue", "dock"]}]),
    ]
    return rows
