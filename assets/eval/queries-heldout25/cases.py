"""The `queries-heldout25` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

PM, MQ, AST = "pacemaker.log", "rabbit@fh-mq-2.log", "full"

FMT = {PM: "Pacemaker 2.0 pacemaker.log of the DC ('Mon DD HH:MM:SS.mmm node daemon[pid] (function) \\tlevel: message', "
           "daemon padded to 20 columns): attrd Setting lines, CIB diffs, scheduler runs (Calculated transition), "
           "execd log_finished exec-time, throttle 'High CPU load detected', a failed monitor and stop, fencing, a node rejoining",
       MQ: "RabbitMQ 3.12 default file log ('YYYY-MM-DD hh:mm:ss.uuuuuu+00:00 [level] <pid> message', each line of a "
           "multi-line message prefixed): AMQP connections accepted/authenticated/closed, PLAIN login refused, channel "
           "errors, missed heartbeats, the memory alarm with its asterisk banner",
       AST: "Asterisk 20 'full' log with dateformat=%F %T ('[date time] LEVEL[lwp][C-callid] source: message'): dialplan "
            "VERBOSE Executing lines, app_queue/bridge lines, PJSIP NOTICEs, the h extension's fh-summary.agi line a call "
            "through AGI VERBOSE (call-summary queue= caller= hold= talk= status= agent=), taskprocessor WARNINGs, "
            "chan_pjsip ERRORs, a restart"}


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
    rows = [
        # ------------------------------------------------------------ pacemaker.log (the DC, pbx-ha-3)
        case("h25-pm-count-highcpu", "count", "pacemaker",
             "how many 'High CPU load detected' notices are in pacemaker.log?", [PM], [n(f["p_highcpu"])]),
        case("h25-pm-count-transitions-zh", "count", "pacemaker",
             "pacemaker.log 里 schedulerd 一共 Calculated transition 了多少次？", [PM, MQ], [n(f["p_transitions"])]),
        case("h25-pm-sum-exec", "sum", "pacemaker",
             "add up the exec-time of every log_finished line in pacemaker.log, whats the total in ms", [PM],
             [f["p_exec_sum"]]),
        case("h25-pm-max-load-zh", "stat", "pacemaker",
             "pacemaker.log 里 High CPU load detected 最高到过多少？是几点几分几秒？", [PM],
             [f["p_maxload"], f["p_maxload_at"]]),
        case("h25-pm-avg-load", "stat", "pacemaker",
             "what's the average of all the 'High CPU load detected' values in the pacemaker log?", [PM],
             [f["p_avgload"]]),
        case("h25-pm-top-attr", "top", "pacemaker",
             "attrd keeps setting some node attribute over and over in pacemaker.log... which attribute gets set the most?",
             [PM, AST], [f["p_top_attr"]]),
        case("h25-pm-first-monfail", "first", "pacemaker",
             "when did the asterisk monitor first fail on pbx-ha-2? exact time please", [PM, AST], [f["p_mon_fail"]]),
        case("h25-pm-first-rejoin-zh", "first", "pacemaker",
             "pbx-ha-2 被 fence 之后是几点重新回到集群的？（Node pbx-ha-2 state is now member 那条）精确到秒", [PM],
             [f["p_rejoin"]]),
        case("h25-pm-last-pingd-zh", "last", "pacemaker",
             "pbx-ha-1 的 pingd 最后一次从 1000 掉到 0 是什么时候？精确到秒", [PM], [f["p_last_pingd"]]),
        case("h25-pm-timeline-zh", "timeline", "pacemaker",
             "02:10 到 02:20 之间集群里发生了什么？按时间顺序列一下关键事件，每条带上时间（精确到秒）", [PM],
             [f["tl_pm"][0], f["tl_pm"][1], f["tl_pm"][2], f["tl_pm"][3]]),
        case("h25-pm-timeline-cross", "timeline", "pacemaker",
             "line up rabbit@fh-mq-2.log, pacemaker.log and the asterisk full log for me, to the second: when rabbit's memory "
             "alarm went on the second time, when the asterisk monitor failed on pbx-ha-2, when the fencing of pbx-ha-2 "
             "completed, when asterisk logged 'Asterisk Ready.' again, and when rabbit's memory alarm finally cleared",
             [PM, MQ, AST], [f["tl_x"][0], f["tl_x"][1], f["tl_x"][2], f["tl_x"][3], f["tl_x"][4]]),
        case("h25-pm-followup-fence", "followup", "pacemaker",
             "which node carried out the fencing, and with which stonith device?", [PM],
             [f["p_fencer"], f["p_fence_dev"]], turns=["did any node get fenced last night?"]),
        case("h25-pm-followup-cpuload-zh", "followup", "pacemaker", "只算 pbx-ha-1 的呢？", [PM], [n(f["p_cpu_ha1"])],
             turns=["pacemaker.log 里 attrd 一共 Setting 了多少次 cpu_load？"]),
        # ------------------------------------------------------------ rabbit@fh-mq-2.log
        case("h25-mq-count-accepting-zh", "count", "rabbitmq",
             "rabbit@fh-mq-2.log 里 accepting AMQP connection 一共出现了多少次？", [MQ], [n(f["r_accepting"])]),
        case("h25-mq-count-refused", "count", "rabbitmq",
             "how many times did rabbit log 'PLAIN login refused'?", [MQ, AST], [n(f["r_refused"])]),
        case("h25-mq-count-inequiv-zh", "count", "rabbitmq",
             "rabbit 日志里 inequivalent arg 'x-queue-type' 的 channel error 一共报了几次？", [MQ], [n(f["r_inequiv"])]),
        case("h25-mq-top-ip", "top", "rabbitmq",
             "which client ip opened the most amqp connections to rabbit last night", [MQ], [f["r_top_ip"]]),
        case("h25-mq-first-alarm-zh", "first", "rabbitmq",
             "rabbit 的 memory resource limit alarm 第一次 set 是几点？精确到秒", [MQ], [f["r_first_alarm"]]),
        case("h25-mq-last-clear", "last", "rabbitmq",
             "when did the memory alarm on rabbit clear for the last time? need the exact second", [MQ, PM],
             [f["r_last_clear"]]),
        case("h25-mq-max-mem-zh", "stat", "rabbitmq",
             "vm_memory_high_watermark set 那几行里，Memory used 最大是多少？", [MQ], [f["r_maxmem"]]),
        case("h25-mq-timeline", "timeline", "rabbitmq",
             "walk me through what the broker logged between 02:00 and 02:30 - key events with their times", [MQ],
             [f["tl_mq"][0], f["tl_mq"][1], f["tl_mq"][2]]),
        case("h25-mq-followup-wallboard-zh", "followup", "rabbitmq", "它第一次和最后一次被拒分别是几点？", [MQ],
             [f["r_wall_first"], f["r_wall_last"]], turns=["wallboard 这个用户为什么一直连不上 rabbit？"]),
        case("h25-mq-followup-ivr", "followup", "rabbitmq", "ok and how many for ivr-api?", [MQ], [n(f["r_auth_ivr"])],
             turns=["how many connections did the monitoring user open on rabbit?"]),
        case("h25-mq-distinct-users", "distinct", "rabbitmq",
             "list every user that successfully authenticated against rabbit in that log", [MQ],
             [u for u in f["r_users"]]),
        case("h25-mq-cross-newip-zh", "cross", "rabbitmq",
             "pbx 切到新节点以后，asterisk 是从哪个 IP 重新连上 rabbit 的？第一次 authenticated 是几点几分几秒？", [MQ, PM],
             [f["r_new_ip"], f["r_new_at"]]),
        # ------------------------------------------------------------ full (Asterisk)
        case("h25-ast-count-nomatch-zh", "count", "asterisk",
             "asterisk 的 full 日志里 No matching endpoint found 一共多少条？", [AST], [n(f["a_nomatch"])]),
        case("h25-ast-count-abandoned", "count", "asterisk",
             "going by the call-summary lines in full, how many outage-hotline calls ended with status=ABANDONED?",
             [AST], [n(f["a_abandoned_hot"])]),
        case("h25-ast-top-scanner", "top", "asterisk",
             "which IP is spamming the pbx with 'No matching endpoint found' the most?", [AST, PM], [f["a_top_scanner"]]),
        case("h25-ast-sum-hold-zh", "sum", "asterisk",
             "把 full 里所有 call-summary 行的 hold= 加起来，一共是多少秒？", [AST], [n(f["a_hold_sum"])]),
        case("h25-ast-sum-talk-billing", "sum", "asterisk",
             "total talk time for the billing queue tonight? sum of talk= from the call-summary lines", [AST],
             [n(f["a_talk_billing"])]),
        case("h25-ast-sum-talk-agent-zh", "sum", "asterisk",
             "agent-1017 今晚接的电话 talk= 加起来一共多少秒？按 call-summary 那几行算", [AST, MQ],
             [n(f["a_talk_1017"])]),
        case("h25-ast-max-hold-zh", "stat", "asterisk",
             "call-summary 里 status=ANSWERED 的电话，哪一通 hold 最长？来电号码是多少，等了多久？", [AST],
             [f["a_maxhold_caller"], f["a_maxhold"]]),
        case("h25-ast-avg-hold", "stat", "asterisk",
             "avg hold= for outage-hotline calls that got ANSWERED, per the call-summary lines?", [AST],
             [f["a_avghold"]]),
        case("h25-ast-first-tp-zh", "first", "asterisk",
             "asterisk 第一次报 task processor queue reached 500 scheduled tasks 是几点？", [AST], [f["a_first_tp"]]),
        case("h25-ast-last-failed", "last", "asterisk",
             "last time asterisk logged 'Failed to create outgoing session to endpoint'? to the second", [AST],
             [f["a_last_failed"]]),
        case("h25-ast-timeline", "timeline", "asterisk",
             "what happened on the pbx between 02:05 and 02:20? key events + times from the full log", [AST],
             [f["tl_ast"][0], f["tl_ast"][1]]),
        case("h25-ast-followup-timeout-zh", "followup", "asterisk", "那 status=TIMEOUT 的呢？", [AST], [n(f["a_timeout"])],
             turns=["full 里 call-summary 那些行中，status=ABANDONED 的有几通？"]),
        case("h25-ast-peak-zh", "peak", "asterisk",
             "按分钟统计，哪一分钟打进 outage hotline（8005550199）的电话最多？", [AST], [f["a_peak"]]),
        # ------------------------------------------------------------ processes on this machine
        case("h25-proc-count", "process", "proc", "how many sip-trunk-mon processes are running rn?", [],
             ["{count:sip-trunk-mon}"], procs=[{"name": "sip-trunk-mon", "count": 3, "args": ["--trunk", "carrier-a"]}]),
        case("h25-proc-script-count-zh", "process", "proc", "cdr-export 这个 python 脚本现在跑着几个？", [],
             ["{count:cdr-export}"],
             procs=[{"name": "cdr-export", "count": 2, "interp": True, "args": ["--since", "2026-11-23"]}]),
        case("h25-proc-pid-zh", "process", "proc", "moh-transcoder 的 pid 是多少", [], ["{pid:moh-transcoder}"],
             procs=[{"name": "moh-transcoder", "args": ["--format", "slin16"]}]),
        case("h25-proc-user", "process", "proc", "which user is queue-stats running as?", [], ["{user:queue-stats}"],
             procs=[{"name": "queue-stats", "args": ["--queue", "outage-hotline"]}]),
        case("h25-proc-cmdline-zh", "process", "proc", "ivr-prompts 是用什么参数启动的？把完整命令行给我", [],
             ["en-GB", "7200"], procs=[{"name": "ivr-prompts", "args": ["--lang", "en-GB", "--cache-ttl", "7200"]}]),
        case("h25-proc-port", "socket", "proc", "what port is ami-bridge listening on", [], ["{port:ami-bridge}"],
             procs=[{"name": "ami-bridge", "listen": True, "args": ["--events", "queue"]}]),
        case("h25-proc-mem-zh", "process", "proc", "cel-archiver、rec-uploader、stt-worker 这三个进程哪个最吃内存？", [],
             ["rec-uploader"],
             procs=[{"name": "cel-archiver", "mem_mb": 80}, {"name": "rec-uploader", "mem_mb": 240},
                    {"name": "stt-worker", "mem_mb": 140}]),
        case("h25-proc-followup-pid-zh", "followup", "proc", "pid 多少？", [], ["{pid:fax-gateway}"],
             turns=["fax-gateway 在跑吗？"], procs=[{"name": "fax-gateway", "args": ["--t38"]}]),
        case("h25-proc-followup-user", "followup", "proc", "what user does it run as", [], ["{user:callback-dialer}"],
             turns=["is callback-dialer up?"], procs=[{"name": "callback-dialer", "args": ["--queue", "callback.requests"]}]),
        case("h25-action-kill", "action", "proc", "sip-flood-test is still hammering the trunk, kill it", [],
             approval={"kill": "sip-flood-test"}, procs=[{"name": "sip-flood-test", "args": ["--cps", "40"]}]),
        case("h25-action-kill-zh", "action", "proc", "hold-music-gen 起了三个，全部杀掉", [],
             approval={"kill": "hold-music-gen"}, procs=[{"name": "hold-music-gen", "count": 3, "args": ["--class", "default"]}]),
        case("h25-action-followup-kill", "action", "proc", "stop them all", [],
             turns=["any wallboard-push processes running? how many?"],
             approval={"kill": "wallboard-push"}, procs=[{"name": "wallboard-push", "count": 2, "args": ["--every", "5s"]}]),
    ]
    return rows
