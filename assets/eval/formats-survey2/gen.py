#!/usr/bin/env python3
"""Second format survey: realistic log samples for format-detection testing, plus truth files.

Same Sample/truth.json shape, field kinds, units and roles as ../formats-survey/gen.py.

Standard library only, fixed seeds: running it twice gives byte-identical output.
Every sample is built as a list of events; each event is rendered to text and the
values that were rendered are kept alongside, so the truth files are computed from
exactly what was written (not by hand).

Event counting rule used in every truth file: one event = one record the software
emits in one write (a line starting with the software's own prefix, plus any
continuation lines that carry no prefix: stack traces, tab-continued SQL, config
dumps, Go/Rust panic dumps). Lines that repeat the full prefix (PostgreSQL
DETAIL/STATEMENT, RabbitMQ split multi-line messages) are separate events.
File preambles that are not log records (MySQL slow-log header, journalctl
"-- Journal begins" line) and blank separator lines are not events.

Survey-2 specifics of the same rule: the npm banner (winston), the Puma banner
(lograge), the Consul "==>" banner, the `pm2 logs` [TAILING] header and the VPC
Flow Logs header line are preambles, not events. PM2 repeats its "N|app | "
display prefix on every line, but only the first line of a write carries the
timestamp: the following lines are continuation lines of that event. Rails'
DebugExceptions writes each backtrace line with its own logger call, so each
tagged "[request-id] ..." line is its own event. hclog "  | " lines continue
the record above them.
"""
import itertools
import json
import math
import os
import random
import string
import uuid
from datetime import datetime, timedelta, timezone

OUT = os.path.dirname(os.path.abspath(__file__))
UTC = timezone.utc
BASE = datetime(2031, 6, 3, 2, 0, 0, tzinfo=UTC)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
DAY = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']


# ----------------------------------------------------------------- helpers
def at(sec):
    return BASE + timedelta(microseconds=int(round(sec * 1e6)))


def times(rnd, n, start=0.0, end=3600.0):
    return sorted(at(rnd.uniform(start, end)) for _ in range(n))


def epoch(t):
    return (t - EPOCH) // timedelta(microseconds=1) / 1e6


def epoch_us(t):
    return (t - EPOCH) // timedelta(microseconds=1)


def hexs(rnd, n):
    return ''.join(rnd.choice('0123456789abcdef') for _ in range(n))


def alnum(rnd, n, alphabet=string.ascii_letters + string.digits):
    return ''.join(rnd.choice(alphabet) for _ in range(n))


def uid(rnd):
    return str(uuid.UUID(int=rnd.getrandbits(128), version=4))


def wchoice(rnd, pairs):
    items = [p[0] for p in pairs]
    weights = [p[1] for p in pairs]
    return rnd.choices(items, weights=weights)[0]


def lognorm(rnd, median, sigma):
    return median * math.exp(rnd.gauss(0, sigma))


class Pool:
    """Zipf-ish weighted pool: a few heavy hitters, a long tail."""

    def __init__(self, rnd, items, s=1.0):
        self.rnd = rnd
        self.items = list(items)
        self.cum = list(itertools.accumulate(1.0 / (i + 1) ** s for i in range(len(self.items))))

    def pick(self):
        return self.rnd.choices(self.items, cum_weights=self.cum)[0]


PUB = ['203.0.113.', '198.51.100.', '192.0.2.', '81.2.69.', '89.160.20.', '216.160.83.',
       '175.16.199.', '2.125.160.', '67.43.156.', '149.101.100.', '214.78.120.']


def public_ips(rnd, n):
    out = {}
    while len(out) < n:
        out[rnd.choice(PUB) + str(rnd.randint(1, 254))] = 1
    return list(out)


def private_ips(rnd, n, prefix='10.0.2.'):
    out = {}
    while len(out) < n:
        out[prefix + str(rnd.randint(2, 250))] = 1
    return list(out)


def clf(t):
    return '%02d/%s/%d:%s +0000' % (t.day, MON[t.month - 1], t.year, t.strftime('%H:%M:%S'))


def iso(t, digits=3, z='Z'):
    frac = ('%06d' % t.microsecond)[:digits]
    return t.strftime('%Y-%m-%dT%H:%M:%S') + ('.' + frac if digits else '') + z


def go_nano(t, extra_ns=0):
    """Go time.RFC3339Nano (trailing zeros trimmed) in UTC."""
    frac = ('%09d' % (t.microsecond * 1000 + extra_ns)).rstrip('0')
    return t.strftime('%Y-%m-%dT%H:%M:%S') + ('.' + frac if frac else '') + 'Z'


def jdump(obj):
    return json.dumps(obj, separators=(',', ':'), ensure_ascii=False)


def flatten(obj, prefix=''):
    out = {}
    for k, v in obj.items():
        key = prefix + k
        if isinstance(v, dict) and v:
            out.update(flatten(v, key + '.'))
        else:
            out[key] = v
    return out


def go_dur(ns):
    """Go time.Duration.String()."""
    def frac(v, unit):
        q, r = divmod(v, unit)
        if r == 0:
            return str(q)
        return '%d.%s' % (q, ('%0*d' % (len(str(unit)) - 1, r)).rstrip('0'))
    if ns == 0:
        return '0s'
    if ns < 1000:
        return '%dns' % ns
    if ns < 1000000:
        return frac(ns, 1000) + '\u00b5s'
    if ns < 1000000000:
        return frac(ns, 1000000) + 'ms'
    h, rem = divmod(ns, 3600 * 10 ** 9)
    m, sec = divmod(rem, 60 * 10 ** 9)
    out = ''
    if h:
        out += '%dh' % h
    if h or m:
        out += '%dm' % m
    return out + frac(sec, 10 ** 9) + 's'


def F(field, op, value=None):
    d = {'field': field, 'op': op}
    if op not in ('exists', 'not_exists'):
        d['value'] = value
    return d


def match(e, f):
    if f is None:
        return True
    if 'all' in f:
        return all(match(e, x) for x in f['all'])
    if 'any' in f:
        return any(match(e, x) for x in f['any'])
    x = e.get(f['field'])
    op, v = f['op'], f.get('value')
    if op == 'exists':
        return x is not None
    if op == 'not_exists':
        return x is None
    if x is None:
        return False
    if op == '==':
        return x == v
    if op == '!=':
        return x != v
    if op in ('>=', '>', '<=', '<'):
        if not isinstance(x, (int, float)) or isinstance(x, bool):
            return False
        return {'>=': x >= v, '>': x > v, '<=': x <= v, '<': x < v}[op]
    if op == 'in':
        return x in v
    if op == 'contains':
        return isinstance(x, str) and v in x
    if op == 'startswith':
        return isinstance(x, str) and x.startswith(v)
    raise ValueError(op)


class Sample:
    def __init__(self, name, fmt, filename=None):
        self.name = name
        self.format = fmt
        self.filename = filename or name + '.log'
        self.lines = []
        self.events = []
        self.fields = []
        self.facts = []

    def ev(self, _text, **rec):
        text = _text
        self.lines.extend(text.split('\n'))
        rec['_text'] = text
        self.events.append(rec)
        return rec

    def raw(self, text):
        self.lines.extend(text.split('\n'))

    def field(self, name, kind, unit=None, role=None):
        assert kind in ('time', 'number', 'text', 'ip')
        assert unit in ('ms', 's', 'us', 'ns', 'b', None)
        assert role in ('time', 'level', 'message', 'status', 'duration', 'client', 'path', 'method',
                        'bytes', 'user', 'host', 'upstream', 'logger', 'thread', 'pid', 'exception', None)
        self.fields.append({'name': name, 'kind': kind, 'unit': unit, 'role': role})

    def fact(self, what, agg, field=None, flt=None, key=None, publish=True):
        """publish=False: the selection uses a derived/internal attribute that is
        not one of the declared fields, so the published filter is null and the
        selection is spelled out in 'what' instead."""
        evs = [e for e in self.events if match(e, flt)]
        if agg == 'count':
            v = len(evs)
        else:
            get = key or (lambda e: e.get(field))
            vals = [x for x in (get(e) for e in evs) if x is not None]
            assert vals, (self.name, what)
            if agg == 'max':
                v = max(vals)
            elif agg == 'min':
                v = min(vals)
            elif agg == 'sum':
                v = sum(vals)
            elif agg == 'distinct':
                v = len(set(vals))
            elif agg == 'p95':
                sv = sorted(vals)
                v = sv[math.ceil(0.95 * len(sv)) - 1]
            else:
                raise ValueError(agg)
        if isinstance(v, float):
            v = round(v, 9)
        self.facts.append({'what': what, 'filter': flt if publish else None, 'value': v})

    def write(self):
        path = os.path.join(OUT, self.filename)
        with open(path, 'w', encoding='utf-8', newline='\n') as fh:
            fh.write('\n'.join(self.lines) + '\n')
        stem = self.filename.rsplit('.', 1)[0]
        truth = {'format': self.format, 'events': len(self.events),
                 'fields': self.fields, 'facts': self.facts}
        with open(os.path.join(OUT, stem + '.truth.json'), 'w', encoding='utf-8', newline='\n') as fh:
            json.dump(truth, fh, indent=2, ensure_ascii=False)
            fh.write('\n')
        return path, stem + '.truth.json'


class TL:
    """Timeline: collect (time, text, record) out of order, emit sorted."""

    def __init__(self):
        self.items = []

    def add(self, _t, _text, **rec):
        self.items.append((_t, len(self.items), _text, rec))

    def raw(self, t, text):
        self.items.append((t, len(self.items), text, None))

    def flush(self, s):
        for t, _, text, rec in sorted(self.items, key=lambda x: (x[0], x[1])):
            if rec is None:
                s.raw(text)
            else:
                s.ev(text, **rec)


