"""The `queries-dev8` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

ZK, SL, FPM, DK = "conn.log", "slotd.log", "php-fpm.log", "docker.log"
SK, PGB, JR = "sidekiq.log", "pgbouncer.log", "vh-db-01-journal.txt"
ALL = [ZK, SL, FPM, DK, SK, PGB, JR]

FMT = {ZK: "zeek conn.log (tsv, epoch ts, four hourly header blocks)", SL: "go zap json (epoch ts, latency in s)",
       FPM: "php-fpm error log", DK: "dockerd/containerd logrus text", SK: "sidekiq 7 pretty log with backtraces",
       PGB: "pgbouncer log (C-/S- prefixes, stats in us)", JR: "journalctl -o short-iso (kernel oom, postgres)"}


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
        case("d8-count-zeek-rej", "count", "zeek conn.log - how many conns ended up REJ?", [ZK, PGB], [n(f["zk_rej"])]),
        case("d8-count-pgb-pooler-zh", "count", "pgbouncer 日志里 pooler error 一共多少条", [PGB, SL],
             [n(f["pgb_pooler"])]),
        case("d8-count-sidekiq-sms-fail", "count",
             "hw many times did AppointmentReminderSmsJob fail in sidekiq? retries count too", [SK],
             [n(f["sk_sms_fail"])]),
        case("d8-count-journal-nospace-zh", "count", "vh-db-01 的 journal 里 No space left on device 出现了几次", [JR, PGB],
             [n(f["j_nospace"])]),
        case("d8-count-fpm-terminated", "count",
             "php-fpm log: how many requests got killed by request_terminate_timeout?", [FPM], [n(f["fpm_timeout"])]),
        case("d8-count-docker-error-zh", "count", "docker 日志 level=error 的有几行？", [DK], [n(f["dk_error"])]),
        # --- a figure in another unit
        case("d8-stat-slotd-search-p95", "stat", "p95 latency of GET /v1/slots/search in the slotd log, in ms", [SL],
             [f["sl_search_p95"]]),
        case("d8-stat-sidekiq-invoice-mean-zh", "stat", "sidekiq 里 InvoiceMailerJob 跑成功(done)的那些，elapsed 平均多少毫秒？",
             [SK], [f["sk_inv_mean"]]),
        case("d8-stat-zeek-ssh-max", "stat", "longest ssh session in conn.log - how many minutes?", [ZK], [f["zk_ssh_max"]]),
        case("d8-stat-pgb-wait-max-zh", "stat", "pgbouncer 的 stats 行里 wait 最大的一次是多少毫秒", [PGB], [f["pgb_wait_max"]]),
        # --- top / distinct
        case("d8-top3-zeek-orig-bytes", "top", "top 3 source IPs by orig_bytes in the zeek log", [ZK],
             list(f["zk_top3_bytes"])),
        case("d8-top3-sidekiq-fail-class-zh", "top", "sidekiq 失败最多的 3 个 job class 是哪几个", [SK],
             list(f["sk_top3_fail"])),
        case("d8-top-slotd-caller", "top", "slotd: which caller logs the most error-level lines?", [SL],
             [f["sl_top_caller"]]),
        case("d8-distinct-zeek-scan-ports-zh", "distinct",
             "conn.log 里 10.30.6.77 一共碰了多少个不同的端口（id.resp_p 去重）", [ZK], [n(f["zk_scan_ports"])]),
        case("d8-distinct-sidekiq-fail-jids", "distinct", "how many distinct jids failed at least once in sidekiq.log?", [SK],
             [n(f["sk_fail_jids"])]),
        case("d8-distinct-slotd-clinics-zh", "distinct", "slotd 日志里一共出现过多少个不同的 clinic_id", [SL],
             [n(f["sl_clinics"])]),
        # --- peaks and clock windows
        case("d8-peak-zeek-minute", "peak", "zeek: which minute had the most connections (by ts)?", [ZK],
             [f["zk_peak_minute"]]),
        case("d8-peak-slotd-error-hour-zh", "peak", "slotd 的 error 按小时统计，哪个小时最多", [SL], [hour(f["sl_err_hour"])]),
        case("d8-window-slotd-error-zh", "window", "slotd 01:50 到 02:10 之间 level=error 一共几条", [SL],
             [n(f["sl_err_window"])]),
        case("d8-window-pgb-pooler", "window", "pgbouncer: pooler errors between 01:10 and 01:25 utc?", [PGB],
             [n(f["pgb_pooler_window"])]),
        # --- follow-ups (only the last turn is scored)
        case("d8-followup-zeek-scan-rej", "followup", "and how many of those got REJ?", [ZK], [n(f["zk_scan_rej"])],
             turns=["how many connections did 10.30.6.77 open in the zeek log?"]),
        case("d8-followup-sidekiq-calendar-zh", "followup", "那 CalendarSyncJob 呢", [SK], [n(f["sk_cal_fail"])],
             turns=["sidekiq 里 InvoiceMailerJob fail 了几次"]),
        case("d8-followup-slotd-clinic-errors", "followup", "how many errors does it have", [SL],
             [n(f["sl_top_clinic_errs"])], turns=["slotd log - which clinic_id has the most errors?"]),
        case("d8-followup-pgb-qwt-last-zh", "followup", "最后一次呢", [PGB], [hms(f["pgb_qwt_last"])],
             turns=["pgbouncer 里第一次 query_wait_timeout 是几点"]),
        case("d8-followup-journal-oom-pid", "followup", "which pid did it kill?", [JR], [str(f["j_oom_pid"])],
             turns=["vh-db-01 journal: when did the oom killer fire?"]),
        case("d8-followup-proc-pid-zh", "followup", "pid 是多少", [], ["{pid:dicom-relay}"],
             turns=["dicom-relay 还在跑吗"], procs=[{"name": "dicom-relay", "args": ["--ae-title", "PEBBLE_XR2"]}]),
        case("d8-followup-fpm-slow-minute", "followup", "which minute had the most?", [FPM], [f["fpm_slow_peak"]],
             turns=["fpm log: how many 'executing too slow' warnings?"]),
        # --- what happened around HH:MM, across two or three logs (each event's second, and its marker)
        case("d8-timeline-0044", "timeline", "what happened around 00:44? docker + php-fpm logs", [DK, FPM],
             [tl("tl_deploy", 0), ["Finishing"], tl("tl_deploy", 1), ["using the force"], tl("tl_deploy", 2),
              ["fpm is running", "ready to handle connections"]]),
        case("d8-timeline-0112-zh", "timeline", "01:12 左右 vh-db-01 上出了什么事？journal 和 pgbouncer 日志对一下，按时间顺序列出来",
             [JR, PGB],
             [tl("tl_disk_pgb", 0), ["No space left on device"], tl("tl_disk_pgb", 1), ["PANIC"], tl("tl_disk_pgb", 2),
              ["server_login_retry"]]),
        case("d8-timeline-0110-0125", "timeline", "walk me through 01:10-01:25 using the journal and slotd's log, with timestamps",
             [JR, SL],
             [tl("tl_disk_slotd", 0), ["PANIC"], tl("tl_disk_slotd", 1), ["clinicdb-20320422.dump"],
              tl("tl_disk_slotd", 2), ["ready to accept connections"], tl("tl_disk_slotd", 3)]),
        case("d8-timeline-0152", "timeline", "sidekiq + pgbouncer: what kicked off around 1:52?", [SK, PGB],
             [tl("tl_import", 0), ["LabResultImportJob"], ["LabResultIngestJob"], tl("tl_import", 1),
              ["query_wait_timeout"]]),
        case("d8-timeline-0154-zh", "timeline", "1点54前后 slotd 跟 php-fpm 发生了啥，按先后顺序", [SL, FPM],
             [tl("tl_pool_fpm", 0), ["query_wait_timeout"], tl("tl_pool_fpm", 1), ["executing too slow"],
              tl("tl_pool_fpm", 2), ["pm.max_children"]]),
        case("d8-timeline-0208", "timeline",
             "around 02:08 things recovered?? whats the sequence - pgbouncer, fpm and sidekiq logs", [PGB, FPM, SK],
             [tl("tl_recover", 0), ["query_wait_timeout"], tl("tl_recover", 1), ["executing too slow"],
              tl("tl_recover", 2), ["LabResultIngestJob"]]),
        case("d8-timeline-0214-zh", "timeline", "02:14 docker 日志和 zeek conn.log 里都出了什么，给我时间线", [DK, ZK],
             [tl("tl_fluentd", 0), ["fluentd"], tl("tl_fluentd", 1), ["REJ"], tl("tl_fluentd", 2), tl("tl_fluentd", 3)]),
        case("d8-timeline-0237-zh", "timeline", "2:37 vh-db-01 journal 跟 pgbouncer 各记了啥？按秒排", [JR, PGB],
             [tl("tl_oom_pgb", 0), ["oom-killer", "Out of memory"], tl("tl_oom_pgb", 1), ["server conn crashed"],
              tl("tl_oom_pgb", 2), ["ready to accept connections"], tl("tl_oom_pgb", 3), ["server_login_retry"]]),
        case("d8-timeline-0237-apps", "timeline", "what happened around 02:37 - journal, sidekiq and slotd. timestamps please",
             [JR, SK, SL],
             [tl("tl_oom_apps", 0), ["oom-killer", "Out of memory", "OOM", "oom"], tl("tl_oom_apps", 1),
              ["ready to accept connections"], tl("tl_oom_apps", 2), ["server_login_retry", "server conn crashed"]]),
        case("d8-timeline-0307-zh", "timeline", "3:07 slotd 挂了？docker 日志 + slotd 日志，排个时间线", [DK, SL],
             [tl("tl_slotd_docker", 0), ["heap above soft limit"], tl("tl_slotd_docker", 1), ["shim disconnected"],
              tl("tl_slotd_docker", 2), ["slotd starting"], tl("tl_slotd_docker", 3)]),
        case("d8-timeline-0307-fpm", "timeline", "around 03:07 - docker log and php-fpm log, what happened in order?", [DK, FPM],
             [tl("tl_slotd_fpm", 0), ["shim disconnected"], tl("tl_slotd_fpm", 1), ["Connection refused"],
              tl("tl_slotd_fpm", 2)]),
        case("d8-timeline-0321-zh", "timeline", "03:21 之后 conn.log、journal、pgbouncer 里有什么异常？按时间列", [ZK, JR, PGB],
             [tl("tl_scan", 0), ["10.30.6.77"], tl("tl_scan", 1), ["banner exchange", "invalid format"], tl("tl_scan", 2),
              ["bad packet header"]]),
        # --- incident summaries: the cause and the linked symptoms
        case("d8-incident-disk-zh", "incident", "总结一下 1 点多数据库挂掉那次，journal / pgbouncer / slotd 日志都在",
             [JR, PGB, SL],
             [["No space left on device"], ["clinicdb-20320422.dump", "pg_dump", "pg-nightly-dump"], ["server_login_retry"]]),
        case("d8-incident-pool", "incident",
             "booking pages were timing out from ~1:50 to 2:10. what went wrong? sidekiq, pgbouncer and fpm logs attached",
             [SK, PGB, FPM], [["LabResultIngestJob", "LabResultImportJob"], ["query_wait_timeout"], ["pm.max_children"]]),
        case("d8-incident-oom-zh", "incident", "2:37 那次 postgres 重启是怎么回事？总结下原因和影响（journal, pgbouncer, sidekiq）",
             [JR, PGB, SK],
             [["oom-killer", "Out of memory", "OOM", "oom"], ["metabase"], ["server conn crashed", "server_login_retry"]]),
        case("d8-incident-slotd", "incident", "slotd went away for a bit after 3am, why? docker/slotd/fpm logs", [DK, SL, FPM],
             [["heap above soft limit", "heap", "memory", "OOM", "oom"], ["Connection refused"], [hm(f["sl_start"])]]),
        case("d8-incident-night-zh", "incident", "把昨晚的事故总结一下，七个日志都传了", ALL,
             [["No space left on device"], ["LabResultIngestJob", "LabResultImportJob"],
              ["oom-killer", "Out of memory", "OOM"], ["InvoicePdf"]]),
        case("d8-incident-deploy", "incident",
             "invoices 500'd right after the 00:44 deploy - what broke and when was it fixed? docker + fpm logs", [DK, FPM],
             [["InvoicePdf"], ["not found"], [hm(f["fpm_hotfix_up"])]]),
        # --- the live machine
        case("d8-proc-count", "process", "how many lab-sync procs r running?", [], ["{count:lab-sync}"],
             procs=[{"name": "lab-sync", "count": 3, "args": ["--lab", "idexx"]}]),
        case("d8-proc-user-zh", "process", "xray-uploader 这个进程是哪个用户起的", [], ["{user:xray-uploader}"],
             procs=[{"name": "xray-uploader", "args": ["--modality", "DX"]}]),
        case("d8-disk-free", "disk", "how much free space is left on / ?", [], ["{df:/:avail}"]),
        case("d8-disk-size-pcent-zh", "disk", "根分区多大？已经用了百分之多少", [], ["{df:/:size}", "{df:/:pcent}"]),
        case("d8-action-kill-zh", "action", "vetcam-encoder 又把 CPU 吃满了，帮我把它干掉", [],
             approval={"kill": "vetcam-encoder"}, procs=[{"name": "vetcam-encoder", "args": ["--cams", "all"]}]),
    ]
    return rows
