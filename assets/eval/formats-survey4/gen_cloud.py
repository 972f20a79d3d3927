"""Cloud edge logs: AWS ALB access log, CloudFront standard log, GCP Cloud Logging export (JSON lines)."""
import json
import random
from datetime import datetime, timedelta
from urllib.parse import quote

from common import UTC, write_log
from gen_web import UAS


def alb():
    rng = random.Random(4201)
    t = datetime(2024, 3, 15, 9, 0, 0, tzinfo=UTC)
    targets = ["10.0.1.15:8080", "10.0.1.16:8080", "10.0.2.31:8080", "10.0.2.32:8080"]
    clients = ["203.0.113.%d" % rng.randint(2, 250) for _ in range(45)] + ["198.51.100.%d" % rng.randint(2, 250) for _ in range(15)]
    paths = ["/", "/api/cart", "/api/products?limit=20", "/api/checkout", "/static/main.js", "/health", "/account"]
    tg = "arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/prod-web/73e2d6bc24d8a067"
    cert = "arn:aws:acm:eu-west-1:123456789012:certificate/6c1b8f2e-4f0e-4a8e-9d57-1c2d3e4f5a6b"
    lines = []
    for i in range(1600):
        t += timedelta(microseconds=rng.randint(10000, 2000000))
        https = rng.random() < 0.85
        path = rng.choice(paths)
        method = "POST" if path in ("/api/checkout",) or (path == "/api/cart" and rng.random() < 0.4) else "GET"
        target = rng.choice(targets)
        rp, tp, sp = 0.0 + rng.choice([0, 0, 0.001]), round(rng.lognormvariate(-3.3, 0.7), 3), 0.0
        es = ts = rng.choices([200, 301, 302, 304, 400, 403, 404], [82, 2, 3, 6, 2, 1, 4])[0]
        ts_s = str(ts)
        if 800 <= i < 870 and target == "10.0.2.31:8080":  # instance died
            es, ts_s, tp, sp = 502, "-", -1, -1
        elif 1200 <= i < 1290 and path == "/api/checkout":  # checkout slow / timing out
            tp = round(rng.uniform(4.0, 28.0), 3)
            if rng.random() < 0.35:
                es, ts_s, tp, sp = 504, "-", -1, -1
        elif rng.random() < 0.004:
            es = ts = 500
            ts_s = "500"
        if es == 301 and not https:
            target, tp, ts_s = "-", -1, "-"
            rp, sp = -1, -1
        tgt = target
        sent = rng.randint(200, 40000) if es == 200 else rng.randint(100, 800)
        rcv = rng.randint(150, 900) if method == "GET" else rng.randint(900, 6000)
        scheme, port = ("https", 443) if https else ("http", 80)
        host = "shop.example.com"
        created = t - timedelta(seconds=max(tp, 0) + 0.0005)
        tid = "Root=1-%08x-%024x" % (int(created.timestamp()), rng.getrandbits(96))
        def fmt(x):
            return "-1" if x == -1 else "%.3f" % x
        actions = "redirect" if tgt == "-" else "forward"
        redirect = ("https://%s:443%s" % (host, path)) if tgt == "-" else "-"
        lines.append(" ".join([
            "https" if https else "http", t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "app/prod-web-alb/50dc6c495c0c9188",
            "%s:%d" % (rng.choice(clients), rng.randint(1025, 65535)), tgt,
            fmt(rp), fmt(tp), fmt(sp), str(es), ts_s, str(rcv), str(sent),
            '"%s %s://%s:%d%s HTTP/1.1"' % (method, scheme, host, port, path), '"%s"' % rng.choice(UAS),
            "ECDHE-RSA-AES128-GCM-SHA256" if https else "-", "TLSv1.2" if https else "-",
            tg if tgt != "-" else "-", '"%s"' % tid, '"%s"' % (host if https else "-"),
            '"%s"' % (cert if https else "-"), "0" if tgt != "-" else "1",
            created.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), '"%s"' % actions, '"%s"' % redirect, '"-"',
            '"%s"' % tgt, '"%s"' % ts_s, '"-"', '"-"']))
    write_log("aws_alb.log", lines)


CF_FIELDS = ("date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) "
             "cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol "
             "cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type "
             "cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte "
             "x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end")


def cloudfront():
    rng = random.Random(4202)
    t = datetime(2024, 3, 16, 0, 0, 0, tzinfo=UTC)
    pops = ["FRA56-P1", "FRA56-P1", "FRA56-P1", "AMS1-C1", "LHR61-P3", "CDG52-P2", "IAD89-C2"]
    clients = ["192.0.2.%d" % rng.randint(2, 254) for _ in range(90)]
    objs = [("/index.html", "text/html"), ("/assets/app.4f2a.js", "application/javascript"),
            ("/assets/app.4f2a.css", "text/css"), ("/img/hero.webp", "image/webp"),
            ("/api/config.json", "application/json"), ("/video/intro.mp4", "video/mp4")]
    lines = ["#Version: 1.0", "#Fields: " + CF_FIELDS]
    for i in range(1900):
        t += timedelta(milliseconds=rng.randint(100, 2000))
        stem, ctype = rng.choice(objs)
        res = rng.choices(["Hit", "Miss", "RefreshHit"], [70, 25, 5])[0]
        status = 200
        tt = round(rng.lognormvariate(-4.0, 0.8) if res == "Hit" else rng.lognormvariate(-2.3, 0.7), 3)
        if stem.endswith(".mp4") and rng.random() < 0.5:
            status = 206
        if rng.random() < 0.03:
            status, res = 304, "Hit"
        if 1100 <= i < 1180 and res != "Hit":  # origin failing
            status = rng.choice([502, 502, 504])
            res = "Error"
            tt = round(rng.uniform(10, 30.0) if status == 504 else rng.uniform(0.05, 0.4), 3)
        elif rng.random() < 0.01:
            status, res = 403, "Error"
        if tt == 0:
            tt = 0.001
        ttfb = round(tt * rng.uniform(0.5, 0.95), 3)
        size = rng.randint(400, 900) if status >= 300 else rng.randint(2000, 900000)
        ua = quote(rng.choice(UAS), safe="/();:,.")
        rid = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(56)) + "=="
        row = [t.strftime("%Y-%m-%d"), t.strftime("%H:%M:%S"), rng.choice(pops), str(size), rng.choice(clients),
               "GET", "d111111abcdef8.cloudfront.net", stem, str(status), "https://www.example.org/" if rng.random() < 0.6 else "-",
               ua, "-", "-", res, rid, "www.example.org", "https", str(rng.randint(60, 400)), "%.3f" % tt, "-",
               "TLSv1.3", "TLS_AES_128_GCM_SHA256", res, "HTTP/2.0", "-", "-", str(rng.randint(1025, 65535)),
               "%.3f" % ttfb, res if res != "Error" else ("OriginCommError" if status == 502 else "OriginReadTimeout" if status == 504 else "Error"),
               ctype if status < 300 else "text/html", str(size), "-", "-"]
        lines.append("\t".join(row))
    write_log("cloudfront.tsv", lines)


