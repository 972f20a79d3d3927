"""The `queries-heldout23` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

API, BROKER, TG = "reefer-api.log", "mosquitto.log", "telegraf.log"

FMT = {API: "Echo v4 logger middleware, default JSON template ({time RFC3339Nano, id, remote_ip, host, method, uri, "
            "user_agent, status, error, latency (ns), latency_human (Go duration), bytes_in, bytes_out}), written when a "
            "request ends; two app lines from e.Logger (gommon JSON: time, level, prefix, file, line, message)",
       BROKER: "Eclipse Mosquitto 2.0 log with the default Unix-time prefix ('1234567890: message'): connections, "
               "keepalive timeouts, TLS failures (OpenSSL Error), takeovers, drops, a restart",
       TG: "Telegraf agent log with debug on ('yyyy-mm-ddThh:mm:ssZ L! [plugin] message'): Wrote batch of N metrics "
           "in <Go duration>, Buffer fullness, Metric buffer overflow, did not complete within its flush interval, "
           "influxdb_v2 write errors, mqtt_consumer errors"}


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
    tl = lambda key, i: f[key][i]  # noqa: E731  (one timeline event: its second, or any of its readings)
    rows = [
        # ------------------------------------------------------------ reefer-api.log (Echo JSON)
        case("h23-api-count-504", "count", "api", "how many 504s did reefer-api hand out overnight?", [API],
             [n(f["a_504"])]),
        case("h23-api-count-503-zh", "count", "api", "reefer-api.log 里返回 503 的请求一共有多少个？", [API, BROKER],
             [n(f["a_503"])]),
        case("h23-api-p95-shipments", "stat", "api",
             "p95 latency for GET /v1/shipments/active in reefer-api.log? only count the ones that came back 200", [API],
             [f["a_ship_p95"]]),
        case("h23-api-slowest-zh", "stat", "api", "reefer-api 日志里耗时最长的是哪个请求？用了多久？", [API, TG],
             [f["a_slowest_path"], f["a_slowest"]]),
        case("h23-api-top3-clients", "top", "api", "top 3 client IPs by request count in reefer-api.log", [API],
             list(f["a_top3_clients"])),
        case("h23-api-top-401-zh", "top", "api", "reefer-api.log 里哪个客户端 IP 吃到的 401 最多？", [API],
             [f["a_top_401"]]),
        case("h23-api-top-renew", "top", "api",
             "which trailer called the cert/renew endpoint the most times? just need the kwr id", [API, BROKER],
             [f["a_top_renew"]]),
        case("h23-api-first-504-zh", "first", "api", "reefer-api 今晚第一个 504 是几点几分几秒？", [API],
             [f["a_first_504"]]),
        case("h23-api-last-503", "last", "api", "when was the last 503 in reefer-api.log? exact second pls", [API],
             [f["a_last_503"]]),
        case("h23-api-peak-zh", "peak", "api", "reefer-api.log 按分钟统计请求量，哪一分钟最高？", [API],
             [f["a_peak"]]),
        case("h23-api-window-504", "window", "api", "between 02:05 and 02:25 how many requests got a 504 from the api?",
             [API, TG], [n(f["a_window_504"])]),
        case("h23-api-distinct-ips", "distinct", "api", "how many unique client ips hit reefer-api last night", [API],
             [n(f["a_distinct_ips"])]),
        case("h23-api-share-5xx-zh", "share", "api", "reefer-api 的全部请求里，5xx 占百分之多少？", [API],
             [f["a_share_5xx"]]),
        # ------------------------------------------------------------ mosquitto.log
        case("h23-mq-count-timeout", "count", "broker",
             "how many times did mosquitto kick a client with 'has exceeded timeout'?", [BROKER],
             [n(f["m_timeout"])]),
        case("h23-mq-count-certfail-zh", "count", "broker", "mosquitto.log 里 certificate verify failed 一共出现了多少次？",
             [BROKER], [n(f["m_certfail"])]),
        case("h23-mq-count-already-zh", "count", "broker",
             "mosquitto 日志里 already connected, closing old connection 这种有几条？", [BROKER, TG],
             [n(f["m_already"])]),
        case("h23-mq-distinct-units", "distinct", "broker",
             "how many distinct trailers (the kwr-xxxxx client ids) connected to mosquitto tonight?", [BROKER],
             [n(f["m_units"])]),
        case("h23-mq-first-certfail-zh", "first", "broker", "mosquitto 第一次报 certificate verify failed 是几点？精确到秒",
             [BROKER], [f["m_first_cert"]]),
        case("h23-mq-last-dropped", "last", "broker",
             "last time the broker logged 'Outgoing messages are being dropped'? need the exact time", [BROKER, API],
             [f["m_last_drop"]]),
        case("h23-mq-peak-connect-zh", "peak", "broker", "mosquitto 的 New client connected 按分钟数，哪一分钟最多？",
             [BROKER], [f["m_peak_conn"]]),
        case("h23-mq-window-timeout", "window", "broker",
             "between 00:40 and 00:55, how many keepalive timeouts (has exceeded timeout) did mosquitto log?", [BROKER],
             [n(f["m_window_timeout"])]),
        case("h23-mq-top-timeout-zh", "top", "broker", "哪个 client id 因为 has exceeded timeout 被踢的次数最多？",
             [BROKER], [f["m_top_timeout"]]),
        case("h23-mq-followup-notauth", "followup", "broker", "which client id was that, and what ip did it come from",
             [BROKER], [f["m_notauth_id"], f["m_notauth_ip"]],
             turns=["anyone getting 'not authorised' on mosquitto last night?"]),
        case("h23-mq-timeline-restart-zh", "timeline", "broker",
             "把 mosquitto.log、telegraf.log 和 reefer-api.log 对一下，排个时间线，精确到秒：mosquitto terminating、"
             "mosquitto 重新 running、telegraf 的 mqtt_consumer 重新 Connected、reefer-api 的 mqtt reconnected",
             [API, BROKER, TG],
             [tl("tl_restart", 0), tl("tl_restart", 1), tl("tl_restart", 2), tl("tl_restart", 3)]),
        case("h23-mq-cross-renew", "cross", "broker",
             "once cert renewals started working again, which trailer got the first 201 on /cert/renew in the api log, "
             "and what time did that unit next show up connected in mosquitto.log?", [API, BROKER],
             [f["x_first_renewed"], f["x_back"]]),
        # ------------------------------------------------------------ telegraf.log
        case("h23-tg-count-flush-zh", "count", "telegraf", "telegraf.log 里 did not complete within its flush interval 出现了几次？",
             [TG], [n(f["t_flushint"])]),
        case("h23-tg-count-deadline", "count", "telegraf",
             "how many influxdb_v2 writes failed with context deadline exceeded in telegraf.log", [TG],
             [n(f["t_deadline"])]),
        case("h23-tg-count-badjson-zh", "count", "telegraf", "telegraf 的 mqtt_consumer 一共报了多少条 invalid JSON？",
             [TG, BROKER], [n(f["t_badjson"])]),
        case("h23-tg-sum-written-zh", "sum", "telegraf",
             "outputs.influxdb_v2 整晚一共成功写进去多少条 metrics？（所有 Wrote batch 的条数加起来）", [TG],
             [n(f["t_written"])]),
        case("h23-tg-sum-dropped", "sum", "telegraf", "total metrics telegraf dropped because of buffer overflow?", [TG],
             [n(f["t_dropped"])]),
        case("h23-tg-slowest-batch", "stat", "telegraf",
             "slowest successful influxdb_v2 batch write in telegraf.log - how long did it take and when was it?", [TG],
             [f["t_slowest"], f["t_slowest_at"]]),
        case("h23-tg-mean-batch-zh", "stat", "telegraf", "influxdb_v2 每次 Wrote batch 的平均耗时是多少毫秒？", [TG],
             [f["t_mean"]]),
        case("h23-tg-first-deadline", "first", "telegraf",
             "when did telegraf first hit context deadline exceeded writing to influx?", [TG, API],
             [f["t_first_deadline"]]),
        case("h23-tg-last-overflow-zh", "last", "telegraf", "telegraf 最后一次 Metric buffer overflow 是几点几分几秒？", [TG],
             [f["t_last_overflow"]]),
        case("h23-tg-peak-errors", "peak", "telegraf", "which minute had the most E! lines in telegraf.log", [TG],
             [f["t_peak_err"]]),
        case("h23-tg-window-badjson-zh", "window", "telegraf", "02:50 到 03:00 之间 telegraf 报了几条 invalid JSON provided？",
             [TG], [n(f["t_window_badjson"])]),
        case("h23-tg-timeline-influx", "timeline", "telegraf",
             "timeline of the influx slowdown across telegraf.log, reefer-api.log and mosquitto.log, to the second: telegraf's "
             "first 'did not complete within its flush interval', the api's first 504, mosquitto's first 'Outgoing messages "
             "are being dropped', and telegraf's last 'context deadline exceeded'", [API, BROKER, TG],
             [tl("tl_influx", 0), tl("tl_influx", 1), tl("tl_influx", 2), tl("tl_influx", 3)]),
        case("h23-tg-followup-reconnect", "followup", "telegraf", "ok and when did it get connected again?", [TG],
             [f["t_reconnected"]],
             turns=["did telegraf's mqtt_consumer lose its connection to the broker at some point?"]),
        # ------------------------------------------------------------ processes on this machine
        case("h23-proc-count", "process", "proc", "how many setpoint-relay procs running atm?", [],
             ["{count:setpoint-relay}"], procs=[{"name": "setpoint-relay", "count": 3, "args": ["--region", "north"]}]),
        case("h23-proc-script-count-zh", "process", "proc", "geofence-scan 这个 python 脚本现在跑了几个？", [],
             ["{count:geofence-scan}"],
             procs=[{"name": "geofence-scan", "count": 2, "interp": True, "args": ["--zones", "depots.geojson"]}]),
        case("h23-proc-pid-zh", "process", "proc", "dwell-tracker 的 pid 是多少？", [], ["{pid:dwell-tracker}"],
             procs=[{"name": "dwell-tracker", "args": ["--threshold", "45m"]}]),
        case("h23-proc-user", "process", "proc", "what user is pod-uploader running under?", [], ["{user:pod-uploader}"],
             procs=[{"name": "pod-uploader", "args": ["--bucket", "kw-pod-scans"]}]),
        case("h23-proc-cmdline-zh", "process", "proc", "manifest-sync 启动参数是啥？把完整命令行给我看看", [],
             ["hull-north", "4800"],
             procs=[{"name": "manifest-sync", "args": ["--depot", "hull-north", "--window", "4800"]}]),
        case("h23-proc-port", "socket", "proc", "telemetry-tap is listening on which port?", [], ["{port:telemetry-tap}"],
             procs=[{"name": "telemetry-tap", "listen": True, "args": ["--mirror", "kwr/+/telemetry"]}]),
        case("h23-proc-mem-zh", "process", "proc", "route-cache、lane-scorer、yard-sweeper 这三个进程哪个占内存最多？", [],
             ["lane-scorer"],
             procs=[{"name": "route-cache", "mem_mb": 90}, {"name": "lane-scorer", "mem_mb": 260},
                    {"name": "yard-sweeper", "mem_mb": 150}]),
        case("h23-proc-followup-pid-zh", "followup", "proc", "pid 多少？", [], ["{pid:genset-poller}"],
             turns=["genset-poller 在跑没？"], procs=[{"name": "genset-poller", "args": ["--every", "30s"]}]),
        case("h23-proc-followup-user", "followup", "proc", "who's it running as", [], ["{user:fuel-audit}"],
             turns=["is fuel-audit running?"], procs=[{"name": "fuel-audit", "args": ["--since", "yesterday"]}]),
        case("h23-action-kill", "action", "proc", "alarm-flapper keeps paging us for nothing, kill it", [],
             approval={"kill": "alarm-flapper"}, procs=[{"name": "alarm-flapper", "args": ["--fleet", "all"]}]),
        case("h23-action-kill-zh", "action", "proc", "door-sensor-sim 起了三个，全部干掉", [],
             approval={"kill": "door-sensor-sim"}, procs=[{"name": "door-sensor-sim", "count": 3, "args": ["--rate", "5"]}]),
        case("h23-action-followup-kill-zh", "action", "proc", "都停掉吧", [],
             turns=["有没有 temp-backfill 进程在跑？几个？"],
             approval={"kill": "temp-backfill"}, procs=[{"name": "temp-backfill", "count": 2, "args": ["--from", "2037-02-18"]}]),
    ]
    return rows
