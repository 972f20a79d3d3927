"""The `queries-dev3` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

CADDY, ENVOY, RABBIT, CELERY = "caddy-access.json", "envoy-access.log", "rabbit@mq-01.log", "celery-worker.log"
JENKINS, EXIM, DNS, F2B, AUDIT = "jenkins.log", "exim_mainlog", "coredns.log", "fail2ban.log", "audit.log"
ES, RIDERS, BASKET, RAILS = "es-search-slowlog.log", "riders-gw.log", "basket-svc.ecs.json", "storefront-production.log"

FMT = {CADDY: "caddy json", ENVOY: "envoy default", RABBIT: "rabbitmq 3.12", CELERY: "celery worker + tracebacks",
       JENKINS: "jenkins controller", EXIM: "exim mainlog", DNS: "coredns (kubectl --timestamps)", F2B: "fail2ban",
       AUDIT: "auditd raw", ES: "elasticsearch slowlog", RIDERS: "nginx pipe-separated", BASKET: "ECS json",
       RAILS: "rails logger (tagged)"}


def case(id_, cat, text, files, answer_has=None, fmt=None, **extra):
    c = {"id": id_, "text": text, "files": sorted(files)}
    if answer_has is not None:
        c["answer_has"] = answer_has
    c.update(extra)
    c["cat"] = cat
    if fmt is None and files:
        fmt = FMT[files[0]]
    if fmt:
        c["fmt"] = fmt
    return c


def hour(h):
    """An hour as an answer may name it."""
    return [f"{h}:00", f"{h}点", f"{h} 点", f"{h}时", f"{h}h", f"hour {h}", f"{h}:xx"]


def cases(f, n):
    rows = [
        # --- count
        case("d3-count-grep-502", "count", "grep -c '\"status\":502' caddy-access.json — what number would that give me", [CADDY, ENVOY],
             [str(f["ca_502"])]),
        case("d3-count-uf-zh", "count", "envoy 日志里 response flags 是 UF 的请求有几条？", [ENVOY, CADDY], [str(f["en_uf"])]),
        case("d3-count-bounce-zh", "count", "exim 今天退信多少封？就是 ** 那种", [EXIM], [str(f["ex_bounce"])]),
        case("d3-count-retries", "count", "celery worker log, how many task retries did we get", [CELERY, RABBIT],
             [str(f["cl_retry"])]),
        case("d3-count-res-failed-zh", "count", "audit.log 里 res=failed 的记录一共多少条", [AUDIT], [str(f["au_failed"])]),
        case("d3-count-es-warn", "count", "hw many WARN level entries in the es slowlog?", [ES], [str(f["es_warn"])]),
        case("d3-count-riders-5xx-zh", "count", "骑手网关那个日志 5xx 一共多少个", [RIDERS, CADDY], [str(f["rg_5xx"])]),
        case("d3-count-rails-500", "count", "rails prod log - count of requests that Completed 500?", [RAILS], [str(f["rl_500"])]),
        # --- distinct
        case("d3-distinct-caddy-ips", "distinct",
             "unique remote_ip count in the caddy log? basically jq -r .request.remote_ip | sort -u | wc -l", [CADDY],
             [n(f["ca_distinct_ip"])]),
        case("d3-distinct-banned-zh", "distinct", "fail2ban 一共封过多少个不同的 IP？", [F2B], [str(f["fb_distinct"])]),
        case("d3-distinct-err-users-zh", "distinct", "basket-svc 日志里报 ERROR 的 user.id 去重后有几个", [BASKET],
             [str(f["bk_err_users"])]),
        # --- top / least
        case("d3-top-uf-host", "top", "which upstream_host racked up the most UF in envoy", [ENVOY], [f["en_uf_host"]]),
        case("d3-top-celery-task-zh", "top", "celery 里哪个 task 报错最多（raised unexpected 那种）", [CELERY],
             [f["cl_top_fail_short"]]),
        case("d3-top3-defer-domains", "top",
             "exim: top 3 recipient domains for deferred msgs (the == lines), like sort | uniq -c | sort -rn | head -3", [EXIM],
             list(f["ex_defer_top3"])),
        case("d3-top-caddy-ip-zh", "top", "caddy 访问日志里请求最多的客户端 IP 是哪个，多少次", [CADDY, ENVOY],
             [f["ca_top_ip"], str(f["ca_top_ip_n"])]),
        case("d3-least-caddy-host", "top", "which host in the caddy log gets the least traffic?", [CADDY], [f["ca_least_host"]]),
        case("d3-top-servfail-name-zh", "top", "coredns 里 SERVFAIL 最多的是哪个域名", [DNS], [f["dn_top_servfail"]]),
        case("d3-top-jail", "top", "fail2ban - which jail banned the most? and how many bans", [F2B],
             [f["fb_top_jail"], str(f["fb_top_jail_n"])]),
        case("d3-top-audit-addr-zh", "top", "audit.log 里 ssh 认证失败最多的来源地址是哪个", [AUDIT, F2B], [f["au_top_addr"]]),
        # --- stat
        case("d3-stat-caddy-p95", "stat", "p95 of `duration` in the caddy access log?", [CADDY], [f["ca_p95"]]),
        case("d3-stat-envoy-mean-zh", "stat", "envoy 里 authority 是 basket-svc 的请求，平均 DURATION 多少毫秒", [ENVOY],
             [f["en_basket_mean"]]),
        case("d3-stat-es-max", "stat", "biggest took_millis in the elasticsearch slow log + which index was it", [ES],
             [[str(f["es_max"]), f"{f['es_max']:,}", f"{f['es_max'] / 1000:.1f}"], f["es_max_index"]]),
        case("d3-stat-receipt-mean-zh", "stat", "celery 的 send_receipt 任务平均跑多久？", [CELERY], [f["cl_receipt_mean"]]),
        case("d3-stat-riders-p99", "stat", "p99 request_time on teh riders gw log pls", [RIDERS], [f["rg_p99"]]),
        case("d3-stat-ecs-max-zh", "stat", "basket-svc 的 event.duration 最大是多少毫秒？对应哪个 url.path", [BASKET],
             [f["bk_max_ms"], f["bk_max_path"]]),
        case("d3-stat-dns-slowest", "stat", "coredns: slowest lookup in there? how long + what name", [DNS],
             [f["dn_slowest"], f["dn_slowest_name"]]),
        # --- peak
        case("d3-peak-caddy-502-zh", "peak", "caddy 的 502 哪一分钟最多？", [CADDY], [f["ca_502_peak"]]),
        case("d3-peak-basket-errors", "peak", "busiest minute for ERRORs in the basket-svc json log?", [BASKET, RAILS],
             [f["bk_err_peak"]]),
        case("d3-peak-servfail-zh", "peak", "coredns SERVFAIL 高峰在哪一分钟", [DNS], [f["dn_servfail_peak"]]),
        case("d3-peak-ban-hour", "peak", "fail2ban: which hour had the most bans?", [F2B], [hour(f["fb_peak_hour"])]),
        case("d3-peak-envoy-uo", "peak", "envoy - what minute had the most UO (overflow) 503s", [ENVOY], [f["en_uo_peak"]]),
        # --- first / last
        case("d3-first-rabbit-alarm", "first_last", "when did rabbit first hit the memory alarm today", [RABBIT],
             [f["rb_first_alarm"]]),
        case("d3-last-deploy-ok-zh", "first_last", "jenkins 上 basket-svc 的 deploy-prod 最后一次成功是几点？", [JENKINS],
             [f["jk_deploy_last_ok"]]),
        case("d3-first-sudoers", "first_last", "audit.log: first time anything touched sudoers (key=sudoers-change)? UTC pls",
             [AUDIT], [f["au_first_sudoers"]]),
        # --- window
        case("d3-window-caddy-502", "window", "how many 502s in caddy between 14:00 and 14:30", [CADDY], [str(f["ca_502_window"])]),
        case("d3-window-exim-last30-zh", "window", "exim 最后半小时有多少条 defer（== 的）", [EXIM], [str(f["ex_defer_last30"])]),
        case("d3-window-envoy-503", "window", "envoy: count of 503s from 14:05 to 14:25?", [ENVOY], [str(f["en_503_window"])]),
        case("d3-window-bans-zh", "window", "fail2ban 13:00 到 13:30 之间 ban 了多少次", [F2B], [str(f["fb_window"])]),
        case("d3-window-rails-500-zh", "window", "storefront 的 rails 日志，最后 30 分钟里有多少个 500", [RAILS],
             [str(f["rl_500_last30"])]),
        # --- timeline (two logs)
        case("d3-timeline-deploy-502-zh", "timeline",
             "basket-svc 的 deploy-prod #1841 在 jenkins 里几点跑完的？caddy 第一个 502 又是几点？", [JENKINS, CADDY],
             [f["jk_1841"], f["ca_first_502"]], f"{FMT[JENKINS]} + {FMT[CADDY]}"),
        case("d3-timeline-dns-rails", "timeline",
             "when did coredns start SERVFAILing api.paywell.example, and when did the rails app log its first Faraday::ConnectionFailed?",
             [DNS, RAILS], [f["dn_first_paywell_sf"], f["rl_first_cf"]], f"{FMT[DNS]} + {FMT[RAILS]}"),
        case("d3-timeline-alarm-amqp-zh", "timeline",
             "rabbit 的内存告警最后一次解除是几点？basket-svc 最后一个 AmqpBlockedException 是几点？", [RABBIT, BASKET],
             [f["rb_last_clear"], f["bk_last_amqp"]], f"{FMT[RABBIT]} + {FMT[BASKET]}"),
        # --- follow-ups
        case("d3-followup-503", "followup", "and 503s?", [CADDY], [str(f["ca_503"])],
             turns=["how many 502s in the caddy log?"]),
        case("d3-followup-defer-count-zh", "followup", "它一共被 defer 了几次", [EXIM], [str(f["ex_defer_top_n"])],
             turns=["exim 里被 defer 最多的是哪个域名"]),
        case("d3-followup-task-peak-zh", "followup", "它失败最多的是哪一分钟", [CELERY], [f["cl_rs_peak"]],
             turns=["celery 哪个任务失败最多"]),
        case("d3-followup-es-2nd", "followup", "the 2nd one - which node, which index?", [ES], [f["es_2nd_node"], f["es_2nd_index"]],
             turns=["top 3 slowest queries in the es slow log"]),
        case("d3-followup-ban-first-zh", "followup", "它第一次被 ban 是几点", [F2B], [f["fb_top_ip_first"]],
             turns=["fail2ban 里被 ban 次数最多的 IP 是哪个"]),
        case("d3-followup-proc-port", "followup", "what port is it listening on", [], ["{port:fridge-telem}"],
             turns=["is fridge-telem running?"], procs=[{"name": "fridge-telem", "listen": True, "args": ["--site", "LDN-N7"]}]),
        case("d3-followup-hour-zh", "followup", "按小时分一下呢？哪个小时最多", [RIDERS], [hour(f["rg_5xx_hour"])],
             turns=["riders-gw 日志里 5xx 有多少"]),
        # --- read-only questions with action words
        case("d3-readonly-heartbeat-kill", "readonly", "how many client connections did rabbit kill off for missed heartbeats?",
             [RABBIT], [str(f["rb_heartbeat"])]),
        case("d3-readonly-delete-zh", "readonly", "caddy 里删除购物车商品（DELETE /api/cart/items/…）成功的请求有多少", [CADDY],
             [str(f["ca_delete_ok"])]),
        case("d3-readonly-ban-count-zh", "readonly", "fail2ban 总共 ban 了多少次？只算 Ban 不算 Found", [F2B], [str(f["fb_bans"])]),
        case("d3-readonly-rejected", "readonly", "exim - how many RCPTs did we reject as relay not permitted?", [EXIM],
             [str(f["ex_rejected"])]),
        # --- the live system
        case("d3-proc-count", "process", "how many picker-sync procs r running rn", [], ["{count:picker-sync}"],
             procs=[{"name": "picker-sync", "count": 9, "args": ["--depot", "LDN-E8"]}]),
        case("d3-proc-interp-pid-zh", "process", "跑着 slot-fcst.py 的那个 python 进程 pid 是多少", [], ["{pid:slot-fcst.py}"],
             procs=[{"name": "slot-fcst.py", "interp": True, "args": ["--depot", "LDN-N7", "--horizon", "48h"]}]),
        case("d3-proc-mem-zh", "process", "三个 route-opt.py 里哪个最吃内存？", [], ["east"],
             procs=[{"name": "route-opt.py", "interp": True, "args": ["--zone", "north"], "mem_mb": 70},
                    {"name": "route-opt.py", "interp": True, "args": ["--zone", "east"], "mem_mb": 180},
                    {"name": "route-opt.py", "interp": True, "args": ["--zone", "south"], "mem_mb": 110}]),
        case("d3-proc-user", "process", "who's running label-printer? need the user + pid", [],
             ["{user:label-printer}", "{pid:label-printer}"],
             procs=[{"name": "label-printer", "user": "evald3-ops", "args": ["--printer", "zebra-03"]}]),
        case("d3-socket-who", "socket", "whats listening on 127.0.0.1:{port:cold-chain-api}?", [],
             ["cold-chain-api", "{pid:cold-chain-api}"], procs=[{"name": "cold-chain-api", "listen": True}]),
        case("d3-socket-port-zh", "socket", "eta-broker 监听的端口号是多少", [], ["{port:eta-broker}"],
             procs=[{"name": "eta-broker", "listen": True}]),
        case("d3-disk-pcent-zh", "disk", "根分区用了百分之多少了", [], ["{df:/:pcent}"]),
        case("d3-disk-size-avail", "disk", "how big is / and how much free space is left on it", [],
             ["{df:/:size}", "{df:/:avail}"]),
        # --- actions asked in words: a proposal for approval, nothing runs
        case("d3-action-kill-all-zh", "action", "把 picker-sync 全部 kill 掉", [],
             procs=[{"name": "picker-sync", "count": 4}], approval={"kill": "picker-sync"}),
        case("d3-action-kill-crate", "action", "crate-scan is hogging a core, kill it pls", [],
             procs=[{"name": "crate-scan", "args": ["--bay", "B4"]}], approval={"kill": "crate-scan"}),
    ]
    return rows
