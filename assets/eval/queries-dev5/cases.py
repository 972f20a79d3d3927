"""The `queries-dev5` cases: what an on-call engineer types at 3 a.m., and what the answer must
hold. Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
Weighted to follow-ups (only the last turn is scored, and it only makes sense after the
earlier answer), timelines (`what happened around T`: the planted events near T, by their
own words and exact times) and incident summaries across files.
"""

ALB = "418207336951_elasticloadbalancing_eu-west-2_app.mb-prod-edge.5e1c7a9d03b4f281_20310605T0400Z_10.40.1.17_2q8v6kzt.log"
UW, INI, PG, KF = "booking-api-uwsgi.log", "booking-api-uwsgi.ini", "postgresql-2031-06-05_010000.csv", "server.log"
SV, AP, MA, MB, AU = ("supervisord.log", "portal-ssl_error_log", "mongod-chat-db-a.log", "mongod-chat-db-b.log",
                      "kube-apiserver-audit.log")

FMT = {ALB: "aws alb access log", UW: "uwsgi log (request lines + django logging + tracebacks)", INI: "uwsgi ini",
       PG: "postgresql csvlog", KF: "kafka broker log4j", SV: "supervisord log", AP: "apache 2.4 error log",
       MA: "mongodb structured json log", MB: "mongodb structured json log", AU: "kubernetes audit json"}


def case(id_, cat, text, files, answer_has, turns=None, fmt=None):
    c = {"id": id_, "text": text, "files": sorted(files), "answer_has": answer_has}
    if turns:
        c["turns"] = turns
    c["cat"] = cat
    c["fmt"] = fmt or " + ".join(dict.fromkeys(FMT[x] for x in files if x != INI))
    return c


