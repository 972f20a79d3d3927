#!/usr/bin/env python3
"""Generate realistic log samples for format-detection testing, plus truth files.

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
BASE = datetime(2031, 5, 1, 2, 0, 0, tzinfo=UTC)
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


# ======================================================================= 1 HAProxy
def gen_haproxy():
    rnd = random.Random(101)
    s = Sample('haproxy', 'HAProxy HTTP log format (option httplog) via syslog, rsyslog file layout')
    host = 'lb01'
    clients = Pool(rnd, public_ips(rnd, 70) + ['10.0.1.20', '10.0.1.21'], 0.9)
    pid_old, pid_new = 23817, 30442
    reload_at = at(2237.4)
    api3_down = (at(1310.2), at(1544.9))
    static_down = (at(2905.3), at(2951.7))
    tl = TL()

    def hdr(t, pid):
        return '%s %2d %s %s haproxy[%d]: ' % (MON[t.month - 1], t.day, t.strftime('%H:%M:%S'), host, pid)

    def other(t, pid, msg):
        tl.add(t, hdr(t, pid) + msg, message=msg, pid=pid, hostname=host)

    conns = 35
    for acc in times(rnd, 455, 2, 3595):
        pid = pid_new if acc >= reload_at else pid_old
        ip = clients.pick()
        port = rnd.randint(1025, 65535)
        conns = max(5, min(400, conns + rnd.randint(-6, 6)))
        TR = wchoice(rnd, [(0, 70), (1, 15), (2, 6), (rnd.randint(3, 40), 7), (rnd.randint(100, 2500), 2)])
        Tw, Tc = 0, wchoice(rnd, [(0, 60), (1, 38), (rnd.randint(2, 15), 2)])
        sq = bq = 0
        tsc = '----'
        if rnd.random() < 0.06:
            fe, be, srv, method, path = 'http-in', 'http-in', '<NOSRV>', 'GET', web_path(rnd)
            Tw = Tc = Tr = -1
            Ta = TR
            st, nbytes, tsc = 301, 104 + len(path), 'LR--'
        else:
            fe = 'https-in~'
            kind = wchoice(rnd, [('api', 50), ('web', 30), ('static', 20)])
            if kind == 'api':
                be = 'be_api'
                method = wchoice(rnd, [('GET', 74), ('POST', 16), ('PUT', 5), ('DELETE', 5)])
                path = api_path(rnd, method)
                okc = {'GET': 200, 'POST': 201, 'PUT': 200, 'DELETE': 204}[method]
                st = wchoice(rnd, [(okc, 86), (400, 2), (401, 2), (404, 3.5), (409, 1), (422, 1), (429, 0.5),
                                   (500, 2), (502, 1), (504, 1)])
                Tr = int(lognorm(rnd, 38, 0.8))
                nbytes = 260 + (0 if st == 204 else rnd.randint(40, 9000))
                pool = ['api1', 'api2'] + ([] if api3_down[0] <= acc < api3_down[1] else ['api3'])
            elif kind == 'web':
                be = 'be_web'
                method = 'POST' if rnd.random() < 0.07 else 'GET'
                path = rnd.choice(['/login', '/checkout', '/cart']) if method == 'POST' else web_path(rnd)
                st = wchoice(rnd, [(200, 82), (302, 6 if method == 'POST' else 2), (304, 5), (404, 5), (500, 1)])
                Tr = int(lognorm(rnd, 65, 0.7))
                nbytes = 300 + (rnd.randint(8000, 60000) if st in (200, 500) else rnd.randint(0, 2000) if st == 404 else 0)
                pool = ['web1', 'web2']
            else:
                be, method, path = 'be_static', 'GET', static_path(rnd)
                st = wchoice(rnd, [(200, 70), (304, 27), (404, 3)])
                Tr = int(lognorm(rnd, 2, 0.6))
                nbytes = 280 + (rnd.randint(2000, 400000) if st == 200 else 0)
                pool = ['static1', 'static2']
            if be == 'be_static' and static_down[0] <= acc < static_down[1]:
                srv = '<NOSRV>'
                Tw = Tc = Tr = -1
                Ta = TR
                st, nbytes, tsc = 503, 217, 'SC--'
            else:
                srv = rnd.choice(pool)
                if rnd.random() < 0.03:
                    Tw, sq = rnd.randint(1, 90), rnd.randint(1, 6)
                xfer = 0 if nbytes < 20000 else nbytes // rnd.randint(20000, 200000)
                if st == 502:
                    Tr = -1
                    Ta = TR + Tw + Tc + rnd.randint(1, 60)
                    nbytes, tsc = 209, 'SH--'
                elif st == 504:
                    Tr = -1
                    Ta = TR + Tw + Tc + 30000 + rnd.randint(0, 2)
                    nbytes, tsc = 194, 'sH--'
                else:
                    Ta = TR + Tw + Tc + Tr + xfer
                    if st == 200 and nbytes > 50000 and rnd.random() < 0.12:
                        tsc = 'CD--'
                        nbytes = rnd.randint(2000, nbytes)
                        Ta += rnd.randint(200, 4000)
        fc = max(1, conns - rnd.randint(0, 3))
        bc = 0 if srv == '<NOSRV>' and be == 'http-in' else rnd.randint(1, fc)
        sc = 0 if srv == '<NOSRV>' else rnd.randint(1, max(1, bc // 2))
        acc_s = '%02d/%s/%d:%s.%03d' % (acc.day, MON[acc.month - 1], acc.year, acc.strftime('%H:%M:%S'), acc.microsecond // 1000)
        req = '%s %s HTTP/1.1' % (method, path)
        lt = acc + timedelta(milliseconds=max(Ta, 0))
        msg = '%s:%d [%s] %s %s/%s %d/%d/%d/%d/%d %d %d - - %s %d/%d/%d/%d/0 %d/%d "%s"' % (
            ip, port, acc_s, fe, be, srv, TR, Tw, Tc, Tr, Ta, st, nbytes, tsc, conns, fc, bc, sc, sq, bq, req)
        tl.add(lt, hdr(lt, pid) + msg, client_ip=ip, client_port=port, accept_date=acc_s, frontend_name=fe,
               backend_name=be, server_name=srv, TR=TR, Tw=Tw, Tc=Tc, Tr=Tr, Ta=Ta, status_code=st,
               bytes_read=nbytes, termination_state=tsc, http_request=req, pid=pid, hostname=host)
    other(api3_down[0], pid_old, 'Server be_api/api3 is DOWN, reason: Layer7 wrong status, code: 503, info: "Service Unavailable", check duration: 3ms. 2 active and 0 backup servers left. 4 sessions active, 0 requeued, 0 remaining in queue.')
    other(api3_down[1], pid_old, 'Server be_api/api3 is UP, reason: Layer7 check passed, code: 200, check duration: 2ms. 3 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.')
    other(static_down[0] - timedelta(seconds=6.1), pid_new, 'Server be_static/static2 is DOWN, reason: Layer4 timeout, check duration: 2001ms. 1 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue.')
    other(static_down[0], pid_new, 'Server be_static/static1 is DOWN, reason: Layer4 timeout, check duration: 2002ms. 0 active and 0 backup servers left. 1 sessions active, 0 requeued, 0 remaining in queue.')
    other(static_down[0], pid_new, 'backend be_static has no server available!')
    other(static_down[1], pid_new, 'Server be_static/static1 is UP, reason: Layer4 check passed, check duration: 0ms. 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.')
    other(static_down[1] + timedelta(seconds=2.3), pid_new, 'Server be_static/static2 is UP, reason: Layer4 check passed, check duration: 1ms. 2 active and 0 backup servers online. 0 sessions requeued, 0 total in queue.')
    names = ['stats', 'http-in', 'https-in', 'be_api', 'be_web', 'be_static']
    for n in names:
        kind = 'frontend' if n in ('http-in', 'https-in', 'stats') else 'backend'
        other(reload_at, pid_old, 'Stopping %s %s in 0 ms.' % (kind, n))
    for n in names:
        other(reload_at + timedelta(milliseconds=41), pid_new, 'Proxy %s started.' % n)
    cum = {'stats': (12, 0), 'http-in': (1911, 0), 'https-in': (24410, 0), 'be_api': (0, 13387), 'be_web': (0, 7930), 'be_static': (0, 5204)}
    for n in names:
        other(reload_at + timedelta(seconds=3.2), pid_old, 'Proxy %s stopped (cumulated conns: FE: %d, BE: %d).' % (n, cum[n][0], cum[n][1]))
    tl.flush(s)

    s.field('accept_date', 'time', None, 'time')
    s.field('hostname', 'text', None, 'host')
    s.field('pid', 'number', None, 'pid')
    s.field('client_ip', 'ip', None, 'client')
    s.field('client_port', 'number')
    s.field('frontend_name', 'text')
    s.field('backend_name', 'text', None, 'upstream')
    s.field('server_name', 'text', None, 'upstream')
    for f in ('TR', 'Tw', 'Tc', 'Tr'):
        s.field(f, 'number', 'ms')
    s.field('Ta', 'number', 'ms', 'duration')
    s.field('status_code', 'number', None, 'status')
    s.field('bytes_read', 'number', 'b', 'bytes')
    s.field('termination_state', 'text')
    s.field('http_request', 'text', None, 'path')
    s.field('message', 'text', None, 'message')
    req = F('Ta', 'exists')
    s.fact('request lines with status_code >= 500', 'count', flt=F('status_code', '>=', 500))
    s.fact('max Ta (total active time, ms) over request lines', 'max', 'Ta', req)
    s.fact('p95 (nearest-rank) of Ta in ms over request lines', 'p95', 'Ta', req)
    s.fact('distinct client_ip', 'distinct', 'client_ip', req)
    s.fact("request lines whose termination_state is not '----'", 'count',
           flt={'all': [req, F('termination_state', '!=', '----')]})
    s.fact('non-request lines (health checks, reload messages)', 'count', flt=F('Ta', 'not_exists'))
    return s


# ======================================================================= 2 Varnish
def gen_varnish():
    rnd = random.Random(102)
    s = Sample('varnishncsa', 'Varnish varnishncsa default format (NCSA combined; %r carries the absolute URL)')
    clients = Pool(rnd, public_ips(rnd, 90), 0.9)
    host = 'www.shop.example'
    for t in times(rnd, 520):
        r = rnd.random()
        user = '-'
        ref = '-'
        if r < 0.025:
            ip, m = '10.0.0.11', 'PURGE'
            path = rnd.choice(['/products/%d' % rnd.randint(1000, 9999), '/', '/products?category=sale', '/api/v1/products/%d' % rnd.randint(1000, 9999)])
            st, b, agent = 200, 245, 'GuzzleHttp/7'
        elif r < 0.06:
            ip, m, path = rnd.choice(['198.51.100.201', '198.51.100.202']), 'HEAD', '/'
            st, b, agent = 200, None, 'Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)'
        elif r < 0.09:
            ip, m = clients.pick(), 'POST'
            path = rnd.choice(['/cart/add', '/api/v1/cart/items', '/login', '/checkout'])
            st = wchoice(rnd, [(200, 60), (201, 15), (302, 15), (400, 4), (403, 3), (503, 1)])
            b = {302: None, 503: 282}.get(st, rnd.randint(80, 2400))
            ref, agent = 'https://%s/cart' % host, ua(rnd)
        elif r < 0.095:
            ip, m, user = '10.0.0.5', 'GET', 'editor'
            path = rnd.choice(['/admin/', '/admin/products/%d/edit' % rnd.randint(1000, 9999), '/admin/orders'])
            st, b = 200, rnd.randint(9000, 42000)
            ref, agent = 'https://%s/admin/' % host, UAS[2][0]
        else:
            ip, m = clients.pick(), 'GET'
            if rnd.random() < 0.45:
                path = static_path(rnd)
                st = wchoice(rnd, [(200, 64), (304, 34), (404, 2)])
                b = None if st == 304 else (rnd.randint(1200, 380000) if st == 200 else 1843)
                ref = 'https://%s%s' % (host, rnd.choice(['/', '/products/%d' % rnd.randint(1000, 9999), '/cart']))
            else:
                path = web_path(rnd)
                st = wchoice(rnd, [(200, 84), (301, 3), (304, 4), (404, 5), (500, 1), (503, 1.5)])
                b = {301: 0, 304: None, 404: 1843, 503: 282}.get(st, rnd.randint(14000, 90000))
                if st == 500:
                    b = rnd.randint(300, 900)
                if b == 0:
                    b = None
                ref = wchoice(rnd, [('-', 45), ('https://www.google.com/', 25), ('https://%s/' % host, 25),
                                    ('https://www.bing.com/', 3), ('https://duckduckgo.com/', 2)])
            agent = ua(rnd)
        line = '%s - %s [%s] "%s http://%s%s HTTP/1.1" %d %s "%s" "%s"' % (
            ip, user, clf(t), m, host, path, st, '-' if b is None else b, ref, agent)
        s.ev(line, **{'%h': ip, '%u': user, '%t': clf(t), '%r': '%s http://%s%s HTTP/1.1' % (m, host, path),
                      '%m': m, '%U': path.split('?')[0], '%s': st, '%b': b, '%{Referer}i': ref, '%{User-agent}i': agent})
    s.field('%h', 'ip', None, 'client')
    s.field('%l', 'text')
    s.field('%u', 'text', None, 'user')
    s.field('%t', 'time', None, 'time')
    s.field('%r', 'text', None, 'path')
    s.field('%m', 'text', None, 'method')
    s.field('%U', 'text', None, 'path')
    s.field('%s', 'number', None, 'status')
    s.field('%b', 'number', 'b', 'bytes')
    s.field('%{Referer}i', 'text')
    s.field('%{User-agent}i', 'text')
    s.fact('events with status (%s) >= 500', 'count', flt=F('%s', '>=', 500))
    s.fact("sum of %b in bytes ('-' counted as 0)", 'sum', key=lambda e: e['%b'] or 0)
    s.fact('distinct client addresses (%h)', 'distinct', '%h')
    s.fact('PURGE requests', 'count', flt=F('%m', '==', 'PURGE'))
    s.fact('responses with status 304', 'count', flt=F('%s', '==', 304))
    return s


# ======================================================================= 3 Caddy
def gen_caddy():
    rnd = random.Random(103)
    s = Sample('caddy', 'Caddy v2 JSON log (zap JSON encoder): runtime logs + access log (logger http.log.access.log0)')
    clients = Pool(rnd, public_ips(rnd, 60), 0.9)
    hosts = ['shop.example', 'www.shop.example']

    def ts(t):
        return (epoch_us(t) * 1000 + rnd.randint(0, 999)) / 1e9

    def put(t, obj):
        rec = flatten(obj)
        s.ev(jdump(obj), **rec)

    def L(t, level, msg, logger=None, **kw):
        o = {'level': level, 'ts': ts(t)}
        if logger:
            o['logger'] = logger
        o['msg'] = msg
        o.update(kw)
        return o

    start = [
        L(at(0.10), 'info', 'using config from file', file='/etc/caddy/Caddyfile'),
        L(at(0.11), 'info', 'adapted config to JSON', adapter='caddyfile'),
        L(at(0.11), 'warn', "Caddyfile input is not formatted; run 'caddy fmt --overwrite' to fix inconsistencies", adapter='caddyfile', file='/etc/caddy/Caddyfile', line=14),
        L(at(0.12), 'info', 'admin endpoint started', 'admin', address='localhost:2019', enforce_origin=False, origins=['//localhost:2019', '//[::1]:2019', '//127.0.0.1:2019']),
        L(at(0.12), 'info', 'server is listening only on the HTTPS port but has no TLS connection policies; adding one to enable TLS', 'http.auto_https', server_name='srv0', https_port=443),
        L(at(0.12), 'info', 'enabling automatic HTTP->HTTPS redirects', 'http.auto_https', server_name='srv0'),
        L(at(0.13), 'info', 'started background certificate maintenance', 'tls.cache.maintenance', cache='0xc0004a2f80'),
        L(at(0.13), 'info', 'enabling HTTP/3 listener', 'http', addr=':443'),
        L(at(0.13), 'info', 'failed to sufficiently increase receive buffer size (was: 208 kiB, wanted: 7168 kiB, got: 416 kiB). See https://github.com/quic-go/quic-go/wiki/UDP-Buffer-Sizes for details.'),
        L(at(0.14), 'info', 'server running', 'http.log', name='srv0', protocols=['h1', 'h2', 'h3']),
        L(at(0.14), 'info', 'server running', 'http.log', name='remaining_auto_https_redirects', protocols=['h1', 'h2', 'h3']),
        L(at(0.14), 'info', 'enabling automatic TLS certificate management', 'http', domains=hosts),
        L(at(0.15), 'info', 'autosaved config (load with --resume flag)', file='/config/caddy/autosave.json'),
        L(at(0.15), 'info', 'serving initial configuration'),
        L(at(0.16), 'info', 'cleaning storage unit', 'tls', storage='FileStorage:/data/caddy'),
        L(at(0.18), 'info', 'finished cleaning storage units', 'tls'),
    ]
    tl = TL()
    prev = 0.0
    for o in start:
        o['ts'] = max(o['ts'], round(prev + 0.0000013, 7))
        prev = o['ts']
        tl.add(EPOCH + timedelta(seconds=o['ts']), o)
    rt = at(1931.274)
    ca = 'https://acme-v02.api.letsencrypt.org/directory'
    renew = [
        (0.0, L(rt, 'info', 'acquiring lock', 'tls.renew', identifier='shop.example')),
        (0.01, L(rt, 'info', 'lock acquired', 'tls.renew', identifier='shop.example')),
        (0.02, L(rt, 'info', 'renewing certificate', 'tls.renew', identifier='shop.example', remaining=2591873.42)),
        (0.35, L(rt, 'info', 'waiting on internal rate limiter', 'tls.issuance.acme', identifiers=['shop.example'], ca=ca, account='')),
        (0.35, L(rt, 'info', 'done waiting on internal rate limiter', 'tls.issuance.acme', identifiers=['shop.example'], ca=ca, account='')),
        (0.9, L(rt, 'info', 'trying to solve challenge', 'tls.issuance.acme.acme_client', identifier='shop.example', challenge_type='tls-alpn-01', ca=ca)),
        (1.4, L(rt, 'info', 'served key authentication certificate', 'tls', server_name='shop.example', challenge='tls-alpn-01', remote='23.178.112.105:39442', distributed=False)),
        (1.6, L(rt, 'info', 'served key authentication certificate', 'tls', server_name='shop.example', challenge='tls-alpn-01', remote='3.19.53.117:50218', distributed=False)),
        (2.3, L(rt, 'info', 'authorization finalized', 'tls.issuance.acme.acme_client', identifier='shop.example', authz_status='valid')),
        (2.3, L(rt, 'info', 'validations succeeded; finalizing order', 'tls.issuance.acme.acme_client', order='https://acme-v02.api.letsencrypt.org/acme/order/1429871136/318736554921')),
        (3.1, L(rt, 'info', 'successfully downloaded available certificate chains', 'tls.issuance.acme.acme_client', count=2, first_url='https://acme-v02.api.letsencrypt.org/acme/cert/04a8c1f2e6b1d93a7f0c5e2b8d4a1c9e7f3b')),
        (3.1, L(rt, 'info', 'certificate renewed successfully', 'tls.renew', identifier='shop.example')),
        (3.1, L(rt, 'info', 'releasing lock', 'tls.renew', identifier='shop.example')),
        (3.2, L(rt, 'info', 'reloading managed certificate', 'tls', identifiers=['shop.example'])),
        (3.2, L(rt, 'info', 'replaced certificate in cache', 'tls.cache', subjects=['shop.example'], new_expiration='2031-07-30T02:31:13.000Z')),
    ]
    for off, o in renew:
        o['ts'] = ts(rt + timedelta(seconds=off))
        tl.add(EPOCH + timedelta(seconds=o['ts']), o)
    upstreams = ['10.0.2.31:8080', '10.0.2.32:8080']
    for t in times(rnd, 450, 5, 3598):
        ip = clients.pick()
        proto = wchoice(rnd, [('HTTP/2.0', 70), ('HTTP/3.0', 20), ('HTTP/1.1', 10)])
        host = rnd.choice(hosts)
        kind = wchoice(rnd, [('static', 35), ('api', 45), ('web', 20)])
        method = 'GET'
        if kind == 'static':
            uri = static_path(rnd)
            st = wchoice(rnd, [(200, 66), (304, 32), (404, 2)])
            dur = lognorm(rnd, 0.0004, 0.6)
            size = 0 if st == 304 else (rnd.randint(900, 380000) if st == 200 else 0)
        else:
            if kind == 'api':
                method = wchoice(rnd, [('GET', 75), ('POST', 18), ('DELETE', 7)])
                uri = api_path(rnd, method)
                okc = {'GET': 200, 'POST': 201, 'DELETE': 204}[method]
                st = wchoice(rnd, [(okc, 88), (400, 2), (401, 2), (404, 3), (422, 1), (500, 1.5), (502, 1.5), (504, 0.6)])
            else:
                uri = web_path(rnd)
                st = wchoice(rnd, [(200, 90), (302, 3), (404, 5), (500, 1), (502, 1)])
            dur = lognorm(rnd, 0.035, 0.8)
            size = 0 if st in (204, 302) else rnd.randint(120, 48000)
        if st == 502:
            dur = lognorm(rnd, 0.0015, 0.4)
            size = 0
        if st == 504:
            dur = 30.0 + rnd.random() * 0.004
            size = 0
        dur = float('%.9f' % dur)
        bytes_read = rnd.randint(40, 2200) if method == 'POST' else 0
        hdrs = {'User-Agent': [ua(rnd)], 'Accept': ['*/*' if kind != 'web' else 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'],
                'Accept-Encoding': ['gzip, deflate, br'], 'Accept-Language': [rnd.choice(['en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.8', 'fr-FR,fr;q=0.9'])]}
        if kind != 'static' and rnd.random() < 0.6:
            hdrs['Cookie'] = ['REDACTED']
        if kind == 'api' and rnd.random() < 0.5:
            hdrs['Authorization'] = ['REDACTED']
        if method == 'POST':
            hdrs['Content-Type'] = ['application/json']
            hdrs['Content-Length'] = [str(bytes_read)]
        hk = list(hdrs)
        rnd.shuffle(hk)
        request = {'remote_ip': ip, 'remote_port': str(rnd.randint(1025, 65535)), 'client_ip': ip, 'proto': proto,
                   'method': method, 'host': host, 'uri': uri, 'headers': {k: hdrs[k] for k in hk}}
        if proto != 'HTTP/1.1' or rnd.random() < 0.9:
            request['tls'] = {'resumed': rnd.random() < 0.3, 'version': 772, 'cipher_suite': 4865,
                              'proto': {'HTTP/2.0': 'h2', 'HTTP/3.0': 'h3', 'HTTP/1.1': 'http/1.1'}[proto], 'server_name': host}
        if kind == 'static':
            rh = {'Server': ['Caddy'], 'Alt-Svc': ['h3=":443"; ma=2592000'], 'Etag': ['"s%s"' % alnum(rnd, 9, string.ascii_lowercase + string.digits)],
                  'Last-Modified': ['Tue, 29 Apr 2031 10:12:44 GMT'], 'Vary': ['Accept-Encoding']}
            if st == 200:
                rh['Content-Type'] = [rnd.choice(['text/javascript; charset=utf-8', 'text/css; charset=utf-8', 'image/webp'])]
                rh['Content-Length'] = [str(size)]
                rh['Accept-Ranges'] = ['bytes']
        else:
            rh = {'Server': ['Caddy'], 'Alt-Svc': ['h3=":443"; ma=2592000']}
            if st not in (502, 504):
                rh['Content-Type'] = ['application/json' if kind == 'api' else 'text/html; charset=utf-8']
                rh['Date'] = [t.strftime('%a, %d %b %Y %H:%M:%S GMT')]
                rh['X-Request-Id'] = [uid(rnd)]
            if st == 302:
                rh['Location'] = ['/login?next=%2Faccount%2Forders']
        rk = list(rh)
        rnd.shuffle(rk)
        if st in (502, 504):
            err = ('dial tcp %s: connect: connection refused' % rnd.choice(upstreams)) if st == 502 else 'net/http: timeout awaiting response headers'
            eo = L(t, 'error', err, 'http.log.error', request=request, duration=dur, status=st,
                   err_id=alnum(rnd, 9, string.ascii_lowercase + string.digits), err_trace='reverseproxy.statusError (reverseproxy.go:1269)')
            tl.add(t, eo)
        ao = L(t, 'error' if st >= 400 else 'info', 'handled request', 'http.log.access.log0', request=request,
               bytes_read=bytes_read, user_id='', duration=dur, size=size, status=st, resp_headers={k: rh[k] for k in rk})
        tl.add(t + timedelta(microseconds=2), ao)
    for t, _, o, _r in sorted(tl.items, key=lambda x: (x[2]['ts'], x[1])):
        put(t, o)

    s.field('ts', 'time', 's', 'time')
    s.field('level', 'text', None, 'level')
    s.field('logger', 'text', None, 'logger')
    s.field('msg', 'text', None, 'message')
    s.field('request.remote_ip', 'ip', None, 'client')
    s.field('request.client_ip', 'ip', None, 'client')
    s.field('request.method', 'text', None, 'method')
    s.field('request.host', 'text', None, 'host')
    s.field('request.uri', 'text', None, 'path')
    s.field('request.proto', 'text')
    s.field('request.headers.User-Agent', 'text')
    s.field('status', 'number', None, 'status')
    s.field('size', 'number', 'b', 'bytes')
    s.field('bytes_read', 'number', 'b')
    s.field('duration', 'number', 's', 'duration')
    s.field('user_id', 'text', None, 'user')
    s.field('err_id', 'text')
    acc = F('logger', '==', 'http.log.access.log0')
    s.fact("events with level 'error' (any logger)", 'count', flt=F('level', '==', 'error'))
    s.fact('access entries with status >= 500', 'count', flt={'all': [acc, F('status', '>=', 500)]})
    s.fact('max duration (s) over access entries', 'max', 'duration', acc)
    s.fact('p95 (nearest-rank) duration in s over access entries', 'p95', 'duration', acc)
    s.fact('distinct request.remote_ip over access entries', 'distinct', 'request.remote_ip', acc)
    s.fact('access entries (handled request)', 'count', flt=acc)
    return s


# ======================================================================= 4 Traefik
def gen_traefik():
    rnd = random.Random(104)
    s = Sample('traefik', 'Traefik v2 access log, JSON format (accessLog.format=json, default fields)')
    clients = Pool(rnd, public_ips(rnd, 55) + ['10.0.1.20'], 0.9)
    svc = {
        'shop-web': ('shop-web@docker', 'shop-web-shop@docker', ['172.18.0.7:3000', '172.18.0.8:3000'], 'shop.example'),
        'shop-api': ('shop-api@docker', 'shop-api-shop@docker', ['172.18.0.11:8080', '172.18.0.12:8080', '172.18.0.13:8080'], 'api.shop.example'),
        'grafana': ('grafana@docker', 'grafana-monitoring@docker', ['172.18.0.21:3000'], 'grafana.shop.example'),
    }
    reqcount = 48213
    for t in times(rnd, 470, 1, 3599):
        reqcount += 1
        ip = clients.pick()
        port = str(rnd.randint(1025, 65535))
        o = {'ClientAddr': '%s:%s' % (ip, port), 'ClientHost': ip, 'ClientPort': port, 'ClientUsername': '-'}
        r = rnd.random()
        method = 'GET'
        retry = 0
        if r < 0.05:  # plain http -> redirect router
            ep, scheme, host = 'web', 'http', rnd.choice(['shop.example', 'api.shop.example'])
            path = web_path(rnd)
            router, service, saddr, st, osz = 'http-catchall@docker', 'noop@internal', None, 308, 18
            dur = int(lognorm(rnd, 60000, 0.4))
            odur = None
        elif r < 0.08:  # scanner hitting an unknown host / path -> no router matched
            ep, scheme, host = 'websecure', 'https', rnd.choice(['203.0.113.80', 'old.shop.example', 'mail.shop.example'])
            path = rnd.choice(['/', '/.env', '/wp-login.php', '/.git/config', '/actuator/health', '/cgi-bin/luci'])
            router = service = saddr = None
            st, osz, dur, odur = 404, 19, int(lognorm(rnd, 45000, 0.4)), None
        else:
            ep, scheme = 'websecure', 'https'
            key = wchoice(rnd, [('shop-api', 55), ('shop-web', 42), ('grafana', 3)])
            router, service, addrs, host = svc[key]
            saddr = rnd.choice(addrs)
            if key == 'shop-api':
                method = wchoice(rnd, [('GET', 72), ('POST', 18), ('PUT', 4), ('DELETE', 6)])
                path = api_path(rnd, method).replace('/api/v1', '/v1')
                okc = {'GET': 200, 'POST': 201, 'PUT': 200, 'DELETE': 204}[method]
                st = wchoice(rnd, [(okc, 87), (400, 2), (401, 2.5), (404, 3), (409, 1), (500, 2), (502, 1.2), (503, 0.6), (504, 0.7)])
                odur = int(lognorm(rnd, 28e6, 0.9))
            elif key == 'shop-web':
                path = rnd.choice([web_path(rnd), static_path(rnd)])
                st = wchoice(rnd, [(200, 86), (304, 8), (404, 4), (500, 1), (502, 1)])
                odur = int(lognorm(rnd, 45e6, 0.7))
            else:
                path = rnd.choice(['/api/ds/query', '/api/dashboards/uid/k8s-overview', '/api/live/ws', '/public/build/app.js'])
                method = 'POST' if path == '/api/ds/query' else 'GET'
                st = 200
                odur = int(lognorm(rnd, 120e6, 0.6))
                o['ClientUsername'] = '-'
            osz = 0 if st in (204, 304) else rnd.randint(150, 60000)
            if st == 502:
                odur, osz = int(lognorm(rnd, 1.5e6, 0.5)), 11
                if rnd.random() < 0.6:
                    retry = rnd.randint(1, 3)
            if st == 504:
                odur, osz = 30000000000 + rnd.randint(100000, 9000000), 15
            if st == 503:
                osz, odur = 19, int(lognorm(rnd, 0.2e6, 0.3))
            dur = odur + int(lognorm(rnd, 90000, 0.5))
        o.update({'DownstreamContentSize': osz, 'DownstreamStatus': st, 'Duration': dur})
        if service and odur is not None:
            o.update({'OriginContentSize': osz, 'OriginDuration': odur, 'OriginStatus': st, 'Overhead': dur - odur})
        else:
            o['Overhead'] = dur
        rcs = rnd.randint(60, 4000) if method in ('POST', 'PUT') else 0
        proto = 'HTTP/2.0' if (scheme == 'https' and rnd.random() < 0.75) else 'HTTP/1.1'
        o.update({'RequestAddr': host, 'RequestContentSize': rcs, 'RequestCount': reqcount, 'RequestHost': host,
                  'RequestMethod': method, 'RequestPath': path, 'RequestPort': '-', 'RequestProtocol': proto,
                  'RequestScheme': scheme, 'RetryAttempts': retry})
        if router:
            o['RouterName'] = router
        if saddr:
            o['ServiceAddr'] = saddr
        if service:
            o['ServiceName'] = service
        if saddr:
            o['ServiceURL'] = {'Scheme': 'http', 'Opaque': '', 'User': None, 'Host': saddr, 'Path': '', 'RawPath': '',
                               'OmitHost': False, 'ForceQuery': False, 'RawQuery': '', 'Fragment': '', 'RawFragment': ''}
        ns = rnd.randint(0, 999)
        o['StartLocal'] = go_nano(t, ns)
        o['StartUTC'] = go_nano(t, ns)
        if scheme == 'https':
            o['TLSCipher'] = 'TLS_AES_128_GCM_SHA256'
            o['TLSVersion'] = '1.3'
        o['entryPointName'] = ep
        o['level'] = 'info'
        o['msg'] = ''
        endt = t + timedelta(microseconds=dur // 1000)
        o['time'] = endt.strftime('%Y-%m-%dT%H:%M:%SZ')
        o = {k: o[k] for k in sorted(o)}
        s.ev(jdump(o), **flatten(o))
    s.field('StartUTC', 'time', None, 'time')
    s.field('time', 'time')
    s.field('level', 'text', None, 'level')
    s.field('ClientHost', 'ip', None, 'client')
    s.field('ClientAddr', 'text')
    s.field('ClientUsername', 'text', None, 'user')
    s.field('RequestMethod', 'text', None, 'method')
    s.field('RequestHost', 'text', None, 'host')
    s.field('RequestPath', 'text', None, 'path')
    s.field('RequestProtocol', 'text')
    s.field('DownstreamStatus', 'number', None, 'status')
    s.field('OriginStatus', 'number')
    s.field('DownstreamContentSize', 'number', 'b', 'bytes')
    s.field('RequestContentSize', 'number', 'b')
    s.field('Duration', 'number', 'ns', 'duration')
    s.field('OriginDuration', 'number', 'ns')
    s.field('Overhead', 'number', 'ns')
    s.field('RouterName', 'text')
    s.field('ServiceName', 'text', None, 'upstream')
    s.field('ServiceAddr', 'text', None, 'upstream')
    s.field('entryPointName', 'text')
    s.field('RetryAttempts', 'number')
    s.fact('entries with DownstreamStatus >= 500', 'count', flt=F('DownstreamStatus', '>=', 500))
    s.fact('max Duration (ns)', 'max', 'Duration')
    s.fact('p95 (nearest-rank) of Duration in ns', 'p95', 'Duration')
    s.fact('distinct ClientHost', 'distinct', 'ClientHost')
    s.fact('entries with RetryAttempts > 0', 'count', flt=F('RetryAttempts', '>', 0))
    s.fact('entries without RouterName (no router matched)', 'count', flt=F('RouterName', 'not_exists'))
    return s


# ======================================================================= 5 Envoy
def gen_envoy():
    rnd = random.Random(105)
    s = Sample('envoy', 'Envoy JSON access log (json_format built from %START_TIME%, %RESPONSE_CODE%, %DURATION% ...; Istio-style keys, ingress gateway)')
    clients = Pool(rnd, public_ips(rnd, 50), 0.9)
    ups = {'orders': ['10.244.2.31:8080', '10.244.3.17:8080'], 'catalog': ['10.244.1.44:8080', '10.244.2.12:8080', '10.244.3.9:8080'],
           'payments': ['10.244.2.77:9090'], 'web': ['10.244.1.51:3000', '10.244.3.40:3000']}
    gw = '10.244.1.20'
    for t in times(rnd, 480, 1, 3599):
        ip = clients.pick()
        svc = wchoice(rnd, [('catalog', 40), ('orders', 25), ('web', 28), ('payments', 7)])
        authority = 'shop.example' if svc == 'web' else 'api.shop.example'
        if svc == 'web':
            method, path = 'GET', rnd.choice([web_path(rnd), static_path(rnd)])
        elif svc == 'catalog':
            method, path = 'GET', rnd.choice(['/v1/products?page=%d' % rnd.randint(1, 40), '/v1/products/%d' % rnd.randint(1000, 9999), '/v1/categories'])
        elif svc == 'orders':
            method = wchoice(rnd, [('GET', 60), ('POST', 35), ('DELETE', 5)])
            path = {'GET': '/v1/orders/%d' % rnd.randint(180000, 189999), 'POST': '/v1/orders', 'DELETE': '/v1/orders/%d' % rnd.randint(180000, 189999)}[method]
        else:
            method, path = 'POST', rnd.choice(['/v1/payments', '/v1/payments/%s/capture' % alnum(rnd, 12, string.ascii_lowercase + string.digits)])
        cluster = 'outbound|%d||%s.shop.svc.cluster.local' % (3000 if svc == 'web' else 9090 if svc == 'payments' else 8080, svc)
        route = svc + '-route'
        uhost = rnd.choice(ups[svc])
        flags, details, tfr = '-', 'via_upstream', None
        okc = 201 if method == 'POST' else (204 if method == 'DELETE' else 200)
        code = wchoice(rnd, [(okc, 85), (304, 3 if method == 'GET' else 0), (400, 2), (401, 2), (404, 3), (500, 1.5),
                             ('UF', 1.2), ('UT', 0.8), ('UH', 0.5), ('NR', 0.6), ('DC', 0.8)])
        dur = int(lognorm(rnd, 220 if svc == 'payments' else 25, 0.8))
        ust = str(max(0, dur - rnd.randint(0, 2)))
        sent = 0 if code in (204, 304) else rnd.randint(80, 30000)
        if code == 'UF':
            code, flags, details, tfr = 503, 'UF,URX', 'upstream_reset_before_response_started{connection_failure,delayed_connect_error:_111}', 'delayed_connect_error:_111'
            dur, ust, sent = rnd.randint(1, 60), None, 145
        elif code == 'UT':
            code, flags, details, ust, sent = 504, 'UT', 'response_timeout', None, 24
            dur = 15000 + rnd.randint(0, 3)
        elif code == 'UH':
            code, flags, details, ust, sent, dur, uhost = 503, 'UH', 'no_healthy_upstream', None, 19, 0, None
        elif code == 'NR':
            code, flags, details, ust, sent, dur, uhost, cluster, route = 404, 'NR', 'route_not_found', None, 0, 0, None, None, None
            path = rnd.choice(['/.env', '/wp-admin/setup-config.php', '/.git/HEAD', '/v2/_catalog', '/actuator/env'])
            method = 'GET'
            authority = rnd.choice(['api.shop.example', '203.0.113.80'])
        elif code == 'DC':
            code, flags, details, ust, sent = 0, 'DC', 'downstream_remote_disconnect', None, 0
            dur = rnd.randint(300, 9000)
        o = {
            'authority': authority,
            'bytes_received': rnd.randint(60, 3000) if method == 'POST' else 0,
            'bytes_sent': sent,
            'connection_termination_details': None,
            'downstream_local_address': '%s:8443' % gw,
            'downstream_remote_address': '%s:%d' % (ip, rnd.randint(1025, 65535)),
            'duration': dur,
            'method': method,
            'path': path,
            'protocol': wchoice(rnd, [('HTTP/2', 70), ('HTTP/1.1', 30)]),
            'request_id': uid(rnd),
            'requested_server_name': authority if not authority[0].isdigit() else None,
            'response_code': code,
            'response_code_details': details,
            'response_flags': flags,
            'route_name': route,
            'start_time': iso(t, 3),
            'upstream_cluster': cluster,
            'upstream_host': uhost,
            'upstream_local_address': ('%s:%d' % (gw, rnd.randint(32768, 60999))) if uhost and flags == '-' else None,
            'upstream_service_time': ust if flags == '-' and code != 0 else None,
            'upstream_transport_failure_reason': tfr,
            'user_agent': ua(rnd),
            'x_forwarded_for': ip,
        }
        s.ev(jdump(o), **o)
    s.field('start_time', 'time', None, 'time')
    s.field('method', 'text', None, 'method')
    s.field('path', 'text', None, 'path')
    s.field('authority', 'text', None, 'host')
    s.field('protocol', 'text')
    s.field('response_code', 'number', None, 'status')
    s.field('response_flags', 'text')
    s.field('response_code_details', 'text')
    s.field('bytes_received', 'number', 'b')
    s.field('bytes_sent', 'number', 'b', 'bytes')
    s.field('duration', 'number', 'ms', 'duration')
    s.field('upstream_service_time', 'number', 'ms')
    s.field('x_forwarded_for', 'ip', None, 'client')
    s.field('downstream_remote_address', 'text')
    s.field('upstream_host', 'text', None, 'upstream')
    s.field('upstream_cluster', 'text', None, 'upstream')
    s.field('user_agent', 'text')
    s.field('request_id', 'text')
    s.fact('entries with response_code >= 500', 'count', flt=F('response_code', '>=', 500))
    s.fact("entries with response_flags other than '-'", 'count', flt=F('response_flags', '!=', '-'))
    s.fact('max duration (ms)', 'max', 'duration')
    s.fact('p95 (nearest-rank) of duration in ms', 'p95', 'duration')
    s.fact('distinct x_forwarded_for', 'distinct', 'x_forwarded_for')
    s.fact('entries with response_code 0 (downstream disconnect before response)', 'count', flt=F('response_code', '==', 0))
    return s


# ======================================================================= 6 PostgreSQL
def gen_postgres():
    rnd = random.Random(106)
    s = Sample('postgresql', "PostgreSQL 16 stderr log, log_line_prefix = '%m [%p] %q%u@%d ', log_min_duration_statement = 250ms, log_connections/log_disconnections/log_checkpoints on")
    tl = TL()

    def add(t, pid, ud, sev, msg, dur=None):
        ts = t.strftime('%Y-%m-%d %H:%M:%S') + '.%03d UTC' % (t.microsecond // 1000)
        text = '%s [%d] %s%s:  %s' % (ts, pid, (ud + ' ') if ud else '', sev, msg.replace('\n', '\n\t'))
        user, db = ud.split('@') if ud else (None, None)
        tl.add(t, text, timestamp=ts, pid=pid, user=user, dbname=db, error_severity=sev, message=msg, duration=dur)

    def grp(t, pid, ud, parts):
        for sev, msg in parts:
            add(t, pid, ud, sev, msg)

    app = 'shop_app@shop'
    pool = [41230, 41231, 41233, 41236, 41238, 41240, 41244, 41251]
    appq = [
        ('SELECT o.id, o.status, o.total_cents, o.created_at FROM orders o WHERE o.customer_id = $1 ORDER BY o.created_at DESC LIMIT 20', lambda: ["'%d'" % rnd.randint(1000, 99999)]),
        ('UPDATE inventory SET reserved = reserved + $1, updated_at = now() WHERE sku = $2', lambda: ["'%d'" % rnd.randint(1, 3), "'SKU-%d'" % rnd.randint(1000, 9999)]),
        ('SELECT p.id, p.sku, p.name, p.price_cents FROM products p JOIN product_categories pc ON pc.product_id = p.id WHERE pc.category_id = $1 AND p.active ORDER BY p.popularity DESC LIMIT 24 OFFSET $2', lambda: ["'%d'" % rnd.randint(1, 40), "'%d'" % (24 * rnd.randint(0, 30))]),
        ('INSERT INTO order_events (order_id, kind, payload) VALUES ($1, $2, $3)', lambda: ["'%d'" % rnd.randint(180000, 189999), "'" + rnd.choice(['created', 'paid', 'shipped']) + "'", "'{\"source\": \"api\"}'"]),
        ('SELECT c.id, c.customer_id, ci.sku, ci.qty FROM carts c LEFT JOIN cart_items ci ON ci.cart_id = c.id WHERE c.session_id = $1', lambda: ["'%s'" % hexs(rnd, 32)]),
        ('SELECT count(*) FROM orders WHERE status = $1 AND created_at > $2', lambda: ["'pending'", "'2031-04-30 02:00:00+00'"]),
        ('UPDATE orders SET status = $1, updated_at = now() WHERE id = $2', lambda: ["'paid'", "'%d'" % rnd.randint(180000, 189999)]),
    ]
    for t in times(rnd, 105, 5, 3595):
        pid = rnd.choice(pool)
        if rnd.random() < 0.1:
            d = float('%.3f' % max(250.2 + rnd.random() * 30, lognorm(rnd, 330, 0.3)))
            add(t, pid, app, 'LOG', 'duration: %.3f ms  statement: COMMIT' % d, d)
            continue
        sql, params = rnd.choice(appq)
        d = float('%.3f' % max(250.5 + rnd.random(), lognorm(rnd, 420, 0.55)))
        add(t, pid, app, 'LOG', 'duration: %.3f ms  execute <unnamed>: %s' % (d, sql), d)
        ps = params()
        add(t, pid, app, 'DETAIL', 'parameters: ' + ', '.join('$%d = %s' % (i + 1, p) for i, p in enumerate(ps)))
    # app errors
    errs = [
        lambda: [('ERROR', 'duplicate key value violates unique constraint "cart_items_cart_id_sku_key"'),
                 ('DETAIL', 'Key (cart_id, sku)=(%d, SKU-%d) already exists.' % (rnd.randint(80000, 99999), rnd.randint(1000, 9999))),
                 ('STATEMENT', 'INSERT INTO cart_items (cart_id, sku, qty) VALUES ($1, $2, $3)')],
        lambda: [('ERROR', 'canceling statement due to statement timeout'),
                 ('STATEMENT', 'SELECT p.id, p.sku, p.name, p.price_cents FROM products p WHERE p.name ILIKE $1 ORDER BY p.popularity DESC LIMIT 24')],
        lambda: [('ERROR', 'insert or update on table "order_items" violates foreign key constraint "order_items_product_id_fkey"'),
                 ('DETAIL', 'Key (product_id)=(%d) is not present in table "products".' % rnd.randint(10000, 99999)),
                 ('STATEMENT', 'INSERT INTO order_items (order_id, product_id, qty, price_cents) VALUES ($1, $2, $3, $4)')],
        lambda: [('ERROR', 'could not serialize access due to concurrent update'),
                 ('STATEMENT', 'UPDATE inventory SET reserved = reserved + $1, updated_at = now() WHERE sku = $2')],
    ]
    for t in times(rnd, 16, 60, 3500):
        grp(t, rnd.choice(pool), app, rnd.choice(errs)())
    td = at(1712.48)
    a, b = 41233, 41240
    grp(td, a, app, [
        ('ERROR', 'deadlock detected'),
        ('DETAIL', 'Process %d waits for ShareLock on transaction 91822311; blocked by process %d.\nProcess %d waits for ShareLock on transaction 91822309; blocked by process %d.\n'
                   'Process %d: UPDATE inventory SET reserved = reserved + $1, updated_at = now() WHERE sku = $2\nProcess %d: UPDATE inventory SET reserved = reserved + $1, updated_at = now() WHERE sku = $2' % (a, b, b, a, a, b)),
        ('HINT', 'See server log for query details.'),
        ('CONTEXT', 'while updating tuple (1532,17) in relation "inventory"'),
        ('STATEMENT', 'UPDATE inventory SET reserved = reserved + $1, updated_at = now() WHERE sku = $2')])
    for t in times(rnd, 3, 100, 3500):
        add(t, rnd.choice(pool), app, 'LOG', 'could not receive data from client: Connection reset by peer')
    # reporting sessions (metabase), simple protocol, multi-line SQL
    rep = [
        "SELECT date_trunc('hour', o.created_at) AS hour,\n       count(*) AS orders,\n       sum(o.total_cents) / 100.0 AS revenue\nFROM orders o\nWHERE o.created_at >= now() - interval '24 hours'\nGROUP BY 1\nORDER BY 1",
        "SELECT p.sku, p.name, sum(oi.qty) AS units\nFROM order_items oi\nJOIN products p ON p.id = oi.product_id\nJOIN orders o ON o.id = oi.order_id\nWHERE o.created_at >= date_trunc('week', now())\nGROUP BY p.sku, p.name\nORDER BY units DESC\nLIMIT 50",
        "SELECT c.country, count(DISTINCT o.customer_id) AS buyers, avg(o.total_cents) AS aov\nFROM orders o JOIN customers c ON c.id = o.customer_id\nWHERE o.status IN ('paid', 'shipped')\nGROUP BY c.country",
    ]
    rpid = 51200
    for k in range(6):
        t0 = at(170 + k * 600 + rnd.uniform(0, 30))
        rpid += rnd.randint(40, 900)
        port = rnd.randint(40000, 60000)
        add(t0, rpid, '[unknown]@[unknown]', 'LOG', 'connection received: host=10.0.4.12 port=%d' % port)
        add(t0 + timedelta(milliseconds=9), rpid, 'reporting@shop', 'LOG', 'connection authorized: user=reporting database=shop application_name=Metabase v0.49.7 SSL enabled (protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)')
        t = t0 + timedelta(milliseconds=40)
        for q in rnd.sample(rep, rnd.randint(1, 3)):
            d = float('%.3f' % lognorm(rnd, 4200, 0.8))
            t += timedelta(milliseconds=d)
            if d > 6000 and rnd.random() < 0.6:
                add(t - timedelta(milliseconds=3), rpid, 'reporting@shop', 'LOG', 'temporary file: path "base/pgsql_tmp/pgsql_tmp%d.0", size %d' % (rpid, rnd.choice([134217728, 268435456, 87162880])))
                add(t - timedelta(milliseconds=3), rpid, 'reporting@shop', 'STATEMENT', q)
            add(t, rpid, 'reporting@shop', 'LOG', 'duration: %.3f ms  statement: %s' % (d, q), d)
            t += timedelta(milliseconds=rnd.randint(50, 900))
        st = t - t0
        add(t, rpid, 'reporting@shop', 'LOG', 'disconnection: session time: 0:%02d:%06.3f user=reporting database=shop host=10.0.4.12 port=%d' % (st.seconds // 60, st.seconds % 60 + st.microseconds / 1e6, port))
    # admin psql session
    apid, port = 53877, 50122
    t = at(1402.2)
    add(t, apid, '[unknown]@[unknown]', 'LOG', 'connection received: host=10.0.0.5 port=%d' % port)
    add(t + timedelta(milliseconds=12), apid, 'postgres@shop', 'LOG', 'connection authorized: user=postgres database=shop application_name=psql SSL enabled (protocol=TLSv1.3, cipher=TLS_AES_256_GCM_SHA384, bits=256)')
    t2 = t + timedelta(seconds=21.4)
    grp(t2, apid, 'postgres@shop', [('ERROR', 'syntax error at or near "FORM" at character 10'), ('STATEMENT', 'select * FORM orders order by id desc limit 5;')])
    t3 = t + timedelta(seconds=48.9)
    grp(t3, apid, 'postgres@shop', [('ERROR', 'relation "order_itmes" does not exist at character 22'), ('STATEMENT', 'select count(*) from order_itmes where order_id = 184211;')])
    d = 5312.771
    add(t + timedelta(seconds=95.2), apid, 'postgres@shop', 'LOG', 'duration: %.3f ms  statement: select status, count(*) from orders group by status;' % d, d)
    add(t + timedelta(seconds=140.7), apid, 'postgres@shop', 'WARNING', 'there is no transaction in progress')
    add(t + timedelta(seconds=431.345), apid, 'postgres@shop', 'LOG', 'disconnection: session time: 0:07:11.345 user=postgres database=shop host=10.0.0.5 port=%d' % port)
    # brute force from the internet
    bpid = 60010
    for t in times(rnd, 7, 2400, 2460):
        bpid += rnd.randint(1, 9)
        port = rnd.randint(30000, 65000)
        add(t, bpid, '[unknown]@[unknown]', 'LOG', 'connection received: host=198.51.100.77 port=%d' % port)
        u = rnd.choice(['postgres', 'postgres', 'admin', 'root'])
        if u == 'postgres':
            grp(t + timedelta(milliseconds=4), bpid, 'postgres@postgres', [
                ('FATAL', 'password authentication failed for user "postgres"'),
                ('DETAIL', 'Connection matched file "/etc/postgresql/16/main/pg_hba.conf" line 102: "hostssl all             all             0.0.0.0/0               scram-sha-256"')])
        else:
            add(t + timedelta(milliseconds=2), bpid, '%s@postgres' % u, 'FATAL', 'no pg_hba.conf entry for host "198.51.100.77", user "%s", database "postgres", no encryption' % u)
    # checkpoints, every checkpoint_timeout (5 min)
    lsn = 0x41C0125A0
    for k in range(12):
        t0 = at(47.2 + 300 * k + rnd.uniform(0, 0.3))
        add(t0, 58, None, 'LOG', 'checkpoint starting: time')
        w = rnd.randint(900, 4200)
        write = 269.8 + rnd.random() * 0.2
        sync = rnd.randint(3, 40) / 1000
        tot = write + sync + rnd.randint(5, 60) / 1000
        dist = rnd.randint(18000, 52000)
        redo = lsn + rnd.randint(1000, 9000)
        lsn += dist * 1024
        add(t0 + timedelta(seconds=tot), 58, None, 'LOG',
            'checkpoint complete: wrote %d buffers (%.1f%%); 0 WAL file(s) added, 0 removed, %d recycled; write=%.3f s, sync=%.3f s, total=%.3f s; sync files=%d, longest=%.3f s, average=%.3f s; distance=%d kB, estimate=%d kB; lsn=%X/%08X, redo lsn=%X/%08X'
            % (w, w / 163.84, rnd.randint(0, 3), write, sync, tot, rnd.randint(20, 70), sync / 3, 0.001, dist, dist + rnd.randint(0, 9000), lsn >> 32, lsn & 0xFFFFFFFF, redo >> 32, redo & 0xFFFFFFFF))
    # autovacuum (not a client session: %q cuts the prefix after [pid])
    for k, (tbl, idx) in enumerate([('carts', ['carts_pkey', 'carts_session_id_idx']),
                                    ('order_events', ['order_events_pkey', 'order_events_order_id_idx']),
                                    ('cart_items', ['cart_items_pkey', 'cart_items_cart_id_sku_key'])]):
        t = at(900 + k * 1000 + rnd.uniform(0, 200))
        rem = rnd.randint(40000, 900000)
        pages = rnd.randint(2000, 20000)
        sc = rnd.randint(300, pages // 2)
        lines = ['automatic vacuum of table "shop.public.%s": index scans: 1' % tbl,
                 'pages: 0 removed, %d remain, %d scanned (%.2f%% of total)' % (pages, sc, 100.0 * sc / pages),
                 'tuples: %d removed, %d remain, %d are dead but not yet removable' % (rnd.randint(1000, 20000), rem, rnd.randint(0, 30)),
                 'removable cutoff: %d, which was %d XIDs old when operation ended' % (91822000 + rnd.randint(0, 500), rnd.randint(1, 12)),
                 'new relfrozenxid: %d, which is %d XIDs ahead of previous value' % (91211003 + rnd.randint(0, 400000), rnd.randint(100000, 700000)),
                 'frozen: %d pages from table (%.2f%% of total) had %d tuples frozen' % (rnd.randint(10, 200), rnd.random() * 3, rnd.randint(100, 5000)),
                 'index scan needed: %d pages from table (%.2f%% of total) had %d dead item identifiers removed' % (rnd.randint(100, 900), rnd.random() * 20, rnd.randint(1000, 9000))]
        for ix in idx:
            lines.append('index "%s": pages: %d in total, %d newly deleted, %d currently deleted, 0 reusable' % (ix, rnd.randint(200, 3000), 0, 0))
        lines += ['I/O timings: read: 0.000 ms, write: 0.000 ms',
                  'avg read rate: %.3f MB/s, avg write rate: %.3f MB/s' % (rnd.random() * 9, rnd.random() * 4),
                  'buffer usage: %d hits, %d misses, %d dirtied' % (rnd.randint(5000, 40000), rnd.randint(10, 900), rnd.randint(10, 400)),
                  'WAL usage: %d records, %d full page images, %d bytes' % (rnd.randint(1000, 9000), rnd.randint(10, 400), rnd.randint(300000, 3000000)),
                  'system usage: CPU: user: %.2f s, system: %.2f s, elapsed: %.2f s' % (rnd.random() * 0.4, rnd.random() * 0.05, 0.4 + rnd.random() * 2)]
        add(t, 70011 + k * 37, None, 'LOG', '\n'.join(lines))
        add(t + timedelta(seconds=1.9), 70011 + k * 37, None, 'LOG',
            'automatic analyze of table "shop.public.%s"\navg read rate: %.3f MB/s, avg write rate: %.3f MB/s\nbuffer usage: %d hits, %d misses, %d dirtied\nsystem usage: CPU: user: %.2f s, system: %.2f s, elapsed: %.2f s'
            % (tbl, rnd.random() * 20, rnd.random(), rnd.randint(2000, 9000), rnd.randint(10, 400), rnd.randint(0, 20), rnd.random() * 0.3, 0.0, 0.2 + rnd.random()))
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('pid', 'number', None, 'pid')
    s.field('user', 'text', None, 'user')
    s.field('dbname', 'text')
    s.field('error_severity', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('duration', 'number', 'ms', 'duration')
    s.fact("events with error_severity 'ERROR'", 'count', flt=F('error_severity', '==', 'ERROR'))
    s.fact("events with error_severity 'FATAL'", 'count', flt=F('error_severity', '==', 'FATAL'))
    s.fact('max duration (ms) over duration: lines', 'max', 'duration')
    s.fact('p95 (nearest-rank) of duration in ms over duration: lines', 'p95', 'duration')
    s.fact('duration: lines with duration >= 1000 ms', 'count', flt=F('duration', '>=', 1000))
    s.fact('distinct pid', 'distinct', 'pid')
    return s


# ======================================================================= 7 MySQL slow log
def gen_mysql():
    rnd = random.Random(107)
    s = Sample('mysql_slow', 'MySQL 8.0 slow query log (log_output=FILE, long_query_time=1)', 'mysql-slow.log')
    s.raw('/usr/sbin/mysqld, Version: 8.0.36 (MySQL Community Server - GPL). started with:\n'
          'Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock\n'
          'Time                 Id Command    Argument')
    appips = ['10.0.2.15', '10.0.2.16', '10.0.2.17', '10.0.2.18']
    app_ids = {ip: [rnd.randint(2100, 2400) for _ in range(4)] for ip in appips}
    appq = [
        ('shop', "SELECT o.id, o.status, o.total_cents, o.created_at FROM orders o WHERE o.customer_id = %d ORDER BY o.created_at DESC LIMIT 20;", 20, (200000, 900000)),
        ('shop', "SELECT p.id, p.sku, p.name, p.price_cents FROM products p WHERE p.name LIKE '%%%s%%' AND p.active = 1 ORDER BY p.popularity DESC LIMIT 24;", 24, (150000, 160000)),
        ('shop', "UPDATE inventory SET reserved = reserved + 1 WHERE sku = 'SKU-%d';", 0, (1, 1)),
        ('shop', "SELECT COUNT(*) FROM cart_items ci JOIN carts c ON c.id = ci.cart_id WHERE c.updated_at < NOW() - INTERVAL 30 DAY;", 1, (1800000, 2400000)),
        ('shop', "DELETE FROM sessions WHERE expires_at < %d LIMIT 5000;", 0, (5000, 5000)),
    ]
    repq = [
        "SELECT DATE(o.created_at) AS day,\n       COUNT(*) AS orders,\n       SUM(o.total_cents) / 100 AS revenue\nFROM orders o\nWHERE o.created_at >= NOW() - INTERVAL 30 DAY\nGROUP BY DATE(o.created_at)\nORDER BY day;",
        "SELECT p.sku, p.name, SUM(oi.qty) AS units\nFROM order_items oi\n  JOIN products p ON p.id = oi.product_id\n  JOIN orders o ON o.id = oi.order_id\nWHERE o.created_at >= '2031-04-01'\nGROUP BY p.sku, p.name\nORDER BY units DESC\nLIMIT 100;",
        "SELECT c.country, COUNT(DISTINCT o.customer_id) AS buyers\nFROM orders o JOIN customers c ON c.id = o.customer_id\nGROUP BY c.country;",
    ]
    last_db = None
    entries = []
    for t in times(rnd, 52, 40, 3580):
        r = rnd.random()
        if r < 0.68:
            ip = rnd.choice(appips)
            user, host, tid = 'shop_app', ip, rnd.choice(app_ids[ip])
            db, q, sent, ex = rnd.choice(appq)
            if '%s' in q:
                q = q % rnd.choice(['shoe', 'cable', 'bag', 'mug'])
            elif '%d' in q:
                q = q % rnd.randint(1000, 99999)
            qt = max(1.0 + rnd.random() * 0.1, lognorm(rnd, 1.6, 0.5))
            rs = sent if sent != 20 else rnd.randint(0, 20)
            rx = rnd.randint(*ex)
            lock = rnd.randint(2, 200) / 1e6
            if q.startswith('UPDATE'):
                lock = qt - rnd.random() * 0.01
                rx = 1
        elif r < 0.86:
            user, host, tid = 'reporting', '10.0.4.12', 3811 + rnd.randint(0, 5)
            db, q = 'shop', rnd.choice(repq)
            qt = lognorm(rnd, 6.5, 0.7)
            rs, rx, lock = rnd.randint(3, 400), rnd.randint(1500000, 9000000), rnd.randint(50, 400) / 1e6
        elif r < 0.93:
            user, host, tid = 'root', None, 8
            db, q = rnd.choice([('shop', 'ALTER TABLE order_events ADD INDEX idx_created_at (created_at);'),
                                ('shop', 'OPTIMIZE TABLE sessions;'),
                                ('information_schema', "SELECT table_schema, ROUND(SUM(data_length + index_length) / 1024 / 1024, 1) AS mb FROM information_schema.tables GROUP BY table_schema;")])
            qt = lognorm(rnd, 14, 0.6)
            rs, rx, lock = (0, 0, 0.000412) if not q.startswith('SELECT') else (7, 1211, 0.000001)
        else:
            user, host, tid = 'backup', None, 9121
            db = 'shop'
            q = 'SELECT /*!40001 SQL_NO_CACHE */ * FROM `%s`;' % rnd.choice(['orders', 'order_items', 'order_events'])
            qt = lognorm(rnd, 9, 0.4)
            rs = rx = rnd.randint(900000, 4000000)
            lock = 0.0
        qt = float('%.6f' % qt)
        lock = float('%.6f' % max(0.0, lock))
        start = t - timedelta(seconds=qt)
        uh = '%s[%s] @ %s [%s]' % (user, user, 'localhost' if host is None else '', host or '')
        lines = ['# Time: ' + iso(t, 6), '# User@Host: %s  Id: %5d' % (uh, tid),
                 '# Query_time: %.6f  Lock_time: %.6f Rows_sent: %d  Rows_examined: %d' % (qt, lock, rs, rx)]
        if db != last_db:
            lines.append('use %s;' % db)
            last_db = db
        lines.append('SET timestamp=%d;' % int(epoch(start)))
        lines.append(q)
        s.ev('\n'.join(lines), Time=iso(t, 6), user=user, host=host or 'localhost', Id=tid, Query_time=qt, Lock_time=lock,
             Rows_sent=rs, Rows_examined=rx, db=db, query=q)
    s.field('Time', 'time', None, 'time')
    s.field('user', 'text', None, 'user')
    s.field('host', 'ip', None, 'client')
    s.field('Id', 'number', None, 'thread')
    s.field('Query_time', 'number', 's', 'duration')
    s.field('Lock_time', 'number', 's')
    s.field('Rows_sent', 'number')
    s.field('Rows_examined', 'number')
    s.field('db', 'text')
    s.field('query', 'text', None, 'message')
    s.fact('max Query_time (s)', 'max', 'Query_time')
    s.fact('p95 (nearest-rank) of Query_time in s', 'p95', 'Query_time')
    s.fact('sum of Rows_examined', 'sum', 'Rows_examined')
    s.fact("distinct client host (User@Host host/IP part, 'localhost' when local)", 'distinct', 'host')
    s.fact('entries with Query_time >= 10 s', 'count', flt=F('Query_time', '>=', 10))
    return s


# ======================================================================= 8 Redis
def gen_redis():
    rnd = random.Random(108)
    s = Sample('redis', 'Redis 7.2 server log (logfile, loglevel notice)', 'redis-server.log')
    tl = TL()

    def add(t, pid, role, lvl, msg):
        ts = '%02d %s %d %s.%03d' % (t.day, MON[t.month - 1], t.year, t.strftime('%H:%M:%S'), t.microsecond // 1000)
        tl.add(t, '%d:%s %s %s %s' % (pid, role, ts, lvl, msg), pid=pid, role=role, timestamp=ts, level=lvl, message=msg)

    t = at(0.412)
    add(t, 1, 'C', '#', "WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition. Being disabled, it can also cause failures without low memory condition, see https://github.com/jemalloc/jemalloc/issues/1328. To fix this issue add 'vm.overcommit_memory = 1' to /etc/sysctl.conf and then reboot or run the command 'sysctl vm.overcommit_memory=1' for this to take effect.")
    add(t, 1, 'C', '*', 'oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo')
    add(t, 1, 'C', '*', 'Redis version=7.2.4, bits=64, commit=00000000, modified=0, pid=1, just started')
    add(t, 1, 'C', '*', 'Configuration loaded')
    t = at(0.413)
    add(t, 1, 'M', '*', 'monotonic clock: POSIX clock_gettime')
    add(t, 1, 'M', '*', 'Running mode=standalone, port=6379.')
    add(t, 1, 'M', '#', 'WARNING: The TCP backlog setting of 511 cannot be enforced because /proc/sys/net/core/somaxconn is set to the lower value of 128.')
    add(at(0.414), 1, 'M', '*', 'Server initialized')
    add(at(0.414), 1, 'M', '*', 'Loading RDB produced by version 7.2.4')
    add(at(0.414), 1, 'M', '*', 'RDB age 38 seconds')
    add(at(0.414), 1, 'M', '*', 'RDB memory usage when created 412.37 Mb')
    add(at(3.829), 1, 'M', '*', 'Done loading RDB, keys loaded: 1843320, keys expired: 2211.')
    add(at(3.829), 1, 'M', '*', 'DB loaded from disk: 3.415 seconds')
    add(at(3.829), 1, 'M', '*', 'Ready to accept connections tcp')
    child = 20
    tsave = 64.213
    fail_at = 7
    k = 0
    while tsave < 3590:
        k += 1
        t = at(tsave)
        add(t, 1, 'M', '*', '10000 changes in 60 seconds. Saving...')
        child += rnd.randint(2, 30)
        add(t + timedelta(milliseconds=rnd.randint(8, 30)), 1, 'M', '*', 'Background saving started by pid %d' % child)
        dt = rnd.uniform(2.5, 5.5)
        if k == fail_at:
            add(t + timedelta(seconds=dt), child, 'C', '#', 'Write error saving DB on disk: No space left on device')
            add(t + timedelta(seconds=dt + 0.1), 1, 'M', '#', 'Background saving error')
            tsave += dt + 5.2
            continue
        add(t + timedelta(seconds=dt), child, 'C', '*', 'DB saved on disk')
        cur = rnd.randint(2, 14)
        add(t + timedelta(seconds=dt + 0.002), child, 'C', '*', 'Fork CoW for RDB: current %d MB, peak %d MB, average %d MB' % (cur, cur + rnd.randint(0, 3), max(1, cur // 2)))
        add(t + timedelta(seconds=dt + 0.1), 1, 'M', '*', 'Background saving terminated with success')
        tsave += dt + 55 + rnd.uniform(0, 5)
    # replica full sync
    t = at(731.2)
    rep = '10.0.3.12:6379'
    add(t, 1, 'M', '*', 'Replica %s asks for synchronization' % rep)
    add(t, 1, 'M', '*', "Full resync requested by replica %s" % rep)
    add(t, 1, 'M', '*', "Replication backlog created, my new replication IDs are '%s' and '0000000000000000000000000000000000000000'" % hexs(rnd, 40))
    add(t, 1, 'M', '*', 'Delay next BGSAVE for diskless SYNC')
    t += timedelta(seconds=5.001)
    add(t, 1, 'M', '*', 'Starting BGSAVE for SYNC with target: replicas sockets')
    add(t, 1, 'M', '*', 'Background RDB transfer started by pid 233')
    add(t + timedelta(seconds=6.2), 233, 'C', '*', 'Fork CoW for RDB: current 9 MB, peak 9 MB, average 5 MB')
    add(t + timedelta(seconds=6.21), 1, 'M', '*', 'Diskless rdb transfer, done reading from pipe, 1 replicas still up.')
    add(t + timedelta(seconds=6.3), 1, 'M', '*', 'Background RDB transfer terminated with success')
    add(t + timedelta(seconds=6.3), 1, 'M', '*', 'Streamed RDB transfer with replica %s succeeded (socket). Waiting for REPLCONF ACK from replica to enable streaming' % rep)
    add(t + timedelta(seconds=6.7), 1, 'M', '*', 'Synchronization with replica %s succeeded' % rep)
    t = at(2481.9)
    add(t, 1, 'M', '*', 'Connection with replica %s lost.' % rep)
    add(t + timedelta(seconds=3.4), 1, 'M', '*', 'Replica %s asks for synchronization' % rep)
    add(t + timedelta(seconds=3.4), 1, 'M', '*', 'Partial resynchronization request from %s accepted. Sending 48213 bytes of backlog starting from offset 912834211.' % rep)
    for t in times(rnd, 3, 1000, 3500):
        add(t, 1, 'M', '#', 'Possible SECURITY ATTACK detected. It looks like somebody is sending POST or Host: commands to Redis. This is likely due to an attacker attempting to use Cross Protocol Scripting to compromise your Redis instance. Connection from %s:%d aborted.' % (rnd.choice(public_ips(rnd, 3)), rnd.randint(30000, 65000)))
    for t in times(rnd, 2, 1500, 3300):
        add(t, 1, 'M', '#', 'Client id=%d addr=10.0.2.%d:%d laddr=10.0.3.10:6379 fd=%d name=notifier age=%d idle=0 flags=P db=0 sub=0 psub=3 ssub=0 multi=-1 watch=0 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=%d omem=%d tot-mem=%d events=rw cmd=psubscribe user=default redir=-1 resp=2 lib-name=redis-py lib-ver=5.0.4 closed for overcoming of output buffer limits.'
            % (rnd.randint(3000, 9000), rnd.randint(10, 99), rnd.randint(30000, 60000), rnd.randint(12, 90), rnd.randint(100, 3000), rnd.randint(900, 4000), 33554432 + rnd.randint(0, 99999), 33600000 + rnd.randint(0, 99999)))
    tl.flush(s)
    s.field('pid', 'number', None, 'pid')
    s.field('role', 'text')
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.fact("events at warning level ('#')", 'count', flt=F('level', '==', '#'))
    s.fact("events with role 'C' (child process)", 'count', flt=F('role', '==', 'C'))
    s.fact("events whose message is 'Background saving terminated with success'", 'count', flt=F('message', '==', 'Background saving terminated with success'))
    s.fact('distinct pid', 'distinct', 'pid')
    s.fact("events with role 'M' (master)", 'count', flt=F('role', '==', 'M'))
    return s


# ======================================================================= 9 MongoDB
def gen_mongodb():
    rnd = random.Random(109)
    s = Sample('mongodb', 'MongoDB 6.0 structured JSON log (mongod --logpath, relaxed Extended JSON, one object per line)', 'mongod.log')
    tl = TL()

    def add(t, sev, comp, id_, ctx, msg, attr=None, tags=None):
        d = iso(t, 3, '+00:00')
        line = '{"t":{"$date":"%s"},"s":%s"c":%s"id":%s"ctx":%s,"msg":%s' % (
            d, ('"%s",' % sev).ljust(6), ('"%s",' % comp).ljust(12), ('%d,' % id_).ljust(9), jdump(ctx), jdump(msg))
        obj = {'t': d, 's': sev, 'c': comp, 'id': id_, 'ctx': ctx, 'msg': msg}
        if attr is not None:
            line += ',"attr":' + jdump(attr)
            obj['attr'] = attr
        if tags:
            line += ',"tags":' + jdump(tags)
            obj['tags'] = tags
        line += '}'
        tl.add(t, line, **flatten(obj))

    def uu():
        return {'uuid': {'$uuid': uid(rnd)}}

    st = [
        ('I', 'NETWORK', 4915701, '-', 'Initialized wire specification', {'spec': {'incomingExternalClient': {'minWireVersion': 0, 'maxWireVersion': 17}, 'incomingInternalClient': {'minWireVersion': 0, 'maxWireVersion': 17}, 'outgoing': {'minWireVersion': 6, 'maxWireVersion': 17}, 'isInternalClient': True}}, None),
        ('I', 'CONTROL', 23285, '-', "Automatically disabling TLS 1.0, to force-enable TLS 1.0 specify --sslDisabledProtocols 'none'", None, None),
        ('I', 'NETWORK', 4648601, 'main', 'Implicit TCP FastOpen unavailable. If TCP FastOpen is required, set tcpFastOpenServer, tcpFastOpenClient, and tcpFastOpenQueueSize.', None, None),
        ('I', 'REPL', 5123008, 'main', 'Successfully registered PrimaryOnlyService', {'service': 'TenantMigrationDonorService', 'namespace': 'config.tenantMigrationDonors'}, None),
        ('I', 'CONTROL', 5945603, 'main', 'Multi threading initialized', None, None),
        ('I', 'CONTROL', 4615611, 'initandlisten', 'MongoDB starting', {'pid': 1, 'port': 27017, 'dbPath': '/data/db', 'architecture': '64-bit', 'host': 'mongo-0'}, None),
        ('I', 'CONTROL', 23403, 'initandlisten', 'Build Info', {'buildInfo': {'version': '6.0.14', 'gitVersion': '25225db95574916fecab3af75b184409f8713aef', 'openSSLVersion': 'OpenSSL 3.0.2 15 Mar 2022', 'modules': [], 'allocator': 'tcmalloc', 'environment': {'distmod': 'ubuntu2204', 'distarch': 'x86_64', 'target_arch': 'x86_64'}}}, None),
        ('I', 'CONTROL', 51765, 'initandlisten', 'Operating System', {'os': {'name': 'Ubuntu', 'version': '22.04'}}, None),
        ('I', 'CONTROL', 21951, 'initandlisten', 'Options set by command line', {'options': {'net': {'bindIp': '*'}, 'security': {'authorization': 'enabled'}, 'storage': {'dbPath': '/data/db'}}}, None),
        ('I', 'STORAGE', 22270, 'initandlisten', 'Storage engine to use detected by data files', {'dbpath': '/data/db', 'storageEngine': 'wiredTiger'}, None),
        ('I', 'STORAGE', 22315, 'initandlisten', 'Opening WiredTiger', {'config': 'create,cache_size=7616M,session_max=33000,eviction=(threads_min=4,threads_max=4),config_base=false,statistics=(fast),log=(enabled=true,remove=true,path=journal,compressor=snappy),builtin_extension_config=(zstd=(compression_level=6)),file_manager=(close_idle_time=600,close_scan_interval=10,close_handle_minimum=2000),statistics_log=(wait=0),json_output=(error,message),verbose=[recovery_progress:1,checkpoint_progress:1,compact_progress:1,backup:0,checkpoint:0,compact:0,evict:0,history_store:0,recovery:0,rts:0,salvage:0,tiered:0,timestamp:0,transaction:0,verify:0,log:0],'}, None),
        ('I', 'STORAGE', 4795906, 'initandlisten', 'WiredTiger opened', {'durationMillis': 812}, None),
        ('I', 'RECOVERY', 23987, 'initandlisten', 'WiredTiger recoveryTimestamp', {'recoveryTimestamp': {'$timestamp': {'t': 0, 'i': 0}}}, None),
        ('W', 'CONTROL', 22178, 'initandlisten', "/sys/kernel/mm/transparent_hugepage/enabled is 'always'. We suggest setting it to 'never'", None, ['startupWarnings']),
        ('W', 'CONTROL', 5123300, 'initandlisten', 'vm.max_map_count is too low', {'currentValue': 65530, 'recommendedMinimum': 1677720, 'maxConns': 838860}, ['startupWarnings']),
        ('I', 'NETWORK', 4915702, 'initandlisten', 'Updated wire specification', {'oldSpec': {'incomingInternalClient': {'minWireVersion': 0, 'maxWireVersion': 17}}, 'newSpec': {'incomingInternalClient': {'minWireVersion': 17, 'maxWireVersion': 17}}}, None),
        ('I', 'REPL', 5853300, 'initandlisten', 'current featureCompatibilityVersion value', {'featureCompatibilityVersion': '6.0', 'context': 'startup'}, None),
        ('I', 'STORAGE', 5071100, 'initandlisten', 'Clearing temp directory', None, None),
        ('I', 'CONTROL', 20536, 'initandlisten', 'Flow Control is enabled on this deployment', None, None),
        ('I', 'FTDC', 20625, 'initandlisten', 'Initializing full-time diagnostic data capture', {'dataDirectory': '/data/db/diagnostic.data'}, None),
        ('I', 'STORAGE', 22262, 'initandlisten', 'Timestamp monitor starting', None, None),
        ('I', 'NETWORK', 23015, 'listener', 'Listening on', {'address': '/tmp/mongodb-27017.sock'}, None),
        ('I', 'NETWORK', 23015, 'listener', 'Listening on', {'address': '0.0.0.0'}, None),
        ('I', 'NETWORK', 23016, 'listener', 'Waiting for connections', {'port': 27017, 'ssl': 'off'}, None),
    ]
    for i, (sev, comp, id_, ctx, msg, attr, tags) in enumerate(st):
        add(at(0.2 + i * 0.012 + (0.8 if i >= 12 else 0)), sev, comp, id_, ctx, msg, attr, tags)
    state = {'cid': 0, 'open': 0}
    drivers = {
        'node': {'driver': {'name': 'nodejs|Mongoose', 'version': '5.9.2|8.3.2'}, 'platform': 'Node.js v20.12.2, LE', 'os': {'name': 'linux', 'architecture': 'x64', 'version': '5.15.0-1057-aws', 'type': 'Linux'}},
        'py': {'driver': {'name': 'PyMongo', 'version': '4.6.3'}, 'os': {'type': 'Linux', 'name': 'Linux', 'architecture': 'x86_64', 'version': '5.15.0-1057-aws'}, 'platform': 'CPython 3.11.9.final.0'},
        'go': {'driver': {'name': 'mongo-go-driver', 'version': 'v1.14.0'}, 'os': {'type': 'linux', 'architecture': 'amd64'}, 'platform': 'go1.22.2', 'application': {'name': 'mongodb_exporter'}},
    }

    def conn_open(t, ip, drv, user):
        state['cid'] += 1
        state['open'] += 1
        cid = state['cid']
        remote = '%s:%d' % (ip, rnd.randint(32768, 60999))
        add(t, 'I', 'NETWORK', 22943, 'listener', 'Connection accepted', {'remote': remote, 'uuid': uu(), 'connectionId': cid, 'connectionCount': state['open']})
        add(t + timedelta(milliseconds=1), 'I', 'NETWORK', 51800, 'conn%d' % cid, 'client metadata', {'remote': remote, 'client': 'conn%d' % cid, 'negotiatedCompressors': [], 'doc': drivers[drv]})
        if user:
            add(t + timedelta(milliseconds=rnd.randint(8, 20)), 'I', 'ACCESS', 5286306, 'conn%d' % cid, 'Authentication succeeded',
                {'mechanism': 'SCRAM-SHA-256', 'speculative': True, 'principalName': user, 'authenticationDatabase': 'admin', 'remote': remote, 'extraInfo': {}})
        return cid, remote

    def conn_close(t, cid, remote):
        state['open'] -= 1
        add(t, 'I', 'NETWORK', 22944, 'conn%d' % cid, 'Connection ended', {'remote': remote, 'uuid': uu(), 'connectionId': cid, 'connectionCount': state['open']})

    # app pools: 3 pods x 4 connections, exporter x1; all opened at start, sequentially
    pool = []
    t = at(4.1)
    for ip in ['10.0.2.15', '10.0.2.16', '10.0.2.17']:
        for _ in range(4):
            t += timedelta(milliseconds=rnd.randint(3, 60))
            pool.append(conn_open(t, ip, 'node', 'shop'))
    conn_open(at(9.7), '10.0.6.3', 'go', 'exporter')
    # pool churn (maxIdleTimeMS)
    events = []
    for t in times(rnd, 10, 300, 3500):
        i = rnd.randrange(len(pool))
        cid, remote = pool[i]
        conn_close(t, cid, remote)
        pool[i] = conn_open(t + timedelta(seconds=rnd.uniform(0.5, 40)), remote.split(':')[0], 'node', 'shop')
    # cron job (python) every 5 minutes
    for k in range(12):
        t = at(120 + 300 * k + rnd.uniform(0, 2))
        cid, remote = conn_open(t, '10.0.5.40', 'py', 'reports')
        dm = rnd.randint(350, 6400)
        add(t + timedelta(milliseconds=30 + dm), 'I', 'COMMAND', 51803, 'conn%d' % cid, 'Slow query', {
            'type': 'command', 'ns': 'shop.orders', 'appName': 'daily-report', 'command': {
                'aggregate': 'orders', 'pipeline': [{'$match': {'createdAt': {'$gte': {'$date': '2031-04-30T00:00:00.000Z'}}}}, {'$group': {'_id': '$status', 'n': {'$sum': 1}, 'revenue': {'$sum': '$totalCents'}}}],
                'cursor': {}, 'lsid': {'id': {'$uuid': uid(rnd)}}, '$db': 'shop'},
            'planSummary': 'IXSCAN { createdAt: 1 }', 'keysExamined': rnd.randint(100000, 300000), 'docsExamined': rnd.randint(100000, 300000),
            'cursorExhausted': True, 'numYields': rnd.randint(100, 900), 'nreturned': 5, 'queryHash': 'A1F6E2C3', 'planCacheKey': '7D0B2A91',
            'queryFramework': 'sbe', 'reslen': 612, 'locks': {'FeatureCompatibilityVersion': {'acquireCount': {'r': rnd.randint(100, 900)}}, 'Global': {'acquireCount': {'r': rnd.randint(100, 900)}}},
            'storage': {'data': {'bytesRead': rnd.randint(10 ** 6, 10 ** 8), 'timeReadingMicros': rnd.randint(1000, 900000)}},
            'remote': remote, 'protocol': 'op_msg', 'durationMillis': dm})
        conn_close(t + timedelta(milliseconds=60 + dm), cid, remote)
    # failed auth burst
    for t in times(rnd, 5, 2710, 2740):
        state['cid'] += 1
        state['open'] += 1
        cid = state['cid']
        remote = '198.51.100.77:%d' % rnd.randint(30000, 65000)
        add(t, 'I', 'NETWORK', 22943, 'listener', 'Connection accepted', {'remote': remote, 'uuid': uu(), 'connectionId': cid, 'connectionCount': state['open']})
        add(t + timedelta(milliseconds=2), 'I', 'ACCESS', 5286307, 'conn%d' % cid, 'Failed to authenticate', {
            'client': remote, 'isSpeculative': False, 'isClusterMember': False, 'mechanism': 'SCRAM-SHA-256', 'user': rnd.choice(['admin', 'root', 'mongo']),
            'db': 'admin', 'error': 'UserNotFound: Could not find user "%s" for db "admin"' % 'admin', 'result': 11, 'metrics': {'conversation_duration': {'micros': rnd.randint(200, 900), 'summary': {'0': {'step': 1, 'step_total': 2, 'duration_micros': rnd.randint(100, 600)}}}}, 'extraInfo': {}})
        state['open'] -= 1
        add(t + timedelta(milliseconds=5), 'I', 'NETWORK', 22944, 'conn%d' % cid, 'Connection ended', {'remote': remote, 'uuid': uu(), 'connectionId': cid, 'connectionCount': state['open']})
    # slow ops from app pool
    colls = [('orders', {'customerId': None, 'status': 'pending'}, 'COLLSCAN'), ('products', {'tags': 'sale', 'active': True}, 'IXSCAN { tags: 1 }'),
             ('carts', {'sessionId': None}, 'IXSCAN { sessionId: 1 }'), ('inventory', {'sku': None}, 'IXSCAN { sku: 1 }')]
    for t in times(rnd, 68, 20, 3590):
        cid, remote = rnd.choice(pool)
        coll, flt, plan = rnd.choice(colls)
        f = {k: (rnd.randint(1000, 99999) if v is None else v) for k, v in flt.items()}
        dm = int(max(101, lognorm(rnd, 190, 0.7)))
        if plan == 'COLLSCAN':
            dm = int(dm * 2.5)
        ex = rnd.randint(40000, 400000) if plan == 'COLLSCAN' else rnd.randint(10, 5000)
        if coll in ('inventory', 'carts') and rnd.random() < 0.6:
            add(t, 'I', 'WRITE', 51803, 'conn%d' % cid, 'Slow query', {
                'type': 'update', 'ns': 'shop.' + coll, 'command': {'q': f, 'u': {'$inc': {'reserved': 1}} if coll == 'inventory' else {'$set': {'updatedAt': {'$date': iso(t)}}}, 'multi': False, 'upsert': False},
                'planSummary': plan, 'keysExamined': 1, 'docsExamined': 1, 'nMatched': 1, 'nModified': 1, 'nUpserted': 0, 'numYields': 0,
                'queryHash': '3C1B4A7E', 'planCacheKey': 'E4A02C11', 'locks': {'Global': {'acquireCount': {'w': 1}}}, 'flowControl': {'acquireCount': 1},
                'storage': {}, 'remote': remote, 'durationMillis': dm})
            continue
        attr = {'type': 'command', 'ns': 'shop.' + coll, 'appName': 'shop-api', 'command': {'find': coll, 'filter': f, 'limit': 24, 'lsid': {'id': {'$uuid': uid(rnd)}}, '$db': 'shop'},
                'planSummary': plan, 'keysExamined': 0 if plan == 'COLLSCAN' else ex, 'docsExamined': ex, 'cursorExhausted': True, 'numYields': ex // 1000,
                'nreturned': rnd.randint(0, 24), 'queryHash': '8F2C11D0', 'planCacheKey': '0B7E55A2', 'queryFramework': 'classic', 'reslen': rnd.randint(200, 40000),
                'locks': {'FeatureCompatibilityVersion': {'acquireCount': {'r': ex // 1000 + 1}}, 'Global': {'acquireCount': {'r': ex // 1000 + 1}}},
                'storage': {'data': {'bytesRead': rnd.randint(0, 10 ** 7), 'timeReadingMicros': rnd.randint(0, 90000)}} if rnd.random() < 0.5 else {},
                'remote': remote, 'protocol': 'op_msg', 'durationMillis': dm}
        if rnd.random() < 0.05:
            attr['ok'] = 0
            attr['errMsg'] = 'Executor error during find command :: caused by :: Sort exceeded memory limit of 104857600 bytes, but did not opt in to external sorting.'
            attr['errName'] = 'QueryExceededMemoryLimitNoDiskUseAllowed'
            attr['errCode'] = 292
            add(t - timedelta(milliseconds=1), 'W', 'QUERY', 23798, 'conn%d' % cid, 'Plan executor error during find command',
                {'error': {'code': 292, 'codeName': 'QueryExceededMemoryLimitNoDiskUseAllowed', 'errmsg': 'Sort exceeded memory limit of 104857600 bytes, but did not opt in to external sorting.'},
                 'stats': {'stage': 'SORT', 'nReturned': 0, 'works': ex, 'advanced': 0, 'memLimit': 104857600, 'totalDataSizeSorted': 104857812}, 'cmd': {'find': coll, 'filter': f, 'sort': {'createdAt': -1}, '$db': 'shop'}})
        add(t, 'I', 'COMMAND', 51803, 'conn%d' % cid, 'Slow query', attr)
    for t in times(rnd, 2, 1000, 3000):
        cid, remote = rnd.choice(pool)
        add(t, 'W', 'COMMAND', 20526, 'conn%d' % cid, 'Failed to gather storage statistics for slow operation', {'opId': rnd.randint(100000, 999999), 'error': 'lock acquire timeout'})
    # WiredTiger checkpoint progress every 60 s
    snap = 40
    for k in range(59):
        t = at(61.3 + 60 * k + rnd.uniform(0, 0.2))
        snap += rnd.randint(900, 3000)
        add(t, 'I', 'WTCHKPT', 22430, 'Checkpointer', 'WiredTiger message', {'message': {
            'ts_sec': int(epoch(t)), 'ts_usec': t.microsecond, 'thread': '1:0x7f3a2c5e4640', 'session_name': 'WT_SESSION.checkpoint',
            'category': 'WT_VERB_CHECKPOINT_PROGRESS', 'category_id': 6, 'verbose_level': 'DEBUG_1', 'verbose_level_id': 1,
            'msg': 'saving checkpoint snapshot min: %d, snapshot max: %d snapshot count: 0, oldest timestamp: (0, 0) , meta checkpoint timestamp: (0, 0) base write gen: %d' % (snap, snap, 1843 + k)}})
    tl.flush(s)
    s.field('t', 'time', None, 'time')
    s.field('s', 'text', None, 'level')
    s.field('c', 'text', None, 'logger')
    s.field('id', 'number')
    s.field('ctx', 'text', None, 'thread')
    s.field('msg', 'text', None, 'message')
    s.field('attr.remote', 'text', None, 'client')
    s.field('attr.ns', 'text')
    s.field('attr.planSummary', 'text')
    s.field('attr.durationMillis', 'number', 'ms', 'duration')
    s.field('attr.docsExamined', 'number')
    slow = F('msg', '==', 'Slow query')
    s.fact("events with s == 'W'", 'count', flt=F('s', '==', 'W'))
    s.fact("'Slow query' events", 'count', flt=slow)
    s.fact('max attr.durationMillis over Slow query events', 'max', 'attr.durationMillis', slow)
    s.fact('p95 (nearest-rank) of attr.durationMillis (ms) over Slow query events', 'p95', 'attr.durationMillis', slow)
    s.fact("distinct client IPs (host part of attr.remote) in 'Connection accepted' events", 'distinct',
           flt=F('msg', '==', 'Connection accepted'), key=lambda e: e['attr.remote'].rsplit(':', 1)[0])
    s.fact("events with c == 'WTCHKPT'", 'count', flt=F('c', '==', 'WTCHKPT'))
    return s


# ======================================================================= 10 Kafka
JAVA_FETCH_STACK = '''java.io.IOException: Connection to 3 was disconnected before the response was read
	at org.apache.kafka.clients.NetworkClientUtils.sendAndReceive(NetworkClientUtils.java:99)
	at kafka.server.BrokerBlockingSender.sendRequest(BrokerBlockingSender.scala:113)
	at kafka.server.RemoteLeaderEndPoint.fetch(RemoteLeaderEndPoint.scala:79)
	at kafka.server.AbstractFetcherThread.processFetchRequest(AbstractFetcherThread.scala:316)
	at kafka.server.AbstractFetcherThread.$anonfun$maybeFetch$3(AbstractFetcherThread.scala:130)
	at kafka.server.AbstractFetcherThread.$anonfun$maybeFetch$3$adapted(AbstractFetcherThread.scala:129)
	at scala.Option.foreach(Option.scala:437)
	at kafka.server.AbstractFetcherThread.maybeFetch(AbstractFetcherThread.scala:129)
	at kafka.server.AbstractFetcherThread.doWork(AbstractFetcherThread.scala:112)
	at org.apache.kafka.server.util.ShutdownableThread.run(ShutdownableThread.java:130)'''

KAFKA_CONFIG = '''advertised.listeners = PLAINTEXT://kafka-1.internal:9092,SSL://kafka-1.internal:9093
alter.config.policy.class.name = null
alter.log.dirs.replication.quota.window.num = 11
alter.log.dirs.replication.quota.window.size.seconds = 1
authorizer.class.name = 
auto.create.topics.enable = false
auto.include.jmx.reporter = true
auto.leader.rebalance.enable = true
background.threads = 10
broker.heartbeat.interval.ms = 2000
broker.id = 1
broker.id.generation.enable = true
broker.rack = eu-west-1a
broker.session.timeout.ms = 9000
client.quota.callback.class = null
compression.type = producer
connection.failed.authentication.delay.ms = 100
connections.max.idle.ms = 600000
connections.max.reauth.ms = 0
control.plane.listener.name = null
controlled.shutdown.enable = true
controlled.shutdown.max.retries = 3
controlled.shutdown.retry.backoff.ms = 5000
controller.listener.names = null
controller.quorum.append.linger.ms = 25
controller.quorum.election.backoff.max.ms = 1000
controller.quorum.election.timeout.ms = 1000
controller.quorum.fetch.timeout.ms = 2000
controller.quorum.request.timeout.ms = 2000
controller.quorum.retry.backoff.ms = 20
controller.quorum.voters = []
controller.quota.window.num = 11
controller.quota.window.size.seconds = 1
controller.socket.timeout.ms = 30000
create.topic.policy.class.name = null
default.replication.factor = 3
delegation.token.expiry.check.interval.ms = 3600000
delegation.token.expiry.time.ms = 86400000
delegation.token.master.key = null
delegation.token.max.lifetime.ms = 604800000
delegation.token.secret.key = null
delete.records.purgatory.purge.interval.requests = 1
delete.topic.enable = true
early.start.listeners = null
fetch.max.bytes = 57671680
fetch.purgatory.purge.interval.requests = 1000
group.consumer.heartbeat.interval.ms = 5000
group.coordinator.new.enable = false
group.initial.rebalance.delay.ms = 3000
group.max.session.timeout.ms = 1800000
group.max.size = 2147483647
group.min.session.timeout.ms = 6000
initial.broker.registration.timeout.ms = 60000
inter.broker.listener.name = PLAINTEXT
inter.broker.protocol.version = 3.6-IV2
kafka.metrics.polling.interval.secs = 10
kafka.metrics.reporters = []
leader.imbalance.check.interval.seconds = 300
leader.imbalance.per.broker.percentage = 10
listener.security.protocol.map = PLAINTEXT:PLAINTEXT,SSL:SSL
listeners = PLAINTEXT://0.0.0.0:9092,SSL://0.0.0.0:9093
log.cleaner.backoff.ms = 15000
log.cleaner.dedupe.buffer.size = 134217728
log.cleaner.delete.retention.ms = 86400000
log.cleaner.enable = true
log.cleaner.io.buffer.load.factor = 0.9
log.cleaner.io.buffer.size = 524288
log.cleaner.io.max.bytes.per.second = 1.7976931348623157E308
log.cleaner.max.compaction.lag.ms = 9223372036854775807
log.cleaner.min.cleanable.ratio = 0.5
log.cleaner.min.compaction.lag.ms = 0
log.cleaner.threads = 1
log.cleanup.policy = [delete]
log.dir = /tmp/kafka-logs
log.dirs = /var/lib/kafka/data
log.flush.interval.messages = 9223372036854775807
log.flush.interval.ms = null
log.flush.offset.checkpoint.interval.ms = 60000
log.flush.scheduler.interval.ms = 9223372036854775807
log.flush.start.offset.checkpoint.interval.ms = 60000
log.index.interval.bytes = 4096
log.index.size.max.bytes = 10485760
log.message.downconversion.enable = true
log.message.format.version = 3.0-IV1
log.message.timestamp.difference.max.ms = 9223372036854775807
log.message.timestamp.type = CreateTime
log.preallocate = false
log.retention.bytes = -1
log.retention.check.interval.ms = 300000
log.retention.hours = 168
log.retention.minutes = null
log.retention.ms = null
log.roll.hours = 168
log.roll.jitter.hours = 0
log.roll.jitter.ms = null
log.roll.ms = null
log.segment.bytes = 1073741824
log.segment.delete.delay.ms = 60000
max.connection.creation.rate = 2147483647
max.connections = 2147483647
max.connections.per.ip = 2147483647
max.connections.per.ip.overrides = 
max.incremental.fetch.session.cache.slots = 1000
message.max.bytes = 1048588
metric.reporters = []
metrics.num.samples = 2
metrics.recording.level = INFO
metrics.sample.window.ms = 30000
min.insync.replicas = 2
node.id = 1
num.io.threads = 8
num.network.threads = 3
num.partitions = 6
num.recovery.threads.per.data.dir = 1
num.replica.alter.log.dirs.threads = null
num.replica.fetchers = 1
offset.metadata.max.bytes = 4096
offsets.commit.required.acks = -1
offsets.commit.timeout.ms = 5000
offsets.load.buffer.size = 5242880
offsets.retention.check.interval.ms = 600000
offsets.retention.minutes = 10080
offsets.topic.compression.codec = 0
offsets.topic.num.partitions = 50
offsets.topic.replication.factor = 3
offsets.topic.segment.bytes = 104857600
process.roles = []
producer.id.expiration.check.interval.ms = 600000
producer.id.expiration.ms = 86400000
producer.purgatory.purge.interval.requests = 1000
queued.max.request.bytes = -1
queued.max.requests = 500
quota.window.num = 11
quota.window.size.seconds = 1
remote.log.storage.system.enable = false
replica.fetch.backoff.ms = 1000
replica.fetch.max.bytes = 1048576
replica.fetch.min.bytes = 1
replica.fetch.response.max.bytes = 10485760
replica.fetch.wait.max.ms = 500
replica.high.watermark.checkpoint.interval.ms = 5000
replica.lag.time.max.ms = 30000
replica.selector.class = null
replica.socket.receive.buffer.bytes = 65536
replica.socket.timeout.ms = 30000
request.timeout.ms = 30000
reserved.broker.max.id = 1000
security.inter.broker.protocol = PLAINTEXT
socket.receive.buffer.bytes = 102400
socket.request.max.bytes = 104857600
socket.send.buffer.bytes = 102400
ssl.client.auth = none
ssl.enabled.protocols = [TLSv1.2, TLSv1.3]
ssl.endpoint.identification.algorithm = https
ssl.keystore.location = /etc/kafka/secrets/kafka.keystore.jks
ssl.keystore.password = [hidden]
ssl.keystore.type = JKS
ssl.protocol = TLSv1.3
ssl.truststore.location = /etc/kafka/secrets/kafka.truststore.jks
ssl.truststore.password = [hidden]
ssl.truststore.type = JKS
transaction.max.timeout.ms = 900000
transaction.state.log.min.isr = 2
transaction.state.log.num.partitions = 50
transaction.state.log.replication.factor = 3
transactional.id.expiration.ms = 604800000
unclean.leader.election.enable = false
zookeeper.connect = zk-1.internal:2181,zk-2.internal:2181,zk-3.internal:2181/kafka
zookeeper.connection.timeout.ms = 18000
zookeeper.max.in.flight.requests = 10
zookeeper.session.timeout.ms = 18000
zookeeper.set.acl = false
zookeeper.ssl.client.enable = false
zookeeper.sync.time.ms = 2000'''


def gen_kafka():
    rnd = random.Random(110)
    s = Sample('kafka_server', 'Apache Kafka 3.6 broker server.log (log4j: [%d] %p %m (%c)%n)', 'kafka-server.log')
    tl = TL()

    def add(t, lvl, msg, logger, exc=None):
        ts = t.strftime('%Y-%m-%d %H:%M:%S') + ',%03d' % (t.microsecond // 1000)
        text = '[%s] %s %s (%s)' % (ts, lvl, msg, logger)
        if exc:
            text += '\n' + exc
        tl.add(t, text, timestamp=ts, level=lvl, message=msg, logger=logger, exception=(exc.split('\n')[0] if exc else None))

    topics = {'orders': 12, 'payments': 6, 'inventory-events': 6, 'clickstream': 24, '__consumer_offsets': 50}
    parts = [(tp, p) for tp, n in topics.items() for p in range(n) if (p % 3 == 0 or tp == 'clickstream')]
    D = '/var/lib/kafka/data'
    # controlled restart at ~02:31
    r0 = at(1862.338)
    seq = [
        (0.000, 'INFO', '[KafkaServer id=1] shutting down', 'kafka.server.KafkaServer'),
        (0.002, 'INFO', '[KafkaServer id=1] Starting controlled shutdown', 'kafka.server.KafkaServer'),
        (0.318, 'INFO', '[KafkaServer id=1] Controlled shutdown request returned successfully after 312ms', 'kafka.server.KafkaServer'),
        (0.321, 'INFO', '[/config/changes-event-process-thread]: Shutting down', 'kafka.common.ZkNodeChangeNotificationListener$ChangeEventProcessThread'),
        (0.322, 'INFO', '[SocketServer listenerType=ZK_BROKER, nodeId=1] Stopping socket server request processors', 'kafka.network.SocketServer'),
        (0.351, 'INFO', '[SocketServer listenerType=ZK_BROKER, nodeId=1] Stopped socket server request processors', 'kafka.network.SocketServer'),
        (0.352, 'INFO', '[data-plane Kafka Request Handler on Broker 1], shutting down', 'kafka.server.KafkaRequestHandlerPool'),
        (0.361, 'INFO', '[data-plane Kafka Request Handler on Broker 1], shut down completely', 'kafka.server.KafkaRequestHandlerPool'),
        (0.402, 'INFO', '[ReplicaManager broker=1] Shutting down', 'kafka.server.ReplicaManager'),
        (0.530, 'INFO', '[ReplicaManager broker=1] Shut down completely', 'kafka.server.ReplicaManager'),
        (0.541, 'INFO', 'Shutting down.', 'kafka.log.LogManager'),
        (1.912, 'INFO', 'Shutdown complete.', 'kafka.log.LogManager'),
        (1.930, 'INFO', '[ZooKeeperClient Kafka server] Closing.', 'kafka.zookeeper.ZooKeeperClient'),
        (2.041, 'INFO', 'Session: 0x20000c1e2f40017 closed', 'org.apache.zookeeper.ZooKeeper'),
        (2.041, 'INFO', 'EventThread shut down for session: 0x20000c1e2f40017', 'org.apache.zookeeper.ClientCnxn'),
        (2.043, 'INFO', '[ZooKeeperClient Kafka server] Closed.', 'kafka.zookeeper.ZooKeeperClient'),
        (2.060, 'INFO', '[KafkaServer id=1] shut down completed', 'kafka.server.KafkaServer'),
        (9.411, 'INFO', 'Registered kafka:type=kafka.Log4jController MBean', 'kafka.utils.Log4jControllerRegistration$'),
        (9.702, 'INFO', 'Setting -D jdk.tls.rejectClientInitiatedRenegotiation=true to disable client-initiated TLS renegotiation', 'org.apache.zookeeper.common.X509Util'),
        (9.811, 'INFO', 'starting', 'kafka.server.KafkaServer'),
        (9.812, 'INFO', 'Connecting to zookeeper on zk-1.internal:2181,zk-2.internal:2181,zk-3.internal:2181/kafka', 'kafka.server.KafkaServer'),
        (9.830, 'INFO', '[ZooKeeperClient Kafka server] Initializing a new session to zk-1.internal:2181,zk-2.internal:2181,zk-3.internal:2181/kafka.', 'kafka.zookeeper.ZooKeeperClient'),
        (9.841, 'INFO', 'Client environment:zookeeper.version=3.8.3-6ad6d364c7c0bcf0de452d54ebefa3058098ab56, built on 2023-10-05 10:34 UTC', 'org.apache.zookeeper.ZooKeeper'),
        (9.841, 'INFO', 'Client environment:host.name=kafka-1.internal', 'org.apache.zookeeper.ZooKeeper'),
        (9.841, 'INFO', 'Client environment:java.version=17.0.11', 'org.apache.zookeeper.ZooKeeper'),
        (9.842, 'INFO', 'Client environment:java.vendor=Eclipse Adoptium', 'org.apache.zookeeper.ZooKeeper'),
        (9.842, 'INFO', 'Client environment:os.name=Linux', 'org.apache.zookeeper.ZooKeeper'),
        (9.842, 'INFO', 'Client environment:os.memory.max=4096MB', 'org.apache.zookeeper.ZooKeeper'),
        (9.851, 'INFO', 'Initiating client connection, connectString=zk-1.internal:2181,zk-2.internal:2181,zk-3.internal:2181/kafka sessionTimeout=18000 watcher=kafka.zookeeper.ZooKeeperClient$ZooKeeperClientWatcher$@5a4041cc', 'org.apache.zookeeper.ZooKeeper'),
        (9.870, 'INFO', '[ZooKeeperClient Kafka server] Waiting until connected.', 'kafka.zookeeper.ZooKeeperClient'),
        (9.902, 'INFO', 'Opening socket connection to server zk-2.internal/10.0.7.12:2181.', 'org.apache.zookeeper.ClientCnxn'),
        (9.905, 'INFO', 'Socket connection established, initiating session, client: /10.0.5.11:41872, server: zk-2.internal/10.0.7.12:2181', 'org.apache.zookeeper.ClientCnxn'),
        (9.921, 'INFO', 'Session establishment complete on server zk-2.internal/10.0.7.12:2181, session id = 0x20000c1e2f4002a, negotiated timeout = 18000', 'org.apache.zookeeper.ClientCnxn'),
        (9.925, 'INFO', '[ZooKeeperClient Kafka server] Connected.', 'kafka.zookeeper.ZooKeeperClient'),
        (10.201, 'INFO', 'Cluster ID = 8xQvN1rYT3aJk2pWmZ0bLw', 'kafka.server.KafkaServer'),
        (10.301, 'INFO', 'KafkaConfig values: \n\t' + KAFKA_CONFIG.replace('\n', '\n\t') + '\n', 'kafka.server.KafkaConfig'),
        (10.611, 'INFO', 'Loading logs from log dirs ArrayBuffer(%s)' % D, 'kafka.log.LogManager'),
        (10.614, 'INFO', 'No logs found to be loaded in %s' % D if False else 'Skipping recovery of 132 logs from %s since clean shutdown file was found' % D, 'kafka.log.LogManager'),
    ]
    for off, lvl, msg, lg in seq:
        add(r0 + timedelta(seconds=off), lvl, msg, lg)
    t = r0 + timedelta(seconds=10.62)
    for i, (tp, p) in enumerate(rnd.sample(parts, 14)):
        t += timedelta(milliseconds=rnd.randint(2, 40))
        leo = rnd.randint(10 ** 5, 10 ** 8)
        add(t, 'INFO', 'Completed load of Log(dir=%s/%s-%d, topicId=%s, topic=%s, partition=%d, highWatermark=%d, lastStableOffset=%d, logStartOffset=%d, logEndOffset=%d) with %d segments, local-log-start-offset %d and log-end-offset %d in %dms (%d/132 completed in %s)'
            % (D, tp, p, alnum(rnd, 22, string.ascii_letters + string.digits + '-_'), tp, p, leo, leo, leo - 99000, leo, rnd.randint(1, 9), leo - 99000, leo, rnd.randint(1, 40), i + 1, D), 'kafka.log.LogManager')
    later = [
        (2.2, 'INFO', 'Loaded 132 logs in 2011ms', 'kafka.log.LogManager'),
        (2.21, 'INFO', 'Starting log cleanup with a period of 300000 ms.', 'kafka.log.LogManager'),
        (2.22, 'INFO', 'Starting log flusher with a default period of 9223372036854775807 ms.', 'kafka.log.LogManager'),
        (2.5, 'INFO', 'Updated connection-accept-rate max connection creation rate to 2147483647', 'kafka.network.ConnectionQuotas'),
        (2.6, 'INFO', '[SocketServer listenerType=ZK_BROKER, nodeId=1] Created data-plane acceptor and processors for endpoint : ListenerName(PLAINTEXT)', 'kafka.network.SocketServer'),
        (2.7, 'INFO', '[SocketServer listenerType=ZK_BROKER, nodeId=1] Created data-plane acceptor and processors for endpoint : ListenerName(SSL)', 'kafka.network.SocketServer'),
        (3.1, 'INFO', 'Registered broker 1 at path /brokers/ids/1 with addresses: PLAINTEXT://kafka-1.internal:9092,SSL://kafka-1.internal:9093, czxid (broker epoch): 8589990712', 'kafka.zk.KafkaZkClient'),
        (3.4, 'INFO', '[GroupCoordinator 1]: Starting up.', 'kafka.coordinator.group.GroupCoordinator'),
        (3.41, 'INFO', '[GroupCoordinator 1]: Startup complete.', 'kafka.coordinator.group.GroupCoordinator'),
        (3.5, 'INFO', '[TransactionCoordinator id=1] Starting up.', 'kafka.coordinator.transaction.TransactionCoordinator'),
        (3.51, 'INFO', '[TransactionCoordinator id=1] Startup complete.', 'kafka.coordinator.transaction.TransactionCoordinator'),
        (3.9, 'INFO', 'Kafka version: 3.6.2', 'org.apache.kafka.common.utils.AppInfoParser'),
        (3.9, 'INFO', 'Kafka commitId: c4deed513057c94e', 'org.apache.kafka.common.utils.AppInfoParser'),
        (3.9, 'INFO', 'Kafka startTimeMs: %d' % (epoch_us(r0) // 1000 + 13700), 'org.apache.kafka.common.utils.AppInfoParser'),
        (3.91, 'INFO', '[KafkaServer id=1] started', 'kafka.server.KafkaServer'),
    ]
    for off, lvl, msg, lg in later:
        add(t + timedelta(seconds=off), lvl, msg, lg)
    up = t + timedelta(seconds=4)
    # partitions coming back online after restart
    for tp, p in rnd.sample(parts, 12):
        up += timedelta(milliseconds=rnd.randint(5, 80))
        add(up, 'INFO', '[Partition %s-%d broker=1] Log loaded for partition %s-%d with initial high watermark %d' % (tp, p, tp, p, rnd.randint(10 ** 5, 10 ** 8)), 'kafka.cluster.Partition')
    down = (r0, up)

    def alive(x):
        return not (down[0] <= x <= down[1])

    # periodic housekeeping
    for k in range(6):
        x = at(540 + 600 * k + rnd.uniform(0, 2))
        if alive(x):
            add(x, 'INFO', '[GroupMetadataManager brokerId=1] Removed %d expired offsets in %d milliseconds.' % (rnd.choice([0, 0, 0, 3, 12]), rnd.randint(0, 2)), 'kafka.coordinator.group.GroupMetadataManager')
    for k in range(12):
        x = at(200 + 300 * k)
        if alive(x):
            add(x, 'INFO', '[Controller id=1] Processing automatic preferred replica leader election', 'kafka.controller.KafkaController')
            add(x + timedelta(milliseconds=3), 'INFO', '[Controller id=1] Starting replica leader election (PREFERRED) for partitions  triggered by AutoTriggered', 'kafka.controller.KafkaController')
    # segment rolls (clickstream is busy)
    for x in times(rnd, 34, 10, 3590):
        if not alive(x):
            continue
        tp, p = rnd.choice([q for q in parts if q[0] in ('clickstream', 'orders')])
        off = rnd.randint(10 ** 7, 9 * 10 ** 8)
        add(x, 'INFO', '[ProducerStateManager partition=%s-%d] Wrote producer snapshot at offset %d with %d producer ids in %d ms.' % (tp, p, off, rnd.randint(0, 12), rnd.randint(0, 6)), 'org.apache.kafka.storage.internals.log.ProducerStateManager')
        add(x + timedelta(milliseconds=rnd.randint(1, 9)), 'INFO', '[LocalLog partition=%s-%d, dir=%s] Rolled new log segment at offset %d in %d ms.' % (tp, p, D, off, rnd.randint(1, 12)), 'kafka.log.LocalLog')
    # retention deletes
    for x in times(rnd, 8, 300, 3590):
        if not alive(x):
            continue
        tp, p = rnd.choice([q for q in parts if q[0] == 'clickstream'])
        base = rnd.randint(10 ** 7, 5 * 10 ** 8)
        seg = 'LogSegment(baseOffset=%d, size=1073737844, lastModifiedTime=%d, largestRecordTimestamp=Some(%d))' % (base, epoch_us(x) // 1000 - 604800000 - rnd.randint(1000, 9999999), epoch_us(x) // 1000 - 604800000 - rnd.randint(1000, 9999999))
        add(x, 'INFO', '[UnifiedLog partition=%s-%d, dir=%s] Deleting segment %s due to retention time 604800000ms breach based on the largest record timestamp in the segment' % (tp, p, D, seg), 'kafka.log.UnifiedLog')
        add(x + timedelta(milliseconds=1), 'INFO', '[UnifiedLog partition=%s-%d, dir=%s] Incremented log start offset to %d due to SegmentDeletion' % (tp, p, D, base + rnd.randint(10 ** 5, 10 ** 6)), 'kafka.log.UnifiedLog')
        y = x + timedelta(seconds=60.01)
        add(y, 'INFO', '[LocalLog partition=%s-%d, dir=%s] Deleting segment files %s' % (tp, p, D, seg), 'kafka.log.LocalLog$')
        add(y + timedelta(milliseconds=2), 'INFO', 'Deleted log %s/%s-%d/%020d.log.deleted.' % (D, tp, p, base), 'org.apache.kafka.storage.internals.log.LogSegment')
        add(y + timedelta(milliseconds=2), 'INFO', 'Deleted offset index %s/%s-%d/%020d.index.deleted.' % (D, tp, p, base), 'org.apache.kafka.storage.internals.log.LogSegment')
        add(y + timedelta(milliseconds=3), 'INFO', 'Deleted time index %s/%s-%d/%020d.timeindex.deleted.' % (D, tp, p, base), 'org.apache.kafka.storage.internals.log.LogSegment')
    # consumer group rebalances
    groups = {'orders-processor': 17, 'payments-consumer': 3, 'search-indexer': 41, 'clickstream-sink': 29}
    gen = {g: rnd.randint(10, 400) for g in groups}
    for x in times(rnd, 11, 30, 3590):
        if not alive(x):
            continue
        g = rnd.choice(list(groups))
        part = groups[g]
        m = 'consumer-%s-%d-%s' % (g, rnd.randint(1, 4), uid(rnd))
        reason = rnd.choice(['Adding new member %s with group instance id None; client reason: need to re-join with the given member-id: %s' % (m, m),
                             'removing member %s on heartbeat expiration' % m, 'Leader %s re-joining group during Stable; client reason: cached metadata has changed from DataChanged' % m])
        if 'heartbeat' in reason:
            add(x - timedelta(milliseconds=1), 'INFO', '[GroupCoordinator 1]: Member %s in group %s has failed, removing it from the group' % (m, g), 'kafka.coordinator.group.GroupCoordinator')
        add(x, 'INFO', '[GroupCoordinator 1]: Preparing to rebalance group %s in state PreparingRebalance with old generation %d (__consumer_offsets-%d) (reason: %s)' % (g, gen[g], part, reason), 'kafka.coordinator.group.GroupCoordinator')
        gen[g] += 1
        n = rnd.randint(2, 6)
        y = x + timedelta(seconds=rnd.uniform(0.05, 3.0))
        add(y, 'INFO', '[GroupCoordinator 1]: Stabilized group %s generation %d (__consumer_offsets-%d) with %d members' % (g, gen[g], part, n), 'kafka.coordinator.group.GroupCoordinator')
        add(y + timedelta(milliseconds=rnd.randint(2, 30)), 'INFO', '[GroupCoordinator 1]: Assignment received from leader consumer-%s-1-%s for group %s for generation %d. The group has %d members, 0 of which are static.' % (g, uid(rnd), g, gen[g], n), 'kafka.coordinator.group.GroupCoordinator')
    # ISR shrink/expand after broker 3 hiccup, with fetcher errors
    h = at(1210.3)
    add(h, 'WARN', '[ReplicaFetcher replicaId=1, leaderId=3, fetcherId=0] Error in response for fetch request (type=FetchRequest, replicaId=1, maxWait=500, minBytes=1, maxBytes=10485760, fetchData={orders-2=PartitionData(topicId=Qm3vU8eYQ1CwZg5n0sJb4A, fetchOffset=88123301, logStartOffset=80112233, maxBytes=1048576, currentLeaderEpoch=Optional[41], lastFetchedEpoch=Optional[41])}, isolationLevel=READ_UNCOMMITTED, removed=, replaced=, metadata=(sessionId=1829381221, epoch=9912), rackId=)',
        'kafka.server.ReplicaFetcherThread', JAVA_FETCH_STACK)
    add(h + timedelta(seconds=1.02), 'INFO', '[ReplicaFetcher replicaId=1, leaderId=3, fetcherId=0] Error sending fetch request (sessionId=1829381221, epoch=9912) to node 3:', 'org.apache.kafka.clients.FetchSessionHandler',
        'java.net.SocketTimeoutException: Failed to connect within 30000 ms\n\tat kafka.server.BrokerBlockingSender.sendRequest(BrokerBlockingSender.scala:109)\n\tat kafka.server.RemoteLeaderEndPoint.fetch(RemoteLeaderEndPoint.scala:79)\n\tat kafka.server.AbstractFetcherThread.processFetchRequest(AbstractFetcherThread.scala:316)\n\tat kafka.server.AbstractFetcherThread.maybeFetch(AbstractFetcherThread.scala:129)\n\tat kafka.server.AbstractFetcherThread.doWork(AbstractFetcherThread.scala:112)\n\tat org.apache.kafka.server.util.ShutdownableThread.run(ShutdownableThread.java:130)')
    led = [(tp, p) for tp, p in parts if tp in ('orders', 'payments')][:5]
    for i, (tp, p) in enumerate(led):
        x = h + timedelta(seconds=31 + i * 0.01)
        hw = rnd.randint(10 ** 6, 10 ** 8)
        add(x, 'INFO', '[Partition %s-%d broker=1] Shrinking ISR from 1,2,3 to 1,2. Leader: (highWatermark: %d, endOffset: %d). Out of sync replicas: (brokerId: 3, endOffset: %d, lastCaughtUpTimeMs: %d).' % (tp, p, hw, hw + 12, hw - 400, epoch_us(h) // 1000), 'kafka.cluster.Partition')
        add(x + timedelta(milliseconds=6), 'INFO', '[Partition %s-%d broker=1] ISR updated to 1,2 and version updated to %d' % (tp, p, rnd.randint(40, 90)), 'kafka.cluster.Partition')
        add(x + timedelta(seconds=62 + i), 'INFO', '[Partition %s-%d broker=1] ISR updated to 1,2,3 and version updated to %d' % (tp, p, rnd.randint(91, 99)), 'kafka.cluster.Partition')
    for x in times(rnd, 4, 1242, 1290):
        pp = rnd.choice([0, 3])
        add(x, 'ERROR', '[ReplicaManager broker=1] Error processing append operation on partition payments-%d' % pp, 'kafka.server.ReplicaManager',
            'org.apache.kafka.common.errors.NotEnoughReplicasException: The size of the current ISR Set(1) is insufficient to satisfy the min.isr requirement of 2 for partition payments-%d' % pp)
    # failed TLS auth from an old client, and a few idle disconnect warnings
    for x in times(rnd, 6, 60, 3500):
        if alive(x):
            ip = rnd.choice(['10.0.9.41', '10.0.9.41', '10.0.8.7'])
            add(x, 'INFO', '[SocketServer listenerType=ZK_BROKER, nodeId=1] Failed authentication with /%s (channelId=10.0.5.11:9093-%s:%d-%d) (SSL handshake failed)' % (ip, ip, rnd.randint(30000, 60000), rnd.randint(10, 400)), 'org.apache.kafka.common.network.Selector')
    for x in times(rnd, 3, 2400, 3500):
        add(x, 'WARN', '[Controller id=1, targetBrokerId=2] Connection to node 2 (kafka-2.internal/10.0.5.12:9092) could not be established. Broker may not be available.', 'org.apache.kafka.clients.NetworkClient')
    add(at(3177.4), 'ERROR', '[KafkaApi-1] Unexpected error handling request RequestHeader(apiKey=PRODUCE, apiVersion=9, clientId=legacy-exporter, correlationId=88123, headerVersion=2) -- ProduceRequestData(acks=-1, timeoutMs=30000, topicData=[TopicProduceData(name=\'metrics\', partitionData=[PartitionProduceData(index=0, records=null)])]) with context RequestContext(header=RequestHeader(apiKey=PRODUCE, apiVersion=9, clientId=legacy-exporter, correlationId=88123, headerVersion=2), connectionId=\'10.0.5.11:9092-10.0.8.7:51822-213\', clientAddress=/10.0.8.7, principal=User:ANONYMOUS, listenerName=ListenerName(PLAINTEXT), securityProtocol=PLAINTEXT, clientInformation=ClientInformation(softwareName=unknown, softwareVersion=unknown), fromPrivilegedListener=false, principalSerde=Optional[org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder@1f2c4b8a])',
        'kafka.server.KafkaApis', 'java.lang.NullPointerException: Cannot invoke "org.apache.kafka.common.record.MemoryRecords.sizeInBytes()" because "records" is null\n\tat kafka.server.KafkaApis.$anonfun$handleProduceRequest$1(KafkaApis.scala:620)\n\tat scala.collection.IterableOnceOps.foreach(IterableOnce.scala:576)\n\tat scala.collection.IterableOnceOps.foreach$(IterableOnce.scala:574)\n\tat scala.collection.AbstractIterable.foreach(Iterable.scala:933)\n\tat kafka.server.KafkaApis.handleProduceRequest(KafkaApis.scala:605)\n\tat kafka.server.KafkaApis.handle(KafkaApis.scala:178)\n\tat kafka.server.KafkaRequestHandler.run(KafkaRequestHandler.scala:154)\n\tat java.base/java.lang.Thread.run(Thread.java:840)')
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('logger', 'text', None, 'logger')
    s.field('exception', 'text', None, 'exception')
    s.fact("events at level ERROR", 'count', flt=F('level', '==', 'ERROR'))
    s.fact("events at level WARN", 'count', flt=F('level', '==', 'WARN'))
    s.fact('events carrying a stack trace / exception lines after the record', 'count', flt=F('exception', 'exists'))
    s.fact('distinct logger', 'distinct', 'logger')
    s.fact("events whose message contains 'Rolled new log segment'", 'count', flt=F('message', 'contains', 'Rolled new log segment'))
    return s


# ======================================================================= 11 Elasticsearch 8
ES_TRANSPORT_STACK = '''java.io.IOException: Connection reset
	at java.base/sun.nio.ch.SocketDispatcher.read0(Native Method)
	at java.base/sun.nio.ch.SocketDispatcher.read(SocketDispatcher.java:47)
	at java.base/sun.nio.ch.IOUtil.readIntoNativeBuffer(IOUtil.java:330)
	at java.base/sun.nio.ch.IOUtil.read(IOUtil.java:284)
	at java.base/sun.nio.ch.IOUtil.read(IOUtil.java:259)
	at java.base/sun.nio.ch.SocketChannelImpl.read(SocketChannelImpl.java:417)
	at org.elasticsearch.transport.netty4@8.13.2/org.elasticsearch.transport.netty4.CopyBytesSocketChannel.readFromSocketChannel(CopyBytesSocketChannel.java:140)
	at org.elasticsearch.transport.netty4@8.13.2/org.elasticsearch.transport.netty4.CopyBytesSocketChannel.doReadBytes(CopyBytesSocketChannel.java:125)
	at io.netty.transport@4.1.107.Final/io.netty.channel.nio.AbstractNioByteChannel$NioByteUnsafe.read(AbstractNioByteChannel.java:151)
	at io.netty.transport@4.1.107.Final/io.netty.channel.nio.NioEventLoop.processSelectedKey(NioEventLoop.java:788)
	at io.netty.transport@4.1.107.Final/io.netty.channel.nio.NioEventLoop.processSelectedKeysPlain(NioEventLoop.java:689)
	at io.netty.transport@4.1.107.Final/io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:562)
	at io.netty.common@4.1.107.Final/io.netty.util.concurrent.SingleThreadEventExecutor$4.run(SingleThreadEventExecutor.java:997)
	at java.base/java.lang.Thread.run(Thread.java:1583)'''

ES_ILM_STACK = '''java.lang.IllegalArgumentException: index.lifecycle.rollover_alias [logs-legacy] does not point to index [logs-legacy-000017]
	at org.elasticsearch.xcore@8.13.2/org.elasticsearch.xpack.core.ilm.WaitForRolloverReadyStep.evaluateCondition(WaitForRolloverReadyStep.java:157)
	at org.elasticsearch.ilm@8.13.2/org.elasticsearch.xpack.ilm.IndexLifecycleRunner.runPeriodicStep(IndexLifecycleRunner.java:226)
	at org.elasticsearch.ilm@8.13.2/org.elasticsearch.xpack.ilm.IndexLifecycleService.triggerPolicies(IndexLifecycleService.java:418)
	at org.elasticsearch.ilm@8.13.2/org.elasticsearch.xpack.ilm.IndexLifecycleService.triggered(IndexLifecycleService.java:349)
	at org.elasticsearch.xcore@8.13.2/org.elasticsearch.xpack.core.scheduler.SchedulerEngine.notifyListeners(SchedulerEngine.java:186)
	at org.elasticsearch.xcore@8.13.2/org.elasticsearch.xpack.core.scheduler.SchedulerEngine$ActiveSchedule.run(SchedulerEngine.java:220)
	at java.base/java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:572)
	at java.base/java.util.concurrent.FutureTask.run(FutureTask.java:317)
	at java.base/java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run(ScheduledThreadPoolExecutor.java:304)
	at java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)
	at java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:642)
	at java.base/java.lang.Thread.run(Thread.java:1583)'''


def gen_elasticsearch():
    rnd = random.Random(111)
    s = Sample('elasticsearch_server', 'Elasticsearch 8 server log, ECS JSON layout (<cluster>_server.json)', 'elasticsearch_server.json')
    tl = TL()
    node, cluster = 'es-node-1', 'prod-logs'
    cuuid, nid = 'pX0G7r2QS6yUq3mF8cJbLg', 'Hq1bZ9k4T0uPzR7eN2wY5A'

    def add(t, lvl, msg, logger, thread, err=None):
        pad = ' ' if len(lvl) == 4 else ''
        line = '{"@timestamp":"%s", "log.level":%s"%s", "message":%s, "ecs.version": "1.2.0","service.name":"ES_ECS","event.dataset":"elasticsearch.server","process.thread.name":%s,"log.logger":%s,"elasticsearch.cluster.uuid":"%s","elasticsearch.node.id":"%s","elasticsearch.node.name":"%s","elasticsearch.cluster.name":"%s"' % (
            iso(t, 3), pad, lvl, jdump(msg), jdump('elasticsearch[%s][%s]' % (node, thread) if thread != 'main' else 'main'), jdump(logger), cuuid, nid, node, cluster)
        rec = {'@timestamp': iso(t, 3), 'log.level': lvl, 'message': msg, 'log.logger': logger,
               'process.thread.name': 'elasticsearch[%s][%s]' % (node, thread), 'elasticsearch.node.name': node, 'elasticsearch.cluster.name': cluster}
        if err:
            et, em, st = err
            line += ',"error.type":%s,"error.message":%s,"error.stack_trace":%s' % (jdump(et), jdump(em), jdump(st))
            rec.update({'error.type': et, 'error.message': em, 'error.stack_trace': st})
        tl.add(t, line + '}', **rec)

    # GC monitor
    gcn = 88120
    for t in times(rnd, 70, 5, 3595):
        gcn += rnd.randint(20, 200)
        spent = rnd.choice([0.3, 0.4, 0.5, 0.6, 0.7, 1.1, 1.3])
        if spent >= 1:
            add(t, 'WARN', '[gc][%d] overhead, spent [%.1fs] collecting in the last [%.1fs]' % (gcn, spent, spent + rnd.random()), 'org.elasticsearch.monitor.jvm.JvmGcMonitorService', 'scheduler][T#1')
        else:
            add(t, 'INFO', '[gc][%d] overhead, spent [%dms] collecting in the last [1s]' % (gcn, int(spent * 1000) + rnd.randint(0, 99)), 'org.elasticsearch.monitor.jvm.JvmGcMonitorService', 'scheduler][T#1')
    # mapping updates from dynamic fields
    ds = ['logs-app-default', 'logs-nginx.access-default', 'metrics-system.cpu-default', 'logs-k8s.container-default']
    gen = {d: rnd.randint(100, 900) for d in ds}
    idx = {d: '.ds-%s-2031.05.01-%06d' % (d, gen[d]) for d in ds}
    uids = {d: alnum(rnd, 22, string.ascii_letters + string.digits + '-_') for d in ds}
    for t in times(rnd, 160, 5, 3595):
        d = rnd.choice(ds)
        add(t, 'INFO', '[%s/%s] update_mapping [_doc]' % (idx[d], uids[d]), 'org.elasticsearch.cluster.metadata.MetadataMappingService', 'masterService#updateTask][T#1')
    # hourly rollovers by ILM around 02:37
    for i, d in enumerate(ds):
        t = at(2220 + i * 4.1)
        old = idx[d]
        gen[d] += 1
        idx[d] = '.ds-%s-2031.05.01-%06d' % (d, gen[d])
        uids[d] = alnum(rnd, 22, string.ascii_letters + string.digits + '-_')
        add(t, 'INFO', '[%s] creating index, cause [rollover_data_stream], templates [%s], shards [1]/[1]' % (idx[d], d.rsplit('-', 1)[0]), 'org.elasticsearch.cluster.metadata.MetadataCreateIndexService', 'masterService#updateTask][T#1')
        steps = ['check-rollover-ready', 'attempt-rollover', 'wait-for-active-shards', 'update-rollover-lifecycle-date', 'set-indexing-complete', 'complete']
        for j in range(len(steps) - 1):
            add(t + timedelta(milliseconds=60 + 450 * j), 'INFO', 'moving index [%s] from [{"phase":"hot","action":"rollover","name":"%s"}] to [{"phase":"hot","action":"rollover","name":"%s"}] in policy [logs]' % (old, steps[j], steps[j + 1]), 'org.elasticsearch.xpack.ilm.IndexLifecycleTransition', 'masterService#updateTask][T#1')
        add(t + timedelta(milliseconds=310), 'INFO', 'Cluster health status changed from [GREEN] to [YELLOW] (reason: [index [%s] created]).' % idx[d] if i == 0 else '[%s] update_mapping [_doc]' % idx[d],
            'org.elasticsearch.cluster.routing.allocation.AllocationService' if i == 0 else 'org.elasticsearch.cluster.metadata.MetadataMappingService', 'masterService#updateTask][T#1')
    add(at(2240.9), 'INFO', 'Cluster health status changed from [YELLOW] to [GREEN] (reason: [shards started [[%s][0]]]).' % idx[ds[-1]], 'org.elasticsearch.cluster.routing.allocation.AllocationService', 'masterService#updateTask][T#1')
    # node-3 leaves and rejoins
    n3 = '{es-node-3}{Zk2wQ9fUR1e3Jc6aT8bXnA}{r7Yx0Qm3S1uVb4cP9eLkWg}{es-node-3}{10.0.5.23}{10.0.5.23:9300}{cdfhilmrstw}{8.13.2}{7000099-8503000}'
    tleft = at(1450.6)
    add(tleft - timedelta(seconds=0.4), 'WARN', 'exception caught on transport layer [Netty4TcpChannel{localAddress=/10.0.5.21:9300, remoteAddress=/10.0.5.23:41772, profile=default}], closing connection',
        'org.elasticsearch.transport.TcpTransport', 'transport_worker][T#5', ('java.io.IOException', 'Connection reset', ES_TRANSPORT_STACK))
    add(tleft, 'INFO', 'node-left[%s reason: disconnected, availableProcessors=8, allocatedProcessors=8], term: 14, version: 91823, delta: removed {%s}' % (n3, n3), 'org.elasticsearch.cluster.service.MasterService', 'masterService#updateTask][T#1')
    add(tleft + timedelta(milliseconds=80), 'INFO', 'removed {%s}, term: 14, version: 91823, reason: Publication{term=14, version=91823}' % n3, 'org.elasticsearch.cluster.service.ClusterApplierService', 'clusterApplierService#updateTask][T#1')
    add(tleft + timedelta(milliseconds=95), 'INFO', 'Cluster health status changed from [GREEN] to [YELLOW] (reason: [%s reason: disconnected]).' % n3, 'org.elasticsearch.cluster.routing.allocation.AllocationService', 'masterService#updateTask][T#1')
    add(tleft + timedelta(milliseconds=120), 'INFO', 'scheduling reroute for delayed shards in [59.7s] (38 delayed shards)', 'org.elasticsearch.cluster.routing.DelayedAllocationService', 'masterService#updateTask][T#1')
    tj = tleft + timedelta(seconds=41.2)
    add(tj, 'INFO', 'node-join[%s joining, removed [41.1s/41100ms] ago with reason [disconnected]], term: 14, version: 91840, delta: added {%s}' % (n3, n3), 'org.elasticsearch.cluster.service.MasterService', 'masterService#updateTask][T#1')
    add(tj + timedelta(milliseconds=210), 'INFO', 'added {%s}, term: 14, version: 91840, reason: Publication{term=14, version=91840}' % n3, 'org.elasticsearch.cluster.service.ClusterApplierService', 'clusterApplierService#updateTask][T#1')
    add(tj + timedelta(seconds=38.3), 'INFO', 'Cluster health status changed from [YELLOW] to [GREEN] (reason: [shards started [[%s][0]]]).' % idx[ds[0]], 'org.elasticsearch.cluster.routing.allocation.AllocationService', 'masterService#updateTask][T#1')
    # disk watermarks
    for t in times(rnd, 6, 2600, 3590):
        free = 14.0 - (t - at(2600)).total_seconds() / 400
        if free > 10:
            add(t, 'INFO', 'low disk watermark [85%%] exceeded on [%s][%s][/usr/share/elasticsearch/data] free: %.1fgb[%.1f%%], replicas will not be assigned to this node' % (nid, node, free * 4.2, free), 'org.elasticsearch.cluster.routing.allocation.DiskThresholdMonitor', 'management][T#3')
        else:
            add(t, 'WARN', 'high disk watermark [90%%] exceeded on [%s][%s][/usr/share/elasticsearch/data] free: %.1fgb[%.1f%%], shards will be relocated away from this node; currently relocating away shards totalling [0b]; currently shards remaining on this node: [412]' % (nid, node, free * 4.2, free), 'org.elasticsearch.cluster.routing.allocation.DiskThresholdMonitor', 'management][T#3')
    # clients speaking plain HTTP to the TLS port, bad client certs
    for t in times(rnd, 14, 5, 3595):
        rip = '10.0.9.%d:%d' % (rnd.choice([4, 4, 4, 17]), rnd.randint(32768, 60999))
        if rnd.random() < 0.75:
            add(t, 'WARN', 'received plaintext http traffic on an https channel, closing connection Netty4HttpChannel{localAddress=/10.0.5.21:9200, remoteAddress=/%s}' % rip,
                'org.elasticsearch.http.netty4.Netty4HttpServerTransport', 'transport_worker][T#%d' % rnd.randint(1, 8))
        else:
            add(t, 'WARN', 'http client did not trust this server\'s certificate, closing connection Netty4HttpChannel{localAddress=/10.0.5.21:9200, remoteAddress=/%s}' % rip,
                'org.elasticsearch.http.AbstractHttpServerTransport', 'transport_worker][T#%d' % rnd.randint(1, 8))
    # SLM retention
    tr = at(1800.052)
    add(tr, 'INFO', 'starting SLM retention snapshot cleanup task', 'org.elasticsearch.xpack.slm.SnapshotRetentionTask', 'trigger_engine_scheduler][T#1')
    add(tr + timedelta(seconds=1.2), 'INFO', 'starting snapshot retention deletion for [3] snapshots', 'org.elasticsearch.xpack.slm.SnapshotRetentionTask', 'management][T#2')
    for j in range(3):
        add(tr + timedelta(seconds=1.3 + j * 4), 'INFO', '[s3_repository] snapshot retention deleting snapshot [hourly-snap-2031.04.24-%s]' % alnum(rnd, 22, string.ascii_lowercase + string.digits), 'org.elasticsearch.xpack.slm.SnapshotRetentionTask', 'management][T#2')
    add(tr + timedelta(seconds=14.0), 'INFO', 'SLM retention snapshot cleanup task complete', 'org.elasticsearch.xpack.slm.SnapshotRetentionTask', 'management][T#2')
    # security: failed logins
    for t in times(rnd, 7, 900, 1100):
        user = rnd.choice(['elastic', 'kibana_system', 'logstash_writer'])
        add(t, 'WARN', 'Authentication to realm file1 failed - Password authentication failed for %s' % user if user == 'logstash_writer' else 'Authentication of [%s] was terminated by realm [reserved] - failed to authenticate user [%s]' % (user, user),
            'org.elasticsearch.xpack.security.authc.RealmsAuthenticator', 'transport_worker][T#%d' % rnd.randint(1, 8))
    # ILM error on a legacy index
    for t in times(rnd, 3, 600, 3500):
        add(t, 'ERROR', 'policy [logs-legacy] for index [logs-legacy-000017] failed on step [{"phase":"hot","action":"rollover","name":"check-rollover-ready"}]. Moving to ERROR step',
            'org.elasticsearch.xpack.ilm.IndexLifecycleRunner', 'trigger_engine_scheduler][T#1',
            ('java.lang.IllegalArgumentException', 'index.lifecycle.rollover_alias [logs-legacy] does not point to index [logs-legacy-000017]', ES_ILM_STACK))
    # snapshots (SLM) every 30 min
    for k, off in enumerate([900.117, 2700.391]):
        t = at(off)
        snap = 'nightly-snap-2031.05.01-%s' % alnum(rnd, 22, string.ascii_lowercase + string.digits)[:22]
        add(t, 'INFO', 'snapshot lifecycle policy [hourly-snapshots] issuing create snapshot [%s]' % snap, 'org.elasticsearch.xpack.slm.SnapshotLifecycleTask', 'trigger_engine_scheduler][T#1')
        add(t + timedelta(milliseconds=120), 'INFO', 'snapshot [s3_repository:%s/%s] started' % (snap, alnum(rnd, 22)), 'org.elasticsearch.snapshots.SnapshotsService', 'masterService#updateTask][T#1')
        add(t + timedelta(seconds=rnd.uniform(40, 120)), 'INFO', 'snapshot [s3_repository:%s/%s] completed with state [SUCCESS]' % (snap, alnum(rnd, 22)), 'org.elasticsearch.snapshots.SnapshotsService', 'snapshot][T#2')
        add(t + timedelta(seconds=130), 'INFO', 'snapshot lifecycle policy job [hourly-snapshots-1] issued new snapshot creation for [%s] successfully' % snap, 'org.elasticsearch.xpack.slm.SnapshotLifecycleTask', 'snapshot][T#2')
    # search rejections / circuit breaker
    for t in times(rnd, 4, 3000, 3200):
        add(t, 'WARN', 'path: /logs-*/_search, params: {index=logs-*, size=0}, status: 429', 'org.elasticsearch.rest.RestResponse', 'search][T#%d' % rnd.randint(1, 13),
            ('org.elasticsearch.common.breaker.CircuitBreakingException', '[parent] Data too large, data for [<http_request>] would be [4140371968/3.8gb], which is larger than the limit of [4080218931/3.7gb], real usage: [4140368896/3.8gb], new bytes reserved: [3072/3kb], usages [model_inference=0/0b, inflight_requests=3072/3kb, request=0/0b, fielddata=812091/793kb, eql_sequence=0/0b]',
             'org.elasticsearch.common.breaker.CircuitBreakingException: [parent] Data too large, data for [<http_request>] would be [4140371968/3.8gb], which is larger than the limit of [4080218931/3.7gb]\n\tat org.elasticsearch.server@8.13.2/org.elasticsearch.indices.breaker.HierarchyCircuitBreakerService.checkParentLimit(HierarchyCircuitBreakerService.java:454)\n\tat org.elasticsearch.server@8.13.2/org.elasticsearch.common.breaker.ChildMemoryCircuitBreaker.addEstimateBytesAndMaybeBreak(ChildMemoryCircuitBreaker.java:118)\n\tat org.elasticsearch.server@8.13.2/org.elasticsearch.http.HttpServerTransport.incomingRequest(HttpServerTransport.java:441)\n\tat java.base/java.lang.Thread.run(Thread.java:1583)'))
    tl.flush(s)
    s.field('@timestamp', 'time', None, 'time')
    s.field('log.level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('log.logger', 'text', None, 'logger')
    s.field('process.thread.name', 'text', None, 'thread')
    s.field('elasticsearch.node.name', 'text', None, 'host')
    s.field('elasticsearch.cluster.name', 'text')
    s.field('error.type', 'text', None, 'exception')
    s.field('error.message', 'text')
    s.field('error.stack_trace', 'text')
    s.fact("events with log.level WARN", 'count', flt=F('log.level', '==', 'WARN'))
    s.fact("events with log.level ERROR", 'count', flt=F('log.level', '==', 'ERROR'))
    s.fact('events with error.stack_trace', 'count', flt=F('error.stack_trace', 'exists'))
    s.fact('distinct log.logger', 'distinct', 'log.logger')
    s.fact("events whose message starts with '[gc]'", 'count', flt=F('message', 'startswith', '[gc]'))
    return s


# ======================================================================= 12 RabbitMQ
def gen_rabbitmq():
    rnd = random.Random(112)
    s = Sample('rabbitmq', 'RabbitMQ 3.12 log file (rabbit@host.log, 3.9+ text format; multi-line messages are split, each line prefixed)', 'rabbit@mq1.log')
    tl = TL()
    state = {'pid': 1180}

    def add(t, lvl, pid, msg):
        ts = t.strftime('%Y-%m-%d %H:%M:%S') + '.%06d+00:00' % t.microsecond
        for ln in msg.split('\n'):
            tl.add(t, '%s [%s] %s %s' % (ts, lvl, pid, ln), timestamp=ts, level=lvl, pid=pid, message=ln)

    def npid():
        state['pid'] += rnd.randint(3, 400)
        return '<0.%d.0>' % state['pid']

    boot = [
        ('notice', '<0.44.0>', 'Application syslog exited with reason: stopped'),
        ('notice', '<0.248.0>', 'Logging: switching to configured handler(s); following messages may not be visible in this log output'),
        ('notice', '<0.248.0>', 'Logging: configured log handlers are now ACTIVE'),
        ('info', '<0.254.0>', 'ra: starting system quorum_queues'),
        ('info', '<0.254.0>', 'starting Ra system: quorum_queues in directory: /var/lib/rabbitmq/mnesia/rabbit@mq1/quorum/rabbit@mq1'),
        ('info', '<0.268.0>', "ra system 'quorum_queues' running pre init for 3 registered servers"),
        ('info', '<0.269.0>', 'ra: meta data store initialised for system quorum_queues. 3 record(s) recovered'),
        ('notice', '<0.274.0>', 'ra_systems_sup: started Ra system quorum_queues'),
        ('info', '<0.227.0>', '\n Starting RabbitMQ 3.12.13 on Erlang 26.2.3 [jit]\n Copyright (c) 2007-2023 VMware, Inc. or its affiliates.\n Licensed under the MPL 2.0. Website: https://rabbitmq.com'),
        ('info', '<0.227.0>', '\n node           : rabbit@mq1\n home dir       : /var/lib/rabbitmq\n config file(s) : /etc/rabbitmq/rabbitmq.conf\n                : /etc/rabbitmq/conf.d/10-defaults.conf\n cookie hash    : q2eXk1N8pG7bQ0v3rYz5WA==\n log(s)         : /var/log/rabbitmq/rabbit@mq1.log\n data dir       : /var/lib/rabbitmq/mnesia/rabbit@mq1'),
        ('info', '<0.227.0>', 'Running boot step pre_boot defined by app rabbit'),
        ('info', '<0.227.0>', 'Running boot step rabbit_global_counters defined by app rabbit'),
        ('info', '<0.227.0>', 'Running boot step rabbit_osiris_metrics defined by app rabbit'),
        ('info', '<0.227.0>', 'Running boot step rabbit_core_metrics defined by app rabbit'),
        ('info', '<0.227.0>', 'Running boot step rabbit_alarm defined by app rabbit'),
        ('info', '<0.286.0>', 'Memory high watermark set to 3276 MiB (3435973836 bytes) of 8192 MiB (8589934592 bytes) total'),
        ('info', '<0.288.0>', 'Enabling free disk space monitoring (disk free space: 41337946112, total memory: 8589934592)'),
        ('info', '<0.288.0>', 'Disk free limit set to 50MB'),
        ('info', '<0.227.0>', 'Running boot step code_server_cache defined by app rabbit'),
        ('info', '<0.227.0>', 'Running boot step file_handle_cache defined by app rabbit'),
        ('info', '<0.291.0>', 'Limiting to approx 1048479 file handles (943629 sockets)'),
        ('info', '<0.227.0>', 'Running boot step database defined by app rabbit'),
        ('info', '<0.227.0>', 'Waiting for Mnesia tables for 30000 ms, 9 retries left'),
        ('info', '<0.227.0>', 'Successfully synced tables from a peer'),
        ('info', '<0.227.0>', 'Running boot step recovery defined by app rabbit'),
        ('info', '<0.227.0>', 'Running boot step empty_db_check defined by app rabbit'),
        ('info', '<0.227.0>', 'Will not seed default virtual host and user: have definitions to load...'),
        ('info', '<0.592.0>', 'Ready to start client connection listeners'),
        ('info', '<0.729.0>', 'started TCP listener on [::]:5672'),
        ('info', '<0.740.0>', 'Management plugin: HTTP (non-TLS) listener started on port 15672'),
        ('info', '<0.768.0>', 'Statistics database started.'),
        ('info', '<0.776.0>', 'Prometheus metrics: HTTP (non-TLS) listener started on port 15692'),
        ('info', '<0.592.0>', ' * rabbitmq_prometheus\n * rabbitmq_shovel_management\n * rabbitmq_management\n * rabbitmq_web_dispatch\n * rabbitmq_management_agent\n * rabbitmq_shovel'),
        ('info', '<0.592.0>', 'Server startup complete; 6 plugins started.'),
    ]
    t = at(0.5)
    for lvl, pid, msg in boot:
        t += timedelta(milliseconds=rnd.randint(1, 60))
        add(t, lvl, pid, msg)
    server = '10.0.3.30:5672'
    apps = [('10.0.2.15', 'shop'), ('10.0.2.16', 'shop'), ('10.0.2.17', 'shop'), ('10.0.2.21', 'payments'), ('10.0.2.22', 'payments'), ('10.0.6.4', 'celery')]

    def connection(t0, dur, ip, user, close='normal'):
        pid = npid()
        c = '%s:%d -> %s' % (ip, rnd.randint(32768, 60999), server)
        add(t0, 'info', pid, 'accepting AMQP connection %s (%s)' % (pid, c))
        add(t0 + timedelta(milliseconds=rnd.randint(3, 20)), 'info', pid, "connection %s (%s): user '%s' authenticated and granted access to vhost '/'" % (pid, c, user))
        t1 = t0 + timedelta(seconds=dur)
        if close == 'normal':
            add(t1, 'info', pid, "closing AMQP connection %s (%s, vhost: '/', user: '%s')" % (pid, c, user))
        elif close == 'abrupt':
            add(t1, 'warning', pid, "closing AMQP connection %s (%s, vhost: '/', user: '%s'):\nclient unexpectedly closed TCP connection" % (pid, c, user))
        elif close == 'heartbeat':
            add(t1, 'error', pid, "closing AMQP connection %s (%s):\nmissed heartbeats from client, timeout: 60s" % (pid, c))
        if close != 'open':
            add(t1 + timedelta(milliseconds=1), 'info', npid(), "Closing all channels from connection '%s' because it has been closed" % c.split(' -> ')[0] + ' -> ' + server)
        return pid, c

    # long-lived app connections opened at boot
    openc = []
    t = at(4.2)
    for ip, user in apps:
        for _ in range(2):
            t += timedelta(milliseconds=rnd.randint(20, 400))
            openc.append((connection(t, 0, ip, user, 'open'), ip, user))
    # short-lived publishers (cron, web requests w/o pooling)
    for t0 in times(rnd, 70, 10, 3580):
        ip, user = rnd.choice([('10.0.2.15', 'shop'), ('10.0.2.16', 'shop'), ('10.0.2.17', 'shop'), ('10.0.5.40', 'reports'), ('10.0.6.4', 'celery')])
        close = wchoice(rnd, [('normal', 80), ('abrupt', 15), ('heartbeat', 3)])
        connection(t0, rnd.uniform(0.05, 20) if close != 'heartbeat' else rnd.uniform(70, 200), ip, user, close)
    # auth failures
    for t0 in times(rnd, 4, 2000, 2100):
        pid = npid()
        c = '10.0.9.41:%d -> %s' % (rnd.randint(32768, 60999), server)
        add(t0, 'info', pid, 'accepting AMQP connection %s (%s)' % (pid, c))
        add(t0 + timedelta(milliseconds=4), 'error', pid, "Error on AMQP connection %s (%s, state: starting):\nPLAIN login refused: user 'guest' - invalid credentials" % (pid, c))
        add(t0 + timedelta(milliseconds=6), 'info', pid, "closing AMQP connection %s (%s)" % (pid, c))
    # channel errors on pooled connections
    for t0 in times(rnd, 6, 300, 3500):
        (pid, c), ip, user = rnd.choice(openc)
        ch = npid()
        msg = rnd.choice(["operation basic.publish caused a channel exception not_found: no exchange 'orders.events.v2' in vhost '/'",
                          "operation queue.declare caused a channel exception precondition_failed: inequivalent arg 'x-queue-type' for queue 'tasks' in vhost '/': received none but current is the value 'quorum' of type 'longstr'",
                          "operation basic.ack caused a channel exception precondition_failed: unknown delivery tag %d" % rnd.randint(1, 9999)])
        add(t0, 'error', ch, "Channel error on connection %s (%s, vhost: '/', user: '%s'), channel %d:\n%s" % (pid, c, user, rnd.randint(1, 9), msg))
    # memory alarm
    ta = at(2511.713)
    add(ta, 'info', '<0.286.0>', 'vm_memory_high_watermark set. Memory used:3459218432 allowed:3435973836')
    add(ta + timedelta(milliseconds=1), 'warning', '<0.284.0>', "memory resource limit alarm set on node 'rabbit@mq1'.\n\n**********************************************************\n*** Publishers will be blocked until this alarm clears ***\n**********************************************************\n")
    add(ta + timedelta(seconds=47.3), 'info', '<0.286.0>', 'vm_memory_high_watermark clear. Memory used:3011772416 allowed:3435973836')
    add(ta + timedelta(seconds=47.3), 'warning', '<0.284.0>', "memory resource limit alarm cleared on node 'rabbit@mq1'")
    add(ta + timedelta(seconds=47.3), 'warning', '<0.284.0>', "memory resource limit alarm cleared across the cluster")
    # quorum queue leader changes
    for t0 in times(rnd, 3, 1200, 1300):
        q = rnd.choice(['tasks', 'payments.capture', 'emails'])
        add(t0, 'notice', npid(), "queue '%s' in vhost '/': candidate -> leader in term: %d machine version: 3" % (q, rnd.randint(4, 30)))
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('pid', 'text', None, 'pid')
    s.field('message', 'text', None, 'message')
    s.fact("lines/events with level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("lines/events with level 'warning'", 'count', flt=F('level', '==', 'warning'))
    s.fact("events starting 'accepting AMQP connection'", 'count', flt=F('message', 'startswith', 'accepting AMQP connection'))
    s.fact("distinct client IPs in 'accepting AMQP connection' events", 'distinct', flt=F('message', 'startswith', 'accepting AMQP connection'),
           key=lambda e: e['message'].split('(')[1].split(':')[0])
    s.fact("events with level 'notice'", 'count', flt=F('level', '==', 'notice'))
    return s


# ======================================================================= 13/14 Go slog
GO_HTTP_PANIC = '''http: panic serving 10.0.2.%d:%d: runtime error: invalid memory address or nil pointer dereference
goroutine %d [running]:
net/http.(*conn).serve.func1()
	/usr/local/go/src/net/http/server.go:1903 +0xbe
panic({0x9e4b20?, 0x10f3e10?})
	/usr/local/go/src/runtime/panic.go:770 +0x132
github.com/acme/orders-api/internal/orders.(*Service).Get(0xc0001c6000, {0xb83f48, 0xc00052e2d0}, {0xc0003a21e0, 0x6})
	/src/internal/orders/service.go:88 +0x3c
github.com/acme/orders-api/internal/httpapi.(*Handler).getOrder(0xc0000a4b40, {0xb82a70, 0xc0004e61c0}, 0xc000532120)
	/src/internal/httpapi/orders.go:41 +0x9a
net/http.HandlerFunc.ServeHTTP(0xc000532000?, {0xb82a70?, 0xc0004e61c0?}, 0x6?)
	/usr/local/go/src/net/http/server.go:2171 +0x29
net/http.(*ServeMux).ServeHTTP(0x0?, {0xb82a70, 0xc0004e61c0}, 0xc000532120)
	/usr/local/go/src/net/http/server.go:2688 +0x1ad
net/http.serverHandler.ServeHTTP({0xc000526ba0?}, {0xb82a70?, 0xc0004e61c0?}, 0x6?)
	/usr/local/go/src/net/http/server.go:3142 +0x8e
net/http.(*conn).serve(0xc0001f2240, {0xb83f48, 0xc000516f60})
	/usr/local/go/src/net/http/server.go:2044 +0x5e8
created by net/http.(*Server).Serve in goroutine 1
	/usr/local/go/src/net/http/server.go:3290 +0x4b4'''

GO_FATAL_PANIC = '''panic: send on closed channel

goroutine 73 [running]:
github.com/acme/orders-api/internal/outbox.(*Relay).publish(0xc0002b4000, {0xc0004f2000, 0x19, 0x20})
	/src/internal/outbox/relay.go:142 +0x1e5
github.com/acme/orders-api/internal/outbox.(*Relay).Run(0xc0002b4000, {0xb83f48, 0xc0000b2050})
	/src/internal/outbox/relay.go:97 +0x2c7
created by main.main in goroutine 1
	/src/cmd/orders-api/main.go:74 +0x6e5'''


def _slog_requests(rnd, n, start, end):
    """Shared request model for the two slog samples."""
    clients = private_ips(rnd, 14, '10.0.2.')
    out = []
    for t in times(rnd, n, start, end):
        method = wchoice(rnd, [('GET', 70), ('POST', 20), ('PATCH', 5), ('DELETE', 5)])
        if method == 'GET':
            path = rnd.choice(['/v1/orders/%d' % rnd.randint(180000, 189999), '/v1/orders?customer_id=%d&limit=20' % rnd.randint(1000, 99999), '/v1/orders/%d/items' % rnd.randint(180000, 189999), '/healthz', '/metrics'])
        elif method == 'POST':
            path = rnd.choice(['/v1/orders', '/v1/orders/%d/cancel' % rnd.randint(180000, 189999)])
        else:
            path = '/v1/orders/%d' % rnd.randint(180000, 189999)
        okc = {'GET': 200, 'POST': 201, 'PATCH': 200, 'DELETE': 204}[method]
        if path in ('/healthz', '/metrics'):
            status, dur = 200, int(lognorm(rnd, 180e3, 0.4))
        else:
            status = wchoice(rnd, [(okc, 88), (400, 3), (401, 1.5), (404, 3.5), (409, 1), (500, 1.5), (503, 0.8), (504, 0.4)])
            dur = int(lognorm(rnd, 14e6, 0.9))
            if status == 504:
                dur = 5 * 10 ** 9 + rnd.randint(100000, 9000000)
            if status == 503:
                dur = int(lognorm(rnd, 1.2e6, 0.3))
        out.append((t, method, path, status, dur, rnd.choice(clients) + ':%d' % rnd.randint(32768, 60999), uid(rnd)))
    return out


GO_ERRS = {500: ['pq: duplicate key value violates unique constraint "orders_idempotency_key_key"', 'context canceled', 'inventory: reserve: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.0.3.44:9090: connect: connection refused"'],
           503: ['circuit breaker is open'], 504: ['context deadline exceeded']}


def gen_slog_json():
    rnd = random.Random(113)
    s = Sample('go_slog_json', 'Go log/slog JSONHandler output (orders-api service)', 'go-slog-json.log')
    tl = TL()

    def add(t, level, msg, **kw):
        o = {'time': go_nano(t, rnd.randint(0, 999)), 'level': level, 'msg': msg}
        o.update(kw)
        tl.add(t, jdump(o), **o)

    def boot(t, pid):
        add(t, 'INFO', 'starting orders-api', version='1.14.2', commit='9f2c1ab', go_version='go1.22.2', pid=pid)
        add(t + timedelta(milliseconds=3), 'INFO', 'config loaded', env='production', http_addr=':8080', db_max_conns=20, log_level='INFO')
        add(t + timedelta(milliseconds=41), 'INFO', 'connected to database', host='pg-primary.internal', db='orders', pool_max=20, duration=int(lognorm(rnd, 38e6, 0.2)))
        add(t + timedelta(milliseconds=44), 'INFO', 'outbox relay started', interval=5000000000, batch=100)
        add(t + timedelta(milliseconds=45), 'INFO', 'http server listening', addr=':8080')

    boot(at(0.3), 1)
    crash = at(2874.61)
    restart = crash + timedelta(seconds=1.8)
    for t, method, path, status, dur, remote, rid in _slog_requests(rnd, 360, 1, 3599):
        if crash <= t <= restart + timedelta(seconds=1):
            continue
        lvl = 'INFO' if status < 400 else ('WARN' if status < 500 else 'ERROR')
        kw = dict(method=method, path=path, status=status, duration=dur, bytes=0 if status == 204 else rnd.randint(2, 9000), remote_addr=remote, request_id=rid)
        if status >= 500:
            kw['err'] = rnd.choice(GO_ERRS[status])
        add(t + timedelta(microseconds=dur // 1000), lvl, 'request completed', **kw)
    for t in times(rnd, 40, 5, 3595):
        if crash <= t <= restart:
            continue
        n = rnd.randint(0, 40)
        add(t, 'INFO', 'outbox flushed', published=n, pending=rnd.randint(0, 5), duration=int(lognorm(rnd, 6e6, 0.6)))
    for t in times(rnd, 6, 5, 3595):
        add(t, 'INFO', 'http: TLS handshake error from %s:%d: EOF' % (rnd.choice(public_ips(rnd, 4)), rnd.randint(30000, 65000)))
    for t in times(rnd, 5, 5, 3595):
        add(t, 'WARN', 'slow query', query='SELECT id, status, total_cents FROM orders WHERE customer_id = $1 ORDER BY created_at DESC LIMIT $2', duration=int(lognorm(rnd, 700e6, 0.4)), rows=rnd.randint(0, 20))
    for t in times(rnd, 3, 1000, 2800):
        add(t, 'WARN', 'retrying publish', attempt=rnd.randint(1, 3), backoff=rnd.choice([200000000, 400000000, 800000000]), err='kafka: client has run out of available brokers to talk to: dial tcp 10.0.5.11:9092: i/o timeout')
    tp = at(1744.2)
    add(tp, 'INFO', GO_HTTP_PANIC % (rnd.randint(2, 250), rnd.randint(32768, 60999), rnd.randint(1000, 9000)))
    add(tp + timedelta(milliseconds=1), 'ERROR', 'request completed', method='GET', path='/v1/orders/%d' % rnd.randint(180000, 189999), status=0, duration=412331,
        bytes=0, remote_addr='10.0.2.%d:%d' % (rnd.randint(2, 250), rnd.randint(32768, 60999)), request_id=uid(rnd), err='handler panicked')
    add(crash - timedelta(milliseconds=4), 'ERROR', 'publish failed', err='kafka: Failed to produce message to topic order-events: kafka server: Not Enough In Sync Replicas', batch=100)
    tl.raw(crash, GO_FATAL_PANIC)
    tl.items[-1] = (crash, tl.items[-1][1], GO_FATAL_PANIC, {'panic': 'send on closed channel', 'level': None})
    boot(restart, 1)
    add(at(3599.2), 'INFO', 'shutdown signal received', signal='terminated')
    tl.flush(s)
    s.field('time', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('msg', 'text', None, 'message')
    s.field('method', 'text', None, 'method')
    s.field('path', 'text', None, 'path')
    s.field('status', 'number', None, 'status')
    s.field('duration', 'number', 'ns', 'duration')
    s.field('bytes', 'number', 'b', 'bytes')
    s.field('remote_addr', 'text', None, 'client')
    s.field('request_id', 'text')
    s.field('err', 'text', None, 'exception')
    req = F('msg', '==', 'request completed')
    s.fact("events with level ERROR", 'count', flt=F('level', '==', 'ERROR'))
    s.fact("events with level WARN", 'count', flt=F('level', '==', 'WARN'))
    s.fact("'request completed' events with status >= 500", 'count', flt={'all': [req, F('status', '>=', 500)]})
    s.fact("max duration (ns) over 'request completed' events", 'max', 'duration', req)
    s.fact("p95 (nearest-rank) of duration in ns over 'request completed' events", 'p95', 'duration', req)
    s.fact('non-JSON events (Go runtime panic dump written to stderr, one multi-line event)', 'count', flt=F('panic', 'exists'), publish=False)
    return s


def go_txt(v):
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if s == '' or any(c in ' ="' or not c.isprintable() for c in s):
        return json.dumps(s, ensure_ascii=False)
    return s


def gen_slog_text():
    rnd = random.Random(114)
    s = Sample('go_slog_text', 'Go log/slog TextHandler output (invoices-api, level DEBUG enabled)', 'go-slog-text.log')
    tl = TL()

    def add(t, level, msg, kv, rec=None):
        ts = iso(t, 3)
        text = 'time=%s level=%s msg=%s' % (ts, level, go_txt(msg))
        for k, v in kv:
            text += ' %s=%s' % (k, go_txt(v))
        r = {'time': ts, 'level': level, 'msg': msg}
        for k, v in kv:
            r[k] = v
        r.update(rec or {})
        tl.add(t, text, **r)

    def D(ns):
        return go_dur(ns)

    add(at(0.21), 'INFO', 'starting invoices-api', [('version', 'v2.8.0'), ('go', 'go1.22.3'), ('pid', 7)])
    add(at(0.22), 'DEBUG', 'config', [('http.addr', ':8081'), ('db.dsn', 'postgres://invoices:***@pg-primary.internal:5432/invoices?sslmode=require'), ('pdf.workers', 4)])
    add(at(0.27), 'INFO', 'database ready', [('host', 'pg-primary.internal'), ('latency', D(41211031))], {'latency_ms': 41.211031})
    add(at(0.28), 'INFO', 'listening', [('addr', ':8081')])
    reqs = _slog_requests(rnd, 330, 1, 3599)
    for t, method, path, status, dur, remote, rid in reqs:
        path = path.replace('orders', 'invoices')
        lvl = 'INFO' if status < 400 else ('WARN' if status < 500 else 'ERROR')
        tend = t + timedelta(microseconds=dur // 1000)
        if rnd.random() < 0.25 and not path.startswith(('/healthz', '/metrics')):
            add(t + timedelta(microseconds=300), 'DEBUG', 'cache lookup', [('request_id', rid), ('key', 'invoice:' + path.rsplit('/', 1)[-1].split('?')[0]), ('hit', rnd.random() < 0.7)])
        kv = [('req.method', method), ('req.path', path), ('req.remote_addr', remote), ('resp.status', status),
              ('resp.bytes', 0 if status == 204 else rnd.randint(2, 9000)), ('duration', D(dur)), ('request_id', rid)]
        if status >= 500:
            kv.append(('err', rnd.choice(GO_ERRS[status]).replace('orders_idempotency', 'invoices_number')))
        add(tend, lvl, 'request completed', kv, {'duration_ms': dur / 1e6})
    for t in times(rnd, 30, 20, 3590):
        n = rnd.randint(1, 12)
        ok = rnd.random() > 0.1
        if ok:
            add(t, 'INFO', 'pdf batch rendered', [('job', 'render-pdf'), ('invoices', n), ('duration', D(int(lognorm(rnd, 800e6, 0.5))))], {'batch': True})
        else:
            add(t, 'ERROR', 'pdf render failed', [('job', 'render-pdf'), ('invoice_id', 'INV-2031-%06d' % rnd.randint(1, 99999)),
                                                   ('err', 'chromium: exit status 1: "Page.printToPDF timed out"'), ('attempt', rnd.randint(1, 3))])
    for t in times(rnd, 6, 600, 3500):
        add(t, 'WARN', 'smtp send retry', [('to_domain', rnd.choice(['example.org', 'mail.example.net'])), ('attempt', rnd.randint(1, 4)), ('backoff', D(rnd.choice([2, 4, 8]) * 10 ** 9)),
                                         ('err', '421 4.7.0 Try again later, closing connection.')])
    add(at(3598.9), 'INFO', 'shutting down', [('signal', 'terminated'), ('grace', D(15 * 10 ** 9))])
    tl.flush(s)
    s.field('time', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('msg', 'text', None, 'message')
    s.field('req.method', 'text', None, 'method')
    s.field('req.path', 'text', None, 'path')
    s.field('req.remote_addr', 'text', None, 'client')
    s.field('resp.status', 'number', None, 'status')
    s.field('resp.bytes', 'number', 'b', 'bytes')
    s.field('duration', 'text', None, 'duration')
    s.field('request_id', 'text')
    s.field('err', 'text', None, 'exception')
    req = F('msg', '==', 'request completed')
    s.fact('events with level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    s.fact('events with level DEBUG', 'count', flt=F('level', '==', 'DEBUG'))
    s.fact("'request completed' events with resp.status >= 500", 'count', flt={'all': [req, F('resp.status', '>=', 500)]})
    s.fact("max duration over 'request completed' events, Go duration strings converted to ms", 'max', flt=req, key=lambda e: e['duration_ms'])
    s.fact("p95 (nearest-rank) of duration in ms over 'request completed' events (Go duration strings converted to ms)", 'p95', flt=req, key=lambda e: e['duration_ms'])
    s.fact("distinct client IPs (host part of req.remote_addr)", 'distinct', flt=req, key=lambda e: e['req.remote_addr'].rsplit(':', 1)[0])
    return s


# ======================================================================= 15 Rust tracing
def rs_dbg(sv):
    return '"' + sv.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n').replace('\t', '\\t') + '"'


def gen_rust_tracing():
    rnd = random.Random(115)
    s = Sample('rust_tracing', 'Rust tracing-subscriber fmt() default (Full) format, ANSI off (axum + tower-http service)', 'rust-tracing.log')
    tl = TL()

    def add(t, lvl, spans, target, msg, fields=(), rec=None):
        sp = ':'.join(n + ('{' + f + '}' if f else '') for n, f in spans)
        body = msg
        fs = ' '.join('%s=%s' % kv for kv in fields)
        if fs:
            body = (body + ' ' + fs) if body else fs
        text = '%s %5s %s%s: %s' % (iso(t, 6), lvl, (sp + ': ') if sp else '', target, body)
        r = {'timestamp': iso(t, 6), 'level': lvl, 'span': sp or None, 'target': target, 'message': msg}
        for k, v in fields:
            r[k] = v
        r.update(rec or {})
        tl.add(t, text, **r)

    add(at(0.101), 'INFO', [], 'inventory_svc', 'starting inventory-svc', [('version', rs_dbg('2.3.1')), ('git_sha', rs_dbg('4be11c0'))])
    add(at(0.104), 'INFO', [], 'sqlx::postgres::notice', 'relation "_sqlx_migrations" already exists, skipping')
    add(at(0.131), 'INFO', [], 'inventory_svc::db', 'migrations applied', [('applied', '0'), ('pending', '0')])
    add(at(0.132), 'INFO', [], 'inventory_svc::server', 'listening on 0.0.0.0:8080')
    clients = private_ips(rnd, 10, '10.0.2.')
    for t in times(rnd, 300, 1, 3599):
        method = wchoice(rnd, [('GET', 70), ('POST', 22), ('DELETE', 8)])
        if method == 'GET':
            uri = rnd.choice(['/api/v1/items/%d' % rnd.randint(1000, 9999), '/api/v1/items?sku=SKU-%d' % rnd.randint(1000, 9999), '/api/v1/stock/SKU-%d' % rnd.randint(1000, 9999), '/health'])
        elif method == 'POST':
            uri = '/api/v1/reservations'
        else:
            uri = '/api/v1/reservations/%s' % uid(rnd)
        span = [('request', 'method=%s uri=%s version=HTTP/1.1' % (method, uri))]
        lat = int(lognorm(rnd, 4, 1.0)) if uri != '/health' else 0
        status = {'GET': 200, 'POST': 201, 'DELETE': 204}[method]
        r = rnd.random()
        if uri == '/health':
            pass
        elif method == 'POST':
            sku = 'SKU-%d' % rnd.randint(1000, 9999)
            qty = rnd.randint(1, 3)
            inner = span + [('reserve_stock', 'sku=%s qty=%d' % (rs_dbg(sku), qty))]
            if r < 0.06:
                status = 500
                add(t + timedelta(milliseconds=lat - 1 if lat > 1 else 0), 'ERROR', inner, 'inventory_svc::reservations', 'failed to reserve stock',
                    [('error', rnd.choice(['error returned from database: could not serialize access due to concurrent update',
                                           'pool timed out while waiting for an open connection']))])
            elif r < 0.16:
                status = 409
                add(t + timedelta(milliseconds=max(lat - 1, 0)), 'WARN', inner, 'inventory_svc::reservations', 'insufficient stock', [('available', str(rnd.randint(0, 1))), ('requested', str(qty))])
            else:
                add(t + timedelta(milliseconds=max(lat - 1, 0)), 'INFO', inner, 'inventory_svc::reservations', 'reservation created', [('reservation_id', uid(rnd))])
        elif method == 'GET' and r < 0.05:
            status = 404
            iid = uri.rsplit('/', 1)[-1] if uri.startswith('/api/v1/items/') else uri.rsplit('-', 1)[-1]
            add(t + timedelta(milliseconds=max(lat - 1, 0)), 'WARN', span, 'inventory_svc::handlers::items', 'item not found', [('item_id', iid)])
        elif method == 'DELETE' and r < 0.1:
            status = 404
        te = t + timedelta(milliseconds=lat, microseconds=rnd.randint(1, 900))
        if status >= 500:
            add(te, 'ERROR', span, 'tower_http::trace::on_failure', 'response failed',
                [('classification', 'Status code: 500 Internal Server Error'), ('latency', '%d ms' % lat)], {'latency_ms': lat})
        add(te, 'INFO', span, 'tower_http::trace::on_response', 'finished processing request', [('latency', '%d ms' % lat), ('status', str(status))],
            {'latency_ms': lat, 'status': status})
    for t in times(rnd, 6, 60, 3500):
        el = lognorm(rnd, 1.4, 0.3)
        add(t, 'WARN', [], 'sqlx::query', 'slow statement: execution time exceeded alert threshold',
            [('summary', rs_dbg('select i.id, i.sku, …')), ('db.statement', rs_dbg('\n\nselect\n  i.id,\n  i.sku,\n  s.available\nfrom\n  items i\n  join stock s on s.item_id = i.id\nwhere\n  i.sku = any($1)\n')),
             ('rows_affected', '0'), ('rows_returned', str(rnd.randint(1, 200))), ('elapsed', '%.6fs' % el), ('elapsed_secs', '%.6f' % el), ('slow_threshold', '1s')])
    for k in range(12):
        t = at(150 + 300 * k + rnd.uniform(0, 1))
        span = [('stock_sync', 'run=%d' % (k + 1))]
        add(t, 'INFO', span, 'inventory_svc::sync', 'pulling stock levels from ERP')
        if k == 7:
            add(t + timedelta(seconds=10), 'WARN', span, 'inventory_svc::sync', 'ERP request failed, will retry', [('attempt', '1'), ('error', 'error sending request for url (https://erp.internal/api/stock): operation timed out')])
            add(t + timedelta(seconds=20.2), 'ERROR', span, 'inventory_svc::sync', 'stock sync failed', [('error', 'error sending request for url (https://erp.internal/api/stock): operation timed out')])
        else:
            add(t + timedelta(seconds=rnd.uniform(0.5, 3)), 'INFO', span, 'inventory_svc::sync', 'stock sync completed', [('items', str(rnd.randint(8000, 9000))), ('changed', str(rnd.randint(0, 300)))])
    tp = at(2231.77)
    tl.add(tp, "thread 'tokio-runtime-worker' panicked at src/handlers/reservations.rs:142:38:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
           panic='called `Option::unwrap()` on a `None` value', level=None)
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('span', 'text')
    s.field('target', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    s.field('latency', 'number', 'ms', 'duration')
    s.field('status', 'number', None, 'status')
    s.field('method', 'text', None, 'method')
    s.field('uri', 'text', None, 'path')
    s.field('error', 'text', None, 'exception')
    fin = F('message', '==', 'finished processing request')
    s.fact('events with level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    s.fact('events with level WARN', 'count', flt=F('level', '==', 'WARN'))
    s.fact("max latency (ms) over 'finished processing request' events", 'max', flt=fin, key=lambda e: e['latency_ms'])
    s.fact("p95 (nearest-rank) latency in ms over 'finished processing request' events", 'p95', flt=fin, key=lambda e: e['latency_ms'])
    s.fact("'finished processing request' events with status >= 500", 'count', flt={'all': [fin, F('status', '>=', 500)]})
    s.fact("Rust panic messages (non-tracing stderr block starting \"thread '...' panicked at\", one event)", 'count', flt=F('panic', 'exists'), publish=False)
    return s


# ======================================================================= 16 structlog
PY_TB_HTTP = '''Traceback (most recent call last):
  File "/app/payments/worker.py", line 88, in handle
    result = provider.charge(job.amount, job.currency, job.customer_id)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/app/payments/providers/acme.py", line 41, in charge
    resp.raise_for_status()
  File "/usr/local/lib/python3.11/site-packages/requests/models.py", line 1021, in raise_for_status
    raise HTTPError(http_error_msg, response=self)
requests.exceptions.HTTPError: 502 Server Error: Bad Gateway for url: https://api.acmepay.example/v1/charges'''

PY_TB_KEY = '''Traceback (most recent call last):
  File "/app/payments/worker.py", line 74, in handle
    customer = self.customers[job.customer_id]
               ~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^^
KeyError: 'cus_%s\''''


def gen_structlog():
    rnd = random.Random(116)
    s = Sample('python_structlog', 'Python structlog default ConsoleRenderer (colors=False), default processors incl. TimeStamper("%Y-%m-%d %H:%M:%S")', 'python-structlog.log')
    tl = TL()

    def r(v):
        return v if isinstance(v, str) else repr(v)

    def add(t, level, event, exc=None, **kv):
        ts = t.strftime('%Y-%m-%d %H:%M:%S')
        text = '%s [%s] ' % (ts, level.ljust(9))
        if kv:
            text += event.ljust(30) + ' ' + ' '.join('%s=%s' % (k, r(kv[k])) for k in sorted(kv))
        else:
            text += event
        if exc:
            text += '\n' + exc
        rec = {'timestamp': ts, 'level': level, 'event': event, 'traceback': exc.split('\n')[-1] if exc else None}
        rec.update(kv)
        tl.add(t, text, **rec)

    def std(t, level, logger, msg):
        tl.add(t, '%s:%s:%s' % (level, logger, msg), level=level, logger=logger, event=msg, stdlib=True)

    add(at(0.8), 'info', 'worker starting', version='3.4.1', queues=['payments', 'webhooks'], concurrency=4, pid=1)
    add(at(0.9), 'info', 'connected to broker', url='redis://redis:6379/2')
    jobs = 0
    for t in times(rnd, 260, 2, 3598):
        jobs += 1
        q = wchoice(rnd, [('payments', 60), ('webhooks', 40)])
        jid = hexs(rnd, 12)
        if q == 'payments':
            amt = rnd.choice([999, 1499, 2500, 4999, 12900, 35000])
            cur = rnd.choice(['EUR', 'EUR', 'USD', 'GBP'])
            cus = 'cus_' + alnum(rnd, 14)
            d = round(lognorm(rnd, 340.0, 0.5), 1)
            x = rnd.random()
            if x < 0.05:
                add(t, 'error', 'charge failed', exc=PY_TB_HTTP, job_id=jid, queue=q, attempt=rnd.randint(1, 3), customer_id=cus, duration_ms=d, provider='acmepay')
            elif x < 0.07:
                add(t, 'error', 'unexpected error', exc=PY_TB_KEY % alnum(rnd, 14), job_id=jid, queue=q, attempt=1, duration_ms=round(d / 20, 1))
            elif x < 0.13:
                add(t, 'warning', 'charge declined', job_id=jid, queue=q, customer_id=cus, amount=amt, currency=cur, decline_code=rnd.choice(['insufficient_funds', 'do_not_honor', 'expired_card']), duration_ms=d)
            else:
                add(t, 'info', 'charge succeeded', job_id=jid, queue=q, customer_id=cus, amount=amt, currency=cur, charge_id='ch_' + alnum(rnd, 20), duration_ms=d)
        else:
            url = rnd.choice(['https://hooks.partner-a.example/orders', 'https://erp.example.net/webhooks/payments', 'https://hooks.slack.example/services/T0/B0/x'])
            d = round(lognorm(rnd, 180.0, 0.7), 1)
            code = wchoice(rnd, [(200, 85), (202, 5), (404, 2), (500, 3), (503, 3), (None, 2)])
            if code is None:
                std(t - timedelta(seconds=1), 'WARNING', 'urllib3.connectionpool', "Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3b2c1d4e50>: Failed to establish a new connection: [Errno 111] Connection refused')': /webhooks/payments")
                add(t, 'warning', 'webhook delivery failed', job_id=jid, queue=q, url=url, error='ConnectionError', retry_in=60, duration_ms=round(d * 5, 1))
            elif code >= 400:
                add(t, 'warning', 'webhook delivery failed', job_id=jid, queue=q, url=url, http_status=code, retry_in=rnd.choice([30, 60, 120]), duration_ms=d)
            else:
                add(t, 'info', 'webhook delivered', job_id=jid, queue=q, url=url, http_status=code, duration_ms=d)
    for k in range(12):
        t = at(300 * k + 299.5)
        add(t, 'info', 'heartbeat', jobs_done=jobs * (k + 1) // 12, queue_depth={'payments': rnd.randint(0, 9), 'webhooks': rnd.randint(0, 30)}, rss_mb=round(150 + k * 3.1 + rnd.random(), 1))
    for t in times(rnd, 4, 1000, 3000):
        add(t, 'warning', 'redis reconnect', attempt=rnd.randint(1, 3), error='Error 104 while reading from socket: Connection reset by peer.')
    add(at(3599.6), 'info', 'worker stopping', reason='SIGTERM', inflight=1)
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('event', 'text', None, 'message')
    s.field('job_id', 'text')
    s.field('queue', 'text')
    s.field('customer_id', 'text', None, 'user')
    s.field('amount', 'number')
    s.field('currency', 'text')
    s.field('duration_ms', 'number', 'ms', 'duration')
    s.field('http_status', 'number', None, 'status')
    s.field('url', 'text', None, 'upstream')
    s.field('logger', 'text', None, 'logger')
    s.fact("events with level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("warning events (structlog 'warning' plus stdlib 'WARNING:' lines)", 'count', flt=F('level', 'in', ['warning', 'WARNING']))
    s.fact('max duration_ms', 'max', 'duration_ms')
    s.fact('p95 (nearest-rank) of duration_ms', 'p95', 'duration_ms')
    s.fact('events followed by a Python traceback (continuation lines)', 'count', flt=F('traceback', 'exists'), publish=False)
    s.fact("stdlib logging lines in 'LEVEL:logger:message' layout (not structlog)", 'count', flt=F('stdlib', 'exists'), publish=False)
    return s


# ======================================================================= 17 gunicorn
PY_TB_GUNICORN = '''Traceback (most recent call last):
  File "/usr/local/lib/python3.11/site-packages/gunicorn/workers/sync.py", line 135, in handle
    self.handle_request(listener, req, client, addr)
  File "/usr/local/lib/python3.11/site-packages/gunicorn/workers/sync.py", line 178, in handle_request
    respiter = self.wsgi(environ, resp.start_response)
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.11/site-packages/django/core/handlers/wsgi.py", line 124, in __call__
    response = self.get_response(request)
               ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.11/site-packages/django/core/handlers/base.py", line 140, in get_response
    response = self._middleware_chain(request)
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/app/shop/middleware.py", line 31, in __call__
    return self.get_response(request)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.11/site-packages/django/db/backends/utils.py", line 105, in _execute
    return self.cursor.execute(sql, params)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
django.db.utils.OperationalError: connection to server at "pg-primary.internal" (10.0.3.20), port 5432 failed: FATAL:  sorry, too many clients already'''


def gen_gunicorn():
    rnd = random.Random(117)
    s = Sample('gunicorn_access', 'gunicorn (Django) access log with access_log_format %(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(D)s, mixed with gunicorn error-log lines on the same stream', 'gunicorn.log')
    tl = TL()

    def elog(t, pid, lvl, msg):
        tl.add(t, '[%s] [%d] [%s] %s' % (t.strftime('%Y-%m-%d %H:%M:%S +0000'), pid, lvl, msg), level=lvl, pid=pid, message=msg.split('\n')[0])

    workers = [8, 9, 10, 11]
    elog(at(0.4), 1, 'INFO', 'Starting gunicorn 22.0.0')
    elog(at(0.41), 1, 'INFO', 'Listening at: http://0.0.0.0:8000 (1)')
    elog(at(0.41), 1, 'INFO', 'Using worker: sync')
    for i, w in enumerate(workers):
        elog(at(0.42 + i * 0.004), w, 'INFO', 'Booting worker with pid: %d' % w)
    clients = Pool(rnd, public_ips(rnd, 45) + ['10.0.1.20'], 0.9)
    for t in times(rnd, 420, 2, 3599):
        h = clients.pick()
        user = '-'
        method = wchoice(rnd, [('GET', 78), ('POST', 18), ('PUT', 2), ('DELETE', 2)])
        if h == '10.0.1.20':
            method, path, agent, ref = 'GET', '/healthz/', 'kube-probe/1.29', '-'
            st, b, D = 200, 2, int(lognorm(rnd, 1800, 0.3))
        else:
            agent = ua(rnd)
            ref = rnd.choice(['-', 'https://shop.example/', 'https://shop.example/cart/'])
            if method == 'GET':
                path = rnd.choice(['/', '/products/%d/' % rnd.randint(1000, 9999), '/api/orders/?page=%d' % rnd.randint(1, 9), '/api/products/?category=%s' % rnd.choice(['men', 'women', 'sale']),
                                   '/account/orders/', '/admin/shop/order/', '/admin/jsi18n/', '/cart/'])
                if path.startswith('/admin'):
                    user = '-'
            else:
                path = rnd.choice(['/api/cart/items/', '/api/orders/', '/accounts/login/', '/api/cart/items/%d/' % rnd.randint(1, 9999)])
            okc = {'GET': 200, 'POST': 201 if path.startswith('/api') else 302, 'PUT': 200, 'DELETE': 204}[method]
            st = wchoice(rnd, [(okc, 86), (301, 2 if method == 'GET' else 0), (302, 2), (400, 2), (403, 1.5), (404, 4), (500, 1.5)])
            D = int(lognorm(rnd, 48000, 0.8))
            b = 0 if st in (204, 301, 302) else (rnd.randint(1800, 60000) if st == 200 and not path.startswith('/api') else rnd.randint(40, 9000))
            if st == 500:
                b = 145
        r = '%s %s HTTP/1.1' % (method, path)
        line = '%s - %s [%s] "%s" %d %d "%s" "%s" %d' % (h, user, t.strftime('%d/%b/%Y:%H:%M:%S +0000'), r, st, b, ref, agent, D)
        tl.add(t + timedelta(microseconds=D), line, h=h, u=user, t=t.strftime('%d/%b/%Y:%H:%M:%S +0000'), r=r, s=st, b=b, f=ref, a=agent, D=D, method=method, path=path)
    # errors handled by gunicorn itself
    for t in times(rnd, 3, 1500, 1560):
        w = rnd.choice(workers)
        elog(t, w, 'ERROR', 'Error handling request /api/orders/\n' + PY_TB_GUNICORN)
    # worker timeout & replacement
    tt = at(2710.3)
    elog(tt, 1, 'CRITICAL', 'WORKER TIMEOUT (pid:10)')
    elog(tt + timedelta(milliseconds=3), 10, 'INFO', 'Worker exiting (pid: 10)')
    elog(tt + timedelta(seconds=1.01), 1, 'ERROR', 'Worker (pid:10) was sent SIGKILL! Perhaps out of memory?')
    elog(tt + timedelta(seconds=1.02), 44, 'INFO', 'Booting worker with pid: 44')
    elog(at(3421.9), 1, 'WARNING', 'Invalid request from ip=%s: Invalid HTTP method: \'\\x16\\x03\\x01\\x02\\x00\\x01\\x00\\x01\\xfc\\x03\\x03\'' % rnd.choice(public_ips(rnd, 3)))
    tl.flush(s)
    s.field('t', 'time', None, 'time')
    s.field('h', 'ip', None, 'client')
    s.field('l', 'text')
    s.field('u', 'text', None, 'user')
    s.field('r', 'text', None, 'path')
    s.field('s', 'number', None, 'status')
    s.field('b', 'number', 'b', 'bytes')
    s.field('f', 'text')
    s.field('a', 'text')
    s.field('D', 'number', 'us', 'duration')
    s.field('level', 'text', None, 'level')
    s.field('pid', 'number', None, 'pid')
    s.field('message', 'text', None, 'message')
    acc = F('s', 'exists')
    s.fact('access lines with status (s) >= 500', 'count', flt=F('s', '>=', 500))
    s.fact('max D (request time, microseconds) over access lines', 'max', 'D', acc)
    s.fact('p95 (nearest-rank) of D in microseconds over access lines', 'p95', 'D', acc)
    s.fact('distinct h (remote address) over access lines', 'distinct', 'h', acc)
    s.fact('gunicorn error-log events at level ERROR or CRITICAL', 'count', flt=F('level', 'in', ['ERROR', 'CRITICAL']))
    s.fact('access lines', 'count', flt=acc)
    return s


# ======================================================================= 18 PHP-FPM error log + slow log
FPM_STACKS = [
    ('/var/www/html/public/index.php', 'POST /index.php', [
        ('curl_exec', 'vendor/guzzlehttp/guzzle/src/Handler/CurlHandler.php', 44), ('__invoke', 'vendor/guzzlehttp/guzzle/src/Handler/Proxy.php', 28),
        ('__invoke', 'vendor/guzzlehttp/guzzle/src/Handler/Proxy.php', 51), ('__invoke', 'vendor/guzzlehttp/guzzle/src/PrepareBodyMiddleware.php', 64),
        ('__invoke', 'vendor/guzzlehttp/guzzle/src/Middleware.php', 38), ('__invoke', 'vendor/guzzlehttp/guzzle/src/RedirectMiddleware.php', 71),
        ('__invoke', 'vendor/guzzlehttp/guzzle/src/Middleware.php', 63), ('__invoke', 'vendor/guzzlehttp/guzzle/src/HandlerStack.php', 75),
        ('transfer', 'vendor/guzzlehttp/guzzle/src/Client.php', 331), ('requestAsync', 'vendor/guzzlehttp/guzzle/src/Client.php', 168),
        ('request', 'vendor/guzzlehttp/guzzle/src/Client.php', 187), ('charge', 'app/Services/PaymentGateway.php', 58),
        ('store', 'app/Http/Controllers/CheckoutController.php', 91), ('callAction', 'vendor/laravel/framework/src/Illuminate/Routing/Controller.php', 54),
        ('dispatch', 'vendor/laravel/framework/src/Illuminate/Routing/ControllerDispatcher.php', 43), ('runController', 'vendor/laravel/framework/src/Illuminate/Routing/Route.php', 260),
        ('run', 'vendor/laravel/framework/src/Illuminate/Routing/Route.php', 206), ('handle', 'public/index.php', 51)]),
    ('/var/www/html/public/index.php', 'GET /index.php', [
        ('execute', 'vendor/laravel/framework/src/Illuminate/Database/Connection.php', 414), ('Illuminate\\Database\\{closure}', 'vendor/laravel/framework/src/Illuminate/Database/Connection.php', 753),
        ('runQueryCallback', 'vendor/laravel/framework/src/Illuminate/Database/Connection.php', 720), ('run', 'vendor/laravel/framework/src/Illuminate/Database/Connection.php', 405),
        ('select', 'vendor/laravel/framework/src/Illuminate/Database/Query/Builder.php', 2913), ('runSelect', 'vendor/laravel/framework/src/Illuminate/Database/Query/Builder.php', 2902),
        ('Illuminate\\Database\\Query\\{closure}', 'vendor/laravel/framework/src/Illuminate/Database/Query/Builder.php', 3456), ('get', 'vendor/laravel/framework/src/Illuminate/Database/Eloquent/Builder.php', 739),
        ('monthly', 'app/Reports/SalesReport.php', 37), ('index', 'app/Http/Controllers/Admin/ReportController.php', 22),
        ('callAction', 'vendor/laravel/framework/src/Illuminate/Routing/Controller.php', 54), ('dispatch', 'vendor/laravel/framework/src/Illuminate/Routing/ControllerDispatcher.php', 43),
        ('runController', 'vendor/laravel/framework/src/Illuminate/Routing/Route.php', 260), ('run', 'vendor/laravel/framework/src/Illuminate/Routing/Route.php', 206),
        ('handle', 'public/index.php', 51)]),
    ('/var/www/html/public/index.php', 'GET /index.php', [
        ('imagecopyresampled', 'vendor/intervention/image/src/Drivers/Gd/Modifiers/ResizeModifier.php', 61), ('apply', 'vendor/intervention/image/src/Drivers/Gd/Modifiers/ResizeModifier.php', 27),
        ('modify', 'vendor/intervention/image/src/Image.php', 273), ('resize', 'vendor/intervention/image/src/Image.php', 604),
        ('thumbnail', 'app/Services/ImageService.php', 44), ('show', 'app/Http/Controllers/MediaController.php', 31),
        ('callAction', 'vendor/laravel/framework/src/Illuminate/Routing/Controller.php', 54), ('run', 'vendor/laravel/framework/src/Illuminate/Routing/Route.php', 206),
        ('handle', 'public/index.php', 51)]),
    ('/var/www/html/wp-cron.php', 'GET /wp-cron.php', [
        ('fgets', 'vendor/predis/predis/src/Connection/StreamConnection.php', 354), ('read', 'vendor/predis/predis/src/Connection/StreamConnection.php', 349),
        ('readResponse', 'vendor/predis/predis/src/Connection/AbstractConnection.php', 120), ('executeCommand', 'vendor/predis/predis/src/Connection/AbstractConnection.php', 112),
        ('executeCommand', 'vendor/predis/predis/src/Client.php', 381), ('__call', 'vendor/predis/predis/src/Client.php', 335),
        ('blpop', 'app/Queue/RedisQueue.php', 77), ('pop', 'app/Queue/Worker.php', 40), ('handle', 'wp-cron.php', 19)]),
]


def gen_phpfpm():
    rnd = random.Random(118)
    err = Sample('php-fpm_error', 'PHP-FPM 8.2 master error log (error_log = /var/log/php8.2-fpm.log, log_level notice, catch_workers_output = yes)', 'php-fpm_error.log')
    slow = Sample('php-fpm_slow', 'PHP-FPM 8.2 slow log (request_slowlog_timeout = 5s, slowlog = /var/log/php-fpm/www-slow.log)', 'php-fpm_slow.log')
    tl = TL()

    def ts(t):
        return '%02d-%s-%d %s' % (t.day, MON[t.month - 1], t.year, t.strftime('%H:%M:%S'))

    def add(t, lvl, msg, **kw):
        tl.add(t, '[%s] %s: %s' % (ts(t), lvl, msg), time=ts(t), level=lvl, message=msg, **kw)

    add(at(0.0), 'NOTICE', 'error log file re-opened')
    nextpid = [3100]

    def newpid():
        nextpid[0] += rnd.randint(1, 40)
        return nextpid[0]

    children = {}
    for _ in range(12):
        children[newpid()] = at(0.0) - timedelta(seconds=rnd.uniform(100, 3000))
    history = []
    tr = at(2999.046)
    repl = [(t, 'recycle') for t in times(rnd, 82, 5, 3595)] + [(t, 'timeout') for t in times(rnd, 2, 1200, 2990)] + [(tr, 'reload'), (at(3333.4), 'kill')]
    repl.sort()
    for t, kind in repl:
        if kind == 'reload':
            for p, st in sorted(children.items()):
                history.append((p, st, t))
            children = {}
            for _ in range(12):
                children[newpid()] = t + timedelta(milliseconds=125)
            continue
        old = rnd.choice(sorted(children))
        st = children.pop(old)
        history.append((old, st, t))
        age = (t - st).total_seconds()
        if kind == 'recycle':
            add(t, 'NOTICE', '[pool www] child %d exited with code 0 after %.6f seconds from start' % (old, age), pool='www', pid=old)
        elif kind == 'timeout':
            secs = float('%.6f' % (60 + rnd.random() * 0.02))
            add(t - timedelta(milliseconds=2), 'WARNING', "[pool www] child %d, script '/var/www/html/public/index.php' (request: \"POST /index.php\") execution timed out (%.6f sec), terminating" % (old, secs), pool='www', pid=old)
            add(t, 'WARNING', '[pool www] child %d exited on signal 15 (SIGTERM) after %.6f seconds from start' % (old, age), pool='www', pid=old)
        else:
            add(t - timedelta(milliseconds=100), 'ERROR', 'unable to read what child say: Bad file descriptor (9)')
            add(t, 'WARNING', '[pool www] child %d exited on signal 9 (SIGKILL) after %.6f seconds from start' % (old, age), pool='www', pid=old)
        p = newpid()
        children[p] = t
        add(t + timedelta(microseconds=400), 'NOTICE', '[pool www] child %d started' % p, pool='www', pid=p)
    for p, st in sorted(children.items()):
        history.append((p, st, at(7200)))

    def alive(t):
        return sorted(p for p, a, b in history if a <= t < b)

    # slow requests -> warning + tracer notices, and a slowlog entry each
    slow_items = []
    for t in times(rnd, 26, 30, 3570):
        pid = rnd.choice(alive(t))
        script, req, frames = wchoice(rnd, [(FPM_STACKS[0], 45), (FPM_STACKS[1], 30), (FPM_STACKS[2], 15), (FPM_STACKS[3], 10)])
        secs = float('%.6f' % (5 + rnd.random() * 0.02))
        add(t, 'WARNING', "[pool www] child %d, script '%s' (request: \"%s\") executing too slow (%.6f seconds), logging" % (pid, script, req, secs), pool='www', pid=pid, script=script, duration=secs)
        add(t + timedelta(microseconds=200), 'NOTICE', 'child %d stopped for tracing' % pid, pid=pid)
        add(t + timedelta(microseconds=300), 'NOTICE', 'about to trace %d' % pid, pid=pid)
        add(t + timedelta(microseconds=900), 'NOTICE', 'finished trace of %d' % pid, pid=pid)
        slow_items.append((t, pid, script, frames))
    # busy spike
    tb = at(1904.2)
    add(tb, 'WARNING', '[pool www] seems busy (you may need to increase pm.start_servers, or pm.min/max_spare_servers), spawning 8 children, there are 0 idle, and 14 total children', pool='www')
    add(tb + timedelta(seconds=1), 'WARNING', '[pool www] seems busy (you may need to increase pm.start_servers, or pm.min/max_spare_servers), spawning 16 children, there are 1 idle, and 18 total children', pool='www')
    add(tb + timedelta(seconds=2), 'WARNING', '[pool www] server reached pm.max_children setting (20), consider raising it', pool='www')
    # worker stderr (catch_workers_output)
    phpmsgs = [
        'PHP Warning:  Undefined array key "coupon" in /var/www/html/app/Http/Controllers/CartController.php on line 57',
        'PHP Deprecated:  strlen(): Passing null to parameter #1 ($string) of type string is deprecated in /var/www/html/app/Support/Slug.php on line 14',
        'PHP Warning:  file_get_contents(/var/www/html/storage/app/feeds/partner.xml): Failed to open stream: No such file or directory in /var/www/html/app/Feeds/PartnerFeed.php on line 33',
        'PHP Fatal error:  Allowed memory size of 268435456 bytes exhausted (tried to allocate 20480 bytes) in /var/www/html/vendor/laravel/framework/src/Illuminate/Support/Collection.php on line 1732',
    ]
    for t in times(rnd, 56, 10, 3590):
        pid = rnd.choice(alive(t))
        m = wchoice(rnd, [(phpmsgs[0], 50), (phpmsgs[1], 30), (phpmsgs[2], 15), (phpmsgs[3], 5)])
        add(t, 'WARNING', '[pool www] child %d said into stderr: "NOTICE: PHP message: %s"' % (pid, m), pool='www', pid=pid, php_message=m)
    # reload (logrotate/systemctl reload)
    tr = at(2999.046)
    add(tr, 'NOTICE', 'Reloading in progress ...')
    add(tr + timedelta(milliseconds=80), 'NOTICE', 'reloading: execvp("/usr/sbin/php-fpm8.2", {"/usr/sbin/php-fpm8.2", "--nodaemonize", "--fpm-config", "/etc/php/8.2/fpm/php-fpm.conf"})')
    add(tr + timedelta(milliseconds=120), 'NOTICE', 'using inherited socket fd=8, "/run/php/php8.2-fpm.sock"')
    add(tr + timedelta(milliseconds=121), 'NOTICE', 'fpm is running, pid 812')
    add(tr + timedelta(milliseconds=122), 'NOTICE', 'ready to handle connections')
    add(tr + timedelta(milliseconds=122), 'NOTICE', 'systemd monitor interval set to 10000ms')
    tl.flush(err)
    err.field('time', 'time', None, 'time')
    err.field('level', 'text', None, 'level')
    err.field('pool', 'text')
    err.field('pid', 'number', None, 'pid')
    err.field('message', 'text', None, 'message')
    err.field('script', 'text', None, 'path')
    err.field('duration', 'number', 's', 'duration')
    err.fact("events at level WARNING", 'count', flt=F('level', '==', 'WARNING'))
    err.fact("events at level ERROR", 'count', flt=F('level', '==', 'ERROR'))
    err.fact("events at level NOTICE", 'count', flt=F('level', '==', 'NOTICE'))
    err.fact("'executing too slow' warnings", 'count', flt=F('message', 'contains', 'executing too slow'))
    err.fact("max 'executing too slow' duration in seconds", 'max', 'duration')
    err.fact("events whose message contains 'PHP Fatal error'", 'count', flt=F('message', 'contains', 'PHP Fatal error'))
    # slow log file
    slow.raw('')
    for i, (t, pid, script, frames) in enumerate(slow_items):
        addr = 0x7f3a1c814000 + rnd.randint(0, 0xfff) * 16
        lines = ['[%s]  [pool www] pid %d' % (ts(t), pid), 'script_filename = %s' % script]
        root = '/var/www/html/'
        for fn, path, line in frames:
            lines.append('[0x%016x] %s() %s%s:%d' % (addr, fn, root, path, line))
            addr -= rnd.choice([0x60, 0x70, 0x80, 0xa0, 0xb0, 0x100])
        if i:
            slow.raw('')
        slow.ev('\n'.join(lines), time=ts(t), pool='www', pid=pid, script_filename=script, top_frame=frames[0][0] + '()', depth=len(frames))
    slow.field('time', 'time', None, 'time')
    slow.field('pool', 'text')
    slow.field('pid', 'number', None, 'pid')
    slow.field('script_filename', 'text', None, 'path')
    slow.field('function', 'text')
    slow.field('file', 'text')
    slow.fact('slow-log entries (each a multi-line block)', 'count')
    slow.fact('distinct pid', 'distinct', 'pid')
    slow.fact("entries whose innermost (first listed) frame is curl_exec()", 'count', flt=F('top_frame', '==', 'curl_exec()'), publish=False)
    slow.fact('max stack depth (number of [0x...] frame lines in one entry)', 'max', 'depth')
    slow.fact("entries with script_filename /var/www/html/wp-cron.php", 'count', flt=F('script_filename', '==', '/var/www/html/wp-cron.php'))
    return [err, slow]


# ======================================================================= 19 Sidekiq
SIDEKIQ_BT = '''/usr/local/bundle/gems/net-protocol-0.2.2/lib/net/protocol.rb:229:in `rbuf_fill'
/usr/local/bundle/gems/net-protocol-0.2.2/lib/net/protocol.rb:199:in `readuntil'
/usr/local/bundle/gems/net-protocol-0.2.2/lib/net/protocol.rb:209:in `readline'
/usr/local/lib/ruby/3.3.0/net/http/response.rb:158:in `read_status_line'
/usr/local/lib/ruby/3.3.0/net/http/response.rb:147:in `read_new'
/usr/local/lib/ruby/3.3.0/net/http.rb:2342:in `block in transport_request'
/usr/local/lib/ruby/3.3.0/net/http.rb:2333:in `catch'
/usr/local/lib/ruby/3.3.0/net/http.rb:2333:in `transport_request'
/usr/local/lib/ruby/3.3.0/net/http.rb:2306:in `request'
/usr/local/bundle/gems/faraday-net_http-3.1.0/lib/faraday/adapter/net_http.rb:110:in `block in perform_request'
/usr/local/bundle/gems/faraday-net_http-3.1.0/lib/faraday/adapter/net_http.rb:66:in `call'
/usr/local/bundle/gems/faraday-2.9.0/lib/faraday/rack_builder.rb:152:in `build_response'
/usr/local/bundle/gems/faraday-2.9.0/lib/faraday/connection.rb:444:in `run_request'
/usr/local/bundle/gems/faraday-2.9.0/lib/faraday/connection.rb:280:in `post'
/app/app/services/webhook_sender.rb:23:in `deliver'
/app/app/jobs/webhook_delivery_job.rb:11:in `perform'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:220:in `execute_job'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:185:in `block (4 levels) in process'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/middleware/chain.rb:180:in `traverse'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:180:in `block (3 levels) in process'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/job_logger.rb:15:in `call'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:263:in `dispatch'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:82:in `run'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/component.rb:10:in `watchdog'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/component.rb:19:in `block in safe_thread\''''

SIDEKIQ_BT_PG = '''/usr/local/bundle/gems/activerecord-7.1.3.2/lib/active_record/connection_adapters/postgresql_adapter.rb:894:in `exec_params'
/usr/local/bundle/gems/activerecord-7.1.3.2/lib/active_record/connection_adapters/postgresql/database_statements.rb:153:in `block (2 levels) in raw_execute'
/usr/local/bundle/gems/activerecord-7.1.3.2/lib/active_record/persistence.rb:1256:in `_update_row'
/app/app/jobs/charge_subscription_job.rb:19:in `perform'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:220:in `execute_job'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/processor.rb:82:in `run'
/usr/local/bundle/gems/sidekiq-7.2.4/lib/sidekiq/component.rb:19:in `block in safe_thread\''''


def gen_sidekiq():
    rnd = random.Random(119)
    s = Sample('sidekiq', 'Sidekiq 7 default text log (Sidekiq::Logger::Formatters::Pretty, no TTY colours)', 'sidekiq.log')
    tl = TL()

    def add(t, pid, tid, lvl, msg, ctx=(), **kw):
        ts = iso(t, 3)
        c = ''.join(' %s=%s' % kv for kv in ctx)
        rec = {'time': ts, 'pid': pid, 'tid': tid, 'level': lvl, 'message': msg.split('\n')[0]}
        for k, v in ctx:
            rec[k] = v
        rec.update(kw)
        tl.add(t, '%s pid=%d tid=%s%s %s: %s' % (ts, pid, tid, c, lvl, msg), **rec)

    def boot(t, pid):
        tid = alnum(rnd, 4, string.ascii_lowercase + string.digits)
        for i, m in enumerate(['Booted Rails 7.1.3.2 application in production environment',
                               'Running in ruby 3.3.1 (2024-04-23 revision c56cd86388) +YJIT [x86_64-linux]',
                               'See LICENSE and the LGPL-3.0 for licensing details.',
                               'Upgrade to Sidekiq Pro for more features and support: https://sidekiq.org',
                               'Sidekiq 7.2.4 connecting to Redis with options {:size=>10, :pool_name=>"internal", :url=>"redis://redis:6379/1"}',
                               'Sidekiq 7.2.4 connecting to Redis with options {:size=>5, :pool_name=>"default", :url=>"redis://redis:6379/1"}',
                               'Starting processing, hit Ctrl-C to stop']):
            add(t + timedelta(milliseconds=i * 3 + (900 if i >= 4 else 0)), pid, tid, 'INFO', m)
        return tid

    boot(at(0.5), 7)
    deploy = at(2052.219)
    main2 = deploy + timedelta(seconds=11)
    jobs = [('WebhookDeliveryJob', 'webhooks', 0.35, 0.8), ('SendOrderEmailJob', 'mailers', 0.6, 0.4), ('SyncInventoryJob', 'default', 8.0, 0.5),
            ('ChargeSubscriptionJob', 'critical', 1.2, 0.5), ('GenerateInvoicePdfJob', 'default', 3.5, 0.6), ('ActiveStorage::AnalyzeJob', 'active_storage_analysis', 0.25, 0.5)]
    tids = {7: [alnum(rnd, 4, string.ascii_lowercase + string.digits) for _ in range(5)], 19: [alnum(rnd, 4, string.ascii_lowercase + string.digits) for _ in range(5)]}
    retries = []
    for t in times(rnd, 175, 2, 3590):
        if deploy - timedelta(seconds=1) <= t <= main2 + timedelta(seconds=2):
            continue
        pid = 7 if t < deploy else 19
        tid = rnd.choice(tids[pid])
        cls, q, med, sg = wchoice(rnd, [(jobs[0], 40), (jobs[1], 25), (jobs[2], 5), (jobs[3], 10), (jobs[4], 10), (jobs[5], 10)])
        jid = hexs(rnd, 24)
        el = round(lognorm(rnd, med, sg), 3)
        if pid == 7 and t + timedelta(seconds=el) >= deploy:
            continue
        ctx = [('class', cls), ('jid', jid)]
        add(t, pid, tid, 'INFO', 'start', ctx)
        if cls == 'SyncInventoryJob':
            add(t + timedelta(seconds=el * 0.9), pid, tid, 'INFO', 'Synced %d SKUs from ERP (%d changed)' % (rnd.randint(8000, 9000), rnd.randint(0, 400)), ctx)
        fail = (cls == 'WebhookDeliveryJob' and rnd.random() < 0.12) or (cls == 'ChargeSubscriptionJob' and rnd.random() < 0.08)
        te = t + timedelta(seconds=el)
        if fail:
            if cls == 'WebhookDeliveryJob':
                el = round(10 + rnd.random() * 0.05, 3)
                te = t + timedelta(seconds=el)
                exc, bt = ('Faraday::TimeoutError', 'Net::ReadTimeout with #<TCPSocket:(closed)>'), SIDEKIQ_BT
            else:
                exc, bt = ('ActiveRecord::Deadlocked', 'PG::TRDeadlockDetected: ERROR:  deadlock detected\nDETAIL:  Process 41233 waits for ShareLock on transaction 91822311; blocked by process 41240.'), SIDEKIQ_BT_PG
            rc = rnd.choice([None, 0, 1])
            add(te, pid, tid, 'INFO', 'fail', ctx + [('elapsed', '%.3f' % el)], elapsed=el)
            job = {'retry': True, 'queue': q, 'class': cls, 'args': [rnd.randint(1000, 99999)], 'jid': jid,
                   'created_at': round(epoch(t) - rnd.uniform(0.1, 300), 6), 'enqueued_at': round(epoch(t) - rnd.uniform(0, 0.1), 6),
                   'error_message': exc[1], 'error_class': exc[0], 'failed_at': round(epoch(te) - (0 if rc is None else rnd.uniform(60, 600)), 6)}
            if rc is not None:
                job['retry_count'] = rc
                job['retried_at'] = round(epoch(te), 6)
            add(te + timedelta(milliseconds=1), pid, tid, 'WARN', jdump({'context': 'Job raised exception', 'job': job}), ctx)
            add(te + timedelta(milliseconds=1), pid, tid, 'WARN', '%s: %s' % exc, ctx, exception=exc[0])
            add(te + timedelta(milliseconds=1), pid, tid, 'WARN', bt, ctx, backtrace=True)
        else:
            add(te, pid, tid, 'INFO', 'done', ctx + [('elapsed', '%.3f' % el)], elapsed=el)
    # deploy: graceful shutdown of pid 7, boot pid 19
    tid0 = tids[7][0]
    for i, m in enumerate(['Shutting down', 'Terminating quiet threads for default capsule', 'Scheduler exiting...', 'Pausing to allow jobs to finish...', 'Bye!']):
        add(deploy + timedelta(milliseconds=i * 40 + (1000 if i == 4 else 0)), 7, tid0, 'INFO', m)
    boot(main2, 19)
    add(at(3031.7), 19, tids[19][1], 'ERROR', 'heartbeat: Connection reset by peer (RedisClient::ConnectionError)')
    add(at(3033.9), 19, tids[19][1], 'INFO', 'Redis is online, 2.203 sec downtime')
    tl.flush(s)
    s.field('time', 'time', None, 'time')
    s.field('pid', 'number', None, 'pid')
    s.field('tid', 'text', None, 'thread')
    s.field('class', 'text', None, 'logger')
    s.field('jid', 'text')
    s.field('elapsed', 'number', 's', 'duration')
    s.field('level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.fact("events with message 'done'", 'count', flt=F('message', '==', 'done'))
    s.fact("events with message 'fail'", 'count', flt=F('message', '==', 'fail'))
    s.fact('max elapsed (s) over done/fail events', 'max', 'elapsed')
    s.fact('p95 (nearest-rank) of elapsed in s over done/fail events', 'p95', 'elapsed')
    s.fact('events at level WARN', 'count', flt=F('level', '==', 'WARN'))
    s.fact('events at level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    return s


# ======================================================================= 20 Airflow task log
AIRFLOW_TB = '''Traceback (most recent call last):
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/models/taskinstance.py", line 465, in _execute_task
    result = _execute_callable(context=context, **execute_callable_kwargs)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/models/taskinstance.py", line 432, in _execute_callable
    return execute_callable(context=context, **execute_callable_kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/models/baseoperator.py", line 401, in wrapper
    return func(self, *args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/operators/python.py", line 235, in execute
    return_value = self.execute_callable()
                   ^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/airflow/.local/lib/python3.11/site-packages/airflow/operators/python.py", line 252, in execute_callable
    return self.python_callable(*self.op_args, **self.op_kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/airflow/dags/partner_orders_sync.py", line 48, in load_orders
    page = client.fetch_orders(since=since, page=n)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/opt/airflow/dags/lib/partner_client.py", line 61, in fetch_orders
    resp.raise_for_status()
  File "/home/airflow/.local/lib/python3.11/site-packages/requests/models.py", line 1021, in raise_for_status
    raise HTTPError(http_error_msg, response=self)
requests.exceptions.HTTPError: 503 Server Error: Service Unavailable for url: https://api.partner.example/v2/orders?since=2031-05-01T01%3A00%3A00Z&page=118'''


def gen_airflow():
    rnd = random.Random(120)
    s = Sample('airflow_task', 'Apache Airflow 2.9 task instance log (dag_id=partner_orders_sync/run_id=scheduled__2031-05-01T01:00:00+00:00/task_id=load_orders/attempt=1.log)', 'airflow_task.log')
    tl = TL()

    def add(t, src, lvl, msg):
        ts = '%s UTC' % t.strftime('%Y-%m-%d, %H:%M:%S')
        fn, ln = src.split(':')
        tl.add(t, '[%s] {%s} %s - %s' % (ts, src, lvl, msg), asctime=ts, filename=fn, lineno=int(ln), levelname=lvl,
               message=msg.split('\n')[0], traceback=('Traceback' in msg) or None)

    ti = '<TaskInstance: partner_orders_sync.load_orders scheduled__2031-05-01T01:00:00+00:00 [%s]>'
    t = at(4.3)
    head = [
        ('local_task_job_runner.py:120', 'INFO', '::group::Pre task execution logs'),
        ('taskinstance.py:2076', 'INFO', 'Dependencies all met for dep_context=non-requeueable deps ti=' + ti % 'queued'),
        ('taskinstance.py:2076', 'INFO', 'Dependencies all met for dep_context=requeueable deps ti=' + ti % 'queued'),
        ('taskinstance.py:2306', 'INFO', 'Starting attempt 1 of 3'),
        ('taskinstance.py:2330', 'INFO', 'Executing <Task(PythonOperator): load_orders> on 2031-05-01 01:00:00+00:00'),
        ('standard_task_runner.py:63', 'INFO', 'Started process 4187 to run task'),
        ('standard_task_runner.py:90', 'INFO', "Running: ['airflow', 'tasks', 'run', 'partner_orders_sync', 'load_orders', 'scheduled__2031-05-01T01:00:00+00:00', '--job-id', '88123', '--raw', '--subdir', 'DAGS_FOLDER/partner_orders_sync.py', '--cfg-path', '/tmp/tmpk3v9x2aq']"),
        ('standard_task_runner.py:91', 'INFO', 'Job 88123: Subtask load_orders'),
        ('task_command.py:426', 'INFO', 'Running ' + ti % 'running' + ' on host airflow-worker-1.airflow-worker.airflow.svc.cluster.local'),
        ('taskinstance.py:2648', 'INFO', "Exporting env vars: AIRFLOW_CTX_DAG_OWNER='data-eng' AIRFLOW_CTX_DAG_ID='partner_orders_sync' AIRFLOW_CTX_TASK_ID='load_orders' AIRFLOW_CTX_EXECUTION_DATE='2031-05-01T01:00:00+00:00' AIRFLOW_CTX_TRY_NUMBER='1' AIRFLOW_CTX_DAG_RUN_ID='scheduled__2031-05-01T01:00:00+00:00'"),
        ('taskinstance.py:430', 'INFO', '::endgroup::'),
        ('base.py:84', 'INFO', "Using connection ID 'partner_api' for task execution."),
        ('partner_orders_sync.py:31', 'INFO', 'Syncing partner orders since 2031-05-01T01:00:00Z'),
        ('logging_mixin.py:188', 'WARNING', "/home/airflow/.local/lib/python3.11/site-packages/urllib3/connectionpool.py:1103 InsecureRequestWarning: Unverified HTTPS request is being made to host 'api.partner.example'. Adding certificate verification is strongly advised. See: https://urllib3.readthedocs.io/en/latest/advanced-usage.html#tls-warnings"),
        ('partner_orders_sync.py:36', 'INFO', 'Partner reports 34712 orders in 139 pages'),
        ('base.py:84', 'INFO', "Using connection ID 'warehouse' for task execution."),
    ]
    for src, lvl, msg in head:
        t += timedelta(milliseconds=rnd.randint(5, 300))
        add(t, src, lvl, msg)
    t = at(12.0)
    fail_page = 118
    for n in range(1, fail_page):
        fetch = int(lognorm(rnd, 900, 0.5))
        t += timedelta(milliseconds=fetch)
        cnt = 250 if n < 139 else 212
        add(t, 'partner_orders_sync.py:52', 'INFO', 'Fetched page %d/139 (%d orders) in %d ms' % (n, cnt, fetch))
        if rnd.random() < 0.06:
            add(t + timedelta(milliseconds=5), 'partner_client.py:58', 'WARNING', 'Rate limited by partner API (HTTP 429), sleeping 30s')
            t += timedelta(seconds=30)
        add(t + timedelta(milliseconds=12), 'base.py:84', 'INFO', "Using connection ID 'warehouse' for task execution.")
        up = int(lognorm(rnd, 23000, 0.3))
        t += timedelta(milliseconds=up)
        add(t, 'sql.py:620', 'INFO', 'Done loading. Loaded a total of %d rows into staging.partner_orders' % cnt)
        if n % 20 == 0:
            add(t + timedelta(milliseconds=2), 'partner_orders_sync.py:66', 'INFO', 'Progress: %d/139 pages, %d orders' % (n, n * 250))
        if n in (40, 80):
            add(t + timedelta(milliseconds=30), 'sql.py:470', 'INFO', 'Running statement: ANALYZE staging.partner_orders, parameters: None')
    for k in range(3):
        t += timedelta(seconds=2 ** k * 5)
        add(t, 'partner_client.py:55', 'WARNING', 'GET /v2/orders page=%d returned 503, retry %d/3 in %ds' % (fail_page, k + 1, 2 ** (k + 1) * 5))
    t += timedelta(seconds=40)
    add(t, 'taskinstance.py:441', 'INFO', '::group::Post task execution logs')
    add(t, 'taskinstance.py:2905', 'ERROR', 'Task failed with exception\n' + AIRFLOW_TB)
    add(t + timedelta(milliseconds=40), 'taskinstance.py:1206', 'INFO', 'Marking task as UP_FOR_RETRY. dag_id=partner_orders_sync, task_id=load_orders, run_id=scheduled__2031-05-01T01:00:00+00:00, execution_date=20310501T010000, start_date=20310501T020004, end_date=%s' % t.strftime('%Y%m%dT%H%M%S'))
    add(t + timedelta(milliseconds=90), 'standard_task_runner.py:110', 'ERROR', 'Failed to execute job 88123 for task load_orders (503 Server Error: Service Unavailable for url: https://api.partner.example/v2/orders?since=2031-05-01T01%3A00%3A00Z&page=118; 4187)')
    add(t + timedelta(milliseconds=700), 'local_task_job_runner.py:240', 'INFO', 'Task exited with return code 1')
    add(t + timedelta(milliseconds=760), 'taskinstance.py:3498', 'INFO', '0 downstream tasks scheduled from follow-on schedule check')
    add(t + timedelta(milliseconds=761), 'local_task_job_runner.py:222', 'INFO', '::endgroup::')
    tl.flush(s)
    s.field('asctime', 'time', None, 'time')
    s.field('filename', 'text', None, 'logger')
    s.field('lineno', 'number')
    s.field('levelname', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.fact('events with levelname ERROR', 'count', flt=F('levelname', '==', 'ERROR'))
    s.fact('events with levelname WARNING', 'count', flt=F('levelname', '==', 'WARNING'))
    s.fact('events carrying a Python traceback (continuation lines)', 'count', flt=F('traceback', 'exists'), publish=False)
    s.fact('distinct filename in {filename:lineno}', 'distinct', 'filename')
    s.fact("events whose message starts with 'Fetched page'", 'count', flt=F('message', 'startswith', 'Fetched page'))
    s.fact("sum of N in 'Done loading. Loaded a total of N rows' messages", 'sum', flt=F('message', 'startswith', 'Done loading.'), key=lambda e: int(e['message'].split()[6]))
    return s


# ======================================================================= 21 Vault audit
def gen_vault():
    rnd = random.Random(121)
    s = Sample('vault_audit', 'HashiCorp Vault 1.15 file audit device (JSON lines, type request/response)', 'vault_audit.log')
    tl = TL()

    def hm():
        return 'hmac-sha256:' + hexs(rnd, 64)

    ents = {}

    def client(name, ip, policies, meta, ttl=3600, ttype='service'):
        ents[name] = {'ip': ip, 'policies': policies, 'meta': meta, 'entity': uid(rnd), 'ttl': ttl, 'type': ttype,
                      'sessions': [(BASE - timedelta(days=1), hm(), hm(), (BASE - timedelta(seconds=rnd.randint(60, 3000))).strftime('%Y-%m-%dT%H:%M:%SZ'))]}

    def tok(name, t):
        return [x for x in ents[name]['sessions'] if x[0] <= t][-1][1:]

    client('kubernetes-shop-orders', '10.0.2.15', ['default', 'orders'], {'role': 'orders', 'service_account_name': 'orders', 'service_account_namespace': 'shop', 'service_account_secret_name': '', 'service_account_uid': uid(rnd)})
    client('kubernetes-shop-payments', '10.0.2.21', ['default', 'payments'], {'role': 'payments', 'service_account_name': 'payments', 'service_account_namespace': 'shop', 'service_account_secret_name': '', 'service_account_uid': uid(rnd)})
    client('approle', '10.0.6.4', ['ci-deploy', 'default'], {'role_name': 'ci-deploy'}, 1200, 'batch')
    client('oidc-alice@example.com', '10.0.0.5', ['admin', 'default'], {'role': 'admin', 'username': 'alice@example.com'}, 28800)
    mounts = {
        'secret/': ('kv', 'kv_8f2b1c3d', 'v0.16.1+builtin', 'secret'), 'database/': ('database', 'database_4a1e9c27', 'v1.15.6+builtin.vault', 'secret'),
        'transit/': ('transit', 'transit_c2d91f0a', 'v1.15.6+builtin.vault', 'secret'), 'auth/kubernetes/': ('kubernetes', 'auth_kubernetes_5d3a8e11', 'v0.17.1+builtin', 'auth'),
        'auth/token/': ('token', 'auth_token_0b7d2f44', 'v1.15.6+builtin.vault', 'auth'), 'sys/': ('system', 'system_a1c3e5f7', 'v1.15.6+builtin.vault', ''),
        'auth/approle/': ('approle', 'auth_approle_9e8d7c6b', 'v1.15.6+builtin', 'auth'),
    }

    def entry(t, typ, who, op, path, mount, err=None, data=None, resp=None, auth_override=None, denied=False):
        e = ents.get(who)
        if e:
            e = dict(e)
            e['token'], e['accessor'], e['issued'] = tok(who, t)
        mt, macc, mver, mclass = mounts[mount]
        if auth_override is not None:
            auth = auth_override
        else:
            auth = {'client_token': e['token'], 'accessor': e['accessor'], 'display_name': who, 'policies': e['policies'], 'token_policies': e['policies'],
                    'policy_results': {'allowed': not denied} if denied else {'allowed': True, 'granting_policies': [{'name': e['policies'][0] if e['policies'][0] != 'default' else e['policies'][1], 'namespace_id': 'root', 'type': 'acl'}]},
                    'metadata': e['meta'], 'entity_id': e['entity'], 'token_type': e['type'], 'token_ttl': e['ttl'], 'token_issue_time': e['issued']}
        req = {'id': None, 'client_id': e['entity'] if e else '', 'operation': op, 'mount_point': mount, 'mount_type': mt, 'mount_accessor': macc,
               'mount_running_version': mver, 'mount_class': mclass}
        if auth_override is None:
            req['client_token'] = e['token']
            req['client_token_accessor'] = e['accessor']
        req['namespace'] = {'id': 'root'}
        req['path'] = path
        if data:
            req['data'] = data
        req['remote_address'] = e['ip'] if e else auth_override.get('_ip')
        req['remote_port'] = rnd.randint(32768, 60999)
        if auth_override is not None:
            auth.pop('_ip', None)
        return auth, req

    def emit(t, who, op, path, mount, data=None, resp=None, err=None, denied=False, auth_override=None, lat=None):
        auth, req = entry(t, 'request', who, op, path, mount, data=data, auth_override=auth_override, denied=denied)
        req['id'] = uid(rnd)
        o1 = {'time': go_nano(t, rnd.randint(0, 999)), 'type': 'request', 'auth': auth, 'request': req}
        if err:
            o1['error'] = err
        tl.add(t, jdump(o1), **flatten(o1))
        t2 = t + timedelta(microseconds=lat if lat is not None else rnd.randint(300, 9000))
        o2 = {'time': go_nano(t2, rnd.randint(0, 999)), 'type': 'response', 'auth': auth, 'request': req}
        if resp is not None:
            mt, macc, mver, mclass = mounts[mount]
            r = {'mount_point': mount, 'mount_type': mt, 'mount_accessor': macc, 'mount_running_plugin_version': mver, 'mount_class': mclass}
            r.update(resp)
            o2['response'] = r
        if err:
            o2['error'] = err
        tl.add(t2, jdump(o2), **flatten(o2))

    denied = '1 error occurred:\n\t* permission denied\n\n'
    # kubernetes logins (token renewal) for app pods
    for who in ('kubernetes-shop-orders', 'kubernetes-shop-payments'):
        for k in range(4):
            t = at(rnd.uniform(0, 900) + 900 * k)
            e = ents[who]
            e['sessions'].append((t + timedelta(seconds=1), hm(), hm(), t.strftime('%Y-%m-%dT%H:%M:%SZ')))
            e['sessions'].sort(key=lambda x: x[0])
            e = dict(e)
            e['token'], e['accessor'], e['issued'] = tok(who, t + timedelta(seconds=1))
            ao = {'token_type': 'default', '_ip': e['ip']}
            newauth = {'client_token': e['token'], 'accessor': e['accessor'], 'display_name': who, 'policies': e['policies'], 'token_policies': e['policies'],
                       'metadata': e['meta'], 'entity_id': e['entity'], 'token_type': 'service', 'token_ttl': 3600, 'token_issue_time': e['issued']}
            emit(t, None, 'update', 'auth/kubernetes/login', 'auth/kubernetes/', data={'jwt': hm(), 'role': hm()}, resp={'auth': newauth}, auth_override=ao, lat=rnd.randint(4000, 30000))
    # secret reads
    for t in times(rnd, 60, 5, 3595):
        who = rnd.choice(['kubernetes-shop-orders', 'kubernetes-shop-payments'])
        app = 'orders' if 'orders' in who else 'payments'
        key = rnd.choice(['db', 'stripe', 'smtp']) if app == 'payments' else rnd.choice(['db', 'jwt-signing', 'smtp'])
        emit(t, who, 'read', 'secret/data/shop/%s/%s' % (app, key), 'secret/', resp={'data': {'data': {'password' if key != 'jwt-signing' else 'private_key': hm(), 'username': hm()},
                                                                                                  'metadata': {'created_time': hm(), 'custom_metadata': None, 'deletion_time': hm(), 'destroyed': False, 'version': rnd.randint(1, 9)}}})
    # dynamic DB creds
    for t in times(rnd, 14, 5, 3595):
        who = 'kubernetes-shop-orders'
        lease = 'database/creds/orders-rw/' + alnum(rnd, 24)
        emit(t, who, 'read', 'database/creds/orders-rw', 'database/', resp={'secret': {'lease_id': lease}, 'data': {'password': hm(), 'username': hm()}}, lat=rnd.randint(20000, 120000))
    # transit encrypt/decrypt for payments
    for t in times(rnd, 70, 5, 3595):
        op = rnd.choice(['encrypt', 'decrypt'])
        data = {'plaintext': hm()} if op == 'encrypt' else {'ciphertext': hm()}
        resp = {'data': {'ciphertext': hm(), 'key_version': 3}} if op == 'encrypt' else {'data': {'plaintext': hm()}}
        emit(t, 'kubernetes-shop-payments', 'update', 'transit/%s/card-tokens' % op, 'transit/', data=data, resp=resp)
    # token lookups / lease renewals
    for t in times(rnd, 20, 5, 3595):
        who = rnd.choice(['kubernetes-shop-orders', 'kubernetes-shop-payments'])
        if rnd.random() < 0.5:
            emit(t, who, 'read', 'auth/token/lookup-self', 'auth/token/', resp={'data': {'accessor': hm(), 'creation_ttl': 3600, 'display_name': hm(), 'policies': ['default', 'orders'], 'ttl': rnd.randint(100, 3600), 'type': hm()}})
        else:
            emit(t, who, 'update', 'sys/leases/renew', 'sys/', data={'increment': 3600, 'lease_id': hm()}, resp={'secret': {'lease_id': 'database/creds/orders-rw/' + alnum(rnd, 24)}, 'data': None})
    # CI deploy job: reads, plus a denied write
    tci = at(1630.562)
    for i, p in enumerate(['secret/data/ci/registry', 'secret/data/ci/kubeconfig', 'secret/data/shop/payments/stripe', 'secret/data/ci/slack-webhook']):
        t = tci + timedelta(seconds=i * 1.3)
        if 'payments' in p:
            emit(t, 'approle', 'read', p, 'secret/', err=denied, denied=True)
        else:
            emit(t, 'approle', 'read', p, 'secret/', resp={'data': {'data': {'value': hm()}, 'metadata': {'created_time': hm(), 'custom_metadata': None, 'deletion_time': hm(), 'destroyed': False, 'version': 2}}})
    # admin via UI
    ta = at(2405.377)
    for i, (op, p, m) in enumerate([('read', 'sys/internal/ui/mounts', 'sys/'), ('read', 'sys/internal/ui/resultant-acl', 'sys/'), ('list', 'secret/metadata/shop/', 'secret/'),
                                     ('read', 'secret/data/shop/orders/db', 'secret/'), ('update', 'secret/data/shop/orders/smtp', 'secret/'), ('read', 'sys/policies/acl/orders', 'sys/')]):
        t = ta + timedelta(seconds=i * rnd.uniform(2, 20))
        data = {'data': {'host': hm(), 'password': hm()}, 'options': {'cas': 4}} if op == 'update' else None
        emit(t, 'oidc-alice@example.com', op, p, m, data=data, resp={'data': {'keys': ['orders/', 'payments/']}} if op == 'list' else {'data': {'version': 5, 'created_time': hm()}} if op == 'update' else {'data': {'value': hm()}})
    # invalid token from a stale pod
    for t in times(rnd, 6, 3000, 3100):
        ao = {'client_token': hm(), 'accessor': '', 'display_name': '', 'policies': None, 'token_type': 'default', '_ip': '10.0.2.77'}
        emit(t, None, 'read', 'secret/data/shop/orders/db', 'secret/', err='permission denied', auth_override=ao)
    tl.flush(s)
    s.field('time', 'time', None, 'time')
    s.field('type', 'text')
    s.field('auth.display_name', 'text', None, 'user')
    s.field('auth.policies', 'text')
    s.field('request.id', 'text')
    s.field('request.operation', 'text', None, 'method')
    s.field('request.path', 'text', None, 'path')
    s.field('request.mount_type', 'text')
    s.field('request.remote_address', 'ip', None, 'client')
    s.field('error', 'text', None, 'exception')
    s.fact("entries with type 'request'", 'count', flt=F('type', '==', 'request'))
    s.fact('entries with a non-empty error', 'count', flt=F('error', 'exists'))
    s.fact('distinct request.remote_address', 'distinct', 'request.remote_address')
    s.fact("request entries with request.operation 'update'", 'count', flt={'all': [F('type', '==', 'request'), F('request.operation', '==', 'update')]})
    s.fact("request entries whose request.path starts with 'auth/'", 'count', flt={'all': [F('type', '==', 'request'), F('request.path', 'startswith', 'auth/')]})
    return s


# ======================================================================= 22 kube-apiserver audit
def gen_k8s_audit():
    rnd = random.Random(122)
    s = Sample('kube_audit', 'kube-apiserver audit log backend (JSON lines, audit.k8s.io/v1 Event)', 'kube-apiserver-audit.log')
    tl = TL()
    ver = 'v1.29.4'
    actors = {
        'argocd': ('system:serviceaccount:argocd:argocd-application-controller', ['system:serviceaccounts', 'system:serviceaccounts:argocd', 'system:authenticated'], '10.244.1.12', 'argocd-application-controller/v0.0.0 (linux/amd64) kubernetes/$Format', 'ClusterRoleBinding "argocd-application-controller" of ClusterRole "argocd-application-controller" to ServiceAccount "argocd-application-controller/argocd"'),
        'kcm-deploy': ('system:serviceaccount:kube-system:deployment-controller', ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'], '10.0.0.10', 'kube-controller-manager/%s (linux/amd64) kubernetes/55019c8/system:serviceaccount:kube-system:deployment-controller' % ver, 'ClusterRoleBinding "system:controller:deployment-controller" of ClusterRole "system:controller:deployment-controller" to ServiceAccount "deployment-controller/kube-system"'),
        'kcm-rs': ('system:serviceaccount:kube-system:replicaset-controller', ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'], '10.0.0.10', 'kube-controller-manager/%s (linux/amd64) kubernetes/55019c8/system:serviceaccount:kube-system:replicaset-controller' % ver, 'ClusterRoleBinding "system:controller:replicaset-controller" of ClusterRole "system:controller:replicaset-controller" to ServiceAccount "replicaset-controller/kube-system"'),
        'scheduler': ('system:kube-scheduler', ['system:authenticated'], '10.0.0.10', 'kube-scheduler/%s (linux/amd64) kubernetes/55019c8/scheduler' % ver, 'ClusterRoleBinding "system:kube-scheduler" of ClusterRole "system:kube-scheduler" to User "system:kube-scheduler"'),
        'prom': ('system:serviceaccount:monitoring:prometheus-k8s', ['system:serviceaccounts', 'system:serviceaccounts:monitoring', 'system:authenticated'], '10.244.2.40', 'Prometheus/2.51.2', 'ClusterRoleBinding "prometheus-k8s" of ClusterRole "prometheus-k8s" to ServiceAccount "prometheus-k8s/monitoring"'),
        'certm': ('system:serviceaccount:cert-manager:cert-manager', ['system:serviceaccounts', 'system:serviceaccounts:cert-manager', 'system:authenticated'], '10.244.3.7', 'cert-manager-certificates-readiness/v1.14.4 (linux/amd64) cert-manager/f8ce7be85e3c5a3b0e5d1c4b3a1f2e0d9c8b7a65', 'ClusterRoleBinding "cert-manager-controller-certificates" of ClusterRole "cert-manager-controller-certificates" to ServiceAccount "cert-manager/cert-manager"'),
        'alice': ('alice@example.com', ['oidc:platform-team', 'system:authenticated'], '10.0.0.5', 'kubectl/v1.29.3 (darwin/arm64) kubernetes/6813625', 'RoleBinding "platform-admins/shop" of ClusterRole "admin" to Group "oidc:platform-team"'),
        'bob': ('bob@example.com', ['oidc:developers', 'system:authenticated'], '10.0.0.9', 'kubectl/v1.28.8 (linux/amd64) kubernetes/fc11ff3', 'RoleBinding "developers/shop" of ClusterRole "edit" to Group "oidc:developers"'),
        'ci': ('system:serviceaccount:ci:deployer', ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'], '10.244.1.77', 'kubectl/v1.29.4 (linux/amd64) kubernetes/55019c8', 'RoleBinding "deployer/shop" of ClusterRole "edit" to ServiceAccount "deployer/ci"'),
        'orders-sa': ('system:serviceaccount:shop:orders', ['system:serviceaccounts', 'system:serviceaccounts:shop', 'system:authenticated'], '10.244.2.31', 'orders-api/v1.14.2 (linux/amd64) kubernetes/$Format', 'RoleBinding "orders-config-reader/shop" of Role "config-reader" to ServiceAccount "orders/shop"'),
    }

    def ev(t, actor, verb, uri, obj, code=200, stage='ResponseComplete', level='Metadata', lat_ms=None, reqobj=None, status_extra=None, forbid=False, extra_ann=None):
        user, groups, ip, agent, reason = actors[actor]
        u = {'username': user, 'uid': uid(rnd) if not user.startswith('system:kube') else '', 'groups': groups} if '@' not in user else {'username': user, 'groups': groups}
        if u.get('uid') == '':
            u.pop('uid')
        rs = {'metadata': {}, 'code': code}
        if status_extra:
            rs = {'metadata': {}}
            rs.update(status_extra)
            rs['code'] = code
        o = {'kind': 'Event', 'apiVersion': 'audit.k8s.io/v1', 'level': level, 'auditID': uid(rnd), 'stage': stage, 'requestURI': uri, 'verb': verb,
             'user': u, 'sourceIPs': [ip], 'userAgent': agent, 'objectRef': obj, 'responseStatus': rs}
        if reqobj is not None:
            o['requestObject'] = reqobj
        lat = lat_ms if lat_ms is not None else lognorm(rnd, 6, 0.8)
        o['requestReceivedTimestamp'] = iso(t, 6)
        o['stageTimestamp'] = iso(t + timedelta(milliseconds=lat), 6)
        ann = {'authorization.k8s.io/decision': 'forbid' if forbid else 'allow', 'authorization.k8s.io/reason': '' if forbid else 'RBAC: allowed by ' + reason}
        if extra_ann:
            ann.update(extra_ann)
        o['annotations'] = ann
        rec = flatten(o)
        rec['sourceIPs'] = ip
        tl.add(t + timedelta(milliseconds=lat), jdump(o), **rec)

    def ref(res, ns=None, name=None, api='v1', group=None, sub=None, rv=None):
        r = {'resource': res}
        if ns:
            r['namespace'] = ns
        if name:
            r['name'] = name
        if rv:
            r['resourceVersion'] = rv
        if group:
            r['apiGroup'] = group
        r['apiVersion'] = api
        if sub:
            r['subresource'] = sub
        return r

    # argocd reconciles: gets/patches
    apps = ['orders-api', 'catalog-api', 'web', 'payments-api']
    for t in times(rnd, 170, 1, 3599):
        a = rnd.choice(apps)
        kind = rnd.choice(['deployments', 'services', 'configmaps'])
        if kind == 'deployments':
            ev(t, 'argocd', 'get', '/apis/apps/v1/namespaces/shop/deployments/%s' % a, ref('deployments', 'shop', a, 'v1', 'apps'))
        elif kind == 'services':
            ev(t, 'argocd', 'get', '/api/v1/namespaces/shop/services/%s' % a, ref('services', 'shop', a))
        else:
            ev(t, 'argocd', 'list', '/api/v1/namespaces/shop/configmaps?limit=500', ref('configmaps', 'shop'), lat_ms=lognorm(rnd, 15, 0.5))
    # prometheus watches endpoints/pods (ResponseStarted then ResponseComplete after timeout)
    for t in times(rnd, 30, 1, 3000):
        res = rnd.choice(['endpoints', 'pods', 'services'])
        to = rnd.randint(300, 600)
        uri = '/api/v1/%s?allowWatchBookmarks=true&resourceVersion=%d&timeout=%dm%ds&timeoutSeconds=%d&watch=true' % (res, rnd.randint(9000000, 9999999), to // 60, to % 60, to)
        ev(t, 'prom', 'watch', uri, ref(res), stage='ResponseStarted', lat_ms=0.4)
        ev(t, 'prom', 'watch', uri, ref(res), stage='ResponseComplete', lat_ms=to * 1000 + rnd.uniform(0, 30))
    # cert-manager status updates
    for t in times(rnd, 40, 1, 3599):
        c = rnd.choice(['shop-example-tls', 'api-shop-example-tls', 'grafana-tls'])
        ev(t, 'certm', 'get', '/apis/cert-manager.io/v1/namespaces/shop/certificates/%s' % c, ref('certificates', 'shop', c, 'v1', 'cert-manager.io'))
    # orders app reads its configmap; sometimes a missing one (404)
    for t in times(rnd, 80, 1, 3599):
        if rnd.random() < 0.12:
            ev(t, 'orders-sa', 'get', '/api/v1/namespaces/shop/configmaps/orders-feature-flags', ref('configmaps', 'shop', 'orders-feature-flags'), code=404,
               status_extra={'status': 'Failure', 'message': 'configmaps "orders-feature-flags" not found', 'reason': 'NotFound', 'details': {'name': 'orders-feature-flags', 'kind': 'configmaps'}})
        else:
            ev(t, 'orders-sa', 'get', '/api/v1/namespaces/shop/configmaps/orders-config', ref('configmaps', 'shop', 'orders-config'))
    # CI deploy rollout at ~02:27: patch deployment -> controllers
    td = at(1650.731)
    for i, a in enumerate(['orders-api', 'payments-api']):
        t = td + timedelta(seconds=i * 40)
        ev(t, 'ci', 'get', '/apis/apps/v1/namespaces/shop/deployments/%s' % a, ref('deployments', 'shop', a, 'v1', 'apps'))
        ev(t + timedelta(milliseconds=300), 'ci', 'patch', '/apis/apps/v1/namespaces/shop/deployments/%s?fieldManager=kubectl-client-side-apply&fieldValidation=Strict' % a,
           ref('deployments', 'shop', a, 'v1', 'apps'), level='Request', reqobj={'spec': {'template': {'spec': {'containers': [{'image': 'registry.example.com/shop/%s:1.14.%d' % (a, 3 + i), 'name': a}]}}}})
        rsname = '%s-%s' % (a, alnum(rnd, 10, 'bcdfghjklmnpqrstvwxz2456789'))
        ev(t + timedelta(milliseconds=340), 'kcm-deploy', 'create', '/apis/apps/v1/namespaces/shop/replicasets', ref('replicasets', 'shop', rsname, 'v1', 'apps'), code=201)
        ev(t + timedelta(milliseconds=360), 'kcm-deploy', 'update', '/apis/apps/v1/namespaces/shop/deployments/%s/status' % a, ref('deployments', 'shop', a, 'v1', 'apps', 'status'))
        ev(t + timedelta(milliseconds=365), 'kcm-deploy', 'update', '/apis/apps/v1/namespaces/shop/deployments/%s/status' % a, ref('deployments', 'shop', a, 'v1', 'apps', 'status'), code=409,
           status_extra={'status': 'Failure', 'message': 'Operation cannot be fulfilled on deployments.apps "%s": the object has been modified; please apply your changes to the latest version and try again' % a, 'reason': 'Conflict', 'details': {'name': a, 'group': 'apps', 'kind': 'deployments'}})
        for k in range(3):
            pod = '%s-%s' % (rsname, alnum(rnd, 5, 'bcdfghjklmnpqrstvwxz2456789'))
            tp = t + timedelta(milliseconds=400 + k * 9000)
            ev(tp, 'kcm-rs', 'create', '/api/v1/namespaces/shop/pods', ref('pods', 'shop', pod), code=201, extra_ann={'pod-security.kubernetes.io/enforce-policy': 'restricted:latest'})
            ev(tp + timedelta(milliseconds=30), 'scheduler', 'create', '/api/v1/namespaces/shop/pods/%s/binding' % pod, ref('pods', 'shop', pod, sub='binding'), code=201)
            ev(tp + timedelta(seconds=8), 'kcm-rs', 'delete', '/api/v1/namespaces/shop/pods/%s-%s' % (a, alnum(rnd, 16, 'bcdfghjklmnpqrstvwxz2456789')), ref('pods', 'shop', '%s-old' % a))
    # humans
    ta = at(2210.283)
    seq = [('get', '/api/v1/namespaces/shop/pods?limit=500', ref('pods', 'shop'), 200),
           ('get', '/api/v1/namespaces/shop/pods/orders-api-7c9f8d6b5-x2kqp', ref('pods', 'shop', 'orders-api-7c9f8d6b5-x2kqp'), 200),
           ('get', '/api/v1/namespaces/shop/pods/orders-api-7c9f8d6b5-x2kqp/log?container=orders-api&tailLines=200', ref('pods', 'shop', 'orders-api-7c9f8d6b5-x2kqp', sub='log'), 200),
           ('create', '/api/v1/namespaces/shop/pods/orders-api-7c9f8d6b5-x2kqp/exec?command=sh&container=orders-api&stdin=true&stdout=true&tty=true', ref('pods', 'shop', 'orders-api-7c9f8d6b5-x2kqp', sub='exec'), 101),
           ('delete', '/api/v1/namespaces/shop/pods/orders-api-7c9f8d6b5-x2kqp', ref('pods', 'shop', 'orders-api-7c9f8d6b5-x2kqp'), 200),
           ('get', '/apis/apps/v1/namespaces/shop/deployments/orders-api', ref('deployments', 'shop', 'orders-api', 'v1', 'apps'), 200)]
    for i, (verb, uri, obj, code) in enumerate(seq):
        t = ta + timedelta(seconds=i * rnd.uniform(5, 40))
        if code == 101:
            ev(t, 'alice', verb, uri, obj, code=101, stage='ResponseStarted', lat_ms=12)
            ev(t, 'alice', verb, uri, obj, code=101, stage='ResponseComplete', lat_ms=194000)
        else:
            ev(t, 'alice', verb, uri, obj, code=code)
    tb = at(2890.417)
    for i, (uri, obj) in enumerate([('/api/v1/namespaces/kube-system/secrets?limit=500', ref('secrets', 'kube-system')),
                                    ('/api/v1/namespaces/kube-system/secrets/admin-token', ref('secrets', 'kube-system', 'admin-token')),
                                    ('/api/v1/nodes?limit=500', ref('nodes')),
                                    ('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings?limit=500', ref('clusterrolebindings', None, None, 'v1', 'rbac.authorization.k8s.io'))]):
        t = tb + timedelta(seconds=i * 3.1)
        res = obj['resource']
        scope = 'in the namespace "kube-system"' if obj.get('namespace') else 'at the cluster scope'
        grp = obj.get('apiGroup', '')
        verb = 'get' if obj.get('name') else 'list'
        ev(t, 'bob', verb, uri, obj, code=403, forbid=True, status_extra={'status': 'Failure', 'message': '%s%s is forbidden: User "bob@example.com" cannot %s resource "%s" in API group "%s" %s' % (
            res, (' "%s"' % obj['name']) if obj.get('name') else '', verb, res, grp, scope), 'reason': 'Forbidden', 'details': {'kind': res} if not obj.get('name') else {'name': obj['name'], 'kind': res}})
    for t in times(rnd, 45, 1, 3599):
        ev(t, 'bob', 'get', '/api/v1/namespaces/shop/pods?labelSelector=app%3Dcatalog-api&limit=500', ref('pods', 'shop'))
    tl.flush(s)
    s.field('requestReceivedTimestamp', 'time', None, 'time')
    s.field('stageTimestamp', 'time')
    s.field('auditID', 'text')
    s.field('level', 'text')
    s.field('stage', 'text')
    s.field('verb', 'text', None, 'method')
    s.field('requestURI', 'text', None, 'path')
    s.field('user.username', 'text', None, 'user')
    s.field('sourceIPs', 'ip', None, 'client')
    s.field('userAgent', 'text')
    s.field('objectRef.resource', 'text')
    s.field('objectRef.namespace', 'text')
    s.field('responseStatus.code', 'number', None, 'status')
    s.field('annotations.authorization.k8s.io/decision', 'text')
    s.fact('events with responseStatus.code >= 400', 'count', flt=F('responseStatus.code', '>=', 400))
    s.fact("events with verb 'delete'", 'count', flt=F('verb', '==', 'delete'))
    s.fact('distinct user.username', 'distinct', 'user.username')
    s.fact("events with stage 'ResponseStarted'", 'count', flt=F('stage', '==', 'ResponseStarted'))
    s.fact("events with authorization decision 'forbid'", 'count', flt=F('annotations.authorization.k8s.io/decision', '==', 'forbid'))
    return s


# ======================================================================= 23 journalctl -o short-iso
def gen_journal():
    rnd = random.Random(123)
    s = Sample('journalctl_short_iso', 'systemd journalctl -o short-iso (systemd 249, Ubuntu 22.04 host)', 'journalctl_short-iso.log')
    host = 'web-01'
    tl = TL()
    pid = [41000]

    def np():
        pid[0] += rnd.randint(1, 60)
        return pid[0]

    def add(t, ident, p, msg):
        ts = t.strftime('%Y-%m-%dT%H:%M:%S+0000')
        tl.add(t, '%s %s %s%s: %s' % (ts, host, ident, ('[%d]' % p) if p else '', msg), timestamp=ts, _HOSTNAME=host, SYSLOG_IDENTIFIER=ident, _PID=p, MESSAGE=msg)

    first = BASE - timedelta(days=4) + timedelta(hours=-2, seconds=3)
    last = BASE + timedelta(seconds=3599.8)
    s.raw('-- Journal begins at %s %s UTC, ends at %s %s UTC. --' % (DAY[first.weekday()], first.strftime('%Y-%m-%d %H:%M:%S'), DAY[last.weekday()], last.strftime('%Y-%m-%d %H:%M:%S')))
    # ssh brute force
    bad_users = ['admin', 'test', 'oracle', 'ubuntu', 'user', 'postgres', 'git', 'ftpuser', 'deploy1', 'guest']
    attackers = public_ips(rnd, 9)
    for t in times(rnd, 48, 10, 3590):
        ip = rnd.choice(attackers)
        p = np()
        port = rnd.randint(30000, 65000)
        if rnd.random() < 0.35:
            add(t, 'sshd', p, 'pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=%s  user=root' % ip)
            add(t + timedelta(seconds=2), 'sshd', p, 'Failed password for root from %s port %d ssh2' % (ip, port))
            add(t + timedelta(seconds=3), 'sshd', p, 'Connection closed by authenticating user root %s port %d [preauth]' % (ip, port))
        else:
            u = rnd.choice(bad_users)
            add(t, 'sshd', p, 'Invalid user %s from %s port %d' % (u, ip, port))
            add(t + timedelta(milliseconds=300), 'sshd', p, 'pam_unix(sshd:auth): check pass; user unknown')
            add(t + timedelta(milliseconds=300), 'sshd', p, 'pam_unix(sshd:auth): authentication failure; logname= uid=0 euid=0 tty=ssh ruser= rhost=%s' % ip)
            add(t + timedelta(seconds=2), 'sshd', p, 'Failed password for invalid user %s from %s port %d ssh2' % (u, ip, port))
            add(t + timedelta(seconds=3), 'sshd', p, 'Received disconnect from %s port %d:11: Bye Bye [preauth]' % (ip, port))
            add(t + timedelta(seconds=3), 'sshd', p, 'Disconnected from invalid user %s %s port %d [preauth]' % (u, ip, port))
    for t in times(rnd, 8, 10, 3590):
        ip = rnd.choice(attackers)
        add(t, 'sshd', np(), 'Connection closed by %s port %d [preauth]' % (ip, rnd.randint(30000, 65000)))
    # legit deploy session with sudo
    for k, t0 in enumerate([at(1312.0), at(2903.0)]):
        p = np()
        port = rnd.randint(50000, 60000)
        sess = 412 + k
        add(t0, 'sshd', p, 'Accepted publickey for deploy from 10.0.0.5 port %d ssh2: ED25519 SHA256:3qv9YbKx7zR1mW0pJcT5uN8hLd2fA6sE4gQyXoViB1c' % port)
        add(t0, 'sshd', p, 'pam_unix(sshd:session): session opened for user deploy(uid=1001) by (uid=0)')
        add(t0 + timedelta(milliseconds=20), 'systemd-logind', 614, 'New session %d of user deploy.' % sess)
        add(t0 + timedelta(milliseconds=25), 'systemd', 1, 'Started Session %d of User deploy.' % sess)
        ps = np()
        t1 = t0 + timedelta(seconds=41)
        add(t1, 'sudo', ps, '  deploy : TTY=pts/0 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/systemctl restart orders-api.service' if k == 0 else '  deploy : TTY=pts/0 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/journalctl -u orders-api -n 200')
        add(t1, 'sudo', ps, 'pam_unix(sudo:session): session opened for user root(uid=0) by deploy(uid=1001)')
        if k == 0:
            add(t1 + timedelta(milliseconds=30), 'systemd', 1, 'Stopping Orders API...')
            add(t1 + timedelta(seconds=1.2), 'systemd', 1, 'orders-api.service: Deactivated successfully.')
            add(t1 + timedelta(seconds=1.2), 'systemd', 1, 'Stopped Orders API.')
            add(t1 + timedelta(seconds=1.2), 'systemd', 1, 'orders-api.service: Consumed 41min 12.882s CPU time.')
            add(t1 + timedelta(seconds=1.3), 'systemd', 1, 'Started Orders API.')
        add(t1 + timedelta(seconds=1.4), 'sudo', ps, 'pam_unix(sudo:session): session closed for user root')
        t2 = t0 + timedelta(seconds=rnd.randint(120, 400))
        add(t2, 'sshd', p, 'Received disconnect from 10.0.0.5 port %d:11: disconnected by user' % port)
        add(t2, 'sshd', p, 'Disconnected from user deploy 10.0.0.5 port %d' % port)
        add(t2, 'sshd', p, 'pam_unix(sshd:session): session closed for user deploy')
        add(t2, 'systemd', 1, 'session-%d.scope: Deactivated successfully.' % sess)
        add(t2, 'systemd-logind', 614, 'Session %d logged out. Waiting for processes to exit.' % sess)
        add(t2 + timedelta(milliseconds=5), 'systemd-logind', 614, 'Removed session %d.' % sess)
    # cron
    for m in range(5, 60, 10):
        t = at(m * 60 + 1)
        p = np()
        add(t, 'CRON', p, 'pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)')
        add(t, 'CRON', p + 1, '(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)')
        add(t + timedelta(milliseconds=40), 'CRON', p, 'pam_unix(cron:session): session closed for user root')
        pid[0] += 1
    t = at(17 * 60 + 1)
    p = np()
    add(t, 'CRON', p, 'pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)')
    add(t, 'CRON', p + 1, '(root) CMD (   cd / && run-parts --report /etc/cron.hourly)')
    add(t + timedelta(milliseconds=20), 'CRON', p, 'pam_unix(cron:session): session closed for user root')
    pid[0] += 1
    # timers
    for m in (9, 39):
        t = at(m * 60 + rnd.uniform(0, 5))
        add(t, 'systemd', 1, 'Starting Clean php session files...')
        add(t + timedelta(seconds=0.4), 'systemd', 1, 'phpsessionclean.service: Deactivated successfully.')
        add(t + timedelta(seconds=0.4), 'systemd', 1, 'Finished Clean php session files.')
    t = at(1455.2)
    for m in ['Starting Cleanup of Temporary Directories...', 'systemd-tmpfiles-clean.service: Deactivated successfully.', 'Finished Cleanup of Temporary Directories.']:
        t += timedelta(milliseconds=30)
        add(t, 'systemd', 1, m)
    t = at(2301.9)
    add(t, 'systemd', 1, 'Starting Refresh fwupd metadata and update motd...')
    add(t + timedelta(seconds=1.1), 'fwupdmgr', np(), 'Fetching metadata https://cdn.fwupd.org/downloads/firmware.xml.xz')
    add(t + timedelta(seconds=2.7), 'systemd', 1, 'fwupd-refresh.service: Deactivated successfully.')
    add(t + timedelta(seconds=2.7), 'systemd', 1, 'Finished Refresh fwupd metadata and update motd.')
    add(at(2760.4), 'snapd', 812, 'storehelpers.go:769: cannot refresh: snap has no updates available: "core20", "lxd", "snapd"')
    add(at(981.1), 'systemd-resolved', 588, 'Using degraded feature set UDP instead of UDP+EDNS0 for DNS server 10.0.0.2.')
    add(at(991.6), 'systemd-resolved', 588, 'Using degraded feature set TCP instead of UDP for DNS server 10.0.0.2.')
    add(at(1093.0), 'systemd-resolved', 588, 'Grace period over, resuming full feature set (UDP+EDNS0) for DNS server 10.0.0.2.')
    # firewall
    for t in times(rnd, 95, 1, 3599):
        src = rnd.choice(attackers + public_ips(rnd, 1))
        dpt = wchoice(rnd, [(23, 20), (3389, 10), (445, 10), (5900, 5), (8080, 10), (2375, 5), (6379, 5), (1433, 5), (rnd.randint(1, 65535), 15)])
        proto = 'TCP' if rnd.random() < 0.9 else 'UDP'
        tail = 'WINDOW=1024 RES=0x00 SYN URGP=0' if proto == 'TCP' else 'LEN=%d' % rnd.randint(8, 60)
        add(t, 'kernel', None, '[UFW BLOCK] IN=eth0 OUT= MAC=02:42:0a:00:00:0a:02:42:0a:00:00:01:08:00 SRC=%s DST=10.0.0.10 LEN=%d TOS=0x00 PREC=0x00 TTL=%d ID=%d %sPROTO=%s SPT=%d DPT=%d %s'
            % (src, 44 if proto == 'TCP' else rnd.randint(28, 90), rnd.randint(40, 250), rnd.randint(1, 65535), 'DF ' if rnd.random() < 0.2 else '', proto, rnd.randint(1024, 65535), dpt, tail))
    # docker / containerd
    for t in times(rnd, 10, 60, 3500):
        cid = hexs(rnd, 64)
        ns = rnd.randint(0, 999999999)
        add(t, 'containerd', 701, 'time="%s" level=info msg="shim disconnected" id=%s namespace=moby' % (go_nano(t, ns), cid))
        add(t, 'containerd', 701, 'time="%s" level=warning msg="cleaning up after shim disconnected" id=%s namespace=moby' % (go_nano(t, ns + 31000 if ns < 999900000 else ns), cid))
        add(t + timedelta(microseconds=200), 'dockerd', 812, 'time="%s" level=info msg="ignoring event" container=%s module=libcontainerd namespace=moby topic=/tasks/delete type="*events.TaskDelete"' % (go_nano(t + timedelta(microseconds=200), ns), cid))
    # OOM kill of the JVM-based search service
    to = at(2641.37)
    jp = 23118
    add(to, 'kernel', None, 'java invoked oom-killer: gfp_mask=0x1100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0')
    add(to, 'kernel', None, 'oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/system.slice/search.service,task_memcg=/system.slice/search.service,task=java,pid=%d,uid=997' % jp)
    add(to, 'kernel', None, 'Memory cgroup out of memory: Killed process %d (java) total-vm:8123456kB, anon-rss:2091244kB, file-rss:20480kB, shmem-rss:0kB, UID:997 pgtables:5112kB oom_score_adj:0' % jp)
    add(to + timedelta(seconds=0.2), 'systemd', 1, 'search.service: A process of this unit has been killed by the OOM killer.')
    add(to + timedelta(seconds=0.3), 'systemd', 1, 'search.service: Main process exited, code=killed, status=9/KILL')
    add(to + timedelta(seconds=0.3), 'systemd', 1, "search.service: Failed with result 'oom-kill'.")
    add(to + timedelta(seconds=0.3), 'systemd', 1, 'search.service: Consumed 3h 12min 41.203s CPU time.')
    add(to + timedelta(seconds=5.4), 'systemd', 1, 'search.service: Scheduled restart job, restart counter is at 1.')
    add(to + timedelta(seconds=5.4), 'systemd', 1, 'Stopped Search Service.')
    add(to + timedelta(seconds=5.4), 'systemd', 1, 'search.service: Consumed 3h 12min 41.203s CPU time.')
    add(to + timedelta(seconds=5.5), 'systemd', 1, 'Started Search Service.')
    # application stdout via journald
    ap = 9921
    for t in times(rnd, 30, 1, 3599):
        if at(1353.0) <= t:
            ap = 25517
        lvl = wchoice(rnd, [('INFO', 80), ('WARN', 15), ('ERROR', 5)])
        msg = {'INFO': 'order %d created total=%.2f' % (rnd.randint(180000, 189999), rnd.uniform(5, 400)), 'WARN': 'payment provider slow: %dms' % rnd.randint(1500, 6000),
               'ERROR': 'failed to publish event: kafka: client has run out of available brokers'}[lvl]
        add(t, 'orders-api', ap, '%s %s' % (lvl, msg))
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('_HOSTNAME', 'text', None, 'host')
    s.field('SYSLOG_IDENTIFIER', 'text', None, 'logger')
    s.field('_PID', 'number', None, 'pid')
    s.field('MESSAGE', 'text', None, 'message')
    fp = F('MESSAGE', 'startswith', 'Failed password')
    s.fact("events whose MESSAGE starts with 'Failed password'", 'count', flt=fp)
    s.fact("distinct source IPs in 'Failed password' events", 'distinct', flt=fp, key=lambda e: e['MESSAGE'].split(' from ')[1].split()[0])
    s.fact("events with SYSLOG_IDENTIFIER 'kernel'", 'count', flt=F('SYSLOG_IDENTIFIER', '==', 'kernel'))
    s.fact('distinct SYSLOG_IDENTIFIER', 'distinct', 'SYSLOG_IDENTIFIER')
    s.fact("events whose MESSAGE contains '[UFW BLOCK]'", 'count', flt=F('MESSAGE', 'contains', '[UFW BLOCK]'))
    return s


# ======================================================================= 24 Jenkins
def jenkins_src(cls, method):
    parts = cls.split('.')
    i = 0
    while len('.'.join(parts)) > 32 and i < len(parts) - 1:
        parts[i] = parts[i][0]
        i += 1
    return '.'.join(parts) + '#' + method


JENKINS_PING = '''java.util.concurrent.TimeoutException: Ping started at %d hung for 240,000 ms
	at hudson.remoting.PingThread.ping(PingThread.java:135)
	at hudson.remoting.PingThread.run(PingThread.java:87)'''

JENKINS_CLOSED = '''java.nio.channels.ClosedChannelException
	at org.jenkinsci.remoting.protocol.NetworkLayer.onRecvClosed(NetworkLayer.java:155)
	at org.jenkinsci.remoting.protocol.impl.NIONetworkLayer.ready(NIONetworkLayer.java:143)
	at org.jenkinsci.remoting.protocol.IOHub$OnReady.run(IOHub.java:789)
	at jenkins.util.ContextResettingExecutorService$1.run(ContextResettingExecutorService.java:30)
	at jenkins.security.ImpersonatingExecutorService$1.run(ImpersonatingExecutorService.java:68)
	at java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)
	at java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)
	at java.base/java.lang.Thread.run(Thread.java:840)'''

JENKINS_NPE = '''java.lang.NullPointerException: Cannot invoke "hudson.model.Computer.getExecutors()" because "c" is null
	at hudson.model.LoadStatistics$LoadStatisticsSnapshot$Builder.with(LoadStatistics.java:719)
	at hudson.model.LoadStatistics.computeSnapshot(LoadStatistics.java:286)
	at hudson.model.LoadStatistics$LoadStatisticsUpdater.doRun(LoadStatistics.java:392)
	at hudson.triggers.SafeTimerTask.run(SafeTimerTask.java:92)
	at jenkins.security.ImpersonatingScheduledExecutorService$1.run(ImpersonatingScheduledExecutorService.java:67)
	at java.base/java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:539)
	at java.base/java.util.concurrent.FutureTask.runAndReset(FutureTask.java:305)
	at java.base/java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run(ScheduledThreadPoolExecutor.java:305)
	at java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)
	at java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)
	at java.base/java.lang.Thread.run(Thread.java:840)'''

JENKINS_GIT = '''hudson.plugins.git.GitException: Command "git fetch --tags --force --progress --prune -- origin +refs/heads/main:refs/remotes/origin/main" returned status code 128:
stdout: 
stderr: fatal: unable to access 'https://github.com/acme/legacy-admin.git/': Could not resolve host: github.com

	at PluginClassLoader for git-client//org.jenkinsci.plugins.gitclient.CliGitAPIImpl.launchCommandIn(CliGitAPIImpl.java:2842)
	at PluginClassLoader for git-client//org.jenkinsci.plugins.gitclient.CliGitAPIImpl.launchCommandWithCredentials(CliGitAPIImpl.java:2185)
	at PluginClassLoader for git-client//org.jenkinsci.plugins.gitclient.CliGitAPIImpl$1.execute(CliGitAPIImpl.java:635)
	at PluginClassLoader for git//jenkins.plugins.git.AbstractGitSCMSource.retrieve(AbstractGitSCMSource.java:1108)
	at PluginClassLoader for scm-api//jenkins.scm.api.SCMSource.fetch(SCMSource.java:572)
	at PluginClassLoader for workflow-multibranch//org.jenkinsci.plugins.workflow.multibranch.SCMBinder.create(SCMBinder.java:98)
	at java.base/java.lang.Thread.run(Thread.java:840)'''


def gen_jenkins():
    rnd = random.Random(124)
    s = Sample('jenkins', 'Jenkins 2.452 controller log (java.util.logging, Jenkins SupportLogFormatter; e.g. journald/jenkins.log)', 'jenkins.log')
    tl = TL()

    def add(t, tid, lvl, cls, method, msg, exc=None):
        src = jenkins_src(cls, method)
        ts = t.strftime('%Y-%m-%d %H:%M:%S') + '.%03d+0000' % (t.microsecond // 1000)
        text = '%s [id=%d]\t%s\t%s: %s' % (ts, tid, lvl, src, msg)
        if exc:
            text += '\n' + exc
        tl.add(t, text, timestamp=ts, id=tid, level=lvl, source=src, message=msg, exception=exc.split('\n')[0] if exc else None)

    t0 = at(2.137)
    tl.add(t0, 'Running from: /usr/share/java/jenkins.war', message='Running from: /usr/share/java/jenkins.war')
    tl.add(t0 + timedelta(microseconds=1), 'webroot: /var/cache/jenkins/war', message='webroot: /var/cache/jenkins/war')
    boot = [
        (0.3, 1, 'INFO', 'winstone.Logger', 'logInternal', 'Beginning extraction from war file'),
        (1.9, 1, 'WARNING', 'org.eclipse.jetty.ee9.nested.ContextHandler', 'setContextPath', 'Empty contextPath'),
        (2.0, 1, 'INFO', 'org.eclipse.jetty.server.Server', 'doStart', 'jetty-12.0.8; built: 2024-03-29T23:28:28.009Z; git: 7c7c2b9c7b6c24aa8ff9cf2ab0bb8d82bbfb57d2; jvm 17.0.11+9'),
        (2.6, 1, 'INFO', 'org.eclipse.jetty.ee9.webapp.StandardDescriptorProcessor', 'visitServlet', 'NO JSP Support for /, did not find org.eclipse.jetty.ee9.jsp.JettyJspServlet'),
        (2.7, 1, 'INFO', 'org.eclipse.jetty.session.DefaultSessionIdManager', 'doStart', 'Session workerName=node0'),
        (3.1, 1, 'INFO', 'hudson.WebAppMain', 'contextInitialized', 'Jenkins home directory: /var/lib/jenkins found at: EnvVars.masterEnvVars.get("JENKINS_HOME")'),
        (3.4, 1, 'INFO', 'org.eclipse.jetty.server.handler.ContextHandler', 'doStart', 'Started oeje9n.ContextHandler$CoreContextHandler@5a1f4d3b{Jenkins v2.452.1,/,b=file:///var/cache/jenkins/war/,a=AVAILABLE,h=oeje9n.ContextHandler$CoreContextHandler$CoreToNestedHandler@6d7e2f11{STARTED}}'),
        (3.5, 1, 'INFO', 'org.eclipse.jetty.server.AbstractConnector', 'doStart', 'Started ServerConnector@2b9c4a1e{HTTP/1.1, (http/1.1)}{0.0.0.0:8080}'),
        (3.5, 1, 'INFO', 'org.eclipse.jetty.server.Server', 'doStart', 'Started oejs.Server@1e6a3c5f{STARTING}[12.0.8,sto=0] @5412ms'),
        (3.6, 1, 'INFO', 'winstone.Logger', 'logInternal', 'Winstone Servlet Engine running: controlPort=disabled'),
        (3.9, 40, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'Started initialization'),
        (4.8, 44, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'Listed all plugins'),
        (9.1, 43, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'Prepared all plugins'),
        (12.4, 44, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'Started all plugins'),
        (12.5, 44, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'Augmented all extensions'),
        (13.9, 43, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'System config loaded'),
        (13.9, 43, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'System config adapted'),
        (17.2, 42, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'Loaded all jobs'),
        (17.3, 42, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'Configuration for all jobs updated'),
        (17.6, 61, 'INFO', 'hudson.util.Retrier', 'start', 'Attempt #1 to do the action check updates server'),
        (18.4, 43, 'INFO', 'jenkins.InitReactorRunner$1', 'onAttained', 'Completed initialization'),
        (18.6, 28, 'INFO', 'hudson.lifecycle.Lifecycle', 'onReady', 'Jenkins is fully up and running'),
        (21.0, 61, 'INFO', 'hudson.model.DownloadService$Downloadable', 'load', 'Obtained the updated data file for hudson.tasks.Maven.MavenInstaller'),
        (21.9, 61, 'INFO', 'hudson.model.DownloadService$Downloadable', 'load', 'Obtained the updated data file for hudson.tools.JDKInstaller'),
        (22.0, 61, 'INFO', 'hudson.util.Retrier', 'start', 'Performed the action check updates server successfully at the attempt #1'),
    ]
    prev = t0
    for off, tid, lvl, cls, m, msg in boot:
        tb = max(prev + timedelta(milliseconds=1), t0 + timedelta(seconds=off, milliseconds=rnd.randint(0, 80)))
        add(tb, tid, lvl, cls, m, msg)
        prev = tb
    # periodic work
    pw = [('Periodic background build discarder', 300, 40), ('Fingerprint cleanup', 1800, 8), ('Workspace clean-up', 3400, 900), ('Download metadata', 900, 3400),
          ('Update IdentityProvider', 1200, 1)]
    for name, off, ms in pw:
        tid = rnd.randint(90, 140)
        t = at(off + rnd.uniform(0, 3))
        add(t, tid, 'INFO', 'hudson.model.AsyncPeriodicWork', 'lambda$doRun$1', 'Started %s' % name)
        d = int(lognorm(rnd, ms, 0.3))
        add(t + timedelta(milliseconds=d), tid, 'INFO', 'hudson.model.AsyncPeriodicWork', 'lambda$doRun$1', 'Finished %s. %s ms' % (name, format(d, ',')))
    # builds
    jobs = ['shop/orders-api/main', 'shop/catalog-api/main', 'shop/web/main', 'shop/payments-api/main', 'shop/web/PR-1842', 'shop/orders-api/PR-311', 'infra/terraform-plan']
    num = {j: rnd.randint(100, 1500) for j in jobs}
    repo = {'shop/orders-api/main': 'orders-api', 'shop/catalog-api/main': 'catalog-api', 'shop/web/main': 'web', 'shop/payments-api/main': 'payments-api'}
    for t in times(rnd, 120, 660, 3590):
        j = rnd.choice(jobs)
        num[j] += 1
        if j in repo and rnd.random() < 0.7:
            add(t - timedelta(seconds=rnd.uniform(90, 600)), rnd.randint(200, 400), 'INFO', 'org.jenkinsci.plugins.github.webhook.subscriber.DefaultPushGHEventSubscriber', 'onEvent',
                'Received PushEvent for https://github.com/acme/%s from 140.82.115.%d \u21d2 https://ci.example.com/github-webhook/' % (repo[j], rnd.randint(1, 254)))
            add(t - timedelta(seconds=rnd.uniform(30, 80)), rnd.randint(200, 400), 'INFO', 'jenkins.branch.MultiBranchProject$BranchIndexing', 'run',
                '%s #%d branch indexing action completed: SUCCESS' % (j.rsplit('/', 1)[0], rnd.randint(200, 900)))
        res = wchoice(rnd, [('SUCCESS', 76), ('FAILURE', 14), ('UNSTABLE', 5), ('ABORTED', 5)])
        add(t, rnd.randint(300, 900), 'INFO', 'org.jenkinsci.plugins.workflow.job.WorkflowRun', 'finish', '%s #%d completed: %s' % (j, num[j], res))
    for t in times(rnd, 12, 60, 3590):
        j = rnd.choice(['nightly-db-backup', 'rotate-logs', 'seed-jobs', 'cleanup-docker-images'])
        add(t, rnd.randint(300, 900), 'INFO', 'hudson.model.Run', 'execute', '%s #%d main build action completed: %s' % (j, rnd.randint(100, 900), wchoice(rnd, [('SUCCESS', 90), ('FAILURE', 10)])))
    # agents
    for t in times(rnd, 36, 30, 3590):
        a = rnd.choice(['10.0.8.21', '10.0.8.22', '10.0.8.23'])
        add(t, rnd.randint(150, 260), 'INFO', 'hudson.TcpSlaveAgentListener$ConnectionHandler', 'run', 'Accepted JNLP4-connect connection #%d from /%s:%d' % (rnd.randint(10, 99), a, rnd.randint(30000, 60000)))
    for t in times(rnd, 4, 1000, 1200):
        add(t, rnd.randint(150, 260), 'INFO', 'org.jenkinsci.remoting.protocol.impl.ConnectionHeadersFilterLayer', 'onRecv',
            '[JNLP4-connect connection from 10.0.8.29/10.0.8.29:%d] Refusing headers from remote: Unknown client name: agent-linux-9' % rnd.randint(30000, 60000))
    tp = at(1877.3)
    add(tp, 412, 'WARNING', 'hudson.slaves.ChannelPinger$1', 'onDead', 'Ping failed. Terminating the channel agent-linux-3.', JENKINS_PING % (epoch_us(tp) // 1000 - 240000))
    add(tp + timedelta(milliseconds=22), 233, 'WARNING', 'jenkins.slaves.DefaultJnlpSlaveReceiver', 'channelClosed', 'Computer.threadPoolForRemoting [#23] for agent-linux-3 terminated: java.nio.channels.ClosedChannelException', JENKINS_CLOSED)
    for t in times(rnd, 3, 2500, 2600):
        add(t, rnd.randint(500, 700), 'WARNING', 'hudson.security.csrf.CrumbFilter', 'doFilter', 'Found invalid crumb %s. If you are calling this URL with a script, please use the API Token instead. More information: https://www.jenkins.io/redirect/crumb-cannot-be-used-for-script' % hexs(rnd, 64))
        add(t + timedelta(milliseconds=1), rnd.randint(500, 700), 'WARNING', 'hudson.security.csrf.CrumbFilter', 'doFilter', 'No valid crumb was included in request for /job/shop/job/orders-api/job/main/build by bob. Returning 403.')
    add(at(3100.5), 37, 'SEVERE', 'hudson.triggers.SafeTimerTask', 'run', 'Timer task hudson.model.LoadStatistics$LoadStatisticsUpdater@3f7a2c1d failed', JENKINS_NPE)
    for t in times(rnd, 2, 2000, 3400):
        add(t, rnd.randint(900, 999), 'WARNING', 'jenkins.branch.MultiBranchProject$BranchIndexing', 'run', 'legacy-admin #88 branch indexing failed', JENKINS_GIT)
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('id', 'number', None, 'thread')
    s.field('level', 'text', None, 'level')
    s.field('source', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    s.field('exception', 'text', None, 'exception')
    s.fact("events at level WARNING", 'count', flt=F('level', '==', 'WARNING'))
    s.fact("events at level SEVERE", 'count', flt=F('level', '==', 'SEVERE'))
    s.fact('events with an attached stack trace', 'count', flt=F('exception', 'exists'))
    s.fact("builds completed with result FAILURE (message ends with ': FAILURE')", 'count', flt=F('message', 'contains', 'completed: FAILURE'))
    s.fact('distinct thread id ([id=N])', 'distinct', 'id')
    return s


# ======================================================================= main
GENERATORS = [gen_haproxy, gen_varnish, gen_caddy, gen_traefik, gen_envoy, gen_postgres, gen_mysql, gen_redis, gen_mongodb,
              gen_kafka, gen_elasticsearch, gen_rabbitmq, gen_slog_json, gen_slog_text, gen_rust_tracing, gen_structlog,
              gen_gunicorn, gen_phpfpm, gen_sidekiq, gen_airflow, gen_vault, gen_k8s_audit, gen_journal, gen_jenkins]


def main():
    written = []
    problems = []
    for g in GENERATORS:
        out = g()
        for smp in (out if isinstance(out, list) else [out]):
            n = len(smp.lines)
            if not 300 <= n <= 600:
                problems.append('%s: %d lines' % (smp.filename, n))
            first, last = None, None
            written.extend(smp.write())
            print('%-34s %4d lines %4d events' % (smp.filename, n, len(smp.events)))
    for p in problems:
        print('LINE COUNT OUT OF RANGE:', p)
    return written


if __name__ == '__main__':
    main()
