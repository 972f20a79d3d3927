"""The `queries-heldout8` cases: what an on-call engineer types, and what the answer must hold.
Every figure comes from `gen.facts` (the written fixtures parsed back), never from here.
"""

PROM, GRAF, TOM = "prometheus.log", "grafana.log", "localhost_access_log.2033-10-27.txt"
NOMAD, AIR, NGX, LDAP = "nomad-client-nmd-c3.log", "airflow-scheduler.log", "shop-edge-access.log", "slapd-ldap-1.log"

FMT = {PROM: "prometheus server logfmt", GRAF: "grafana logfmt (router logging)",
       TOM: "tomcat 9 access log valve with %D (ms, %t = request start)", NOMAD: "nomad client hclog",
       AIR: "airflow scheduler log with task tracebacks", NGX: "nginx access log with rt/uct/uht/urt",
       LDAP: "openldap slapd via syslog (conn/op joins)"}


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


def alloc(a):
    """An allocation id in full or by the 8-character prefix Nomad's CLI shows."""
    return [a, a[:8]]


def cases(f, n):
    rows = [
        # --- one-shot questions over one log (a neighbour often uploaded beside it)
        case("h8-count-tomcat-503", "count", "tomcat access log - how many 503s?", [TOM, NGX], [n(f["tc_503"])]),
        case("h8-count-slapd-err49-zh", "count", "ldap-1 的 slapd 日志里 err=49 一共出现多少次", [LDAP], [n(f["ldap_49"])]),
        case("h8-count-prom-remote-write", "count",
             "prom server log - how many 'Failed to send batch, retrying' lines? need the exact number", [PROM, GRAF],
             [n(f["prom_rw"])]),
        case("h8-count-nomad-heartbeat-zh", "count", "nmd-c3 那个 nomad client 的日志，error heartbeating 一共报了几次", [NOMAD],
             [n(f["nomad_hb"])]),
        case("h8-count-nginx-slow", "count", "shop edge nginx log, how many reqs took longer than 2s? (rt field)",
             [NGX, TOM], [n(f["ngx_slow"])]),
        case("h8-window-nginx-502-zh", "window", "nginx 边缘访问日志，02:30 到 03:00 之间 502 有多少个", [NGX, TOM],
             [n(f["ngx_502_window"])]),
        case("h8-window-grafana-error-zh", "window", "grafana 日志 2:30~3:00 这半小时 level=error 的有几条", [GRAF, PROM],
             [n(f["gf_err_window"])]),
        case("h8-window-slapd-binds", "window", "slapd log: how many binds failed (err=49) between 01:10 and 01:50 utc?",
             [LDAP, AIR], [n(f["ldap_49_window"])]),
        case("h8-distinct-nginx-ips", "distinct", "how many unique client IPs hit the shop edge nginx tonight?", [NGX],
             [n(f["ngx_ips"])]),
        case("h8-distinct-slapd-dns", "distinct", "ldap log - how many different DNs had a failed bind (err=49)?", [LDAP],
             [n(f["ldap_dns_49"])]),
        case("h8-distinct-tomcat-ips-zh", "distinct", "tomcat 访问日志里一共有多少个不同的客户端 IP（%h 那列）", [TOM, NGX],
             [n(f["tc_ips"])]),
        case("h8-top3-nginx-ips", "top", "top 3 client ips by request count in the nginx edge log", [NGX, TOM],
             list(f["ngx_top_ips"])),
        case("h8-top-slapd-ip-zh", "top", "slapd 里绑定失败（err=49）最多的是哪个来源 IP", [LDAP], [f["ldap_top_ip"]]),
        case("h8-top3-grafana-users-zh", "top", "grafana 日志按 uname 统计请求数，前三是谁", [GRAF], list(f["gf_top_users"])),
        case("h8-top-airflow-dag", "top", "airflow scheduler: which dag has teh most failed task instances", [AIR],
             [f["af_top_failed_dag"]]),
        case("h8-stat-tomcat-pass-p95", "stat",
             "whats the p95 of %D for GET /passdesk/api/passes/<id> in the tomcat access log? in seconds pls", [TOM],
             [f["tc_pass_p95"]]),
        case("h8-stat-nginx-checkout-urt-zh", "stat", "nginx 里 POST /api/checkout 的 urt 平均多少毫秒？只算 status 200 的", [NGX],
             [[str(f["ngx_checkout_mean"]), f"0.{f['ngx_checkout_mean']:03d}"]]),
        case("h8-stat-airflow-pull-mean-zh", "stat",
             "airflow 调度日志里 turnstile_sync.pull_scans 成功的那些，run_duration 平均是多少毫秒", [AIR],
             [[str(f["af_pull_mean_ms"]), f"{f['af_pull_mean_ms']:,}", f"{f['af_pull_mean_ms'] / 1000:.3f}"]]),
        case("h8-stat-grafana-dash-max", "stat",
             "slowest GET /api/dashboards/uid/... in grafana, how long was it in seconds? (time_ms)", [GRAF],
             [f["gf_dash_max"]]),
        case("h8-peak-nginx-504-minute", "peak", "nginx edge: which minute had the most 504s", [NGX], [f["ngx_504_minute"]]),
        case("h8-peak-slapd-hour-zh", "peak", "slapd 的 err=49 按小时统计，哪个小时最多", [LDAP], [hour(f["ldap_49_hour"])]),
        # --- follow-ups (only the last turn is scored)
        case("h8-followup-nginx-504", "followup", "and 504s?", [NGX, TOM], [n(f["ngx_504"])],
             turns=["how many 502s in the nginx shop edge log?"]),
        case("h8-followup-slapd-first-zh", "followup", "它第一次失败是几点", [LDAP], [f["ldap_svc_first_fail"]],
             turns=["ldap 日志里 err=49 最多的是哪个 DN"]),
        case("h8-followup-nginx-scraper-total", "followup", "how many requests did it send in total, any status?", [NGX],
             [n(f["ngx_429_ip_total"])], turns=["which client IP got the most 429s at the nginx edge?"]),
        case("h8-followup-grafana-500-minute-zh", "followup", "按分钟呢，哪一分钟最多", [GRAF], [f["gf_500_minute"]],
             turns=["grafana 日志里 status=500 的请求一共多少"]),
        case("h8-followup-tomcat-checkout-p95", "followup", "and the p95? in seconds", [TOM], [f["tc_checkout_p95"]],
             turns=["tomcat access log: mean %D of POST /passdesk/api/checkout, in ms?"]),
        case("h8-followup-airflow-last-fail-zh", "followup", "最后一次失败是几点", [AIR], [f["af_ts_last_fail"]],
             turns=["airflow 里 turnstile_sync 失败了几次"]),
        case("h8-followup-nomad-alloc", "followup", "which alloc was that? alloc_id pls", [NOMAD],
             [alloc(f["nomad_oom_alloc"])], turns=["when did the nomad client on nmd-c3 first log OOM Killed?"]),
        case("h8-followup-prom-group-last-zh", "followup", "最多的那个 group，最后一次报错是几点", [PROM], [f["prom_slo_last"]],
             turns=["prometheus 日志里 Evaluating rule failed 有几条", "按 group 分呢"]),
        case("h8-followup-proc-count", "followup", "how many copies of it?", [], ["{count:gatepulse}"],
             turns=["is gatepulse running on this box?"],
             procs=[{"name": "gatepulse", "count": 3, "args": ["--gates", "G-101..G-184"]}]),
        case("h8-followup-nginx-second-path-zh", "followup", "第二个呢，它有多少个 5xx", [NGX], [n(f["ngx_second_5xx"])],
             turns=["nginx 边缘日志按请求数排前三的 path 是哪些"]),
        # --- what happened around HH:MM, across two or three logs
        case("h8-timeline-0110", "timeline", "what happened around 01:10? airflow scheduler + slapd logs", [AIR, LDAP],
             [[f["ldap_mod"], f["af_set_pw"]], ["svc-passdesk"], f["ldap_svc_first_fail"], f["af_push_first_fail"]]),
        case("h8-timeline-0147-zh", "timeline", "01:47 前后 nomad 和 slapd 日志里都发生了什么？按时间列一下", [NOMAD, LDAP],
             [f["ldap_svc_last_fail"], f["nomad_render"], f["ldap_svc_first_ok_after"]]),
        case("h8-timeline-0220", "timeline", "anything notable around 02:20 in the nomad client log and the prometheus log?",
             [NOMAD, PROM], [f["nomad_deploy_started"], ["2.14.0"], f["prom_slo_first"]]),
        case("h8-timeline-0231-zh", "timeline", "2:31 左右出了什么事？nomad、nginx、tomcat 三个日志一起看", [NOMAD, NGX, TOM],
             [f["nomad_first_oom"], ["OOM Killed", "OOM"], ["502"]]),
        case("h8-timeline-0244", "timeline", "what happened around 02:44 - prometheus and nomad logs", [PROM, NOMAD],
             [f["nomad_am_oom"], ["alertmanager"], f["prom_am_first"], ["Error sending alert"]]),
        case("h8-timeline-0250-zh", "timeline", "2:50 前后 nomad 和 nginx 边缘日志发生了什么？一直看到恢复为止", [NOMAD, NGX],
             [f["nomad_gave_up"], f["nomad_revert_started"], f["ngx_last_502"]]),
        case("h8-timeline-0312", "timeline", "around 03:12, grafana + slapd — what's going on?", [GRAF, LDAP],
             [f["spray_ip"], f["spray_first"], f["spray_last"]]),
        case("h8-timeline-0335-zh", "timeline", "03:35 左右 prometheus 和 airflow 都报了什么错", [PROM, AIR],
             [f["prom_rw_first"], ["Failed to send batch"], f["af_archive_fail"], ["mimir"]]),
        # --- what went wrong
        case("h8-incident-gate-sessions", "incident",
             "turnstiles couldn't open sessions from ~1:10 till ~1:47, passdesk kept saying 503. what went wrong? "
             "airflow + slapd + tomcat logs attached", [AIR, LDAP, TOM],
             [["svc-passdesk"], ["err=49", "Invalid credentials", "invalid credentials", "invalidCredentials"],
              ["push_nomad_var"], ["403", "Forbidden"]]),
        case("h8-incident-oom-zh", "incident", "总结一下 2:30 之后 passdesk 挂掉的那次故障，nomad / nginx / tomcat 日志都传了",
             [NOMAD, NGX, TOM], [["OOM Killed", "OOM"], ["2.14.0"], [f["nomad_first_oom"][:-3]]]),
        case("h8-incident-spray-zh", "incident", "3点多 grafana 登录失败一大堆，是怎么回事？slapd 日志也在", [GRAF, LDAP],
             [f["spray_ip"], n(f["spray_users"])]),
        case("h8-incident-no-page", "incident",
             "nobody got paged while passdesk was flapping around 2:45 — why? prometheus + nomad logs", [PROM, NOMAD],
             [["alertmanager"], ["OOM Killed", "OOM"], ["Error sending alert", "connection refused"],
              [f["nomad_am_oom"][:-3]]]),
        case("h8-incident-mimir-zh", "incident", "prometheus 3点半以后是不是出问题了？总结一下，airflow 日志也在", [PROM, AIR],
             [["mimir-gw.gullwing.example", "mimir"], ["Failed to send batch", "context deadline exceeded"],
              ["metrics_archive", "export_mimir"]]),
        # --- the live machine
        case("h8-proc-count", "process", "how many liftsync-worker procs r running rn", [], ["{count:liftsync-worker}"],
             procs=[{"name": "liftsync-worker", "count": 5, "args": ["--valley", "all"]}]),
        case("h8-proc-pid-zh", "process", "passdesk-tail 进程的 pid 多少", [], ["{pid:passdesk-tail}"],
             procs=[{"name": "passdesk-tail", "args": ["--follow", "/var/log/passdesk"]}]),
        case("h8-proc-user-zh", "process", "snowcam-ingest 是用哪个用户跑的", [], ["{user:snowcam-ingest}"],
             procs=[{"name": "snowcam-ingest", "args": ["--cams", "12"]}]),
        case("h8-socket-port-zh", "socket", "ropecam-relay 在监听哪个端口？", [], ["{port:ropecam-relay}"],
             procs=[{"name": "ropecam-relay", "listen": True, "args": ["--upstream", "cam-gw"]}]),
        case("h8-disk-root", "disk", "how full is / on this box? % used", [], ["{df:/:pcent}"]),
        case("h8-action-kill-replayer", "action", "gate-replayer is hammering passdesk again, just kill it", [],
             approval={"kill": "gate-replayer"}, procs=[{"name": "gate-replayer", "args": ["--since", "01:00"]}]),
    ]
    return rows
