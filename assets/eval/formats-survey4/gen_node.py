"""Node.js Fastify (pino NDJSON) and ASP.NET Core default console logger (SimpleConsoleFormatter)."""
import json
import random
from datetime import datetime, timedelta

from common import UTC, write_log


def pino():
    rng = random.Random(4501)
    t = datetime(2024, 3, 22, 13, 0, 0, tzinfo=UTC)
    host = "orders-6d5f8c7b9-x2k4p"
    ips = ["10.2.%d.%d" % (rng.randint(0, 3), rng.randint(2, 250)) for _ in range(30)]
    urls = ["/orders", "/orders/%d", "/orders/%d/items", "/health", "/metrics", "/customers/%d"]
    out = []
    state = {"pid": 7, "req": 0}

    def ms(dt):
        return int(dt.timestamp() * 1000)

    def emit(level, msg, **kw):
        d = {"level": level, "time": ms(t), "pid": state["pid"], "hostname": host}
        d.update(kw)
        d["msg"] = msg
        out.append(json.dumps(d, separators=(",", ":")))

    def boot():
        emit(30, "Server listening at http://127.0.0.1:3000")
        emit(30, "Server listening at http://10.2.1.17:3000")

    boot()
    for i in range(820):
        t += timedelta(milliseconds=rng.randint(20, 4000))
        state["req"] += 1
        rid = "req-%x" % state["req"]
        u = rng.choice(urls)
        if "%d" in u:
            u = u % rng.randint(1, 20000)
        method = "POST" if u == "/orders" and rng.random() < 0.5 else "GET"
        req = {"method": method, "url": u, "hostname": "orders.shop.svc:3000", "remoteAddress": rng.choice(ips),
               "remotePort": rng.randint(30000, 60999)}
        emit(30, "incoming request", reqId=rid, req=req)
        rt = rng.lognormvariate(1.2, 0.9)
        status = rng.choices([200, 201, 204, 404, 400], [80, 6, 2, 8, 4])[0]
        err = None
        if 300 <= i < 360 and u.startswith("/orders"):
            if rng.random() < 0.7:
                status, rt = 500, rng.uniform(3000, 10050)
                err = {"type": "Error", "message": "connect ECONNREFUSED 10.2.3.4:5432",
                       "stack": "Error: connect ECONNREFUSED 10.2.3.4:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
                       "errno": -111, "code": "ECONNREFUSED", "syscall": "connect", "address": "10.2.3.4", "port": 5432}
        elif rng.random() < 0.01:
            status, rt = 500, rng.uniform(1, 40)
            err = {"type": "TypeError", "message": "Cannot read properties of undefined (reading 'sku')",
                   "stack": "TypeError: Cannot read properties of undefined (reading 'sku')\n    at Object.handler (/app/src/routes/orders.js:88:31)\n    at preHandlerCallback (/app/node_modules/fastify/lib/handleRequest.js:137:37)"}
        elif 600 <= i < 640:
            rt = rng.uniform(800, 2500)
        t += timedelta(microseconds=int(rt * 1000))
        if err:
            emit(50, err["message"], reqId=rid, req=req, res={"statusCode": status}, err=err)
        elif rng.random() < 0.04:
            emit(40, "inventory cache stale, serving cached value", reqId=rid, ageMs=rng.randint(60000, 900000))
        emit(30, "request completed", reqId=rid, res={"statusCode": status}, responseTime=rt)
        if i in (380, 700):  # crash-restart / deploy
            emit(60 if i == 380 else 30, "uncaughtException: too many clients already" if i == 380 else "Received SIGTERM, closing server")
            t += timedelta(seconds=rng.randint(3, 20))
            state["pid"] = 8 if i == 380 else 19
            boot()
    write_log("fastify_pino.ndjson", out)


