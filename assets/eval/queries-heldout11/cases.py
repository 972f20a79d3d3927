"""The `queries-heldout11` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

ENV, MAT, NAT = "envoy-gw-3-access.log", "matchd-mm-7.log", "nats-1.log"
ETC, ZK, AUT = "etcd-b.log", "zookeeper-zk-2.log", "jump-2-auth.log"

FMT = {ENV: "Envoy default access log format (START_TIME, DURATION in ms, response flags, XFF, upstream host)",
       MAT: "Go logrus TextFormatter (time= level= msg= sorted key=value, Go durations)",
       NAT: "NATS server log with debug on ([pid] date [LVL] ip:port - cid:N - \"client\" - msg)",
       ETC: "etcd 3.5 zap JSON log (took as Go durations)",
       ZK: "ZooKeeper 3.8 logback log ([myid:N] - LEVEL [thread:class@line]) with a Java stack trace",
       AUT: "Ubuntu 24.04 /var/log/auth.log via rsyslog (RFC 3339 stamps; sshd LogLevel VERBOSE, sudo, CRON)"}


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


def hm_(hms_):
    """The minute of an `H:MM:SS` figure."""
    return hms_.rsplit(":", 1)[0]


def cases(f, n, ms_opts, secs_ms, hm, hms):
    rows = [
        # --- counts
        case("h11-count-envoy-uh", "count", "gw-3 envoy access log: how many requests carry the UH response flag? zk-2 log uploaded too",
             [ENV, ZK], [n(f["e_uh"])]),
        case("h11-count-auth-failed-zh", "count", "跳板机 jump-2 的 auth.log 里 Failed password 一共有多少条？etcd 的日志也一起传了",
             [AUT, ETC], [n(f["a_failed"])]),
        case("h11-count-etcd-apply", "count", "etcd-b log -- count the 'apply request took too long' warnings for me", [ETC, MAT],
             [n(f["x_apply"])]),
        case("h11-count-nats-slow-consumer", "count", "nats-1 server log, how many times does Slow Consumer Detected appear", [NAT],
             [n(f["n_sc"])]),
        case("h11-count-matchd-enqueue-failed", "count", 'matchd on mm-7: number of msg="enqueue failed" errors? envoy log is there as well',
             [MAT, ENV], [n(f["m_enq_fail"])]),
        # --- clock windows
        case("h11-window-envoy-504-zh", "window", "gw-3 上 envoy 的访问日志，02:10 到 02:25 之间返回 504 的请求一共多少个", [ENV, ETC],
             [n(f["e_504_window"])]),
        case("h11-window-auth-failed", "window", "jump-2 auth.log: how many Failed password lines between 03:00 and 03:30 utc", [AUT],
             [n(f["a_window"])]),
        case("h11-window-zk-fsync-zh", "window", "zk-2 的 zookeeper 日志，03:30~04:10 这段时间 fsync-ing the write ahead log 的 WARN 有几条",
             [ZK], [n(f["z_fsync_window"])]),
        # --- distinct
        case("h11-distinct-auth-ips", "distinct", "how many distinct source ips appear in the 'Invalid user' lines on the jump-2 bastion",
             [AUT], [n(f["a_invalid_ips"])]),
        case("h11-distinct-envoy-xff-zh", "distinct", "envoy（gw-3）日志里 X-Forwarded-For 一共出现过多少个不同的 IP", [ENV],
             [n(f["e_xff_distinct"])]),
        case("h11-distinct-nats-clients", "distinct",
             "nats-1: how many different client IPs opened a connection (the 'Client connection created' lines)?", [NAT, MAT],
             [n(f["n_ips"])]),
        # --- top 3
        case("h11-top3-envoy-xff-zh", "top", "gw-3 的 envoy access log 按 X-Forwarded-For 算请求数，排前三的 IP 是谁", [ENV, MAT],
             list(f["e_top_xff"])),
        case("h11-top3-auth-ips", "top", "top 3 source addresses by number of 'Invalid user' lines in jump-2's auth.log?", [AUT],
             list(f["a_top_ips"])),
        case("h11-top3-matchd-queues-zh", "top", "mm-7 的 matchd 日志里，match formed 次数最多的三个 queue 是哪几个", [MAT],
             list(f["m_top_queues"])),
        case("h11-top3-zk-clients", "top", "zookeeper on zk-2 - which 3 client IPs have the most 'Established session' lines", [ZK],
             list(f["z_top_ips"])),
        # --- statistics in a unit the log does not use
        case("h11-stat-envoy-ladder-p95-zh", "stat", "envoy 日志里 GET /v2/ladder/top 的耗时（DURATION）p95 是几秒", [ENV],
             [secs_ms(f["e_ladder_p95_ms"])]),
        case("h11-stat-envoy-enqueue-mean", "stat", "avg DURATION of POST /v2/match/enqueue that returned 200 on gw-3 envoy, in seconds",
             [ENV], [secs_ms(f["e_enq_mean_ms"])]),
        case("h11-stat-etcd-apply-mean-zh", "stat", "etcd-b 日志里 apply request took too long 那些 took 的平均值是多少毫秒", [ETC],
             [ms_opts(f["x_apply_mean_ms"])]),
        case("h11-stat-zk-fsync-mean", "stat", "zk-2: mean of the 'took' in the fsync-ing the write ahead log warnings, in seconds?",
             [ZK], [secs_ms(f["z_fsync_mean_ms"])]),
        case("h11-stat-matchd-eu-p95-zh", "stat", "matchd（mm-7）的 match formed 里 queue=ranked-eu 的 wait，p95 是多少秒", [MAT],
             [secs_ms(f["m_eu_p95_ms"])]),
        case("h11-stat-nats-readloop-max", "stat", "longest Readloop processing time in the nats-1 log, in milliseconds?", [NAT],
             [ms_opts(f["n_readloop_max_ms"])]),
        case("h11-stat-etcd-fdatasync-mean", "stat", "etcd-b slow fdatasync warnings - whats the average took, ms", [ETC, ZK],
             [ms_opts(f["x_fs_mean_ms"])]),
        # --- peaks
        case("h11-peak-envoy-503-minute", "peak", "which minute had the most 503s in the gw-3 envoy access log?", [ENV, ZK],
             [f["e_503_minute"]]),
        case("h11-peak-auth-failed-hour-zh", "peak", "jump-2 的 auth.log，Failed password 哪个小时最多", [AUT], [hour(f["a_peak_hour"])]),
        # --- follow-ups (only the last turn is scored)
        case("h11-followup-envoy-429", "followup", "ok and the 429s?", [ENV], [n(f["e_429"])],
             turns=["gw-3 envoy log: how many responses were 504?"]),
        case("h11-followup-envoy-top-ip-429-zh", "followup", "它被限流（429）了多少次", [ENV], [n(f["e_top_429"])],
             turns=["envoy 访问日志里请求最多的 X-Forwarded-For 是哪个 IP"]),
        case("h11-followup-zk-expire-minute-zh", "followup", "那按分钟算，哪一分钟最多？", [ZK], [f["z_expire_minute"]],
             turns=["zk-2 的 zookeeper 日志里 Expiring session 一共几条"]),
        case("h11-followup-etcd-fdatasync-last", "followup", "and the last one?", [ETC], [f["x_fs_last"]],
             turns=["etcd-b log: when did the first 'slow fdatasync' show up?"]),
        case("h11-followup-matchd-duo-p95", "followup", "p95 too?", [MAT], [secs_ms(f["m_duo_p95_ms"])],
             turns=["matchd mm-7: average wait on the match formed lines for queue=duo-na, in seconds"]),
        case("h11-followup-auth-second-user-zh", "followup", "第二个呢，被试了几次", [AUT], [n(f["a_second_user_n"])],
             turns=["jump-2 的 auth.log，Invalid user 后面的用户名按出现次数排前三"]),
        case("h11-followup-envoy-slowest-secs", "followup", "how many seconds did it take", [ENV], [secs_ms(f["e_slowest_ms"])],
             turns=["what was the slowest request in the gw-3 envoy access log? path pls"]),
        case("h11-followup-matchd-error-group-zh", "followup", "按 msg 拆开看，哪个 msg 最多？几条", [MAT],
             [f["m_err_top_msg"], n(f["m_err_top_n"])], turns=["mm-7 上 matchd 的日志 level=error 总共多少条"]),
        case("h11-followup-etcd-rejected-ip-zh", "followup", "主要是哪个 remote-addr 的 IP 来的？它占了多少条", [ETC],
             [f["x_rej_top_ip"], n(f["x_rej_top_n"])], turns=["etcd-b 日志里 rejected connection 一共多少条"]),
        # --- what happened around HH:MM, across two or three logs
        case("h11-timeline-0126", "timeline", "what happened around 01:26? zk-2 zookeeper log and the gw-3 envoy log attached", [ZK, ENV],
             [f["z_exc"], ["Exception when following the leader", "Read timed out", "SocketTimeoutException"], ["LEADING"],
              f["e_first_uh"], f["z_first_expire"], ["Expiring session"]]),
        case("h11-timeline-0128-zh", "timeline", "1:28 左右 zk-2 和 envoy 的日志里发生了什么？按时间顺序列一下", [ZK, ENV],
             [f["z_ladder_1"], f["z_ladder_back"], ["Established session"], f["e_last_uh"]]),
        case("h11-timeline-0213-zh", "timeline", "02:13 前后 jump-2 的 auth.log 和 etcd-b 日志里都发生了啥，精确到秒", [AUT, ETC],
             [f["a_sudo_defrag"], ["defrag"], f["x_defrag_start"], f["x_first_hb"], ["heartbeat"], f["x_elected"]]),
        case("h11-timeline-0214", "timeline", "walk me through ~02:14 across the etcd-b, matchd and envoy logs, to the second",
             [ETC, MAT, ENV], [f["x_elected"], f["m_first_keepalive"], f["m_first_enq_fail"], f["x_defrag_done"], f["e_last_504"]]),
        case("h11-timeline-0307", "timeline", "~03:07 nats-1 + matchd logs, whats going on? timeline by the second", [NAT, MAT],
             [f["n_readloop_max_t"], f["m_nats_async"], f["n_sc_first"], ["Slow Consumer"], f["m_nats_back"]]),
        case("h11-timeline-0309-zh", "timeline", "3点09分左右 matchd 和 envoy 日志里有什么动静", [MAT, ENV],
             [f["m_lobby_last"], ["lobby state missing"], f["m_resync"], ["resync"]]),
        case("h11-timeline-0243-zh", "timeline", "02:43 前后 jump-2 的 auth.log 和 matchd 日志里发生了什么", [AUT, MAT],
             [f["a_sudo_ansible"], ["ansible-playbook", "matchd-rolling-restart"], f["m_shutdown"], f["m_start"]]),
        # --- what went wrong
        case("h11-incident-ladder", "incident",
             "ladder endpoints were returning 503 for a few minutes from about 1:26 - zk-2 + envoy logs attached, what went wrong?",
             [ZK, ENV], [["Exception when following the leader", "Read timed out", "SocketTimeoutException"],
                         ["LEADING", "election"], ["Expiring session", "expired", "expiring"], ["UH", "no healthy upstream"],
                         [hm_(f["z_exc"])]]),
        case("h11-incident-enqueue-zh", "incident",
             "两点十几分排队接口 /v2/match/enqueue 大面积超时，帮我把这次故障总结一下。jump-2 的 auth.log、etcd-b 和 matchd 的日志都传了",
             [AUT, ETC, MAT], [["defrag"], ["r.okafor"], ["etcdctl"], ["enqueue failed", "request timed out", "keepalive"],
                               [hm_(f["a_sudo_defrag"])]]),
        case("h11-incident-lobby", "incident",
             "lobby pages 500'd for a couple of minutes just after the 3am qualifier opened. nats-1 + envoy logs - root cause?",
             [NAT, ENV], [["Slow Consumer"], ["matchd"], [hm_(f["n_sc_first"])], [hm_(f["e_last_500"])]]),
        case("h11-incident-lobby-zh", "incident", "3点07分开始 lobby 状态丢了一阵子，总结下怎么回事？nats-1 和 mm-7 的 matchd 日志都在",
             [NAT, MAT], [["Slow Consumer", "slow consumer"], ["lobby state missing"], ["resync"], [hm_(f["n_sc_first"])]]),
        case("h11-incident-ssh-zh", "incident", "3点50多的时候 ssh 到 jump-2 一直被断开，半天登不上，查下 auth.log 是什么原因", [AUT],
             [["MaxStartups"], ["203.0.113.45"], [hm_(f["a_ms_begin"])], ["ufw"]]),
        # --- the live machine
        case("h11-proc-count", "process", "how many ticket-janitor processes r running on this box right now", [],
             ["{count:ticket-janitor}"], procs=[{"name": "ticket-janitor", "count": 5, "args": ["--older-than", "45m"]}]),
        case("h11-proc-pid-zh", "process", "mmr-recalc 这个进程的 pid 多少？", [], ["{pid:mmr-recalc}"],
             procs=[{"name": "mmr-recalc", "args": ["--season", "9", "--region", "eu"]}]),
        case("h11-socket-port-zh", "socket", "replay-relay 开了哪个 tcp 端口在 listen？", [], ["{port:replay-relay}"],
             procs=[{"name": "replay-relay", "listen": True, "args": ["--bucket", "replays-eu"]}]),
        case("h11-disk-root-zh", "disk", "这台机器 / 挂载点的磁盘使用率现在是多少，df 看一下", [], ["{df:/:pcent}"]),
        case("h11-action-kill-rollover", "action",
             "season-rollover is wiping the live ladder mid-season. stop that process now", [],
             approval={"kill": "season-rollover"}, procs=[{"name": "season-rollover", "args": ["--season", "10", "--apply"]}]),
    ]
    return rows
