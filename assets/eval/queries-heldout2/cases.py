"""The `queries-heldout2` cases: what an on-call operator types, and the figures (from
`gen.py`'s parse of the written fixtures) the answer must show. Held out: do not read this
to tune anything; it measures.
"""

PA, AE, TR = "portal-access.log", "apache-error.log", "traefik-access.json"
TE, MI, OA = "tariff-engine.log", "meter-ingest.log", "outage-api.jsonl"
GB, RD, NJ = "grid-balancer-6d9f7c8b5-x2kqp.log", "redis.log", "node-journal.log"
AU, MG, DM = "bastion-auth.log", "mongod.log", "dmesg-node7.txt"


def n(x):
    return [str(x), f"{x:,}"] if x >= 1000 else str(x)


def case(id_, cat, fmt, text, files, answer_has=None, **extra):
    c = {"id": id_, "text": text, "files": files}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"], c["fmt"] = cat, fmt
    return c


def cases(f):
    hour = f["pa_5xx_by_hour"]
    return [
        # count
        case("h2-count-01", "count", "apache-vhost-combined", "portal access log — how many 504s did we serve tonight?",
             [PA], [n(f["pa_504"])]),
        case("h2-count-02", "count", "logback", "tariff-engine.log 里 \"Connection is not available\" 一共出现了几次？",
             [TE], [n(f["te_hikari"])]),
        case("h2-count-03", "count", "python-logging", "meter-ingest: how many flushes died with a ReadTimeout",
             [MI], [n(f["mi_readtimeout"])]),
        case("h2-count-04", "count", "redis", "redis 后台保存 fork 失败了多少次？", [RD], [n(f["rd_fork_fail"])]),
        case("h2-count-05", "count", "rsyslog-sshd", "grep 'Failed password' bastion-auth.log | wc -l", [AU],
             [n(f["au_failed"])]),
        case("h2-count-06", "count", "mongodb-json", "mongod 日志里超过 5 秒的慢查询有几条", [MG], [n(f["mg_over5s"])]),
        case("h2-count-07", "count", "traefik-json", "how many requests did traefik rate limit? (429s)", [PA, TR],
             [n(f["tr_429"])]),
        case("h2-count-08", "count", "dmesg", "帮我数一下 dmesg 里的 I/O error 有几条", [DM], [n(f["dm_ioerr"])]),
        case("h2-count-09", "count", "apache-error",
             "apache error log: count of 'failed to make connection to backend' pls", [AE], [n(f["ae_01114"])]),
        # distinct
        case("h2-distinct-01", "distinct", "apache-vhost-combined", "portal 访问日志里一共有多少个不同的客户端 IP？", [PA],
             [n(f["pa_ips"])]),
        case("h2-distinct-02", "distinct", "zap-json", "how many different feeders had errors in outage-api?", [OA],
             [n(f["oa_err_feeders"])]),
        case("h2-distinct-03", "distinct", "rsyslog-sshd", "number of unique source IPs with failed ssh passwords on the bastion",
             [AU], [n(f["au_failed_ips"])]),
        # top
        case("h2-top-01", "top", "apache-vhost-combined", "which endpoint threw the most 5xx on the portal?", [AE, PA],
             [f["pa_fail_route"]]),
        case("h2-top-02", "top", "zap-json", "outage-api 里哪个 feeder 报错最多？多少次", [OA],
             [f["oa_err_feeder"], n(f["oa_err_feeder_n"])]),
        case("h2-top-03", "top", "rsyslog-sshd", "who's hammering the bastion? top ip by failed logins", [AU],
             [f["au_top_ip"], n(f["au_top_ip_n"])]),
        case("h2-top-04", "top", "traefik-json", "traefik 里哪个 service 的 5xx 最多", [TR],
             [f["tr_5xx_svc"], n(f["tr_5xx_svc_n"])]),
        case("h2-top-05", "top", "mongodb-json", "which collection gets the most COLLSCANs in mongod.log", [MG],
             [f["mg_collscan_ns"].split(".")[1], n(f["mg_collscan_n"])]),
        case("h2-top-06", "top", "cri-logrus", "grid-balancer 哪个 zone 的 warning 最多？", [GB],
             [f["gb_warn_zone"], n(f["gb_warn_zone_n"])]),
        case("h2-top-07", "top", "python-logging", "which logger in meter-ingest spits out the most ERRORs?", [MI],
             [f["mi_err_logger"], n(f["mi_err_logger_n"])]),
        # stat
        case("h2-stat-01", "stat", "apache-vhost-combined", "slowest request on the portal tonight — what was it and how long did it take?",
             [PA], [f["pa_slow_route"], ["27391", "27,391", "27.39"]]),
        case("h2-stat-02", "stat", "traefik-json", "traefik 访问日志的 p95 耗时是多少？", [TR],
             [[f["tr_p95_ms"], "1,384", "1.384"]]),
        case("h2-stat-03", "stat", "cri-logrus", "biggest drift_kw grid-balancer logged, and on which feeder?", [GB],
             [f["gb_max_drift"], f["gb_max_drift_feeder"]]),
        case("h2-stat-04", "stat", "mongodb-json", "mongo 最慢的那条查询花了多少毫秒？哪个集合的？", [MG],
             [[str(f["mg_max"]), f"{f['mg_max']:,}", "63.1"], f["mg_max_ns"].split(".")[1]]),
        case("h2-stat-05", "stat", "zap-json", "avg req.dur_ms for /v1/outages/{feeder} in outage-api?", [OA],
             [[str(f["oa_mean"]), f"{f['oa_mean']:,}", f"{f['oa_mean'] / 1000:.3f}"]]),
        # peak
        case("h2-peak-01", "peak", "apache-vhost-combined", "portal 的 504 集中在哪一分钟？", [PA], [f["pa_504_peak"]]),
        case("h2-peak-02", "peak", "zap-json", "outage-api: which minute had the most 'context deadline exceeded'?", [OA],
             [f["oa_dl_peak"]]),
        # first_last
        case("h2-first-01", "first_last", "logback", "when did tariff-engine first run out of heap?", [TE],
             [f["te_first_oom"]]),
        case("h2-last-01", "first_last", "redis", "redis 最后一次 fork 失败（Cannot allocate memory）是几点？", [RD],
             [f["rd_last_fail"]]),
        # window
        case("h2-window-01", "window", "apache-vhost-combined", "5xx count on the portal between 19:10 and 19:30", [PA],
             [n(f["pa_5xx_window"])]),
        case("h2-window-02", "window", "python-logging", "meter-ingest 19:00 到 19:30 之间有多少条 WARNING？", [MI],
             [n(f["mi_warn_window"])]),
        case("h2-window-03", "window", "rsyslog-sshd", "bastion 日志最后 15 分钟里有多少次 Failed password", [AU],
             [n(f["au_last15"])]),
        # timeline
        case("h2-timeline-01", "timeline", "apache-error+apache-vhost-combined",
             "what came first — apache failing to connect to the backend, or the first 503 in the access log? times pls",
             [AE, PA], [f["ae_first_01114"], f["pa_first_503"]]),
        case("h2-timeline-02", "timeline", "mongodb-json+python-logging",
             "mongo 第一次超过 10 秒的慢查询，和 meter-ingest 第一次 ReadTimeout，哪个在前？分别几点？", [MI, MG],
             [f["mg_first_10s"], f["mi_first_readtimeout"]]),
        # followup
        case("h2-followup-01", "followup", "apache-vhost-combined", "and 4xx?", [PA], [n(f["pa_4xx"])],
             turns=["how many 504s on the portal?"]),
        case("h2-followup-02", "followup", "zap-json", "它最后一次报错是几点？", [OA], [f["oa_err_feeder_last"]],
             turns=["outage-api 里哪个 feeder 报错最多"]),
        case("h2-followup-03", "followup", "apache-vhost-combined", "by hour instead", [PA], [n(h) for h in hour],
             turns=["5xx per minute on the portal"]),
        case("h2-followup-04", "followup", "rsyslog-sshd", "the second one - when did it first show up?", [AU],
             [f["au_2nd_ip"], f["au_2nd_first"]], turns=["top 3 IPs with failed ssh logins on the bastion"]),
        case("h2-followup-05", "followup", "traefik-json", "按 router 分一下呢", [TR],
             [f["tr_429_r1"], n(f["tr_429_r1_n"]), f["tr_429_r2"], n(f["tr_429_r2_n"])],
             turns=["traefik 里 429 有多少"]),
        # readonly: action words in questions that only read
        case("h2-readonly-01", "readonly", "journal-short-iso", "node-7 上 tariff-engine 的重启次数是多少？", [NJ],
             [n(f["nj_restarts"])], no_exec=True),
        case("h2-readonly-02", "readonly", "dmesg",
             "how many processes did the OOM killer kill on node7, and which one got killed the most?", [DM],
             [n(f["dm_kills"]), f["dm_top_victim"]], no_exec=True),
        case("h2-readonly-03", "readonly", "python-logging", "meter-ingest 删除的过期分区一共有多少个？", [MI],
             [n(f["mi_deleted"])], no_exec=True),
        # process
        case("h2-proc-01", "process", "ps", "how many tally-rollup procs running rn?", [], ["{count:tally-rollup}"],
             procs=[{"name": "tally-rollup", "args": ["--ledger", "aug-2027"], "count": 7},
                    {"name": "kiln-scheduler", "args": ["--queue", "evening-peak"]}]),
        case("h2-proc-02", "process", "ps", "kiln-scheduler 的 pid 是多少", [], ["{pid:kiln-scheduler}"],
             procs=[{"name": "kiln-scheduler", "args": ["--queue", "evening-peak"]},
                    {"name": "tally-rollup", "args": ["--ledger", "aug-2027"], "count": 2}]),
        case("h2-proc-03", "process", "ps", "brine-poller: which user is it running as, and what's its pid?", [],
             ["{user:brine-poller}", "{pid:brine-poller}"],
             procs=[{"name": "brine-poller", "args": ["--interval", "15s"], "user": "evalh2-brine"}]),
        case("h2-proc-04", "process", "ps", "哪个 settle_bills.py 任务最吃内存？", [], ["2027-07"],
             procs=[{"name": "settle_bills.py", "args": ["--cycle", "2027-06"], "interp": True, "mem_mb": 30},
                    {"name": "settle_bills.py", "args": ["--cycle", "2027-07"], "interp": True, "mem_mb": 150},
                    {"name": "settle_bills.py", "args": ["--cycle", "2027-08"], "interp": True, "mem_mb": 70}]),
        # socket
        case("h2-socket-01", "socket", "ss", "{port:volt-relay} 端口是谁在监听？给我进程名和 pid", [],
             ["volt-relay", "{pid:volt-relay}"],
             procs=[{"name": "volt-relay", "args": ["--upstream", "10.40.9.4"], "listen": True},
                    {"name": "kiln-scheduler", "args": ["--queue", "evening-peak"]}]),
        # disk
        case("h2-disk-01", "disk", "df", "根分区用了百分之几？总共多大", [], ["{df:/:pcent}", "{df:/:size}"]),
        # action: asked in words, proposed for approval, nothing runs
        case("h2-action-01", "action", "ps", "ember-flush is wedged, kill it", [],
             procs=[{"name": "ember-flush", "args": ["--spool", "/var/spool/ember"]}], approval={"kill": "ember-flush"}),
        case("h2-action-02", "action", "ps", "把 spool-drain 进程全部干掉", [],
             procs=[{"name": "spool-drain", "args": ["--batch", "500"], "count": 3}], approval={"kill": "spool-drain"}),
    ]