def cases(f, n):
    rows = [
        # --- plain one-shot questions (10)
        case("d5-distinct-alb-clients", "distinct", "hw many unique client IPs hit the ALB in this log", [ALB],
             [n(f["al_distinct_clients"])]),
        case("d5-count-kafka-shrink-zh", "count", "kafka-2 的 server.log 里 Shrinking ISR 一共出现了几次", [KF], [n(f["kf_shrinks"])]),
        case("d5-top-mongo-collscan", "top", "chat-db-a mongod log - which appName is behind the most COLLSCAN slow queries?",
             [MA], [f["ma_collscan_app"]]),
        case("d5-stat-pg-slowest-zh", "stat", "postgres csvlog 里最慢的一条语句花了多少 ms？是什么语句", [PG],
             [f["pg_max_dur"], "ALTER TABLE"]),
        case("d5-count-pdf-exits", "count", "supervisord.log: how many times did pdf-renderer exit", [SV], [n(f["sv_pdf_exits"])]),
        case("d5-count-ah01114-zh", "count", "portal 的 apache 错误日志里 AH01114 一共几条", [AP], [n(f["ap_01114"])]),
        case("d5-stat-uwsgi-p90", "stat", "p90 of msecs across the booking-api uwsgi request lines?", [UW, INI], [f["uw_p90"]]),
        case("d5-distinct-audit-users-zh", "distinct", "k8s audit log 里一共有多少个不同的 user.username", [AU],
             [n(f["au_distinct_users"])]),
        case("d5-stat-alb-biggest", "stat", "biggest response in the ALB log by sent_bytes - what was the request", [ALB],
             [f["al_biggest_file"]]),
        case("d5-top-uwsgi-500-zh", "top", "uwsgi 日志里哪个接口 500 最多", [UW], [f["uw_top500_path"]]),

        # --- follow-ups (30): swap a filter
        case("d5-fu-alb-500", "followup", "and 500s?", [ALB, UW], [n(f["al_500"])], ["how many 503s in the ALB log?"]),
        case("d5-fu-pg-fatal-zh", "followup", "那 FATAL 呢", [PG], [n(f["pg_fatal"])], ["postgres csv 日志里 ERROR 一共多少条"]),
        case("d5-fu-audit-patch-deploy", "followup", "ok how many of that user's patches were on deployments", [AU],
             [n(f["au_argocd_deploy_patches"])],
             ["how many patch requests in the k8s audit log?", "which user sent the most of them"]),
        case("d5-fu-mongo-threads-zh", "followup", "chat.threads 呢", [MA, MB], [n(f["ma_threads"])],
             ["chat-db-a 的 mongod 日志里 chat.messages 的 Slow query 有多少条"]),
        case("d5-fu-kafka-expand", "followup", "and expanding?", [KF], [n(f["kf_expands"])],
             ["count the 'Shrinking ISR' lines in kafka server.log"]),
        # change the bucket
        case("d5-fu-alb-minute-zh", "followup", "按分钟呢？哪一分钟最多", [ALB], [f["al_5xx_minute"]], ["ALB 日志 5xx 按小时分布是怎样的"]),
        case("d5-fu-pg-wait-minute", "followup", "per minute instead - which minute?", [PG], [f["pg_wait_minute"]],
             ["which hour had the most lock waits ('still waiting for') in the postgres log?"]),
        case("d5-fu-apache-minute-zh", "followup", "换成每分钟呢，哪一分钟最多", [AP, SV], [f["ap_01114_minute"]],
             ["apache 那个 portal 错误日志，AH01114 每小时多少条"]),
        case("d5-fu-kafka-bucket-zh", "followup", "按10分钟一桶呢？哪一桶最多", [KF, SV], [f["kf_nere_bucket"]],
             ["kafka server.log 里 NotEnoughReplicasException 每小时多少"]),
        # the previous answer's top item
        case("d5-fu-alb-scanner-404", "followup", "that IP - how many 404s did it get", [ALB], [n(f["al_top4xx_ip_404"])],
             ["how many 4xx in the ALB log?", "top client IP for those?"]),
        case("d5-fu-audit-deleter-last-zh", "followup", "它最后一次 delete 是几点", [AU], [f["au_top_deleter_last"]],
             ["audit log 里谁 delete 得最多"]),
        case("d5-fu-uwsgi-slowest-start", "followup", "the slowest one - what time did it start?", [UW, INI], [f["uw_slowest_start"]],
             ["top 3 slowest requests in the booking-api uwsgi log"]),
        case("d5-fu-mongo-mean-zh", "followup", "它的平均 durationMillis 是多少", [MA], [f["ma_msgs_mean"]],
             ["mongo chat-db-a 哪个 ns 的 slow query 最多"]),
        case("d5-fu-kafka-partition-last", "followup", "when was its last one", [KF], [f["kf_top_shrink_last"]],
             ["which partition shrank its ISR the most times in kafka server.log?"]),
        case("d5-fu-pg-state-zh", "followup", "它的 ERROR 里最多的是哪个 sql_state_code？", [PG, UW], [f["pg_top_err_state"]],
             ["postgres 日志里报 ERROR 最多的 user_name 是谁"]),
        case("d5-fu-apache-path", "followup", "what was it poking at most - which path?", [AP], [f["ap_top_denied_path"]],
             ["which client got denied the most in the portal apache error log (AH01630)?", "how many times?"]),
        # more of a list
        case("d5-fu-alb-next3", "followup", "and the next 3", [ALB], list(f["al_next3_5xx_paths"]),
             ["top 3 request paths by 5xx in the ALB log"]),
        case("d5-fu-audit-403-second-zh", "followup", "第二个呢？几次", [AU], [f["au_403_second"], n(f["au_403_second_n"])],
             ["audit log 里 403 最多的 user 是哪个"]),
        case("d5-fu-mongo-ns-4-5", "followup", "and the 4th and 5th?", [MA, MB], list(f["mb_ns_4_5"]),
             ["how many slow queries on chat-db-b?", "top 3 ns by count?"]),
        # change the measure
        case("d5-fu-alb-p95", "followup", "and the p95?", [ALB], [f["al_clinics_p95"]],
             ["avg target_processing_time for /api/v2/clinics/ in the ALB log?"]),
        case("d5-fu-uwsgi-mean-zh", "followup", "平均呢", [UW], [f["uw_slots_mean"]], ["uwsgi 日志里 /api/v2/slots/ 的 msecs 中位数是多少"]),
        case("d5-fu-mongo-p90-zh", "followup", "那 p90 呢", [MB], [f["mb_p90"]],
             ["chat-db-b 的 slow query 有多少条", "最大 durationMillis 是多少"]),
        case("d5-fu-pg-mean", "followup", "whats the mean duration of those, ms", [PG], [f["pg_dur_mean"]],
             ["how many slow statements (the duration: lines) in the postgres log?"]),
        # narrow the window
        case("d5-fu-alb-window", "followup", "only between 02:30 and 02:45 though", [ALB], [n(f["al_500_window"])],
             ["how many 500s in the ALB log", "which target group were they on?"]),
        case("d5-fu-audit-window-zh", "followup", "只看 02:10 到 02:25 呢", [AU], [n(f["au_403_window"])], ["audit 日志里 403 一共多少条"]),
        case("d5-fu-apache-window-zh", "followup", "只算 01:00 到 02:00 呢", [AP], [n(f["ap_denied_window"])],
             ["apache portal 错误日志里 AH01630 被拒一共多少次"]),
        # the same question of the other uploaded log
        case("d5-fu-mongo-b-slow", "followup", "same for chat-db-b", [MA, MB], [n(f["mb_slow"])], ["how many slow queries on chat-db-a?"]),
        case("d5-fu-uwsgi-lock-zh", "followup", "uwsgi 那个日志里呢？有多少个请求因为这个 500 了", [PG, UW], [n(f["uw_lock"])],
             ["postgres 日志里 canceling statement due to lock timeout 有多少条"]),
        case("d5-fu-mongo-b-accepted-zh", "followup", "chat-db-b 呢", [MA, MB], [n(f["mb_accepted"])], ["chat-db-a 上 Connection accepted 有多少次"]),
        case("d5-fu-uwsgi-max", "followup", "same for the uwsgi log - slowest request, in msecs?", [ALB, UW], [f["uw_max_ms"]],
             ["slowest target_processing_time in the ALB log for api.marrowby.example?"]),

        # --- timelines (15): the planted events near T, by their words and exact times
        case("d5-tl-kafka-0148", "timeline", "what happened on kafka-2 around 01:48? server.log attached", [KF],
             ["NotEnoughReplicas", ["01:47:12", "01:47:42", "01:48:10"],
              ["leaderId=1", "Connection to 1", "broker 1", "Broker 1", "brokerId: 1", "kafka-1", "node 1"]]),
        case("d5-tl-kafka-sv-zh", "timeline", "01:45 到 02:00 之间出了什么事？kafka 和 supervisord 的日志都在这", [KF, SV],
             ["NotEnoughReplicas", "notify-worker", ["01:51:40", "01:48:31"]]),
        case("d5-tl-pg-0105-zh", "timeline", "postgres 01:05 左右发生了什么", [PG],
             [["SIGHUP", "reloading configuration", "reload", "重新加载", "重载"], ["log_min_duration_statement", "log_lock_waits"],
              "01:05:17"]),
        case("d5-tl-pg-0348", "timeline", "anything interesting in the pg log around 03:48?", [PG, UW],
             [["idle_in_transaction_session_timeout", "idle-in-transaction"], "03:48:02"]),
        case("d5-tl-pg-0233", "timeline", "what happened in postgres around 02:33", [PG],
             ["ALTER TABLE", "AccessExclusiveLock", ["02:33:05", "02:33:06"]]),
        case("d5-tl-pg-0241-zh", "timeline", "02:41 前后 postgres 有什么事件", [PG],
             [["administrator command", "57P01", "pg_terminate_backend", "terminating connection", "31502"], "02:41:19"]),
        case("d5-tl-uwsgi-0236", "timeline", "booking-api uwsgi log: whats going on around 02:36? workers dying?", [UW, INI],
             [["HARAKIRI", "harakiri", "Harakiri"], ["02:35:42", "02:36:19"], "/api/v2/reports/daily"]),
        case("d5-tl-audit-pg-zh", "timeline", "把 audit log 和 postgres 日志对一下，02:30 到 02:45 之间发生了什么", [AU, PG],
             ["booking-migrate", "ALTER TABLE", ["h.lindqvist", "pg-toolbox-0"]]),
        case("d5-tl-audit-0240", "timeline", "k8s audit log - who did what around 02:40?", [AU],
             ["h.lindqvist", "pg-toolbox-0", "02:40:48"]),
        case("d5-tl-sv-0313-zh", "timeline", "supervisord 03:13 前后怎么了", [SV], ["portal-app", "SIGKILL", ["03:12:58", "03:13:24"]]),
        case("d5-tl-portal-0313", "timeline", "portal went down around 03:13 - what happened? apache + supervisor logs attached",
             [AP, SV], ["03:12:58", "127.0.0.1:8081", "SIGKILL"]),
        case("d5-tl-apache-leadup", "timeline", "portal apache error_log: walk me through what led up to the errors at ~03:13", [AP],
             [["AH01102", "error reading status line", "timeout specified has expired"],
              ["AH00957", "AH01114", "Connection refused", "refused"], "03:12:59"]),
        case("d5-tl-mongo-0341-zh", "timeline", "03:41 左右 chat 的 mongo 出了啥事", [MA, MB],
             ["chat-db-b", ["Election", "election", "选举"], ["03:41:09", "03:41:10"]]),
        case("d5-tl-mongo-a-0340", "timeline", "what happened on chat-db-a around 03:40?", [MA],
             [["fdatasync", "14213"], ["SECONDARY", "Stepping down", "stepped down", "step down", "stepdown", "steps down"],
              ["03:40:26", "03:41:11"]]),
        case("d5-tl-kafka-0252-zh", "timeline", "kafka 02:52 左右出了什么事", [KF],
             [["Connection to 3", "leaderId=3", "broker 3", "Broker 3", "brokerId: 3", "kafka-3", "node 3", "节点 3", "broker3"],
              ["02:52:05", "02:52:11"], ["Shrinking ISR", "shrink", "Shrink", "收缩"]]),

        # --- incident summaries across files (5): the spike's minute, its status, the app error
        case("d5-inc-booking", "incident", "what went wrong last night? ALB + booking-api uwsgi logs + its ini attached", [ALB, UW, INI],
             [f["al_5xx_minute"], "500", ["lock timeout", "LockNotAvailable", "OperationalError"]]),
        case("d5-inc-portal-zh", "incident", "portal 那次故障总结一下，ALB、apache 和 supervisord 的日志都传了", [ALB, AP, SV],
             [f["al_portal_503_minute"], "503", ["SIGKILL", "Connection refused", "AH01114", "AH00957", "127.0.0.1:8081"]]),
        case("d5-inc-booking-pg-zh", "incident", "帮忙总结一下这次故障，ALB / uwsgi / postgres 的日志都传了", [ALB, UW, PG],
             [f["al_5xx_minute"], "500", ["lock timeout", "AccessExclusiveLock", "ALTER TABLE", "55P03", "LockNotAvailable"]]),
        case("d5-inc-chat", "incident", "chat was flaky at some point tonight, what went wrong? alb + both chat mongod logs attached",
             [ALB, MA, MB],
             [f["al_chat_5xx_minute"], "503", ["election", "Election", "Stepping down", "stepped down", "SECONDARY", "failover",
                                               "fail over", "fdatasync"]]),
        case("d5-inc-rootcause-zh", "incident", "昨晚 booking 接口挂了一阵，几个日志串起来看看影响和根因", [ALB, UW, PG, AU, INI],
             [f["al_5xx_minute"], "500", ["booking-migrate", "ALTER TABLE", "AccessExclusiveLock"]]),
    ]
    return rows
