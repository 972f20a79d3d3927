"""The `queries-heldout7` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

TR, CD, MY, RB = "traefik-access.json", "caddy-edge.json", "mysql-rides-error.log", "rabbitmq-mq2.log"
KL, AP, RA = "kubelet-bk-node-4.log", "admin-httpd-error.log", "rides-api.log"

FMT = {TR: "traefik json access log (Duration ns)", CD: "caddy json log (ts epoch, nested request)",
       MY: "mysql 8 error log", RB: "rabbitmq 3.12 log", KL: "kubelet klog", AP: "apache httpd 2.4 error log",
       RA: "rust tracing fmt"}


def case(id_, cat, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    if files:
        c["fmt"] = " + ".join(FMT[x] for x in sorted(files))
    return c


def hour(h):
    """An hour as an answer may name it."""
    return [f"{h}:00", f"0{h}:00", f"{h}点", f"{h} 点", f"{h}时", f"{h}h", f"hour {h}", f"{h}:xx"]


DISK_FULL = ["Disk is full", "disk is full", "No space left", "errno 28", "disk full", "磁盘满", "磁盘已满", "磁盘空间"]
EVICT = ["evict", "Evict", "驱逐"]


def cases(f, n):
    rows = [
        # --- one-shot questions over one log
        case("h7-count-mysql-aborted-zh", "count", "mysql 的 error log 里 Aborted connection 总共记了几次？", [MY],
             [str(f["my_aborted"])]),
        case("h7-count-caddy-error-level", "count", "caddy edge log -- count of entries with level \"error\"?", [CD, TR],
             [str(f["cd_errors"])]),
        case("h7-count-rabbit-accept", "count", "in the rabbitmq log how many AMQP connections got accepted overall", [RB],
             [str(f["rb_accept"])]),
        case("h7-count-apache-ah01114-zh", "count", "admin 那台 httpd error log 里 AH01114 出现多少回", [AP, KL],
             [str(f["ap_01114"])]),
        case("h7-window-traefik-504-zh", "window", "traefik 访问日志，03:00 到 03:30 之间 DownstreamStatus=504 的有多少", [TR],
             [str(f["tr_504_window"])]),
        case("h7-window-rides-warn-lasthour", "window",
             "rides-api log: WARN lines in the final hour of the file, how many?", [RA], [str(f["ra_warn_last60"])]),
        case("h7-distinct-traefik-clienthost-zh", "distinct", "traefik 的日志里不同的 ClientHost 一共有多少个", [TR],
             [n(f["tr_clients"])]),
        case("h7-distinct-rabbit-ips", "distinct", "how many distinct client IPs opened AMQP connections to mq-2?", [RB],
             [str(f["rb_ips"])]),
        case("h7-distinct-caddy-remote-ip", "distinct", "caddy json: number of unique request.remote_ip values", [CD],
             [str(f["cd_clients"])]),
        case("h7-top3-traefik-routers-zh", "top", "traefik 按 RouterName 统计请求数，前三名是谁", [TR],
             list(f["tr_top_routers"])),
        case("h7-least-mysql-user", "top", "mysql-rides error log: which user had the fewest aborted connections?", [MY],
             [f["my_least_user"]]),
        case("h7-top3-rides-500-paths-zh", "top", "rides-api 日志里 status=500 最多的三个 path", [RA],
             list(f["ra_top500"])),
        case("h7-stat-traefik-stations-p95", "stat",
             "p95 Duration for RouterName stations@kubernetes in the traefik log, in milliseconds", [TR],
             [["61.25", "0.06125"]]),
        case("h7-stat-caddy-nearby-mean-zh", "stat", "caddy 里 /v2/stations/nearby 平均耗时多少毫秒？(duration 字段，忽略 query string)",
             [CD], [["43.6", "0.0436"]]),
        case("h7-stat-rides-end-mean", "stat", "avg latency of POST /v1/rides/end in rides-api.log -- give it in seconds",
             [RA], [[f["ra_end_mean"][0], f["ra_end_mean"][1], "0.19 s", "0.19s", "0.19 秒", "0.19秒"]]),
        case("h7-peak-traefik-504-minute", "peak", "traefik: which minute had the most 504s", [TR],
             [f["tr_504_peak"]]),
        case("h7-peak-mysql-aborted-hour-zh", "peak", "mysql error log 的 Aborted connection 按小时算，哪个小时最多", [MY],
             [hour(f["my_aborted_hour"])]),
        # --- follow-ups (only the last turn is scored)
        case("h7-followup-traefik-504-router-n", "followup", "how many did it get", [TR],
             [str(f["tr_504_router_n"])], turns=["traefik access log: which RouterName got the most 504s?"]),
        case("h7-followup-caddy-next3", "followup", "next 3", [CD], list(f["cd_next3"]),
             turns=["top 3 request uris in the caddy log? drop the query string"]),
        case("h7-followup-rides-err-minute-zh", "followup", "按分钟呢，哪一分钟最多", [RA], [f["ra_err_peak"]],
             turns=["rides-api.log 里 ERROR 有多少条"]),
        case("h7-followup-kubelet-error-zh", "followup", "那 error 级别的呢", [KL], [str(f["kl_E"])],
             turns=["kubelet 日志 W 级别的有几条"]),
        case("h7-followup-503-other-log", "followup", "same for the other log", [CD, TR], [str(f["cd_503"])],
             turns=["how many 503s in the traefik log?"]),
        case("h7-followup-mysql-unresolved-first-zh", "followup", "它第一次出现是几点", [MY], [f["my_unres_first"]],
             turns=["mysql error log 里 MY-010055 解析失败最多的是哪个 IP"]),
        case("h7-followup-rabbit-least-user", "followup", "and the least?", [RB], [f["rb_least_user"]],
             turns=["rabbitmq: which user authenticated the most?"]),
        case("h7-followup-apache-denied-n-zh", "followup", "它一共被拒了几次", [AP], [str(f["ap_top_denied_n"])],
             turns=["apache error log 里 AH01630 被拒最多的 client 是哪个 IP"]),
        case("h7-followup-rides-slowest", "followup", "which path was that, and when?", [RA],
             [f["ra_slowest_path"], f["ra_slowest_at"]], turns=["slowest request in rides-api.log by latency_ms?"]),
        case("h7-followup-kubelet-probe-pod-zh", "followup", "按 pod 分呢，哪个 pod 最多", [KL],
             [f["kl_top_pod"].split("/")[1]], turns=['kubelet 里 "Probe failed" 一共多少条']),
        case("h7-followup-proc-count", "followup", "ok how many instances of it are up", [], ["{count:dock-beacon}"],
             turns=["is dock-beacon running?"], procs=[{"name": "dock-beacon", "count": 3, "args": ["--zone", "riverside"]}]),
        case("h7-followup-caddy-503-first-zh", "followup", "第一个是几点", [CD], [f["cd_first_503"]],
             turns=["caddy 日志 status 503 有几个", "都落在哪个 uri 上"]),
        # --- what happened around HH:MM, across two or three logs
        case("h7-timeline-0231", "timeline", "what happened around 02:31? kubelet on bk-node-4 and the admin apache error log",
             [KL, AP], [[f["kl_reclaim"], "2:31:06", f["kl_evict"]], EVICT, f["ap_first_00957"],
                        ["AH00957", "Connection refused", "connection refused"]]),
        case("h7-timeline-0312-zh", "timeline", "03:12 左右 mysql 和 rides-api 都发生了啥", [MY, RA],
             [f["my_first_full"], DISK_FULL, f["ra_first_pool"], ["pool timed out", "timed out"]]),
        case("h7-timeline-0313", "timeline", "what went on around 03:12-03:13? traefik, kubelet and rides-api, walk me through it in order", [TR, KL, RA],
             [f["tr_first_504"], f["kl_first_live"], ["Liveness", "liveness"], f["kl_kill"]]),
        case("h7-timeline-0325-zh", "timeline", "03:25 前后是不是恢复了？mysql、rides-api、traefik 三个对一下时间", [MY, RA, TR],
             [f["my_last_full"], f["ra_recovered"], ["pool recovered", "recovered", "恢复"], f["tr_last_504_rides"]]),
        case("h7-timeline-0405", "timeline", "anything around 4:05 in the rabbit log and rides-api?", [RB, RA],
             [f["rb_alarm_set"], ["memory resource limit alarm", "memory alarm", "alarm set"], f["ra_first_blocked"],
              ["publish blocked", "blocked"]]),
        case("h7-timeline-0406-zh", "timeline", "04:06 那会儿 caddy 的 unlock 为啥报错？rabbitmq 日志一起看看", [CD, RB],
             [f["rb_alarm_set"], ["alarm", "告警"], f["cd_first_503"]]),
        case("h7-timeline-0419", "timeline", "when did things clear up around 04:19? rabbitmq, caddy and rides-api", [RB, CD, RA],
             [f["cd_last_503"], f["rb_alarm_clear"], ["cleared", "clear"], f["ra_unblocked"]]),
        case("h7-timeline-0313-restart-zh", "timeline", "03:13 rides-api 的 pod 是不是被重启了？kubelet 和 rides-api 日志给个时间线",
             [KL, RA], [f["kl_kill"], ["Killing", "liveness", "Liveness"], f["ra_listening"],
                        ["listening on", "starting rides-api", "启动"]]),
        case("h7-timeline-0231-admin-zh", "timeline", "02:31 前后 admin 后台挂了，kubelet、apache、traefik 三个日志按时间排一下",
             [KL, AP, TR], [[f["kl_reclaim"], "2:31:06", f["kl_evict"]], ["fleet-admin"], f["ap_first_00957"],
                            f["tr_first_503"]]),
        case("h7-timeline-0405-three", "timeline", "timeline for ~04:05 pls: rabbitmq, rides-api, caddy", [RB, RA, CD],
             [f["rb_alarm_set"], f["ra_first_blocked"], f["cd_first_503"], ["unlock"]]),
        # --- incident summaries
        case("h7-incident-whole", "incident", "rough night. what was the root cause of the rides outage, in a few lines?",
             [MY, RA, TR, KL], [DISK_FULL, ["binlog"], ["504"], ["rides-api"]]),
        case("h7-incident-unlock-zh", "incident", "开锁失败那次帮我总结下原因 (rabbitmq + caddy + rides-api)", [RB, CD, RA],
             [["memory resource limit alarm", "memory alarm", "内存告警", "内存"], ["mq-2"], ["503"],
              ["Publishers will be blocked", "publish blocked", "blocked", "阻塞"]]),
        case("h7-incident-admin", "incident", "admin portal was down for a few minutes after half two -- what went wrong? kubelet + apache",
             [KL, AP], [EVICT, ["memory"], ["fleet-admin"], ["AH00957", "AH01114", "Connection refused", "connection refused"]]),
        case("h7-incident-rides-zh", "incident", "rides-api 这次故障总结一下，mysql、kubelet、rides-api 日志都在", [MY, KL, RA],
             [["binlog"], DISK_FULL, ["Liveness", "liveness", "存活探针"], ["pool timed out", "连接池"]]),
        case("h7-incident-traefik-zh", "incident", "traefik 那一大片 504 是咋回事？结合 mysql 和 rides-api 说说", [TR, MY, RA],
             [["rides@kubernetes", "docks@kubernetes"], ["pool timed out", "连接池"], DISK_FULL, ["binlog"]]),
        # --- the live machine
        case("h7-proc-count-zh", "process", "ride-ledger 现在跑了几个进程？", [], ["{count:ride-ledger}"],
             procs=[{"name": "ride-ledger", "count": 4, "args": ["--shard", "all"]}]),
        case("h7-proc-pid", "process", "whats the pid of tariff-sync", [], ["{pid:tariff-sync}"],
             procs=[{"name": "tariff-sync", "args": ["--interval", "45s"]}]),
        case("h7-proc-user", "process", "bay-monitor -- which user is it running under?", [], ["{user:bay-monitor}"],
             procs=[{"name": "bay-monitor", "args": ["--bays", "north"]}]),
        case("h7-socket-port-zh", "socket", "lockd-relay 在监听哪个端口", [], ["{port:lockd-relay}"],
             procs=[{"name": "lockd-relay", "listen": True}]),
        case("h7-disk-avail-pcent", "disk", "disk on / -- how much is free and what % is used?", [],
             ["{df:/:avail}", "{df:/:pcent}"]),
        case("h7-action-kill-gpsfeed-zh", "action", "gpsfeed-pump 又卡死了，把这个进程干掉吧", [],
             approval={"kill": "gpsfeed-pump"}, procs=[{"name": "gpsfeed-pump", "args": ["--feed", "fleet"]}]),
    ]
    return rows
