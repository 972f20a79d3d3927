"""Python/PHP app servers: Django runserver console, Laravel storage/logs/laravel.log (Monolog LineFormatter)."""
import json
import random
from datetime import datetime, timedelta

from common import write_log


def django_banner(t, reason=None):
    out = []
    if reason:
        out.append("%s changed, reloading." % reason)
    out += ["Watching for file changes with StatReloader", "Performing system checks...", "",
            "System check identified no issues (0 silenced).",
            t.strftime("%B %d, %Y - %H:%M:%S"), "Django version 4.2.10, using settings 'shopsite.settings'",
            "Starting development server at http://0.0.0.0:8000/", "Quit the server with CONTROL-C.", ""]
    return out


def django_tb(rng):
    which = rng.random()
    tb = ["Traceback (most recent call last):",
          '  File "/usr/local/lib/python3.11/site-packages/django/core/handlers/exception.py", line 55, in inner',
          "    response = get_response(request)",
          "               ^^^^^^^^^^^^^^^^^^^^^",
          '  File "/usr/local/lib/python3.11/site-packages/django/core/handlers/base.py", line 197, in _get_response',
          "    response = wrapped_callback(request, *callback_args, **callback_kwargs)",
          "               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"]
    if which < 0.5:
        tb += ['  File "/app/orders/views.py", line 42, in create_order',
               "    total = sum(item.price * item.qty for item in cart.items)",
               "                                                  ^^^^^^^^^^",
               "AttributeError: 'NoneType' object has no attribute 'items'"]
    else:
        tb += ['  File "/app/catalog/views.py", line 88, in product_detail',
               "    stock = inventory.get_stock(sku)",
               "            ^^^^^^^^^^^^^^^^^^^^^^^^",
               '  File "/app/catalog/inventory.py", line 19, in get_stock',
               "    resp = requests.get(f\"{INVENTORY_URL}/stock/{sku}\", timeout=2)",
               "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
               "requests.exceptions.ConnectTimeout: HTTPConnectionPool(host='inventory', port=8001): Max retries exceeded with url: /stock/SKU-1188 (Caused by ConnectTimeoutError(<urllib3.connection.HTTPConnection object at 0x7f3a2c1d5e10>, 'Connection to inventory timed out. (connect timeout=2)'))"]
    return tb


def django():
    rng = random.Random(4401)
    t = datetime(2024, 3, 20, 9, 0, 0)
    out = django_banner(t)
    paths = ["/api/products/", "/api/products/", "/api/products/%d/", "/api/cart/", "/api/orders/", "/static/css/site.css",
             "/static/js/app.js", "/admin/", "/admin/login/?next=/admin/", "/favicon.ico", "/health/"]
    for i in range(900):
        t += timedelta(seconds=rng.randint(0, 25))
        p = rng.choice(paths)
        if "%d" in p:
            p = p % rng.randint(1, 400)
        method = "POST" if p in ("/api/orders/", "/api/cart/") and rng.random() < 0.6 else "GET"
        status, size = 200, rng.randint(300, 30000)
        if p == "/favicon.ico":
            status = 404
        elif p.startswith("/static/") and rng.random() < 0.3:
            status, size = 304, 0
        elif p == "/admin/":
            status, size = 302, 0
        if 400 <= i < 460 and p.startswith("/api/products/") and p != "/api/products/":
            status = 500
        elif p == "/api/orders/" and method == "POST" and rng.random() < 0.12:
            status = 500
        elif p == "/api/cart/" and method == "POST" and rng.random() < 0.1:
            status = 400
        ts = "[%s]" % t.strftime("%d/%b/%Y %H:%M:%S")
        if status == 404:
            out.append("Not Found: %s" % p)
            size = 2110
        elif status == 400:
            out.append("Bad Request: %s" % p)
            size = rng.randint(40, 120)
        elif status == 500:
            out.append("Internal Server Error: %s" % p)
            out.extend(django_tb(rng))
            size = 145
        line = '%s "%s %s HTTP/1.1" %d %d' % (ts, method, p, status, size)
        out.append(line)
        if rng.random() < 0.01:
            out.append("%s - Broken pipe from ('172.18.0.1', %d)" % (ts, rng.randint(30000, 60000)))
        if i in (300, 700):
            t += timedelta(seconds=2)
            out += django_banner(t, "/app/orders/views.py" if i == 300 else "/app/catalog/inventory.py")
    write_log("django_runserver.log", out)