def dotnet():
    rng = random.Random(4502)
    out = []

    def log(level, cat, eid, *msg):
        out.append("%s: %s[%d]" % (level, cat, eid))
        for m in msg:
            out.append("      " + m)

    def boot():
        log("warn", "Microsoft.AspNetCore.DataProtection.Repositories.FileSystemXmlRepository", 60,
            "Storing keys in a directory '/root/.aspnet/DataProtection-Keys' that may not be persisted outside of the container. Protected data will be unavailable when container is destroyed. For more information go to https://aka.ms/aspnet/dataprotectionwarning")
        log("info", "Microsoft.Hosting.Lifetime", 14, "Now listening on: http://[::]:8080")
        log("info", "Microsoft.Hosting.Lifetime", 0, "Application started. Press Ctrl+C to shut down.")
        log("info", "Microsoft.Hosting.Lifetime", 0, "Hosting environment: Production")
        log("info", "Microsoft.Hosting.Lifetime", 0, "Content root path: /app")

    boot()
    H = "Microsoft.AspNetCore.Hosting.Diagnostics"
    for i in range(155):
        oid = rng.randint(1, 5000)
        path = rng.choice(["/api/orders/%d" % oid, "/api/orders", "/healthz", "/api/customers/%d" % rng.randint(1, 900)])
        method = "POST" if path == "/api/orders" and rng.random() < 0.5 else "GET"
        url = "http://orders-api:8080" + path
        log("info", H, 1, "Request starting HTTP/1.1 %s %s - %s %s" % (method, url, "application/json" if method == "POST" else "-",
                                                                      rng.randint(40, 900) if method == "POST" else "-"))
        dur = rng.lognormvariate(2.0, 0.8)
        status = 200
        if path == "/healthz":
            log("info", H, 2, "Request finished HTTP/1.1 %s %s - 200 - text/plain 0.%04dms" % (method, url, rng.randint(1000, 9999)))
            continue
        log("info", "Microsoft.AspNetCore.Routing.EndpointMiddleware", 0,
            "Executing endpoint 'Orders.Api.Controllers.OrdersController.%s (Orders.Api)'" % ("Create" if method == "POST" else "Get"))
        if 80 <= i < 96 and rng.random() < 0.8:
            dur = rng.uniform(15000, 30500)
            status = 500
            log("fail", "Microsoft.EntityFrameworkCore.Database.Connection", 20004,
                "An error occurred using the connection to database 'orders' on server 'tcp://orders-db:5432'.")
            log("fail", "Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddleware", 1,
                "An unhandled exception has occurred while executing the request.",
                "Npgsql.NpgsqlException (0x80004005): Failed to connect to 10.3.0.12:5432",
                " ---> System.TimeoutException: Timeout during connection attempt",
                "   at Npgsql.Internal.NpgsqlConnector.Connect(NpgsqlTimeout timeout)",
                "   --- End of inner exception stack trace ---",
                "   at Npgsql.Internal.NpgsqlConnector.Open(NpgsqlTimeout timeout, Boolean async, CancellationToken cancellationToken)",
                "   at Orders.Api.Services.OrderService.GetAsync(Int32 id) in /src/Orders.Api/Services/OrderService.cs:line 57",
                "   at Orders.Api.Controllers.OrdersController.Get(Int32 id) in /src/Orders.Api/Controllers/OrdersController.cs:line 31",
                "   at Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddlewareImpl.<Invoke>g__Awaited|10_0(ExceptionHandlerMiddlewareImpl middleware, HttpContext context, Task task)")
        elif rng.random() < 0.03:
            status = 500
            log("fail", "Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddleware", 1,
                "An unhandled exception has occurred while executing the request.",
                "System.InvalidOperationException: Sequence contains no elements",
                "   at System.Linq.ThrowHelper.ThrowNoElementsException()",
                "   at Orders.Api.Services.OrderService.GetAsync(Int32 id) in /src/Orders.Api/Services/OrderService.cs:line 61",
                "   at Orders.Api.Controllers.OrdersController.Get(Int32 id) in /src/Orders.Api/Controllers/OrdersController.cs:line 31")
        else:
            log("info", "Microsoft.EntityFrameworkCore.Database.Command", 20101,
                "Executed DbCommand (%dms) [Parameters=[@__id_0='?' (DbType = Int32)], CommandType='Text', CommandTimeout='30']" % rng.randint(1, 90),
                'SELECT o."Id", o."CustomerId", o."Status", o."Total"',
                'FROM "Orders" AS o',
                'WHERE o."Id" = @__id_0',
                "LIMIT 1")
            if rng.random() < 0.05:
                status = 404
            if rng.random() < 0.04:
                log("warn", "Orders.Api.Services.PricingClient", 0, "Pricing service slow: %d ms, falling back to cached prices" % rng.randint(900, 5000))
        log("info", "Microsoft.AspNetCore.Routing.EndpointMiddleware", 1,
            "Executed endpoint 'Orders.Api.Controllers.OrdersController.%s (Orders.Api)'" % ("Create" if method == "POST" else "Get"))
        log("info", H, 2, "Request finished HTTP/1.1 %s %s - %d - application/json;+charset=utf-8 %.4fms" % (method, url, status, dur))
        if i == 125:
            log("info", "Microsoft.Hosting.Lifetime", 0, "Application is shutting down...")
            boot()
    write_log("aspnetcore_console.log", out)


def run():
    pino()
    dotnet()
