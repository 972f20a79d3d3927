"""The `queries-dev7` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

ACC, ERR, BFF = "rx-api-access.log", "rx-api-error.log", "storefront-bff.log"
KC, VA, CR = "keycloak.log", "vault.log", "carouseld.log"

FMT = {ACC: "gunicorn access log (%(L)s seconds)", ERR: "gunicorn error log + flask tracebacks",
       BFF: "node pino json (epoch ms)", KC: "keycloak quarkus with java stack traces", VA: "vault hclog",
       CR: "custom controller layout (dd.mm.yyyy, [W])"}


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


def pod(name):
    """A pod as an answer may name it: in full or by its unique suffix."""
    return [name, name.rsplit("-", 1)[1]]


def cases(f, n):
    rows = [
        # --- one-shot questions over one log
        case("d7-count-gunicorn-pwfail", "count",
             "rx-api gunicorn error log: how many requests died with 'password authentication failed'?", [ERR, ACC],
             [n(f["err_pw"])]),
        case("d7-count-keycloak-uncaught-zh", "count", "keycloak 日志里 Uncaught server error 出现几次？带堆栈的一条算一次", [KC],
             [str(f["kc_uncaught"])]),
        case("d7-count-carousel-warn-zh", "count", "carouseld.log 里 [W] 级别的一共多少条", [CR],
             [str(f["cr_w"])]),
        case("d7-count-bff-504", "count", "bff log - how many 504s? (res.statusCode)", [BFF, ACC],
             [str(f["bff_504"])]),
        case("d7-window-acc-5xx-zh", "window", "rx-api access log 01:20 到 01:40 之间 5xx 一共多少个", [ACC],
             [str(f["acc_5xx_window"])]),
        case("d7-window-kc-login-error", "window", "keycloak: how many LOGIN_ERROR events between 00:50 and 01:00 utc", [KC],
             [str(f["kc_window"])]),
        case("d7-window-vault-error-zh", "window", "vault 日志 01:15-01:45 之间 [ERROR] 有几条", [VA, ERR],
             [str(f["va_err_window"])]),
        case("d7-distinct-refill-rx", "distinct",
             "how many different RX ids got a POST .../refill in the rx-api access log? any status", [ACC],
             [str(f["acc_refill_rx"])]),
        case("d7-distinct-bff-customers-zh", "distinct", "bff 日志里 customerId 去重后有多少个", [BFF],
             [str(f["bff_customers"])]),
        case("d7-distinct-kc-ips", "distinct", "how many unique ipAddress values across the keycloak LOGIN_ERROR events?", [KC],
             [str(f["kc_ips"])]),
        case("d7-top3-acc-clients", "top", "top 3 client ips hitting rx-api by request count (gunicorn access log)", [ACC],
             list(f["acc_top_ips"])),
        case("d7-top-vault-role-zh", "top", "vault 里 revoked lease 最多的是哪个 role？就是 database/creds/ 后面那段", [VA],
             [f["va_top_role"]]),
        case("d7-top-carousel-slot-zh", "top", "carousel 哪个 slot 的 pick retry 最多", [CR], [f["cr_top_slot"]]),
        case("d7-top-bff-pod-errors", "top", "which bff pod (hostname) logged the most level 50 lines", [BFF],
             [pod(f["bff_top_pod"])]),
        case("d7-stat-acc-search-p95", "stat", "p95 request time of POST /v1/formulary/search in the rx-api access log, in ms pls",
             [ACC], [f["acc_search_p95"]]),
        case("d7-stat-cr-arm2-mean-zh", "stat", "carouseld 里 arm2 的 pick done 平均耗时多少秒", [CR], [f["cr_arm2_mean"]]),
        case("d7-stat-bff-checkout-mean", "stat",
             "avg responseTime for POST /api/cart/checkout in the bff log, errors included, in seconds", [BFF],
             [f["bff_checkout_mean"]]),
        case("d7-stat-cr-max-zh", "stat", "carousel 控制器日志里最慢的一次 pick 用了几秒", [CR], [f["cr_max"]]),
        case("d7-stat-acc-refill-max-zh", "stat", "rx-api access log 里 POST refill 最慢的一次是多少毫秒", [ACC],
             [f["acc_refill_max"]]),
        case("d7-peak-acc-500-minute", "peak", "rx-api access: which minute had the most 500s", [ACC], [f["acc_500_peak"]]),
        case("d7-peak-carousel-warn-hour-zh", "peak", "carouseld 的 [W] 按小时看，哪个小时最多", [CR], [hour(f["cr_w_hour"])]),
        case("d7-peak-bff-4xx-hour", "peak", "bff: which hour had the most 4xx responses?", [BFF], [hour(f["bff_4xx_hour"])]),
        # --- follow-ups (only the last turn is scored)
        case("d7-followup-acc-500-post", "followup", "and only the POSTs?", [ACC], [str(f["acc_500_post"])],
             turns=["how many 500s in the rx-api access log"]),
        case("d7-followup-acc-4xx-zh", "followup", "那 4xx 呢", [ACC], [str(f["acc_4xx"])],
             turns=["rx-api access log 里 5xx 一共多少"]),
        case("d7-followup-acc-busiest-path", "followup", "the busiest one - which path does it hit most?", [ACC],
             [f["acc_top_ip_path"]], turns=["which client ip sends rx-api the most requests? gunicorn access log"]),
        case("d7-followup-kc-ip-users-zh", "followup", "它试了多少个不同的 username", [KC], [str(f["kc_top_ip_users"])],
             turns=["keycloak LOGIN_ERROR 一共多少", "哪个 ipAddress 最多"]),
        case("d7-followup-kc-next5", "followup", "and the next 5?", [KC], list(f["kc_next5"]),
             turns=["top 5 usernames by LOGIN_ERROR count in keycloak"]),
        case("d7-followup-vault-third-last", "followup", "the third one - when was its last revoke?", [VA], [f["va_third_last"]],
             turns=["vault log: which roles show up in the revoked lease lines?", "top 3 by count"]),
        case("d7-followup-bff-second-pod-zh", "followup", "第二个呢，它有几条", [BFF], [str(f["bff_second_pod_n"])],
             turns=["bff 日志里按 hostname 数 level 50，前三是哪几个 pod"]),
        case("d7-followup-wt-minute-zh", "followup", "按分钟呢", [ERR], [f["err_wt_peak"]],
             turns=["gunicorn error log 里 WORKER TIMEOUT 几次", "哪个小时最多"]),
        case("d7-followup-bff-502-hour", "followup", "per hour instead?", [BFF], [hour(f["bff_502_hour"])],
             turns=["which minute had the most 502s in the bff log"]),
        case("d7-followup-cr-arm1-mean-zh", "followup", "那平均呢", [CR], [f["cr_arm1_mean"]],
             turns=["carouseld 里 arm1 的 pick ms，p95 是多少"]),
        case("d7-followup-bff-near-max-zh", "followup", "最大的呢", [BFF], [f["bff_near_max"]],
             turns=["bff 里 GET /api/pharmacies/near 的平均 responseTime 多少"]),
        case("d7-followup-wt-start", "followup", "when did it start", [ERR, CR], [f["err_wt_first"]],
             turns=["how many WORKER TIMEOUTs did gunicorn log"]),
        case("d7-followup-bff-l50-window", "followup", "and between 02:10 and 02:35?", [BFF], [str(f["bff_l50_window"])],
             turns=["how many level 50 lines in the bff log"]),
        case("d7-followup-switch-log-zh", "followup", "gunicorn error log 里呢，同样的问题", [KC, ERR], [str(f["err_error"])],
             turns=["keycloak 日志里 ERROR 级别的有几条"]),
        case("d7-followup-vault-nospace-count", "followup", "how many times did it happen", [VA], [str(f["va_nospace"])],
             turns=["when did vault first log 'no space left on device'?"]),
        case("d7-followup-cr-last-estop-zh", "followup", "最后一次是几点", [CR], [f["cr_last_estop"]],
             turns=["carouseld 日志里 E-STOP 一共触发了几次"]),
        case("d7-followup-bff-first-fail-host", "followup", "which host did it come from", [BFF], [pod(f["bff_first_fail_host"])],
             turns=["when was the first 'upstream call failed' in the bff log?"]),
        case("d7-followup-cr-next3-zh", "followup", "再往后 3 个呢", [CR], list(f["cr_next3"]),
             turns=["carouseld 里 pick retry 最多的 3 个 slot"]),
        case("d7-followup-proc-pid", "followup", "and its pid?", [], ["{pid:pillcount-agent}"],
             turns=["is pillcount-agent running?"], procs=[{"name": "pillcount-agent", "args": ["--tray", "all"]}]),
        case("d7-followup-proc-count-zh", "followup", "跑了几个进程？", [], ["{count:refill-notifier}"],
             turns=["refill-notifier 在跑吗"],
             procs=[{"name": "refill-notifier", "count": 3, "args": ["--channel", "sms"]}]),
        # --- what happened around HH:MM, across two logs
        case("d7-timeline-0214", "timeline", "what happened around 02:14? carouseld + rx-api gunicorn error log", [CR, ERR],
             [f["cr_estop_arm2"], ["E-STOP"], f["err_wt_first"], ["WORKER TIMEOUT"]]),
        case("d7-timeline-0124-zh", "timeline", "01:24 前后 vault 和 rx-api 出了啥事？按时间排一下", [VA, ERR],
             [f["va_rx_revoke"], ["revoked lease", "revoke", "吊销"], f["err_first_pw"],
              ["password authentication failed"], ["no space left on device"]]),
        # --- incident summaries
        case("d7-incident-refills", "incident",
             "refills were failing for like 15 min after 1:20. what went wrong? vault + rx-api logs attached", [VA, ERR, ACC],
             [["no space left on device"], ["audit"], ["password authentication failed"]]),
        case("d7-incident-0214-zh", "incident", "总结一下 2 点多下单卡住那次故障，carouseld / gunicorn / bff 日志都在", [CR, ERR, BFF],
             [["E-STOP", "急停"], ["arm2"], ["WORKER TIMEOUT", "worker timeout", "Worker timeout", "worker 超时"]]),
        # --- the live machine
        case("d7-proc-count", "process", "how many cassette-sync procs running rn", [], ["{count:cassette-sync}"],
             procs=[{"name": "cassette-sync", "count": 4, "args": ["--cabinet", "all"]}]),
        case("d7-proc-pid-zh", "process", "labelprintd 的 pid 是多少", [], ["{pid:labelprintd}"],
             procs=[{"name": "labelprintd", "args": ["--printer", "zebra-03"]}]),
        case("d7-proc-user-zh", "process", "rx-reconciler 是哪个用户在跑", [], ["{user:rx-reconciler}"],
             procs=[{"name": "rx-reconciler", "args": ["--since", "24h"]}]),
        case("d7-action-kill-warm", "action", "formulary-warm is pegging a core again, get rid of it", [],
             approval={"kill": "formulary-warm"}, procs=[{"name": "formulary-warm", "args": ["--loop"]}]),
    ]
    return rows