# ----------------------------------------------------------- shared web bits
UAS = [
    ('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', 30),
    ('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1', 18),
    ('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15', 10),
    ('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36', 12),
    ('Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 5),
    ('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67', 5),
    ('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 4),
    ('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 2),
    ('Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', 1),
    ('curl/8.5.0', 2), ('python-requests/2.31.0', 2), ('okhttp/4.12.0', 4), ('Go-http-client/1.1', 1),
]
STATIC_HASH = '3f9a1c7e'
SEARCH = ['shoes', 'red+dress', 'usb-c+cable', 'coffee+beans', 'gift+card', 'laptop+bag', 'wool+socks', 'headphones']


def ua(rnd):
    return wchoice(rnd, UAS)


def web_path(rnd):
    return wchoice(rnd, [
        ('/', 12), ('/products/%d' % rnd.randint(1000, 9999), 25),
        ('/products?category=' + rnd.choice(['men', 'women', 'kids', 'sale', 'home']), 8),
        ('/cart', 6), ('/checkout', 3), ('/search?q=' + rnd.choice(SEARCH), 6), ('/login', 3),
        ('/account/orders', 2), ('/robots.txt', 1), ('/sitemap.xml', 1), ('/wp-login.php', 0.4),
        ('/.env', 0.3), ('/blog/spring-sale-2031', 2)])


def static_path(rnd):
    return wchoice(rnd, [
        ('/static/js/app.%s.js' % STATIC_HASH, 20), ('/static/js/vendor.9b2e44d1.js', 15),
        ('/static/css/main.%s.css' % STATIC_HASH, 18), ('/static/img/products/%d.webp' % rnd.randint(1000, 9999), 30),
        ('/static/fonts/inter-var.woff2', 6), ('/favicon.ico', 6), ('/static/img/logo.svg', 5)])


def api_path(rnd, method='GET'):
    if method == 'GET':
        return wchoice(rnd, [
            ('/api/v1/products?page=%d&per_page=24' % rnd.randint(1, 40), 20),
            ('/api/v1/products/%d' % rnd.randint(1000, 9999), 30), ('/api/v1/cart', 15),
            ('/api/v1/orders/%d' % rnd.randint(180000, 189999), 8),
            ('/api/v1/recommendations?product_id=%d' % rnd.randint(1000, 9999), 10), ('/api/v1/me', 10)])
    if method == 'POST':
        return wchoice(rnd, [('/api/v1/cart/items', 40), ('/api/v1/orders', 15), ('/api/v1/auth/token', 15),
                             ('/api/v1/events', 30)])
    return '/api/v1/cart/items/%d' % rnd.randint(1, 99999)



def rs_dbg(sv):
    return '"' + sv.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n').replace('\t', '\\t') + '"'


def p95(vals):
    sv = sorted(vals)
    return sv[math.ceil(0.95 * len(sv)) - 1]


def syslog_ts(t):
    return '%s %2d %s' % (MON[t.month - 1], t.day, t.strftime('%H:%M:%S'))


def rfc3339_us(t):
    return t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06d+00:00' % t.microsecond


# ======================================================================= 1 Rust tracing (job worker, nested spans)
RUST_BT = '''thread 'tokio-runtime-worker' panicked at src/jobs/export.rs:211:14:
index out of bounds: the len is 0 but the index is 0
stack backtrace:
   0: rust_begin_unwind
             at /rustc/9b00956e56009bab2aa15d7bff10916599e3d6d6/library/std/src/panicking.rs:645:5
   1: core::panicking::panic_fmt
             at /rustc/9b00956e56009bab2aa15d7bff10916599e3d6d6/library/core/src/panicking.rs:72:14
   2: core::panicking::panic_bounds_check
             at /rustc/9b00956e56009bab2aa15d7bff10916599e3d6d6/library/core/src/panicking.rs:208:5
   3: billing_worker::jobs::export::build_csv
             at ./src/jobs/export.rs:211:14
   4: billing_worker::jobs::export::run::{{closure}}
             at ./src/jobs/export.rs:97:22
   5: tokio::runtime::task::core::Core<T,S>::poll
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.'''


def gen_tracing():
    rnd = random.Random(201)
    s = Sample('rust_tracing_worker', 'Rust tracing-subscriber fmt() default (Full) format, ANSI off, nested spans with fields (tokio job worker)', 'tracing-worker.log')
    tl = TL()

    def add(t, lvl, spans, target, msg, fields=(), rec=None):
        sp = ':'.join(n + ('{' + f + '}' if f else '') for n, f in spans)
        fs = ' '.join('%s=%s' % kv for kv in fields)
        body = (msg + ' ' + fs).strip() if msg else fs
        text = '%s %5s %s%s: %s' % (iso(t, 6), lvl, (sp + ': ') if sp else '', target, body)
        r = {'timestamp': iso(t, 6), 'level': lvl, 'span': sp or None, 'target': target, 'message': msg}
        for k, v in fields:
            r[k] = v
        r.update(rec or {})
        tl.add(t, text, **r)

    add(at(0.012), 'INFO', [], 'billing_worker', 'starting billing-worker', [('version', rs_dbg('0.9.4')), ('queues', '["invoices", "exports", "webhooks"]')])
    add(at(0.015), 'DEBUG', [], 'billing_worker::config', 'loaded configuration', [('path', rs_dbg('/etc/billing/worker.toml')), ('concurrency', '8')])
    add(at(0.044), 'INFO', [], 'sqlx::pool', 'connection pool ready', [('max_connections', '16')])
    add(at(0.051), 'WARN', [], 'billing_worker::config', 'STRIPE_WEBHOOK_SECRET not set, webhook signature checks disabled')
    add(at(0.060), 'INFO', [], 'lapin::channels', 'connected to AMQP broker', [('addr', rs_dbg('amqp://rabbitmq.internal:5672/%2f'))])
    workers = list(range(8))
    jid = 48100
    for t in times(rnd, 260, 1, 3590):
        jid += rnd.randint(1, 3)
        q = wchoice(rnd, [('invoices', 55), ('exports', 15), ('webhooks', 30)])
        w = rnd.choice(workers)
        js = [('worker', 'id=%d' % w), ('job', 'id=%d queue=%s attempt=%d' % (jid, rs_dbg(q), wchoice(rnd, [(1, 90), (2, 7), (3, 3)])))]
        add(t, 'DEBUG', js, 'billing_worker::runner', 'job dequeued')
        el = int(lognorm(rnd, {'invoices': 180, 'exports': 2400, 'webhooks': 60}[q], 0.7))
        te = t + timedelta(milliseconds=el)
        outcome = 'ok'
        if q == 'invoices':
            cust = 'cus_%s' % alnum(rnd, 14)
            inner = js + [('render_invoice', 'customer_id=%s' % rs_dbg(cust))]
            add(t + timedelta(milliseconds=el * 0.4), 'DEBUG', inner, 'billing_worker::db', 'query finished', [('rows', str(rnd.randint(1, 40))), ('elapsed_ms', str(int(el * 0.3)))])
            if rnd.random() < 0.05:
                outcome = 'error'
                add(te, 'ERROR', inner, 'billing_worker::jobs::invoice', 'failed to render invoice',
                    [('error', rnd.choice(['template error: variable `tax_rate` not found', 'pool timed out while waiting for an open connection']))])
        elif q == 'webhooks':
            inner = js + [('deliver', 'endpoint=%s' % rs_dbg(rnd.choice(['https://hooks.acme.example/billing', 'https://erp.partner.example/in', 'https://api.shop.example/webhooks/stripe'])))]
            if rnd.random() < 0.12:
                outcome = 'retry'
                st = rnd.choice([502, 503, 504])
                add(te, 'WARN', inner, 'billing_worker::jobs::webhook', 'endpoint returned error, scheduling retry', [('status', str(st)), ('retry_in_s', str(rnd.choice([30, 60, 120])))], {'status': st})
            else:
                add(te - timedelta(milliseconds=1), 'DEBUG', inner, 'reqwest::connect', 'starting new connection: https://%s/' % rnd.choice(['hooks.acme.example', 'erp.partner.example', 'api.shop.example']))
        else:
            inner = js + [('export', 'format=csv')]
            add(t + timedelta(milliseconds=5), 'INFO', inner, 'billing_worker::jobs::export', 'export started', [('rows_estimate', str(rnd.randint(1000, 90000)))])
        add(te, 'INFO', js, 'billing_worker::runner', 'job finished', [('outcome', outcome), ('elapsed_ms', str(el))], {'elapsed_ms': el})
    for k in range(11):
        t = at(300 * k + 200 + rnd.uniform(0, 2))
        add(t, 'INFO', [('scheduler', 'tick=%d' % (k + 1))], 'billing_worker::scheduler', 'enqueued recurring jobs', [('count', str(rnd.randint(3, 30)))])
    for t in times(rnd, 5, 900, 3400):
        add(t, 'WARN', [], 'lapin::io_loop', 'heartbeat missed, connection may be stale', [('missed', str(rnd.randint(1, 2)))])
    tp = at(2712.443)
    tl.add(tp, RUST_BT, panic='index out of bounds: the len is 0 but the index is 0', level=None)
    add(tp + timedelta(milliseconds=3), 'ERROR', [('worker', 'id=3')], 'billing_worker::runner', 'worker task panicked, respawning', [('error', rs_dbg('task 118 panicked'))])
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('span', 'text')
    s.field('target', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    s.field('elapsed_ms', 'number', 'ms', 'duration')
    s.field('outcome', 'text', None, 'status')
    s.field('error', 'text', None, 'exception')
    fin = F('message', '==', 'job finished')
    s.fact('events with level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    s.fact('events with level WARN', 'count', flt=F('level', '==', 'WARN'))
    s.fact("max elapsed_ms over 'job finished' events", 'max', 'elapsed_ms', fin)
    s.fact("p95 (nearest-rank) elapsed_ms over 'job finished' events", 'p95', 'elapsed_ms', fin)
    s.fact("'job finished' events with outcome=retry", 'count', flt={'all': [fin, F('outcome', '==', 'retry')]})
    s.fact('first timestamp', 'min', 'timestamp')
    return s


# ======================================================================= 2 Suricata EVE
SIGS = [
    (2013028, 'ET POLICY curl User-Agent Outbound', 'Attempted Information Leak', 2, 40),
    (2001219, 'ET SCAN Potential SSH Scan', 'Attempted Information Leak', 2, 20),
    (2010935, 'ET SCAN Suspicious inbound to MSSQL port 1433', 'Potentially Bad Traffic', 2, 12),
    (2024897, 'ET USER_AGENTS Go HTTP Client User-Agent', 'Misc activity', 3, 25),
    (2027865, 'ET INFO Observed DNS Query to .cloud TLD', 'Potentially Bad Traffic', 2, 10),
    (2031502, 'ET EXPLOIT Apache log4j RCE Attempt (http ldap) (CVE-2021-44228)', 'Attempted Administrator Privilege Gain', 1, 4),
    (2100498, 'GPL ATTACK_RESPONSE id check returned root', 'Potentially Bad Traffic', 2, 1),
    (2402000, 'ET DROP Dshield Block Listed Source', 'Misc Attack', 2, 18),
]


def gen_suricata():
    rnd = random.Random(202)
    s = Sample('suricata_eve', 'Suricata 7 EVE JSON (eve.json), mixed event_type alert/http/dns/tls/flow/stats/anomaly', 'eve.json')
    lan = private_ips(rnd, 25, '192.168.10.')
    wan = public_ips(rnd, 60)
    lanp = Pool(rnd, lan, 0.8)
    wanp = Pool(rnd, wan, 1.0)
    hosts = ['api.github.com', 'updates.example.org', 'cdn.jsdelivr.net', 'www.google.com', 'login.microsoftonline.com', 'pkg.go.dev',
             'registry.npmjs.org', 'weird-domain.cloud', 'files.pythonhosted.org', 'time.cloudflare.com']
    tl = TL()

    def ts(t):
        return t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06d+0000' % t.microsecond

    def add(t, obj):
        flat = flatten(obj)
        tl.add(t, jdump(obj), **flat)

    def base(t, et, src, sp, dst, dp, proto, fid=None):
        o = {'timestamp': ts(t), 'flow_id': fid or rnd.getrandbits(50), 'in_iface': 'enp3s0', 'event_type': et,
             'src_ip': src, 'src_port': sp, 'dest_ip': dst, 'dest_port': dp, 'proto': proto}
        return o

    for t in times(rnd, 220, 0, 3600):
        src, dst = lanp.pick(), wanp.pick()
        kind = wchoice(rnd, [('http', 20), ('dns', 35), ('tls', 30), ('flow', 40), ('alert', 22)])
        sp = rnd.randint(32768, 60999)
        if kind == 'http':
            o = base(t, 'http', src, sp, dst, 80, 'TCP')
            o['tx_id'] = 0
            st = wchoice(rnd, [(200, 70), (301, 8), (304, 8), (404, 8), (403, 3), (500, 2), (503, 1)])
            o['http'] = {'hostname': rnd.choice(hosts), 'url': rnd.choice(['/', '/ubuntu/dists/jammy/InRelease', '/v1/check', '/favicon.ico', '/index.html', '/api/status']),
                         'http_user_agent': rnd.choice(['curl/7.81.0', 'Debian APT-HTTP/1.3 (2.4.12)', 'Go-http-client/1.1', UAS[0][0]]),
                         'http_content_type': 'text/html', 'http_method': wchoice(rnd, [('GET', 90), ('POST', 8), ('HEAD', 2)]),
                         'protocol': 'HTTP/1.1', 'status': st, 'length': rnd.randint(0, 90000)}
            add(t, o)
        elif kind == 'dns':
            q = rnd.choice(hosts)
            rid = rnd.randint(1, 65535)
            o = base(t, 'dns', src, sp, '192.168.10.1', 53, 'UDP')
            rr = wchoice(rnd, [('A', 60), ('AAAA', 30), ('HTTPS', 6), ('PTR', 4)])
            o['dns'] = {'type': 'query', 'id': rid, 'rrname': q, 'rrtype': rr, 'tx_id': 0, 'opcode': 0}
            add(t, o)
            t2 = t + timedelta(microseconds=rnd.randint(300, 40000))
            o2 = base(t2, 'dns', '192.168.10.1', 53, src, sp, 'UDP', o['flow_id'])
            rc = wchoice(rnd, [('NOERROR', 90), ('NXDOMAIN', 8), ('SERVFAIL', 2)])
            d = {'version': 2, 'type': 'answer', 'id': rid, 'flags': '8180', 'qr': True, 'rd': True, 'ra': True, 'opcode': 0, 'rrname': q, 'rrtype': rr, 'rcode': rc}
            if rc == 'NOERROR' and rr == 'A':
                ip = rnd.choice(wan)
                d['answers'] = [{'rrname': q, 'rrtype': 'A', 'ttl': rnd.randint(30, 300), 'rdata': ip}]
                d['grouped'] = {'A': [ip]}
            o2['dns'] = d
            add(t2, o2)
        elif kind == 'tls':
            o = base(t, 'tls', src, sp, dst, 443, 'TCP')
            sni = rnd.choice(hosts)
            o['tls'] = {'subject': 'CN=%s' % sni, 'issuerdn': rnd.choice(['C=US, O=Let\'s Encrypt, CN=R3', 'C=US, O=Google Trust Services LLC, CN=GTS CA 1C3', 'C=US, O=DigiCert Inc, CN=DigiCert TLS RSA SHA256 2020 CA1']),
                        'serial': ':'.join(hexs(rnd, 2).upper() for _ in range(9)), 'fingerprint': ':'.join(hexs(rnd, 2) for _ in range(20)),
                        'sni': sni, 'version': wchoice(rnd, [('TLS 1.3', 75), ('TLS 1.2', 25)]),
                        'notbefore': '2031-04-02T08:11:09', 'notafter': '2031-07-01T08:11:08',
                        'ja3': {'hash': hexs(rnd, 32), 'string': '771,4865-4866-4867-49195-49199,0-23-65281-10-11-35-16-5-13-18-51-45-43-27-21,29-23-24,0'},
                        'ja3s': {'hash': hexs(rnd, 32), 'string': '771,4865,43-51'}}
            add(t, o)
        elif kind == 'flow':
            proto = wchoice(rnd, [('TCP', 70), ('UDP', 28), ('ICMP', 2)])
            dp = {'TCP': rnd.choice([443, 443, 443, 80, 22, 8443]), 'UDP': rnd.choice([53, 123, 443]), 'ICMP': 0}[proto]
            o = base(t, 'flow', src, sp if proto != 'ICMP' else 0, dst, dp, proto)
            if proto == 'ICMP':
                del o['src_port'], o['dest_port']
                o['icmp_type'], o['icmp_code'] = 8, 0
            o['app_proto'] = {443: 'tls', 80: 'http', 22: 'ssh', 53: 'dns', 123: 'failed', 8443: 'tls'}.get(dp, 'failed')
            age = int(lognorm(rnd, 8, 1.4))
            start = t - timedelta(seconds=age + 30)
            o['flow'] = {'pkts_toserver': rnd.randint(1, 400), 'pkts_toclient': rnd.randint(0, 900), 'bytes_toserver': rnd.randint(60, 90000),
                         'bytes_toclient': rnd.randint(0, 2000000), 'start': ts(start), 'end': ts(start + timedelta(seconds=age)), 'age': age,
                         'state': wchoice(rnd, [('closed', 60), ('established', 25), ('new', 15)]), 'reason': wchoice(rnd, [('timeout', 85), ('shutdown', 15)]), 'alerted': False}
            if proto == 'TCP':
                o['tcp'] = {'tcp_flags': '1b', 'tcp_flags_ts': '1b', 'tcp_flags_tc': '1b', 'syn': True, 'fin': True, 'psh': True, 'ack': True, 'state': 'closed'}
            add(t, o)
        else:
            sid, sig, cat, sev, _ = wchoice(rnd, [(x, x[4]) for x in SIGS])
            inbound = sid in (2001219, 2010935, 2402000, 2031502)
            if inbound:
                a, b, dp = wanp.pick(), rnd.choice(lan[:4]), {2001219: 22, 2010935: 1433, 2402000: rnd.choice([22, 23, 3389, 8080]), 2031502: 80}[sid]
            else:
                a, b, dp = src, dst, {2027865: 53, 2013028: 80, 2024897: 80}.get(sid, 443)
            o = base(t, 'alert', a, sp, b, dp, 'UDP' if dp == 53 else 'TCP')
            o['alert'] = {'action': 'allowed', 'gid': 1, 'signature_id': sid, 'rev': rnd.randint(2, 9), 'signature': sig, 'category': cat, 'severity': sev,
                          'metadata': {'created_at': ['2011_06_14'], 'updated_at': ['2031_02_10']}}
            o['app_proto'] = {80: 'http', 22: 'ssh', 53: 'dns'}.get(dp, 'failed')
            o['direction'] = 'to_server'
            o['flow'] = {'pkts_toserver': rnd.randint(1, 9), 'pkts_toclient': rnd.randint(0, 9), 'bytes_toserver': rnd.randint(60, 3000), 'bytes_toclient': rnd.randint(0, 9000), 'start': ts(t - timedelta(seconds=1)), 'src_ip': a, 'dest_ip': b, 'src_port': sp, 'dest_port': dp}
            add(t, o)
    for t in times(rnd, 3, 100, 3500):
        o = base(t, 'anomaly', rnd.choice(wan), rnd.randint(1024, 65535), lan[0], 443, 'TCP')
        o['anomaly'] = {'type': 'stream', 'event': 'stream.pkt_invalid_ack', 'layer': 'proto_detect'}
        add(t, o)
    for k in range(1, 61):
        t = at(k * 60 - 0.5)
        ks = k * 1000
        o = {'timestamp': ts(t), 'event_type': 'stats', 'stats': {'uptime': 86400 + k * 60,
             'capture': {'kernel_packets': 900000 + k * 15000, 'kernel_drops': k * rnd.randint(0, 2), 'errors': 0},
             'decoder': {'pkts': 900000 + k * 15000, 'bytes': 700000000 + k * 12000000, 'ipv4': 880000 + ks * 14, 'ipv6': 2000 + ks, 'tcp': 700000 + ks * 11, 'udp': 150000 + ks * 3},
             'flow': {'memcap': 0, 'tcp': 20000 + ks, 'udp': 9000 + k * 400, 'icmpv4': 120 + k},
             'detect': {'engines': [{'id': 0, 'last_reload': '2031-06-02T02:00:00.411202+0000', 'rules_loaded': 41244, 'rules_failed': 2, 'rules_skipped': 0}], 'alert': k * 4}}}
        add(t, o)
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('event_type', 'text')
    s.field('src_ip', 'ip', None, 'client')
    s.field('src_port', 'number')
    s.field('dest_ip', 'ip', None, 'host')
    s.field('dest_port', 'number')
    s.field('proto', 'text')
    s.field('alert.signature', 'text', None, 'message')
    s.field('alert.signature_id', 'number')
    s.field('alert.severity', 'number', None, 'level')
    s.field('http.hostname', 'text', None, 'host')
    s.field('http.url', 'text', None, 'path')
    s.field('http.status', 'number', None, 'status')
    s.field('http.length', 'number', 'b', 'bytes')
    s.field('dns.rrname', 'text')
    s.field('dns.rcode', 'text')
    s.field('tls.sni', 'text')
    s.field('flow.bytes_toclient', 'number', 'b', 'bytes')
    s.field('flow.age', 'number', 's', 'duration')
    al = F('event_type', '==', 'alert')
    s.fact("events with event_type 'alert'", 'count', flt=al)
    s.fact('alerts with alert.severity 1', 'count', flt=F('alert.severity', '==', 1))
    s.fact('distinct src_ip over alert events', 'distinct', 'src_ip', al)
    s.fact("dns answers with dns.rcode 'NXDOMAIN'", 'count', flt=F('dns.rcode', '==', 'NXDOMAIN'))
    s.fact("max flow.age (s) over event_type 'flow'", 'max', 'flow.age', F('event_type', '==', 'flow'))
    s.fact('http events with http.status >= 400', 'count', flt=F('http.status', '>=', 400))
    return s


# ======================================================================= 3 nginx key=value access log
def gen_nginx_kv():
    rnd = random.Random(203)
    s = Sample('nginx_kv', "nginx access log, custom key=value log_format with $request_time and $upstream_response_time", 'nginx-access-kv.log')
    clients = Pool(rnd, public_ips(rnd, 80), 0.9)
    ups = ['10.0.4.11:8080', '10.0.4.12:8080', '10.0.4.13:8080']
    for t in times(rnd, 520, 0, 3600):
        ip = clients.pick()
        kind = wchoice(rnd, [('api', 55), ('web', 25), ('static', 20)])
        method = 'GET'
        if kind == 'api':
            method = wchoice(rnd, [('GET', 72), ('POST', 18), ('PUT', 5), ('DELETE', 5)])
            uri = api_path(rnd, method)
        elif kind == 'web':
            uri = web_path(rnd)
        else:
            uri = static_path(rnd)
        ut = None
        uaddr = ust = '-'
        odd = False
        if kind == 'static':
            st = wchoice(rnd, [(200, 70), (304, 27), (404, 3)])
            rt = round(lognorm(rnd, 0.0008, 0.8), 3)
            nb = rnd.randint(2000, 400000) if st == 200 else (0 if st == 304 else 153)
            upart = '-'
        else:
            st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'PUT': 200, 'DELETE': 204}[method], 88), (400, 2), (401, 2), (404, 3), (499, 1), (500, 1.5), (502, 1.5), (504, 1)])
            uaddr = rnd.choice(ups)
            u1 = round(lognorm(rnd, 0.045, 0.8), 3)
            if st == 504:
                u1 = 60.001
            if st == 502 and rnd.random() < 0.6:
                # first upstream refused, retried on the next one
                u0 = round(rnd.uniform(0.0, 0.004), 3)
                uaddr = '%s, %s' % (uaddr, rnd.choice([u for u in ups if u != uaddr]))
                upart = '%.3f, %.3f' % (u0, u1)
                ust = '502, 502'
                ut = round(u0 + u1, 3)
            else:
                upart = '%.3f' % u1
                ust = str(st) if st != 499 else '-'
                ut = u1
                if st == 499:
                    upart, ust, ut = '-', '-', None
            rt = round((ut or rnd.uniform(0.5, 5)) + rnd.uniform(0, 0.003), 3)
            nb = 0 if st == 204 else rnd.randint(40, 12000)
        if rnd.random() < 0.006:
            odd = True
            method, uri, st, rt, nb, upart, uaddr, ust, ut = None, None, 400, 0.0, 157, '-', '-', '-', None
        rid = hexs(rnd, 32)
        agent = ua(rnd)
        req = '\\x16\\x03\\x01\\x00\\xF1\\x01\\x00\\x00\\xED\\x03\\x03' if odd else '%s %s HTTP/%s' % (method, uri, '2.0' if rnd.random() < 0.6 else '1.1')
        text = ('time=%s remote_addr=%s request_id=%s method=%s uri="%s" request="%s" status=%d body_bytes_sent=%d request_time=%.3f '
                'upstream_addr="%s" upstream_status="%s" upstream_response_time="%s" http_user_agent="%s"') % (
            t.strftime('%Y-%m-%dT%H:%M:%S+00:00'), ip, rid, method or '-', uri or '-', req, st, nb, rt, uaddr, ust, upart, '-' if odd else agent)
        s.ev(text, time=t.strftime('%Y-%m-%dT%H:%M:%S+00:00'), remote_addr=ip, method=method, uri=uri, status=st, body_bytes_sent=nb,
             request_time=rt, upstream_addr=None if uaddr == '-' else uaddr, upstream_response_time=ut, request_id=rid)
    s.field('time', 'time', None, 'time')
    s.field('remote_addr', 'ip', None, 'client')
    s.field('request_id', 'text')
    s.field('method', 'text', None, 'method')
    s.field('uri', 'text', None, 'path')
    s.field('request', 'text')
    s.field('status', 'number', None, 'status')
    s.field('body_bytes_sent', 'number', 'b', 'bytes')
    s.field('request_time', 'number', 's', 'duration')
    s.field('upstream_addr', 'text', None, 'upstream')
    s.field('upstream_status', 'text')
    s.field('upstream_response_time', 'number', 's')
    s.field('http_user_agent', 'text')
    s.fact('requests with status >= 500', 'count', flt=F('status', '>=', 500))
    s.fact('max request_time (s)', 'max', 'request_time')
    s.fact('p95 (nearest-rank) request_time in s', 'p95', 'request_time')
    s.fact('distinct remote_addr', 'distinct', 'remote_addr')
    s.fact("requests not passed upstream (upstream_response_time '-')", 'count', flt=F('upstream_response_time', 'not_exists'))
    s.fact('sum of body_bytes_sent (bytes)', 'sum', 'body_bytes_sent')
    return s


# ======================================================================= 4 Filebeat / ECS JSON
JAVA_STACK = '''java.net.SocketTimeoutException: Read timed out
	at java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)
	at java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)
	at org.postgresql.core.VisibleBufferedInputStream.readMore(VisibleBufferedInputStream.java:161)
	at org.postgresql.core.PGStream.receiveChar(PGStream.java:467)
	at com.acme.catalog.repo.ProductRepository.findBySku(ProductRepository.java:77)'''


def gen_filebeat():
    rnd = random.Random(204)
    s = Sample('filebeat_ecs', 'Filebeat 8 shipped events, ECS JSON as written by output.file / Logstash json_lines (@timestamp, log.level, nested http.*, event.duration in ns)', 'filebeat-ecs.ndjson')
    clients = Pool(rnd, public_ips(rnd, 50), 0.9)
    agent = {'type': 'filebeat', 'version': '8.13.2', 'ephemeral_id': uid(rnd), 'id': uid(rnd), 'name': 'web-03'}
    tl = TL()

    def add(t, obj):
        tl.add(t, jdump(obj), **flatten(obj))

    for t in times(rnd, 430, 0, 3600):
        method = wchoice(rnd, [('GET', 75), ('POST', 20), ('DELETE', 5)])
        path = api_path(rnd, method).split('?')[0]
        st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'DELETE': 204}[method], 90), (400, 2), (404, 4), (500, 2), (503, 2)])
        dur = int(lognorm(rnd, 35e6, 0.9)) + rnd.randint(0, 999)
        lvl = 'error' if st >= 500 else 'warn' if st >= 400 else 'info'
        o = {'@timestamp': iso(t, 3), 'log': {'level': lvl, 'logger': 'com.acme.catalog.http.AccessLog', 'file': {'path': '/var/log/catalog/access.json'}, 'offset': rnd.randint(0, 9000000)},
             'message': '%s %s %d' % (method, path, st), 'ecs': {'version': '8.11.0'},
             'event': {'dataset': 'catalog.access', 'kind': 'event', 'category': ['web'], 'outcome': 'failure' if st >= 400 else 'success', 'duration': dur},
             'http': {'request': {'method': method}, 'response': {'status_code': st, 'body': {'bytes': 0 if st == 204 else rnd.randint(80, 20000)}}},
             'url': {'path': path}, 'source': {'ip': clients.pick()}, 'user_agent': {'original': ua(rnd)},
             'service': {'name': 'catalog', 'environment': 'production'}, 'host': {'name': 'web-03'}, 'agent': agent, 'input': {'type': 'filestream'}}
        add(t, o)
    for t in times(rnd, 70, 0, 3600):
        lvl = wchoice(rnd, [('info', 50), ('warn', 25), ('error', 15), ('debug', 10)])
        msg = {'info': rnd.choice(['cache warmed', 'price feed refreshed', 'scheduled reindex finished']),
               'warn': rnd.choice(['slow query detected', 'connection pool near capacity (18/20)', 'retrying request to inventory-svc']),
               'error': 'failed to load product from database', 'debug': 'refreshing feature flags'}[lvl]
        o = {'@timestamp': iso(t, 3), 'log': {'level': lvl, 'logger': 'com.acme.catalog.service.ProductService', 'file': {'path': '/var/log/catalog/app.json'}, 'offset': rnd.randint(0, 9000000)},
             'message': msg, 'ecs': {'version': '8.11.0'}, 'event': {'dataset': 'catalog.app'}, 'process': {'thread': {'name': 'http-nio-8080-exec-%d' % rnd.randint(1, 20)}},
             'service': {'name': 'catalog', 'environment': 'production'}, 'host': {'name': 'web-03'}, 'agent': agent, 'input': {'type': 'filestream'}}
        if lvl == 'error':
            o['error'] = {'type': 'java.net.SocketTimeoutException', 'message': 'Read timed out', 'stack_trace': JAVA_STACK}
        add(t, o)
    # a line filebeat could not decode: json.add_error_key
    t = at(1933.2)
    o = {'@timestamp': iso(t, 3), 'message': 'Exception in thread "pool-3-thread-1" java.lang.OutOfMemoryError: Java heap space',
         'error': {'message': 'Error decoding JSON: invalid character \'E\' looking for beginning of value', 'type': 'json'},
         'log': {'file': {'path': '/var/log/catalog/app.json'}, 'offset': 8812233}, 'ecs': {'version': '8.11.0'}, 'host': {'name': 'web-03'}, 'agent': agent, 'input': {'type': 'filestream'}}
    add(t, o)
    tl.flush(s)
    s.field('@timestamp', 'time', None, 'time')
    s.field('log.level', 'text', None, 'level')
    s.field('log.logger', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    s.field('event.dataset', 'text')
    s.field('event.duration', 'number', 'ns', 'duration')
    s.field('http.request.method', 'text', None, 'method')
    s.field('http.response.status_code', 'number', None, 'status')
    s.field('http.response.body.bytes', 'number', 'b', 'bytes')
    s.field('url.path', 'text', None, 'path')
    s.field('source.ip', 'ip', None, 'client')
    s.field('host.name', 'text', None, 'host')
    s.field('error.type', 'text', None, 'exception')
    s.fact("events with log.level 'error'", 'count', flt=F('log.level', '==', 'error'))
    s.fact('events with http.response.status_code >= 500', 'count', flt=F('http.response.status_code', '>=', 500))
    s.fact('max event.duration (ns)', 'max', 'event.duration')
    s.fact('p95 (nearest-rank) event.duration in ns', 'p95', 'event.duration')
    s.fact('distinct source.ip', 'distinct', 'source.ip')
    s.fact("events with error.type 'java.net.SocketTimeoutException'", 'count', flt=F('error.type', '==', 'java.net.SocketTimeoutException'))
    return s


# ======================================================================= 5 winston JSON
NODE_STACK = '''Error: connect ECONNREFUSED 10.0.5.20:6379
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)'''
NODE_STACK2 = '''TypeError: Cannot read properties of undefined (reading 'total')
    at OrderService.summarize (/app/dist/services/order.service.js:88:31)
    at async OrdersController.get (/app/dist/controllers/orders.controller.js:41:21)'''


def gen_winston():
    rnd = random.Random(205)
    s = Sample('winston_json', 'Node.js winston 3 JSON (format.combine(errors({stack:true}), timestamp(), json())) on stdout, with npm banner and a node warning', 'winston.log')
    s.raw('\n> orders-api@3.2.0 start\n> node dist/main.js\n')
    clients = private_ips(rnd, 14, '10.0.7.')

    def add(t, obj):
        obj = dict(obj)
        obj['timestamp'] = iso(t, 3)
        s.ev(jdump(obj), **obj)

    t0 = at(0.3)
    add(t0, {'level': 'info', 'message': 'Loading configuration', 'service': 'orders-api', 'env': 'production'})
    s.ev('(node:1) [DEP0040] DeprecationWarning: The `punycode` module is deprecated. Please use a userland alternative instead.\n(Use `node --trace-deprecation ...` to show where the warning was created)',
         message='DeprecationWarning: The `punycode` module is deprecated.')
    add(t0 + timedelta(milliseconds=120), {'level': 'info', 'message': 'Connected to MongoDB', 'service': 'orders-api', 'host': 'mongo-0.mongo:27017'})
    add(t0 + timedelta(milliseconds=180), {'level': 'warn', 'message': 'Redis not reachable yet, retrying', 'service': 'orders-api', 'attempt': 1})
    add(t0 + timedelta(milliseconds=1240), {'level': 'info', 'message': 'Server listening on port 3000', 'service': 'orders-api'})
    redis_down = (at(1500), at(1620))
    for t in times(rnd, 480, 2, 3600):
        method = wchoice(rnd, [('GET', 70), ('POST', 25), ('DELETE', 5)])
        url = api_path(rnd, method)
        st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'DELETE': 204}[method], 90), (400, 3), (401, 2), (404, 3), (500, 2)])
        if redis_down[0] <= t < redis_down[1] and rnd.random() < 0.5:
            st = 503
        rt = round(lognorm(rnd, 22, 0.8), 3)
        rid = uid(rnd)
        if st == 500:
            add(t + timedelta(milliseconds=rt * 0.9), {'level': 'error', 'message': "Cannot read properties of undefined (reading 'total')", 'service': 'orders-api', 'requestId': rid, 'stack': NODE_STACK2})
        lvl = 'error' if st >= 500 else 'warn' if st >= 400 else 'info'
        rec = {'level': lvl, 'message': 'request completed', 'service': 'orders-api', 'requestId': rid, 'method': method, 'url': url,
               'statusCode': st, 'responseTime': rt, 'ip': rnd.choice(clients)}
        u = rnd.choice([None, 'u_%d' % rnd.randint(100, 999)])
        if u:  # winston drops undefined meta
            rec['userId'] = u
        add(t + timedelta(milliseconds=rt), rec)
    for t in times(rnd, 6, 1500, 1620):
        add(t, {'level': 'error', 'message': 'connect ECONNREFUSED 10.0.5.20:6379', 'service': 'orders-api', 'stack': NODE_STACK})
    for t in times(rnd, 12, 10, 3590):
        add(t, {'level': 'debug', 'message': 'cache miss', 'service': 'orders-api', 'key': 'order:%d' % rnd.randint(180000, 189999)})
    # re-emit in timestamp order (the deprecation warning stays second)
    first = s.events[0]
    dep = [e for e in s.events if e.get('timestamp') is None]
    rest = [e for e in s.events if e.get('timestamp') is not None and e is not first]
    rest.sort(key=lambda e: e['timestamp'])
    s.events = [first] + dep + rest
    s.lines = ['', '> orders-api@3.2.0 start', '> node dist/main.js', '']
    for e in s.events:
        s.lines.extend(e['_text'].split('\n'))
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('service', 'text')
    s.field('requestId', 'text')
    s.field('method', 'text', None, 'method')
    s.field('url', 'text', None, 'path')
    s.field('statusCode', 'number', None, 'status')
    s.field('responseTime', 'number', 'ms', 'duration')
    s.field('ip', 'ip', None, 'client')
    s.field('userId', 'text', None, 'user')
    s.field('stack', 'text', None, 'exception')
    rc = F('message', '==', 'request completed')
    s.fact("events with level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("'request completed' events with statusCode 503", 'count', flt={'all': [rc, F('statusCode', '==', 503)]})
    s.fact("max responseTime (ms) over 'request completed'", 'max', 'responseTime', rc)
    s.fact("p95 (nearest-rank) responseTime in ms over 'request completed'", 'p95', 'responseTime', rc)
    s.fact('events with a stack', 'count', flt=F('stack', 'exists'))
    s.fact('last timestamp', 'max', 'timestamp')
    return s


# ======================================================================= 6 uvicorn
PHRASE = {200: 'OK', 201: 'Created', 204: 'No Content', 307: 'Temporary Redirect', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden',
          404: 'Not Found', 409: 'Conflict', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error',
          502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout'}
UVI_TB = '''Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/uvicorn/protocols/http/httptools_impl.py", line 411, in run_asgi
    result = await app(  # type: ignore[func-returns-value]
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/uvicorn/middleware/proxy_headers.py", line 69, in __call__
    return await self.app(scope, receive, send)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/fastapi/applications.py", line 1054, in __call__
    await super().__call__(scope, receive, send)
  File "/usr/local/lib/python3.12/site-packages/starlette/routing.py", line 74, in app
    response = await func(request)
               ^^^^^^^^^^^^^^^^^^^
  File "/app/api/routes/reports.py", line 57, in build_report
    ratio = totals["paid"] / totals["count"]
            ~~~~~~~~~~~~~~~^~~~~~~~~~~~~~~~~
ZeroDivisionError: division by zero'''


def gen_uvicorn():
    rnd = random.Random(206)
    s = Sample('uvicorn', 'Python uvicorn 0.29 default logging on stdout: access + error loggers, plus app logging.basicConfig lines (no timestamps)', 'uvicorn.log')

    def ul(lvl, msg, **rec):
        pref = (lvl + ':').ljust(9)
        return s.ev(pref + ' ' + msg, level=lvl, message=msg, **rec)

    def startup(pid):
        ul('INFO', 'Started server process [%d]' % pid)
        ul('INFO', 'Waiting for application startup.')
        ul('INFO', 'Application startup complete.')
        ul('INFO', 'Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)')

    startup(1)
    clients = Pool(rnd, private_ips(rnd, 12, '172.18.0.') + public_ips(rnd, 20), 0.8)
    paths = ['/api/v1/reports/%d' % 0, '/health', '/api/v1/users/me', '/api/v1/items', '/api/v1/items/{}', '/docs', '/openapi.json', '/api/v1/reports/build']
    for i in range(430):
        if i == 260:
            ul('INFO', 'Shutting down')
            ul('INFO', 'Waiting for application shutdown.')
            ul('INFO', 'Application shutdown complete.')
            ul('INFO', 'Finished server process [1]')
            startup(1)
        r = rnd.random()
        if r < 0.03:
            s.ev('WARNING:app.db:slow query (%.2fs): SELECT * FROM orders WHERE customer_id = $1' % lognorm(rnd, 1.4, 0.3), level='WARNING', logger='app.db')
            continue
        if r < 0.05:
            s.ev('INFO:app.cache:cache refreshed (%d keys)' % rnd.randint(100, 900), level='INFO', logger='app.cache')
            continue
        if r < 0.055:
            ul('WARNING', 'Invalid HTTP request received.')
            continue
        path = rnd.choice(paths).replace('{}', str(rnd.randint(1, 5000)))
        method = 'POST' if path.endswith('build') or (path == '/api/v1/items' and rnd.random() < 0.3) else 'GET'
        st = wchoice(rnd, [(200, 85), (404, 4), (401, 3), (422, 3), (307, 1), (500, 0)])
        if path.endswith('build') and rnd.random() < 0.25:
            st = 500
        if method == 'POST' and st == 200:
            st = 201
        ip = clients.pick()
        addr = '%s:%d' % (ip, rnd.randint(30000, 65000))
        if st == 500:
            ul('ERROR', 'Exception in ASGI application\n' + UVI_TB, exception='ZeroDivisionError: division by zero')
        ul('INFO', '%s - "%s %s HTTP/1.1" %d %s' % (addr, method, path, st, PHRASE[st]), client_addr=ip, method=method, path=path, status_code=st)
    s.field('level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('client_addr', 'ip', None, 'client')
    s.field('method', 'text', None, 'method')
    s.field('path', 'text', None, 'path')
    s.field('status_code', 'number', None, 'status')
    s.field('logger', 'text', None, 'logger')
    s.field('exception', 'text', None, 'exception')
    acc = F('status_code', 'exists')
    s.fact('access lines', 'count', flt=acc)
    s.fact('access lines with status_code 500', 'count', flt=F('status_code', '==', 500))
    s.fact("events with level 'ERROR'", 'count', flt=F('level', '==', 'ERROR'))
    s.fact('distinct client_addr (IP only) over access lines', 'distinct', 'client_addr', acc)
    s.fact("events with level 'WARNING'", 'count', flt=F('level', '==', 'WARNING'))
    s.fact("'Started server process' events", 'count', flt=F('message', 'startswith', 'Started server process'))
    return s


# ======================================================================= 7 Rails lograge
RAILS_TRACE = {
    'ActiveRecord::RecordNotFound': ("Couldn't find Product with 'id'=%d", ["app/controllers/products_controller.rb:71:in `set_product'"]),
    'ActionView::Template::Error': ("undefined method `name' for nil:NilClass", ["app/views/orders/show.html.erb:14", "app/controllers/orders_controller.rb:22:in `show'"]),
    'Redis::CannotConnectError': ('Error connecting to Redis on redis.internal:6379 (Errno::ECONNREFUSED)', ["app/models/cart.rb:33:in `fetch'", "app/controllers/carts_controller.rb:9:in `show'"]),
}


def gen_lograge():
    rnd = random.Random(207)
    s = Sample('rails_lograge', 'Ruby on Rails 7.1 + lograge (KeyValue formatter) on STDOUT, tagged with request id, with Puma banner and exception backtraces', 'rails-lograge.log')
    for line in ['=> Booting Puma', '=> Rails 7.1.3.2 application starting in production ', '=> Run `bin/rails server --help` for more startup options',
                 'Puma starting in single mode...', '* Puma version: 6.4.2 (ruby 3.3.0-p0) ("The Eagle of Durango")', '*  Min threads: 5', '*  Max threads: 5',
                 '*  Environment: production', '*          PID: 1', '* Listening on http://0.0.0.0:3000', 'Use Ctrl-C to stop']:
        s.raw(line)
    routes = [('GET', '/', 'HomeController', 'index', 'html'), ('GET', '/products', 'ProductsController', 'index', 'html'),
              ('GET', '/products/%d', 'ProductsController', 'show', 'html'), ('GET', '/cart', 'CartsController', 'show', 'html'),
              ('POST', '/cart/items', 'CartItemsController', 'create', 'turbo_stream'), ('GET', '/orders/%d', 'OrdersController', 'show', 'html'),
              ('GET', '/api/v2/products.json', 'Api::V2::ProductsController', 'index', 'json'), ('POST', '/users/sign_in', 'Users::SessionsController', 'create', 'html'),
              ('GET', '/up', 'Rails::HealthController', 'show', 'html')]
    clients = Pool(rnd, public_ips(rnd, 45), 0.9)
    for t in times(rnd, 440, 0, 3600):
        method, path, ctrl, action, fmt = wchoice(rnd, [(r, w) for r, w in zip(routes, [8, 14, 25, 8, 6, 6, 14, 3, 10])])
        if '%d' in path:
            path = path % rnd.randint(1, 99999)
        rid = uid(rnd)
        ip = clients.pick()
        st = 200
        exc = None
        if method == 'POST':
            st = wchoice(rnd, [(302 if ctrl.startswith('Users') else 200, 85), (422, 15)])
        elif ctrl == 'ProductsController' and action == 'show' and rnd.random() < 0.05:
            st, exc = 404, 'ActiveRecord::RecordNotFound'
        elif ctrl == 'OrdersController' and rnd.random() < 0.08:
            st, exc = 500, 'ActionView::Template::Error'
        elif ctrl == 'CartsController' and 1800 < (t - BASE).total_seconds() < 1900:
            st, exc = 500, 'Redis::CannotConnectError'
        view = round(lognorm(rnd, 18, 0.7), 2) if fmt != 'json' and st not in (302, 404) else (round(lognorm(rnd, 3, 0.5), 2) if fmt == 'json' else 0.0)
        db = round(lognorm(rnd, 6, 1.0), 2)
        dur = round(view + db + lognorm(rnd, 4, 0.5), 2)
        alloc = rnd.randint(800, 90000)
        parts = [('method', method), ('path', path), ('format', fmt), ('controller', ctrl), ('action', action), ('status', str(st))]
        if st == 302:
            parts.append(('location', 'https://shop.example.com/'))
        if exc:
            msg = RAILS_TRACE[exc][0]
            if '%d' in msg:
                msg = msg % int(path.rsplit('/', 1)[1])
            parts.append(('error', "'%s: %s'" % (exc, msg)))
        parts += [('allocations', str(alloc)), ('duration', '%.2f' % dur), ('view', '%.2f' % view), ('db', '%.2f' % db), ('remote_ip', ip), ('request_id', rid)]
        text = '[%s] %s' % (rid, ' '.join('%s=%s' % kv for kv in parts))
        if exc:
            # Rails' DebugExceptions middleware logs the error with its backtrace after the request line
            s.ev(text, method=method, path=path, format=fmt, controller=ctrl, action=action, status=st, duration=dur, view=view, db=db,
                 remote_ip=ip, request_id=rid, allocations=alloc, error=exc)
            lvl_msg, bt = RAILS_TRACE[exc]
            # DebugExceptions logs each line with its own logger.fatal call, so each carries the tag
            s.ev('[%s]   ' % rid, request_id=rid)
            s.ev('[%s] %s (%s):' % (rid, exc, msg), request_id=rid, exception=exc)
            s.ev('[%s]   ' % rid, request_id=rid)
            for b in bt:
                s.ev('[%s] %s' % (rid, b), request_id=rid)
        else:
            s.ev(text, method=method, path=path, format=fmt, controller=ctrl, action=action, status=st, duration=dur, view=view, db=db,
                 remote_ip=ip, request_id=rid, allocations=alloc)
    s.field('method', 'text', None, 'method')
    s.field('path', 'text', None, 'path')
    s.field('format', 'text')
    s.field('controller', 'text', None, 'logger')
    s.field('action', 'text')
    s.field('status', 'number', None, 'status')
    s.field('duration', 'number', 'ms', 'duration')
    s.field('view', 'number', 'ms')
    s.field('db', 'number', 'ms')
    s.field('allocations', 'number')
    s.field('remote_ip', 'ip', None, 'client')
    s.field('request_id', 'text')
    s.field('error', 'text', None, 'exception')
    req = F('status', 'exists')
    s.fact('request lines with status 500', 'count', flt=F('status', '==', 500))
    s.fact('max duration (ms) over request lines', 'max', 'duration', req)
    s.fact('p95 (nearest-rank) duration in ms over request lines', 'p95', 'duration', req)
    s.fact('max db (ms) over request lines', 'max', 'db', req)
    s.fact("request lines with controller 'ProductsController'", 'count', flt=F('controller', '==', 'ProductsController'))
    s.fact('distinct remote_ip', 'distinct', 'remote_ip', req)
    return s


# ======================================================================= 8 Laravel
LARAVEL_FRAMES = [
    '/var/www/html/vendor/laravel/framework/src/Illuminate/Routing/Controller.php(54): {ctl}->{act}()',
    '/var/www/html/vendor/laravel/framework/src/Illuminate/Routing/ControllerDispatcher.php(43): Illuminate\\Routing\\Controller->callAction()',
    '/var/www/html/vendor/laravel/framework/src/Illuminate/Routing/Route.php(260): Illuminate\\Routing\\ControllerDispatcher->dispatch()',
    '/var/www/html/vendor/laravel/framework/src/Illuminate/Routing/Route.php(205): Illuminate\\Routing\\Route->runController()',
    '/var/www/html/vendor/laravel/framework/src/Illuminate/Routing/Router.php(806): Illuminate\\Routing\\Route->run()',
    '/var/www/html/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php(144): Illuminate\\Routing\\Router->Illuminate\\Routing\\{closure}()',
    '/var/www/html/vendor/laravel/framework/src/Illuminate/Routing/Middleware/SubstituteBindings.php(50): Illuminate\\Pipeline\\Pipeline->Illuminate\\Pipeline\\{closure}()',
    '/var/www/html/vendor/laravel/framework/src/Illuminate/Foundation/Http/Kernel.php(175): Illuminate\\Pipeline\\Pipeline->then()',
    '/var/www/html/public/index.php(51): Illuminate\\Foundation\\Http\\Kernel->handle()',
]
LARAVEL_ERRS = [
    ('Error', 'Call to undefined method App\\Models\\Order::totals()', '/var/www/html/app/Http/Controllers/OrderController.php', 88, 'App\\Http\\Controllers\\OrderController', 'show', 0),
    ('Illuminate\\Database\\QueryException', 'SQLSTATE[40001]: Serialization failure: 1213 Deadlock found when trying to get lock; try restarting transaction (Connection: mysql, SQL: update `stocks` set `qty` = `qty` - 1 where `sku` = ?)',
     '/var/www/html/vendor/laravel/framework/src/Illuminate/Database/Connection.php', 829, 'App\\Http\\Controllers\\CheckoutController', 'store', 40001),
    ('GuzzleHttp\\Exception\\ConnectException', 'cURL error 28: Operation timed out after 10001 milliseconds with 0 bytes received (see https://curl.haxx.se/libcurl/c/libcurl-errors.html) for https://api.payments.example/v1/charges',
     '/var/www/html/vendor/guzzlehttp/guzzle/src/Handler/CurlFactory.php', 210, 'App\\Http\\Controllers\\CheckoutController', 'store', 0),
]


def gen_laravel():
    rnd = random.Random(208)
    s = Sample('laravel', 'Laravel 11 single/daily log (Monolog LineFormatter, allowInlineLineBreaks, stack traces inline in the context JSON)', 'laravel.log')
    tl = TL()

    def add(t, env, lvl, msg, ctx=None, exc=None):
        ts = t.strftime('%Y-%m-%d %H:%M:%S')
        text = '[%s] %s.%s: %s' % (ts, env, lvl, msg)
        if ctx is not None:
            text += ' ' + ctx
        tl.add(t, text, datetime=ts, channel=env, level_name=lvl, message=msg, exception=exc)

    for t in times(rnd, 290, 0, 3600):
        lvl, msg, ctx = wchoice(rnd, [
            (('INFO', 'Order placed', jdump({'order_id': rnd.randint(180000, 189999), 'user_id': rnd.randint(1, 5000), 'total': round(rnd.uniform(5, 400), 2)})), 30),
            (('INFO', 'User logged in', jdump({'user_id': rnd.randint(1, 5000), 'ip': rnd.choice(public_ips(rnd, 3))})), 25),
            (('DEBUG', 'Cache miss for key products:page:%d' % rnd.randint(1, 40), None), 10),
            (('NOTICE', 'Payment webhook received with unknown event type', jdump({'type': 'charge.dispute.funds_reinstated'})), 3),
            (('WARNING', 'Stock level low', jdump({'sku': 'SKU-%d' % rnd.randint(1000, 9999), 'qty': rnd.randint(0, 4)})), 10),
            (('WARNING', 'Rate limit exceeded for API client', jdump({'client_id': rnd.randint(1, 40), 'route': 'api/v1/products'})), 5),
            (('INFO', 'Processed job App\\Jobs\\SendOrderConfirmation', jdump({'order_id': rnd.randint(180000, 189999), 'ms': rnd.randint(20, 900)})), 15),
        ])
        add(t, 'production', lvl, msg, ctx)
    for t in times(rnd, 38, 0, 3600):
        cls, msg, file, line, ctl, act, code = wchoice(rnd, [(e, w) for e, w in zip(LARAVEL_ERRS, [5, 3, 4])])
        nframes = rnd.randint(5, len(LARAVEL_FRAMES))
        frames = ['#0 %s' % LARAVEL_FRAMES[0].format(ctl=ctl, act=act)] + ['#%d %s' % (i, f) for i, f in enumerate(LARAVEL_FRAMES[1:nframes], 1)]
        frames.append('#%d {main}' % nframes)
        uidp = '"userId":%d,' % rnd.randint(1, 5000) if rnd.random() < 0.6 else ''
        # Monolog JSON-encodes the context (unescaped slashes and unicode, inline line breaks kept):
        # backslashes and quotes inside the exception string are escaped
        exc_s = '[object] (%s(code: %d): %s at %s:%d)\n[stacktrace]\n%s\n' % (cls, code, msg, file, line, '\n'.join(frames))
        ctx = '{%s"exception":"%s"} ' % (uidp, exc_s.replace('\\', '\\\\').replace('"', '\\"'))
        lvl = 'CRITICAL' if cls.startswith('Illuminate') and rnd.random() < 0.3 else 'ERROR'
        add(t, 'production', lvl, msg, ctx, cls)
    add(at(1204.0), 'production', 'ALERT', 'Queue worker memory limit reached, restarting', jdump({'memory_mb': 512}))
    add(at(3012.0), 'local', 'DEBUG', 'tinker session started')
    tl.flush(s)
    s.field('datetime', 'time', None, 'time')
    s.field('channel', 'text', None, 'logger')
    s.field('level_name', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('exception', 'text', None, 'exception')
    s.fact("events with level_name 'ERROR'", 'count', flt=F('level_name', '==', 'ERROR'))
    s.fact("events with level_name 'CRITICAL'", 'count', flt=F('level_name', '==', 'CRITICAL'))
    s.fact("events with level_name 'WARNING'", 'count', flt=F('level_name', '==', 'WARNING'))
    s.fact('events carrying an exception with stack trace', 'count', flt=F('exception', 'exists'))
    s.fact("events whose message contains 'Deadlock'", 'count', flt=F('message', 'contains', 'Deadlock'))
    s.fact('first datetime', 'min', 'datetime')
    return s


# ======================================================================= 9 zerolog
GO_PANIC = '''panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x8f2c1a]

goroutine 4127 [running]:
github.com/acme/ledger/internal/api.(*Handler).postEntry(0xc0001a8000, {0xb3c5a0, 0xc0004b60e0}, 0xc000612000)
	/src/internal/api/entries.go:112 +0x1ba
net/http.HandlerFunc.ServeHTTP(0xc000612000?, {0xb3c5a0?, 0xc0004b60e0?}, 0x0?)
	/usr/local/go/src/net/http/server.go:2166 +0x29
github.com/rs/zerolog/hlog.AccessHandler.func1.1({0xb3c5a0, 0xc0004b60e0}, 0xc000612000)
	/go/pkg/mod/github.com/rs/zerolog@v1.33.0/hlog/hlog.go:220 +0x168
net/http.serverHandler.ServeHTTP({0xc0001d6f00?}, {0xb3c5a0?, 0xc0004b60e0?}, 0x6?)
	/usr/local/go/src/net/http/server.go:3137 +0x8e
net/http.(*conn).serve(0xc0002a8000, {0xb3d1e8, 0xc000190c30})
	/usr/local/go/src/net/http/server.go:2039 +0x5e8
created by net/http.(*Server).Serve in goroutine 1
	/usr/local/go/src/net/http/server.go:3285 +0x4b4'''


def gen_zerolog():
    rnd = random.Random(209)
    s = Sample('zerolog', 'Go zerolog JSON (default RFC3339 time, hlog access handler with dur in ms as float), plus a Go panic dump', 'zerolog.log')
    clients = Pool(rnd, private_ips(rnd, 20, '10.1.3.'), 0.8)
    tl = TL()

    def add(t, lvl, fields, msg, caller=None):
        o = {'level': lvl}
        o.update(fields)
        o['time'] = t.strftime('%Y-%m-%dT%H:%M:%SZ')
        if caller:
            o['caller'] = caller
        if msg is not None:
            o['message'] = msg
        tl.add(t, jdump(o), **o)

    add(at(0.01), 'info', {'version': 'v1.14.2', 'commit': 'a91c3e0'}, 'starting ledger-api', '/src/cmd/ledger/main.go:41')
    add(at(0.05), 'info', {'dsn': 'postgres://ledger@pg-primary:5432/ledger'}, 'connected to database', '/src/cmd/ledger/main.go:58')
    add(at(0.06), 'info', {'addr': ':8080'}, 'http server listening', '/src/cmd/ledger/main.go:77')
    for t in times(rnd, 520, 1, 3600):
        method = wchoice(rnd, [('GET', 65), ('POST', 30), ('DELETE', 5)])
        url = rnd.choice(['/v1/accounts/%d/balance' % rnd.randint(1, 9999), '/v1/entries?account=%d' % rnd.randint(1, 9999)]) if method == 'GET' else '/v1/entries' if method == 'POST' else '/v1/entries/%s' % uid(rnd)
        st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'DELETE': 204}[method], 90), (400, 3), (404, 3), (409, 2), (500, 1.5), (503, 0.5)])
        dur = round(lognorm(rnd, 9, 0.9), 3)
        rid = alnum(rnd, 20, 'abcdefghijklmnopqrstuv0123456789')
        if st == 409:
            add(t + timedelta(milliseconds=dur * 0.9), 'warn', {'req_id': rid, 'account': rnd.randint(1, 9999)}, 'optimistic lock conflict, client must retry')
        if st >= 500:
            add(t + timedelta(milliseconds=dur * 0.9), 'error', {'req_id': rid, 'error': rnd.choice(['pq: canceling statement due to statement timeout', 'context deadline exceeded', 'dial tcp 10.1.9.4:5432: connect: connection refused'])}, 'failed to write entry', '/src/internal/api/entries.go:131')
        lvl = 'info' if st < 500 else 'error'
        add(t + timedelta(milliseconds=dur), lvl, {'method': method, 'url': url, 'status': st, 'size': 0 if st == 204 else rnd.randint(40, 4000), 'dur': dur,
                                                   'remote_ip': clients.pick(), 'user_agent': rnd.choice(['ledger-cli/1.4', 'Go-http-client/1.1', 'okhttp/4.12.0']), 'req_id': rid}, 'request')
    for t in times(rnd, 30, 1, 3600):
        add(t, 'debug', {'component': 'reconciler', 'batch': rnd.randint(1, 500), 'dur': round(lognorm(rnd, 120, 0.5), 3)}, 'reconciled batch')
    add(at(1802.2), 'warn', {'component': 'reconciler'}, 'reconciler lagging behind by 3 batches')
    tp = at(2420.9)
    tl.add(tp, GO_PANIC, panic='runtime error: invalid memory address or nil pointer dereference')
    tl.add(tp + timedelta(seconds=1.7), jdump({'level': 'info', 'version': 'v1.14.2', 'commit': 'a91c3e0', 'time': (tp + timedelta(seconds=1.7)).strftime('%Y-%m-%dT%H:%M:%SZ'), 'caller': '/src/cmd/ledger/main.go:41', 'message': 'starting ledger-api'}),
           level='info', time=(tp + timedelta(seconds=1.7)).strftime('%Y-%m-%dT%H:%M:%SZ'), message='starting ledger-api')
    tl.flush(s)
    s.field('time', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('caller', 'text', None, 'logger')
    s.field('method', 'text', None, 'method')
    s.field('url', 'text', None, 'path')
    s.field('status', 'number', None, 'status')
    s.field('size', 'number', 'b', 'bytes')
    s.field('dur', 'number', 'ms', 'duration')
    s.field('remote_ip', 'ip', None, 'client')
    s.field('req_id', 'text')
    s.field('error', 'text', None, 'exception')
    rq = F('message', '==', 'request')
    s.fact("events with level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("'request' events with status >= 500", 'count', flt={'all': [rq, F('status', '>=', 500)]})
    s.fact("max dur (ms) over 'request' events", 'max', 'dur', rq)
    s.fact("p95 (nearest-rank) dur in ms over 'request' events", 'p95', 'dur', rq)
    s.fact('distinct remote_ip', 'distinct', 'remote_ip', rq)
    s.fact('Go panic dumps (non-JSON block starting with "panic:", one event)', 'count', flt=F('panic', 'exists'), publish=False)
    return s


# ======================================================================= 10 Java GC unified logging
def gen_jvm_gc():
    rnd = random.Random(210)
    s = Sample('jvm_gc', 'JDK 17 unified GC log, -Xlog:gc*:file=gc.log:time,level,tags (G1)', 'gc.log')

    # HotSpot pads each decoration to the widest value written so far (LogFileStreamOutput)
    pad = {'level': 0, 'tags': 0}

    def add(t, lvl, tags, msg, **rec):
        ts = t.strftime('%Y-%m-%dT%H:%M:%S') + '.%03d+0000' % (t.microsecond // 1000)
        pad['level'] = max(pad['level'], len(lvl))
        pad['tags'] = max(pad['tags'], len(tags))
        s.ev('[%s][%s][%s] %s' % (ts, lvl.ljust(pad['level']), tags.ljust(pad['tags']), msg), time=ts, level=lvl, tags=tags, message=msg, **rec)

    t = at(0.004)
    for tags, msg in [('gc,init', 'Version: 17.0.11+9 (release)'), ('gc,init', 'CPUs: 4 total, 4 available'), ('gc,init', 'Memory: 7936M'),
                      ('gc,init', 'Large Page Support: Disabled'), ('gc,init', 'NUMA Support: Disabled'), ('gc,init', 'Compressed Oops: Enabled (32-bit)'),
                      ('gc,init', 'Heap Region Size: 1M'), ('gc,init', 'Heap Min Capacity: 256M'), ('gc,init', 'Heap Initial Capacity: 256M'),
                      ('gc,init', 'Heap Max Capacity: 1G'), ('gc,init', 'Pre-touch: Disabled'), ('gc,init', 'Parallel Workers: 4'),
                      ('gc,init', 'Concurrent Workers: 1'), ('gc,init', 'Concurrent Refinement Workers: 4'), ('gc,init', 'Periodic GC: Disabled'),
                      ('gc', 'Using G1'), ('gc,metaspace', 'CDS archive(s) mapped at: [0x0000000800000000-0x0000000800bd0000-0x0000000800bd0000), size 12386304, SharedBaseAddress: 0x0000000800000000, ArchiveRelocationMode: 1.'),
                      ('gc,metaspace', 'Compressed class space mapped at: 0x0000000801000000-0x0000000841000000, reserved size: 1073741824'),
                      ('gc,metaspace', 'Narrow klass base: 0x0000000800000000, Narrow klass shift: 0, Narrow klass range: 0x100000000')]:
        add(t, 'info', tags, msg)
    heap_max = 1024
    old = 20
    n = 0
    tcur = 3.0
    while tcur < 3590 and n < 175:
        tcur += lognorm(rnd, 19, 0.5)
        t = at(tcur)
        gc = n
        n += 1
        eden_before = rnd.randint(40, 60)
        kind = 'Normal'
        cause = 'G1 Evacuation Pause'
        if old > 380 and rnd.random() < 0.5:
            kind, cause = 'Concurrent Start', rnd.choice(['G1 Evacuation Pause', 'G1 Humongous Allocation'])
        if gc in (97, 141):
            kind = 'Full'
        if kind == 'Full':
            before = old + eden_before
            after = int(before * 0.45)
            ms = round(lognorm(rnd, 380, 0.2), 3)
            add(t, 'info', 'gc,start', 'GC(%d) Pause Full (G1 Compaction Pause)' % gc, gc_id=gc)
            add(t, 'info', 'gc,task', 'GC(%d) Using 4 workers of 4 for full compaction' % gc, gc_id=gc)
            for ph, v in [('Phase 1: Mark live objects', 0.55), ('Phase 2: Prepare for compaction', 0.12), ('Phase 3: Adjust pointers', 0.18), ('Phase 4: Compact heap', 0.15)]:
                add(t + timedelta(milliseconds=ms * v), 'info', 'gc,phases', 'GC(%d) %s %.3fms' % (gc, ph, ms * v), gc_id=gc)
            te = t + timedelta(milliseconds=ms)
            add(te, 'info', 'gc,heap', 'GC(%d) Eden regions: %d->0(%d)' % (gc, eden_before, 51), gc_id=gc)
            add(te, 'info', 'gc,heap', 'GC(%d) Old regions: %d->%d' % (gc, old, after), gc_id=gc)
            add(te, 'info', 'gc,metaspace', 'GC(%d) Metaspace: 88123K(89088K)->87990K(89088K) NonClass: 77701K(78336K)->77580K(78336K) Class: 10422K(10752K)->10410K(10752K)' % gc, gc_id=gc)
            add(te, 'info', 'gc', 'GC(%d) Pause Full (G1 Compaction Pause) %dM->%dM(%dM) %.3fms' % (gc, before, after, heap_max, ms), gc_id=gc, pause=ms, pause_kind='Full')
            add(te, 'info', 'gc,cpu', 'GC(%d) User=%.2fs Sys=%.2fs Real=%.2fs' % (gc, ms * 3.6 / 1000, ms * 0.1 / 1000, ms / 1000), gc_id=gc)
            old = after
            continue
        ms = round(lognorm(rnd, 6.5, 0.5), 3)
        surv = rnd.randint(3, 7)
        promoted = rnd.randint(1, 9)
        before = old + eden_before + surv
        add(t, 'info', 'gc,start', 'GC(%d) Pause Young (%s) (%s)' % (gc, kind, cause), gc_id=gc)
        add(t, 'info', 'gc,task', 'GC(%d) Using 4 workers of 4 for evacuation' % gc, gc_id=gc)
        te = t + timedelta(milliseconds=ms)
        if rnd.random() < 0.02:
            add(te, 'warning', 'gc', 'GC(%d) To-space exhausted' % gc, gc_id=gc)
        add(te, 'info', 'gc,phases', 'GC(%d)   Pre Evacuate Collection Set: %.1fms' % (gc, ms * 0.02), gc_id=gc)
        add(te, 'info', 'gc,phases', 'GC(%d)   Merge Heap Roots: %.1fms' % (gc, ms * 0.04), gc_id=gc)
        add(te, 'info', 'gc,phases', 'GC(%d)   Evacuate Collection Set: %.1fms' % (gc, ms * 0.8), gc_id=gc)
        add(te, 'info', 'gc,phases', 'GC(%d)   Post Evacuate Collection Set: %.1fms' % (gc, ms * 0.12), gc_id=gc)
        add(te, 'info', 'gc,phases', 'GC(%d)   Other: %.1fms' % (gc, ms * 0.02), gc_id=gc)
        add(te, 'info', 'gc,heap', 'GC(%d) Eden regions: %d->0(%d)' % (gc, eden_before, 51), gc_id=gc)
        add(te, 'info', 'gc,heap', 'GC(%d) Survivor regions: %d->%d(7)' % (gc, surv, surv + rnd.randint(-2, 2) if surv > 3 else surv), gc_id=gc)
        add(te, 'info', 'gc,heap', 'GC(%d) Old regions: %d->%d' % (gc, old, old + promoted), gc_id=gc)
        old += promoted
        after = old + surv
        add(te, 'info', 'gc', 'GC(%d) Pause Young (%s) (%s) %dM->%dM(%dM) %.3fms' % (gc, kind, cause, before, after, heap_max, ms), gc_id=gc, pause=ms, pause_kind='Young')
        if kind == 'Concurrent Start':
            cm = round(lognorm(rnd, 120, 0.4), 3)
            add(te, 'info', 'gc', 'GC(%d) Concurrent Mark Cycle' % (gc), gc_id=gc)
            rm = round(lognorm(rnd, 4, 0.3), 3)
            tr = te + timedelta(milliseconds=cm * 0.8)
            freed = int(old * rnd.uniform(0.2, 0.5))
            add(tr, 'info', 'gc', 'GC(%d) Pause Remark %dM->%dM(%dM) %.3fms' % (gc, after + 5, after + 3, heap_max, rm), gc_id=gc, pause=rm, pause_kind='Remark')
            cl = round(rnd.uniform(0.02, 0.09), 3)
            add(tr + timedelta(milliseconds=cm * 0.1), 'info', 'gc', 'GC(%d) Pause Cleanup %dM->%dM(%dM) %.3fms' % (gc, after + 4, after + 4, heap_max, cl), gc_id=gc, pause=cl, pause_kind='Cleanup')
            add(te + timedelta(milliseconds=cm), 'info', 'gc', 'GC(%d) Concurrent Mark Cycle %.3fms' % (gc, cm), gc_id=gc)
            old -= freed
    add(at(3598.2), 'warning', 'gc,alloc', 'Retrying allocation of 18874384 bytes after a GC; humongous allocation may fail', gc_id=None)
    s.field('time', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('tags', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    s.field('gc_id', 'number')
    s.field('pause', 'number', 'ms', 'duration')
    pz = F('pause', 'exists')
    s.fact('pause summary lines (Pause Young/Remark/Cleanup/Full with heap sizes and ms)', 'count', flt=pz)
    s.fact("'Pause Full' summary lines", 'count', flt=F('message', 'contains', 'Pause Full (G1 Compaction Pause) '))
    s.fact('max pause (ms) over pause summary lines', 'max', 'pause', pz)
    s.fact('p95 (nearest-rank) pause in ms over pause summary lines', 'p95', 'pause', pz)
    s.fact("events at level 'warning'", 'count', flt=F('level', '==', 'warning'))
    s.fact('distinct GC ids (GC(n))', 'distinct', 'gc_id')
    return s


# ======================================================================= 11 Consul (hclog)
def gen_consul():
    rnd = random.Random(211)
    s = Sample('consul_hclog', 'HashiCorp Consul 1.18 agent log (hclog text format) with the ==> startup banner', 'consul.log')
    banner = ['==> Starting Consul agent...', "               Version: '1.18.1'", "            Build Date: '2024-03-26 21:25:18 +0000 UTC'",
              "               Node ID: '3f1c2e9a-7b41-4c55-9d2e-5a8e0b1f6c77'", "             Node name: 'consul-1'", "            Datacenter: 'dc1' (Segment: '<all>')",
              '                Server: true (Bootstrap: false)', '           Client Addr: [0.0.0.0] (HTTP: 8500, HTTPS: -1, gRPC: -1, gRPC-TLS: 8503, DNS: 8600)',
              '          Cluster Addr: 10.0.3.11 (LAN: 8301, WAN: 8302)', '     Gossip Encryption: true', '      Auto-Encrypt-TLS: false', '           ACL Enabled: true',
              '     Reporting Enabled: false', '    ACL Default Policy: deny', '             HTTPS TLS: Verify Incoming: false, Verify Outgoing: false, Min Version: TLSv1_2',
              '              gRPC TLS: Verify Incoming: false, Min Version: TLSv1_2', '      Internal RPC TLS: Verify Incoming: false, Verify Outgoing: false (Verify Hostname: false), Min Version: TLSv1_2',
              '', '==> Log data will now stream in as it occurs:', '']
    for b in banner:
        s.raw(b)
    tl = TL()

    def kvs(kv):
        out = []
        for k, v in kv:
            v = str(v)
            if v == '' or any(c in v for c in ' "=') :
                v = '"%s"' % v.replace('"', '\\"') if v else ''
            out.append('%s=%s' % (k, v))
        return ' '.join(out)

    def add(t, lvl, name, msg, kv=(), multiline=None):
        ts = iso(t, 3)
        text = '%s [%s] %s: %s' % (ts, lvl, name, msg) if lvl not in ('INFO', 'WARN') else '%s [%s]  %s: %s' % (ts, lvl, name, msg)
        if kv:
            text += ': ' + kvs(kv)
        if multiline:
            k, lines = multiline
            text += (' ' if kv else ': ') + '%s=\n' % k + '\n'.join('  | ' + ln for ln in lines)
        rec = {'timestamp': ts, '@level': lvl, '@module': name, '@message': msg}
        rec.update({k: str(v) for k, v in kv})
        if multiline:
            rec[multiline[0]] = '\n'.join(multiline[1])
        tl.add(t, text, **rec)

    t0 = at(0.2)
    boot = [('INFO', 'agent.server.raft', 'initial configuration', [('index', 1), ('servers', '[[{Suffrage:Voter ID:3f1c2e9a-7b41-4c55-9d2e-5a8e0b1f6c77 Address:10.0.3.11:8300} {Suffrage:Voter ID:9a0d1b7e-2c33-4e8f-8f1a-77c0e2d4b9a1 Address:10.0.3.12:8300} {Suffrage:Voter ID:c2e7f5a0-1b9d-4a61-a3f4-0d8e6b2c9f13 Address:10.0.3.13:8300}]]')]),
            ('INFO', 'agent.server.raft', 'entering follower state', [('follower', '{}'), ('leader-address', ''), ('leader-id', '')]),
            ('INFO', 'agent.server.serf.wan', 'serf: EventMemberJoin: consul-1.dc1 10.0.3.11', []),
            ('INFO', 'agent.server.serf.lan', 'serf: EventMemberJoin: consul-1 10.0.3.11', []),
            ('INFO', 'agent.router', 'Initializing LAN area manager', []),
            ('WARN', 'agent', 'bootstrap_expect > 0: expecting 3 servers', []),
            ('INFO', 'agent', 'Started DNS server', [('address', '0.0.0.0:8600'), ('network', 'udp')]),
            ('INFO', 'agent', 'Started HTTP server', [('address', '[::]:8500'), ('network', 'tcp')]),
            ('INFO', 'agent', 'started state syncer', []),
            ('INFO', 'agent', 'Consul agent running!', []),
            ('INFO', 'agent', 'Retry join is supported for the following discovery methods', [('cluster', 'LAN'), ('discovery_methods', 'aliyun aws azure digitalocean gce k8s linode mdns os packet scaleway softlayer tencentcloud triton vsphere')]),
            ('INFO', 'agent', 'Joining cluster...', [('cluster', 'LAN')]),
            ('INFO', 'agent.server.serf.lan', 'serf: EventMemberJoin: consul-2 10.0.3.12', []),
            ('INFO', 'agent.server.serf.lan', 'serf: EventMemberJoin: consul-3 10.0.3.13', []),
            ('INFO', 'agent', '(LAN) joined', [('number_of_nodes', 3)]),
            ('INFO', 'agent', 'Join cluster completed. Synced with initial agents', [('cluster', 'LAN'), ('num_agents', 3)]),
            ('WARN', 'agent.server.raft', 'heartbeat timeout reached, starting election', [('last-leader-addr', ''), ('last-leader-id', '')]),
            ('INFO', 'agent.server.raft', 'entering candidate state', [('node', 'Node at 10.0.3.11:8300 [Candidate]'), ('term', 42)]),
            ('INFO', 'agent.server.raft', 'election won', [('term', 42), ('tally', 2)]),
            ('INFO', 'agent.server.raft', 'entering leader state', [('leader', 'Node at 10.0.3.11:8300 [Leader]')]),
            ('INFO', 'agent.server', 'cluster leadership acquired', []),
            ('INFO', 'agent.server', 'New leader elected', [('payload', 'consul-1')]),
            ('INFO', 'agent', 'Synced node info', [])]
    for i, (lvl, name, msg, kv) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 37 + rnd.randint(0, 30)), lvl, name, msg, kv)
    services = ['web', 'api', 'payments', 'redis', 'postgres']
    nodes = ['web-%02d' % i for i in range(1, 9)] + ['worker-%02d' % i for i in range(1, 5)]
    crit = set()
    for t in times(rnd, 330, 5, 3600):
        r = wchoice(rnd, [('sync', 25), ('check', 22), ('http', 18), ('rpc', 8), ('member', 8), ('snap', 3), ('dns', 6), ('acl', 4), ('debug', 6)])
        if r == 'sync':
            sv = rnd.choice(services)
            add(t, 'INFO', 'agent', 'Synced service', [('service', '%s-%d' % (sv, rnd.randint(1, 3)))])
        elif r == 'check':
            chk = 'service:%s-%d' % (rnd.choice(services), rnd.randint(1, 3))
            if chk in crit and rnd.random() < 0.5:
                crit.discard(chk)
                add(t, 'INFO', 'agent', 'Check status now passing', [('check', chk)])
            elif rnd.random() < 0.35:
                crit.add(chk)
                add(t, 'WARN', 'agent', 'Check is now critical', [('check', chk)])
            else:
                add(t, 'DEBUG', 'agent', 'Check status updated', [('check', chk), ('status', 'passing')])
        elif r == 'http':
            add(t, 'ERROR', 'agent.http', 'Request error', [('method', 'GET'), ('url', '/v1/kv/config/%s?index=%d' % (rnd.choice(services), rnd.randint(1000, 99999))),
                                                            ('from', '10.0.5.%d:%d' % (rnd.randint(2, 99), rnd.randint(30000, 60000))), ('error', 'Permission denied: token with AccessorID \'%s\' lacks permission \'key:read\' on "config/%s"' % (uid(rnd), rnd.choice(services)))])
        elif r == 'rpc':
            add(t, 'WARN', 'agent.server.rpc', 'RPC request for DC is currently failing as no path was found', [('datacenter', 'dc2'), ('method', 'Catalog.ListServices')])
        elif r == 'member':
            nd = rnd.choice(nodes)
            ip = '10.0.5.%d' % (nodes.index(nd) + 20)
            ev = wchoice(rnd, [('EventMemberJoin', 40), ('EventMemberFailed', 25), ('EventMemberLeave', 15), ('EventMemberUpdate', 20)])
            if ev == 'EventMemberFailed':
                add(t - timedelta(milliseconds=rnd.randint(500, 3000)), 'INFO', 'agent.server.memberlist.lan', 'memberlist: Suspect %s has failed, no acks received' % nd)
            add(t, 'INFO', 'agent.server.serf.lan', 'serf: %s: %s %s' % (ev, nd, ip))
            if ev in ('EventMemberFailed', 'EventMemberLeave'):
                add(t + timedelta(milliseconds=3), 'INFO', 'agent.server', 'member failed, marking health critical' if ev == 'EventMemberFailed' else 'deregistering member', [('member', nd), ('partition', 'default')] if ev == 'EventMemberFailed' else [('member', nd), ('partition', 'default'), ('reason', 'left')])
        elif r == 'snap':
            add(t, 'INFO', 'agent.server.raft', 'starting snapshot up to', [('index', rnd.randint(800000, 900000))])
            add(t + timedelta(milliseconds=rnd.randint(30, 200)), 'INFO', 'agent.server.raft', 'snapshot complete up to', [('index', rnd.randint(800000, 900000))])
            add(t + timedelta(milliseconds=250), 'INFO', 'agent.server.raft', 'compacting logs', [('from', rnd.randint(700000, 790000)), ('to', rnd.randint(790000, 800000))])
        elif r == 'dns':
            add(t, 'WARN', 'agent.dns', 'QName invalid', [('qname', '%s.service.consul.local.' % rnd.choice(services))])
        elif r == 'acl':
            add(t, 'WARN', 'agent', 'Coordinate update blocked by ACLs', [('accessorID', 'anonymous')])
        else:
            add(t, 'DEBUG', 'agent.server.cert-manager', 'got root certificates', [('count', 1)])
    add(at(2211.8), 'ERROR', 'agent.server.autopilot', 'Failed to reconcile current state with the desired state', [],
        ('error', ['failed to remove stale server 10.0.3.14:8300:', '  raft: leadership lost while committing log', 'will retry in 10s']))
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('@level', 'text', None, 'level')
    s.field('@module', 'text', None, 'logger')
    s.field('@message', 'text', None, 'message')
    s.field('check', 'text')
    s.field('error', 'text', None, 'exception')
    s.field('member', 'text', None, 'host')
    s.fact('events at level WARN', 'count', flt=F('@level', '==', 'WARN'))
    s.fact('events at level ERROR', 'count', flt=F('@level', '==', 'ERROR'))
    s.fact("'Check is now critical' events", 'count', flt=F('@message', '==', 'Check is now critical'))
    s.fact("distinct check over 'Check is now critical' events", 'distinct', 'check', F('@message', '==', 'Check is now critical'))
    s.fact("events whose message contains 'EventMemberFailed'", 'count', flt=F('@message', 'contains', 'EventMemberFailed'))
    s.fact('distinct module (logger name)', 'distinct', '@module')
    return s


# ======================================================================= 12 Grafana
def logfmt_val(v):
    v = str(v)
    if v == '' or any(c in v for c in ' "=\\\n'):
        return '"' + v.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n') + '"'
    return v


def gen_grafana():
    rnd = random.Random(212)
    s = Sample('grafana', 'Grafana 10.4 server log, default console/file format (logfmt, logger= first, t= RFC3339Nano)', 'grafana.log')
    tl = TL()

    def add(t, logger, lvl, msg, ctx=(), kv=(), rec=None):
        tt = t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06d%03dZ' % (t.microsecond, rnd.randint(0, 999))
        parts = [('logger', logger)] + list(ctx) + [('t', tt), ('level', lvl), ('msg', msg)] + list(kv)
        text = ' '.join('%s=%s' % (k, logfmt_val(v)) for k, v in parts)
        r = {k: v for k, v in parts}
        r.update(rec or {})
        tl.add(t, text, **r)

    t0 = at(0.5)
    boot = [('settings', 'info', 'Starting Grafana', [('version', '10.4.2'), ('commit', '701c851be7a930e04fbc6ebb1cd4254da80edd4c'), ('branch', 'v10.4.x'), ('compiled', '2031-04-12T14:21:48Z')]),
            ('settings', 'info', 'Config loaded from', [('file', '/usr/share/grafana/conf/defaults.ini')]),
            ('settings', 'info', 'Config overridden from Environment variable', [('var', 'GF_SECURITY_ADMIN_PASSWORD=*********')]),
            ('settings', 'info', 'Path Home', [('path', '/usr/share/grafana')]),
            ('settings', 'info', 'App mode production', []),
            ('featuremgmt', 'info', 'FeatureToggles', [('lokiQuerySplitting', 'true'), ('prometheusConfigOverhaulAuth', 'true'), ('dataplaneFrontendFallback', 'true')]),
            ('sqlstore', 'info', 'Connecting to DB', [('dbtype', 'postgres')]),
            ('migrator', 'info', 'Locking database', []),
            ('migrator', 'info', 'Starting DB migrations', []),
            ('migrator', 'info', 'migrations completed', [('performed', 0), ('skipped', 1497), ('duration', '1.061393ms')]),
            ('migrator', 'info', 'Unlocking database', []),
            ('secrets', 'info', 'Envelope encryption state', [('enabled', 'true'), ('current provider', 'secretKey.v1')]),
            ('plugin.store', 'info', 'Loading plugins...', []),
            ('local.finder', 'warn', 'Skipping finding plugins as directory does not exist', [('path', '/usr/share/grafana/plugins-bundled')]),
            ('plugin.store', 'info', 'Plugins loaded', [('count', 55), ('duration', '412.518932ms')]),
            ('query_data', 'info', 'Query Service initialization', []),
            ('ngalert.state.manager', 'info', 'Warming state cache for startup', []),
            ('ngalert.state.manager', 'info', 'State cache has been initialized', [('states', 42), ('duration', '9.100382ms')]),
            ('ngalert.scheduler', 'info', 'Starting scheduler', [('tickInterval', '10s'), ('maxAttempts', 1)]),
            ('ticker', 'info', 'starting', [('first_tick', '2031-06-03T02:00:10Z')]),
            ('http.server', 'info', 'HTTP Server Listen', [('address', '[::]:3000'), ('protocol', 'http'), ('subUrl', ''), ('socket', '')]),
            ('grafana.update.checker', 'info', 'Update check succeeded', [('duration', '81.77263ms')]),
            ('plugins.update.checker', 'info', 'Update check succeeded', [('duration', '102.3301ms')])]
    for i, (lg, lvl, msg, kv) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 21), lg, lvl, msg, kv=kv)
    users = [(1, 'admin'), (7, 'alice'), (12, 'bob'), (19, 'carol'), (23, 'svc-reporting')]
    clients = ['10.0.9.%d' % i for i in (14, 15, 22, 31, 40, 41, 77)]
    paths = [('GET', '/api/dashboards/uid/%s', '/api/dashboards/uid/:uid'), ('POST', '/api/ds/query', '/api/ds/query'), ('GET', '/api/search', '/api/search'),
             ('GET', '/api/annotations', '/api/annotations'), ('POST', '/api/frontend-metrics', '/api/frontend-metrics'), ('GET', '/api/live/ws', '/api/live/ws'),
             ('GET', '/api/datasources/proxy/uid/%s/api/v1/query_range', '/api/datasources/proxy/uid/:uid/*'), ('GET', '/avatar/%s', '/avatar/:hash')]
    for t in times(rnd, 380, 10, 3600):
        uidn, uname = rnd.choice(users)
        method, path, handler = wchoice(rnd, [(p, w) for p, w in zip(paths, [20, 40, 8, 8, 6, 3, 12, 3])])
        if '%s' in path:
            path = path % alnum(rnd, 9, string.ascii_lowercase + string.digits)
        st = wchoice(rnd, [(200, 80), (400, 5), (401, 2), (403, 3), (404, 3), (500, 4), (502, 2), (504, 1)])
        if handler == '/api/live/ws':
            st = 101 if rnd.random() < 0.5 else 400
        ns = int(lognorm(rnd, 40e6, 1.1)) + rnd.randint(0, 999)
        if st == 504:
            ns = 30 * 10 ** 9 + rnd.randint(0, 10 ** 8)
        ms = ns // 1000000
        lvl = 'error' if st >= 500 else 'info'
        ctx = [('userId', uidn), ('orgId', 1), ('uname', uname)]
        kv = [('method', method), ('path', path), ('status', st), ('remote_addr', rnd.choice(clients)), ('time_ms', ms), ('duration', go_dur(ns)),
              ('size', 0 if st in (101, 504) else rnd.randint(20, 90000)), ('referer', 'https://grafana.example.com/d/%s/service-overview?orgId=1' % alnum(rnd, 9, string.ascii_lowercase)),
              ('handler', handler), ('status_source', 'downstream' if st in (502, 504) else 'server')]
        if st >= 400:
            kv.insert(-2, ('error', {400: 'bad request data', 401: 'invalid API key', 403: 'Access denied', 404: 'Dashboard not found', 500: 'Failed to query data: unexpected end of JSON input',
                                     502: 'Bad Gateway', 504: 'context deadline exceeded'}[st]))
        add(t, 'context', lvl, 'Request Completed', ctx, kv, {'time_ms': ms, 'duration_ns': ns})
    for t in times(rnd, 60, 10, 3600):
        k = rnd.random()
        if k < 0.4:
            add(t, 'ngalert.scheduler', 'warn' if rnd.random() < 0.3 else 'info', 'Tick dropped because alert rule evaluation is too slow' if rnd.random() < 0.3 else 'Evaluation result contains either reserved labels or labels declared in the rules. Those labels from the result will be ignored',
                [('rule_uid', alnum(rnd, 14)), ('org_id', 1)], [('labels', 'alertname=HighErrorRate')])
        elif k < 0.6:
            add(t, 'cleanup', 'info', 'Completed cleanup jobs', kv=[('duration', go_dur(int(lognorm(rnd, 15e6, 0.4))))])
        elif k < 0.8:
            add(t, 'tsdb.prometheus', 'error', 'Failed to evaluate query', [('endpoint', 'queryData'), ('pluginId', 'prometheus'), ('dsName', 'Prometheus'), ('dsUID', 'P1809F7CD0C75ACF3'), ('uname', 'alice')],
                [('error', 'Post "http://prometheus:9090/api/v1/query_range": context canceled')])
        else:
            add(t, 'infra.usagestats', 'info', 'Usage stats are ready to report', kv=[])
    tl.flush(s)
    s.field('t', 'time', None, 'time')
    s.field('logger', 'text', None, 'logger')
    s.field('level', 'text', None, 'level')
    s.field('msg', 'text', None, 'message')
    s.field('userId', 'number')
    s.field('uname', 'text', None, 'user')
    s.field('method', 'text', None, 'method')
    s.field('path', 'text', None, 'path')
    s.field('status', 'number', None, 'status')
    s.field('remote_addr', 'ip', None, 'client')
    s.field('time_ms', 'number', 'ms', 'duration')
    s.field('duration', 'text')
    s.field('size', 'number', 'b', 'bytes')
    s.field('handler', 'text')
    s.field('error', 'text', None, 'exception')
    rc = F('msg', '==', 'Request Completed')
    s.fact("'Request Completed' events with status >= 500", 'count', flt={'all': [rc, F('status', '>=', 500)]})
    s.fact("max time_ms over 'Request Completed'", 'max', 'time_ms', rc)
    s.fact("p95 (nearest-rank) time_ms over 'Request Completed'", 'p95', 'time_ms', rc)
    s.fact("events with level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("'Request Completed' events with handler '/api/ds/query'", 'count', flt={'all': [rc, F('handler', '==', '/api/ds/query')]})
    s.fact("distinct uname over 'Request Completed'", 'distinct', 'uname', rc)
    return s


# ======================================================================= 13 Prometheus go-kit logfmt
def gen_prometheus():
    rnd = random.Random(213)
    s = Sample('prometheus_gokit', 'Prometheus 2.51 server log (go-kit logfmt: ts= caller= level= component= msg=)', 'prometheus.log')
    tl = TL()

    def add(t, caller, lvl, msg, comp=None, kv=(), rec=None):
        parts = [('ts', iso(t, 3)), ('caller', caller), ('level', lvl)]
        if comp:
            parts.append(('component', comp))
        parts += [('msg', msg)] + list(kv)
        text = ' '.join('%s=%s' % (k, logfmt_val(v)) for k, v in parts)
        r = dict(parts)
        r.update(rec or {})
        tl.add(t, text, **r)

    t0 = at(0.1)
    boot = [('main.go:617', 'info', 'No time or size retention was set so using the default time retention', None, [('duration', '15d')]),
            ('main.go:661', 'info', 'Starting Prometheus Server', None, [('mode', 'server'), ('version', '(version=2.51.2, branch=HEAD, revision=b4c0ab52c3e9b940ab803581ddae9b3d9a452337)')]),
            ('main.go:666', 'info', 'operational information', None, [('build_context', '(go=go1.22.2, platform=linux/amd64, user=root@b63f02a423d9, date=20240410-14:05:54, tags=netgo,builtinassets,stringlabels)'), ('host_details', '(Linux 6.1.0-21-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.90-1 (2024-05-03) x86_64 prom-0 (none))'), ('fd_limits', '(soft=1048576, hard=1048576)'), ('vm_limits', '(soft=unlimited, hard=unlimited)')]),
            ('web.go:565', 'info', 'Start listening for connections', 'web', [('address', '0.0.0.0:9090')]),
            ('main.go:1129', 'info', 'Starting TSDB ...', None, []),
            ('tls_config.go:313', 'info', 'Listening on', 'web', [('address', '[::]:9090')]),
            ('tls_config.go:316', 'info', 'TLS is disabled.', 'web', [('http2', 'false'), ('address', '[::]:9090')]),
            ('head.go:616', 'info', 'Replaying on-disk memory mappable chunks if any', 'tsdb', []),
            ('head.go:698', 'info', 'On-disk memory mappable chunks replay completed', 'tsdb', [('duration', '2.812ms')]),
            ('head.go:706', 'info', 'Replaying WAL, this may take a while', 'tsdb', [])]
    for i, (c, lvl, msg, comp, kv) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 5), c, lvl, msg, comp, kv)
    tw = t0 + timedelta(milliseconds=60)
    for seg in range(0, 41):
        add(tw + timedelta(milliseconds=seg * 170), 'head.go:778', 'info', 'WAL segment loaded', 'tsdb', [('segment', seg), ('maxSegment', 40)])
    tw += timedelta(seconds=7.2)
    for c, lvl, msg, comp, kv in [('head.go:815', 'info', 'WAL replay completed', 'tsdb', [('checkpoint_replay_duration', '512.401ms'), ('wal_replay_duration', '6.69s'), ('wbl_replay_duration', '220ns'), ('chunk_snapshot_load_duration', '0s'), ('mmap_chunk_replay_duration', '2.812ms'), ('total_replay_duration', '7.205s')]),
                                  ('main.go:1150', 'info', 'filesystem information', None, [('fs_type', 'EXT4_SUPER_MAGIC')]),
                                  ('main.go:1153', 'info', 'TSDB started', None, []),
                                  ('main.go:1335', 'info', 'Loading configuration file', None, [('filename', '/etc/prometheus/prometheus.yml')]),
                                  ('main.go:1372', 'info', 'Completed loading of configuration file', None, [('filename', '/etc/prometheus/prometheus.yml'), ('totalDuration', '4.391ms'), ('db_storage', '1.1µs'), ('remote_storage', '2.3µs'), ('web_handler', '420ns'), ('query_engine', '910ns'), ('scrape', '1.2ms'), ('scrape_sd', '301µs'), ('notify', '32µs'), ('notify_sd', '18µs'), ('rules', '2.1ms'), ('tracing', '9.1µs')]),
                                  ('main.go:1114', 'info', 'Server is ready to receive web requests.', None, []),
                                  ('manager.go:163', 'info', 'Starting rule manager...', 'rule manager', [])]:
        tw += timedelta(milliseconds=3)
        add(tw, c, lvl, msg, comp, kv)
    targets = ['http://10.0.6.%d:9100/metrics' % i for i in range(10, 30)]
    for t in times(rnd, 300, 20, 3600):
        k = wchoice(rnd, [('head', 10), ('compact', 4), ('notify', 8), ('rule', 10), ('scrape_warn', 12), ('sd', 6), ('remote', 10), ('query', 4)])
        if k == 'head':
            d = round(lognorm(rnd, 25, 0.5), 6)
            add(t, 'head.go:1212', 'info', 'Head GC completed', 'tsdb', [('caller', 'truncateMemory'), ('duration', '%.6fms' % d)], {'duration_ms': d})
            if rnd.random() < 0.5:
                d2 = lognorm(rnd, 900, 0.4)
                add(t + timedelta(milliseconds=d2), 'checkpoint.go:101', 'info', 'Creating checkpoint', 'tsdb', [('from_segment', 40), ('to_segment', 42), ('mint', 1812340800000)])
                add(t + timedelta(milliseconds=d2 * 2), 'head.go:1180', 'info', 'WAL checkpoint complete', 'tsdb', [('first', 40), ('last', 42), ('duration', '%.6fms' % d2)], {'duration_ms': d2})
        elif k == 'compact':
            d = lognorm(rnd, 1800, 0.3)
            add(t, 'compact.go:576', 'info', 'write block', 'tsdb', [('mint', 1812340800000), ('maxt', 1812348000000), ('ulid', '01J' + alnum(rnd, 23, string.ascii_uppercase + string.digits)), ('duration', '%.3fs' % (d / 1000)), ('ooo', 'false')], {'duration_ms': d})
        elif k == 'notify':
            add(t, 'notifier.go:544', 'error', 'Error sending alert', 'notifier', [('alertmanager', 'http://alertmanager:9093/api/v2/alerts'), ('count', rnd.randint(1, 6)), ('err', 'Post "http://alertmanager:9093/api/v2/alerts": dial tcp 10.0.6.5:9093: connect: connection refused')])
        elif k == 'rule':
            add(t, 'manager.go:196', 'warn', 'Evaluating rule failed', 'rule manager', [('file', '/etc/prometheus/rules/app.yml'), ('group', 'app.rules'), ('name', 'HighLatency'), ('index', 3),
                                                                                          ('rule', 'alert: HighLatency\nexpr: histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket[5m])))\n  > 1\nfor: 10m\n'), ('err', 'query timed out in expression evaluation')])
        elif k == 'scrape_warn':
            add(t, 'scrape.go:1738', 'warn', 'Error on ingesting samples that are too old or are too far into the future', 'scrape manager', [('scrape_pool', 'node'), ('target', rnd.choice(targets)), ('num_dropped', rnd.randint(1, 40))])
        elif k == 'sd':
            add(t, 'refresh.go:90', 'error', 'Unable to refresh target groups', 'discovery manager scrape', [('discovery', 'http'), ('config', 'services'), ('err', 'Get "http://sd.internal/targets": context deadline exceeded')])
        elif k == 'remote':
            add(t, 'queue_manager.go:1666', 'warn', 'Failed to send batch, retrying', 'remote', [('remote_name', '5a7c1b'), ('url', 'https://mimir.example.com/api/v1/push'), ('err', 'server returned HTTP status 429 Too Many Requests: the request has been rejected because the tenant exceeded the ingestion rate limit')])
        else:
            add(t, 'engine.go:702', 'warn', 'query was rejected because it exceeded the max samples limit', 'query engine', [('query', 'sum(rate(http_requests_total[30d]))')])
    tl.flush(s)
    s.field('ts', 'time', None, 'time')
    s.field('caller', 'text', None, 'logger')
    s.field('level', 'text', None, 'level')
    s.field('component', 'text')
    s.field('msg', 'text', None, 'message')
    s.field('err', 'text', None, 'exception')
    s.field('target', 'text', None, 'host')
    s.field('duration', 'text')
    s.fact("events with level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("events with level 'warn'", 'count', flt=F('level', '==', 'warn'))
    s.fact("events with component 'tsdb'", 'count', flt=F('component', '==', 'tsdb'))
    s.fact("'Head GC completed' events", 'count', flt=F('msg', '==', 'Head GC completed'))
    s.fact("max duration in ms over 'Head GC completed' events (duration=N.NNNNNNms)", 'max', flt=F('msg', '==', 'Head GC completed'), key=lambda e: e['duration_ms'])
    s.fact('distinct target over scrape warnings', 'distinct', 'target', F('component', '==', 'scrape manager'))
    return s


# ======================================================================= 14 Postfix via syslog
def gen_postfix():
    rnd = random.Random(214)
    s = Sample('postfix', 'Postfix 3.7 mail log via rsyslog (/var/log/mail.log, traditional timestamps): smtpd/cleanup/qmgr/smtp/local/bounce', 'mail.log')
    host = 'mx1'
    tl = TL()
    pids = {}

    def pid(proc):
        if proc not in pids or rnd.random() < 0.05:
            pids[proc] = rnd.randint(2000, 60000)
        return pids[proc]

    def add(t, proc, msg, p=None, **rec):
        p = p or pid(proc)
        text = '%s %s postfix/%s[%d]: %s' % (syslog_ts(t), host, proc, p, msg)
        tl.add(t, text, timestamp=syslog_ts(t), hostname=host, process='postfix/' + proc, pid=p, message=msg, **rec)

    t0 = at(0.3)
    tl.add(t0, '%s %s postfix/postfix-script[1102]: starting the Postfix mail system' % (syslog_ts(t0), host), timestamp=syslog_ts(t0), hostname=host, process='postfix/postfix-script', pid=1102, message='starting the Postfix mail system')
    add(t0 + timedelta(milliseconds=40), 'master', 'daemon started -- version 3.7.11, configuration /etc/postfix', p=1104)
    qmgr = 1110
    senders = ['alerts@monitoring.example.com', 'noreply@shop.example.com', 'billing@shop.example.com', 'jane.doe@partner.example.org', 'newsletter@shop.example.com']
    rcpt_domains = ['gmail.com', 'outlook.com', 'yahoo.com', 'example.net', 'partner.example.org', 'corp.example.com']
    mx = {'gmail.com': ('gmail-smtp-in.l.google.com', '142.250.27.26'), 'outlook.com': ('outlook-com.olc.protection.outlook.com', '52.101.68.3'),
          'yahoo.com': ('mta7.am0.yahoodns.net', '67.195.204.77'), 'example.net': ('mx.example.net', '198.51.100.25'), 'partner.example.org': ('mail.partner.example.org', '203.0.113.40'),
          'corp.example.com': ('mx.corp.example.com', '192.0.2.18')}
    clients = [('app01.internal', '10.0.2.31'), ('app02.internal', '10.0.2.32'), ('unknown', '45.155.%d.%d'), ('mail-wr1-f54.google.com', '209.85.221.54')]
    used_qids = set()

    def qid():
        while True:
            q = '4' + alnum(rnd, 11, 'BCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789')
            if q not in used_qids:
                used_qids.add(q)
                return q

    for t in times(rnd, 150, 2, 3500):
        cname, cip = rnd.choice(clients)
        if '%d' in cip:
            cip = cip % (rnd.randint(1, 254), rnd.randint(1, 254))
        sp = rnd.randint(2000, 60000)
        add(t, 'smtpd', 'connect from %s[%s]' % (cname, cip), p=sp)
        if cname == 'unknown' and rnd.random() < 0.6:
            rc = '%s@%s' % (rnd.choice(['info', 'admin', 'sales', 'test']), 'shop.example.com')
            add(t + timedelta(milliseconds=400), 'smtpd', 'NOQUEUE: reject: RCPT from unknown[%s]: 554 5.7.1 Service unavailable; Client host [%s] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/%s; from=<%s> to=<%s> proto=ESMTP helo=<%s>'
                % (cip, cip, cip, '%s@%s' % (alnum(rnd, 6, string.ascii_lowercase), rnd.choice(['mail.ru', 'qq.com', 'example.top'])), rc, rnd.choice(['User', 'WIN-' + alnum(rnd, 8, string.ascii_uppercase)])), p=sp, noqueue=True)
            add(t + timedelta(milliseconds=600), 'smtpd', 'disconnect from unknown[%s] ehlo=1 mail=1 rcpt=0/1 quit=1 commands=3/4' % cip, p=sp)
            continue
        q = qid()
        add(t + timedelta(milliseconds=60), 'smtpd', '%s: client=%s[%s]' % (q, cname, cip), p=sp, queue_id=q)
        add(t + timedelta(milliseconds=90), 'cleanup', '%s: message-id=<%s@%s>' % (q, hexs(rnd, 16), cname if cname != 'unknown' else 'localhost'), queue_id=q)
        size = int(lognorm(rnd, 9000, 1.0))
        nr = wchoice(rnd, [(1, 85), (2, 10), (3, 5)])
        frm = rnd.choice(senders)
        add(t + timedelta(milliseconds=100), 'qmgr', '%s: from=<%s>, size=%d, nrcpt=%d (queue active)' % (q, frm, size, nr), p=qmgr, queue_id=q, **{'from': frm, 'size': size})
        add(t + timedelta(milliseconds=120), 'smtpd', 'disconnect from %s[%s] ehlo=2 starttls=1 mail=1 rcpt=%d data=1 quit=1 commands=%d' % (cname, cip, nr, 6 + nr), p=sp)
        removed = True
        bounced = False
        for _ in range(nr):
            dom = rnd.choice(rcpt_domains)
            to = '%s.%s@%s' % (rnd.choice(['anna', 'ben', 'chris', 'dana', 'eli', 'fay', 'gus']), rnd.choice(['smith', 'lee', 'kim', 'ng', 'roe']), dom)
            a, b, c = round(rnd.uniform(0.02, 0.15), 2), round(rnd.uniform(0, 0.02), 2), round(rnd.uniform(0.05, 0.6), 2)
            st = wchoice(rnd, [('sent', 86), ('deferred', 9), ('bounced', 5)])
            rname, rip = mx[dom]
            if st == 'sent':
                d = round(rnd.uniform(0.05, 1.5), 2)
                delays = '%s/%s/%s/%s' % (a, b, c, round(d, 2))
                delay = round(a + b + c + d, 2)
                resp = '250 2.0.0 OK  %d %s - gsmtp' % (epoch_us(t) // 10 ** 6, alnum(rnd, 20)) if dom == 'gmail.com' else '250 2.0.0 Ok: queued as %s' % alnum(rnd, 10, string.ascii_uppercase + string.digits)
                dsn = '2.0.0'
            elif st == 'deferred':
                delays = '%s/%s/30/0' % (a, b)
                delay = round(a + b + 30, 2)
                resp = 'connect to %s[%s]:25: Connection timed out' % (rname, rip)
                dsn = '4.4.1'
                removed = False
            else:
                d = round(rnd.uniform(0.05, 0.5), 2)
                delays = '%s/%s/%s/%s' % (a, b, c, d)
                delay = round(a + b + c + d, 2)
                resp = 'host %s[%s] said: 550 5.1.1 <%s>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command)' % (rname, rip, to)
                dsn = '5.1.1'
                bounced = True
            te = t + timedelta(seconds=delay)
            add(te, 'smtp', '%s: to=<%s>, relay=%s, delay=%s, delays=%s, dsn=%s, status=%s (%s)' % (
                q, to, 'none' if st == 'deferred' else '%s[%s]:25' % (rname, rip), ('%g' % delay), delays, dsn, st, resp),
                queue_id=q, to=to, delay=delay, dsn=dsn, status=st)
        if bounced:
            bq = qid()
            add(te + timedelta(milliseconds=5), 'cleanup', '%s: message-id=<%s@mx1.shop.example.com>' % (bq, hexs(rnd, 12)), queue_id=bq)
            add(te + timedelta(milliseconds=8), 'bounce', '%s: sender non-delivery notification: %s' % (q, bq), queue_id=q)
        if removed:
            add(te + timedelta(milliseconds=10), 'qmgr', '%s: removed' % q, p=qmgr, queue_id=q)
    for t in times(rnd, 6, 60, 3500):
        add(t, 'smtpd', 'warning: hostname %s.static.example-isp.net does not resolve to address 45.155.%d.%d: Name or service not known' % (alnum(rnd, 6, string.digits), rnd.randint(1, 254), rnd.randint(1, 254)))
    add(at(1801.0), 'anvil', 'statistics: max connection rate 4/60s for (smtp:45.155.12.9) at %s' % syslog_ts(at(1402.0)), p=1120)
    add(at(1801.0), 'anvil', 'statistics: max connection count 2 for (smtp:10.0.2.31) at %s' % syslog_ts(at(1555.0)), p=1120)
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('hostname', 'text', None, 'host')
    s.field('process', 'text', None, 'logger')
    s.field('pid', 'number', None, 'pid')
    s.field('queue_id', 'text')
    s.field('from', 'text', None, 'user')
    s.field('to', 'text')
    s.field('size', 'number', 'b', 'bytes')
    s.field('delay', 'number', 's', 'duration')
    s.field('dsn', 'text')
    s.field('status', 'text', None, 'status')
    s.field('message', 'text', None, 'message')
    s.fact("delivery attempts with status=sent", 'count', flt=F('status', '==', 'sent'))
    s.fact("delivery attempts with status=deferred", 'count', flt=F('status', '==', 'deferred'))
    s.fact("delivery attempts with status=bounced", 'count', flt=F('status', '==', 'bounced'))
    s.fact('max delay (s) over delivery attempts', 'max', 'delay')
    s.fact("NOQUEUE reject lines", 'count', flt=F('message', 'startswith', 'NOQUEUE: reject'))
    s.fact('distinct queue_id', 'distinct', 'queue_id')
    return s


# ======================================================================= 15 auth.log: sudo + cron
def gen_authlog():
    rnd = random.Random(215)
    s = Sample('authlog_sudo_cron', 'Debian 12 /var/log/auth.log (rsyslog RFC3339 high-precision timestamps): sudo, CRON pam sessions, systemd-logind, su', 'auth.log')
    host = 'app-db-02'
    tl = TL()

    def add(t, prog, p, msg, **rec):
        ts = rfc3339_us(t)
        tag = '%s[%d]' % (prog, p) if p else prog
        tl.add(t, '%s %s %s: %s' % (ts, host, tag, msg), timestamp=ts, hostname=host, program=prog, pid=p, message=msg, **rec)

    users = [('alice', 1000), ('bob', 1001), ('deploy', 1002), ('carol', 1003)]
    cmds = ['/usr/bin/systemctl restart nginx', '/usr/bin/apt update', '/usr/bin/apt upgrade -y', '/usr/bin/journalctl -u postgresql --since today',
            '/usr/bin/systemctl status postgresql', '/usr/bin/tail -n 200 /var/log/postgresql/postgresql-15-main.log', '/bin/bash', '/usr/bin/docker ps',
            '/usr/bin/vim /etc/nginx/sites-available/default', '/usr/sbin/ufw status', '/usr/bin/systemctl reload nginx', '/usr/bin/cat /etc/shadow']
    sess = 310
    # cron: every 5 minutes root job, hourly, and a per-minute monitoring job for user 'monitor'
    for k in range(60):
        t = at(k * 60 + 0.01 + rnd.uniform(0, 0.02))
        jobs = [('monitor', 998)]
        if k % 5 == 0:
            jobs.append(('root', 0))
        if k == 17:
            jobs.append(('postgres', 105))
        for u, uidn in jobs:
            p = rnd.randint(100000, 400000)
            add(t, 'CRON', p, 'pam_unix(cron:session): session opened for user %s(uid=%d) by (uid=0)' % (u, uidn), cron_user=u)
            add(t + timedelta(seconds=rnd.uniform(0.05, 3) if u != 'postgres' else 41.2), 'CRON', p, 'pam_unix(cron:session): session closed for user %s' % u, cron_user=u)
    for t in times(rnd, 18, 100, 3500):
        u, uidn = rnd.choice(users[:3])
        sess += 1
        add(t, 'systemd-logind', 612, 'New session %d of user %s.' % (sess, u))
        add(t + timedelta(seconds=rnd.uniform(0.1, 0.4)), 'systemd', rnd.randint(10000, 90000), 'pam_unix(systemd-user:session): session opened for user %s(uid=%d) by %s(uid=0)' % (u, uidn, u))
        end = t + timedelta(seconds=rnd.uniform(60, 900))
        tty = 'pts/%d' % rnd.randint(0, 3)
        for tc in sorted(t + timedelta(seconds=rnd.uniform(5, (end - t).total_seconds() - 1)) for _ in range(rnd.randint(2, 8))):
            cmd = rnd.choice(cmds)
            pwd = rnd.choice(['/home/%s' % u, '/etc/nginx', '/var/log', '/srv/app'])
            target = 'root' if rnd.random() < 0.9 else 'postgres'
            p = rnd.randint(10000, 90000)
            if rnd.random() < 0.08:
                add(tc, 'sudo', None, 'pam_unix(sudo:auth): authentication failure; logname=%s uid=%d euid=0 tty=/dev/%s ruser=%s rhost=  user=%s' % (u, uidn, tty, u, u), sudo_user=u)
                n = rnd.choice([1, 3])
                msg = '%*s : %s ; TTY=%s ; PWD=%s ; USER=%s ; COMMAND=%s' % (8, u, '%d incorrect password attempt%s' % (n, 's' if n > 1 else ''), tty, pwd, target, cmd)
                add(tc + timedelta(seconds=8), 'sudo', None, msg, sudo_user=u, USER=target, COMMAND=cmd, TTY=tty, PWD=pwd, denied=True)
                continue
            msg = '%*s : TTY=%s ; PWD=%s ; USER=%s ; COMMAND=%s' % (8, u, tty, pwd, target, cmd)
            add(tc, 'sudo', None, msg, sudo_user=u, USER=target, COMMAND=cmd, TTY=tty, PWD=pwd)
            add(tc + timedelta(milliseconds=3), 'sudo', None, 'pam_unix(sudo:session): session opened for user %s(uid=%d) by %s(uid=%d)' % (target, 0 if target == 'root' else 105, u, uidn), sudo_user=u)
            add(tc + timedelta(seconds=rnd.uniform(0.1, 30)), 'sudo', None, 'pam_unix(sudo:session): session closed for user %s' % target, sudo_user=u)
        add(end, 'systemd-logind', 612, 'Session %d logged out. Waiting for processes to exit.' % sess)
        add(end + timedelta(milliseconds=30), 'systemd-logind', 612, 'Removed session %d.' % sess)
    for t in times(rnd, 3, 500, 3300):
        msg = '   carol : user NOT in sudoers ; TTY=pts/2 ; PWD=/home/carol ; USER=root ; COMMAND=/usr/bin/cat /etc/shadow'
        add(t, 'sudo', None, msg, sudo_user='carol', USER='root', COMMAND='/usr/bin/cat /etc/shadow', TTY='pts/2', PWD='/home/carol', denied=True)
    t = at(2222.5)
    add(t, 'su', 77123, '(to postgres) alice on pts/1')
    add(t + timedelta(milliseconds=2), 'su', 77123, 'pam_unix(su-l:session): session opened for user postgres(uid=105) by alice(uid=1000)')
    add(t + timedelta(seconds=300), 'su', 77123, 'pam_unix(su-l:session): session closed for user postgres')
    add(at(3010.0), 'polkitd', 702, 'Registered Authentication Agent for unix-process:81234:99211 (system bus name :1.311 [/usr/bin/pkttyagent --notify-fd 5 --fallback], object path /org/freedesktop/PolicyKit1/AuthenticationAgent, locale en_US.UTF-8)')
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('hostname', 'text', None, 'host')
    s.field('program', 'text', None, 'logger')
    s.field('pid', 'number', None, 'pid')
    s.field('message', 'text', None, 'message')
    s.field('sudo_user', 'text', None, 'user')
    s.field('USER', 'text')
    s.field('COMMAND', 'text')
    s.field('TTY', 'text')
    s.field('PWD', 'text', None, 'path')
    cmdf = F('COMMAND', 'exists')
    s.fact('sudo command lines (with COMMAND=), allowed or denied', 'count', flt=cmdf)
    s.fact("sudo lines reporting 'incorrect password attempt'", 'count', flt=F('message', 'contains', 'incorrect password attempt'))
    s.fact('distinct invoking users over sudo command lines', 'distinct', 'sudo_user', cmdf)
    s.fact("CRON 'session opened' events", 'count', flt={'all': [F('program', '==', 'CRON'), F('message', 'contains', 'session opened')]})
    s.fact("sudo command lines whose COMMAND contains 'systemctl'", 'count', flt=F('COMMAND', 'contains', 'systemctl'))
    s.fact("sudo lines with 'user NOT in sudoers'", 'count', flt=F('message', 'contains', 'user NOT in sudoers'))
    return s


# ======================================================================= 16 CloudTrail
def gen_cloudtrail():
    rnd = random.Random(216)
    s = Sample('cloudtrail', 'AWS CloudTrail records, one JSON record per line (jq -c \'.Records[]\' over delivered files)', 'cloudtrail.ndjson')
    acct = '123456789012'
    people = [('alice', 'AIDA' + alnum(rnd, 17, string.ascii_uppercase + string.digits)), ('bob', 'AIDA' + alnum(rnd, 17, string.ascii_uppercase + string.digits)),
              ('ci-deployer', 'AIDA' + alnum(rnd, 17, string.ascii_uppercase + string.digits))]
    roles = [('OrganizationAccountAccessRole', 'alice'), ('eks-node-role', 'i-0a1b2c3d4e5f60718'), ('lambda-orders-exec', 'orders-processor'), ('AWSReservedSSO_AdminAccess_3f1c9e', 'carol@example.com')]
    ext_ips = public_ips(rnd, 14)
    recs = []
    calls = [('s3.amazonaws.com', 'GetObject', True, 18), ('s3.amazonaws.com', 'PutObject', False, 8), ('s3.amazonaws.com', 'ListBuckets', True, 3),
             ('ec2.amazonaws.com', 'DescribeInstances', True, 16), ('ec2.amazonaws.com', 'RunInstances', False, 2), ('ec2.amazonaws.com', 'TerminateInstances', False, 1),
             ('ec2.amazonaws.com', 'AuthorizeSecurityGroupIngress', False, 1), ('sts.amazonaws.com', 'AssumeRole', True, 12), ('sts.amazonaws.com', 'GetCallerIdentity', True, 6),
             ('iam.amazonaws.com', 'ListRoles', True, 3), ('iam.amazonaws.com', 'CreateAccessKey', False, 1), ('iam.amazonaws.com', 'AttachRolePolicy', False, 1),
             ('kms.amazonaws.com', 'Decrypt', True, 12), ('logs.amazonaws.com', 'CreateLogStream', False, 4), ('lambda.amazonaws.com', 'Invoke', False, 3),
             ('secretsmanager.amazonaws.com', 'GetSecretValue', True, 5), ('rds.amazonaws.com', 'DescribeDBInstances', True, 3)]
    for t in times(rnd, 470, 0, 3600):
        src, name, ro, _ = wchoice(rnd, [(c, c[3]) for c in calls])
        kind = wchoice(rnd, [('IAMUser', 30), ('AssumedRole', 60), ('AWSService', 8), ('Root', 2)])
        if kind == 'IAMUser':
            u, pid = rnd.choice(people)
            ident = {'type': 'IAMUser', 'principalId': pid, 'arn': 'arn:aws:iam::%s:user/%s' % (acct, u), 'accountId': acct, 'accessKeyId': 'AKIA' + alnum(rnd, 16, string.ascii_uppercase + string.digits), 'userName': u}
            ip = rnd.choice(ext_ips[:6])
            agent = rnd.choice(['aws-cli/2.15.40 Python/3.11.8 Linux/6.5.0-1017-aws exe/x86_64.ubuntu.22 prompt/off command/%s.%s' % (src.split('.')[0], name.lower()),
                                'Boto3/1.34.93 md/Botocore#1.34.93 ua/2.0 os/linux#6.1.0 md/arch#x86_64 lang/python#3.12.3 md/pyimpl#CPython cfg/retry-mode#legacy Botocore/1.34.93',
                                'APN/1.0 HashiCorp/1.0 Terraform/1.8.2 (+https://www.terraform.io) terraform-provider-aws/5.47.0 (+https://registry.terraform.io/providers/hashicorp/aws) aws-sdk-go-v2/1.26.1 os/linux lang/go#1.22.1 md/GOOS#linux md/GOARCH#amd64 api/ec2#1.158.0'])
        elif kind == 'AssumedRole':
            r, sessn = rnd.choice(roles)
            rid = 'AROA' + alnum(rnd, 17, string.ascii_uppercase + string.digits)
            ident = {'type': 'AssumedRole', 'principalId': '%s:%s' % (rid, sessn), 'arn': 'arn:aws:sts::%s:assumed-role/%s/%s' % (acct, r, sessn), 'accountId': acct,
                     'accessKeyId': 'ASIA' + alnum(rnd, 16, string.ascii_uppercase + string.digits),
                     'sessionContext': {'sessionIssuer': {'type': 'Role', 'principalId': rid, 'arn': 'arn:aws:iam::%s:role/%s' % (acct, r), 'accountId': acct, 'userName': r},
                                        'attributes': {'creationDate': iso(t - timedelta(minutes=rnd.randint(1, 50)), 0), 'mfaAuthenticated': 'false'}}}
            ip = '10.20.%d.%d' % (rnd.randint(0, 3), rnd.randint(2, 250)) if r in ('eks-node-role',) else rnd.choice(ext_ips)
            agent = 'aws-sdk-go-v2/1.26.1 os/linux lang/go#1.22.1 md/GOOS#linux md/GOARCH#amd64' if r == 'eks-node-role' else 'aws-cli/2.15.40 Python/3.11.8 Darwin/23.4.0 exe/x86_64 prompt/off'
        elif kind == 'AWSService':
            ident = {'type': 'AWSService', 'invokedBy': 'cloudtrail.amazonaws.com'}
            ip, agent = 'cloudtrail.amazonaws.com', 'cloudtrail.amazonaws.com'
            src, name, ro = 's3.amazonaws.com', 'PutObject', False
        else:
            ident = {'type': 'Root', 'principalId': acct, 'arn': 'arn:aws:iam::%s:root' % acct, 'accountId': acct, 'accessKeyId': 'ASIA' + alnum(rnd, 16, string.ascii_uppercase + string.digits)}
            ip = ext_ips[-1]
            agent = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
        rec = {'eventVersion': '1.09', 'userIdentity': ident, 'eventTime': iso(t, 0), 'eventSource': src, 'eventName': name,
               'awsRegion': wchoice(rnd, [('us-east-1', 80), ('eu-west-1', 20)]), 'sourceIPAddress': ip, 'userAgent': agent}
        err = None
        if kind != 'AWSService' and rnd.random() < 0.09:
            err = wchoice(rnd, [('AccessDenied', 60), ('Client.UnauthorizedOperation', 20), ('ThrottlingException', 15), ('NoSuchKey', 5)])
            if src == 'ec2.amazonaws.com' and err == 'AccessDenied':
                err = 'Client.UnauthorizedOperation'
            rec['errorCode'] = err
            rec['errorMessage'] = {'AccessDenied': 'User: %s is not authorized to perform: %s:%s because no identity-based policy allows the %s:%s action' % (ident.get('arn', ''), src.split('.')[0], name, src.split('.')[0], name),
                                   'Client.UnauthorizedOperation': 'You are not authorized to perform this operation. User: %s is not authorized to perform: ec2:%s' % (ident.get('arn', ''), name),
                                   'ThrottlingException': 'Rate exceeded', 'NoSuchKey': 'The specified key does not exist.'}[err]
        if src == 's3.amazonaws.com' and name in ('GetObject', 'PutObject'):
            b = rnd.choice(['acme-prod-assets', 'acme-terraform-state', 'aws-cloudtrail-logs-%s-3f1c' % acct])
            rec['requestParameters'] = {'bucketName': b, 'Host': '%s.s3.amazonaws.com' % b, 'key': 'AWSLogs/%s/CloudTrail/us-east-1/2031/06/03/%s' % (acct, hexs(rnd, 12)) if 'cloudtrail' in b else 'prod/%s.json' % hexs(rnd, 8)}
            rec['additionalEventData'] = {'SignatureVersion': 'SigV4', 'CipherSuite': 'TLS_AES_128_GCM_SHA256', 'bytesTransferredIn': 0 if name == 'GetObject' else rnd.randint(100, 900000),
                                          'AuthenticationMethod': 'AuthHeader', 'x-amz-id-2': alnum(rnd, 76), 'bytesTransferredOut': rnd.randint(100, 900000) if name == 'GetObject' else 0}
            rec['resources'] = [{'type': 'AWS::S3::Object', 'ARN': 'arn:aws:s3:::%s/%s' % (b, rec['requestParameters']['key'])}, {'accountId': acct, 'type': 'AWS::S3::Bucket', 'ARN': 'arn:aws:s3:::%s' % b}]
            rec['eventCategory'] = 'Data'
            rec['managementEvent'] = False
        elif name == 'DescribeInstances':
            rec['requestParameters'] = {'instancesSet': {}, 'filterSet': {'items': [{'name': 'tag:Environment', 'valueSet': {'items': [{'value': 'prod'}]}}]}}
        elif name == 'AssumeRole':
            rec['requestParameters'] = {'roleArn': 'arn:aws:iam::%s:role/%s' % (acct, rnd.choice(roles)[0]), 'roleSessionName': 'session-%s' % hexs(rnd, 8), 'durationSeconds': 3600}
        else:
            rec['requestParameters'] = None
        rec['responseElements'] = None
        rec['requestID'] = uid(rnd) if src != 's3.amazonaws.com' else alnum(rnd, 16, string.ascii_uppercase + string.digits)
        rec['eventID'] = uid(rnd)
        rec['readOnly'] = ro
        rec['eventType'] = 'AwsApiCall'
        rec.setdefault('managementEvent', True)
        rec['recipientAccountId'] = acct
        rec.setdefault('eventCategory', 'Management')
        if kind != 'AWSService':
            rec['tlsDetails'] = {'tlsVersion': 'TLSv1.3', 'cipherSuite': 'TLS_AES_128_GCM_SHA256', 'clientProvidedHostHeader': '%s.%s.amazonaws.com' % (src.split('.')[0], rec['awsRegion'])}
        recs.append((t, rec))
    for t in times(rnd, 9, 100, 3500):
        ok = rnd.random() < 0.6
        u = rnd.choice(['alice', 'bob'])
        rec = {'eventVersion': '1.09', 'userIdentity': {'type': 'IAMUser', 'principalId': dict(people)[u], 'arn': 'arn:aws:iam::%s:user/%s' % (acct, u), 'accountId': acct, 'userName': u} if ok else {'type': 'IAMUser', 'accountId': acct, 'accessKeyId': '', 'userName': 'HIDDEN_DUE_TO_SECURITY_REASONS'},
               'eventTime': iso(t, 0), 'eventSource': 'signin.amazonaws.com', 'eventName': 'ConsoleLogin', 'awsRegion': 'us-east-1', 'sourceIPAddress': rnd.choice(ext_ips[:6]) if ok else ext_ips[-2],
               'userAgent': UAS[0][0], 'requestParameters': None, 'responseElements': {'ConsoleLogin': 'Success' if ok else 'Failure'},
               'additionalEventData': {'LoginTo': 'https://console.aws.amazon.com/console/home?state=hashArgs%23&isauthcode=true', 'MobileVersion': 'No', 'MFAUsed': 'Yes' if ok else 'No'},
               'eventID': uid(rnd), 'readOnly': False, 'eventType': 'AwsConsoleSignIn', 'managementEvent': True, 'recipientAccountId': acct, 'eventCategory': 'Management',
               'tlsDetails': {'tlsVersion': 'TLSv1.3', 'cipherSuite': 'TLS_AES_128_GCM_SHA256', 'clientProvidedHostHeader': 'signin.aws.amazon.com'}}
        if not ok:
            rec['errorMessage'] = 'Failed authentication'
        recs.append((t, rec))
    # files are delivered every ~5 minutes; records inside a file are not strictly ordered
    recs.sort(key=lambda x: (int((x[0] - BASE).total_seconds() // 300), rnd.random()))
    for t, rec in recs:
        s.ev(jdump(rec), **flatten(rec))
    s.field('eventTime', 'time', None, 'time')
    s.field('eventSource', 'text', None, 'logger')
    s.field('eventName', 'text', None, 'message')
    s.field('awsRegion', 'text')
    s.field('sourceIPAddress', 'text', None, 'client')
    s.field('userIdentity.type', 'text')
    s.field('userIdentity.arn', 'text', None, 'user')
    s.field('userAgent', 'text')
    s.field('errorCode', 'text', None, 'status')
    s.field('errorMessage', 'text', None, 'exception')
    s.field('readOnly', 'text')
    s.field('responseElements.ConsoleLogin', 'text')
    s.fact("records with errorCode 'AccessDenied'", 'count', flt=F('errorCode', '==', 'AccessDenied'))
    s.fact('records with any errorCode', 'count', flt=F('errorCode', 'exists'))
    s.fact('distinct sourceIPAddress', 'distinct', 'sourceIPAddress')
    s.fact("ConsoleLogin records with responseElements.ConsoleLogin 'Failure'", 'count', flt=F('responseElements.ConsoleLogin', '==', 'Failure'))
    s.fact("records with userIdentity.type 'Root'", 'count', flt=F('userIdentity.type', '==', 'Root'))
    s.fact('first eventTime', 'min', 'eventTime')
    return s


# ======================================================================= 17 VPC Flow Logs v2
def gen_vpcflow():
    rnd = random.Random(217)
    s = Sample('vpc_flow', 'AWS VPC Flow Logs, default format (version 2), space-separated with the header line of S3-delivered files', 'vpc-flow.log')
    s.raw('version account-id interface-id srcaddr dstaddr srcport dstport protocol packets bytes start end action log-status')
    acct = '123456789012'
    enis = ['eni-0%s' % hexs(rnd, 16) for _ in range(6)]
    inside = ['10.20.%d.%d' % (rnd.randint(0, 3), rnd.randint(2, 250)) for _ in range(20)]
    scanners = public_ips(rnd, 35)
    ext = public_ips(rnd, 25)
    t0 = epoch_us(BASE) // 10 ** 6
    rows = []
    for k in range(60):
        wstart = t0 + k * 60
        for _ in range(rnd.randint(6, 12)):
            eni = rnd.choice(enis)
            start = wstart + rnd.randint(0, 5)
            end = wstart + 60 + rnd.randint(0, 5)
            kind = wchoice(rnd, [('web', 40), ('scan', 25), ('egress', 20), ('internal', 15), ('nodata', 2), ('skip', 0.5)])
            if kind == 'nodata':
                rows.append(dict(version=2, acct=acct, eni=eni, src=None, dst=None, sp=None, dp=None, proto=None, packets=None, bytes=None, start=start, end=end, action=None, status='NODATA'))
                continue
            if kind == 'skip':
                rows.append(dict(version=2, acct=acct, eni=eni, src=None, dst=None, sp=None, dp=None, proto=None, packets=None, bytes=None, start=start, end=end, action=None, status='SKIPDATA'))
                continue
            if kind == 'web':
                src, dst, sp, dp, proto, act = rnd.choice(ext), rnd.choice(inside[:4]), rnd.randint(1024, 65535), 443, 6, 'ACCEPT'
                pk = rnd.randint(4, 900)
                by = pk * rnd.randint(60, 1400)
                rows.append(dict(version=2, acct=acct, eni=eni, src=src, dst=dst, sp=sp, dp=dp, proto=proto, packets=pk, bytes=by, start=start, end=end, action=act, status='OK'))
                pk2 = int(pk * rnd.uniform(0.8, 1.5))
                rows.append(dict(version=2, acct=acct, eni=eni, src=dst, dst=src, sp=dp, dp=sp, proto=proto, packets=pk2, bytes=pk2 * rnd.randint(200, 1500), start=start, end=end, action=act, status='OK'))
            elif kind == 'scan':
                dp = rnd.choice([22, 23, 3389, 445, 1433, 3306, 5432, 6379, 8080, 9200])
                pk = rnd.randint(1, 3)
                rows.append(dict(version=2, acct=acct, eni=eni, src=rnd.choice(scanners), dst=rnd.choice(inside[:4]), sp=rnd.randint(1024, 65535), dp=dp, proto=6, packets=pk, bytes=pk * rnd.choice([40, 44, 60]), start=start, end=end, action='REJECT', status='OK'))
            elif kind == 'egress':
                dp, proto = wchoice(rnd, [((443, 6), 70), ((123, 17), 15), ((53, 17), 15)])
                pk = rnd.randint(2, 300)
                rows.append(dict(version=2, acct=acct, eni=eni, src=rnd.choice(inside), dst=rnd.choice(ext + ['52.94.133.131', '169.254.169.123']), sp=rnd.randint(32768, 60999), dp=dp, proto=proto, packets=pk, bytes=pk * rnd.randint(60, 1200), start=start, end=end, action='ACCEPT', status='OK'))
            else:
                dp = rnd.choice([5432, 6379, 8080, 9100])
                pk = rnd.randint(2, 5000)
                act = 'REJECT' if dp == 9100 and rnd.random() < 0.3 else 'ACCEPT'
                rows.append(dict(version=2, acct=acct, eni=eni, src=rnd.choice(inside), dst=rnd.choice(inside), sp=rnd.randint(32768, 60999), dp=dp, proto=6, packets=pk, bytes=pk * rnd.randint(60, 1400), start=start, end=end, action=act, status='OK'))
            if rnd.random() < 0.02:
                rows.append(dict(version=2, acct=acct, eni=eni, src=rnd.choice(scanners), dst=rnd.choice(inside[:4]), sp=0, dp=0, proto=1, packets=1, bytes=84, start=start, end=end, action='REJECT', status='OK'))
    for r in rows:
        vals = [r['version'], r['acct'], r['eni'], r['src'], r['dst'], r['sp'], r['dp'], r['proto'], r['packets'], r['bytes'], r['start'], r['end'], r['action'], r['status']]
        s.ev(' '.join('-' if v is None else str(v) for v in vals), **{'version': 2, 'account-id': acct, 'interface-id': r['eni'], 'srcaddr': r['src'], 'dstaddr': r['dst'], 'srcport': r['sp'], 'dstport': r['dp'],
                                                                       'protocol': r['proto'], 'packets': r['packets'], 'bytes': r['bytes'], 'start': r['start'], 'end': r['end'], 'action': r['action'], 'log-status': r['status']})
    s.field('start', 'time', 's', 'time')
    s.field('end', 'time', 's')
    s.field('interface-id', 'text')
    s.field('srcaddr', 'ip', None, 'client')
    s.field('dstaddr', 'ip', None, 'host')
    s.field('srcport', 'number')
    s.field('dstport', 'number')
    s.field('protocol', 'number')
    s.field('packets', 'number')
    s.field('bytes', 'number', 'b', 'bytes')
    s.field('action', 'text', None, 'status')
    s.field('log-status', 'text')
    rej = F('action', '==', 'REJECT')
    s.fact("records with action REJECT", 'count', flt=rej)
    s.fact('distinct srcaddr over REJECT records', 'distinct', 'srcaddr', rej)
    s.fact('sum of bytes over all records', 'sum', 'bytes')
    s.fact('records with dstport 22', 'count', flt=F('dstport', '==', 22))
    s.fact("records with log-status NODATA", 'count', flt=F('log-status', '==', 'NODATA'))
    s.fact('max bytes in one record', 'max', 'bytes')
    return s


# ======================================================================= 18 Kong file-log / http-log JSON
def gen_kong():
    rnd = random.Random(218)
    s = Sample('kong_json', 'Kong Gateway 3.6 file-log plugin JSON (one object per line: request, response, latencies, tries, service, route, consumer)', 'kong-file-log.json')
    clients = Pool(rnd, public_ips(rnd, 60), 0.9)
    services = [('orders', 'orders.svc.cluster.local', 8080, ['10.42.1.17', '10.42.2.9']), ('catalog', 'catalog.svc.cluster.local', 8080, ['10.42.1.30', '10.42.3.4']),
                ('auth', 'auth.svc.cluster.local', 9000, ['10.42.2.21'])]
    sids = {n: uid(rnd) for n, *_ in services}
    consumers = [('mobile-app', uid(rnd)), ('partner-acme', uid(rnd)), ('web-frontend', uid(rnd)), None]
    ws = uid(rnd)
    for t in times(rnd, 560, 0, 3600):
        sname, shost, sport, targets = wchoice(rnd, [(x, w) for x, w in zip(services, [45, 40, 15])])
        method = wchoice(rnd, [('GET', 70), ('POST', 25), ('DELETE', 5)])
        if sname == 'orders':
            uri = '/orders/%d' % rnd.randint(180000, 189999) if method != 'POST' else '/orders'
        elif sname == 'catalog':
            uri = '/catalog/products?page=%d' % rnd.randint(1, 30) if rnd.random() < 0.5 else '/catalog/products/%d' % rnd.randint(1000, 9999)
            method = 'GET'
        else:
            uri, method = '/auth/token', 'POST'
        cons = wchoice(rnd, [(c, w) for c, w in zip(consumers, [40, 15, 40, 5])])
        ip = clients.pick()
        # rejections by Kong plugins (never proxied)
        rej = None
        if cons is None:
            rej = 401
        elif cons[0] == 'partner-acme' and 1200 < (t - BASE).total_seconds() < 1800 and rnd.random() < 0.85:
            rej = 429
        started = epoch_us(t) // 1000
        kong_lat = rnd.randint(0, 3)
        if rej:
            proxy = -1
            st = rej
            req_lat = kong_lat + rnd.randint(0, 2)
            tries = None
            body = {'message': 'No API key found in request' if rej == 401 else 'API rate limit exceeded'}
            size = 180 + len(jdump(body))
            source = 'kong'
            ust = None
        else:
            proxy = int(lognorm(rnd, {'orders': 45, 'catalog': 20, 'auth': 80}[sname], 0.8))
            st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'DELETE': 204}[method], 92), (400, 2), (404, 3), (500, 1.5), (503, 1), (502, 0.5)])
            if st == 502:
                proxy = rnd.randint(1, 30)
            req_lat = proxy + kong_lat + rnd.randint(0, 2)
            tgt = rnd.choice(targets)
            tries = [{'balancer_start': started + kong_lat, 'balancer_start_ns': (started + kong_lat) * 10 ** 6 + rnd.randint(0, 999999), 'ip': tgt, 'port': sport, 'balancer_latency': 0, 'balancer_latency_ns': rnd.randint(5000, 60000)}]
            size = 0 if st == 204 else rnd.randint(200, 30000)
            source = 'upstream'
            ust = str(st)
        rid = hexs(rnd, 32)
        o = {'request': {'querystring': {'page': uri.split('=')[1]} if '?' in uri else {}, 'size': rnd.randint(90, 2400), 'uri': uri,
                         'url': 'https://api.example.com:443' + uri, 'headers': {'host': 'api.example.com', 'user-agent': ua(rnd), 'accept': 'application/json', 'x-request-id': rid,
                                                                                 **({'apikey': 'REDACTED'} if cons else {})},
                         'method': method, 'id': rid},
             'client_ip': ip, 'tries': tries, 'latencies': {'request': req_lat, 'kong': kong_lat, 'proxy': proxy, 'receive': 0},
             'upstream_uri': uri.replace('/%s' % sname, '', 1) if not rej else '', 'response': {'headers': {'content-type': 'application/json; charset=utf-8', 'x-kong-request-id': rid, 'via': '1.1 kong/3.6.1',
                                                                                                           'content-length': str(size)}, 'status': st, 'size': size + 260},
             'route': {'id': uid(rnd), 'paths': ['/%s' % sname], 'protocols': ['http', 'https'], 'strip_path': True, 'created_at': 1810012345, 'ws_id': ws, 'request_buffering': True,
                       'updated_at': 1810012345, 'preserve_host': False, 'regex_priority': 0, 'response_buffering': True, 'https_redirect_status_code': 426, 'path_handling': 'v0',
                       'service': {'id': sids[sname]}, 'name': '%s-route' % sname},
             'service': {'host': shost, 'created_at': 1810012300, 'connect_timeout': 60000, 'id': sids[sname], 'protocol': 'http', 'read_timeout': 60000, 'port': sport,
                         'path': '/', 'updated_at': 1810012300, 'write_timeout': 60000, 'retries': 5, 'ws_id': ws, 'name': sname, 'enabled': True},
             'workspace': ws, 'workspace_name': 'default', 'started_at': started, 'source': source}
        if ust:
            o['upstream_status'] = ust
        if cons:
            o['consumer'] = {'username': cons[0], 'created_at': 1810000000, 'id': cons[1], 'ws_id': ws, 'tags': None, 'custom_id': None}
            o['authenticated_entity'] = {'id': uid(rnd)}
        if tries is None:
            del o['tries']
        s.ev(jdump(o), **flatten(o))
    s.field('started_at', 'time', 'ms', 'time')
    s.field('client_ip', 'ip', None, 'client')
    s.field('request.method', 'text', None, 'method')
    s.field('request.uri', 'text', None, 'path')
    s.field('request.id', 'text')
    s.field('response.status', 'number', None, 'status')
    s.field('response.size', 'number', 'b', 'bytes')
    s.field('latencies.request', 'number', 'ms', 'duration')
    s.field('latencies.kong', 'number', 'ms')
    s.field('latencies.proxy', 'number', 'ms')
    s.field('service.name', 'text', None, 'upstream')
    s.field('route.name', 'text')
    s.field('consumer.username', 'text', None, 'user')
    s.field('source', 'text')
    px = F('latencies.proxy', '>=', 0)
    s.fact('records with response.status 429', 'count', flt=F('response.status', '==', 429))
    s.fact('records with response.status >= 500', 'count', flt=F('response.status', '>=', 500))
    s.fact('max latencies.request (ms)', 'max', 'latencies.request')
    s.fact('p95 (nearest-rank) latencies.proxy in ms over proxied records (latencies.proxy >= 0; -1 means not proxied)', 'p95', 'latencies.proxy', px)
    s.fact('distinct client_ip', 'distinct', 'client_ip')
    s.fact("records with service.name 'orders'", 'count', flt=F('service.name', '==', 'orders'))
    return s


# ======================================================================= 19 HAProxy TCP mode
def gen_haproxy_tcp():
    rnd = random.Random(219)
    s = Sample('haproxy_tcp', 'HAProxy 2.8 TCP mode log (option tcplog) via syslog, rsyslog file layout', 'haproxy-tcp.log')
    host = 'lb02'
    pid = 4172
    tl = TL()
    clients = Pool(rnd, private_ips(rnd, 30, '10.0.5.') + public_ips(rnd, 15), 0.8)
    fes = [('fe_pg', 'be_pg', ['pg1', 'pg2']), ('fe_redis', 'be_redis', ['redis1', 'redis2', 'redis3']), ('fe_mqtt', 'be_mqtt', ['mq1', 'mq2']), ('fe_tls', 'be_tls_passthrough', ['web1', 'web2'])]
    down = {'pg2': (at(1400.0), at(1700.0))}

    def hdr(t):
        return '%s %s haproxy[%d]: ' % (syslog_ts(t), host, pid)

    def other(t, msg):
        tl.add(t, hdr(t) + msg, timestamp=syslog_ts(t), hostname=host, pid=pid, message=msg)

    t0 = at(0.2)
    for i, (fe, be, _) in enumerate(fes):
        other(t0 + timedelta(milliseconds=i), 'Proxy %s started.' % fe)
        other(t0 + timedelta(milliseconds=i + 0.5), 'Proxy %s started.' % be)
    other(at(1400.0), 'Server be_pg/pg2 is DOWN, reason: Layer4 connection problem, info: "Connection refused", check duration: 0ms. 1 active and 0 backup servers left. 3 sessions active, 0 requeued, 0 remaining in queue.')
    other(at(1700.0), 'Server be_pg/pg2 is UP, reason: Layer4 check passed, check duration: 1ms. 2 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.')
    other(at(2600.0), 'Server be_redis/redis1 is DOWN, reason: Layer7 timeout, check duration: 2001ms. 2 active and 0 backup servers left. 12 sessions active, 0 requeued, 0 remaining in queue.')
    other(at(2603.0), 'Server be_redis/redis1 is UP, reason: Layer7 check passed, code: 0, info: "(tcp-check)", check duration: 1ms. 3 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.')
    actconn = 40
    for tend in times(rnd, 470, 2, 3600):
        fe, be, srvs = wchoice(rnd, [(f, w) for f, w in zip(fes, [35, 30, 15, 20])])
        ip = clients.pick()
        port = rnd.randint(1025, 65535)
        tw = 0
        tc = wchoice(rnd, [(0, 60), (1, 35), (rnd.randint(2, 20), 5)])
        up = [x for x in srvs if not (x in down and down[x][0] <= tend < down[x][1])]
        srv = rnd.choice(up)
        state = '--'
        if fe == 'fe_pg':
            tt = int(lognorm(rnd, 30000, 1.5))
            br = rnd.randint(2000, 5000000)
        elif fe == 'fe_redis':
            tt = int(lognorm(rnd, 120000, 1.2))
            br = rnd.randint(200, 900000)
        elif fe == 'fe_mqtt':
            tt = int(lognorm(rnd, 600000, 1.0))
            br = rnd.randint(100, 90000)
        else:
            tt = int(lognorm(rnd, 8000, 1.2))
            br = rnd.randint(3000, 3000000)
        tt = min(tt, 1700000 + rnd.randint(0, 99999))  # idle clients hit the timeouts below
        r = rnd.random()
        if r < 0.05:
            state = 'cD'
            tt = {'fe_pg': 1800000, 'fe_redis': 300000, 'fe_mqtt': 3600000, 'fe_tls': 60000}[fe] + rnd.randint(0, 40)
        elif r < 0.08:
            state = 'CD'
        elif r < 0.10:
            state = 'sD'
        elif r < 0.12 and fe == 'fe_pg' and tend < down['pg2'][1] + timedelta(seconds=5) and tend > down['pg2'][0] - timedelta(seconds=30):
            state, srv, tc, tt, br = 'SC', 'pg2', -1, rnd.randint(1, 5), 0
        elif r < 0.125:
            state, srv, tw, tc, tt, br = 'SC', '<NOSRV>', -1, -1, 0, 0
        elif r < 0.13:
            state, tc = 'sC', -1
            tt, br = 5000 + rnd.randint(0, 10), 0
        tt = max(tt, tc if tc > 0 else 0)
        tacc = tend - timedelta(milliseconds=tt)
        actconn = max(5, min(300, actconn + rnd.randint(-4, 4)))
        fc = actconn - rnd.randint(0, 4)
        bc = max(0, fc - rnd.randint(0, 10))
        sc = rnd.randint(0, bc)
        rc = 1 if state[:1] in ('S', 's') and srv != '<NOSRV>' and rnd.random() < 0.4 else 0
        acc = '%02d/%s/%d:%s.%03d' % (tacc.day, MON[tacc.month - 1], tacc.year, tacc.strftime('%H:%M:%S'), tacc.microsecond // 1000)
        msg = '%s:%d [%s] %s %s/%s %d/%d/%d %d %s %d/%d/%d/%d/%d 0/0' % (ip, port, acc, fe, be, srv, tw, tc, tt, br, state, actconn, fc, bc, sc, rc)
        tl.add(tend, hdr(tend) + msg, timestamp=syslog_ts(tend), hostname=host, pid=pid, client_ip=ip, client_port=port, accept_date=acc, frontend_name=fe,
               backend_name=be, server_name=srv, Tw=tw, Tc=tc, Tt=tt, bytes_read=br, termination_state=state, actconn=actconn, message=msg)
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('hostname', 'text', None, 'host')
    s.field('pid', 'number', None, 'pid')
    s.field('client_ip', 'ip', None, 'client')
    s.field('client_port', 'number')
    s.field('accept_date', 'time')
    s.field('frontend_name', 'text')
    s.field('backend_name', 'text', None, 'upstream')
    s.field('server_name', 'text', None, 'upstream')
    s.field('Tw', 'number', 'ms')
    s.field('Tc', 'number', 'ms')
    s.field('Tt', 'number', 'ms', 'duration')
    s.field('bytes_read', 'number', 'b', 'bytes')
    s.field('termination_state', 'text', None, 'status')
    s.field('actconn', 'number')
    s.field('message', 'text', None, 'message')
    cx = F('Tt', 'exists')
    s.fact('connection lines', 'count', flt=cx)
    s.fact("connection lines whose termination_state is not '--'", 'count', flt={'all': [cx, F('termination_state', '!=', '--')]})
    s.fact('max Tt (ms) over connection lines', 'max', 'Tt', cx)
    s.fact('p95 (nearest-rank) Tt in ms over connection lines', 'p95', 'Tt', cx)
    s.fact('distinct client_ip', 'distinct', 'client_ip', cx)
    s.fact("connection lines with server_name '<NOSRV>'", 'count', flt=F('server_name', '==', '<NOSRV>'))
    return s


# ======================================================================= 20 ClickHouse server log
CH_STACK = '''

0. DB::Exception::Exception(DB::Exception::MessageMasked&&, int, bool) @ 0x000000000c800f1b
1. DB::Exception::Exception<String, String>(int, FormatStringHelperImpl<std::type_identity<String>::type, std::type_identity<String>::type>, String&&, String&&) @ 0x00000000077a3b4c
2. DB::InterpreterSelectQuery::InterpreterSelectQuery(std::shared_ptr<DB::IAST> const&, std::shared_ptr<DB::Context> const&, std::optional<DB::Pipe>, std::shared_ptr<DB::IStorage> const&, DB::SelectQueryOptions const&, std::vector<String, std::allocator<String>> const&, std::shared_ptr<DB::StorageInMemoryMetadata const> const&, std::shared_ptr<DB::PreparedSets>) @ 0x0000000011d2e0f1
3. DB::InterpreterSelectWithUnionQuery::buildCurrentChildInterpreter(std::shared_ptr<DB::IAST> const&, std::vector<String, std::allocator<String>> const&) @ 0x0000000011dc7a39
4. DB::executeQueryImpl(char const*, char const*, std::shared_ptr<DB::Context>, DB::QueryFlags, DB::QueryProcessingStage::Enum, DB::ReadBuffer*) @ 0x00000000121a5c3e
5. DB::executeQuery(String const&, std::shared_ptr<DB::Context>, DB::QueryFlags, DB::QueryProcessingStage::Enum) @ 0x00000000121a0d0a
6. DB::TCPHandler::runImpl() @ 0x0000000013221b0a
7. DB::TCPHandler::run() @ 0x000000001323c2b9
8. Poco::Net::TCPServerConnection::start() @ 0x0000000015c4d2b2
9. Poco::Net::TCPServerDispatcher::run() @ 0x0000000015c4e0b1
10. Poco::PooledThread::run() @ 0x0000000015d44ca7
11. Poco::ThreadImpl::runnableEntry(void*) @ 0x0000000015d4327c
12. start_thread @ 0x0000000000094ac3
13. ? @ 0x0000000000126850
'''.rstrip('\n')
CH_ERRS = [
    (60, 'UNKNOWN_TABLE', "Table analytics.events_v2 does not exist. Maybe you meant analytics.events?", 'SELECT count() FROM analytics.events_v2 WHERE day = today()'),
    (47, 'UNKNOWN_IDENTIFIER', "Missing columns: 'usr_id' while processing query: 'SELECT usr_id, count() FROM analytics.events GROUP BY usr_id', required columns: 'usr_id', maybe you meant: 'user_id'", 'SELECT usr_id, count() FROM analytics.events GROUP BY usr_id'),
    (241, 'MEMORY_LIMIT_EXCEEDED', 'Memory limit (for query) exceeded: would use 9.31 GiB (attempt to allocate chunk of 4194304 bytes), maximum: 9.31 GiB.: While executing AggregatingTransform', 'SELECT user_id, groupArray(url) FROM analytics.pageviews GROUP BY user_id'),
    (159, 'TIMEOUT_EXCEEDED', 'Timeout exceeded: elapsed 30.000412 seconds, maximum: 30', 'SELECT * FROM analytics.sessions ORDER BY started_at DESC LIMIT 100000'),
]


def gen_clickhouse():
    rnd = random.Random(220)
    s = Sample('clickhouse', 'ClickHouse 24.3 server log (clickhouse-server.log): "YYYY.MM.DD hh:mm:ss.uuuuuu [ thread ] {query_id} <Level> Logger: message", stack traces on following lines', 'clickhouse-server.log')
    tl = TL()

    def add(t, thr, qid, lvl, logger, msg, **rec):
        ts = t.strftime('%Y.%m.%d %H:%M:%S') + '.%06d' % t.microsecond
        head = '%s [ %d ] {%s} <%s> %s: ' % (ts, thr, qid, lvl, logger)
        tl.add(t, head + msg, timestamp=ts, thread_id=thr, query_id=qid or None, level=lvl, logger=logger, message=msg.split('\n')[0], **rec)

    t0 = at(0.05)
    boot = [('Information', 'SentryWriter', 'Sending crash reports is disabled'), ('Information', 'Application', 'Starting ClickHouse 24.3.2.23 (revision: 54485, git hash: 8b7d910960cc2c6a0db07991fe2576a67fe98146, build id: 37E03D4F2A2C5E1A2E2B7F1D6B2A0E0B3C9F1A12), PID 1'),
            ('Information', 'Application', 'starting up'), ('Information', 'Application', 'OS name: Linux, version: 6.1.0-21-amd64, architecture: x86_64'),
            ('Warning', 'Application', 'Integrity check of the executable skipped because the reference checksum could not be read.'),
            ('Information', 'Application', 'Available RAM: 31.26 GiB; physical cores: 8; logical cores: 16.'),
            ('Information', 'StatusFile', 'Status file /var/lib/clickhouse/status already exists - unclean restart. Contents:\nPID: 1\nStarted at: 2031-06-02 23:10:04\nRevision: 54485'),
            ('Information', 'Application', 'Setting max_server_memory_usage was set to 28.13 GiB (31.26 GiB available * 0.90 max_server_memory_usage_to_ram_ratio)'),
            ('Information', 'Context', 'Initialized background executor for merges and mutations with num_threads=16, max_tasks_count=32, scheduling_policy=round_robin'),
            ('Information', 'DatabaseAtomic (analytics)', 'Metadata processed, database analytics has 6 tables and 0 dictionaries in total.'),
            ('Information', 'TablesLoader', 'Parsed metadata of 14 tables in 3 databases in 0.004512 sec'),
            ('Information', 'Application', 'Listening for http://[::]:8123'), ('Information', 'Application', 'Listening for native protocol (tcp): [::]:9000'),
            ('Information', 'Application', 'Ready for connections.')]
    for i, (lvl, lg, msg) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 11), 1, '', lvl, lg, msg)
    users = ['default', 'grafana', 'etl', 'analyst']
    clients = ['10.0.8.%d' % i for i in (11, 12, 40, 41, 77)]
    for t in times(rnd, 150, 5, 3590):
        qid = uid(rnd)
        thr = rnd.randint(200, 900)
        u = rnd.choice(users)
        ip = rnd.choice(clients)
        port = rnd.randint(30000, 65000)
        q = rnd.choice(['SELECT toStartOfHour(ts) AS h, count() FROM analytics.events WHERE ts > now() - INTERVAL 1 DAY GROUP BY h ORDER BY h',
                        'SELECT uniqExact(user_id) FROM analytics.pageviews WHERE day = today()',
                        'INSERT INTO analytics.events FORMAT RowBinary', 'SELECT 1', 'SELECT url, count() c FROM analytics.pageviews GROUP BY url ORDER BY c DESC LIMIT 20'])
        if rnd.random() < 0.1:
            code, name, emsg, q = rnd.choice(CH_ERRS)
            add(t, thr, qid, 'Debug', 'executeQuery', '(from [::ffff:%s]:%d, user: %s) %s (stage: Complete)' % (ip, port, u, q))
            te = t + timedelta(milliseconds=30000 if code == 159 else rnd.randint(1, 800))
            add(te, thr, qid, 'Error', 'executeQuery', 'Code: %d. DB::Exception: %s. (%s) (version 24.3.2.23 (official build)) (from [::ffff:%s]:%d) (in query: %s), Stack trace (when copying this message, always include the lines below):%s' % (code, emsg, name, ip, port, q, CH_STACK),
                code=code)
            add(te + timedelta(microseconds=300), thr, qid, 'Error', 'TCPHandler', 'Code: %d. DB::Exception: %s. (%s), Stack trace (when copying this message, always include the lines below):%s' % (code, emsg, name, CH_STACK), code=code)
            continue
        add(t, thr, qid, 'Debug', 'executeQuery', '(from [::ffff:%s]:%d, user: %s) %s (stage: Complete)' % (ip, port, u, q))
        add(t + timedelta(microseconds=200), thr, qid, 'Trace', 'ContextAccess (%s)' % u, 'Access granted: SELECT(ts, user_id) ON analytics.events')
        el = round(lognorm(rnd, 0.04, 1.2), 6)
        te = t + timedelta(seconds=el)
        rows = rnd.randint(1, 90000000)
        add(te - timedelta(microseconds=100), thr, qid, 'Debug', 'executeQuery', 'Read %d rows, %.2f MiB in %.6f sec., %d rows/sec., %.2f MiB/sec.' % (rows, rows * 16 / 1048576, el, int(rows / el), rows * 16 / 1048576 / el))
        add(te - timedelta(microseconds=50), thr, qid, 'Debug', 'MemoryTracker', 'Peak memory usage (for query): %.2f MiB.' % lognorm(rnd, 12, 1.0))
        add(te, thr, qid, 'Debug', 'TCPHandler', 'Processed in %.6f sec.' % el, elapsed=el)
    for t in times(rnd, 45, 5, 3590):
        part = '202406_%d_%d_%d' % (rnd.randint(1, 900), rnd.randint(901, 1900), rnd.randint(1, 6))
        thr = rnd.randint(100, 180)
        add(t, thr, '', 'Debug', 'analytics.events (3f1c9e2a-7b41-4c55-9d2e-5a8e0b1f6c77) (MergerMutator)', 'Selected %d parts from %s to %s' % (rnd.randint(2, 10), part, part))
        add(t + timedelta(milliseconds=rnd.randint(100, 4000)), thr, '', 'Debug', 'MergeTask::MergeProjectionsStage', 'Merge sorted %d rows, containing 14 columns (14 merged, 0 gathered) in %.6f sec., %d rows/sec., %.2f MiB/sec.' % (rnd.randint(10000, 9000000), rnd.uniform(0.1, 4), rnd.randint(1000000, 9000000), rnd.uniform(50, 400)))
    for t in times(rnd, 8, 5, 3590):
        add(t, rnd.randint(100, 180), '', 'Warning', 'analytics.events (3f1c9e2a-7b41-4c55-9d2e-5a8e0b1f6c77)', 'Delaying inserting block by %d ms. because there are %d parts and their average size is %.2f MiB' % (rnd.randint(10, 400), rnd.randint(150, 300), rnd.uniform(0.1, 2)))
    add(at(2999.0), 77, '', 'Information', 'Application', 'Received termination signal (Terminated)')
    add(at(2999.2), 1, '', 'Information', 'Application', 'Closed all listening sockets. Waiting for 2 outstanding connections.')
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('thread_id', 'number', None, 'thread')
    s.field('query_id', 'text')
    s.field('level', 'text', None, 'level')
    s.field('logger', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    s.fact("events at level <Error>", 'count', flt=F('level', '==', 'Error'))
    s.fact("events at level <Warning>", 'count', flt=F('level', '==', 'Warning'))
    s.fact('distinct non-empty query_id', 'distinct', 'query_id')
    s.fact("executeQuery errors with 'Code: 60.'", 'count', flt={'all': [F('logger', '==', 'executeQuery'), F('message', 'startswith', 'Code: 60.')]})
    s.fact("max seconds in 'Processed in N sec.' (TCPHandler)", 'max', flt=F('message', 'startswith', 'Processed in'), key=lambda e: e['elapsed'])
    s.fact('last timestamp', 'max', 'timestamp')
    return s


# ======================================================================= 21 PM2
def gen_pm2():
    rnd = random.Random(221)
    s = Sample('pm2', 'PM2 5 `pm2 logs` output (ids/names prefix "N|app  | ", log_date_format "YYYY-MM-DDTHH:mm:ss", morgan "dev"-like request lines)', 'pm2.log')
    s.raw('[TAILING] Tailing last 15 lines for [all] processes (change the value with --lines option)')
    s.raw('/root/.pm2/pm2.log last 15 lines:')
    tl = TL()
    width = 6  # pm2 pads the names to the longest app name

    def ts(t):
        return t.strftime('%Y-%m-%dT%H:%M:%S')

    def add(t, pid, name, msg, **rec):
        pref = ('%s|%s' % (pid, name)).ljust(width + 2) + '| ' if pid is not None else 'PM2'.ljust(width + 2) + ' | '
        lines = msg.split('\n')
        text = '\n'.join([pref + ts(t) + ': ' + lines[0]] + [pref + ln for ln in lines[1:]])
        tl.add(t, text, timestamp=ts(t), app=name if pid is not None else 'PM2', id=pid, message=lines[0], **rec)

    add(at(0.1), None, None, 'PM2 log: Launching in no daemon mode')
    add(at(0.2), None, None, 'PM2 log: App [api:0] starting in -cluster mode-')
    add(at(0.4), None, None, 'PM2 log: App [api:0] online')
    add(at(0.5), None, None, 'PM2 log: App [api:1] starting in -cluster mode-')
    add(at(0.7), None, None, 'PM2 log: App [api:1] online')
    add(at(0.8), None, None, 'PM2 log: App [worker:2] starting in -fork mode-')
    add(at(0.9), None, None, 'PM2 log: App [worker:2] online')
    for i in (0, 1):
        add(at(1.2 + i * 0.1), i, 'api', 'Server listening on :3000 (pid %d)' % (41 + i))
    add(at(1.3), 2, 'worker', 'Connected to redis://redis:6379')
    for t in times(rnd, 520, 2, 3600):
        i = rnd.choice((0, 1))
        method = wchoice(rnd, [('GET', 70), ('POST', 25), ('DELETE', 5)])
        url = api_path(rnd, method)
        st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'DELETE': 204}[method], 88), (304, 4), (400, 2), (404, 3), (500, 2), (502, 1)])
        rt = round(lognorm(rnd, 18, 0.9), 3)
        ln = '-' if st in (204, 304) else str(rnd.randint(20, 9000))
        add(t, i, 'api', '%s %s %d %.3f ms - %s' % (method, url, st, rt, ln), method=method, url=url, status=st, response_time=rt, length=None if ln == '-' else int(ln))
        if st == 500:
            add(t + timedelta(milliseconds=1), i, 'api', 'Error: connect ECONNREFUSED 10.0.5.20:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {\n  errno: -111,\n  code: \'ECONNREFUSED\',\n  syscall: \'connect\',\n  address: \'10.0.5.20\',\n  port: 5432\n}', error='ECONNREFUSED')
    wt = 2.0
    n = 0
    while wt < 3600:
        wt += lognorm(rnd, 25, 0.5)
        n += 1
        t = at(wt)
        if rnd.random() < 0.08:
            add(t, 2, 'worker', 'job %d failed: Timeout of 30000ms exceeded' % (9000 + n), job_failed=True)
        else:
            add(t, 2, 'worker', 'job %d completed in %dms' % (9000 + n, int(lognorm(rnd, 400, 0.7))))
    for k, tt in enumerate((1310.4, 2755.9)):
        t = at(tt)
        add(t, 2, 'worker', "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n----- Native stack trace -----\n\n 1: 0xb8a4d1 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [node]\n 2: 0xf06c50 v8::Utils::ReportOOMFailure(v8::internal::Isolate*, char const*, v8::OOMDetails const&) [node]\n 3: 0xf06f37 v8::internal::V8::FatalProcessOutOfMemory(v8::internal::Isolate*, char const*, v8::OOMDetails const&) [node]", error='heap out of memory')
        add(t + timedelta(milliseconds=150), None, None, 'PM2 log: App [worker:2] exited with code [0] via signal [SIGABRT]')
        add(t + timedelta(milliseconds=160), None, None, 'PM2 log: App [worker:2] starting in -fork mode-')
        add(t + timedelta(milliseconds=290), None, None, 'PM2 log: App [worker:2] online')
        add(t + timedelta(milliseconds=900), 2, 'worker', 'Connected to redis://redis:6379')
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('app', 'text', None, 'logger')
    s.field('id', 'number')
    s.field('message', 'text', None, 'message')
    s.field('method', 'text', None, 'method')
    s.field('url', 'text', None, 'path')
    s.field('status', 'number', None, 'status')
    s.field('response_time', 'number', 'ms', 'duration')
    s.field('length', 'number', 'b', 'bytes')
    s.fact('request lines with status >= 500', 'count', flt=F('status', '>=', 500))
    s.fact('max response_time (ms) over request lines', 'max', 'response_time', F('status', 'exists'))
    s.fact('p95 (nearest-rank) response_time in ms over request lines', 'p95', 'response_time', F('status', 'exists'))
    s.fact("events from app 'worker'", 'count', flt=F('app', '==', 'worker'))
    s.fact("PM2 daemon lines reporting 'exited with code'", 'count', flt=F('message', 'contains', 'exited with code'))
    s.fact("events whose message contains 'ECONNREFUSED'", 'count', flt=F('message', 'contains', 'ECONNREFUSED'))
    return s


