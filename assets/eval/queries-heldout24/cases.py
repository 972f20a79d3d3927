"""The `queries-heldout24` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

SLURM, CEPH, DNS = "slurmctld.log", "ceph.log", "dnsmasq.log"

FMT = {SLURM: "Slurm 23.11 slurmctld log, LogTimeFormat=iso8601_ms ('[yyyy-mm-ddThh:mm:ss.mmm] message'): "
              "_slurm_rpc_submit_batch_job (usec=), sched: Allocate (#CPUs=, Partition=), sched/backfill _start_job, "
              "_job_complete WEXITSTATUS, Time limit exhausted, REQUEST_KILL_JOB uid, cleanup_completing, node not responding / "
              "rebooted / returned to service, requeue, update_node",
       CEPH: "Ceph 18.2 cluster log ('<ISO time>.us+0000 <entity> (<rank>) <seq> : cluster|audit [DBG|INF|WRN|ERR] message'): "
             "mgr pgmap every 2 s (rd/wr/op/s in binary units), scrubs, scrub read errors, health checks, OSD slow requests, "
             "MDS slow requests, caps revokes and evictions",
       DNS: "dnsmasq 2.90 log-facility file ('Mon dd hh:mm:ss dnsmasq[pid]: message', no year): query[A|AAAA|PTR] / "
            "forwarded / reply / cached / config / DHCP / /etc/hosts lines, dnsmasq-dhcp DHCPDISCOVER/OFFER/REQUEST/ACK, "
            "dnsmasq-tftp sent, Maximum number of concurrent DNS queries reached"}


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
        # ------------------------------------------------------------ slurmctld.log
        case("h24-slurm-count-timelimit", "count", "slurm",
             "how many jobs ran out of walltime last night? ('Time limit exhausted' in slurmctld.log)", [SLURM],
             [n(f["s_timelimit"])]),
        case("h24-slurm-count-nonzero-zh", "count", "slurm",
             "slurmctld.log 里 _job_complete 的 WEXITSTATUS 不是 0 的作业有多少个？", [SLURM, DNS],
             [n(f["s_nonzero"])]),
        case("h24-slurm-p95-submit", "stat", "slurm",
             "whats the p95 of usec= on the _slurm_rpc_submit_batch_job lines? batch submits only, not the salloc ones", [SLURM],
             [f["s_p95"]]),
        case("h24-slurm-cleanup-max-zh", "stat", "slurm",
             "slurmctld 里 cleanup_completing 耗时最长的是哪个 JobId？用了多少秒？", [SLURM, CEPH],
             [f["s_cleanup_max_jid"], n(f["s_cleanup_max"])]),
        case("h24-slurm-top-killer-zh", "top", "slurm",
             "昨晚谁 scancel 得最多？按 REQUEST_KILL_JOB 后面的 uid 统计，告诉我 uid", [SLURM],
             [f["s_top_kill_uid"]]),
        case("h24-slurm-followup-drain", "followup", "slurm",
             "what reason did they put on it, and what time exactly did it go to DRAINING?", [SLURM],
             ["blocklisted", f["s_drain_at"]],
             turns=["did anyone drain a node overnight? slurmctld.log is uploaded"]),
        case("h24-slurm-first-notresp-zh", "first", "slurm",
             "slurmctld 今晚第一次报 not responding 是几点几分几秒？是哪个节点？", [SLURM],
             [f["s_first_nr"], f["s_first_nr_node"]]),
        case("h24-slurm-last-timelimit", "last", "slurm",
             "when did the last job hit its time limit? need the exact second", [SLURM, CEPH],
             [f["s_last_tl"]]),
        case("h24-slurm-peak-submit-zh", "peak", "slurm",
             "按分钟统计 _slurm_rpc_submit_batch_job，哪一分钟提交的作业最多？", [SLURM],
             [f["s_peak_submit"]]),
        case("h24-slurm-window-requeue", "window", "slurm",
             "between 03:05 and 03:20, how many 'requeue job ... due to failure of node' lines did slurmctld log?", [SLURM, DNS],
             [n(f["s_window_requeue"])]),
        case("h24-slurm-timeline-cn037-zh", "timeline", "slurm",
             "cn037 那段时间到底发生了什么？把 ceph.log、slurmctld.log、dnsmasq.log 对起来排个时间线，精确到秒："
             "ceph 什么时候 evict 了它的 cephfs client（它的 IP 是 10.44.1.37），slurm 什么时候把它设成 DRAINING，"
             "它重启后第一次拿到 DHCPACK 是几点，slurm 什么时候报 Node cn037 now responding",
             [SLURM, CEPH, DNS], [[x] for x in f["tl_037"]]),
        case("h24-slurm-sum-gpu-cpus", "sum", "slurm",
             "add up #CPUs on every 'sched: Allocate' line with Partition=gpu. total?", [SLURM],
             [n(f["s_gpu_cpus"])]),
        case("h24-slurm-sum-cleanup-zh", "sum", "slurm",
             "把 slurmctld.log 里所有 cleanup_completing 的 completion process took 秒数加起来，一共多少秒？", [SLURM],
             [n(f["s_cleanup_sum"])]),
        # ------------------------------------------------------------ ceph.log
        case("h24-ceph-count-deepok-zh", "count", "ceph", "ceph.log 里 deep-scrub ok 一共有几条？", [CEPH],
             [n(f["c_deep_ok"])]),
        case("h24-ceph-count-slowreq", "count", "ceph",
             "how many 'slow requests (by type ...)' warnings did the osds put in ceph.log tonight", [CEPH, SLURM],
             [n(f["c_slowreq"])]),
        case("h24-ceph-max-wr", "stat", "ceph",
             "highest client write throughput in the pgmap lines (the wr number) — how much and when?", [CEPH],
             [f["c_max_wr"], f["c_max_wr_at"]]),
        case("h24-ceph-mds-longest-zh", "stat", "ceph",
             "mds 报的 slow request 里，最老的那个是多少秒？（看 slow request N seconds old 那种行）", [CEPH],
             [f["c_mds_longest"]]),
        case("h24-ceph-top-osd-zh", "top", "ceph", "哪个 OSD 报 slow requests 报得最多？", [CEPH],
             [f["c_top_osd"]]),
        case("h24-ceph-followup-osd", "followup", "ceph",
             "which host is that osd on, and what time did the mon mark it out?", [CEPH],
             [f["c_osd_host"], f["c_out_at"]],
             turns=["did any osd go down in ceph tonight?"]),
        case("h24-ceph-first-err", "first", "ceph", "when's the very first [ERR] line in ceph.log? to the second", [CEPH],
             [f["c_first_err"]]),
        case("h24-ceph-last-healthy-zh", "last", "ceph", "ceph 最后一次报 Cluster is now healthy 是几点几分几秒？", [CEPH, DNS],
             [f["c_last_healthy"]]),
        case("h24-ceph-peak-err", "peak", "ceph", "which minute had the most [ERR] lines in ceph.log", [CEPH],
             [f["c_peak_err"]]),
        case("h24-ceph-window-mds-zh", "window", "ceph",
             "01:40 到 02:00 之间，mds 打了多少条 slow request ... seconds old？", [CEPH],
             [n(f["c_window_mds"])]),
        case("h24-ceph-timeline-osd17", "timeline", "ceph",
             "walk me through the osd.17 mess to the second, ceph.log + slurmctld.log: when the SLOW_OPS health check for osd.17 "
             "failed, when the mon marked osd.17 failed, when slurm logged its first cleanup_completing, and when osd.17 got "
             "marked out", [CEPH, SLURM], [[x] for x in f["tl_osd"]]),
        case("h24-ceph-sum-scruberr-zh", "sum", "ceph",
             "把 ceph.log 里每条 “deep-scrub N errors” 的 N 加起来，总共多少个 scrub error？", [CEPH],
             [n(f["c_scrub_errors"])]),
        case("h24-ceph-distinct-pgs", "distinct", "ceph",
             "how many different PGs had a scrub or deep-scrub start tonight (the 'scrub starts' / 'deep-scrub starts' lines)?",
             [CEPH], [n(f["c_distinct_pgs"])]),
        # ------------------------------------------------------------ dnsmasq.log
        case("h24-dns-count-ack", "count", "dns", "how many DHCPACKs did dnsmasq hand out overnight", [DNS],
             [n(f["d_acks"])]),
        case("h24-dns-count-nx-zh", "count", "dns", "dnsmasq.log 里 NXDOMAIN 的回答一共有多少条？", [DNS, SLURM],
             [n(f["d_nx"])]),
        case("h24-dns-top-client", "top", "dns", "which client ip sent dnsmasq the most queries?", [DNS],
             [[f["d_top_client"], "cn052"]]),
        case("h24-dns-followup-upstream-zh", "followup", "dns", "哪个上游 forwarded 得最多？一共转发了多少次？", [DNS],
             [f["d_up_top"], n(f["d_up_count"])],
             turns=["dnsmasq 把查询 forwarded 到了哪些上游服务器？"]),
        case("h24-dns-first-maxq-zh", "first", "dns",
             "dnsmasq 第一次报 Maximum number of concurrent DNS queries reached 是几点几分几秒？", [DNS, SLURM],
             [f["d_first_maxq"]]),
        case("h24-dns-last-tftp", "last", "dns", "when did dnsmasq-tftp last send a boot file? exact time pls", [DNS],
             [f["d_last_tftp"]]),
        case("h24-dns-peak-ack-zh", "peak", "dns", "DHCPACK 按分钟统计，哪一分钟最多？", [DNS],
             [f["d_peak_ack"]]),
        case("h24-dns-window-maxq", "window", "dns",
             "between 00:40 and 00:55 how many times did dnsmasq log 'Maximum number of concurrent DNS queries reached'?", [DNS],
             [n(f["d_window_maxq"])]),
        case("h24-dns-timeline-rack-zh", "timeline", "dns",
             "03:05 之后那段时间发生了什么？把 slurmctld.log、dnsmasq.log、ceph.log 对一下，按时间排，精确到秒："
             "slurm 报那一批节点 not responding、dnsmasq 第一个 DHCPDISCOVER、slurm 第一个 returned to service、"
             "ceph 第一次 evicting unresponsive client", [SLURM, CEPH, DNS], [[x] for x in f["tl_rack"]]),
        case("h24-dns-distinct-names", "distinct", "dns",
             "how many distinct names got looked up in dnsmasq.log (the query[...] lines, any type)?", [DNS],
             [n(f["d_distinct_names"])]),
        case("h24-dns-share-aaaa-zh", "share", "dns", "dnsmasq 的 query 里 AAAA 查询占百分之多少？", [DNS],
             [f["d_share_aaaa"]]),
        case("h24-dns-cross-rack", "cross", "dns",
             "after the power blip at 03:05, which node was first to get a DHCPACK from dnsmasq, and when did slurm put "
             "that node back in service?", [DNS, SLURM], [f["x_node"], f["x_back"]]),
        # ------------------------------------------------------------ processes on this machine
        case("h24-proc-count", "process", "proc", "how many qos-auditor procs are up rn?", [],
             ["{count:qos-auditor}"], procs=[{"name": "qos-auditor", "count": 3, "args": ["--cluster", "ridge"]}]),
        case("h24-proc-script-count-zh", "process", "proc", "scratch-purge 这个 python 脚本现在跑了几个？", [],
             ["{count:scratch-purge}"],
             procs=[{"name": "scratch-purge", "count": 2, "interp": True, "args": ["--older-than", "30d"]}]),
        case("h24-proc-pid", "process", "proc", "pid of gpu-fanctl?", [], ["{pid:gpu-fanctl}"],
             procs=[{"name": "gpu-fanctl", "args": ["--curve", "quiet"]}]),
        case("h24-proc-user", "process", "proc", "which user is license-watch running as", [], ["{user:license-watch}"],
             procs=[{"name": "license-watch", "args": ["--server", "lic01"]}]),
        case("h24-proc-cmdline-zh", "process", "proc", "ingest-rsync 是带什么参数起的？完整命令行给我看看", [],
             ["novaseq-02", "7300"],
             procs=[{"name": "ingest-rsync", "args": ["--src", "/instrument/novaseq-02", "--dest", "/scratch/runs",
                                                      "--bwlimit", "7300"]}]),
        case("h24-proc-port", "process", "proc", "what port is prom-slurm-exp listening on", [], ["{port:prom-slurm-exp}"],
             procs=[{"name": "prom-slurm-exp", "listen": True, "args": ["--collect", "partitions"]}]),
        case("h24-proc-top-mem-zh", "top", "proc", "align-cache、kmer-index、bam-sorter 这三个进程谁占内存最多？", [],
             ["kmer-index"],
             procs=[{"name": "align-cache", "mem_mb": 90}, {"name": "kmer-index", "mem_mb": 280},
                    {"name": "bam-sorter", "mem_mb": 160}]),
        case("h24-proc-followup-pid-zh", "followup", "proc", "它的 pid 是多少？", [], ["{pid:sacct-mirror}"],
             turns=["sacct-mirror 还在跑吗？"], procs=[{"name": "sacct-mirror", "args": ["--interval", "300"]}]),
        case("h24-proc-followup-user", "followup", "proc", "ok who owns it", [], ["{user:mdtest-probe}"],
             turns=["is there an mdtest-probe process on this box?"],
             procs=[{"name": "mdtest-probe", "args": ["--fs", "/scratch"]}]),
        case("h24-action-kill", "action", "proc", "stuck-stagein has been wedged for an hour, kill it", [],
             approval={"kill": "stuck-stagein"}, procs=[{"name": "stuck-stagein", "args": ["--job", "7829113"]}]),
        case("h24-action-kill-zh", "action", "proc", "fastq-splitter 起了三个，全部杀掉", [],
             approval={"kill": "fastq-splitter"},
             procs=[{"name": "fastq-splitter", "count": 3, "args": ["--lanes", "8"]}]),
        case("h24-action-followup-kill-zh", "action", "proc", "都停掉吧", [],
             turns=["有没有 blast-shard 进程在跑？有几个？"],
             approval={"kill": "blast-shard"}, procs=[{"name": "blast-shard", "count": 2, "args": ["--db", "nt"]}]),
    ]
    return rows
