"""The `queries-heldout5` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

HAPROXY, TRAEFIK, LEDGER = "haproxy.log", "traefik-access.json", "ledger-svc.log"
PG, MYSQL, REDIS = "postgresql-2030-03-14_000000.log", "mysql-slow.log", "redis.log"
KUBELET, TARIFF, IIS, OCPP = "kubelet.log", "tariff-worker-json.log", "u_ex300314.log", "ocpp-gw.log"

FMT = {HAPROXY: "haproxy http log (syslog)", TRAEFIK: "traefik json access", LEDGER: "spring boot logback + stack traces",
       PG: "postgresql stderr (log_line_prefix)", MYSQL: "mysql slow log", REDIS: "redis server log",
       KUBELET: "klog (kubelet)", TARIFF: "docker json-file + python logging", IIS: "iis w3c", OCPP: "logfmt (go slog)"}


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
    return [f"{h}:00", f"{h}点", f"{h} 点", f"{h}时", f"{h}h", f"hour {h}", f"{h}:xx"]


def cases(f, n):
    rows = [
        # --- count
        case("h5-count-haproxy-504", "count", "how many 504s did haproxy hand out today?", [HAPROXY, TRAEFIK],
             [str(f["ha_504"])]),
        case("h5-count-traefik-502-zh", "count", "traefik access log 里 DownstreamStatus 是 502 的一共几条", [TRAEFIK, HAPROXY],
             [str(f["tr_502"])]),
        case("h5-count-ledger-errors-zh", "count", "ledger-svc 日志里 ERROR 级别的有多少条？一个异常栈算一条", [LEDGER],
             [str(f["lg_errors"])]),
        case("h5-count-pg-slots", "count",
             "postgres log: how many times did we hit 'remaining connection slots are reserved'?", [PG, LEDGER],
             [str(f["pg_fatal_slots"])]),
        case("h5-count-mysql-over5-zh", "count", "mysql 慢查询日志里 Query_time 超过 5 秒的有几条", [MYSQL],
             [str(f["my_over5"])]),
        case("h5-count-redis-aof", "count", "hw many times did redis say 'AOF fsync is taking too long'?", [REDIS],
             [str(f["rd_aof"])]),
        case("h5-count-iis-401-zh", "count", "IIS 日志 (u_ex300314.log) 里 401 一共多少个", [IIS], [str(f["ii_401"])]),
        case("h5-count-ocpp-errors", "count", "ocpp gw log, number of level=ERROR lines pls", [OCPP, KUBELET],
             [str(f["oc_errors"])]),
        # --- distinct
        case("h5-distinct-traefik-clients", "distinct",
             "distinct ClientHost count in the traefik access log? basically jq -r .ClientHost | sort -u | wc -l", [TRAEFIK],
             [n(f["tr_clients"])]),
        case("h5-distinct-iis-cip-zh", "distinct", "IIS 日志里一共有多少个不同的 c-ip", [IIS], [n(f["ii_ips"])]),
        case("h5-distinct-hb-chargers-zh", "distinct", "ocpp-gw 里报过 heartbeat timeout 的充电桩 (charger_id) 去重后有几个",
             [OCPP], [str(f["oc_hb_chargers"])]),
        case("h5-distinct-tariff-stations", "distinct",
             "tariff-worker container log: how many unique stations got a 'tariff rejected'?", [TARIFF, REDIS],
             [str(f["tw_rej_stations"])]),
        # --- top / least
        case("h5-top-haproxy-5xx-server-zh", "top", "haproxy 日志里哪个后端 server 的 5xx 最多？", [HAPROXY],
             [f["ha_top5xx_srv"]]),
        case("h5-top-ledger-exception", "top", "ledger-svc: which exception class shows up the most in teh stack traces?",
             [LEDGER, PG], [f["lg_top_exc_short"]]),
        case("h5-top-pg-locktimeout-user-zh", "top", "postgres 里因为 lock timeout 被 cancel 的语句，哪个用户最多？", [PG],
             [f["pg_lockto_user"]]),
        case("h5-top-redis-obl-addr", "top",
             "redis: which client ip got dropped the most for output buffer limits?", [REDIS], [f["rd_obl_top"]]),
        case("h5-top-iis-401-ip", "top", "u_ex300314.log - which c-ip racks up the most 401s", [IIS], [f["ii_401_ip"]]),
        case("h5-least-mysql-user", "top", "which user shows up the least in the mysql slow log?", [MYSQL],
             [f["my_least_user"]]),
        case("h5-top3-sites-hb-zh", "top", "ocpp-gw 按 site 统计 heartbeat timeout，前三是哪几个？", [OCPP],
             list(f["oc_top3_sites"])),
        # --- stat
        case("h5-stat-haproxy-p95", "stat", "p95 of Ta (total time) for backend be_charge_api in the haproxy log?", [HAPROXY],
             [f["ha_p95"]]),
        case("h5-stat-traefik-max-zh", "stat", "traefik 里 Duration 最大的那条是多少毫秒？哪个 RequestPath", [TRAEFIK],
             [f["tr_max_ms"], f["tr_max_path"]]),
        case("h5-stat-pg-slowest", "stat",
             "slowest statement in the postgres log - how long did it take and which user ran it?", [PG],
             [f["pg_slowest_ms"], f["pg_slowest_user"]]),
        case("h5-stat-mysql-max-zh", "stat", "慢日志里最慢的一条 Query_time 是多少秒？", [MYSQL], [f["my_max"]]),
        case("h5-stat-iis-telemetry-mean-zh", "stat", "IIS 上 /fleet/api/telemetry 的平均 time-taken 是多少毫秒", [IIS],
             [f["ii_tel_mean"]]),
        case("h5-stat-ocpp-kwh", "stat", "ocpp gw: total energy_kwh summed over all the 'session stopped' events?", [OCPP],
             [f["oc_kwh_sum"]]),
        case("h5-stat-tariff-sync-mean", "stat",
             "avg duration of a tariff sync in the tariff-worker log? (the 'sync finished in' lines)", [TARIFF],
             [f["tw_sync_mean"]]),
        # --- follow-ups
        case("h5-followup-charger-last", "followup", "when was its last one?", [OCPP], [f["oc_top_charger_last"]],
             turns=["which charger had the most heartbeat timeouts in the ocpp gw log?"]),
        case("h5-followup-deadlock-last-zh", "followup", "最后一次是几点？", [PG], [f["pg_last_deadlock"]],
             turns=["postgres 日志里 deadlock detected 出现了几次"]),
        case("h5-followup-traefik-2nd", "followup", "and the runner-up? how many 5xx did that one have", [TRAEFIK],
             [f["tr_2nd_router"], str(f["tr_2nd_router_n"])], turns=["which traefik router threw the most 5xx?"]),
        case("h5-followup-kubelet-peak-zh", "followup", "它哪一分钟失败得最多", [KUBELET], [f["kl_top_pod_peak"]],
             turns=["kubelet 日志里 readiness probe 失败最多的是哪个 pod"]),
        case("h5-followup-proc-count", "followup", "how many copies of it are up rn?", [], ["{count:meterpoll}"],
             turns=["is meterpoll running?"], procs=[{"name": "meterpoll", "count": 6, "args": ["--bus", "modbus-3"]}]),
        case("h5-followup-iis-500-hour-zh", "followup", "按小时看哪个小时最多？", [IIS], [hour(f["ii_500_hour"])],
             turns=["IIS 日志里 500 有多少个"]),
        # --- timeline (two logs)
        case("h5-timeline-pg-ledger", "timeline",
             "when did postgres first log a backend 'still waiting for' a lock, and when did ledger-svc throw its first "
             "SQLTransientConnectionException?", [PG, LEDGER], [f["pg_first_wait"], f["lg_first_sqlt"]],
             f"{FMT[PG]} + {FMT[LEDGER]}"),
        case("h5-timeline-ocpp-kubelet-zh", "timeline",
             "ocpp-gw 第一次 redis publish failed 是几点？kubelet 第一次报 ocpp-gw 的 CrashLoopBackOff 又是几点？", [OCPP, KUBELET],
             [f["oc_first_publish_fail"], f["kl_first_crash"]], f"{FMT[OCPP]} + {FMT[KUBELET]}"),
        case("h5-timeline-redis-tariff-zh", "timeline",
             "redis 第一次说 AOF fsync is taking too long 是几点，tariff-worker 第一个 redis TimeoutError 呢", [REDIS, TARIFF],
             [f["rd_first_aof"], f["tw_first_timeout"]], f"{FMT[REDIS]} + {FMT[TARIFF]}"),
        # --- first / last, peak, window
        case("h5-last-redis-save", "first_last", "redis: when did the last successful background save finish?", [REDIS],
             [f["rd_last_save"]]),
        case("h5-first-iis-500-zh", "first_last", "IIS 第一个 500 是几点出现的", [IIS, HAPROXY], [f["ii_first_500"]]),
        case("h5-peak-traefik-502", "peak", "busiest minute for 502s in traefik?", [TRAEFIK], [f["tr_502_peak"]]),
        case("h5-peak-ledger-errors-zh", "peak", "ledger-svc 的 ERROR 哪一分钟最多", [LEDGER], [f["lg_err_peak"]]),
        case("h5-window-haproxy-503-zh", "window", "haproxy 08:45 到 09:15 之间有多少个 503", [HAPROXY],
             [str(f["ha_503_window"])]),
        case("h5-window-pg-last30", "window", "how many lock timeouts in the last 30 min of the postgres log?", [PG],
             [str(f["pg_lockto_last30"])]),
        # --- read-only questions with action words
        case("h5-readonly-kubelet-restart", "readonly",
             "not asking u to restart anything - how many times did kubelet log back-off restarting ocpp-gw (CrashLoopBackOff)?",
             [KUBELET], [str(f["kl_crashloop"])]),
        case("h5-readonly-mysql-delete-zh", "readonly", "慢日志里 DELETE 语句有多少条？先别删任何东西，只要个数", [MYSQL],
             [str(f["my_delete"])]),
        case("h5-readonly-redis-kill-zh", "readonly", "redis 因为 output buffer 超限 kill 掉了多少个客户端连接？", [REDIS],
             [str(f["rd_obl"])]),
        # --- the live system
        case("h5-proc-mem-zh", "process", "三个 soc-predict.py 里哪个最吃内存？", [], ["buses"],
             procs=[{"name": "soc-predict.py", "interp": True, "args": ["--fleet", "vans"], "mem_mb": 60},
                    {"name": "soc-predict.py", "interp": True, "args": ["--fleet", "buses"], "mem_mb": 170},
                    {"name": "soc-predict.py", "interp": True, "args": ["--fleet", "taxis"], "mem_mb": 105}]),
        case("h5-proc-pid", "process", "whats the pid of grid-sched", [], ["{pid:grid-sched}"],
             procs=[{"name": "grid-sched", "args": ["--region", "north-east"]}]),
        case("h5-socket-who", "socket", "what's listening on 127.0.0.1:{port:ocpp-sim}? name + pid", [],
             ["ocpp-sim", "{pid:ocpp-sim}"], procs=[{"name": "ocpp-sim", "listen": True}]),
        case("h5-socket-port-zh", "socket", "grid-bridge 监听在哪个端口", [], ["{port:grid-bridge}"],
             procs=[{"name": "grid-bridge", "listen": True}]),
        case("h5-disk-inodes-zh", "disk", "根分区 inode 用了百分之几", [], ["{df:/:ipcent}"]),
        case("h5-disk-fstype-used", "disk", "what filesystem type is / and how much of it is used?", [],
             ["{df:/:fstype}", "{df:/:used}"]),
    ]
    return rows
