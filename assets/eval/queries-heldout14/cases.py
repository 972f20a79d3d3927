"""The `queries-heldout14` cases: what an on-call operator types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

LT, GW, QI = "tg-web-1.access.log", "weighbridge-gw.json", "intake-service.log"

FMT = {LT: "lighttpd 1.4 accesslog (default format + %D us)",
       GW: ".NET 8 JSON console formatter (State nested, Exception string)",
       QI: "Quarkus 3 default log format (stack traces, Caused by)"}


def case(id_, area, cat, lang, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    c["area"] = area
    c["lang"] = lang
    c["fmt"] = " + ".join(FMT[x] for x in sorted(files)) if files else "live processes"
    return c


def cases(f, n, hm, hms):
    tl = lambda key, i: [f[key][i]]  # noqa: E731  (one timeline second)
    lt = [
        case("h14-lt-count-not-ok", "lighttpd", "count", "en",
             "tg-web-1 lighttpd log: how many requests came back w/ a status othr than 200, 304 or 404?",
             [LT], [n(f["l_not_ok"])]),
        case("h14-lt-count-5xx-zh", "lighttpd", "count", "zh", "lighttpd 访问日志里状态码在 500 到 599 之间的请求一共多少条？",
             [LT, QI], [n(f["l_5xx"])]),
        case("h14-lt-count-slow-zh", "lighttpd", "count", "zh", "tg-web-1 的访问日志，%D 超过 2 秒的请求有几个？（%D 是微秒）",
             [LT], [n(f["l_slow2s"])]),
        case("h14-lt-top3-clients", "lighttpd", "top", "en", "top 3 client IPs on tg-web-1 by number of requests pls",
             [LT, GW], list(f["l_top3_clients"])),
        case("h14-lt-distinct-ips-zh", "lighttpd", "distinct", "zh", "lighttpd 这个 access log 里总共出现过多少个不同的客户端 IP？",
             [LT], [n(f["l_distinct_ips"])]),
        case("h14-lt-stat-slots-p95", "lighttpd", "stat", "en", "whats the p95 %D for /api/slots on the web box? in ms",
             [LT], [f["l_slots_p95"]]),
        case("h14-lt-stat-static-mb-zh", "lighttpd", "stat", "zh", "tg-web-1 上 /static/ 下面的请求一共传了多少字节？换算成 MB 告诉我",
             [LT], [f["l_static_mb"]]),
        case("h14-lt-share-api-5xx", "lighttpd", "share", "en",
             "what percentage of the /api/ requests in the lighttpd access log ended in a 5xx?", [LT], [f["l_api_5xx_pct"]]),
        case("h14-lt-window-5xx-zh", "lighttpd", "window", "zh", "01:10 到 01:25 之间 lighttpd 一共回了多少个 5xx", [LT],
             [n(f["l_win_5xx"])]),
        case("h14-lt-peak-minute", "lighttpd", "peak", "en", "which minute had the most hits in tg-web-1.access.log?", [LT],
             [f["l_peak_minute"]]),
        case("h14-lt-last-503-zh", "lighttpd", "first_last", "zh", "tg-web-1 访问日志里最后一个 503 出现在几点几分几秒？", [LT, QI],
             [hms(f["l_last_503"])]),
        case("h14-lt-followup-bytes", "lighttpd", "followup", "en", "how much data did that client pull in total? MB pls", [LT],
             [f["l_scraper_mb"]], turns=["whos the top client by request count in the lighttpd access log?"]),
        case("h14-lt-stat-vhost-mean-zh", "lighttpd", "stat", "zh", "lighttpd 日志按 vhost（%V）分组，哪个 vhost 的平均 %D 最高？", [LT],
             [[f["l_slowest_vhost"]]]),
    ]
    gw = [
        case("h14-gw-count-not-info", "dotnet", "count", "en",
             "weighbridge-gw json log - how many entries arent Information level?", [GW], [n(f["n_not_info"])]),
        case("h14-gw-count-ge-zh", "dotnet", "count", "zh", "weighbridge-gw 里 Posted ticket 那些记录，State.ElapsedMs >= 750 的有多少条？",
             [GW], [n(f["n_ge750"])]),
        case("h14-gw-top-bridge-zh", "dotnet", "top", "zh", "地磅网关日志里按 State.Bridge 统计 Weighed 的次数，哪个地磅称得最多？",
             [GW, QI], [f["n_top_bridge"]]),
        case("h14-gw-top3-warn-cats", "dotnet", "top", "en",
             "top 3 Category values by number of Warning entries in the weighbridge gateway log", [GW],
             list(f["n_top3_warn_cats"])),
        case("h14-gw-distinct-plates", "dotnet", "distinct", "en",
             "how many diffrent trucks (State.Plate) went over the weighbridges tonight?", [GW], [n(f["n_distinct_plates"])]),
        case("h14-gw-stat-p99-zh", "dotnet", "stat", "zh", "weighbridge-gw 里成功的 Posted ticket，ElapsedMs 的 p99 是多少？换成秒",
             [GW], [f["n_p99_s"]]),
        case("h14-gw-stat-bridge-mean", "dotnet", "stat", "en",
             "avg ElapsedMs of the Posted ticket lines per bridge - which bridge is slowest n whats its avg?", [GW],
             [f["n_slow_bridge"], n(f["n_wb4_mean"])]),
        case("h14-gw-stat-net-tonnes-zh", "dotnet", "stat", "zh", "weighbridge-gw 今晚所有 Weighed 记录的 NetKg 加起来一共多少吨？",
             [GW], [f["n_net_t"]]),
        case("h14-gw-stat-max-gross", "dotnet", "stat", "en", "heaviest truck tonight by GrossKg in the gateway log? in tonnes",
             [GW], [f["n_max_gross"]]),
        case("h14-gw-around-wb3", "dotnet", "around", "en",
             "wb-3 dropped out around 2:31 - what does weighbridge-gw show, with timestamps, and when did it come back?", [GW],
             [tl("tl_wb3", 0), ["Lost connection", "Connection reset"], tl("tl_wb3", 1), ["Reconnect", "retrying"],
              tl("tl_wb3", 2), ["Connected"]]),
        case("h14-gw-cause-wb3-zh", "dotnet", "cause", "zh", "2:31 那条 WB-3 的 Error，Exception 里真正的根因是什么？", [GW],
             [["Connection reset by peer", "SocketException"]]),
        case("h14-gw-followup-drift-zh", "dotnet", "followup", "zh", "它的第一条 drift 告警是几点？", [GW],
             [hms(f["n_drift_first"])], turns=["weighbridge-gw 里哪个地磅的 drift 告警（DriftMonitor）最多？"]),
    ]
    qi = [
        case("h14-qi-count-errors", "quarkus", "count", "en", "intake-service log: how many ERROR entries are there?", [QI],
             [n(f["q_errors"])]),
        case("h14-qi-count-not-info-zh", "quarkus", "count", "zh", "intake-service.log 里不是 INFO 级别的日志有多少条？堆栈行不单独算", [QI],
             [n(f["q_not_info"])]),
        case("h14-qi-cause-reject-zh", "quarkus", "cause", "zh",
             f"ticket {f['q_reject_ticket']} 被拒了，intake-service 日志里它最底层的 Caused by 是什么？为什么？", [QI, GW],
             [["NumberFormatException", "NaN%"], ["MP-6", "MoistureProbe", "moisture probe", "湿度探头", "水分探头"]]),
        case("h14-qi-cause-jdbc", "quarkus", "cause", "en",
             "the JDBCConnectionException errors in intake-service - whats the actual root cause at the bottom of the trace?",
             [QI], [["recovery mode"]]),
        case("h14-qi-top3-silos", "quarkus", "top", "en", "top 3 silos by confirmed bookigns in the intake-service log?", [QI],
             list(f["q_top3_silos"])),
        case("h14-qi-last-start", "quarkus", "first_last", "en", "when did intake-service last start up? exact time pls", [QI],
             [hms(f["q_started"])]),
        case("h14-qi-window-errors-zh", "quarkus", "window", "zh", "intake-service 日志 01:10 到 01:20 之间有多少条 ERROR？", [QI],
             [n(f["q_win_err"])]),
        case("h14-qi-peak-error-minute", "quarkus", "peak", "en", "in the intake log which minute had the most ERRORs?", [QI],
             [f["q_peak_err"]]),
        case("h14-qi-stat-took-p90-zh", "quarkus", "stat", "zh", "intake-service 的 Booking confirmed 里 took 的 p90 是多少？用秒表示", [QI],
             [f["q_took_p90"]]),
        case("h14-qi-around-0112-zh", "quarkus", "around", "zh",
             "01:12 到 01:20 之间 intake-service 和 weighbridge-gw 各发生了什么？按时间顺序列出来，精确到秒", [QI, GW],
             [tl("tl_0112", 0), ["terminating connection", "administrator command"], tl("tl_0112", 1),
              ["JDBCConnectionException", "Acquisition timeout"], tl("tl_0112", 2), ["returned 500"], tl("tl_0112", 3),
              ["refilled"], tl("tl_0112", 4), ["flushing", "queued tickets"]]),
        case("h14-qi-followup-jdbc-first", "quarkus", "followup", "en", "and when was the first one?", [QI],
             [hms(f["q_jdbc_first"])], turns=["how many JDBCConnectionException errors are in intake-service.log?"]),
        case("h14-qi-distinct-farms-zh", "quarkus", "distinct", "zh", "intake-service 日志里 Booking confirmed 的 farm 一共有多少个不同的？",
             [QI], [n(f["q_distinct_farms"])]),
        case("h14-qi-around-0340", "quarkus", "around", "en",
             "what happened around 3:40? check the intake-service log and the lighttpd access log, in order w/ timestamps",
             [QI, LT],
             [tl("tl_0340", 0), ["stopped", "shutdown", "Shutdown"], tl("tl_0340", 1), ["503"], tl("tl_0340", 2),
              tl("tl_0340", 3), ["started", "Listening"]]),
    ]
    proc = [
        case("h14-proc-count", "proc", "process", "en", "how many auger-ctl procs r running rn?", [], ["{count:auger-ctl}"],
             procs=[{"name": "auger-ctl", "count": 3, "args": ["--silo", "S-03"]}]),
        case("h14-proc-script-count-zh", "proc", "process", "zh", "现在有几个 probe-poll 脚本在跑？", [], ["{count:probe-poll}"],
             procs=[{"name": "probe-poll", "count": 2, "interp": True, "args": ["--probe", "MP-6"]}]),
        case("h14-proc-pid-zh", "proc", "process", "zh", "tarewatch 这个进程的 pid 是多少？", [], ["{pid:tarewatch}"],
             procs=[{"name": "tarewatch", "args": ["--bridge", "WB-2"]}]),
        case("h14-proc-user", "proc", "process", "en", "which user is grainlink running as?", [], ["{user:grainlink}"],
             procs=[{"name": "grainlink", "args": ["--upstream", "intake"]}]),
        case("h14-proc-cmdline-zh", "proc", "process", "zh", "binmapd 是带什么参数启动的？把完整命令行给我", [],
             ["bins-north.yaml", "--zone"],
             procs=[{"name": "binmapd", "args": ["--map", "/etc/tallgrass/bins-north.yaml", "--zone", "north"]}]),
        case("h14-proc-port", "proc", "socket", "en", "what port is silo-telemetry listening on?", [], ["{port:silo-telemetry}"],
             procs=[{"name": "silo-telemetry", "listen": True, "args": ["--silos", "all"]}]),
        case("h14-proc-mem-zh", "proc", "process", "zh", "dryer-sched、grade-cache、fan-ctl 这三个进程哪个占内存最多？", [],
             ["grade-cache"],
             procs=[{"name": "dryer-sched", "mem_mb": 40, "args": ["--dryer", "D2"]},
                    {"name": "grade-cache", "mem_mb": 260, "args": ["--warm"]},
                    {"name": "fan-ctl", "mem_mb": 70, "args": ["--bank", "east"]}]),
        case("h14-proc-followup-pid", "proc", "followup", "en", "whats its pid?", [], ["{pid:moisture-agg}"],
             turns=["is moisture-agg running?"], procs=[{"name": "moisture-agg", "args": ["--window", "10m"]}]),
        case("h14-proc-followup-user-zh", "proc", "followup", "zh", "是哪个用户跑的？", [], ["{user:bunker-sync}"],
             turns=["bunker-sync 这个进程在跑吗"], procs=[{"name": "bunker-sync", "args": ["--site", "north"]}]),
        case("h14-proc-kill", "proc", "action", "en", "grade-cam is wedged again, kill it pls", [],
             approval={"kill": "grade-cam"}, procs=[{"name": "grade-cam", "args": ["--lane", "2"]}]),
        case("h14-proc-kill-zh", "proc", "action", "zh", "tare-replay 一直在刷日志，把这个进程停掉", [],
             approval={"kill": "tare-replay"}, procs=[{"name": "tare-replay", "args": ["--from", "yesterday"]}]),
        case("h14-proc-followup-port", "proc", "followup", "en", "which port's it on?", [], ["{port:ticket-printd}"],
             turns=["is ticket-printd up?"], procs=[{"name": "ticket-printd", "listen": True, "args": ["--printer", "lane1"]}]),
    ]
    return lt + gw + qi + proc