# ======================================================================= 22 Docker daemon logrus text
def gen_dockerd():
    rnd = random.Random(222)
    s = Sample('dockerd_logrus', 'Docker Engine 26 daemon log (dockerd stderr, logrus TextFormatter: time="..." level=... msg="..." key=value)', 'dockerd.log')
    tl = TL()

    def add(t, lvl, msg, kv=(), **rec):
        tt = go_nano(t, rnd.randint(0, 999))
        parts = [('time', tt), ('level', lvl), ('msg', msg)] + list(kv)
        text = ' '.join('%s=%s' % (k, logfmt_val(v) if k != 'time' else '"%s"' % v) for k, v in parts)
        r = dict(parts)
        r.update(rec)
        tl.add(t, text, **r)

    t0 = at(0.1)
    boot = [('info', 'Starting up', []), ('info', 'containerd not running, starting managed containerd', []),
            ('info', 'started new containerd process', [('address', '/var/run/docker/containerd/containerd.sock'), ('module', 'libcontainerd'), ('pid', 811)]),
            ('info', 'containerd successfully booted in 0.031245s', []),
            ('info', '[graphdriver] using prior storage driver: overlay2', []),
            ('warning', 'Your kernel does not support cgroup blkio weight', []), ('warning', 'Your kernel does not support cgroup blkio weight_device', []),
            ('info', 'Loading containers: start.', []),
            ('info', 'Default bridge (docker0) is assigned with an IP address 172.17.0.0/16. Daemon option --bip can be used to set a preferred IP address', []),
            ('info', 'Loading containers: done.', []),
            ('warning', 'WARNING: bridge-nf-call-iptables is disabled', []),
            ('info', 'Docker daemon', [('commit', '8e96db1'), ('containerd-snapshotter', 'false'), ('storage-driver', 'overlay2'), ('version', '26.1.3')]),
            ('info', 'Daemon has completed initialization', []), ('info', 'API listen on /run/docker.sock', [])]
    for i, (lvl, msg, kv) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 17), lvl, msg, kv)
    cids = [hexs(rnd, 64) for _ in range(14)]
    for t in times(rnd, 330, 2, 3600):
        c = rnd.choice(cids)
        k = wchoice(rnd, [('ignore', 30), ('shim', 12), ('nosuch', 10), ('force', 5), ('pull', 8), ('sbjoin', 8), ('health', 10), ('debug', 0), ('prune', 3), ('netctl', 4)])
        if k == 'ignore':
            add(t, 'info', 'ignoring event', [('container', c), ('module', 'libcontainerd'), ('namespace', 'moby'), ('topic', '/tasks/delete'), ('type', '*events.TaskDelete')], container=c)
        elif k == 'shim':
            add(t, 'info', 'shim disconnected', [('id', c), ('namespace', 'moby')], container=c)
            add(t + timedelta(microseconds=300), 'warning', 'cleaning up after shim disconnected', [('id', c), ('namespace', 'moby')], container=c)
            add(t + timedelta(microseconds=500), 'info', 'cleaning up dead shim', [('namespace', 'moby')])
        elif k == 'nosuch':
            short = c[:12]
            add(t, 'error', 'Handler for GET /v1.45/containers/%s/json returned error: No such container: %s' % (short, short), [('spanID', hexs(rnd, 16)), ('traceID', hexs(rnd, 32))])
        elif k == 'force':
            add(t, 'info', 'Container failed to exit within 10s of signal 15 - using the force', [('container', c), ('spanID', hexs(rnd, 16)), ('traceID', hexs(rnd, 32))], container=c)
        elif k == 'pull':
            img = rnd.choice(['registry.example.com/shop/orders-api:3.2.0', 'registry.example.com/shop/web:1.9.4', 'ghcr.io/acme/agent:latest'])
            if rnd.random() < 0.4:
                add(t, 'info', 'Attempting next endpoint for pull after error: manifest unknown: manifest unknown', [('spanID', hexs(rnd, 16)), ('traceID', hexs(rnd, 32))])
                add(t + timedelta(milliseconds=20), 'error', 'Not continuing with pull after error: errors:\ndenied: requested access to the resource is denied\nunauthorized: authentication required\n', [('spanID', hexs(rnd, 16)), ('traceID', hexs(rnd, 32))])
            else:
                add(t, 'info', 'image pulled', [('digest', 'sha256:' + hexs(rnd, 64)), ('remote', img)])
        elif k == 'sbjoin':
            add(t, 'info', 'sbJoin: gwep4 \'\'->\'%s\', gwep6 \'\'->\'\'' % hexs(rnd, 12), [('eid', hexs(rnd, 12)), ('ep', 'shop_%s' % rnd.choice(['web', 'api', 'redis'])), ('net', 'shop_default'), ('nid', hexs(rnd, 12))])
        elif k == 'health':
            add(t, 'warning', 'Health check for container %s error: context deadline exceeded: unknown' % c, [], container=c)
        elif k == 'prune':
            add(t, 'warning', 'failed to prune image docker.io/library/node@sha256:%s: No such image: docker.io/library/node@sha256:%s' % (hexs(rnd, 8), hexs(rnd, 8)), [])
        else:
            add(t, 'error', 'failed to set up container networking', [('container', c), ('error', 'failed to create endpoint shop-api-1 on network shop_default: Bind for 0.0.0.0:8080 failed: port is already allocated')], container=c)
    # a Go stack dump (SIGUSR1) goes to a file; only the notice is logged
    add(at(3102.0), 'info', 'goroutine stacks written to /var/run/docker/goroutine-stacks-2031-06-03T025142Z.log', [])
    tl.flush(s)
    s.field('time', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('msg', 'text', None, 'message')
    s.field('container', 'text')
    s.field('module', 'text', None, 'logger')
    s.field('namespace', 'text')
    s.field('error', 'text', None, 'exception')
    s.fact("events with level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("events with level 'warning'", 'count', flt=F('level', '==', 'warning'))
    s.fact("'ignoring event' events", 'count', flt=F('msg', '==', 'ignoring event'))
    s.fact('distinct container (key container=)', 'distinct', 'container')
    s.fact("events whose msg contains 'No such container'", 'count', flt=F('msg', 'contains', 'No such container'))
    s.fact('first time', 'min', 'time')
    return s


# ======================================================================= main
GENERATORS = [gen_tracing, gen_suricata, gen_nginx_kv, gen_filebeat, gen_winston, gen_uvicorn, gen_lograge, gen_laravel, gen_zerolog,
              gen_jvm_gc, gen_consul, gen_grafana, gen_prometheus, gen_postfix, gen_authlog, gen_cloudtrail, gen_vpcflow, gen_kong,
              gen_haproxy_tcp, gen_clickhouse, gen_pm2, gen_dockerd]


def main():
    written = []
    problems = []
    for g in GENERATORS:
        smp = g()
        n = len(smp.lines)
        if not 300 <= len(smp.events) <= 2000:
            problems.append('%s: %d events' % (smp.filename, len(smp.events)))
        written.extend(smp.write())
        print('%-28s %5d lines %5d events %d facts' % (smp.filename, n, len(smp.events), len(smp.facts)))
    for p in problems:
        print('EVENT COUNT OUT OF RANGE:', p)
    return written


if __name__ == '__main__':
    main()
