"""The `queries-heldout18` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

HAP, BASKETD, KAFKA = "haproxy.log", "basketd.log", "server.log"

FMT = {HAP: "haproxy http log via rsyslog (syslog header, option httplog: client:port, [accept date], frontend, "
            "backend/server, TR/Tw/Tc/Tr/Ta timers, status, bytes, termination state, conn counts, {captured headers}, "
            "quoted request) + health-check lines",
       BASKETD: "go log/slog JSONHandler (time RFC3339Nano, level, msg, attrs; durations in ns; a nested group)",
       KAFKA: "kafka broker server.log (log4j '[%d] %p %m (%c)', multi-line exceptions with stack frames)"}


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
        # ------------------------------------------------------------ HAProxy
        case("h18-hap-count-429-zh", "count", "haproxy", "haproxy.log 里返回 429 的请求一共有多少个？", [HAP],
             [n(f["h_429"])]),
        case("h18-hap-count-5xx", "count", "haproxy", "how many 5xx did be_api return in total tonite? (haproxy log)",
             [HAP, BASKETD], [n(f["h_api_5xx"])]),
        case("h18-hap-top3-ip", "top", "haproxy", "top 3 client ips by number of requests in haproxy.log pls", [HAP],
             list(f["h_top3_ip"])),
        case("h18-hap-p95-ta-zh", "stat", "haproxy", "be_api 这个 backend 的请求，Ta（总耗时）的 p95 是多少 ms？", [HAP],
             [f["h_ta_p95"]]),
        case("h18-hap-max-tr", "stat", "haproxy",
             "whats the slowest Tr (server response time) in the haproxy log - which server, how many ms?", [HAP, KAFKA],
             [n(f["h_max_tr"]), f["h_max_tr_srv"]]),
        case("h18-hap-first-down-zh", "first", "haproxy", "haproxy 第一次把 basket-2 标成 DOWN 是几点几分几秒？", [HAP],
             [hms(f["h_b2_down"])]),
        case("h18-hap-last-429", "last", "haproxy", "when was the last 429 in haproxy.log", [HAP, BASKETD],
             [hms(f["h_last_429"])]),
        case("h18-hap-peak-zh", "peak", "haproxy", "haproxy.log 按分钟统计请求量，哪一分钟最高？", [HAP],
             [f["h_peak"]]),
        case("h18-hap-distinct-ip-zh", "distinct", "haproxy", "整个 haproxy.log 里一共出现过多少个不同的客户端 IP？", [HAP],
             [n(f["h_distinct_ip"])]),
        case("h18-hap-window-slow", "window", "haproxy",
             "between 2:20 and 2:50 howmany reqs in haproxy.log had Ta over 1000ms?", [HAP],
             [n(f["h_slow_window"])]),
        case("h18-hap-share-b2", "share", "haproxy", "what % of the be_api requests went to basket-2 (server field)?", [HAP],
             [f["h_b2_share"]]),
        case("h18-hap-followup-total-zh", "followup", "haproxy", "这个 IP 一共发了多少个请求？", [HAP],
             [n(f["h_top429_total"])], turns=["haproxy 日志里被 429 拦得最多的是哪个 IP？"]),
        case("h18-hap-timeline-b2-zh", "timeline", "haproxy",
             "两点半左右 basket-2 出事了。结合 haproxy.log 和 basketd.log，从第一次 504 超时到 basket-2 重新 UP，按时间顺序把关键节点列出来，精确到秒",
             [HAP, BASKETD],
             [tl("tl_b2", 0), ["超时", "sH--", "timeout", "time-out", "Time-out"], tl("tl_b2", 1), ["DOWN", "down", "下线"], tl("tl_b2", 2),
              ["1.42.1", "starting basketd", "重启", "restart"], tl("tl_b2", 3), ["UP", "上线", "恢复"]]),
        # ------------------------------------------------------------ basketd (slog JSON)
        case("h18-slog-count-error-zh", "count", "slog", "basketd.log 里 level 是 ERROR 的日志有几条？", [BASKETD],
             [n(f["b_errors"])]),
        case("h18-slog-count-checkout-503", "count", "slog",
             "how many POST /api/v1/checkout ended w/ status 503 in basketd.log?", [BASKETD, HAP],
             [n(f["b_checkout_503"])]),
        case("h18-slog-top3-paths", "top", "slog", "top 3 endpoints (path) by hits in basketd.log?", [BASKETD],
             list(f["b_top3_paths"])),
        case("h18-slog-p99-checkout-zh", "stat", "slog", "basketd 里 POST /api/v1/checkout 的 duration，p99 是多少毫秒？",
             [BASKETD], [f["b_checkout_p99"]]),
        case("h18-slog-mean-inst", "stat", "slog", "which basketd instance had the worst avg request duration tonight?",
             [BASKETD, KAFKA], [f["b_slowest_inst"]]),
        case("h18-slog-first-canceled-zh", "first", "slog", "basketd 第一次出现 request canceled 是几点几分几秒？哪个 instance？",
             [BASKETD], [hms(f["b_first_canceled"]), "basket-2"]),
        case("h18-slog-followup-users", "followup", "slog", "ok how many distinct usernames did it try?", [BASKETD],
             [n(f["b_stuff_users"])], turns=["in basketd.log which remote_ip has the most 'login failed' lines?"]),
        case("h18-slog-peak-warn", "peak", "slog", "busiest minute for WARN lines in basketd.log? just the minute", [BASKETD],
             [f["b_peak_warn"]]),
        case("h18-slog-distinct-users-zh", "distinct", "slog", "basketd.log 里一共出现过多少个不同的 user_id？", [BASKETD, HAP],
             [n(f["b_distinct_users"])]),
        case("h18-slog-followup-lastpub-zh", "followup", "slog", "那最后一次呢？", [BASKETD], [hms(f["b_last_pub"])],
             turns=["basketd 第一次报 publish order event failed 是什么时候？"]),
        case("h18-slog-version", "value", "slog", "basket-2 got restarted at some point, what version did it come back on?",
             [BASKETD], [f["b_version"]]),
        case("h18-slog-max-pg-zh", "stat", "slog", "postgres query slow 里 elapsed 最大的那次是多少毫秒？哪个 instance？",
             [BASKETD], [f["b_max_pg"], f["b_max_pg_inst"]]),
        # ------------------------------------------------------------ Kafka server.log
        case("h18-kafka-count-shrink", "count", "kafka", "kafka server.log: how many times did the broker log Shrinking ISR?",
             [KAFKA], [n(f["k_shrinks"])]),
        case("h18-kafka-count-error-zh", "count", "kafka", "server.log 里 ERROR 级别的日志一共多少条？堆栈行不算", [KAFKA, BASKETD],
             [n(f["k_errors"])]),
        case("h18-kafka-top-shrink", "top", "kafka", "which partition shrank its ISR the most times in the broker log?", [KAFKA],
             [f["k_top_shrink"]]),
        case("h18-kafka-first-ner-zh", "first", "kafka", "server.log 里第一次出现 NotEnoughReplicasException 是几点几分几秒？",
             [KAFKA], [hms(f["k_first_ner"])]),
        case("h18-kafka-last-expand", "last", "kafka", "last 'Expanding ISR' in server.log - what time was it?", [KAFKA, HAP],
             [hms(f["k_last_expand"])]),
        case("h18-kafka-peak-warn-zh", "peak", "kafka", "kafka 这个 server.log 的 WARN 按分钟统计，哪一分钟最多？", [KAFKA],
             [f["k_peak_warn"]]),
        case("h18-kafka-distinct-shrunk", "distinct", "kafka",
             "how many distinct partitions got their ISR shrunk tonight per server.log?", [KAFKA],
             [n(f["k_distinct_shrunk"])]),
        case("h18-kafka-top-exception", "top", "kafka", "which exception type shows up most in the kafka broker log?", [KAFKA],
             [f["k_top_exc"]]),
        case("h18-kafka-probe-zh", "top", "kafka", "谁在往 9092 上乱发请求、触发 InvalidReceiveException？给我来源 IP 和次数",
             [KAFKA], [f["k_probe_ip"], n(f["k_probe_n"])]),
        case("h18-kafka-generation", "value", "kafka",
             "what generation is consumer group checkout-workers at now, going by the broker log?", [KAFKA],
             [n(f["k_gen"])]),
        case("h18-kafka-max-roll-zh", "stat", "kafka", "Rolled new log segment 里耗时最长的一次是多少 ms？哪个分区？", [KAFKA],
             [n(f["k_max_roll"]), f["k_max_roll_part"]]),
        case("h18-kafka-followup-ner", "followup", "kafka", "how many did that one get?", [KAFKA],
             [n(f["k_ner_top_n"])], turns=["which partition got the most NotEnoughReplicasException errors in server.log?"]),
        case("h18-kafka-timeline-zh", "timeline", "kafka",
             "kafka-3 掉线那次：结合 server.log 和 basketd.log，从 kafka-2 第一次连不上 kafka-3 开始，到它那些分区的 ISR 全部恢复为止，按时间顺序列关键节点，精确到秒",
             [KAFKA, BASKETD],
             [tl("tl_kafka", 0), ["disconnected", "IOException", "Connection to 3", "连不上"], tl("tl_kafka", 1),
              ["Shrinking ISR", "Shrinking", "收缩"], tl("tl_kafka", 2),
              ["NOT_ENOUGH_REPLICAS", "publish order event failed", "NotEnoughReplicas"], tl("tl_kafka", 3),
              ["Expanding ISR", "Expanding", "恢复"]]),
        # ------------------------------------------------------------ processes on this machine
        case("h18-proc-count", "process", "proc", "how many slot-allocator procs running rn?", [], ["{count:slot-allocator}"],
             procs=[{"name": "slot-allocator", "count": 3, "args": ["--region", "london"]}]),
        case("h18-proc-script-count-zh", "process", "proc", "price-sync 这个脚本现在跑着几个？", [], ["{count:price-sync}"],
             procs=[{"name": "price-sync", "count": 2, "interp": True, "args": ["--feed", "suppliers"]}]),
        case("h18-proc-pid", "process", "proc", "pid of cart-sweeper?", [], ["{pid:cart-sweeper}"],
             procs=[{"name": "cart-sweeper", "args": ["--idle", "72h"]}]),
        case("h18-proc-user-zh", "process", "proc", "invoice-render 是哪个用户在跑？", [], ["{user:invoice-render}"],
             procs=[{"name": "invoice-render", "args": ["--format", "pdf"]}]),
        case("h18-proc-cmdline-zh", "process", "proc", "promo-indexer 启动时带的参数是什么？完整命令行发我", [],
             ["eu-west-2", "640"],
             procs=[{"name": "promo-indexer", "args": ["--shard", "eu-west-2", "--batch-size", "640"]}]),
        case("h18-proc-port", "socket", "proc", "which port is stock-feed listening on", [], ["{port:stock-feed}"],
             procs=[{"name": "stock-feed", "listen": True, "args": ["--upstream", "wms"]}]),
        case("h18-proc-mem-zh", "process", "proc", "substitutor、route-planner、receipt-ocr 这三个进程谁占内存最多？", [],
             ["route-planner"],
             procs=[{"name": "substitutor", "mem_mb": 70}, {"name": "route-planner", "mem_mb": 230},
                    {"name": "receipt-ocr", "mem_mb": 130}]),
        case("h18-proc-followup-pid-zh", "followup", "proc", "它的 pid 是多少？", [], ["{pid:coupon-engine}"],
             turns=["coupon-engine 还在跑吗？"], procs=[{"name": "coupon-engine", "args": ["--rules", "spring"]}]),
        case("h18-proc-followup-user", "followup", "proc", "what user owns it", [], ["{user:driver-ping}"],
             turns=["is driver-ping running?"], procs=[{"name": "driver-ping", "args": ["--every", "15s"]}]),
        case("h18-action-kill", "action", "proc", "label-printer is hung, kill it pls", [],
             approval={"kill": "label-printer"}, procs=[{"name": "label-printer", "args": ["--queue", "dock-3"]}]),
        case("h18-action-kill-zh", "action", "proc", "picklist-gen 起了三个，全部杀掉", [],
             approval={"kill": "picklist-gen"}, procs=[{"name": "picklist-gen", "count": 3, "args": ["--wave", "night"]}]),
        case("h18-action-followup-kill", "action", "proc", "kill all of them", [],
             turns=["how many eta-calc processes r there"],
             approval={"kill": "eta-calc"}, procs=[{"name": "eta-calc", "count": 2, "args": ["--model", "gbm-v4"]}]),
    ]
    return rows
