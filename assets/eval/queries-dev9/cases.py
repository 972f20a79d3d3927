"""The `queries-dev9` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

import writers as W

AC, AE = "catalog_access.log", "catalog_error.log"
GA, GE = "gunicorn-access.log", "gunicorn-error.log"
RB, ML, NT = "rabbit@agl-mq-01.log", "maillog", W.NOTIFIER_FILE
ALL = [AC, AE, GA, GE, RB, ML, NT]

FMT = {AC: "apache combined + %D (us)", AE: "apache 2.4 error log", GA: "gunicorn access (%(L)s seconds)",
       GE: "gunicorn error log with python tracebacks", RB: "rabbitmq 3.12 log (prefixed multi-line)",
       ML: "postfix maillog (syslog, no year)", NT: "docker json-file (python logging inside)"}


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


def cases(f, n, hm, hms):
    tl = lambda key, i: [f[key][i]]  # noqa: E731  (one timeline second)
    rows = [
        # --- counts
        case("d9-count-maillog-deferred", "count", "postfix maillog - how many delivery attempts ended up status=deferred?",
             [ML, NT], [n(f["ml_deferred"])]),
        case("d9-count-gunicorn-timeout-zh", "count", "circ-api 的 gunicorn error log 里 WORKER TIMEOUT 一共出现几次？",
             [GE, RB], [n(f["ge_timeouts"])]),
        case("d9-count-apache-denied", "count",
             "opac apache error log: how many 'client denied by server configuration' (AH01630) lines are there?", [AE, AC],
             [n(f["ae_ah01630"])]),
        case("d9-count-maillog-452-zh", "count", "邮件服务器的 maillog 里 452 4.3.1 Insufficient system storage 一共拒了多少次", [ML],
             [n(f["ml_452"])]),
        # --- stats (percentiles, means, max/min, sums, rates; most in another unit)
        case("d9-stat-apache-record-p99", "stat", "p99 %D of the /record/ pages on the catalog vhost? in ms", [AC, AE],
             [f["ac_record_p99"]]),
        case("d9-stat-gunicorn-holds-p90-zh", "stat", "gunicorn access log 里 POST /api/v2/holds 的 p90 响应时间是多少毫秒", [GA, GE],
             [f["ga_holds_p90"]]),
        case("d9-stat-notifier-took-p50", "stat",
             "notifier container log: median took_ms across the sent notices - in seconds pls", [NT], [f["nt_took_p50"]]),
        case("d9-stat-maillog-delay-p95-zh", "stat", "postfix 里投递成功(status=sent)的 delay，p95 是多少毫秒？", [ML],
             [f["ml_delay_p95"]]),
        case("d9-stat-maillog-relay-mean", "stat",
             "which relay has the highest mean delay= for delivered (status=sent) mail in the postfix log?", [ML],
             [f["ml_slowest_relay"]]),
        case("d9-stat-apache-covers-bytes-zh", "stat", "opac 的 apache 访问日志，/covers/ 下面所有请求一共传了多少字节？换成 MB 说", [AC],
             [f["ac_covers_bytes"]]),
        case("d9-stat-gunicorn-endpoint-mean", "stat", "circ-api gunicorn: whcih endpoint has the highest avg request time?",
             [GA, GE], [[f["ga_slowest_endpoint"]]]),
        case("d9-stat-apache-rate-zh", "stat", "catalog 访问日志 01:00 到 02:00 之间平均每分钟多少个请求？", [AC, GA],
             [f["ac_rate"]]),
        case("d9-stat-maillog-min-size", "stat",
             "smallest message size= of anything sent from notices@ashgrove-libraries.org in the maillog, in KB?", [ML],
             [f["ml_min_size"]]),
        case("d9-stat-gunicorn-avail-max-zh", "stat", "gunicorn 访问日志里 /api/v2/availability 最慢的一次多少毫秒", [GA, AC],
             [f["ga_avail_max"]]),
        # --- top / distinct
        case("d9-top3-apache-clients", "top", "top 3 client IPs in the catalog access log by number of requests", [AC, AE],
             list(f["ac_top3_clients"])),
        case("d9-top3-maillog-domains-zh", "top", "maillog 里按 status=sent 的数量排，前三个收件域名是哪几个", [ML],
             list(f["ml_top3_sent_domains"])),
        case("d9-top3-gunicorn-4xx", "top", "gunicorn access: which 3 endpoints hand out the most 4xx?", [GA],
             list(f["ga_top3_4xx"])),
        case("d9-top-notifier-kind-zh", "top", "notifier 容器的日志里，哪种 kind 的通知发得最多", [NT, ML], [f["nt_top_kind"]]),
        case("d9-distinct-apache-ips", "distinct", "how many unique client IPs show up in the opac access log?", [AC],
             [n(f["ac_distinct_ips"])]),
        case("d9-distinct-maillog-domains-zh", "distinct", "maillog 里 to= 的收件人域名一共有多少个不同的", [ML],
             [n(f["ml_distinct_domains"])]),
        case("d9-distinct-gunicorn-pids-zh", "distinct", "gunicorn error log 里 Booting worker 一共起过多少个不同的 pid", [GE],
             [n(f["ge_boot_pids"])]),
        # --- peaks and clock windows
        case("d9-peak-apache-minute", "peak", "busiest minute in the catalog access log?", [AC], [f["ac_peak_minute"]]),
        case("d9-peak-maillog-sent-hour-zh", "peak", "maillog 的 status=sent 按小时统计，哪个小时最多", [ML],
             [hour(f["ml_sent_hour"])]),
        case("d9-window-apache-crawler", "window",
             "opac access log: how many requests did 203.0.113.77 make between 02:40 and 03:05?", [AC],
             [n(f["ac_crawler_window"])]),
        case("d9-window-gunicorn-500-zh", "window", "gunicorn access log 里 01:20 到 01:40 之间 POST /api/v2/holds 返回 500 的有几次",
             [GA], [n(f["ga_holds500_window"])]),
        # --- follow-ups (only the last turn is scored)
        case("d9-followup-apache-401-client", "followup", "whats that client's total request count? all statuses", [AC],
             [n(f["ac_stuffer_total"])], turns=["opac access log: which client IP got the most 401s?"]),
        case("d9-followup-maillog-mailhub-zh", "followup", "那 mailhub 的 status=deferred 呢，几条？", [ML],
             [n(f["ml_mailhub_deferred"])], turns=["postfix 日志里 status=bounced 的有几条"]),
        case("d9-followup-gunicorn-timeout-last", "followup", "and the last one?", [GE], [hms(f["ge_timeout_last"])],
             turns=["gunicorn error log - when was the first WORKER TIMEOUT?"]),
        case("d9-followup-rabbit-user-zh", "followup", "它一共连了多少次", [RB, GA], [n(f["rb_circ_conns"])],
             turns=["rabbitmq 日志里哪个 user 建的 AMQP 连接最多？"]),
        case("d9-followup-maillog-bounce-domain", "followup", "which of them bounced the most?", [ML],
             [f["ml_bounce_domain"]], turns=["which recipient domains had bounces in the maillog?"]),
        case("d9-followup-apache-error-hour-zh", "followup", "按小时分呢？哪个小时最多，多少条", [AE],
             [hour(f["ae_err_hour"]), n(f["ae_err_hour_n"])], turns=["catalog 的 apache error log 里 error 级别的一共多少条"]),
        case("d9-followup-apache-max-seconds", "followup", "in seconds pls", [AC], [f["ac_max_s"]],
             turns=["max %D in the catalog access log?"]),
        case("d9-followup-notifier-branch-mean-zh", "followup", "它的 took_ms 平均是多少", [NT], [n(f["nt_branch_mean"])],
             turns=["notifier 容器日志里哪个 branch 发的通知最多"]),
        case("d9-followup-apache-5xx-second", "followup", "the 2nd one - how many 5xx exactly?", [AC, GA],
             [n(f["ac_5xx_second"])], turns=["top 3 paths by 5xx in the opac access log"]),
        case("d9-followup-disk-pcent-zh", "followup", "那用了百分之多少", [], ["{df:/:pcent}"], turns=["根分区还剩多少空间"]),
        # --- what happened around HH:MM, across two or three logs (each event's second, and its marker)
        case("d9-timeline-0124", "timeline", "what happened around 01:24? gunicorn error log + the apache error log", [GE, AE],
             [tl("tl_deploy", 0), ["Handling signal: term", "SIGTERM", "Shutting down"], tl("tl_deploy", 1),
              ["AH00957", "Connection refused"], tl("tl_deploy", 2), ["Listening at"], tl("tl_deploy", 3),
              ["AH00940", "disabled connection"]]),
        case("d9-timeline-0138-zh", "timeline", "01:38 前后 circ-api 发生了什么？gunicorn 的 error 和 access 日志对一下，按时间顺序",
             [GE, GA],
             [tl("tl_hup", 0), ["UndefinedColumn", "pickup_branch"], tl("tl_hup", 1), ["hup", "HUP", "Hang up"],
              tl("tl_hup", 2), ["201"]]),
        case("d9-timeline-0200-0220", "timeline",
             "walk me thru 02:00-02:20 - maillog, the rabbit log and the notifier container log, with timestamps",
             [ML, RB, NT],
             [tl("tl_mail", 0), ["Insufficient system storage", "452 4.3.1", "not enough free space"], tl("tl_mail", 1),
              ["memory resource limit alarm", "vm_memory_high_watermark", "memory alarm"], tl("tl_mail", 2),
              ["postsuper", "Deleted"], tl("tl_mail", 3)]),
        case("d9-timeline-0210-zh", "timeline", "2:10 左右 rabbitmq、gunicorn error、apache error 三个日志各记了啥？按秒排",
             [RB, GE, AE],
             [tl("tl_alarm", 0), ["memory resource limit alarm", "vm_memory_high_watermark", "Publishers will be blocked"],
              tl("tl_alarm", 1), ["WORKER TIMEOUT", "AH01102"], tl("tl_alarm", 2), tl("tl_alarm", 3),
              ["cleared", "clear"]]),
        case("d9-timeline-0258", "timeline", "around 2:58 on the opac box - apache access + error logs, what happened in order?",
             [AC, AE],
             [tl("tl_crawl", 0), ["AH00493", "graceful restart", "SIGUSR1"], tl("tl_crawl", 1),
              ["AH00489", "resuming normal operations"], tl("tl_crawl", 2), ["AH01630", "client denied", "Forbidden", "403s", "403 "],
              tl("tl_crawl", 3), ["203.0.113.77"]]),
        case("d9-timeline-0322-zh", "timeline", "3:22 那会儿 rabbit 跟 notifier 容器日志里发生了什么，按秒列出来", [RB, NT],
             [tl("tl_ack", 0), ["delivery acknowledgement", "PRECONDITION_FAILED", "precondition_failed"], tl("tl_ack", 1),
              ["ChannelClosedByBroker", "consumer crashed"], tl("tl_ack", 2), ["accepting AMQP connection"],
              tl("tl_ack", 3), ["consuming"]]),
        # --- incident summaries: the cause and the linked symptoms
        case("d9-incident-deploy", "incident",
             "holds were 500ing after the 1:24 deploy. what broke & when did it stop? gunicorn logs attached", [GE, GA],
             [["pickup_branch"], ["UndefinedColumn", "does not exist"], [hm(f["ge_undef_last"]), hm(f["ge_hup"])]]),
        case("d9-incident-alarm-zh", "incident",
             "2 点多预约、续借全挂了，总结一下原因和影响（maillog、rabbit、gunicorn error、notifier 日志都在）", [ML, RB, GE, NT],
             [["Insufficient system storage", "not enough free space", "452 4.3.1"],
              ["memory resource limit alarm", "vm_memory_high_watermark", "memory alarm", "内存告警", "内存水位"],
              ["WORKER TIMEOUT"], ["mailhub"]]),
        case("d9-incident-crawler", "incident", "catalog was crawling around 2:50, what went wrong? apache access + error logs",
             [AC, AE], [["203.0.113.77"], ["MaxRequestWorkers"], ["AH01630", "client denied", "Forbidden", "403s", "403 "]]),
        case("d9-incident-night-zh", "incident", "把昨晚的故障都总结一下，七个日志都传了", ALL,
             [["pickup_branch", "UndefinedColumn"],
              ["memory resource limit alarm", "vm_memory_high_watermark", "memory alarm", "内存告警", "内存水位"],
              ["MaxRequestWorkers"], ["delivery acknowledgement", "PRECONDITION_FAILED", "precondition_failed", "1800000"]]),
        # --- the live machine
        case("d9-proc-count", "process", "how many marc-indexer procs r up?", [], ["{count:marc-indexer}"],
             procs=[{"name": "marc-indexer", "count": 3, "args": ["--shard", "bibs"]}]),
        case("d9-proc-pid-zh", "process", "holdsync-agent 这个进程的 pid 是多少", [], ["{pid:holdsync-agent}"],
             procs=[{"name": "holdsync-agent", "args": ["--branch", "ELM"]}]),
        case("d9-socket-port", "socket", "what port is z3950-gw listening on?", [], ["{port:z3950-gw}"],
             procs=[{"name": "z3950-gw", "listen": True, "args": ["--db", "opac"]}]),
        case("d9-action-kill", "action", "cover-resizer is pegging the cpu again, pls terminate it", [],
             approval={"kill": "cover-resizer"}, procs=[{"name": "cover-resizer", "args": ["--size", "L"]}]),
        case("d9-action-kill-zh", "action", "sip2-bridge 卡死不动了，把这个进程结束掉吧", [],
             approval={"kill": "sip2-bridge"}, procs=[{"name": "sip2-bridge", "args": ["--port", "6001"]}]),
    ]
    return rows
