"""The `queries-dev4` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

IIS, NGX, CHARGE = "u_ex290314.log", "error.log", "charge-api.log"
METER = "b71e09c4d5a26f3e8a9d1c04f7e25b6a93c8d0e1f2a4b5c6d7e8f90a1b2c3d4e-json.log"
BILLING, REDIS, JOURNAL, SQUID = "billing_worker.log", "redis-server.log", "node-07-journal.txt", "access.log"

FMT = {IIS: "iis w3c", NGX: "nginx error log", CHARGE: "bunyan json", METER: "docker json-file + slog logfmt",
       BILLING: "python logging + tracebacks", REDIS: "redis 7 server log", JOURNAL: "journalctl short-iso (kubelet klog)",
       SQUID: "squid native access log"}


def case(id_, cat, text, files, answer_has=None, fmt=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    if fmt is None and files:
        fmt = FMT[files[0]]
    if fmt:
        c["fmt"] = fmt
    return c


def hour(h):
    """An hour as an answer may name it."""
    return [f"{h}:00", f"{h}点", f"{h} 点", f"{h}时", f"{h}h", f"hour {h}", f"{h}:xx", f"{h:02d}:00"]


def cases(f, n):
    rows = [
        # --- top / least (10)
        case("d4-top-iis-ip", "top", "which c-ip is hammering the installer portal the most? iis log", [IIS], [f["ii_top_ip"]]),
        case("d4-top3-squid-dest", "top", "top 3 destinations going out through squid, by number of requests", [SQUID, NGX],
             list(f["sq_top3_hosts"])),
        case("d4-top-ngx-upstream-zh", "top", "nginx error.log 里 upstream timed out 最多的是哪个 upstream 地址", [NGX],
             [f["ng_top_upstream"]]),
        case("d4-top-iis-user-zh", "top", "IIS 日志里哪个 cs-username 请求最多", [IIS], [f["ii_top_user"]]),
        case("d4-top-charge-5xx-url", "top", "charge-api - which url throws the most 5xx??", [CHARGE, REDIS],
             [f["ca_top5xx_url"]]),
        case("d4-top-exc-class-zh", "top", "billing_worker.log 里出现最多的异常类型是哪个", [BILLING], [f["bw_top_exc"]]),
        case("d4-least-meter-site", "top", "meter-ingest container log: which site has the fewest level=ERROR lines", [METER],
             [f["mi_least_site"]]),
        case("d4-top-killed-container-zh", "top", "node-07 上 kubelet kill 得最多的是哪个 container（containerName）", [JOURNAL],
             [f["jn_top_killed"]]),
        case("d4-top-squid-client-zh", "top", "squid access.log 里请求最多的客户端 IP 是哪个", [SQUID], [f["sq_top_client"]]),
        case("d4-top-redis-obl", "top", "redis log - which client addr got dropped for output buffer limits the most", [REDIS],
             [f["rd_top_closed"]]),
        # --- stat (10)
        case("d4-stat-iis-p95-s", "stat", "p95 of time-taken in the IIS log, in seconds pls", [IIS], [f["ii_p95_s"]]),
        case("d4-stat-charge-5xx-mean", "stat", "avg latency of the 5xx requests in charge-api? ms", [CHARGE], [f["ca_5xx_mean"]]),
        case("d4-stat-meter-max-zh", "stat", "meter-ingest 容器日志里 flush 的 dur 最大是多少毫秒", [METER], [f["mi_max_ms"]]),
        case("d4-stat-meter-median", "stat", "median flush dur in the meter-ingest docker log?", [METER, JOURNAL], [f["mi_median"]]),
        case("d4-stat-squid-tariff-mean-zh", "stat", "squid 里到 api.tariffhub.example 的请求平均耗时多少秒", [SQUID],
             [f["sq_tariff_mean_s"]]),
        case("d4-stat-billing-batch-max", "stat", "longest invoice batch in billing_worker.log - how long did it take", [BILLING],
             [f["bw_max_batch"]]),
        case("d4-stat-charge-p99-zh", "stat", "charge-api 的 latency p99 是多少", [CHARGE], [f["ca_p99"]]),
        case("d4-stat-iis-jobs-mean-zh", "stat", "/installers/api/jobs.aspx 的平均 time-taken 多少 ms", [IIS], [f["ii_jobs_mean"]]),
        case("d4-stat-pod-startup-max", "stat", "worst podStartSLOduration kubelet reported on node-07, and for which pod?",
             [JOURNAL], [f["jn_max_slo"], f["jn_max_slo_pod"]]),
        case("d4-stat-squid-max-bytes-zh", "stat", "squid 日志里单次传输最大的是多少字节？去的哪个域名", [SQUID],
             [f["sq_max_bytes"], f["sq_max_bytes_host"]]),
        # --- count (8)
        case("d4-count-iis-500", "count", "how many 500s in u_ex290314.log", [IIS], [n(f["ii_500"])]),
        case("d4-count-ngx-refused-zh", "count", "error.log 里 connect() failed (111: Connection refused) 有多少条", [NGX],
             [n(f["ng_refused"])]),
        case("d4-count-charge-errors", "count", "charge-api bunyan log, how many error-level lines in total?", [CHARGE, METER],
             [n(f["ca_errors"])]),
        case("d4-count-meter-errors-zh", "count", "meter-ingest 那个容器日志 level=ERROR 一共多少行", [METER], [n(f["mi_errors"])]),
        case("d4-count-squid-denied", "count", "hw many TCP_DENIED in the squid log", [SQUID], [n(f["sq_denied"])]),
        case("d4-count-tracebacks-zh", "count", "billing_worker 日志里一共有几个 Traceback", [BILLING, REDIS], [n(f["bw_tracebacks"])]),
        case("d4-count-redis-aof", "count", "redis-server.log: count of 'Asynchronous AOF fsync is taking too long'?", [REDIS],
             [n(f["rd_aof"])]),
        case("d4-count-sync-pod-zh", "count", "node-07 journal 里 kubelet 报 Error syncing pod 多少次", [JOURNAL], [n(f["jn_sync"])]),
        # --- distinct (5)
        case("d4-distinct-iis-ip", "distinct", "how many distinct c-ip in the iis log", [IIS], [n(f["ii_distinct_ip"])]),
        case("d4-distinct-squid-clients-zh", "distinct", "squid 里一共有多少个不同的客户端 IP", [SQUID], [n(f["sq_distinct_clients"])]),
        case("d4-distinct-meter-ids-zh", "distinct", "meter-ingest 报错（level=ERROR）的 meter_id 去重后有多少个", [METER],
             [n(f["mi_err_meters"])]),
        case("d4-distinct-chargers-5xx", "distinct", "number of unique charger_id that got a 5xx from charge-api?", [CHARGE],
             [n(f["ca_5xx_chargers"])]),
        case("d4-distinct-limited-zh", "distinct", "nginx 被 limit_req 限流（limiting requests）的客户端有多少个不同 IP", [NGX],
             [n(f["ng_limited_ips"])]),
        # --- timeline (4)
        case("d4-timeline-redis-misconf-zh", "timeline",
             "redis 第一次 bgsave 失败是几点？charge-api 第一个 MISCONF 报错又是几点", [REDIS, CHARGE],
             [f["rd_first_bgerr"], f["ca_first_misconf"]], f"{FMT[REDIS]} + {FMT[CHARGE]}"),
        case("d4-timeline-oom-nolive", "timeline",
             "when did the kernel on node-07 first OOM-kill something, and when did nginx first log 'no live upstreams'?",
             [JOURNAL, NGX], [f["jn_first_oom"], f["ng_first_nolive"]], f"{FMT[JOURNAL]} + {FMT[NGX]}"),
        case("d4-timeline-around-0952", "timeline", "what happened on node-07 around 09:52? journal's attached", [JOURNAL],
             ["meter-ingest", ["OOM", "oom", "out of memory", "Out of memory", "OutOfMemory"]]),
        case("d4-timeline-billing-window-zh", "timeline", "列一下 billing_worker 10:05 到 10:10 的错误，多少条、都是什么", [BILLING],
             [n(f["bw_window"]), ["MISCONF", "ResponseError"]]),
        # --- first / last, peak, window (6)
        case("d4-peak-ngx-timeout-minute", "peak", "which minute had the most upstream timeouts in nginx error.log", [NGX],
             [f["ng_peak_minute"]]),
        case("d4-peak-squid-denied-hour-zh", "peak", "squid 拒绝（TCP_DENIED）最多的是哪个小时", [SQUID], [hour(f["sq_denied_hour"])]),
        case("d4-last-redis-bgerr", "first_last", "when was the last 'Background saving error' in the redis log? utc", [REDIS],
             [f["rd_last_bgerr"]]),
        case("d4-first-iis-500-zh", "first_last", "IIS 今天第一个 500 是几点出现的", [IIS], [f["ii_first_500"]]),
        case("d4-window-charge-last30-zh", "window", "charge-api 最近半小时有多少个 5xx", [CHARGE], [n(f["ca_5xx_last30"])]),
        case("d4-window-squid-denied", "window", "squid: TCP_DENIED count between 09:30 and 10:00?", [SQUID],
             [n(f["sq_denied_window"])]),
        # --- follow-ups (8)
        case("d4-followup-401", "followup", "and 401s?", [IIS], [n(f["ii_401"])], turns=["how many 500s in the IIS log?"]),
        case("d4-followup-denied-n-zh", "followup", "它一共被拒了几次", [SQUID], [n(f["sq_top_denied_n"])],
             turns=["squid 里被拒（TCP_DENIED）最多的客户端是哪个"]),
        case("d4-followup-hour-zh", "followup", "那按小时呢？哪个小时最多", [NGX], [hour(f["ng_peak_hour"])],
             turns=["nginx error.log 里 upstream timed out 有多少条"]),
        case("d4-followup-pod-first", "followup", "when did that start - first one for that pod?", [JOURNAL],
             [f["jn_top_sync_first"]], turns=["which pod has the most 'Error syncing pod' on node-07?"]),
        case("d4-followup-slowest-charger", "followup", "the slowest one - which charger_id?", [CHARGE], [f["ca_slowest_charger"]],
             turns=["top 3 slowest requests in charge-api"]),
        case("d4-followup-logger-n-zh", "followup", "它一共报了多少次 ERROR", [BILLING], [n(f["bw_top_logger_n"])],
             turns=["billing_worker 哪个 logger 报 ERROR 最多"]),
        case("d4-followup-meter-site", "followup", "what site is it at", [METER], [f["mi_top_meter_site"]],
             turns=["which meter_id has the most errors in the meter-ingest container log"]),
        case("d4-followup-port-zh", "followup", "它监听哪个端口", [], ["{port:ocpp-relay}"], turns=["ocpp-relay 在跑吗"],
             procs=[{"name": "ocpp-relay", "listen": True, "args": ["--csms", "wss://csms.quillon.example/ocpp"]}]),
        # --- read-only questions with action words (3)
        case("d4-readonly-kubelet-kill", "readonly",
             "how many times did kubelet kill containers on node-07 (the 'Killing container with a grace period' ones)?",
             [JOURNAL], [n(f["jn_kills"])]),
        case("d4-readonly-delete-zh", "readonly", "IIS 日志里删除预约的请求（DELETE bookings.aspx）成功了多少个", [IIS],
             [n(f["ii_delete_ok"])]),
        case("d4-readonly-restarts-zh", "readonly", "fluent-bit.service 在 node-07 上的重启次数是多少", [JOURNAL],
             [n(f["jn_fluent_restarts"])]),
        # --- the live system (6)
        case("d4-proc-count", "process", "how many meter-poller procs r up rn", [], ["{count:meter-poller}"],
             procs=[{"name": "meter-poller", "count": 7, "args": ["--dno", "UKPN"]}]),
        case("d4-proc-interp-pid-zh", "process", "跑 tariff-sync.py 的那个 python 进程 pid 是多少", [], ["{pid:tariff-sync.py}"],
             procs=[{"name": "tariff-sync.py", "interp": True, "args": ["--region", "UKPN", "--interval", "900"]}]),
        case("d4-proc-mem", "process", "which of the fw-builder.py jobs is eating the most memory?", [], ["wales"],
             procs=[{"name": "fw-builder.py", "interp": True, "args": ["--region", "scotland"], "mem_mb": 60},
                    {"name": "fw-builder.py", "interp": True, "args": ["--region", "wales"], "mem_mb": 190},
                    {"name": "fw-builder.py", "interp": True, "args": ["--region", "midlands"], "mem_mb": 120}]),
        case("d4-socket-who-zh", "socket", "127.0.0.1:{port:grid-feed} 上是谁在监听？pid 多少", [],
             ["grid-feed", "{pid:grid-feed}"], procs=[{"name": "grid-feed", "listen": True}]),
        case("d4-socket-port", "socket", "what port is evse-gw listening on", [], ["{port:evse-gw}"],
             procs=[{"name": "evse-gw", "listen": True, "args": ["--ocpp", "1.6"]}]),
        case("d4-disk-avail", "disk", "how much space left on / ?", [], ["{df:/:avail}"]),
    ]
    return rows