def laravel_exc(rng, cls, code, msg, file, line):
    frames = ["/var/www/html/vendor/laravel/framework/src/Illuminate/Database/Connection.php(776): Illuminate\\\\Database\\\\Connection->runQueryCallback()",
              "/var/www/html/vendor/laravel/framework/src/Illuminate/Database/Connection.php(421): Illuminate\\\\Database\\\\Connection->run()",
              "/var/www/html/vendor/laravel/framework/src/Illuminate/Database/Query/Builder.php(2913): Illuminate\\\\Database\\\\Connection->select()",
              "/var/www/html/app/Http/Controllers/OrderController.php(58): Illuminate\\\\Database\\\\Eloquent\\\\Builder->first()",
              "/var/www/html/vendor/laravel/framework/src/Illuminate/Routing/Controller.php(54): App\\\\Http\\\\Controllers\\\\OrderController->show()",
              "/var/www/html/vendor/laravel/framework/src/Illuminate/Routing/Route.php(261): Illuminate\\\\Routing\\\\ControllerDispatcher->dispatch()",
              "/var/www/html/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php(144): Illuminate\\\\Routing\\\\Route->run()",
              "/var/www/html/public/index.php(51): Illuminate\\\\Foundation\\\\Http\\\\Kernel->handle()"]
    n = rng.randint(4, len(frames))
    body = "[object] (%s(code: %s): %s at %s:%d)" % (cls, code, msg.replace('"', '\\"'), file, line)
    return [body, "[stacktrace]"] + ["#%d %s" % (k, f) for k, f in enumerate(frames[:n])] + ["#%d {main}" % n]


def laravel():
    rng = random.Random(4402)
    t = datetime(2024, 3, 21, 0, 0, 3)
    out = []
    users = [rng.randint(1000, 1400) for _ in range(60)]

    def log(level, msg, ctx=None, exc=None):
        head = "[%s] production.%s: %s" % (t.strftime("%Y-%m-%d %H:%M:%S"), level, msg)
        if exc:
            c = json.dumps(ctx or {}, separators=(",", ":"))[:-1]
            c = (c + "," if len(c) > 1 else c) + '"exception":"' + exc[0]
            out.append(head + " " + c)
            out.extend(exc[1:])
            out.append('"} ')
        elif ctx:
            out.append(head + " " + json.dumps(ctx, separators=(",", ":")))
        else:
            out.append(head)

    for i in range(1000):
        t += timedelta(seconds=rng.randint(1, 90))
        u = rng.choice(users)
        r = rng.random()
        if 600 <= i < 640 and r < 0.7:  # database down
            sql = "select * from `orders` where `id` = %d limit 1" % rng.randint(1, 90000)
            m = "SQLSTATE[HY000] [2002] Connection refused (Connection: mysql, SQL: %s)" % sql
            log("ERROR", m, {"userId": u}, laravel_exc(rng, "Illuminate\\\\Database\\\\QueryException", 2002, m,
                "/var/www/html/vendor/laravel/framework/src/Illuminate/Database/Connection.php", 822))
        elif r < 0.40:
            log("INFO", "Order placed", {"order_id": rng.randint(1, 90000), "user_id": u, "total": round(rng.uniform(5, 400), 2)})
        elif r < 0.65:
            log("INFO", "User logged in", {"user_id": u, "ip": "10.20.%d.%d" % (rng.randint(0, 9), rng.randint(2, 250))})
        elif r < 0.75:
            log("DEBUG", "Cache miss", {"key": "product:%d" % rng.randint(1, 500)})
        elif r < 0.85:
            log("WARNING", "Slow query detected", {"sql": "select * from `products` where `category_id` = ? order by `created_at` desc",
                                                   "time_ms": round(rng.uniform(500, 6000), 1), "user_id": u})
        elif r < 0.92:
            log("WARNING", "Login failed", {"email": "user%d@example.com" % rng.randint(1, 300), "ip": "203.0.113.%d" % rng.randint(2, 250)})
        elif r < 0.97:
            m = "Undefined array key \"shipping_address\""
            log("ERROR", m, {"userId": u}, laravel_exc(rng, "ErrorException", 0, m, "/var/www/html/app/Services/CheckoutService.php", 133))
        elif r < 0.99:
            log("ERROR", "Payment gateway returned HTTP 502", {"order_id": rng.randint(1, 90000), "user_id": u, "gateway": "stripe"})
        else:
            m = "Connection refused [tcp://redis:6379]"
            log("CRITICAL", m, {}, laravel_exc(rng, "Predis\\\\Connection\\\\ConnectionException", 111, m,
                "/var/www/html/vendor/predis/predis/src/Connection/AbstractConnection.php", 155))
    write_log("laravel.log", out)


def run():
    django()
    laravel()
