"""Cases f05-f08: Django runserver, Node bunyan (restify), winston printf, HDFS audit log."""
import json
import random
from datetime import timedelta

from gen_common import (Case, Clock, MONTHS, MONTHS_LONG, ns_from_ms, utc, wchoice)


# =====================================================================================
# f05  Django development server (runserver) console capture
# =====================================================================================
DJ_PATHS = [
    ("GET", "/api/shipments/", 30), ("GET", "/api/shipments/%d/", 12), ("POST", "/api/shipments/", 5),
    ("PATCH", "/api/shipments/%d/", 3), ("GET", "/api/depots/", 5), ("GET", "/api/routes/%d/stops/", 6),
    ("POST", "/api/routes/optimize/", 3), ("GET", "/admin/", 2), ("GET", "/admin/shipments/shipment/", 2),
    ("POST", "/admin/login/?next=/admin/", 1), ("GET", "/static/admin/css/base.css", 3),
    ("GET", "/static/admin/js/core.js", 2), ("GET", "/api/reports/export.csv", 1), ("DELETE", "/api/shipments/%d/", 1),
    ("GET", "/favicon.ico", 2),
]
DJ_SITE = "/srv/fleetdesk/.venv/lib/python3.12/site-packages/django"


def dj_traceback(rng, path):
    head = [
        "Internal Server Error: %s" % path,
        "Traceback (most recent call last):",
        '  File "%s/core/handlers/exception.py", line 55, in inner' % DJ_SITE,
        "    response = get_response(request)",
        "               ^^^^^^^^^^^^^^^^^^^^^",
        '  File "%s/core/handlers/base.py", line 197, in _get_response' % DJ_SITE,
        "    response = wrapped_callback(request, *callback_args, **callback_kwargs)",
        "               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        '  File "%s/views/decorators/csrf.py", line 65, in _view_wrapper' % DJ_SITE,
        "    return view_func(request, *args, **kwargs)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ]
    kind = rng.choice(["zero", "key", "chained"])
    if kind == "zero":
        tail = ['  File "/srv/fleetdesk/routes/views.py", line 88, in optimize',
                "    eta = total_km / avg_speed",
                "          ~~~~~~~~~^~~~~~~~~~~",
                "ZeroDivisionError: division by zero"]
    elif kind == "key":
        tail = ['  File "/srv/fleetdesk/shipments/views.py", line 141, in shipment_detail',
                '    depot = DEPOTS[payload["depot"]]',
                "            ~~~~~~^^^^^^^^^^^^^^^^^^",
                "KeyError: '%s'" % rng.choice(["Zürich-Nord", "Malmö Hamn", "São Paulo 2"])]
    else:
        tail = ['  File "%s/db/backends/utils.py", line 105, in _execute' % DJ_SITE,
                "    return self.cursor.execute(sql, params)",
                "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                "psycopg.errors.UniqueViolation: duplicate key value violates unique constraint \"shipments_tracking_no_key\"",
                "DETAIL:  Key (tracking_no)=(FH%010d) already exists." % rng.randint(10 ** 8, 10 ** 9),
                "",
                "The above exception was the direct cause of the following exception:",
                "",
                "Traceback (most recent call last):",
                '  File "/srv/fleetdesk/shipments/views.py", line 77, in create_shipment',
                "    shipment.save()",
                '  File "%s/db/models/base.py", line 822, in save' % DJ_SITE,
                "    self.save_base(",
                '  File "%s/db/backends/utils.py", line 105, in _execute' % DJ_SITE,
                "    return self.cursor.execute(sql, params)",
                "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                "django.db.utils.IntegrityError: duplicate key value violates unique constraint \"shipments_tracking_no_key\""]
    return head + tail


def f05_django():
    rng = random.Random(3505)
    c = Case("f05-django-runserver", "runserver.log",
             "Django 5.0 development server (manage.py runserver) console output captured to a file", [])
    clk = Clock(rng, utc(2026, 3, 14, 9, 2, 11))
    end = utc(2026, 3, 14, 17, 44, 0)

    def stamp(t):
        return "[%02d/%s/%d %s]" % (t.day, MONTHS[t.month - 1], t.year, t.strftime("%H:%M:%S"))

    def banner(t, changed=None):
        lines = []
        if changed:
            lines.append("%s changed, reloading." % changed)
        lines += ["Watching for file changes with StatReloader", "Performing system checks...", "",
                  "System check identified no issues (0 silenced).",
                  "%s %02d, %d - %s" % (MONTHS_LONG[t.month - 1], t.day, t.year, t.strftime("%H:%M:%S")),
                  "Django version 5.0.3, using settings 'fleetdesk.settings'",
                  "Starting development server at http://0.0.0.0:8000/",
                  "Quit the server with CONTROL-C.", "",
                  "WARNING: This is a development server. Do not use it in a production setting. Use a production "
                  "WSGI or ASGI server instead.",
                  "For more information on production servers see: https://docs.djangoproject.com/en/5.0/howto/deployment/"]
        c.raw(lines)

    banner(clk.t)
    reloads = [utc(2026, 3, 14, 11, 18, 40), utc(2026, 3, 14, 14, 2, 5), utc(2026, 3, 14, 15, 51, 30)]
    changed_files = ["/srv/fleetdesk/shipments/views.py", "/srv/fleetdesk/routes/optimizer.py",
                     "/srv/fleetdesk/fleetdesk/settings.py"]
    last_was_event = False
    while clk.t < end:
        t = clk.tick(0.3, 38)
        if reloads and t >= reloads[0]:
            reloads.pop(0)
            banner(t, changed_files.pop(0))
            clk.tick(1.5, 3.0)
            last_was_event = False
            t = clk.t
            # the first line after a banner is always an access line (see README)
            size = rng.randint(15000, 22000)
            c.ev(t, None, ['%s "GET /api/shipments/ HTTP/1.1" 200 %d' % (stamp(t), size)],
                 method="GET", path="/api/shipments/", status="200", bytes=size)
            last_was_event = True
            continue
        r = rng.random()
        if r < 0.01:
            junk = "".join(rng.choice(["\\x16\\x03\\x01\\x02\\x00\\x01\\x00\\x01\\xfc\\x03\\x03", "\\x9a\\xda\\x13",
                                        "\\xc0+\\xc0/", "\\x00\\x1d\\x00\\x17"]) for _ in range(6))
            c.ev(t, None, ["%s code 400, message Bad request version ('%s')" % (stamp(t), junk)])
            c.ev(t, None, ["%s You're accessing the development server over HTTPS, but it only supports HTTP." % stamp(t)])
            last_was_event = True
            continue
        if r < 0.02:
            ip = "10.44.2.%d" % rng.randint(10, 90)
            c.ev(t, None, ["%s - Broken pipe from ('%s', %d)" % (stamp(t), ip, rng.randint(40000, 65000))], client=ip)
            last_was_event = True
            continue
        method, tmpl, _ = wchoice(rng, [((m, p, w), w) for m, p, w in DJ_PATHS])
        path = tmpl % rng.randint(1, 48000) if "%d" in tmpl else tmpl
        full = path
        if path == "/api/shipments/" and method == "GET" and rng.random() < 0.5:
            full = path + "?page=%d&status=%s" % (rng.randint(1, 40), rng.choice(["open", "in_transit", "delivered"]))
        if path.startswith("/static/"):
            status, size = rng.choice([("200", rng.randint(2000, 40000)), ("304", 0), ("304", 0)])
        elif path == "/favicon.ico":
            status, size = "404", rng.randint(2200, 2300)
        elif path == "/api/reports/export.csv":
            status, size = "200", rng.randint(400_000, 3_500_000)
        else:
            status = wchoice(rng, [("200", 80), ("201" if method == "POST" else "200", 6), ("404", 5), ("400", 3),
                                   ("403", 2), ("500", 2.2), ("302" if path.startswith("/admin/") else "200", 3)])
            if method == "DELETE" and status == "200":
                status = "204"
            size = {"204": 0, "302": 0, "404": rng.randint(150, 200), "400": rng.randint(60, 400),
                    "403": rng.randint(40, 60), "500": 145}.get(status, rng.randint(300, 26000))
        if status in ("404", "500") and last_was_event:
            if status == "404":
                c.append_lines(["Not Found: %s" % path])
            else:
                c.append_lines(dj_traceback(rng, path))
        elif status in ("404", "500"):
            status, size = "200", rng.randint(300, 26000)
        c.ev(t, None, ['%s "%s %s HTTP/1.1" %s %d' % (stamp(t), method, full, status, size)],
             method=method, path=path.split("?")[0], status=status, bytes=size)
        last_was_event = True

    c.check("count_where", role="status", value="500")
    c.check("count_where", role="method", value="POST")
    c.check("top", role="path")
    c.check("sum", role="bytes", unit="b")
    c.check("max", role="bytes", unit="kb")
    c.check("count_contains", text="Traceback (most recent call last)")
    return c


# =====================================================================================
# f06  node-bunyan JSON lines (restify audit logger + app records)
# =====================================================================================
BUNYAN_LEVEL = {10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL"}
BN_ROUTES = [("GET", "/v2/orders", 30), ("GET", "/v2/orders/%s", 22), ("POST", "/v2/orders", 9),
             ("PUT", "/v2/orders/%s/status", 6), ("GET", "/v2/customers/%s/orders", 7), ("GET", "/healthz", 9),
             ("DELETE", "/v2/orders/%s", 1), ("POST", "/v2/orders/%s/cancel", 2)]
BN_UA = ["fh-dispatch/3.4.1", "fh-portal/2026.03.2 (+https://portal.fernhollow.example)", "kube-probe/1.29",
         "okhttp/4.12.0", "python-requests/2.31.0"]


def f06_bunyan():
    rng = random.Random(3606)
    c = Case("f06-bunyan-restify", "order-api.log",
             "Node.js restify service logging with node-bunyan (JSON lines, numeric levels 10-60)",
             ["FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE"])
    clk = Clock(rng, utc(2026, 3, 14, 6, 0, 4, 211000))
    end = utc(2026, 3, 14, 9, 12, 0)
    host = "fh-orders-02"
    pids = [4121, 4127, 4133, 4140]

    def iso(t):
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)

    def emit(t, pid, level, extra, msg, **f):
        rec = {"name": "order-api", "hostname": host, "pid": pid}
        rec.update(extra)
        rec["level"] = level
        rec["msg"] = msg
        rec["time"] = iso(t)
        rec["v"] = 0
        # bunyan core field order: name, hostname, pid, <extra...>, level, msg, time, v
        order = ["name", "hostname", "pid"] + [k for k in extra] + ["level", "msg", "time", "v"]
        out = {k: rec[k] for k in order}
        line = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
        return c.ev(t, BUNYAN_LEVEL[level], [line], pid=pid, host=host, **f)

    for p in pids:
        emit(clk.tick(0.01, 0.2), p, 30, {}, "order-api listening at http://[::]:8080")

    def uuid():
        h = "%032x" % rng.getrandbits(128)
        return "%s-%s-4%s-a%s-%s" % (h[:8], h[8:12], h[13:16], h[17:20], h[20:32])

    db_outage = (utc(2026, 3, 14, 7, 41, 0), utc(2026, 3, 14, 7, 47, 30))
    debug_win = (utc(2026, 3, 14, 8, 20, 0), utc(2026, 3, 14, 8, 31, 0))
    crash_at = utc(2026, 3, 14, 8, 52, 0)
    crashed = False
    next_pid = 4190
    while clk.t < end:
        t = clk.tick(0.5, 40)
        pid = rng.choice(pids)
        if not crashed and t >= crash_at:
            crashed = True
            stack = ("TypeError: Cannot read properties of undefined (reading 'lineItems')\n"
                     "    at computeTotals (/srv/order-api/src/orders/totals.js:42:31)\n"
                     "    at OrderService.reprice (/srv/order-api/src/orders/service.js:218:19)\n"
                     "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n"
                     "    at async Object.handler (/srv/order-api/src/routes/orders.js:131:7)")
            emit(t, pid, 60, {"err": {"message": "Cannot read properties of undefined (reading 'lineItems')",
                                      "name": "TypeError", "stack": stack}},
                 "uncaughtException: Cannot read properties of undefined (reading 'lineItems')", exception="TypeError")
            old = pid
            pids[pids.index(old)] = next_pid
            emit(clk.tick(0.05, 0.3), 4110, 40, {"component": "cluster", "worker": old, "code": 1},
                 "worker %d died (code 1), forking replacement" % old)
            emit(clk.tick(0.8, 1.6), next_pid, 30, {}, "order-api listening at http://[::]:8080")
            next_pid += 17
            continue
        if debug_win[0] <= t < debug_win[1] and rng.random() < 0.5:
            if rng.random() < 0.5:
                emit(t, pid, 20, {"component": "cache", "key": "order:%d" % rng.randint(100000, 999999)},
                     rng.choice(["cache miss", "cache hit", "cache set (ttl=300s)"]))
            else:
                sql = ("SELECT \"id\", \"status\", \"customer_id\", \"total_cents\" FROM \"orders\" AS \"Order\" "
                       "WHERE \"Order\".\"id\" = %d;" % rng.randint(100000, 999999))
                emit(t, pid, 10, {"component": "db", "sql": sql}, "Executing (default)")
            continue
        in_outage = db_outage[0] <= t < db_outage[1]
        if rng.random() < 0.07 and not in_outage:
            sku = rng.choice(["FH-PAL-1200", "FH-CRATE-L", "FH-STRAP-5M", "FH-LABEL-A6"])
            emit(t, pid, 40, {"component": "inventory", "sku": sku, "onHand": rng.randint(0, 40), "threshold": 50},
                 "stock below threshold")
            continue
        method, tmpl, _ = wchoice(rng, [((m, p, w), w) for m, p, w in BN_ROUTES])
        path = tmpl % ("%d" % rng.randint(100000, 999999)) if "%s" in tmpl else tmpl
        url = path
        if path == "/v2/orders" and method == "GET":
            url = path + "?page=%d&limit=50" % rng.randint(1, 30)
        client = "10.44.%d.%d" % (rng.choice([3, 3, 3, 7, 12]), rng.randint(10, 60))
        err = None
        if path == "/healthz":
            status, lat = 200, rng.randint(0, 3)
            client = "10.44.0.1"
        elif in_outage and rng.random() < 0.8:
            status, lat = 503, rng.randint(10000, 10060)
            err = {"message": "connect ETIMEDOUT 10.44.9.12:5432", "name": "SequelizeConnectionError",
                   "stack": "SequelizeConnectionError: connect ETIMEDOUT 10.44.9.12:5432\n"
                            "    at Client._connectionCallback (/srv/order-api/node_modules/sequelize/lib/dialects/postgres/connection-manager.js:143:24)\n"
                            "    at Client._handleErrorWhileConnecting (/srv/order-api/node_modules/pg/lib/client.js:327:19)\n"
                            "    at Client._handleErrorEvent (/srv/order-api/node_modules/pg/lib/client.js:337:19)\n"
                            "    at Connection.emit (node:events:519:28)\n"
                            "    at Socket.reportStreamError (/srv/order-api/node_modules/pg/lib/connection.js:58:12)\n"
                            "    at Socket.emit (node:events:519:28)\n"
                            "    at emitErrorNT (node:internal/streams/destroy:169:8)\n"
                            "    at emitErrorCloseNT (node:internal/streams/destroy:128:3)\n"
                            "    at process.processTicksAndRejections (node:internal/process/task_queues:82:21)",
                   "code": "ETIMEDOUT"}
        else:
            status = wchoice(rng, [(200 if method != "POST" else 201, 88), (404, 5), (400, 3), (409, 1), (500, 0.6)])
            lat = int(rng.lognormvariate(3.3, 0.7)) + 1
            if method == "POST":
                lat += rng.randint(20, 120)
            if rng.random() < 0.004:
                lat = rng.randint(4000, 9000)
        rid = uuid()
        if err:
            emit(t, pid, 50, {"req_id": rid, "err": err}, err["message"], exception=err["name"])
        extra = {"audit": True, "remoteAddress": client, "remotePort": rng.randint(32768, 60999), "req_id": rid,
                 "req": {"query": url.split("?", 1)[1] if "?" in url else "", "method": method, "url": url,
                         "headers": {"host": "orders.fernhollow.internal", "user-agent": rng.choice(BN_UA)},
                         "httpVersion": "1.1", "version": "*"},
                 "res": {"statusCode": status, "headers": {"content-type": "application/json",
                                                           "content-length": rng.randint(2, 48000)},
                         "trailer": False},
                 "latency": lat, "_audit": True}
        level = 30 if status < 500 else 50
        if err:
            extra["err"] = {"message": err["message"], "name": err["name"]}
        emit(clk.tick(0, 0.001) if err else t, pid, level, extra, "handled: %d" % status,
             client=client, method=method, path=path, status=status, duration=ns_from_ms(lat),
             exception=err["name"] if err else None)

    c.check("count_where", role="status", value="503")
    c.check("max", role="duration", unit="s")
    c.check("distinct", role="pid")
    c.check("top", role="path")
    c.check("count_where", role="exception", value="SequelizeConnectionError")
    c.check("count_contains", text="stock below threshold")
    return c


# =====================================================================================
# f07  winston (printf format with label, npm levels, stacks, morgan via stream)
# =====================================================================================
WN_CUST = ["cus_Pq8vXa1LmZ", "cus_R2hTnB7wQe", "cus_K9sLdF0pYu", "cus_M4cVgH6jNi", "cus_T7bWqE3rXo"]
WN_MERCHANTS = ["Fernhollow Depot Köln", "Fernhollow Depot Łódź", "Fernhollow Depot Göteborg", "Fernhollow Depot Lyon"]


def f07_winston():
    rng = random.Random(3707)
    c = Case("f07-winston-printf", "payments-worker.log",
             "Node.js worker using winston 3 (timestamp + label + printf; npm levels incl. http/verbose; stacks)",
             ["ERROR", "WARN", "INFO", "DEBUG"])
    clk = Clock(rng, utc(2026, 3, 12, 21, 30, 0, 12000))
    end = utc(2026, 3, 13, 9, 45, 0)
    c.raw(["(node:21877) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. Please use a userland "
           "alternative instead.",
           "(Use `node --trace-deprecation ...` to show where the warning was created)"])
    NPM = {"error": "ERROR", "warn": "WARN", "info": "INFO", "http": None, "verbose": None, "debug": "DEBUG",
           "silly": None}

    def L(t, label, level, message, meta=None, stack=None, **f):
        stamp = t.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (t.microsecond // 1000)
        line = "%s [%s] %s: %s" % (stamp, label, level, message)
        if meta:
            line += " " + json.dumps(meta, ensure_ascii=False, separators=(",", ":"))
        lines = [line] + (stack or [])
        if meta and "durationMs" in meta:
            f["duration"] = ns_from_ms(str(meta["durationMs"]))
        return c.ev(t, NPM[level], lines, logger=label, **f)

    L(clk.t, "payments", "info", "payments-worker 4.7.2 starting (node v20.11.1, env=production)")
    L(clk.tick(0.05, 0.3), "payments", "info", "Connected to Redis at redis://10.44.6.20:6379/2")
    L(clk.tick(0.05, 0.3), "ledger", "info", "Connected to ledger DB (pool min=2 max=10)")
    L(clk.tick(0.05, 0.3), "scheduler", "info", "Registered 3 jobs: reconcile-payouts, expire-holds, sync-fx-rates")

    def chid():
        return "ch_3O" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(22))

    axios_stack = ["AxiosError: Request failed with status code 502",
                   "    at settle (/srv/payments-worker/node_modules/axios/dist/node/axios.cjs:1966:12)",
                   "    at IncomingMessage.handleStreamEnd (/srv/payments-worker/node_modules/axios/dist/node/axios.cjs:3065:11)",
                   "    at IncomingMessage.emit (node:events:531:35)",
                   "    at endReadableNT (node:internal/streams/readable:1696:12)",
                   "    at process.processTicksAndRejections (node:internal/process/task_queues:82:21)",
                   "    at async Axios.request (/srv/payments-worker/node_modules/axios/dist/node/axios.cjs:4224:14)",
                   "    at async capture (/srv/payments-worker/src/charges.js:88:17)"]
    type_stack = ["TypeError: Cannot read properties of null (reading 'currency')",
                  "    at toMinorUnits (/srv/payments-worker/src/money.js:14:22)",
                  "    at postJournal (/srv/payments-worker/src/ledger/post.js:57:19)",
                  "    at async Worker.handle (/srv/payments-worker/src/ledger/worker.js:33:5)"]
    next_job = {"reconcile-payouts": clk.t + timedelta(minutes=15), "expire-holds": clk.t + timedelta(minutes=5),
                "sync-fx-rates": clk.t + timedelta(minutes=60)}
    job_every = {"reconcile-payouts": 15, "expire-holds": 5, "sync-fx-rates": 60}
    while clk.t < end:
        night = 0 <= clk.t.hour < 6
        t = clk.tick(2, 140) if night else clk.tick(1, 45)
        due = [j for j in sorted(next_job) if next_job[j] <= t]
        if due:
            j = due[0]
            L(t, "scheduler", "info", 'Job "%s" started' % j)
            ms = rng.randint(200, 4000) if j != "reconcile-payouts" else rng.randint(3000, 48000)
            tt = clk.tick(ms / 1000.0, ms / 1000.0 + 0.002)
            if j == "reconcile-payouts" and rng.random() < 0.1:
                L(tt, "scheduler", "warn", 'Job "%s" finished with %d unmatched payouts' % (j, rng.randint(1, 6)),
                  {"job": j, "durationMs": ms})
            else:
                L(tt, "scheduler", "info", 'Job "%s" finished' % j, {"job": j, "durationMs": ms})
            next_job[j] = next_job[j] + timedelta(minutes=job_every[j])
            continue
        kind = wchoice(rng, [("charge", 45), ("decline", 5), ("capfail", 1.3), ("hook", 22), ("hookbad", 2),
                             ("http", 10), ("ledger", 9), ("ledgerr", 0.6), ("debug", 6), ("silly", 1)])
        cust = rng.choice(WN_CUST)
        if kind == "charge":
            ms = int(rng.lognormvariate(5.8, 0.4))
            L(t, "payments", "info", "Charge captured", {"chargeId": chid(), "amount": rng.randint(500, 250000),
                                                         "currency": rng.choice(["eur", "eur", "pln", "sek"]),
                                                         "customer": cust, "merchant": rng.choice(WN_MERCHANTS),
                                                         "durationMs": ms})
        elif kind == "decline":
            ms = int(rng.lognormvariate(5.7, 0.4))
            L(t, "payments", "warn", "Card declined", {"chargeId": chid(), "customer": cust,
                                                       "declineCode": rng.choice(["insufficient_funds", "insufficient_funds",
                                                                                  "expired_card", "do_not_honor"]),
                                                       "durationMs": ms})
        elif kind == "capfail":
            L(t, "payments", "error", "Stripe request failed: Request failed with status code 502", None, axios_stack,
              exception="AxiosError")
        elif kind == "hook":
            L(t, "webhooks", "info", "Webhook received", {"type": rng.choice(["payment_intent.succeeded", "charge.refunded",
                                                                              "payout.paid", "charge.dispute.created"]),
                                                          "id": "evt_1O" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(20))})
        elif kind == "hookbad":
            L(t, "webhooks", "warn", "Webhook signature verification failed", {"ip": "10.44.5.%d" % rng.randint(2, 40)})
            ms = rng.randint(1, 4) + rng.randint(0, 999) / 1000
            L(clk.tick(0, 0.002), "webhooks", "http", "POST /webhooks/stripe 400 37 - %.3f ms" % ms,
              method="POST", path="/webhooks/stripe", status="400", duration=ns_from_ms("%.3f" % ms))
        elif kind == "http":
            path, method = rng.choice([("/webhooks/stripe", "POST"), ("/webhooks/stripe", "POST"), ("/healthz", "GET"),
                                       ("/metrics", "GET")])
            ms = rng.randint(0, 40) + rng.randint(0, 999) / 1000
            size = {"/webhooks/stripe": 2, "/healthz": 15, "/metrics": rng.randint(9000, 14000)}[path]
            L(t, "webhooks", "http", "%s %s 200 %d - %.3f ms" % (method, path, size, ms),
              method=method, path=path, status="200", duration=ns_from_ms("%.3f" % ms))
        elif kind == "ledger":
            L(t, "ledger", "verbose", "Posting journal entry JE-2026-%07d (%d lines)" % (rng.randint(1, 999999), rng.randint(2, 6)))
        elif kind == "ledgerr":
            L(t, "ledger", "error", "Journal posting failed, message moved to DLQ: Cannot read properties of null "
              "(reading 'currency')", {"queue": "ledger.post.dlq", "attempt": 5}, type_stack, exception="TypeError")
        elif kind == "debug":
            ms = rng.randint(1, 90)
            L(t, "ledger", "debug", "Balance recomputed for account ACC-%06d" % rng.randint(1, 90000),
              {"durationMs": ms})
        else:
            L(t, "payments", "silly", "idempotency key cache size=%d" % rng.randint(100, 5000))
    # a long line: the FX sync dumps the full rate table once
    rates = {cur: round(rng.uniform(0.5, 30), 6) for cur in
             ["USD", "GBP", "PLN", "SEK", "NOK", "DKK", "CHF", "CZK", "HUF", "JPY", "CNY", "RON", "BGN", "TRY", "ISK",
              "AUD", "CAD", "NZD", "SGD", "HKD", "KRW", "INR", "BRL", "MXN", "ZAR", "ILS", "AED", "SAR", "THB", "MYR"]}
    L(clk.tick(1, 5), "scheduler", "verbose", "FX table refreshed (base=EUR, source=ECB)", {"rates": rates,
                                                                                             "fetchedAt": "2026-03-13T08:45:00Z"})

    c.check("count_where", role="logger", value="webhooks")
    c.check("top", role="logger")
    c.check("sum", role="duration", unit="s")
    c.check("max", role="duration", unit="ms")
    c.check("count_where", role="exception", value="AxiosError")
    c.check("count_contains", text="insufficient_funds")
    return c


