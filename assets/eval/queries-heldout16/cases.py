"""The `queries-heldout16` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

S3, FS, EVE = "s3-harrowline-episodes-20351012.log", "feedsmith.log", "eve.json"

FMT = {S3: "aws s3 server access log (bracketed time, quoted request and user agent, '-' for empty)",
       FS: "rust tracing-subscriber fmt (full format: spans with fields, target, key=value, latency=N ms)",
       EVE: "suricata eve json (http, alert, tls, dns, flow, anomaly, stats events)"}


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
    tl = lambda key, i: [f[key][i]]  # noqa: E731  (one timeline second)
    sig_alts = {
        "ET SCAN Nmap Scripting Engine User-Agent Detected (Nmap Scripting Engine)": ["Nmap Scripting Engine", "2009358"],
        "HARROWLINE excessive enclosure fetches from single source": ["excessive enclosure fetches", "9100012"],
        "ET WEB_SERVER /etc/passwd Detected in URI": ["/etc/passwd Detected", "2049432"],
    }
    rows = [
        # ------------------------------------------------------------ the S3 server access log
        case("h16-s3-count-slowdown", "count", "s3",
             "s3 access log for harrowline-episodes: how many requests came back w/ Error Code SlowDown?",
             [S3, FS], [n(f["s_slowdown"])]),
        case("h16-s3-put-mean-zh", "stat", "s3",
             "S3 访问日志里成功的 REST.PUT.OBJECT（HTTP status 200），Total Time 平均是多少秒？", [S3],
             [f["s_put_mean_s"]]),
        case("h16-s3-top3-bytes", "top", "s3",
             "which 3 remote ips pulled the most data out of the bucket tonite (sum of Bytes Sent)? top 3 pls", [S3, EVE],
             list(f["s_top3_bytes"])),
        case("h16-s3-p99-tat-zh", "stat", "s3", "REST.GET.OBJECT 的 Turn-Around Time，p99 是多少毫秒？", [S3],
             [f["s_tat_p99"]]),
        case("h16-s3-bytes-gb", "stat", "s3", "total Bytes Sent across the whole s3 log, in GB?", [S3],
             [f["s_bytes_gb"]]),
        case("h16-s3-max-size-zh", "stat", "s3", "这个 S3 日志里 Object Size 最大的是哪个对象？多大，按 MB 说", [S3, FS],
             [["the-long-table"], [f["s_max_key"].split(".")[0]], f["s_max_size"]]),
        case("h16-s3-first-deny", "first", "s3", "when did the first AccessDenied show up in the bucket's access log?", [S3],
             [hms(f["s_first_deny"])]),
        case("h16-s3-last-slowdown-zh", "last", "s3", "S3 日志里最后一次 SlowDown 出现在几点几分几秒？", [S3, EVE],
             [hms(f["s_last_slowdown"])]),
        case("h16-s3-peak-get", "peak", "s3", "busiest minute for REST.GET.OBJECT in the s3 log? just the minute", [S3],
             [f["s_peak_get"]]),
        case("h16-s3-distinct-keys-zh", "distinct", "s3", "今晚 REST.GET.OBJECT 一共碰过多少个不同的 Key？", [S3],
             [n(f["s_distinct_keys"])]),
        case("h16-s3-followup-total-zh", "followup", "s3", "这个 IP 在 S3 日志里总共有几条请求？", [S3],
             [n(f["s_slow_ip_total"])], turns=["S3 日志里哪个 Remote IP 吃到的 SlowDown 最多？"]),
        case("h16-s3-policy-who-zh", "value", "s3", "零点五十一分左右那次 REST.PUT.BUCKETPOLICY，Requester 是谁？", [S3],
             [f["s_policy_who"]]),
        case("h16-s3-timeline-upload", "timeline", "s3",
             "episode publishing broke a bit before 1am. from the s3 log + feedsmith.log, walk me thru what happened "
             "from the break until uploads went thru again, w/ timestamps", [S3, FS],
             [tl("tl_upload", 0), ["BUCKETPOLICY", "terraform-ci", "bucket policy"], tl("tl_upload", 1),
              ["AccessDenied", "403"], tl("tl_upload", 2), ["oncall-admin", "BUCKETPOLICY", "bucket policy"],
              tl("tl_upload", 3), ["replaying", "parked", "replay"]]),
        # ------------------------------------------------------------ feedsmith (tracing fmt)
        case("h16-fs-count-error-zh", "count", "tracing", "feedsmith.log 里级别是 ERROR 的一共多少行？", [FS],
             [n(f["f_errors"])]),
        case("h16-fs-count-429", "count", "tracing", "how many reqs did feedsmith finish with status=429 tonight?", [FS, S3],
             [n(f["f_429"])]),
        case("h16-fs-p75-render", "stat", "tracing", "p75 of render_ms on feedsmith's 'rendered feed' lines? in ms", [FS],
             [f["f_render_p75"]]),
        case("h16-fs-mean-show-zh", "stat", "tracing", "按 show 分组算 rendered feed 的 render_ms 平均值，哪个节目最慢？", [FS],
             [f["f_slowest_show"]]),
        case("h16-fs-top3-feeds-zh", "top", "tracing", "feedsmith 里 /feeds/xxx.xml 被请求最多的前三个 feed 是哪几个？", [FS, EVE],
             list(f["f_top3_feeds"])),
        case("h16-fs-first-pool", "first", "tracing",
             "what time did feedsmith first log 'pool timed out while waiting for an open connection'?", [FS],
             [hms(f["f_first_pool"])]),
        case("h16-fs-window-503-zh", "window", "tracing", "02:40 到 02:50 之间，feedsmith 以 status=503 结束的请求有多少个？", [FS],
             [n(f["f_503_window"])]),
        case("h16-fs-peak-error", "peak", "tracing", "which minute had the most ERROR lines in feedsmith.log", [FS, S3],
             [f["f_peak_error"]]),
        case("h16-fs-followup-lastfail-zh", "followup", "tracing", "那最后一次是几点？", [FS], [hms(f["f_last_putfail"])],
             turns=["feedsmith 第一次报 put_object failed 是什么时候？"]),
        case("h16-fs-distinct-clients", "distinct", "tracing",
             "howmany unique client= ips show up in the request spans of feedsmith.log?", [FS],
             [n(f["f_distinct_clients"])]),
        case("h16-fs-max-slow-zh", "stat", "tracing", "sqlx 的 slow statement 里 elapsed 最长的一次是多少秒？在几点？", [FS],
             [f["f_max_slow_s"], [hms(f["f_max_slow_at"])]]),
        case("h16-fs-replayed", "value", "tracing",
             "once the bucket perms were fixed, how many parked uploads did feedsmith replay?", [FS, S3],
             [n(f["f_replayed"])]),
        # ------------------------------------------------------------ Suricata EVE
        case("h16-eve-count-alert-zh", "count", "eve", "eve.json 里 event_type 为 alert 的记录一共有几条？", [EVE],
             [n(f["e_alerts"])]),
        case("h16-eve-top3-sigs", "top", "eve", "top 3 alert.signature in eve.json by count?", [EVE, FS],
             [sig_alts[s] for s in f["e_top3_sigs"]]),
        case("h16-eve-count-404", "count", "eve", "suricata eve: how many event_type=http records have http.status 404", [EVE],
             [n(f["e_404"])]),
        case("h16-eve-p95-len-zh", "stat", "eve", "url 以 /feeds/ 开头且 status 是 200 的 http 事件，http.length 的 p95 是多少字节？",
             [EVE], [n(f["e_p95_len"])]),
        case("h16-eve-first-scan-zh", "first", "eve", "203.0.113.66 在 eve.json 里第一次触发告警是几点几分几秒？", [EVE, FS],
             [hms(f["e_first_scan"])]),
        case("h16-eve-followup-last", "followup", "eve", "ok and when was the last alert from it?", [EVE],
             [hms(f["e_last_scan"])], turns=["which src_ip set off the most alerts in eve.json?"]),
        case("h16-eve-peak-alert-zh", "peak", "eve", "eve.json 的 alert 按分钟统计，哪一分钟最多？", [EVE],
             [f["e_peak_alert"]]),
        case("h16-eve-distinct-src", "distinct", "eve", "how many distinct src_ip's in the http events of eve.json", [EVE, S3],
             [n(f["e_distinct_http_src"])]),
        case("h16-eve-drops", "value", "eve", "whats capture.kernel_drops at in the very last stats event of eve.json?", [EVE],
             [n(f["e_last_drops"])]),
        case("h16-eve-sev1", "count", "eve", "count of alerts w/ severity 1 in the suricata log pls", [EVE],
             [n(f["e_sev1"])]),
        case("h16-eve-share-zh", "share", "eve", "http 事件里 http_user_agent 是 PodSnatch 的占百分之几？", [EVE, S3],
             [f["e_snatch_pct"]]),
        case("h16-eve-max-len", "stat", "eve", "biggest http.length in eve.json - how many bytes, and for which url?", [EVE],
             [n(f["e_max_len"]), [f["e_max_len_url"], "the-long-table"]]),
        case("h16-eve-timeline-storm-zh", "timeline", "eve",
             "凌晨两点前后 PodSnatch 把我们刷爆了，把 eve.json、feedsmith.log 和 S3 日志里的关键节点按时间顺序列出来，精确到秒",
             [EVE, FS, S3],
             [tl("tl_storm", 0), ["PodSnatch"], tl("tl_storm", 1), ["excessive enclosure", "HARROWLINE"], tl("tl_storm", 2),
              ["429", "rate limited"], tl("tl_storm", 3), ["SlowDown"]]),
        # ------------------------------------------------------------ processes on this machine
        case("h16-proc-count", "process", "proc", "how many ep-transcoder procs are up rn?", [], ["{count:ep-transcoder}"],
             procs=[{"name": "ep-transcoder", "count": 3, "args": ["--preset", "mp3-128k"]}]),
        case("h16-proc-script-count-zh", "process", "proc", "feed-prune 这个脚本现在跑着几份？", [], ["{count:feed-prune}"],
             procs=[{"name": "feed-prune", "count": 2, "interp": True, "args": ["--older-than", "400d"]}]),
        case("h16-proc-pid", "process", "proc", "whats the pid of loudnorm-d", [], ["{pid:loudnorm-d}"],
             procs=[{"name": "loudnorm-d", "args": ["--target-lufs", "-16"]}]),
        case("h16-proc-user-zh", "process", "proc", "chapter-idx 是用哪个账号起的？", [], ["{user:chapter-idx}"],
             procs=[{"name": "chapter-idx", "args": ["--lang", "en"]}]),
        case("h16-proc-cmdline-zh", "process", "proc", "id3-tagger 启动时带了哪些参数？把完整命令行给我", [],
             ["itunes-v2", "250"],
             procs=[{"name": "id3-tagger", "args": ["--profile", "itunes-v2", "--batch", "250"]}]),
        case("h16-proc-port", "socket", "proc", "what port is hls-packager listening on?", [], ["{port:hls-packager}"],
             procs=[{"name": "hls-packager", "listen": True, "args": ["--segment", "6s"]}]),
        case("h16-proc-mem-zh", "process", "proc", "wave-peaks、ad-stitcher、transcript-ml 这三个里谁占内存最多？", [],
             ["ad-stitcher"],
             procs=[{"name": "wave-peaks", "mem_mb": 60}, {"name": "ad-stitcher", "mem_mb": 210},
                    {"name": "transcript-ml", "mem_mb": 120}]),
        case("h16-proc-followup-pid-zh", "followup", "proc", "pid 多少？", [], ["{pid:mix-uploader}"],
             turns=["mix-uploader 还活着吗？"], procs=[{"name": "mix-uploader", "args": ["--bucket", "stems"]}]),
        case("h16-proc-followup-user", "followup", "proc", "which user is it running as", [], ["{user:cdn-purger}"],
             turns=["is cdn-purger alive?"], procs=[{"name": "cdn-purger", "args": ["--zone", "feeds"]}]),
        case("h16-action-kill", "action", "proc", "dl-counter is wedged, pls kill it", [],
             approval={"kill": "dl-counter"}, procs=[{"name": "dl-counter", "args": ["--flush", "30s"]}]),
        case("h16-action-kill-zh", "action", "proc", "opml-sync 起了三个，全部干掉", [],
             approval={"kill": "opml-sync"}, procs=[{"name": "opml-sync", "count": 3, "args": ["--source", "partners"]}]),
        case("h16-action-followup-kill", "action", "proc", "kill them all pls", [],
             turns=["how many feed-poller processes r there"],
             approval={"kill": "feed-poller"}, procs=[{"name": "feed-poller", "count": 2, "args": ["--interval", "90s"]}]),
    ]
    return rows
