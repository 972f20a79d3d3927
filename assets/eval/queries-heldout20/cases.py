"""The `queries-heldout20` cases (HELD-OUT: scores only): what an on-call engineer types, and
what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

SQUID, KUBELET, VAULT = "squid-access.log", "kubelet.log", "vault_audit.log"

FMT = {SQUID: "squid native access.log ('%ts.%03tu %6tr %>a %Ss/%03>Hs %<st %rm %ru %[un %Sh/%<a %mt': epoch "
              "seconds with ms, elapsed ms, client, result code/status, reply bytes, method, url or host:port, user, "
              "hierarchy/peer, mime type)",
       KUBELET: "kubernetes kubelet klog text (file header, then 'Lmmdd hh:mm:ss.uuuuuu threadid file:line] \"msg\" "
                "key=value ...' with quoted, bare and JSON values; no year)",
       VAULT: "hashicorp vault file audit device JSON (one object a line: time, type request/response, auth with "
              "display_name/policies, request with path/operation/remote_address, response, error; hmac-sha256 "
              "strings)"}


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
    tl = lambda key, i: f[key][i]  # noqa: E731  (one timeline event: its second, or either of two readings)
    rows = [
        # ------------------------------------------------------------ squid-access.log (Squid native)
        case("h20-sq-count-denied", "count", "squid", "how many reqs did squid deny tonight (TCP_DENIED)?", [SQUID],
             [n(f["s_denied"])]),
        case("h20-sq-count-503-zh", "count", "squid", "squid-access.log 里返回 503 的请求一共几条？", [SQUID, KUBELET],
             [n(f["s_503"])]),
        case("h20-sq-p95-nw", "stat", "squid",
             "p95 of the elapsed column for api.northwind-carriers.com over the whole proxy log? in ms", [SQUID],
             [f["s_nw_p95"]]),
        case("h20-sq-slowest-zh", "stat", "squid", "squid 日志里 elapsed 最大的那条请求去的是哪个域名？耗时多少毫秒？", [SQUID],
             [f["s_slowest_host"], f["s_slowest"]]),
        case("h20-sq-biggest", "stat", "squid",
             "biggest single reply in squid-access.log by bytes - what host, and the exact byte count pls", [SQUID, VAULT],
             [f["s_biggest_host"], n(f["s_biggest"])]),
        case("h20-sq-pkg-total-zh", "stat", "squid",
             "pkg-containers.githubusercontent.com 这一晚经过代理一共传了多少字节？要精确数字", [SQUID],
             [n(f["s_pkg_total"])]),
        case("h20-sq-top3-hosts", "top", "squid", "top 3 destination hosts in the squid log by # of requests", [SQUID],
             list(f["s_top3_hosts"])),
        case("h20-sq-top3-bytes-zh", "top", "squid", "squid 日志按客户端 IP 把字节数加起来，排前三的是哪几个 IP？", [SQUID],
             list(f["s_top3_bytes"])),
        case("h20-sq-followup-notebook", "followup", "squid", "ok and how many requests did that ip send in total, allowed or not?",
             [SQUID], [n(f["s_notebook_total"])], turns=["which client ip got TCP_DENIED the most in squid-access.log?"]),
        case("h20-sq-first-denied-zh", "first", "squid", "代理今晚第一次 TCP_DENIED 是几点几分几秒？按 UTC", [SQUID],
             [f["s_first_denied"]]),
        case("h20-sq-last-503", "last", "squid", "when was the last 503 in the proxy log? utc, to the second", [SQUID, KUBELET],
             [f["s_last_503"]]),
        case("h20-sq-peak-zh", "peak", "squid", "squid-access.log 按分钟统计请求数，哪一分钟最多？（UTC）", [SQUID],
             [f["s_peak"]]),
        case("h20-sq-timeline", "timeline", "squid",
             "northwind fell over around 2am. using squid-access.log and kubelet.log give me a timeline to the second (utc): "
             "first CONNECT to api.northwind-carriers.com that took over 10s, first quote-api readiness probe failure, "
             "first 503 from the proxy, last quote-api readiness probe failure",
             [SQUID, KUBELET],
             [tl("tl_carrier", 0), tl("tl_carrier", 1), tl("tl_carrier", 2), tl("tl_carrier", 3),
              ["NONE_NONE", "/503", "503 ", "503s", "503)"], ["Probe failed", "readiness", "Readiness"]]),
        # ------------------------------------------------------------ kubelet.log (klog)
        case("h20-kl-count-probe-zh", "count", "kubelet", "kubelet.log 里 \"Probe failed\" 一共有多少条？", [KUBELET],
             [n(f["k_probe_failed"])]),
        case("h20-kl-count-errors", "count", "kubelet", "how many error level lines (the E ones) in kubelet.log?",
             [KUBELET, VAULT], [n(f["k_errors"])]),
        case("h20-kl-slo-p95-zh", "stat", "kubelet", "Observed pod startup duration 里 podStartSLOduration 的 p95 是多少秒？",
             [KUBELET], [f["k_slo_p95"]]),
        case("h20-kl-e2e-max", "stat", "kubelet",
             "which pod took the longest to start on this node (podStartE2EDuration) and how many secs?", [KUBELET],
             [f["k_e2e_max_pod"], f["k_e2e_max"]]),
        case("h20-kl-e2e-median", "stat", "kubelet", "median podStartE2EDuration across all the pod starts in kubelet.log, in seconds?",
             [KUBELET, SQUID], [f["k_e2e_p50"]]),
        case("h20-kl-top-probe-zh", "top", "kubelet", "kubelet.log 里哪个 pod 的 Probe failed 最多？", [KUBELET],
             [f["k_top_probe_pod"]]),
        case("h20-kl-followup-evict", "followup", "kubelet", "what time exactly did it get evicted?", [KUBELET],
             [f["k_evict_t"]], turns=["did the kubelet evict any pod tonight? which one?"]),
        case("h20-kl-first-crash-zh", "first", "kubelet", "kubelet.log 里第一次出现 CrashLoopBackOff 是几点几分几秒？", [KUBELET],
             [hms(f["k_first_crash"])]),
        case("h20-kl-last-probe", "last", "kubelet", "last Probe failed in kubelet.log, what time was that?", [KUBELET],
             [hms(f["k_last_probe"])]),
        case("h20-kl-peak-zh", "peak", "kubelet", "kubelet.log 按分钟数日志行数，哪一分钟最多？", [KUBELET, VAULT],
             [f["k_peak"]]),
        case("h20-kl-window", "window", "kubelet", "between 02:05 and 02:30 how many probe failures did kubelet log?", [KUBELET],
             [n(f["k_window"])]),
        case("h20-kl-distinct-zh", "distinct", "kubelet",
             "今晚这台节点的 Observed pod startup duration 里一共出现了多少个不同的 pod？", [KUBELET],
             [n(f["k_distinct_pods"])]),
        case("h20-kl-timeline-zh", "timeline", "kubelet",
             "quote-api 发版那次出事，结合 vault_audit.log 和 kubelet.log 按时间顺序排一下：有人 update 了 "
             "sys/policies/acl/quote-api、改完之后 vault 第一次 permission denied、kubelet 第一次 CrashLoopBackOff、"
             "策略被改回来、第一个 quote-api 新 pod 变 ready，每一步精确到秒",
             [KUBELET, VAULT],
             [tl("tl_policy", 0), tl("tl_policy", 1), tl("tl_policy", 2), tl("tl_policy", 3), tl("tl_policy", 4),
              ["permission denied"], ["CrashLoopBackOff"]]),
        # ------------------------------------------------------------ vault_audit.log (Vault file audit device)
        case("h20-va-count-denied-zh", "count", "vault", "vault_audit.log 里 permission denied 一共多少次？", [VAULT],
             [n(f["v_denied"])]),
        case("h20-va-count-logins", "count", "vault",
             "how many auth/kubernetes/login requests hit vault tonight? count requests not responses", [VAULT, KUBELET],
             [n(f["v_logins"])]),
        case("h20-va-count-renew-zh", "count", "vault", "sys/leases/renew 的请求一共有多少个？只算 type 是 request 的", [VAULT],
             [n(f["v_renew"])]),
        case("h20-va-top3-ips", "top", "vault", "top 3 remote_address in the vault audit log by number of requests?", [VAULT],
             list(f["v_top3_ips"])),
        case("h20-va-top-denied-zh", "top", "vault", "被 permission denied 最多的是哪个 display_name？", [VAULT, KUBELET],
             [f["v_top_denied_dn"]]),
        case("h20-va-followup-login", "followup", "vault", "when did they log in to vault? utc to the second", [VAULT],
             [hms(f["v_dana_login"])], turns=["who changed the quote-api policy in vault tonight?"]),
        case("h20-va-first-policy-zh", "first", "vault", "sys/policies/acl/quote-api 第一次被 update 是几点几分几秒？", [VAULT],
             [hms(f["v_policy_first"])]),
        case("h20-va-last-denied-qa", "last", "vault",
             "last permission denied for kubernetes-booking-quote-api in the audit log - what time?", [VAULT],
             [hms(f["v_last_denied_qa"])]),
        case("h20-va-peak-zh", "peak", "vault", "vault 审计日志按分钟统计请求数，哪一分钟最多？", [VAULT],
             [f["v_peak"]]),
        case("h20-va-window", "window", "vault", "from 1:10 to 1:40 how many permission denied did vault log?", [VAULT, SQUID],
             [n(f["v_window"])]),
        case("h20-va-distinct-ips-zh", "distinct", "vault", "vault_audit.log 里一共出现过多少个不同的 remote_address？", [VAULT],
             [n(f["v_distinct_ips"])]),
        case("h20-va-share", "share", "vault",
             "what % of vault requests got permission denied tonight? only count the type=request entries", [VAULT],
             [f["v_share"]]),
        # ------------------------------------------------------------ processes on this machine
        case("h20-proc-count", "process", "proc", "how many manifest-sync processes are up rn?", [], ["{count:manifest-sync}"],
             procs=[{"name": "manifest-sync", "count": 3, "args": ["--carrier", "all"]}]),
        case("h20-proc-script-count-zh", "process", "proc", "tariff-calc 这个脚本现在起了几个？", [], ["{count:tariff-calc}"],
             procs=[{"name": "tariff-calc", "count": 2, "interp": True, "args": ["--region", "emea"]}]),
        case("h20-proc-pid", "process", "proc", "whats the pid of dock-scheduler", [], ["{pid:dock-scheduler}"],
             procs=[{"name": "dock-scheduler", "args": ["--yard", "north"]}]),
        case("h20-proc-user-zh", "process", "proc", "customs-relay 是用哪个用户跑的？", [], ["{user:customs-relay}"],
             procs=[{"name": "customs-relay", "args": ["--broker", "eu"]}]),
        case("h20-proc-cmdline-zh", "process", "proc", "berth-planner 的完整启动命令行是什么？参数都给我", [],
             ["harbor-east", "742"],
             procs=[{"name": "berth-planner", "args": ["--terminal", "harbor-east", "--max-berths", "742"]}]),
        case("h20-proc-port", "socket", "proc", "which port is yard-api listening on", [], ["{port:yard-api}"],
             procs=[{"name": "yard-api", "listen": True, "args": ["--zone", "b"]}]),
        case("h20-proc-mem-zh", "process", "proc", "crane-telemetry、bol-archiver、reefer-monitor 这三个哪个占内存最多？", [],
             ["reefer-monitor"],
             procs=[{"name": "crane-telemetry", "mem_mb": 70}, {"name": "bol-archiver", "mem_mb": 120},
                    {"name": "reefer-monitor", "mem_mb": 250}]),
        case("h20-proc-followup-pid-zh", "followup", "proc", "它的 pid 是多少？", [], ["{pid:pallet-tracker}"],
             turns=["pallet-tracker 这个进程还在跑吗？"], procs=[{"name": "pallet-tracker", "args": ["--site", "dc-3"]}]),
        case("h20-proc-followup-user", "followup", "proc", "and what user is it under?", [], ["{user:gate-camera}"],
             turns=["is gate-camera running?"], procs=[{"name": "gate-camera", "args": ["--lane", "4"]}]),
        case("h20-action-kill", "action", "proc", "ais-scraper is wedged, kill it pls", [],
             approval={"kill": "ais-scraper"}, procs=[{"name": "ais-scraper", "args": ["--feed", "global"]}]),
        case("h20-action-kill-zh", "action", "proc", "edi-poller 现在有三个，全部干掉", [],
             approval={"kill": "edi-poller"}, procs=[{"name": "edi-poller", "count": 3, "args": ["--partner", "all"]}]),
        case("h20-action-followup-kill", "action", "proc", "ok kill both of them", [],
             turns=["how many weighbridge processes are running?"],
             approval={"kill": "weighbridge"}, procs=[{"name": "weighbridge", "count": 2, "args": ["--scale", "w2"]}]),
    ]
    return rows