def gcp():
    rng = random.Random(4203)
    t = datetime(2024, 3, 17, 11, 0, 0, tzinfo=UTC)
    proj = "acme-prod-3141"
    res = {"type": "cloud_run_revision", "labels": {"project_id": proj, "service_name": "orders-api",
           "revision_name": "orders-api-00042-xuz", "location": "europe-west1", "configuration_name": "orders-api"}}
    ips = ["34.111.%d.%d" % (rng.randint(0, 255), rng.randint(1, 254)) for _ in range(35)]
    urls = ["/v1/orders", "/v1/orders/%d", "/v1/orders/%d/items", "/healthz"]
    lines = []
    for i in range(1300):
        t += timedelta(microseconds=rng.randint(50000, 3000000))
        trace = "projects/%s/traces/%032x" % (proj, rng.getrandbits(128))
        ins = "%012x%s" % (rng.getrandbits(48), rng.choice("abcdef"))
        u = rng.choice(urls)
        if "%d" in u:
            u = u % rng.randint(1000, 99999)
        status = rng.choices([200, 201, 404, 400], [85, 6, 6, 3])[0]
        lat = rng.lognormvariate(-3.0, 0.6)
        if 500 <= i < 600 and u.startswith("/v1/orders/") and rng.random() < 0.6:
            status, lat = 503, rng.uniform(9.5, 60.0)
        elif rng.random() < 0.005:
            status = 500
        if status >= 500 and rng.random() < 0.9:  # app writes an error line first
            et = t - timedelta(milliseconds=3)
            msg = rng.choice(["upstream inventory-svc timed out after 10s", "pq: connection refused",
                              "context deadline exceeded while calling payments"])
            lines.append(json.dumps({"insertId": ins + "e", "jsonPayload": {"message": msg, "component": "handler",
                         "order_path": u}, "logName": "projects/%s/logs/run.googleapis.com%%2Fstdout" % proj,
                         "receiveTimestamp": (et + timedelta(milliseconds=40)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                         "resource": res, "severity": "ERROR", "timestamp": et.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                         "trace": trace}))
        elif rng.random() < 0.08:
            lines.append(json.dumps({"insertId": ins + "i", "textPayload": "cache refresh done in %dms" % rng.randint(5, 900),
                         "logName": "projects/%s/logs/run.googleapis.com%%2Fstdout" % proj,
                         "receiveTimestamp": (t + timedelta(milliseconds=40)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                         "resource": res, "severity": "DEFAULT" if rng.random() < 0.5 else "INFO",
                         "timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}))
        http = {"requestMethod": "GET" if status != 201 else "POST", "requestUrl": "https://orders-api-abc123-ew.a.run.app" + u,
                "requestSize": str(rng.randint(300, 1800)), "status": status, "responseSize": str(rng.randint(100, 9000)),
                "userAgent": rng.choice(UAS), "remoteIp": rng.choice(ips), "serverIp": "216.239.32.53",
                "latency": ("%.9f" % lat).rstrip("0") + "s", "protocol": "HTTP/1.1"}
        sev = "ERROR" if status >= 500 else ("WARNING" if status >= 400 else "INFO")
        lines.append(json.dumps({"httpRequest": http, "insertId": ins, "labels": {"instanceId": "00f46b9285%08x" % rng.getrandbits(32)},
                     "logName": "projects/%s/logs/run.googleapis.com%%2Frequests" % proj,
                     "receiveTimestamp": (t + timedelta(milliseconds=60)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                     "resource": res, "severity": sev, "spanId": "%d" % rng.getrandbits(63),
                     "timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "trace": trace, "traceSampled": True}))
        if i == 900:  # new revision rolled out
            for m in ["Starting new instance. Reason: DEPLOYMENT_ROLLOUT - Instance started due to traffic shifting between revisions or traffic split adjustment.",
                      "Default STARTUP TCP probe succeeded after 1 attempt for container \"orders-api-1\" on port 8080."]:
                lines.append(json.dumps({"insertId": ins + "s", "logName": "projects/%s/logs/run.googleapis.com%%2Fvarlog%%2Fsystem" % proj,
                             "receiveTimestamp": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "resource": res, "severity": "INFO",
                             "textPayload": m, "timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}))
    write_log("gcp_cloud_run.jsonl", lines)


def run():
    alb()
    cloudfront()
    gcp()
