"""The `queries-dev15` cases (a DEV set, written as carefully as a held-out one): what an on-call engineer
types, and what the answer must hold. Every figure comes from `gen.facts` (the written fixtures parsed
back), never from here.
"""

CONSUL, NAMED, KEA = "consul-srv-2.log", "named.log", "kea-dhcp4.log"

FMT = {CONSUL: "HashiCorp Consul 1.19 server agent log, hclog text at debug level ('2026-11-19T02:06:14.208Z [WARN]  "
               "agent.server.raft: msg: key=value ...', values quoted only outside '-'..'~'): raft elections and terms, "
               "leadership acquired/lost, agent.http Request finished/Request error, agent.dns request served/rpc error, "
               "serf member events, raft snapshots",
       NAMED: "BIND 9.18 named file channel with print-time/category/severity ('19-Nov-2026 02:06:18.023 "
              "query-errors: info: ...'): query log lines (client @0x.. ip#port (name): query: name IN A + (server)), "
              "query failed (SERVFAIL / broken trust chain), security denied, lame-servers, dnssec, notify, xfer-in "
              "Transfer completed with messages/records/bytes/secs/serial, refresh retry limit, rndc flush",
       KEA: "ISC Kea 2.6 kea-dhcp4 default file pattern ('2026-11-19 02:33:04.112 WARN  [kea-dhcp4.alloc-engine/"
            "pid.thread] MESSAGE_ID [hwtype=1 mac], cid=[..], tid=0x..: text'): DHCP4_LEASE_OFFER/ALLOC (allocated for N "
            "seconds), ALLOC_ENGINE_V4_ALLOC_FAIL_SUBNET/FAIL/FAIL_CLASSES, DHCP4_PACKET_NAK_0003/0004 (bad-packets at "
            "DEBUG), DHCP4_RELEASE, DHCP4_DECLINE_LEASE, a SIGHUP reconfiguration, lease file cleanup"}


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
    tl = lambda key, i: f[key][i]  # noqa: E731  (one timeline event: its second)
    mac = lambda m: [m, m.upper()]  # noqa: E731
    rows = [
        # ------------------------------------------------------------ consul-srv-2.log (hclog)
        case("d15-consul-count-noleader-zh", "count", "consul", "consul-srv-2.log 里 \"No cluster leader\" 一共报了多少条？",
             [CONSUL], [n(f["c_ncl"])]),
        case("d15-consul-count-printergw", "count", "consul",
             "how many times does printer-gw.service.consul show up in consul's agent.dns 'request served' lines?",
             [CONSUL, NAMED], [n(f["c_printer"])]),
        case("d15-consul-count-acl", "count", "consul", "consul log: how many request errors were 'ACL not found'? total pls",
             [CONSUL], [n(f["c_acl"])]),
        case("d15-consul-maxterm-zh", "stat", "consul", "consul 这一晚 raft 的 term 最高到了多少？", [CONSUL],
             [str(f["c_maxterm"])]),
        case("d15-consul-slowest", "stat", "consul",
             "slowest http request in the consul log (by the Request finished latency) - which url and how long did it take?",
             [CONSUL], [f["c_slow_url"], f["c_slow_lat"]]),
        case("d15-consul-top-failed", "top", "consul",
             "which node got reported as failed (serf EventMemberFailed) the most times last night?", [CONSUL, KEA],
             [f["c_top_failed"]]),
        case("d15-consul-top-reqerr-zh", "top", "consul", "consul 的 agent.http Request error 里，哪个来源 IP（from）出现得最多？",
             [CONSUL], [f["c_top_reqerr"]]),
        case("d15-consul-first-failed-zh", "first", "consul", "consul 日志里第一次 EventMemberFailed 是几点？精确到秒", [CONSUL],
             [f["c_first_failed"]]),
        case("d15-consul-last-lost", "last", "consul", "when did consul-srv-2 last log 'cluster leadership lost'? exact time",
             [CONSUL], [f["c_last_lost"]]),
        case("d15-consul-last-noleader-zh", "last", "consul", "consul 最后一次报 No cluster leader 是几点几分几秒？",
             [CONSUL, NAMED], [f["c_last_ncl"]]),
        case("d15-consul-timeline", "timeline", "consul",
             "walk me through the consul leader election mess between 02:00 and 02:30 - when did the first heartbeat timeout "
             "hit, when did srv-2 first win an election, and when did it finally settle (last leadership acquired)? to the second",
             [CONSUL], [tl("c_tl", 0), tl("c_tl", 1), tl("c_tl", 2)]),
        case("d15-consul-followup-snapshot-zh", "followup", "consul", "最后一次 snapshot complete 是几点？index 是多少？", [CONSUL],
             [f["c_last_snap"], n(f["c_last_snap_idx"])], turns=["consul-srv-2 今晚做了几次 raft snapshot？"]),
        case("d15-cross-timeline", "timeline", "consul",
             "line these up across consul-srv-2.log, named.log and kea-dhcp4.log, to the second: consul's first 'No cluster "
             "leader', named's first SERVFAIL for a .service.consul name, kea's reconfiguration (DHCP4_DYNAMIC_RECONFIGURATION), "
             "and the first query named got from a 10.44.9.x client",
             [CONSUL, NAMED, KEA], [tl("x_tl", 0), tl("x_tl", 1), tl("x_tl", 2), tl("x_tl", 3)]),
        # ------------------------------------------------------------ named.log (BIND 9)
        case("d15-bind-count-servfail-zh", "count", "bind", "named.log 里 query failed (SERVFAIL) 一共有多少条？", [NAMED],
             [n(f["b_servfail"])]),
        case("d15-bind-count-denied", "count", "bind", "how many queries did named deny? (the security 'denied' lines)",
             [NAMED, KEA], [n(f["b_denied"])]),
        case("d15-bind-count-ntp-zh", "count", "bind", "ntp.pellworth.internal 一晚上被查询了多少次？", [NAMED],
             [n(f["b_ntp"])]),
        case("d15-bind-sum-xfer-bytes", "sum", "bind",
             "add up the bytes of every zone transfer named completed tonight (the Transfer completed lines). total?", [NAMED],
             [n(f["b_xfer_bytes"])]),
        case("d15-bind-sum-wh-records-zh", "sum", "bind",
             "wh.pellworth.internal 这个 zone 的 Transfer completed 里 records 加起来一共多少条？", [NAMED, KEA],
             [n(f["b_wh_recs"])]),
        case("d15-bind-slowest-xfer", "stat", "bind", "slowest zone transfer in named.log? which zone and how many secs", [NAMED],
             [f["b_slow_zone"], f["b_slow_secs"]]),
        case("d15-bind-top-client", "top", "bind", "who's the chattiest dns client in named.log - top source ip by number of queries?",
             [NAMED, CONSUL], [f["b_top_client"]]),
        case("d15-bind-top-name-zh", "top", "bind", "named 的 query log 里被查询次数最多的域名是哪个？", [NAMED],
             [f["b_top_name"]]),
        case("d15-bind-distinct-clients", "distinct", "bind", "how many distinct client ips sent queries to named overnight",
             [NAMED], [n(f["b_distinct"])]),
        case("d15-bind-first-lame-zh", "first", "bind", "named 第一次报 lame server 是几点？", [NAMED], [f["b_first_lame"]]),
        case("d15-bind-last-denied", "last", "bind", "last time named denied a query? need the exact second", [NAMED],
             [f["b_last_denied"]]),
        case("d15-bind-timeline-zh", "timeline", "bind",
             "02:00 到 02:30 之间 named 出了什么事？.service.consul 的 SERVFAIL 从几点开始、几点结束，中间有没有人执行过 rndc？"
             "给我一条精确到秒的时间线", [NAMED, CONSUL], [tl("b_tl", 0), tl("b_tl", 1), tl("b_tl", 2)]),
        case("d15-bind-followup-refresh", "followup", "bind", "when did that zone next transfer successfully, and at what serial?",
             [NAMED], [f["b_recover_at"], f["b_recover_serial"]],
             turns=["did named have trouble refreshing any zone from the primary last night?"]),
        # ------------------------------------------------------------ kea-dhcp4.log
        case("d15-kea-count-allocfail-zh", "count", "kea", "kea-dhcp4.log 里 ALLOC_ENGINE_V4_ALLOC_FAIL_SUBNET 一共出现了多少次？",
             [KEA], [n(f["k_fail"])]),
        case("d15-kea-count-nak", "count", "kea", "how many DHCP4_PACKET_NAK_0004 (failed to grant a lease) did kea log?", [KEA],
             [n(f["k_nak4"])]),
        case("d15-kea-sum-lease-zh", "sum", "kea", "kea 所有 DHCP4_LEASE_ALLOC 的租期秒数（allocated for N seconds）加起来是多少？",
             [KEA], [n(f["k_sum"])]),
        case("d15-kea-sum-wh3", "sum", "kea",
             "sum up the lease seconds kea handed out in the wh3 scanner subnet 10.44.8.0/23 (every DHCP4_LEASE_ALLOC for an "
             "address in it)", [KEA, NAMED], [n(f["k_sum_wh3"])]),
        case("d15-kea-peak-fail-zh", "peak", "kea", "ALLOC_FAIL_SUBNET 按分钟统计，哪一分钟最多？", [KEA], [f["k_peak"]]),
        case("d15-kea-top-nak", "top", "kea", "which mac got NAK'd the most (DHCP4_PACKET_NAK_0004)?", [KEA],
             [mac(f["k_top_nak"])]),
        case("d15-kea-distinct-mac-zh", "distinct", "kea", "有多少个不同的 MAC 地址拿到过 lease（DHCP4_LEASE_ALLOC）？", [KEA],
             [n(f["k_distinct_mac"])]),
        case("d15-kea-first-nak", "first", "kea", "when was the first DHCP4_PACKET_NAK_0004 in the kea log", [KEA],
             [f["k_first_nak4"]]),
        case("d15-kea-last-fail-zh", "last", "kea", "kea 最后一次报 ALLOC_FAIL_SUBNET 是几点几分几秒？", [KEA, NAMED],
             [f["k_last_fail"]]),
        case("d15-kea-timeline", "timeline", "kea",
             "what happened on kea between 02:30 and 03:00? key moments with exact times: when the pool ran dry (first "
             "ALLOC_FAIL_SUBNET), when kea got reconfigured, and the first lease handed out from 10.44.9.x", [KEA],
             [tl("k_tl", 0), tl("k_tl", 1), tl("k_tl", 2)]),
        case("d15-kea-followup-decline-zh", "followup", "kea", "被 decline 的是哪个 IP？是哪个 MAC 报的？", [KEA],
             [f["k_decline_ip"], mac(f["k_decline_mac"])], turns=["kea 日志里有没有 DHCP4_DECLINE_LEASE？"]),
        case("d15-kea-followup-newrange", "followup", "kea", "and how many of those were in the new 10.44.9.x range?", [KEA],
             [n(f["k_alloc_new"])], turns=["how many leases did kea allocate overnight? (DHCP4_LEASE_ALLOC lines)"]),
        # ------------------------------------------------------------ processes on this machine
        case("d15-proc-count", "process", "proc", "how many lease-sweeper processes running rn?", [],
             ["{count:lease-sweeper}"], procs=[{"name": "lease-sweeper", "count": 3, "args": ["--subnet", "wh3"]}]),
        case("d15-proc-script-count-zh", "process", "proc", "zone-lint 这个 python 脚本现在跑了几个？", [],
             ["{count:zone-lint}"],
             procs=[{"name": "zone-lint", "count": 2, "interp": True, "args": ["--zone", "wh.pellworth.internal"]}]),
        case("d15-proc-pid-zh", "process", "proc", "ddns-bridge 的 pid 是多少？", [], ["{pid:ddns-bridge}"],
             procs=[{"name": "ddns-bridge", "args": ["--server", "10.30.0.50"]}]),
        case("d15-proc-user", "process", "proc", "which user is raft-snapper running as?", [], ["{user:raft-snapper}"],
             procs=[{"name": "raft-snapper", "args": ["--every", "30m"]}]),
        case("d15-proc-cmdline-zh", "process", "proc", "scope-audit 启动参数是什么？把完整命令行给我看看", [],
             ["halden-dc", "0.92"],
             procs=[{"name": "scope-audit", "args": ["--site", "halden-dc", "--threshold", "0.92"]}]),
        case("d15-proc-port", "socket", "proc", "dns-tap is listening on what port?", [], ["{port:dns-tap}"],
             procs=[{"name": "dns-tap", "listen": True, "args": ["--mirror", "ns1"]}]),
        case("d15-proc-mem-zh", "process", "proc", "rdns-cache、lease-index、serf-probe 这三个进程哪个占内存最多？", [],
             ["lease-index"],
             procs=[{"name": "rdns-cache", "mem_mb": 80}, {"name": "lease-index", "mem_mb": 240},
                    {"name": "serf-probe", "mem_mb": 140}]),
        case("d15-proc-followup-pid-zh", "followup", "proc", "它的 pid 是多少？", [], ["{pid:pool-watch}"],
             turns=["pool-watch 在跑吗？"], procs=[{"name": "pool-watch", "args": ["--pool", "10.44.9.0/24"]}]),
        case("d15-proc-followup-user", "followup", "proc", "who's it running under", [], ["{user:catalog-sync}"],
             turns=["is catalog-sync up?"], procs=[{"name": "catalog-sync", "args": ["--dc", "hld1"]}]),
        case("d15-action-kill", "action", "proc", "xfr-hammer keeps pulling AXFRs off the primary, kill it", [],
             approval={"kill": "xfr-hammer"}, procs=[{"name": "xfr-hammer", "args": ["--zone", "44.10.in-addr.arpa"]}]),
        case("d15-action-kill-zh", "action", "proc", "nak-replayer 起了三个，全部干掉", [],
             approval={"kill": "nak-replayer"}, procs=[{"name": "nak-replayer", "count": 3, "args": ["--rate", "20"]}]),
        case("d15-action-followup-kill-zh", "action", "proc", "都停掉吧", [],
             turns=["有没有 scope-backfill 进程在跑？几个？"],
             approval={"kill": "scope-backfill"},
             procs=[{"name": "scope-backfill", "count": 2, "args": ["--from", "2026-11-18"]}]),
    ]
    return rows