# =====================================================================================
# f08  HDFS NameNode audit log (log4j prefix + tab-separated key=value)
# =====================================================================================
HD_USERS = [("hive", 40), ("spark", 22), ("etl_svc", 14), ("hdfs", 5), ("yarn", 5), ("mapred", 3),
            ("a.chen", 3), ("r.haddad", 2), ("k.tanaka", 2)]
HD_CLIENTS = ["10.50.3.%d" % i for i in (21, 22, 23, 24, 31, 32)] + ["10.50.4.11", "10.50.4.12", "10.50.8.5"]
HD_TABLES = ["sales.db/orders", "sales.db/order_lines", "fleet.db/telemetry_raw", "fleet.db/trips",
             "finance.db/ledger_entries", "crm.db/customers"]
HD_HOT = "/warehouse/tablespace/managed/hive/sales.db/orders"


def f08_hdfs_audit():
    rng = random.Random(3808)
    c = Case("f08-hdfs-audit", "hdfs-audit.log",
             "Apache Hadoop 3.3 HDFS NameNode audit log (log4j 'date time,ms LEVEL logger: ' + tab-separated key=value)",
             ["INFO"])
    clk = Clock(rng, utc(2026, 3, 11, 1, 58, 40, 5000))
    end = utc(2026, 3, 11, 4, 10, 0)

    def L(t, allowed, user, ip, cmd, src, dst="null", perm="null", ctx=None):
        stamp = t.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % (t.microsecond // 1000)
        kv = ["allowed=%s" % ("true" if allowed else "false"), "ugi=%s (auth:%s)" % (user, "KERBEROS" if user in
              ("hive", "spark", "hdfs", "yarn", "mapred", "etl_svc") else "SIMPLE"), "ip=/%s" % ip, "cmd=%s" % cmd,
              "src=%s" % src, "dst=%s" % dst, "perm=%s" % perm, "proto=rpc"]
        if ctx:
            kv.append("callerContext=%s" % ctx)
        line = "%s INFO FSNamesystem.audit: %s" % (stamp, "\t".join(kv))
        return c.ev(t, "INFO", [line], user=user, client=ip, path=src)

    def part_path(table):
        d = rng.randint(100, 999)
        return "/warehouse/tablespace/managed/hive/%s/delta_%07d_%07d_0000/bucket_%05d" % (table, d, d, rng.randint(0, 7))

    while clk.t < end:
        t = clk.tick(0.05, 14)
        user = wchoice(rng, HD_USERS)
        ip = rng.choice(HD_CLIENTS)
        qid = "hive_%s_%08x-%04x-%04x-%04x-%012x" % (t.strftime("%Y%m%d%H%M%S"), rng.getrandbits(32), rng.getrandbits(16),
                                                   rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(48))
        ctx = None
        if user == "hive":
            ctx = "HIVE_QUERY_ID:%s" % qid
        elif user == "spark":
            ctx = "SPARK_DRIVER_application_17734%08d_%04d_JId_%d" % (rng.randint(0, 99999999), rng.randint(1, 900), rng.randint(0, 40))
        table = rng.choice(HD_TABLES)
        op = wchoice(rng, [("list", 18), ("getfileinfo", 30), ("open", 25), ("create", 8), ("rename", 4), ("delete", 4),
                           ("mkdirs", 3), ("setPermission", 1), ("contentSummary", 2), ("denied", 2), ("unicode", 2)])
        if op == "list":
            src = HD_HOT if rng.random() < 0.45 else "/warehouse/tablespace/managed/hive/%s" % table
            L(t, True, user, ip, "listStatus", src, ctx=ctx)
        elif op == "getfileinfo":
            src = part_path(table) if rng.random() < 0.6 else "/warehouse/tablespace/managed/hive/%s" % table
            if rng.random() < 0.15:
                src = HD_HOT
            L(t, True, user, ip, "getfileinfo", src, ctx=ctx)
        elif op == "open":
            L(t, True, user, ip, "open", part_path(table), ctx=ctx)
        elif op == "create":
            tmp = "/warehouse/tablespace/managed/hive/%s/.hive-staging_%s/-ext-10000/_tmp.000000_0" % (table, qid)
            L(t, True, user, ip, "create", tmp, perm="%s:hadoop:rw-r--r--" % user, ctx=ctx)
        elif op == "rename":
            d = rng.randint(100, 999)
            src = "/warehouse/tablespace/managed/hive/%s/.hive-staging_%s/-ext-10000" % (table, qid)
            dst = "/warehouse/tablespace/managed/hive/%s/delta_%07d_%07d_0000" % (table, d, d)
            L(t, True, user, ip, "rename", src, dst=dst, perm="%s:hadoop:rwxr-x---" % user, ctx=ctx)
        elif op == "delete":
            src = "/tmp/hive/%s/%08x-%04x-%04x" % (user, rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16))
            L(t, True, user, ip, "delete", src, ctx=ctx)
        elif op == "mkdirs":
            src = "/user/%s/.sparkStaging/application_17734%08d_%04d" % (user, rng.randint(0, 99999999), rng.randint(1, 900))
            L(t, True, user, ip, "mkdirs", src, perm="%s:hadoop:rwx------" % user, ctx=ctx)
        elif op == "setPermission":
            L(t, True, user, ip, "setPermission", "/user/%s/.sparkStaging" % user, perm="%s:hadoop:rwx------" % user, ctx=ctx)
        elif op == "contentSummary":
            L(t, True, user, ip, "contentSummary", "/warehouse/tablespace/managed/hive/%s" % table, ctx=ctx)
        elif op == "denied":
            u = rng.choice(["a.chen", "r.haddad", "k.tanaka"])
            L(t, False, u, rng.choice(HD_CLIENTS[6:]), rng.choice(["open", "listStatus"]),
              "/warehouse/tablespace/managed/hive/finance.db/ledger_entries")
        else:
            u = rng.choice(["a.chen", "k.tanaka"])
            name = rng.choice(["Übersicht_Q1.csv", "売上_2026-03.parquet", "Årsrapport.xlsx", "résumé-flotte.pdf"])
            L(t, True, u, rng.choice(HD_CLIENTS[6:]), rng.choice(["open", "getfileinfo", "create"]),
              "/user/%s/reports/%s" % (u, name))

    c.check("top", role="user")
    c.check("count_where", role="user", value="spark")
    c.check("distinct", role="client")
    c.check("count_contains", text="allowed=false")
    c.check("count_contains", text="cmd=delete")
    c.check("count_where", role="path", value=HD_HOT)
    return c


CASES = [f05_django, f06_bunyan, f07_winston, f08_hdfs_audit]
