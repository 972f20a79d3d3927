"""The held-out query set's cases (Tidewater Freight). Same fields and placeholders as the
dev set (`assets/eval/queries`); different files, services, values and phrasings."""

GEO = {"name": "geo-cache", "args": ["--shard-map", "/etc/geo/shards.json", "--warm"], "count": 9}
MANIFEST = {"name": "manifest-sync", "args": ["--bucket", "tw-manifests", "--interval", "90"]}
INVOICE = {"name": "invoice-render", "args": ["--queue", "pdf"], "user": "evalh-billing"}
TILE = {"name": "tile-proxy", "args": ["--upstream", "tiles.internal:8080"], "listen": True}
SPOOLER = {"name": "label-spooler", "args": ["--printers", "ZB-01,ZB-07"]}
BACKFILL = [{"name": "backfill.py", "interp": True, "args": ["--month", m], "mem_mb": mb}
            for m, mb in (("2027-01", 70), ("2027-02", 190), ("2027-03", 30))]


def cases(f):
    from gen import n

    ea, qa, dj, ft = ["edge-access.log"], ["quotes-access.log"], ["dispatch.jsonl"], ["fleet-telemetry.log"]
    ti, lp, sl, bl = ["tracking-ingest.log"], ["label-printer.log"], ["syslog"], ["billing-5424.log"]
    je, hi, pm, mr = ["journal-export.json"], ["haproxy-ingress.log"], ["postgres-main.log"], ["mysql-slow-replica.log"]
    se, dm = ["secure"], ["dmesg.txt"]
    rows = [
        ("peak", "access", ea, "edge 上的 502 高峰在几点几分", [f["ea_502_peak"]]),
        ("distinct", "access", ea, "how many distinct client IPs are in edge-access.log", [n(f["ea_distinct_ip"])]),
        ("top", "access", ea, "top failing endpoint on the edge? only count 5xx", [f["ea_fail_url"]]),
        ("top", "access", ea, "谁被限流(429)最多? 给我 IP 和次数", [f["ea_429_ip"], n(f["ea_429_n"])]),
        ("first_last", "access", ea, "first 504 in edge-access.log — what time?", [f["ea_first_504"]]),
        ("window", "access", ea, "grep 502 between 04:10 and 04:20 | wc -l, roughly what do you get", [n(f["ea_502_window"])]),
        ("window", "access", ea, "过去15分钟（按日志结尾算）出现了多少 404", [n(f["ea_404_last15"])]),
        ("stat", "nginx", qa, "p90 rt in quotes-access.log?", [[f["qa_p90"], str(int(float(f["qa_p90"]) * 1000))]]),
        ("stat", "nginx", qa, "quotes 服务哪个接口最慢", [f["qa_slow_path"]]),
        ("count", "nginx", qa, "in quotes-access.log how many requests were slower than 2s", [n(f["qa_over_2s"])]),
        ("count", "jsonl", dj, "dispatch.jsonl: count of log.level=error", [n(f["dj_error"])]),
        ("top", "jsonl", dj, "哪个 depot 的派单失败最多", [f["dj_fail_depot"]]),
        ("stat", "jsonl", dj, "longest event.duration_ms in dispatch and which driver", [n(f["dj_max_ms"]), f["dj_max_driver"]]),
        ("distinct", "jsonl", dj, "dispatch 日志里有多少个不同的司机 (driver.id)", [n(f["dj_drivers"])]),
        ("count", "logfmt", ft, "fleet-telemetry lvl=error 几条", [n(f["ft_error"])]),
        ("top", "logfmt", ft, "which truck has the most gps jumps", [f["ft_jump_vehicle"]]),
        ("count", "java", ti, "how many MongoTimeoutException in tracking-ingest.log? count events not lines", [n(f["ti_mongo"])]),
        ("first_last", "java", ti, "tracking-ingest 第一次 StackOverflowError 是什么时候", [f["ti_first_soe"]]),
        ("window", "generic", lp, "label-printer errors from 04:10 to 04:20?", [n(f["lp_err_window"])]),
        ("top", "generic", lp, "label-printer.log 最常见的错误是什么", ["ZB-07", n(f["lp_top_err_n"])]),
        ("readonly", "syslog", sl, "syslog 里 manifest-cleanup 删除的文件有多少个", [n(f["sl_removed"])]),
        ("readonly", "syslog", sl, "how many times did systemd restart scanner-bridge", [n(f["sl_restarts"])]),
        ("count", "rfc5424", bl, "billing log — warnings from invoice-gen, how many", [n(f["bl_inv_warn"])]),
        ("top", "journal", je, "journal-export.json 里哪个服务的 warning 最多", [f["je_warn_unit"]]),
        ("count", "journal", je, "scanner-bridge.service err-level entries in the journal export?", [n(f["je_scan_err"])]),
        ("top", "haproxy", hi, "which server behind haproxy-ingress returned the 504s", [f["hi_504_srv"]]),
        ("count", "haproxy", hi, "haproxy-ingress 里 bk_auth 返回了多少个 401", [n(f["hi_auth_401"])]),
        ("count", "postgres", pm, "postgres-main.log: queries slower than 2 seconds?", [n(f["pm_over_2s"])]),
        ("stat", "postgres", pm, "pg 里最慢的那条语句多少毫秒", [[f["pm_max"], f["pm_max"].rstrip("0")]]),
        ("count", "mysql", mr, "in the replica slow log how many queries waited on locks for more than a second (Lock_time > 1)?",
         [n(f["mr_lock_1s"])]),
        ("count", "auth", se, "secure 文件里有多少次密码登录失败", [n(f["se_failed"])]),
        ("top", "auth", se, "which username do the brute forcers try most often", [f["se_top_user"]]),
        ("readonly", "kernel", dm, "how many processes did the OOM killer kill according to dmesg.txt", [n(f["dm_kills"])]),
        ("count", "kernel", dm, "dmesg 里 sdb 的 I/O error 有几条", [n(f["dm_io_sdb"])]),
        ("timeline", "haproxy+postgres", hi + pm,
         "did the 504s in haproxy-ingress.log line up with the statement timeouts in postgres-main.log? which minute was worst",
         [f["hi_504_peak"]]),
        ("timeline", "kernel+java", ti + dm, "04:13 左右 dmesg 和 tracking-ingest 发生了什么", [f["dm_0413_pid"], "StackOverflowError"]),
    ]
    out = [{"id": f"h{i:03d}", "cat": c, "fmt": fmt, "files": files, "text": text, "answer_has": has}
           for i, (c, fmt, files, text, has) in enumerate(rows, start=1)]
    follow = [
        ("access", ea, ["edge-access.log 5xx 一共多少"], "4xx 呢？", [n(f["ea_4xx"])]),
        ("auth", se, ["secure: which IP failed to log in the most?"], "how many times did it fail", [n(f["se_top_ip_n"])]),
        ("kernel", dm, ["dmesg.txt 里哪个进程被 OOM kill 得最多"], "最后一次是几点", [f["dm_last_top"]]),
        ("access", ea, ["what's the largest response in edge-access.log"], "who downloaded it?", [f["ea_max_ip"]]),
    ]
    out += [{"id": f"hf{i:02d}", "cat": "followup", "fmt": fmt, "files": files, "turns": turns, "text": text,
             "answer_has": has} for i, (fmt, files, turns, text, has) in enumerate(follow, start=1)]
    system = [
        ("process", [GEO], "how many geo-cache procs are up right now", ["{count:geo-cache}"], {}),
        ("process", [MANIFEST], "manifest-sync 是用什么参数启动的", ["--bucket tw-manifests --interval 90"], {}),
        ("process", [INVOICE], "who owns the invoice-render process?", ["{user:invoice-render}"], {}),
        ("process", BACKFILL, "几个 backfill.py 里哪个占内存最多？它在跑哪个月", ["2027-02"], {}),
        ("socket", [TILE], "tile-proxy listening on which port?", ["{port:tile-proxy}"], {}),
        ("disk", [], "which device is / mounted from", ["{df:/:source}"], {}),
        ("action", [SPOOLER], "please terminate label-spooler", [], {"approval": {"kill": "label-spooler"}, "no_exec": True}),
        ("action", [TILE], "tile-proxy 卡死了，帮我把它 kill 掉", [], {"approval": {"kill": "tile-proxy"}, "no_exec": True}),
    ]
    for i, (c, procs, text, has, extra) in enumerate(system, start=1):
        case = {"id": f"hs{i:02d}", "cat": c, "fmt": "system", "files": [], "text": text}
        if procs:
            case["procs"] = procs
        if has:
            case["answer_has"] = has
        case.update(extra)
        out.append(case)
    return out
