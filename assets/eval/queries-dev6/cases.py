"""The `queries-dev6` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

HA, PG, RD = "haproxy.log", "postgresql-16-main.log", "redis-server.log"
DK, DP, ES = "ride-api-json.log", "dispatcher.log", "elasticsearch.json"

FMT = {HA: "haproxy http log via syslog", PG: "postgresql stderr (%m [%p] %q%u@%d)", RD: "redis server log",
       DK: "docker json-file wrapping python logging", DP: "go logrus text", ES: "elasticsearch 8 ecs json"}


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


def tz(t, h):
    """A UTC clock time, or the same time shifted into the zone the question used (`h` hours ahead)."""
    hh, rest = t.split(":", 1)
    local = (int(hh) + h) % 24
    return [t, f"{local}:{rest}", f"{local % 12 or 12}:{rest}"]


def cases(f, n):
    rows = [
        # --- one-shot questions over one log
        case("d6-count-pg-fatal", "count", "how many FATAL lines in the postgres log", [PG, HA], [str(f["pg_fatal"])]),
        case("d6-count-rideapi-errors-zh", "count", "ride-api 容器日志 ERROR 几条？traceback 跟着那条算一条就行", [DK],
             [str(f["dk_err"])]),
        case("d6-count-redis-fork-zh", "count", "redis 日志里 fork: Cannot allocate memory 一共出现几次", [RD, DP],
             [str(f["rd_fork"])]),
        case("d6-window-haproxy-5xx-zh", "window", "haproxy 02:40 到 03:00 之间 5xx 一共多少个", [HA],
             [str(f["ha_5xx_window"])]),
        case("d6-window-dispatcher-errors", "window", "dispatcher.log - level=error count between 1:30 and 2:00?", [DP, ES],
             [str(f["dp_window"])]),
        case("d6-distinct-haproxy-clients", "distinct", "unique client ips in the haproxy log? (the ip before the :port)", [HA],
             [n(f["ha_ips"])]),
        case("d6-distinct-dispatcher-bikes-zh", "distinct", "dispatcher 日志里出现过多少辆不同的 bike", [DP],
             [str(f["dp_bikes"])]),
        case("d6-top3-haproxy-servers", "top", "top 3 backend servers by request count in haproxy.log", [HA],
             list(f["ha_top_srv"])),
        case("d6-top-pg-slow-user-zh", "top", "postgres 里 duration 慢日志哪个用户最多", [PG], [f["pg_top_user"]]),
        case("d6-top-es-warn-logger", "top", "es log: which log.logger throws the most WARN", [ES],
             [f["es_top_warn_logger"]]),
        case("d6-stat-haproxy-docks-p95", "stat", "p95 Tr for be_docks 200s in haproxy, in seconds", [HA],
             [f["ha_docks_p95"]]),
        case("d6-stat-pg-max-dur-zh", "stat", "pg 日志里最慢的一条 SQL 花了几秒", [PG], [f["pg_max_dur"]]),
        case("d6-stat-rideapi-end-mean", "stat", "avg dur_ms of POST /v2/rides/end in the ride-api container log, in secs", [DK],
             [f["dk_end_mean"]]),
        case("d6-stat-rideapi-nearby-max-zh", "stat", "ride-api 里 /v2/docks/nearby 最慢一次多少秒", [DK], [f["dk_near_max"]]),
        case("d6-peak-haproxy-503-minute", "peak", "which minute had the most 503s? haproxy", [HA], [f["ha_503_peak"]]),
        case("d6-peak-dispatcher-warn-hour-zh", "peak", "dispatcher 的 level=warning 按小时哪个小时最多", [DP],
             [hour(f["dp_warn_hour"])]),
        # --- follow-ups (only the last turn is scored)
        case("d6-followup-404-second", "followup", "the second one - how many", [HA], [str(f["ha_404_2nd_n"])],
             turns=["top 3 paths returning 404 in the haproxy log"]),
        case("d6-followup-pg-slowest-when-zh", "followup", "几点跑的？", [PG], [f["pg_max_at"]],
             turns=["postgres 日志里 duration 最长的那条是哪个用户跑的"]),
        case("d6-followup-haproxy-504", "followup", "and 504s?", [HA], [str(f["ha_504"])],
             turns=["how many 503s did haproxy log"]),
        case("d6-followup-haproxy-5xx-zh", "followup", "那 5xx 呢", [HA], [str(f["ha_5xx"])],
             turns=["haproxy 里 503 有多少"]),
        case("d6-followup-dock-last", "followup", "when was its last one", [DP], [f["dp_top_dock_last"]],
             turns=["dispatcher: which dock had the most 'reserve dock slot failed' errors"]),
        case("d6-followup-rideapi-logger-count-zh", "followup", "它呢，一共几条", [DK], [str(f["dk_top_logger_n"])],
             turns=["ride-api 容器日志里 ERROR 最多的是哪个 logger"]),
        case("d6-followup-redis-bgsave-ok", "followup", "ok and when did a bgsave finally go through after that?", [RD],
             [f["rd_ok"]], turns=["redis log - how many times did background saving fail with a fork error"]),
        case("d6-followup-dispatcher-err-hour-zh", "followup", "按小时呢？哪个小时最多", [DP], [hour(f["dp_err_hour"])],
             turns=["dispatcher 日志 level=error 一共多少"]),
        case("d6-followup-es-then-redis", "followup", "same for the redis log (the # ones)", [ES, RD], [str(f["rd_warn"])],
             turns=["es log: how many WARN lines?"]),
        case("d6-followup-server-second-zh", "followup", "第二个呢，它一共多少请求", [HA], [n(f["ha_2nd_srv_n"])],
             turns=["haproxy 按 server 请求量前三是哪几个"]),
        case("d6-followup-proc-user", "followup", "which user's it running as", [], ["{user:ledgerd}"],
             turns=["is ledgerd up?"], procs=[{"name": "ledgerd", "args": ["--zone", "quillmoor-north"]}]),
        case("d6-followup-pg-ckpt-mean-zh", "followup", "那平均每次 wrote 多少 buffers", [PG], [n(f["pg_ckpt_mean"])],
             turns=["postgres 一共做了几次 checkpoint", "checkpoint complete 的 write 时间最长的是哪次"]),
        # --- what happened around HH:MM, across two or three logs
        case("d6-timeline-0247", "timeline", "what happened around 02:47 across the haproxy and postgres logs", [HA, PG],
             [f["pg_deadlock"], ["deadlock"], f["pg_first_toomany"], ["too many clients"], f["ha_first_503"]]),
        case("d6-timeline-0247-zh", "timeline", "在 02:47 前后 ride-api 和 postgres 发生了什么", [DK, PG],
             [f["pg_deadlock"], f["pg_first_toomany"], f["dk_first_db"], ["OperationalError", "too many clients"]]),
        case("d6-timeline-0134", "timeline", "what happened around 01:34? es + dispatcher logs", [ES, DP],
             [f["es_high"], ["high disk watermark"], f["es_flood"], ["flood stage", "flood-stage"]]),
        case("d6-timeline-0141-zh", "timeline", "01:40 左右 ES 集群怎么了，dispatcher 那边有没有受影响", [ES, DP],
             [f["es_yellow"], ["YELLOW", "yellow"], ["cluster_block_exception", "read-only", "bulk index failed"]]),
        case("d6-timeline-0310", "timeline", "what was redis doing a few minutes before 3:15? dispatcher log attached too",
             [RD, DP], [f["rd_first_fork"], ["Cannot allocate memory", "fork"], f["dp_first_mis"], ["MISCONF"]]),
        case("d6-timeline-0317-zh", "timeline", "03:17 那会儿 redis 恢复了吗？跟 dispatcher 对一下时间", [RD, DP],
             [f["rd_ok"], f["dp_last_mis"], f["dp_resumed"]]),
        case("d6-timeline-0258", "timeline", "around 2:58 - postgres and ride-api, what happened", [PG, DK],
             [f["pg_shutdown"], ["shutdown", "shut down"], f["pg_ready"], f["dk_reconnect"]]),
        case("d6-timeline-0242-zh", "timeline", "帮我看下 02:42 前后 postgres 有啥异常，haproxy 也传了", [PG, HA],
             [f["pg_toofreq"], ["too frequently"], f["pg_max_at"], ["billing_batch"]]),
        case("d6-timeline-0112", "timeline", "redis replica blip around 1:12 utc? timeline pls, redis + dispatcher", [RD, DP],
             [f["rd_lost"], ["lost"], f["dp_replica"], f["rd_sync_ok"]]),
        case("d6-timeline-bjt-0936-zh", "timeline", "北京时间早上 9:36 左右 ES 和 dispatcher 出了啥事", [ES, DP],
             [tz(f["es_flood"], 8), ["flood stage", "flood-stage", "read-only"], tz(f["dp_first_block"], 8)]),
        case("d6-timeline-edt-2247", "timeline",
             "what happened around 10:47pm EDT last night? haproxy + the ride-api container log", [HA, DK],
             [tz(f["dk_first_db"], -4), ["too many clients", "OperationalError"], tz(f["ha_first_503"], -4), ["503"]]),
        case("d6-timeline-0331-zh", "timeline", "03:31 左右 ES 和 dispatcher 有什么动静", [ES, DP],
             [f["es_gc_old"], ["gc", "GC"], f["dp_first_search"], ["timed out", "timeout", "超时"]]),
        # --- incident summaries
        case("d6-incident-0247", "incident", "rides were failing for like 10 min before 3. what went wrong? haproxy, pg, ride-api",
             [HA, PG, DK], [["billing_batch"], ["too many clients"], ["503"]]),
        case("d6-incident-pg-zh", "incident", "总结一下这次故障 (postgres + ride-api 日志)", [PG, DK],
             [["billing_batch"], ["deadlock", "死锁"], ["too many clients", "连接数"], ["2:47"]]),
        case("d6-incident-redis", "incident", "reservations broke around 3am - redis + dispatcher. root cause?", [RD, DP],
             [["fork"], ["Cannot allocate memory", "allocate memory", "out of memory", "内存"], ["MISCONF"]]),
        case("d6-incident-es-zh", "incident", "dock events 写不进 ES 了，总结下原因 (es + dispatcher)", [ES, DP],
             [["flood stage", "flood-stage"], ["es-data-2"], ["read-only", "read_only", "只读"]]),
        case("d6-incident-night", "incident", "short summary of everything that went wrong tonight pls", [HA, PG, RD, DP, ES],
             [["too many clients"], ["MISCONF", "Cannot allocate memory"], ["flood stage", "flood-stage", "disk watermark"]]),
        case("d6-incident-0310-zh", "incident", "凌晨三点多 reservation 失败，根因是啥？redis、dispatcher、ride-api 都在", [RD, DP, DK],
             [["fork", "Cannot allocate memory"], ["MISCONF"], ["3:09", "3:10"]]),
        # --- the live machine
        case("d6-proc-count", "process", "how many saddle-sync procs r running", [], ["{count:saddle-sync}"],
             procs=[{"name": "saddle-sync", "count": 3, "args": ["--fleet", "qm-north"]}]),
        case("d6-proc-pid-zh", "process", "tariffd 的 pid 多少", [], ["{pid:tariffd}"],
             procs=[{"name": "tariffd", "args": ["--zones", "all"]}]),
        case("d6-socket-port-zh", "socket", "beacon-gw 在听哪个端口", [], ["{port:beacon-gw}"],
             procs=[{"name": "beacon-gw", "listen": True}]),
        case("d6-action-kill-rebal", "action", "rebal-worker is stuck again, just nuke it", [],
             approval={"kill": "rebal-worker"}, procs=[{"name": "rebal-worker", "args": ["--zone", "harbour"]}]),
    ]
    return rows
