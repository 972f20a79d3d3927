#!/usr/bin/env python3
"""Third format survey: realistic log samples for format-detection testing, plus truth files.

Same Sample/truth.json shape, field kinds, units and roles as ../formats-survey2/gen.py
(and the first survey). The generic helpers are copied so this script runs alone.

Standard library only, fixed seeds: running it twice gives byte-identical output.
Every sample is built as a list of events; each event is rendered to text and the
values that were rendered are kept alongside, so the truth files are computed from
exactly what was written (not by hand).

Event counting rule used in every truth file (unchanged from survey 2): one event =
one record the software emits in one write (a line starting with the software's own
prefix, plus any continuation lines that carry no prefix: stack traces, tracebacks,
tab-continued lines, JSON bodies printed after "response:", Go goroutine dumps).
Lines that repeat the full prefix are separate events. File preambles that are not
log records and blank separator lines are not events.

Survey-3 specifics of the same rule:
- IIS W3C "#Software/#Version/#Date/#Fields" directive lines are preambles (they
  appear again after a service restart), not events.
- The Windows Event Viewer CSV header row is a preamble; each CSV record is one
  event, including the quoted multi-line description in its sixth column.
- The Celery worker ASCII banner and its [tasks] list, the Spring Boot banner, the
  Fluent Bit banner, CoreDNS's server-block line ".:53" and Keycloak's "Updating the
  configuration ..." line all come before the first record and are preambles.
- CoreDNS prints "CoreDNS-1.11.3" and "linux/amd64, go..." right after its first
  "[INFO] plugin/reload" record: no prefix, so they continue that record.
- NATS prints its JetStream ASCII-art banner through the logger: each of those lines
  carries the full "[pid] date [INF]" prefix, so each is an event.
- Celery's "Trying again in N seconds..." line and the blank line after it, and the
  Python warnings.warn() source line, continue the record above them.
- Cassandra/Keycloak/Spark Java stack traces ("\tat ...", "Caused by:") continue
  the record above them. klog's "Observed a panic" goroutine dump continues its
  E-line.
- Serilog, logstash-logback, GitLab, etcd and Kubernetes-event JSON keep stack
  traces inside a JSON string: one line, one event.
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
BASE = datetime(2031, 9, 16, 1, 0, 0, tzinfo=UTC)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
DAY = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']


# ----------------------------------------------------------------- helpers (copied from survey 2)
def at(sec):
    return BASE + timedelta(microseconds=int(round(sec * 1e6)))


def times(rnd, n, start=0.0, end=3600.0):
    return sorted(at(rnd.uniform(start, end)) for _ in range(n))


def epoch(t):
    return (t - EPOCH) // timedelta(microseconds=1) / 1e6


def epoch_s(t):
    return (t - EPOCH) // timedelta(seconds=1)


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


def iso(t, digits=3, z='Z'):
    frac = ('%06d' % t.microsecond)[:digits]
    return t.strftime('%Y-%m-%dT%H:%M:%S') + ('.' + frac if digits else '') + z


def jdump(obj, sort_keys=False):
    return json.dumps(obj, separators=(',', ':'), ensure_ascii=False, sort_keys=sort_keys)


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


def go_float_s(ns):
    """strconv.FormatFloat(d.Seconds(), 'f', -1, 64) for a whole number of ns."""
    q, r = divmod(ns, 10 ** 9)
    return ('%d.%09d' % (q, r)).rstrip('0').rstrip('.')


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
    def __init__(self, name, fmt, filename=None, eol='\n'):
        self.name = name
        self.format = fmt
        self.filename = filename or name + '.log'
        self.eol = eol
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
        assert agg != 'count' or v > 0, (self.name, what)
        self.facts.append({'what': what, 'filter': flt if publish else None, 'value': v})

    def write(self):
        path = os.path.join(OUT, self.filename)
        with open(path, 'w', encoding='utf-8', newline='') as fh:
            fh.write(self.eol.join(self.lines) + self.eol)
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


UAS = [
    ('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36', 30),
    ('Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1', 18),
    ('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15', 10),
    ('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.6613.88 Mobile Safari/537.36', 12),
    ('Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0', 5),
    ('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36 Edg/128.0.2739.67', 5),
    ('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 4),
    ('curl/8.9.1', 2), ('python-requests/2.32.3', 2), ('okhttp/4.12.0', 4),
]


def ua(rnd):
    return wchoice(rnd, UAS)


def p95(vals):
    sv = sorted(vals)
    return sv[math.ceil(0.95 * len(sv)) - 1]


def syslog_ts(t):
    return '%s %2d %s' % (MON[t.month - 1], t.day, t.strftime('%H:%M:%S'))


def comma_ms(t):
    """Java/Python logging 'yyyy-MM-dd HH:mm:ss,SSS'."""
    return t.strftime('%Y-%m-%d %H:%M:%S') + ',%03d' % (t.microsecond // 1000)


def java_trace(exc, frames, caused=None, more=None):
    out = [exc] + ['\tat ' + f for f in frames]
    if more:
        out.append('\t... %d more' % more)
    if caused:
        out.append('Caused by: ' + caused[0])
        out += ['\tat ' + f for f in caused[1]]
        out.append('\t... %d more' % caused[2])
    return '\n'.join(out)


# ======================================================================= 1 Apache httpd 2.4 error log
def gen_apache_error():
    rnd = random.Random(301)
    s = Sample('apache_error', 'Apache httpd 2.4 error log, default ErrorLogFormat "[%{u}t] [%-m:%l] [pid %P:tid %T] %7F: %E: [client %a] %M% , referer %{Referer}i" (Debian, mpm_event, mod_proxy_fcgi to php-fpm)', 'apache-error.log')
    tl = TL()

    def tid():
        return 0x7F3C00000000 + rnd.randint(0, 0xFFFFF) * 0x1000 + 0x6C0

    master = 1021
    gen1 = {1024: [tid() for _ in range(25)], 1025: [tid() for _ in range(25)]}
    gen2 = {4410: [tid() for _ in range(25)], 4411: [tid() for _ in range(25)], 4412: [tid() for _ in range(25)]}
    mtid = tid()
    restart = 1204.5

    def ts(t):
        return '%s %s %02d %s.%06d %d' % (DAY[t.weekday()], MON[t.month - 1], t.day, t.strftime('%H:%M:%S'), t.microsecond, t.year)

    def add(t, mod, lvl, msg, pid=None, client=None, referer=None, apr=None, **rec):
        if pid is None:
            kids = gen1 if (t - BASE).total_seconds() < restart else gen2
            pid = rnd.choice(sorted(kids))
            th = rnd.choice(kids[pid])
        elif pid == master:
            th = mtid
        else:
            th = rnd.choice((gen1.get(pid) or gen2.get(pid)))
        text = '[%s] [%s:%s] [pid %d:tid %d] ' % (ts(t), mod, lvl, pid, th)
        if apr:
            text += apr + ': '
        if client:
            text += '[client %s] ' % client
        text += msg
        if referer:
            text += ', referer: ' + referer
        r = {'time': ts(t), 'module': mod, 'level': lvl, 'pid': pid, 'tid': th, 'message': msg,
             'code': msg[:7] if msg.startswith('AH') and msg[7:9] == ': ' else None}
        if client:
            ip, port = client.rsplit(':', 1)
            r['client'] = ip
            r['client_port'] = int(port)
        if referer:
            r['referer'] = referer
        if apr:
            r['os_error'] = apr
        r.update(rec)
        tl.add(t, text, **r)

    def startup(t0):
        add(t0, 'ssl', 'warn', 'AH01909: shop.example.com:443:0 server certificate does NOT include an ID which matches the server name', pid=master)
        add(t0 + timedelta(milliseconds=31), 'mpm_event', 'notice', 'AH00489: Apache/2.4.62 (Debian) OpenSSL/3.0.15 configured -- resuming normal operations', pid=master)
        add(t0 + timedelta(milliseconds=32), 'core', 'notice', "AH00094: Command line: '/usr/sbin/apache2'", pid=master)

    startup(at(0.2))
    add(at(restart - 0.004), 'mpm_event', 'notice', 'AH00493: SIGUSR1 received.  Doing graceful restart', pid=master)
    startup(at(restart))
    users = Pool(rnd, public_ips(rnd, 70), 0.9)
    scanners = public_ips(rnd, 9)
    pages = ['https://shop.example.com/', 'https://shop.example.com/products/%d' % rnd.randint(1000, 9999), 'https://shop.example.com/cart',
             'https://shop.example.com/checkout', 'https://www.google.com/']
    probe = ['/var/www/shop/public/.git/config', '/var/www/shop/public/.env', '/var/www/shop/public/server-status', '/var/www/shop/public/.htaccess',
             '/var/www/shop/public/vendor/phpunit/phpunit/src/Util/PHP/eval-stdin.php', '/var/www/shop/public/.aws/credentials']
    fpm_down = (1811.0, 1846.0)

    def cl(ip=None):
        return '%s:%d' % (ip or users.pick(), rnd.randint(1025, 65535))

    for t in times(rnd, 430, 1, 3598):
        sec = (t - BASE).total_seconds()
        if fpm_down[0] <= sec < fpm_down[1]:
            add(t, 'proxy', 'error', 'AH00957: FCGI: attempt to connect to Unix domain socket /run/php/php8.2-fpm.sock (localhost:8000) failed', apr='(111)Connection refused')
            add(t + timedelta(microseconds=90), 'proxy_fcgi', 'error', 'AH01079: failed to make connection to backend: httpd-UDS:0', client=cl(), referer=rnd.choice(pages) if rnd.random() < 0.6 else None)
            continue
        k = wchoice(rnd, [('denied', 26), ('warn', 30), ('deprec', 10), ('fatal', 6), ('timeout', 5), ('badurl', 5), ('autoindex', 4),
                          ('auth', 6), ('sni', 3), ('hdr', 5)])
        if k == 'denied':
            add(t, 'authz_core', 'error', 'AH01630: client denied by server configuration: %s' % rnd.choice(probe), client=cl(rnd.choice(scanners)))
        elif k == 'warn':
            f, ln, var = rnd.choice([('product.php', 88, '"variant"'), ('cart.php', 41, '"qty"'), ('search.php', 17, '"q"')])
            add(t, 'proxy_fcgi', 'error', "AH01071: Got error 'PHP message: PHP Warning:  Undefined array key %s in /var/www/shop/public/%s on line %d'" % (var, f, ln),
                client=cl(), referer=rnd.choice(pages))
        elif k == 'deprec':
            add(t, 'proxy_fcgi', 'error', "AH01071: Got error 'PHP message: PHP Deprecated:  strlen(): Passing null to parameter #1 ($string) of type string is deprecated in /var/www/shop/src/View/Helpers.php on line 112; PHP message: PHP Warning:  Trying to access array offset on value of type null in /var/www/shop/src/View/Helpers.php on line 118'",
                client=cl(), referer=rnd.choice(pages))
        elif k == 'fatal':
            err = rnd.choice(["Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in /var/www/shop/src/Db.php:27\\nStack trace:\\n#0 /var/www/shop/src/Db.php(27): PDO->__construct()\\n#1 /var/www/shop/public/index.php(14): Shop\\\\Db::connect()\\n#2 {main}\\n  thrown in /var/www/shop/src/Db.php on line 27",
                              "Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) in /var/www/shop/src/Export/Csv.php on line 64"])
            add(t, 'proxy_fcgi', 'error', "AH01071: Got error 'PHP message: PHP Fatal error:  %s'" % err, client=cl(), referer=rnd.choice(pages))
        elif k == 'timeout':
            add(t, 'proxy_fcgi', 'error', 'AH01075: Error dispatching request to : (polling)', client=cl(), apr='(70007)The timeout specified has expired', referer=rnd.choice(pages))
        elif k == 'badurl':
            add(t, 'core', 'error', 'AH10244: invalid URI path (/cgi-bin/.%2e/.%2e/.%2e/.%2e/.%2e/bin/sh)', client=cl(rnd.choice(scanners)))
        elif k == 'autoindex':
            add(t, 'autoindex', 'error', 'AH01276: Cannot serve directory /var/www/shop/public/%s/: No matching DirectoryIndex (index.php,index.html) found, and server-generated directory index forbidden by Options directive' % rnd.choice(['uploads', 'assets', 'img/products']),
                client=cl())
        elif k == 'auth':
            if rnd.random() < 0.5:
                add(t, 'auth_basic', 'error', 'AH01618: user %s not found: /admin/' % rnd.choice(['admin', 'root', 'test', 'administrator']), client=cl(rnd.choice(scanners)))
            else:
                add(t, 'auth_basic', 'error', 'AH01617: user %s: authentication failure for "/admin/": Password Mismatch' % rnd.choice(['ops', 'alice']), client=cl())
        elif k == 'sni':
            add(t, 'ssl', 'error', 'AH02032: Hostname shop.example.com provided via SNI and hostname %s provided via HTTP have no compatible SSL setup' % rnd.choice(['203.0.113.80', 'admin.example.com']),
                client=cl(rnd.choice(scanners)))
        else:
            add(t, 'core', 'error', 'AH00126: Invalid URI in request GET /%s HTTP/1.1' % rnd.choice(['..%2f..%2f..%2fetc/passwd', '%%32%65%%32%65/%%32%65%%32%65/etc/passwd', 'index.php?s=/Index/\\think\\app/invokefunction']),
                client=cl(rnd.choice(scanners)))
    for t in times(rnd, 4, 2400, 2520):
        add(t, 'mpm_event', 'error', 'AH10159: server is within MinSpareThreads of MaxRequestWorkers, consider raising the MaxRequestWorkers setting', pid=master)
    add(at(2521.7), 'mpm_event', 'error', 'AH00484: server reached MaxRequestWorkers setting, consider raising the MaxRequestWorkers setting', pid=master)
    add(at(3017.3), 'core', 'notice', 'AH00052: child pid 4411 exit signal Segmentation fault (11)', pid=master)
    tl.flush(s)
    s.field('time', 'time', None, 'time')
    s.field('module', 'text', None, 'logger')
    s.field('level', 'text', None, 'level')
    s.field('pid', 'number', None, 'pid')
    s.field('tid', 'number', None, 'thread')
    s.field('client', 'ip', None, 'client')
    s.field('code', 'text')
    s.field('message', 'text', None, 'message')
    s.field('referer', 'text')
    s.fact("events at level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("events at level 'notice'", 'count', flt=F('level', '==', 'notice'))
    s.fact('events with error code AH01630 (client denied by server configuration)', 'count', flt=F('code', '==', 'AH01630'))
    s.fact('distinct client IP ([client ip:port])', 'distinct', 'client')
    s.fact("events whose message contains 'PHP Fatal error'", 'count', flt=F('message', 'contains', 'PHP Fatal error'))
    s.fact("events from module 'proxy_fcgi'", 'count', flt=F('module', '==', 'proxy_fcgi'))
    return s


# ======================================================================= 2 IIS W3C extended
def gen_iis():
    rnd = random.Random(302)
    s = Sample('iis_w3c', 'Microsoft IIS 10.0 W3C Extended log file (default fields, u_ex*.log, CRLF, UTC)', 'u_ex310916.log', eol='\r\n')
    fields = 'date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken'

    def header(t):
        s.raw('#Software: Microsoft Internet Information Services 10.0')
        s.raw('#Version: 1.0')
        s.raw('#Date: %s' % t.strftime('%Y-%m-%d %H:%M:%S'))
        s.raw('#Fields: ' + fields)

    clients = Pool(rnd, private_ips(rnd, 45, '10.40.12.') + public_ips(rnd, 20), 0.8)
    domain_users = ['CORP\\alice', 'CORP\\bob', 'CORP\\svc-reports', 'CORP\\carol', 'CORP\\dmitri']
    restart = 2170.0
    header(at(0.0))
    sip = '10.40.1.21'

    def line(t, method, stem, query, port, user, cip, agent, ref, st, sub, w32, tt):
        vals = [t.strftime('%Y-%m-%d'), t.strftime('%H:%M:%S'), sip, method, stem, query or '-', str(port), user or '-', cip,
                agent.replace(' ', '+') if agent else '-', ref or '-', str(st), str(sub), str(w32), str(tt)]
        s.ev(' '.join(vals), date=vals[0], time=vals[1], **{'s-ip': sip, 'cs-method': method, 'cs-uri-stem': stem, 'cs-uri-query': query or '-',
                                                             's-port': port, 'cs-username': user or '-', 'c-ip': cip, 'cs(User-Agent)': vals[9],
                                                             'cs(Referer)': vals[10], 'sc-status': st, 'sc-substatus': sub, 'sc-win32-status': w32, 'time-taken': tt})

    hdr_done = False
    for t in times(rnd, 760, 1, 3600):
        t = t.replace(microsecond=0)
        if not hdr_done and (t - BASE).total_seconds() >= restart:
            header(at(restart))
            hdr_done = True
        cip = clients.pick()
        agent = ua(rnd)
        k = wchoice(rnd, [('page', 30), ('api', 30), ('static', 22), ('intranet', 8), ('health', 6), ('scan', 2), ('signalr', 4)])
        ref = None
        user = None
        sub, w32 = 0, 0
        if k == 'page':
            method = wchoice(rnd, [('GET', 85), ('POST', 15)])
            stem = rnd.choice(['/', '/Orders/Index', '/Orders/Details', '/Account/Login', '/Home/About', '/Reports/Monthly'])
            query = 'id=%d' % rnd.randint(10000, 99999) if stem == '/Orders/Details' else ('ReturnUrl=%2FOrders%2FIndex' if stem == '/Account/Login' and method == 'GET' else None)
            st = wchoice(rnd, [(200, 85), (302, 8), (404, 2), (500, 3), (503, 0.5)])
            tt = int(lognorm(rnd, 95, 0.9))
            ref = 'https://portal.example.com/' if rnd.random() < 0.6 else None
            if st == 500 and rnd.random() < 0.3:
                sub = 19
        elif k == 'api':
            method = wchoice(rnd, [('GET', 70), ('POST', 20), ('PUT', 6), ('DELETE', 4)])
            stem = rnd.choice(['/api/orders', '/api/orders/%d' % rnd.randint(10000, 99999), '/api/customers/%d' % rnd.randint(100, 999), '/api/reports/export'])
            query = 'page=%d&size=50' % rnd.randint(1, 30) if stem == '/api/orders' and method == 'GET' else None
            st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'PUT': 204, 'DELETE': 204}[method], 88), (400, 3), (401, 2), (404, 3), (500, 2.5), (502, 0.5)])
            tt = int(lognorm(rnd, 60 if 'export' not in stem else 2500, 1.0))
            agent = rnd.choice(['okhttp/4.12.0', 'python-requests/2.32.3', agent])
        elif k == 'static':
            method = 'GET'
            stem = rnd.choice(['/Content/site.css', '/Scripts/jquery-3.7.1.min.js', '/Scripts/bootstrap.bundle.min.js', '/Content/images/logo.png', '/favicon.ico'])
            query = None
            st = wchoice(rnd, [(200, 60), (304, 38), (404, 2)])
            w32 = 2 if st == 404 else 0
            tt = int(lognorm(rnd, 3, 1.0))
            ref = 'https://portal.example.com/Orders/Index'
        elif k == 'intranet':
            # Windows authentication handshake: anonymous 401.2, NTLM challenge 401.1, then 200
            method, stem, query = 'GET', '/Reports/Monthly', None
            u = rnd.choice(domain_users)
            line(t, method, stem, query, 443, None, cip, agent, None, 401, 2, 5, rnd.randint(0, 3))
            line(t, method, stem, query, 443, None, cip, agent, None, 401, 1, 2148074254, rnd.randint(0, 3))
            user, st, tt = u, wchoice(rnd, [(200, 90), (403, 10)]), int(lognorm(rnd, 300, 0.7))
        elif k == 'health':
            method, stem, query, st, tt = 'GET', '/health', None, 200, rnd.randint(0, 4)
            agent, cip = 'Azure-Traffic-Manager-Endpoint-Monitor', rnd.choice(['40.90.141.%d' % i for i in (2, 7, 19)])
        elif k == 'signalr':
            method, stem, query = 'GET', '/signalr/connect', 'transport=webSockets&clientProtocol=2.1&connectionToken=%s' % alnum(rnd, 20)
            st, tt = 101, int(lognorm(rnd, 400000, 1.0))
        else:
            method, stem, query = 'GET', rnd.choice(['/wp-login.php', '/.env', '/phpmyadmin/index.php', '/owa/auth/logon.aspx']), None
            st, tt, w32 = 404, rnd.randint(0, 2), 2
            agent = 'Mozilla/5.0 zgrab/0.x'
        if st == 200 and k in ('page', 'api') and rnd.random() < 0.02:
            w32 = 64
            tt = int(tt * rnd.uniform(3, 20))
        if st == 503:
            w32 = 0
            sub = 0
        line(t, method, stem, query, 443 if k != 'health' else 80, user, cip, agent, ref, st, sub, w32, tt)
    s.field('date', 'time', None, 'time')
    s.field('time', 'time', None, 'time')
    s.field('cs-method', 'text', None, 'method')
    s.field('cs-uri-stem', 'text', None, 'path')
    s.field('cs-uri-query', 'text')
    s.field('cs-username', 'text', None, 'user')
    s.field('c-ip', 'ip', None, 'client')
    s.field('cs(User-Agent)', 'text')
    s.field('sc-status', 'number', None, 'status')
    s.field('sc-substatus', 'number')
    s.field('sc-win32-status', 'number')
    s.field('time-taken', 'number', 'ms', 'duration')
    s.fact('requests with sc-status >= 500', 'count', flt=F('sc-status', '>=', 500))
    s.fact('requests with sc-status 401', 'count', flt=F('sc-status', '==', 401))
    s.fact('max time-taken (ms)', 'max', 'time-taken')
    s.fact("p95 (nearest-rank) time-taken in ms over requests with sc-status 200", 'p95', 'time-taken', F('sc-status', '==', 200))
    s.fact('distinct c-ip', 'distinct', 'c-ip')
    s.fact('requests with sc-win32-status 64 (client went away)', 'count', flt=F('sc-win32-status', '==', 64))
    return s


# ======================================================================= 3 Istio sidecar (istio-proxy container, TEXT access log)
def gen_istio():
    rnd = random.Random(303)
    s = Sample('istio_proxy', 'Istio 1.22 sidecar `kubectl logs -c istio-proxy`: default TEXT access log format (meshConfig.accessLogFile=/dev/stdout) mixed with pilot-agent/envoy tab-separated logs', 'istio-proxy.log')
    tl = TL()
    pod_ip = '10.244.2.17'

    def agent(t, lvl, scope, msg, kv=''):
        ts = t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06dZ' % t.microsecond
        parts = [ts, lvl] + ([scope] if scope else []) + [msg] + ([kv] if kv else [])
        tl.add(t, '\t'.join(parts), timestamp=ts, level=lvl, scope=scope or None, message=msg)

    def envoy(t, lvl, logger, src, msg, thread):
        ts = t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06dZ' % t.microsecond
        tl.add(t, '%s\t%s\tenvoy %s %s\t%s\tthread=%d' % (ts, lvl, logger, src, msg, thread), timestamp=ts, level=lvl, scope='envoy ' + logger, message=msg)

    t0 = at(0.0)
    flags = [('concurrency', '"2"'), ('domain', '"shop.svc.cluster.local"'), ('log_output_level', '"default:info"'), ('meshConfig', '"./etc/istio/config/mesh"'),
             ('outlierLogPath', '""'), ('profiling', '"true"'), ('proxyComponentLogLevel', '"misc:error"'), ('proxyLogLevel', '"warning"'),
             ('serviceCluster', '"istio-proxy"'), ('stsPort', '"0"'), ('templateFile', '""'), ('tokenManagerPlugin', '""')]
    for i, (k, v) in enumerate(flags):
        agent(t0 + timedelta(microseconds=30 * i), 'info', None, 'FLAG: --%s=%s' % (k, v))
    boot = [('info', None, 'Version 1.22.3-61c7ea0bd3ac9bd71be8a8f8c0b1b4ee7b4c2b39-Clean', ''),
            ('info', None, 'Proxy role', 'ips=[%s] type=sidecar id=orders-7c9d8f6b5-k2x7q.shop domain=shop.svc.cluster.local' % pod_ip),
            ('info', None, 'Apply proxy config from env {}', ''),
            ('info', 'cache', 'generated new workload certificate', 'resourceName=default latency=121.839532ms ttl=23h59m59.878161072s'),
            ('info', 'cache', 'Root cert has changed, start rotating root cert', ''),
            ('info', 'xdsproxy', 'Initializing with upstream address "istiod.istio-system.svc:15012" and cluster "Kubernetes"', ''),
            ('info', None, 'Starting proxy agent', ''),
            ('info', None, 'Envoy command: [-c etc/istio/proxy/envoy-rev.json --drain-time-s 45 --drain-strategy immediate --local-address-ip-version v4 --file-flush-interval-msec 1000 --disable-hot-restart --allow-unknown-static-fields -l warning --component-log-level misc:error --concurrency 2]', ''),
            ('info', 'xdsproxy', 'connected to delta upstream XDS server: istiod.istio-system.svc:15012', 'id=1'),
            ('info', 'ads', 'ADS: new connection for node:orders-7c9d8f6b5-k2x7q.shop-1', ''),
            ('info', 'cache', 'returned workload certificate from cache', 'ttl=23h59m59.693471822s'),
            ('info', 'ads', 'SDS: PUSH request for node:orders-7c9d8f6b5-k2x7q.shop resources:1 size:4.0kB resource:default', ''),
            ('info', None, 'Readiness succeeded in 1.024170911s', ''),
            ('info', None, 'Envoy proxy is ready', '')]
    for i, (lvl, scope, msg, kv) in enumerate(boot):
        agent(t0 + timedelta(milliseconds=5 + i * 70), lvl, scope, msg, kv)
    callers = Pool(rnd, ['10.244.1.%d' % i for i in (9, 14, 23, 31, 40)], 0.8)
    uas = ['Go-http-client/1.1', 'okhttp/4.12.0', 'python-requests/2.32.3', 'envoy', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36']
    pay_down = (2210.0, 2290.0)

    def access(tend, method, path, proto, code, flags, details, term, utfr, brx, btx, dur, ust, xff, uag, rid, auth, uhost, ucl, uloc, dloc, drem, sni, route):
        tstart = tend - timedelta(milliseconds=dur)
        st = iso(tstart, 3)
        text = '[%s] "%s %s %s" %d %s %s %s "%s" %d %d %d %s "%s" "%s" "%s" "%s" "%s" %s %s %s %s %s %s' % (
            st, method, path, proto, code, flags, details, term, utfr, brx, btx, dur, ust, xff, uag, rid, auth, uhost, ucl, uloc, dloc, drem, sni, route)
        rec = {'start_time': st, 'method': None if method == '-' else method, 'path': None if path == '-' else path, 'protocol': None if proto == '-' else proto,
               'response_code': code, 'response_flags': flags, 'response_code_details': details, 'upstream_transport_failure_reason': utfr,
               'bytes_received': brx, 'bytes_sent': btx, 'duration': dur, 'upstream_service_time': None if ust == '-' else int(ust),
               'x_forwarded_for': xff, 'user_agent': uag, 'request_id': rid, 'authority': auth, 'upstream_host': uhost, 'upstream_cluster': ucl,
               'upstream_local_address': uloc, 'downstream_local_address': dloc, 'downstream_remote_address': drem,
               'requested_server_name': sni, 'route_name': route}
        tl.add(tend, text, **rec)

    for tend in times(rnd, 560, 2, 3600):
        sec = (tend - BASE).total_seconds()
        k = wchoice(rnd, [('inbound', 55), ('pay', 22), ('inv', 10), ('pg', 8), ('ext', 5)])
        rid = uid(rnd)
        if k == 'inbound':
            method = wchoice(rnd, [('GET', 70), ('POST', 25), ('DELETE', 5)])
            path = rnd.choice(['/v1/orders/%d' % rnd.randint(100000, 999999), '/v1/orders?customer=%d' % rnd.randint(1, 9999)]) if method == 'GET' else \
                '/v1/orders' if method == 'POST' else '/v1/orders/%d' % rnd.randint(100000, 999999)
            code = wchoice(rnd, [({'GET': 200, 'POST': 201, 'DELETE': 204}[method], 90), (400, 3), (404, 4), (500, 2), (0, 1)])
            dur = max(1, int(lognorm(rnd, 14, 0.9)))
            if pay_down[0] <= sec < pay_down[1] and method == 'POST':
                code, dur = 503, dur + 30
            ust = str(max(0, dur - rnd.randint(0, 2)))
            flags, details, term = '-', 'via_upstream', '-'
            btx = 0 if code in (0, 204) else rnd.randint(80, 9000)
            if code == 0:
                flags, details, ust, btx = 'DC', 'downstream_remote_disconnect', '-', 0
            drem = '%s:%d' % (callers.pick(), rnd.randint(32768, 60999))
            access(tend, method, path, 'HTTP/1.1', code, flags, details, term, '-', rnd.randint(0, 2000) if method == 'POST' else 0, btx, dur, ust, '-',
                   rnd.choice(uas), rid, 'orders.shop.svc.cluster.local:8080', '%s:8080' % pod_ip, 'inbound|8080||', '127.0.0.6:%d' % rnd.randint(32768, 60999),
                   '%s:8080' % pod_ip, drem, 'outbound_.8080_._.orders.shop.svc.cluster.local', 'default')
        elif k == 'pay':
            dur = max(1, int(lognorm(rnd, 45, 0.7)))
            hosts = ['10.244.3.22:8080', '10.244.4.9:8080']
            flags, details, code, utfr, term = '-', 'via_upstream', 200, '-', '-'
            uhost = rnd.choice(hosts)
            ust = str(max(0, dur - 1))
            if pay_down[0] <= sec < pay_down[1]:
                if rnd.random() < 0.6:
                    code, flags, details, utfr, ust, dur = 503, 'UF,URX', 'upstream_reset_before_response_started{remote_connection_failure}', 'delayed_connect_error:_111', '-', rnd.randint(25, 90)
                else:
                    code, flags, details, uhost, ust, dur = 503, 'UH', 'no_healthy_upstream', '-', '-', 0
            elif rnd.random() < 0.03:
                code, flags, details, ust, dur = 504, 'UT', 'response_timeout', '-', 15000 + rnd.randint(0, 3)
            elif rnd.random() < 0.03:
                code = 402
            access(tend, 'POST', '/v1/charges', 'HTTP/1.1', code, flags, details, term, utfr, rnd.randint(300, 900), 0 if code in (503, 504) and flags != '-' else rnd.randint(150, 600),
                   dur, ust, '-', 'Go-http-client/1.1', rid, 'payments.shop.svc.cluster.local:8080', uhost, 'outbound|8080||payments.shop.svc.cluster.local',
                   '%s:%d' % (pod_ip, rnd.randint(32768, 60999)) if uhost != '-' else '-', '10.96.44.10:8080', '%s:%d' % (pod_ip, rnd.randint(32768, 60999)), '-', 'default')
        elif k == 'inv':
            dur = max(1, int(lognorm(rnd, 8, 0.6)))
            code = wchoice(rnd, [(200, 95), (404, 5)])
            access(tend, 'GET', '/stock/%d' % rnd.randint(1000, 9999), 'HTTP/2', code, '-', 'via_upstream', '-', '-', 0, rnd.randint(60, 400), dur, str(dur), '-',
                   'grpc-go/1.64.0', rid, 'inventory.shop.svc.cluster.local:9090', '10.244.1.77:9090', 'outbound|9090||inventory.shop.svc.cluster.local',
                   '%s:%d' % (pod_ip, rnd.randint(32768, 60999)), '10.96.20.3:9090', '%s:%d' % (pod_ip, rnd.randint(32768, 60999)), '-', 'default')
        elif k == 'pg':
            dur = min(int(lognorm(rnd, 60000, 1.2)), int((sec - 1.0) * 1000))
            access(tend, '-', '-', '-', 0, '-', '-', '-', '-', rnd.randint(2000, 900000), rnd.randint(2000, 9000000), dur, '-', '-', '-', '-', '-', '10.244.5.3:5432',
                   'outbound|5432||postgres.shop.svc.cluster.local', '%s:%d' % (pod_ip, rnd.randint(32768, 60999)), '10.96.12.4:5432', '%s:%d' % (pod_ip, rnd.randint(32768, 60999)), '-', '-')
        else:
            dur = int(lognorm(rnd, 900, 0.8))
            access(tend, '-', '-', '-', 0, '-', '-', '-', '-', rnd.randint(600, 3000), rnd.randint(3000, 12000), dur, '-', '-', '-', '-', '-', '-', 'PassthroughCluster',
                   '%s:%d' % (pod_ip, rnd.randint(32768, 60999)), '%s:443' % rnd.choice(['52.85.12.4', '34.120.9.77']), '%s:%d' % (pod_ip, rnd.randint(32768, 60999)), 'api.stripe.com', '-')
    envoy(at(1800.31), 'warning', 'config', 'external/envoy/source/extensions/config_subscription/grpc/grpc_stream.h:155', 'StreamAggregatedResources gRPC config stream to xds-grpc closed since 1799s ago: 13, ', 14)
    agent(at(1800.33), 'info', 'xdsproxy', 'connected to delta upstream XDS server: istiod.istio-system.svc:15012', 'id=2')
    envoy(at(2210.02), 'warning', 'upstream', 'external/envoy/source/extensions/clusters/eds/eds.cc:444', 'Missing ClusterLoadAssignment for outbound|8080||payments.shop.svc.cluster.local from cluster_load_assignments', 17)
    for t in times(rnd, 3, 2211, 2280):
        envoy(t, 'warning', 'config', 'external/envoy/source/extensions/config_subscription/grpc/delta_subscription_state.cc:275', 'delta config for type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment rejected: Proto constraint validation failed', 14)
    agent(at(3401.5), 'warn', None, 'Aborted proxy instance: context canceled', '')
    tl.flush(s)
    s.field('start_time', 'time', None, 'time')
    s.field('method', 'text', None, 'method')
    s.field('path', 'text', None, 'path')
    s.field('protocol', 'text')
    s.field('response_code', 'number', None, 'status')
    s.field('response_flags', 'text')
    s.field('response_code_details', 'text')
    s.field('bytes_received', 'number', 'b')
    s.field('bytes_sent', 'number', 'b', 'bytes')
    s.field('duration', 'number', 'ms', 'duration')
    s.field('upstream_service_time', 'number', 'ms')
    s.field('request_id', 'text')
    s.field('authority', 'text', None, 'host')
    s.field('upstream_host', 'text', None, 'upstream')
    s.field('upstream_cluster', 'text', None, 'upstream')
    s.field('downstream_remote_address', 'text', None, 'client')
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('scope', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    acc = F('duration', 'exists')
    s.fact('access log lines with response_code >= 500', 'count', flt=F('response_code', '>=', 500))
    s.fact("access log lines whose response_flags is not '-'", 'count', flt={'all': [acc, F('response_flags', '!=', '-')]})
    s.fact('max duration (ms) over HTTP access lines (path present)', 'max', 'duration', F('path', 'startswith', '/'))
    s.fact('p95 (nearest-rank) duration in ms over HTTP access lines (path present)', 'p95', 'duration', F('path', 'startswith', '/'))
    s.fact('distinct upstream_cluster over access lines', 'distinct', 'upstream_cluster', acc)
    s.fact("agent/envoy lines at level 'warning'", 'count', flt=F('level', '==', 'warning'))
    return s


# ======================================================================= 4 Squid native access.log
def gen_squid():
    rnd = random.Random(304)
    s = Sample('squid_access', 'Squid 6 access.log, native "squid" logformat (%ts.%03tu %6tr %>a %Ss/%03>Hs %<st %rm %ru %[un %Sh/%<a %mt)', 'squid-access.log')
    clients = Pool(rnd, private_ips(rnd, 60, '10.20.4.'), 0.9)
    users = {}
    names = ['alice', 'bob', 'carol', 'dmitri', 'erin', 'farid', 'grace', 'hiro', 'ines', 'jonas', 'kemal', 'lena']
    sites = [('www.google.com', '142.250.180.4'), ('login.microsoftonline.com', '20.190.151.7'), ('outlook.office365.com', '52.97.146.2'),
             ('github.com', '140.82.121.4'), ('api.slack.com', '3.120.3.38'), ('www.youtube.com', '142.250.180.14'), ('teams.microsoft.com', '52.113.194.132'),
             ('pypi.org', '151.101.0.223'), ('registry.npmjs.org', '104.16.27.35'), ('www.bbc.co.uk', '151.101.64.81')]
    plain = [('deb.debian.org', '151.101.2.132', '/debian/dists/bookworm/InRelease', 'text/plain'),
             ('security.debian.org', '151.101.194.132', '/debian-security/dists/bookworm-security/InRelease', 'text/plain'),
             ('ocsp.digicert.com', '192.229.211.108', '/MFEwTzBNMEswSTAJBgUrDgMCGgUABBRf', 'application/ocsp-response'),
             ('ctldl.windowsupdate.com', '93.184.221.240', '/msdownload/update/v3/static/trustedr/en/authrootstl.cab', 'application/vnd.ms-cab-compressed'),
             ('example.com', '93.184.215.14', '/', 'text/html'), ('neverssl.com', '34.223.124.45', '/online/', 'text/html')]
    blocked = ['www.tiktok.com:443', 'discord.com:443', 'pastebin.com:443', 'mega.nz:443']
    for t in times(rnd, 1150, 0, 3600):
        ip = clients.pick()
        user = users.setdefault(ip, rnd.choice(names))
        k = wchoice(rnd, [('connect', 62), ('http', 20), ('auth', 6), ('denied', 4), ('abort', 3), ('none', 3), ('hit', 2)])
        un = user
        hier, peer, mt = 'HIER_DIRECT', None, '-'
        if k == 'connect':
            host, addr = rnd.choice(sites)
            method, url, code, st = 'CONNECT', host + ':443', 'TCP_TUNNEL', 200
            el = int(lognorm(rnd, 30000, 1.4))
            size = int(lognorm(rnd, 40000, 1.6))
            peer = addr
        elif k == 'http':
            host, addr, path, mt = rnd.choice(plain)
            method, url = 'GET', 'http://%s%s' % (host, path)
            code, st = wchoice(rnd, [(('TCP_MISS', 200), 60), (('TCP_REFRESH_UNMODIFIED', 304), 20), (('TCP_MISS', 404), 4), (('TCP_MISS', 503), 1), (('TCP_REFRESH_MODIFIED', 200), 6)])
            el = int(lognorm(rnd, 80, 1.0))
            size = rnd.randint(300, 900) if st in (304, 404, 503) else rnd.randint(1000, 300000)
            peer = addr
        elif k == 'hit':
            host, addr, path, mt = rnd.choice(plain[:2])
            method, url, code, st = 'GET', 'http://%s%s' % (host, path), rnd.choice(['TCP_MEM_HIT', 'TCP_HIT']), 200
            el, size, hier, peer = rnd.randint(0, 2), rnd.randint(5000, 150000), 'HIER_NONE', '-'
        elif k == 'auth':
            host, _ = rnd.choice(sites)
            method, url, code, st, el, size, un, hier, peer, mt = 'CONNECT', host + ':443', 'TCP_DENIED', 407, 0, 3934, '-', 'HIER_NONE', '-', 'text/html'
        elif k == 'denied':
            method, url, code, st, el, size, hier, peer, mt = 'CONNECT', rnd.choice(blocked), 'TCP_DENIED', 403, 0, 3857, 'HIER_NONE', '-', 'text/html'
        elif k == 'abort':
            host, addr = rnd.choice(sites)
            method, url, code, st = 'CONNECT', host + ':443', 'TCP_TUNNEL_ABORTED', 200
            el, size, peer = int(lognorm(rnd, 120000, 0.8)), rnd.randint(5000, 900000), addr
        else:
            method, url, code, st, el, size, un, hier, peer, mt = '-', 'error:transaction-end-before-headers', 'NONE_NONE', 0, 0, 0, '-', 'HIER_NONE', '-', '-'
        ts = '%d.%03d' % (epoch_s(t), t.microsecond // 1000)
        text = '%s %6d %s %s/%03d %d %s %s %s %s/%s %s' % (ts, el, ip, code, st, size, method, url, un, hier, peer, mt)
        s.ev(text, time=float(ts), elapsed=el, client=ip, result_code=code, status=st, bytes=size, method=method, url=url, user=un, hierarchy=hier,
             peer=peer, content_type=mt)
    s.field('time', 'time', 's', 'time')
    s.field('elapsed', 'number', 'ms', 'duration')
    s.field('client', 'ip', None, 'client')
    s.field('result_code', 'text')
    s.field('status', 'number', None, 'status')
    s.field('bytes', 'number', 'b', 'bytes')
    s.field('method', 'text', None, 'method')
    s.field('url', 'text', None, 'path')
    s.field('user', 'text', None, 'user')
    s.field('peer', 'text', None, 'upstream')
    s.field('content_type', 'text')
    s.fact('requests with status 407 (proxy authentication required)', 'count', flt=F('status', '==', 407))
    s.fact("requests whose result_code is 'TCP_DENIED'", 'count', flt=F('result_code', '==', 'TCP_DENIED'))
    s.fact('sum of bytes', 'sum', 'bytes')
    s.fact("max elapsed (ms) over method 'GET'", 'max', 'elapsed', F('method', '==', 'GET'))
    s.fact("p95 (nearest-rank) elapsed in ms over method 'CONNECT'", 'p95', 'elapsed', F('method', '==', 'CONNECT'))
    s.fact('distinct client', 'distinct', 'client')
    return s


# ======================================================================= 5 Cassandra system.log
CASS_NPE = java_trace('java.lang.IllegalStateException: Unable to compute ceiling for max when histogram overflowed', [
    'org.apache.cassandra.metrics.DecayingEstimatedHistogramReservoir$EstimatedHistogramReservoirSnapshot.getMax(DecayingEstimatedHistogramReservoir.java:608)',
    'org.apache.cassandra.db.ColumnFamilyStore.getMaxTimestampLatency(ColumnFamilyStore.java:2514)',
    'org.apache.cassandra.service.reads.AbstractReadExecutor.getReadExecutor(AbstractReadExecutor.java:195)',
    'org.apache.cassandra.service.StorageProxy.fetchRows(StorageProxy.java:2039)',
    'org.apache.cassandra.service.StorageProxy.readRegular(StorageProxy.java:1918)',
    'org.apache.cassandra.cql3.statements.SelectStatement.execute(SelectStatement.java:356)',
    'org.apache.cassandra.cql3.QueryProcessor.processStatement(QueryProcessor.java:253)',
    'org.apache.cassandra.transport.messages.QueryMessage.execute(QueryMessage.java:116)',
    'org.apache.cassandra.transport.Message$Request.execute(Message.java:255)',
    'org.apache.cassandra.transport.Dispatcher.processRequest(Dispatcher.java:86)',
    'io.netty.util.concurrent.FastThreadLocalRunnable.run(FastThreadLocalRunnable.java:30)',
    'java.base/java.lang.Thread.run(Thread.java:829)'])
CASS_WTE = java_trace('org.apache.cassandra.exceptions.WriteTimeoutException: Operation timed out - received only 1 responses.', [
    'org.apache.cassandra.service.AbstractWriteResponseHandler.get(AbstractWriteResponseHandler.java:162)',
    'org.apache.cassandra.service.StorageProxy.mutate(StorageProxy.java:893)',
    'org.apache.cassandra.service.StorageProxy.mutateWithTriggers(StorageProxy.java:1191)',
    'org.apache.cassandra.cql3.statements.BatchStatement.executeWithoutConditions(BatchStatement.java:424)',
    'org.apache.cassandra.cql3.statements.BatchStatement.execute(BatchStatement.java:408)',
    'org.apache.cassandra.transport.messages.BatchMessage.execute(BatchMessage.java:220)',
    'org.apache.cassandra.transport.Message$Request.execute(Message.java:255)',
    'java.base/java.lang.Thread.run(Thread.java:829)'])


def gen_cassandra():
    rnd = random.Random(305)
    s = Sample('cassandra', 'Apache Cassandra 4.1 system.log (logback "%-5level [%thread] %date{ISO8601} %F:%L - %msg%n"), Java stack traces on following lines', 'cassandra-system.log')
    tl = TL()

    def add(t, lvl, thread, src, msg, **rec):
        ts = comma_ms(t)
        f, ln = src.split(':')
        tl.add(t, '%-5s [%s] %s %s - %s' % (lvl, thread, ts, src, msg), level=lvl, thread=thread, timestamp=ts, file=f, line=int(ln), message=msg.split('\n')[0], **rec)

    t0 = at(0.3)
    boot = [('INFO', 'main', 'YamlConfigurationLoader.java:104', 'Configuration location: file:/etc/cassandra/cassandra.yaml'),
            ('INFO', 'main', 'Config.java:1167', 'Node configuration:[allocate_tokens_for_keyspace=null; allocate_tokens_for_local_replication_factor=3; audit_logging_options=AuditLogOptions{enabled=false, logger=BinAuditLogger{}}; authenticator=PasswordAuthenticator; authorizer=CassandraAuthorizer; auto_bootstrap=true; auto_snapshot=true; batch_size_fail_threshold=50KiB; batch_size_warn_threshold=5KiB; cluster_name=shop-prod; commitlog_directory=/var/lib/cassandra/commitlog; compaction_throughput=64MiB/s; concurrent_reads=32; concurrent_writes=32; data_file_directories=[Ljava.lang.String;@5e0e82ae; endpoint_snitch=GossipingPropertyFileSnitch; num_tokens=16; seed_provider=org.apache.cassandra.locator.SimpleSeedProvider{seeds=10.0.6.11,10.0.6.12}; tombstone_failure_threshold=100000; tombstone_warn_threshold=1000]'),
            ('INFO', 'main', 'DatabaseDescriptor.java:417', 'DiskAccessMode is standard, indexAccessMode is standard, commitlogAccessMode is standard'),
            ('INFO', 'main', 'DatabaseDescriptor.java:476', 'Global memtable on-heap threshold is enabled at 2008MiB'),
            ('INFO', 'main', 'CassandraDaemon.java:612', 'Hostname: cass-2.db.internal:7000:7001'),
            ('INFO', 'main', 'CassandraDaemon.java:619', 'JVM vendor/version: OpenJDK 64-Bit Server VM/11.0.24'),
            ('INFO', 'main', 'CassandraDaemon.java:620', 'Heap size: 7.844GiB/7.844GiB'),
            ('INFO', 'main', 'CassandraDaemon.java:625', 'G1 Old Gen Heap memory: init = 7633633280(7454720K) used = 0(0K) committed = 7667187712(7487488K) max = 8422162432(8224768K)'),
            ('INFO', 'main', 'CassandraDaemon.java:627', 'Classpath: /etc/cassandra:/usr/share/cassandra/lib/HdrHistogram-2.1.9.jar:/usr/share/cassandra/lib/ST4-4.0.8.jar:/usr/share/cassandra/lib/airline-0.8.jar:/usr/share/cassandra/apache-cassandra-4.1.6.jar'),
            ('INFO', 'main', 'CassandraDaemon.java:629', 'JVM Arguments: [-ea, -da:net.openhft..., -XX:+UseThreadPriorities, -XX:+HeapDumpOnOutOfMemoryError, -Xss256k, -XX:+AlwaysPreTouch, -XX:+UseG1GC, -XX:MaxGCPauseMillis=300, -Xms8G, -Xmx8G]'),
            ('WARN', 'main', 'StartupChecks.java:175', 'JMX is not enabled to receive remote connections. Please see cassandra-env.sh for more info.'),
            ('WARN', 'main', 'StartupChecks.java:478', 'Cassandra server running in degraded mode. Is swap disabled? : false,  Address space adequate? : true,  nofile limit adequate? : true, nproc limit adequate? : true '),
            ('INFO', 'main', 'QueryProcessor.java:158', 'Preloaded 412 prepared statements'),
            ('INFO', 'main', 'StorageService.java:765', 'Cassandra version: 4.1.6'),
            ('INFO', 'main', 'StorageService.java:766', 'Git SHA: 4f6f3f4ef27b1f3ad8f28a0f9dbde0bf7b3d2e1c'),
            ('INFO', 'main', 'StorageService.java:767', 'CQL version: 3.4.6'),
            ('INFO', 'main', 'StorageService.java:768', 'Native protocol supported versions: 3/v3, 4/v4, 5/v5, 6/v6-beta (default: 5/v5)'),
            ('INFO', 'main', 'StorageService.java:1080', 'Loading persisted ring state'),
            ('INFO', 'main', 'Gossiper.java:2267', 'Waiting for gossip to settle...'),
            ('INFO', 'main', 'Gossiper.java:2298', 'No gossip backlog; proceeding'),
            ('INFO', 'main', 'PipelineConfigurator.java:125', 'Starting listening for CQL clients on /0.0.0.0:9042 (unencrypted)...'),
            ('INFO', 'main', 'CassandraDaemon.java:776', 'Startup complete')]
    for i, (lvl, th, src, msg) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 40 + rnd.randint(0, 30)), lvl, th, src, msg)
    tables = ['shop.orders', 'shop.order_items', 'shop.carts', 'shop.events', 'shop.sessions', 'system.local', 'system_auth.roles']
    peers = ['10.0.6.11', '10.0.6.13', '10.0.6.14']
    down = [('10.0.6.13', 1502.1, 1688.4)]
    sst = 4100
    for t in times(rnd, 470, 20, 3595):
        k = wchoice(rnd, [('gc', 22), ('flush', 18), ('compact', 16), ('slow', 8), ('batch', 7), ('tomb', 6), ('bigp', 2), ('hints', 3), ('err', 2), ('auth', 2), ('wte', 2)])
        if k == 'gc':
            young = rnd.random() < 0.93
            ms = int(lognorm(rnd, 260, 0.4)) if young else int(lognorm(rnd, 1400, 0.3))
            lvl = 'WARN' if ms >= 1000 else 'INFO'
            src = 'GCInspector.java:294' if lvl == 'WARN' else 'GCInspector.java:299'
            e = rnd.randint(900, 1300) * 1048576
            o = rnd.randint(2000, 6000) * 1048576
            msg = '%s GC in %dms.  G1 Eden Space: %d -> 0; G1 Old Gen: %d -> %d; G1 Survivor Space: %d -> %d; ' % (
                'G1 Young Generation' if young else 'G1 Old Generation', ms, e, o, o + rnd.randint(0, 40) * 1048576 if young else o // 2,
                rnd.randint(40, 90) * 1048576, rnd.randint(40, 90) * 1048576)
            add(t, lvl, 'Service Thread', src, msg, gc_ms=ms)
        elif k == 'flush':
            tb = rnd.choice(tables[:5])
            mib = lognorm(rnd, 90, 0.4)
            add(t, 'INFO', rnd.choice(['NativePoolCleaner', 'SlabPoolCleaner']), 'ColumnFamilyStore.java:1027', 'Enqueuing flush of %s, Reason: MEMTABLE_LIMIT, Usage: %.3fMiB (%d%%) on-heap, 0.000KiB (0%%) off-heap' % (tb, mib, int(mib / 20)))
            sst += 1
            ks, cf = tb.split('.')
            te = t + timedelta(milliseconds=rnd.randint(300, 3000))
            add(te, 'INFO', 'PerDiskMemtableFlushWriter_0:%d' % rnd.randint(1, 4), 'Flushing.java:153', 'Writing Memtable-%s@%d(%.3fMiB serialized bytes, %d ops, %d%%/0%% of on/off-heap limit), flushed range = [null, null)' % (cf, rnd.randint(10 ** 8, 2 * 10 ** 9), mib * 0.6, rnd.randint(50000, 900000), int(mib / 20)))
            add(te + timedelta(milliseconds=rnd.randint(100, 900)), 'INFO', 'PerDiskMemtableFlushWriter_0:%d' % rnd.randint(1, 4), 'Flushing.java:185',
                'Completed flushing /var/lib/cassandra/data/%s/%s-%s/nb-%d-big-Data.db (%.3fMiB) for commitlog position CommitLogPosition(segmentId=1789520390123, position=%d)' % (ks, cf, hexs(rnd, 32), sst, mib * 0.25, rnd.randint(100000, 30000000)))
        elif k == 'compact':
            tb = rnd.choice(tables[:5])
            ks, cf = tb.split('.')
            n = rnd.randint(2, 6)
            a = lognorm(rnd, 60, 0.8)
            b = a * rnd.uniform(0.6, 0.95)
            ms = int(lognorm(rnd, 2500, 0.8))
            parts = rnd.randint(10000, 900000)
            add(t, 'INFO', 'CompactionExecutor:%d' % rnd.randint(1, 8), 'CompactionTask.java:253',
                'Compacted (%s) %d sstables to [/var/lib/cassandra/data/%s/%s-%s/nb-%d-big,] to level=0.  %.3fMiB to %.3fMiB (~%d%% of original) in %sms.  Read Throughput = %.3fMiB/s, Write Throughput = %.3fMiB/s, Row Throughput = ~%s/s.  %s total partitions merged to %s.  Partition merge counts were {1:%d, 2:%d, }. Time spent writing keys = %sms' % (
                    uid(rnd), n, ks, cf, hexs(rnd, 32), sst, a, b, int(b / a * 100), '{:,}'.format(ms), a / ms * 1000, b / ms * 1000, '{:,}'.format(int(parts / ms * 1000)),
                    '{:,}'.format(parts), '{:,}'.format(int(parts * 0.8)), int(parts * 0.7), int(parts * 0.1), '{:,}'.format(int(ms * 0.8))), compaction_ms=ms)
        elif k == 'slow':
            add(t, 'INFO', 'ScheduledTasks:1', 'NoSpamLogger.java:105', 'Some operations were slow, details available at debug level (debug.log)')
        elif k == 'batch':
            if rnd.random() < 0.5:
                add(t, 'WARN', 'Native-Transport-Requests-%d' % rnd.randint(1, 32), 'NoSpamLogger.java:108', 'Unlogged batch covering %d partitions detected against table [shop.order_items]. You should use a logged batch for atomicity, or asynchronous writes for performance.' % rnd.randint(11, 90))
            else:
                kb = rnd.uniform(5.2, 40)
                add(t, 'WARN', 'Native-Transport-Requests-%d' % rnd.randint(1, 32), 'NoSpamLogger.java:108', 'Batch for [shop.order_items] is of size %.3fKiB, exceeding specified threshold of 5.000KiB by %.3fKiB.' % (kb, kb - 5))
        elif k == 'tomb':
            tok = rnd.randint(-9 * 10 ** 18, 9 * 10 ** 18)
            uidv = uid(rnd)
            if rnd.random() < 0.8:
                add(t, 'WARN', 'ReadStage-%d' % rnd.randint(1, 32), 'ReadCommand.java:607', 'Read %d live rows and %d tombstone cells for query SELECT * FROM shop.sessions WHERE user_id = %s LIMIT 5000 ALLOW FILTERING; token %d (see tombstone_warn_threshold)' % (rnd.randint(0, 300), rnd.randint(1001, 90000), uidv, tok))
            else:
                add(t, 'ERROR', 'ReadStage-%d' % rnd.randint(1, 32), 'StorageProxy.java:2076', "Scanned over 100001 tombstones during query 'SELECT * FROM shop.sessions WHERE user_id = %s LIMIT 5000 ALLOW FILTERING' (last scanned row token was %d and partion key was ((%s))); query aborted" % (uidv, tok, uidv))
        elif k == 'bigp':
            add(t, 'WARN', 'CompactionExecutor:%d' % rnd.randint(1, 8), 'BigTableWriter.java:274', 'Writing large partition shop/events:%s (%.3fMiB) to sstable /var/lib/cassandra/data/shop/events-%s/nb-%d-big-Data.db' % (rnd.choice(['2031-09-15', '2031-09-16']), rnd.uniform(100, 400), hexs(rnd, 32), sst))
        elif k == 'hints':
            p = rnd.choice(peers)
            add(t, 'INFO', 'HintsDispatcher:%d' % rnd.randint(1, 4), 'HintsDispatchExecutor.java:289', 'Finished hinted handoff of file %s-%d-2.hints to endpoint /%s:7000: %s' % (uid(rnd), epoch_s(t) * 1000, p, uid(rnd)))
        elif k == 'err':
            add(t, 'ERROR', 'Native-Transport-Requests-%d' % rnd.randint(1, 32), 'ErrorMessage.java:457', 'Unexpected exception during request\n' + CASS_NPE, exception='java.lang.IllegalStateException')
        elif k == 'wte':
            add(t, 'ERROR', 'Native-Transport-Requests-%d' % rnd.randint(1, 32), 'ErrorMessage.java:457', 'Unexpected exception during request\n' + CASS_WTE, exception='org.apache.cassandra.exceptions.WriteTimeoutException')
        else:
            add(t, 'WARN', 'Native-Transport-Requests-%d' % rnd.randint(1, 32), 'NoSpamLogger.java:108', "Failed to authenticate user 'report_ro' from /10.0.9.%d: Provided username report_ro and/or password are incorrect" % rnd.randint(2, 60))
    for ip, a, b in down:
        add(at(a - 12.3), 'INFO', 'ScheduledTasks:1', 'MessagingMetrics.java:206', 'MUTATION_REQ messages were dropped in last 5000 ms: 0 internal and 37 cross node. Mean internal dropped latency: 0 ms and Mean cross-node dropped latency: 2415 ms')
        add(at(a), 'INFO', 'GossipStage:1', 'Gossiper.java:1378', 'InetAddress /%s:7000 is now DOWN' % ip)
        add(at(a + 0.004), 'INFO', 'GossipStage:1', 'MessagingService.java:456', 'Interrupted outbound connections to /%s:7000' % ip)
        add(at(b - 1.2), 'INFO', 'GossipStage:1', 'Gossiper.java:1355', 'Node /%s:7000 has restarted, now UP' % ip)
        add(at(b - 1.19), 'INFO', 'GossipStage:1', 'StorageService.java:3002', 'Node /%s:7000 state jump to NORMAL' % ip)
        add(at(b), 'INFO', 'GossipStage:1', 'Gossiper.java:1335', 'InetAddress /%s:7000 is now UP' % ip)
    add(at(2700.0), 'INFO', 'RMI TCP Connection(12)-127.0.0.1', 'StorageService.java:3891', 'Starting repair command #7 (%s), repairing keyspace shop with repair options (parallelism: parallel, primary range: true, incremental: false, job threads: 1, ColumnFamilies: [], dataCenters: [], hosts: [], previewKind: NONE, # of ranges: 16, pull repair: false, force repair: false, optimise streams: false, ignore unreplicated keyspaces: false, repairPaxos: true, paxosOnly: false)' % uid(rnd))
    add(at(2913.4), 'INFO', 'Repair#7:1', 'RepairRunnable.java:321', 'Repair command #7 finished in 3 minutes 33 seconds')
    tl.flush(s)
    s.field('level', 'text', None, 'level')
    s.field('thread', 'text', None, 'thread')
    s.field('timestamp', 'time', None, 'time')
    s.field('file', 'text', None, 'logger')
    s.field('line', 'number')
    s.field('message', 'text', None, 'message')
    gc = F('file', '==', 'GCInspector.java')
    s.fact('events at level WARN', 'count', flt=F('level', '==', 'WARN'))
    s.fact('events at level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    s.fact("max GC pause in ms over GCInspector.java lines ('... GC in Nms.')", 'max', flt=gc, key=lambda e: e['gc_ms'])
    s.fact("GCInspector.java lines", 'count', flt=gc)
    s.fact("events whose message contains 'tombstone'", 'count', flt=F('message', 'contains', 'tombstone'))
    s.fact('distinct thread', 'distinct', 'thread')
    return s


# ======================================================================= 6 etcd (zap JSON)
ETCD_STACK = ('go.etcd.io/etcd/server/v3/etcdserver.(*EtcdServer).sendMergedSnap.func1\n\tgo.etcd.io/etcd/server/v3/etcdserver/snapshot_merge.go:86\n'
              'go.etcd.io/etcd/server/v3/etcdserver.(*EtcdServer).GoAttach.func1\n\tgo.etcd.io/etcd/server/v3/etcdserver/server.go:2334')


def gen_etcd():
    rnd = random.Random(306)
    s = Sample('etcd_json', 'etcd 3.5 server log, --log-format=json (zap: level, ts, caller, msg, then fields; Go durations as strings)', 'etcd.log')
    tl = TL()
    me = '8e9e05c52164694d'
    peers = {'91bc3c398fb3c146': '10.0.0.12', 'fd422379fda50e48': '10.0.0.13'}

    def add(t, lvl, caller, msg, fields=(), logger=None, **rec):
        o = {'level': lvl, 'ts': t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06dZ' % t.microsecond}
        if logger:
            o['logger'] = logger
        o['caller'] = caller
        o['msg'] = msg
        for k, v in fields:
            o[k] = v
        r = dict(o)
        r.update(rec)
        tl.add(t, jdump(o), **r)

    t0 = at(0.1)
    boot = [('info', 'etcdmain/etcd.go:73', 'Running: ', [('args', ['etcd', '--advertise-client-urls=https://10.0.0.11:2379', '--cert-file=/etc/kubernetes/pki/etcd/server.crt', '--client-cert-auth=true', '--data-dir=/var/lib/etcd', '--initial-advertise-peer-urls=https://10.0.0.11:2380', '--initial-cluster=cp-1=https://10.0.0.11:2380,cp-2=https://10.0.0.12:2380,cp-3=https://10.0.0.13:2380', '--listen-client-urls=https://127.0.0.1:2379,https://10.0.0.11:2379', '--listen-metrics-urls=http://127.0.0.1:2381', '--name=cp-1', '--snapshot-count=10000'])]),
            ('info', 'etcdmain/etcd.go:116', 'server has been already initialized', [('data-dir', '/var/lib/etcd'), ('dir-type', 'member')]),
            ('info', 'embed/etcd.go:127', 'configuring peer listeners', [('listen-peer-urls', ['https://10.0.0.11:2380'])]),
            ('info', 'embed/etcd.go:135', 'configuring client listeners', [('listen-client-urls', ['https://10.0.0.11:2379', 'https://127.0.0.1:2379'])]),
            ('info', 'embed/etcd.go:309', 'starting an etcd server', [('etcd-version', '3.5.15'), ('git-sha', '9a5533382'), ('go-version', 'go1.21.12'), ('go-os', 'linux'), ('go-arch', 'amd64'), ('max-cpu-set', 4), ('max-cpu-available', 4), ('member-initialized', True), ('name', 'cp-1'), ('data-dir', '/var/lib/etcd'), ('heartbeat-interval', '100ms'), ('election-timeout', '1s'), ('snapshot-count', 10000), ('quota-backend-bytes', 2147483648)]),
            ('info', 'etcdserver/backend.go:81', 'opened backend db', [('path', '/var/lib/etcd/member/snap/db'), ('took', '9.811224ms')]),
            ('info', 'etcdserver/server.go:511', 'recovered v2 store from snapshot', [('snapshot-index', 4180042), ('snapshot-size', '9.4 kB')]),
            ('info', 'mvcc/kvstore.go:406', 'kvstore restored', [('current-rev', 3791822)]),
            ('info', 'etcdserver/raft.go:530', 'restarting local member', [('cluster-id', 'cdf818194e3a8c32'), ('local-member-id', me), ('commit-index', 4189917)])]
    for i, (lvl, c, m, f) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 9 + rnd.randint(0, 5)), lvl, c, m, f)
    raft = ['%s switched to configuration voters=(%s)' % (me, ' '.join(str(int(x, 16)) for x in sorted([me] + list(peers)))),
            '%s became follower at term 41' % me, 'newRaft %s [peers: [], term: 41, commit: 4189917, applied: 4180042, lastindex: 4189917, lastterm: 41]' % me,
            '%s is starting a new election at term 41' % me, '%s became pre-candidate at term 41' % me, '%s received MsgPreVoteResp from %s at term 41' % (me, me),
            '%s became candidate at term 42' % me, '%s received MsgVoteResp from 91bc3c398fb3c146 at term 42' % me,
            '%s has received 2 MsgVoteResp votes and 0 vote rejections' % me, '%s became leader at term 42' % me,
            'raft.node: %s elected leader %s at term 42' % (me, me)]
    for i, m in enumerate(raft):
        add(at(0.3 + i * 0.11), 'info', 'etcdserver/zap_raft.go:77', m, logger='raft')
    add(at(1.6), 'info', 'etcdserver/server.go:2068', 'published local member to cluster through raft', [('local-member-id', me), ('local-member-attributes', '{Name:cp-1 ClientURLs:[https://10.0.0.11:2379]}'), ('request-path', '/0/members/%s/attributes' % me), ('cluster-id', 'cdf818194e3a8c32'), ('publish-timeout', '7s')])
    add(at(1.61), 'info', 'embed/serve.go:103', 'ready to serve client requests')
    add(at(1.62), 'info', 'embed/serve.go:250', 'serving client traffic securely', [('traffic', 'grpc+http'), ('address', '10.0.0.11:2379')])
    rev = 3791822
    slow_disk = (2405.0, 2480.0)
    keys = ['/registry/pods/shop/', '/registry/leases/kube-node-lease/', '/registry/events/shop/', '/registry/configmaps/kube-system/', '/registry/deployments/shop/', '/registry/secrets/shop/']
    for t in times(rnd, 440, 3, 3598):
        sec = (t - BASE).total_seconds()
        slow = slow_disk[0] <= sec < slow_disk[1]
        k = wchoice(rnd, [('apply', 45 if not slow else 200), ('trace', 12), ('fsync', 2 if not slow else 60), ('hb', 2 if not slow else 40), ('readidx', 3), ('reject', 4), ('drift', 1)])
        if k == 'apply':
            ns = int(lognorm(rnd, 140e6, 0.45 if not slow else 0.9))
            ns = max(ns, 100000001 + rnd.randint(0, 999999))
            key = rnd.choice(keys)
            ro = rnd.random() < 0.75
            add(t, 'warn', 'etcdserver/util.go:170', 'apply request took too long',
                [('took', go_dur(ns)), ('expected-duration', '100ms'), ('prefix', 'read-only range ' if ro else ''),
                 ('request', 'key:"%s" range_end:"%s0" ' % (key, key.rstrip('/')) + ('count_only:true ' if rnd.random() < 0.3 else '') if ro else
                  'header:<ID:%d username:"kube-apiserver-etcd-client" auth_revision:1 > txn:<compare:<target:MOD key:"%s%s" mod_revision:%d > success:<request_put:<key:"%s%s" value_size:%d >> failure:<>>' % (rnd.getrandbits(62), key, alnum(rnd, 8, string.ascii_lowercase), rev, key, alnum(rnd, 8, string.ascii_lowercase), rnd.randint(200, 9000))),
                 ('response', 'range_response_count:%d size:%d' % (rnd.randint(0, 200), rnd.randint(10, 900000)) if ro else 'size:%d' % rnd.randint(18, 22))],
                took_ms=ns / 1e6)
        elif k == 'trace':
            ns = int(lognorm(rnd, 180e6, 0.5)) + 100000000
            tid = rnd.randint(10 ** 8, 4 * 10 ** 9)
            st = t - timedelta(microseconds=ns // 1000)
            key = rnd.choice(keys)
            add(t, 'info', 'traceutil/trace.go:171', 'trace[%d] range' % tid,
                [('detail', '{range_begin:%s; range_end:%s0; response_count:%d; response_revision:%d; }' % (key, key.rstrip('/'), rnd.randint(0, 300), rev)),
                 ('duration', go_dur(ns)), ('start', st.strftime('%Y-%m-%dT%H:%M:%S') + '.%06dZ' % st.microsecond), ('end', t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06dZ' % t.microsecond),
                 ('steps', ["trace[%d] 'agreement among raft nodes before linearized reading'  (duration: %s)" % (tid, go_dur(int(ns * 0.9))),
                            "trace[%d] 'range keys from in-memory index tree'  (duration: %s)" % (tid, go_dur(int(ns * 0.08)))]), ('step_count', 2)])
        elif k == 'fsync':
            ns = int(lognorm(rnd, 1.6e9, 0.4)) + 1000000000
            add(t, 'warn', 'wal/wal.go:805', 'slow fdatasync', [('took', go_dur(ns)), ('expected-duration', '1s')], took_ms=ns / 1e6)
        elif k == 'hb':
            pid = rnd.choice(sorted(peers))
            ns = int(lognorm(rnd, 220e6, 0.5)) + 50000000
            add(t, 'warn', 'etcdserver/raft.go:416', 'leader failed to send out heartbeat on time; took too long, leader is overloaded likely from slow disk',
                [('to', pid), ('heartbeat-interval', '100ms'), ('expected-duration', '200ms'), ('exceeded-duration', go_dur(ns))])
        elif k == 'readidx':
            add(t, 'warn', 'etcdserver/v3_server.go:897', 'waiting for ReadIndex response took too long, retrying', [('sent-request-id', rnd.getrandbits(63)), ('retry-timeout', '500ms')])
        elif k == 'reject':
            add(t, 'warn', 'embed/config_logging.go:160', 'rejected connection', [('remote-addr', '10.0.9.%d:%d' % (rnd.randint(2, 60), rnd.randint(30000, 60000))), ('server-name', ''),
                                                                              ('error', 'tls: failed to verify certificate: x509: certificate signed by unknown authority')])
        else:
            pid = rnd.choice(sorted(peers))
            add(t, 'warn', 'rafthttp/probing_status.go:82', 'prober found high clock drift', [('round-tripper-name', 'ROUND_TRIPPER_SNAPSHOT'), ('remote-peer-id', pid),
                                                                                       ('clock-drift', go_dur(int(lognorm(rnd, 1.3e9, 0.2)))), ('rtt', go_dur(rnd.randint(400000, 4000000)))])
        rev += rnd.randint(1, 40)
    for k in range(1, 12):
        t = at(k * 300 + rnd.uniform(0, 0.5))
        crev = rev - rnd.randint(5000, 9000)
        add(t, 'info', 'mvcc/index.go:214', 'compact tree index', [('revision', crev)])
        ns = int(lognorm(rnd, 25e6, 0.5))
        add(t + timedelta(microseconds=ns // 1000), 'info', 'mvcc/kvstore_compaction.go:68', 'finished scheduled compaction',
            [('compact-revision', crev), ('took', go_dur(ns)), ('hash', rnd.getrandbits(32)), ('current-db-size-bytes', 24580096), ('current-db-size', '25 MB'),
             ('current-db-size-in-use-bytes', 11239424 + k * 4096), ('current-db-size-in-use', '11 MB')])
        add(t + timedelta(microseconds=ns // 1000 + 300), 'info', 'mvcc/hash.go:137', 'storing new hash', [('hash', rnd.getrandbits(32)), ('revision', crev), ('compact-revision', crev - 6000)])
    for a in (1180.2, 2950.7):
        add(at(a), 'info', 'etcdserver/server.go:1343', 'triggering snapshot', [('local-member-id', me), ('local-member-applied-index', 4199918), ('local-member-snapshot-index', 4189917), ('local-member-snapshot-count', 10000)])
        add(at(a + 0.02), 'info', 'etcdserver/server.go:2400', 'saved snapshot', [('snapshot-index', 4199918)])
        add(at(a + 0.03), 'info', 'etcdserver/server.go:2430', 'compacted Raft logs', [('compact-index', 4194918)])
        add(at(a + 0.04), 'info', 'fileutil/purge.go:85', 'purged', [('path', '/var/lib/etcd/member/snap/000000000000002a-00000000003fbd95.snap')])
    add(at(2479.0), 'warn', 'rafthttp/peer_status.go:66', 'peer became inactive (message send to peer failed)', [('peer-id', 'fd422379fda50e48'), ('error', 'failed to dial fd422379fda50e48 on stream MsgApp v2 (peer fd422379fda50e48 failed to find local node 8e9e05c52164694d)')])
    add(at(2479.4), 'error', 'etcdserver/snapshot_merge.go:85', 'failed to send database snapshot', [('remote-peer-id', 'fd422379fda50e48'), ('bytes', 24580096), ('size', '25 MB'), ('error', 'EOF'), ('stacktrace', ETCD_STACK)])
    add(at(2485.9), 'info', 'rafthttp/peer_status.go:53', 'peer became active', [('peer-id', 'fd422379fda50e48')])
    tl.flush(s)
    s.field('ts', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('caller', 'text', None, 'logger')
    s.field('msg', 'text', None, 'message')
    s.field('logger', 'text')
    s.field('took', 'text')
    s.field('remote-addr', 'text', None, 'client')
    s.field('error', 'text', None, 'exception')
    slow = F('msg', '==', 'apply request took too long')
    s.fact("events at level 'warn'", 'count', flt=F('level', '==', 'warn'))
    s.fact("'apply request took too long' events", 'count', flt=slow)
    s.fact("max took in ms over 'apply request took too long' events (took is a Go duration string)", 'max', flt=slow, key=lambda e: e['took_ms'])
    s.fact("'slow fdatasync' events", 'count', flt=F('msg', '==', 'slow fdatasync'))
    s.fact("events with logger 'raft'", 'count', flt=F('logger', '==', 'raft'))
    s.fact('distinct caller', 'distinct', 'caller')
    return s


# ======================================================================= 7 Celery worker
CELERY_BANNER = r''' 
 -------------- celery@worker-7f9c4d8b6-x2lqp v5.4.0 (opalescent)
--- ***** ----- 
-- ******* ---- Linux-6.1.0-25-amd64-x86_64-with-glibc2.36 2031-09-16 01:00:00
- *** --- * --- 
- ** ---------- [config]
- ** ---------- .> app:         shop:0x7f3b2c1d4e50
- ** ---------- .> transport:   redis://redis:6379/0
- ** ---------- .> results:     redis://redis:6379/1
- *** --- * --- .> concurrency: 4 (prefork)
-- ******* ---- .> task events: OFF (enable -E to monitor tasks in this worker)
--- ***** ----- 
 -------------- [queues]
                .> celery           exchange=celery(direct) key=celery
                .> emails           exchange=emails(direct) key=emails
                

[tasks]
  . shop.tasks.charge_payment
  . shop.tasks.generate_invoice_pdf
  . shop.tasks.send_order_email
  . shop.tasks.sync_inventory
'''
CELERY_TB = {
    'charge_payment': ('''Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/celery/app/trace.py", line 453, in trace_task
    R = retval = fun(*args, **kwargs)
                 ^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/celery/app/trace.py", line 736, in __protected_call__
    return self.run(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/app/shop/tasks.py", line 88, in charge_payment
    resp.raise_for_status()
  File "/usr/local/lib/python3.12/site-packages/requests/models.py", line 1024, in raise_for_status
    raise HTTPError(http_error_msg, response=self)
requests.exceptions.HTTPError: 502 Server Error: Bad Gateway for url: https://api.payments.example/v1/charges''',
                       "HTTPError('502 Server Error: Bad Gateway for url: https://api.payments.example/v1/charges')"),
    'generate_invoice_pdf': ('''Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/celery/app/trace.py", line 453, in trace_task
    R = retval = fun(*args, **kwargs)
                 ^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/celery/app/trace.py", line 736, in __protected_call__
    return self.run(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/app/shop/tasks.py", line 131, in generate_invoice_pdf
    order = Order.objects.get(pk=order_id)
            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/models/manager.py", line 87, in manager_method
    return getattr(self.get_queryset(), name)(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/models/query.py", line 649, in get
    raise self.model.DoesNotExist(
shop.models.Order.DoesNotExist: Order matching query does not exist.''', "DoesNotExist('Order matching query does not exist.')"),
}


def gen_celery():
    rnd = random.Random(307)
    s = Sample('celery_worker', 'Celery 5.4 worker stdout/stderr (default worker_log_format "[%(asctime)s: %(levelname)s/%(processName)s] %(message)s" and task log format), banner, tracebacks', 'celery-worker.log')
    for ln in CELERY_BANNER.split('\n'):
        s.raw(ln)
    tl = TL()

    def add(t, lvl, proc, msg, **rec):
        ts = comma_ms(t)
        tl.add(t, '[%s: %s/%s] %s' % (ts, lvl, proc, msg), timestamp=ts, level=lvl, process=proc, message=msg.split('\n')[0], **rec)

    t0 = at(0.9)
    add(t0, 'WARNING', 'MainProcess', '/usr/local/lib/python3.12/site-packages/celery/worker/consumer/consumer.py:508: CPendingDeprecationWarning: The broker_connection_retry configuration setting will no longer determine\nwhether broker connection retries are made during startup in Celery 6.0 and above.\nIf you wish to retain the existing behavior for retrying connections on startup,\nyou should set broker_connection_retry_on_startup to True.\n  warnings.warn(')
    add(t0 + timedelta(milliseconds=12), 'INFO', 'MainProcess', 'Connected to redis://redis:6379/0')
    add(t0 + timedelta(milliseconds=20), 'INFO', 'MainProcess', 'mingle: searching for neighbors')
    add(t0 + timedelta(milliseconds=1031), 'INFO', 'MainProcess', 'mingle: sync with 2 nodes')
    add(t0 + timedelta(milliseconds=1032), 'INFO', 'MainProcess', 'mingle: sync complete')
    add(t0 + timedelta(milliseconds=1050), 'INFO', 'MainProcess', 'celery@worker-7f9c4d8b6-x2lqp ready.')
    tasks = [('send_order_email', 40, 0.35), ('sync_inventory', 25, 1.8), ('charge_payment', 20, 0.9), ('generate_invoice_pdf', 15, 4.5)]
    busy = {i: at(0) for i in range(1, 5)}
    broker_down = (2230.0, 2241.5)
    for t in times(rnd, 330, 3, 3560):
        sec = (t - BASE).total_seconds()
        if broker_down[0] - 2 <= sec < broker_down[1] + 1:
            continue
        name, _, med = wchoice(rnd, [(x, x[1]) for x in tasks])
        full = 'shop.tasks.' + name
        tid = uid(rnd)
        add(t, 'INFO', 'MainProcess', 'Task %s[%s] received' % (full, tid), task_name=full, task_id=tid)
        w = min(busy, key=lambda i: (busy[i], i))
        st = max(t, busy[w]) + timedelta(milliseconds=rnd.randint(1, 20))
        proc = 'ForkPoolWorker-%d' % w
        rt = lognorm(rnd, med, 0.6)
        if name == 'send_order_email':
            add(st + timedelta(milliseconds=2), 'INFO', proc, '%s[%s]: Sending confirmation for order %d to %s' % (full, tid, rnd.randint(500000, 599999), rnd.choice(['gmail.com', 'outlook.com', 'example.org'])), task_name=full, task_id=tid)
        elif name == 'sync_inventory' and rnd.random() < 0.15:
            add(st + timedelta(milliseconds=5), 'WARNING', proc, '%s[%s]: SKU %d missing in warehouse feed, skipping' % (full, tid, rnd.randint(10000, 99999)), task_name=full, task_id=tid)
        r = rnd.random()
        te = st + timedelta(seconds=rt)
        if name == 'charge_payment' and r < 0.12:
            tb, rep = CELERY_TB['charge_payment']
            if rnd.random() < 0.6:
                add(te, 'INFO', proc, 'Task %s[%s] retry: Retry in 30s: %s' % (full, tid, rep), task_name=full, task_id=tid, outcome='retry')
            else:
                add(te, 'ERROR', proc, 'Task %s[%s] raised unexpected: %s\n%s' % (full, tid, rep, tb), task_name=full, task_id=tid, outcome='failure')
        elif name == 'generate_invoice_pdf' and r < 0.06:
            tb, rep = CELERY_TB['generate_invoice_pdf']
            add(te, 'ERROR', proc, 'Task %s[%s] raised unexpected: %s\n%s' % (full, tid, rep, tb), task_name=full, task_id=tid, outcome='failure')
        elif name == 'generate_invoice_pdf' and r < 0.08:
            add(st + timedelta(seconds=240), 'WARNING', proc, 'Soft time limit (240s) exceeded for %s[%s]' % (full, tid), task_name=full, task_id=tid)
            te = st + timedelta(seconds=300)
            add(te, 'ERROR', 'MainProcess', 'Hard time limit (300s) exceeded for %s[%s]' % (full, tid), task_name=full, task_id=tid, outcome='failure')
            add(te + timedelta(milliseconds=90), 'ERROR', 'MainProcess', "Process '%s' pid:%d exited with 'signal 9 (SIGKILL)'" % (proc, rnd.randint(30, 900)))
        else:
            res = {'send_order_email': 'None', 'sync_inventory': "{'updated': %d, 'skipped': %d}" % (rnd.randint(0, 400), rnd.randint(0, 5)),
                   'charge_payment': "'ch_%s'" % alnum(rnd, 24), 'generate_invoice_pdf': "'s3://shop-invoices/2031/09/%s.pdf'" % uid(rnd)}[name]
            add(te, 'INFO', proc, 'Task %s[%s] succeeded in %rs: %s' % (full, tid, rt, res), task_name=full, task_id=tid, outcome='success', runtime=rt)
        busy[w] = te
    add(at(broker_down[0]), 'WARNING', 'MainProcess', 'consumer: Connection to broker lost. Trying to re-establish the connection...\nTraceback (most recent call last):\n  File "/usr/local/lib/python3.12/site-packages/celery/worker/consumer/consumer.py", line 340, in start\n    blueprint.start(self)\n  File "/usr/local/lib/python3.12/site-packages/kombu/connection.py", line 341, in drain_events\n    return self.transport.drain_events(self.connection, **kwargs)\n  File "/usr/local/lib/python3.12/site-packages/redis/connection.py", line 521, in read_response\n    raise ConnectionError(SERVER_CLOSED_CONNECTION_ERROR)\nredis.exceptions.ConnectionError: Connection closed by server.')
    for i, d in enumerate((2.0, 4.0, 6.0)):
        add(at(broker_down[0] + 0.01 + sum((2.0, 4.0, 6.0)[:i])), 'ERROR', 'MainProcess', 'consumer: Cannot connect to redis://redis:6379/0: Error 111 connecting to redis:6379. Connection refused..\nTrying again in %.2f seconds... (%d/100)\n' % (d, i + 1))
    add(at(broker_down[1] - 0.5), 'INFO', 'MainProcess', 'Connected to redis://redis:6379/0')
    add(at(broker_down[1] - 0.49), 'INFO', 'MainProcess', 'mingle: searching for neighbors')
    add(at(broker_down[1] + 0.52), 'INFO', 'MainProcess', 'mingle: all alone')
    for k in range(1, 4):
        add(at(k * 1000 + 7.3), 'INFO', 'MainProcess', 'missed heartbeat from celery@worker-7f9c4d8b6-%s' % rnd.choice(['b8k2m', 'p4vzq']))
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('process', 'text', None, 'thread')
    s.field('message', 'text', None, 'message')
    s.field('task_name', 'text', None, 'logger')
    s.field('task_id', 'text')
    s.field('runtime', 'number', 's', 'duration')
    ok = F('message', 'contains', '] succeeded in ')
    s.fact("'Task ... succeeded in Ns' events", 'count', flt=ok)
    s.fact('max runtime (s) over succeeded events', 'max', 'runtime', ok)
    s.fact('p95 (nearest-rank) runtime in s over succeeded events', 'p95', 'runtime', ok)
    s.fact('events at level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    s.fact("'Task ... received' events for task shop.tasks.charge_payment", 'count', flt={'all': [F('message', 'contains', '] received'), F('task_name', '==', 'shop.tasks.charge_payment')]})
    s.fact("events whose message contains ' retry: Retry in '", 'count', flt=F('message', 'contains', ' retry: Retry in '))
    return s


# ======================================================================= 8 Mosquitto
def gen_mosquitto():
    rnd = random.Random(308)
    s = Sample('mosquitto', 'Eclipse Mosquitto 2.0 broker log (log_dest stdout, default log_type, default "%d:" unix-epoch timestamps)', 'mosquitto.log')
    tl = TL()

    def add(t, msg, **rec):
        ts = epoch_s(t)
        tl.add(t, '%d: %s' % (ts, msg), timestamp=ts, message=msg, **rec)

    t0 = at(0.0)
    for i, m in enumerate(['mosquitto version 2.0.18 starting', 'Config loaded from /mosquitto/config/mosquitto.conf.', 'Opening ipv4 listen socket on port 1883.',
                           'Opening ipv6 listen socket on port 1883.', 'Opening websockets listen socket on port 9001.', 'Opening ipv4 listen socket on port 8883.',
                           'mosquitto version 2.0.18 running']):
        add(t0 + timedelta(microseconds=i), m)
    devices = ['sensor-%04d' % i for i in range(1, 91)] + ['gateway-01', 'gateway-02', 'node-red', 'telegraf', 'ha-bridge']
    dev_ip = {d: '10.0.%d.%d' % (4 + i // 200, 10 + i % 200) for i, d in enumerate(devices)}
    online = {}
    flaky = ['sensor-%04d' % i for i in (7, 13, 42, 55, 61, 77, 88)]
    for t in times(rnd, 420, 1, 3598):
        d = rnd.choice(devices) if rnd.random() < 0.7 else rnd.choice(flaky)
        ip = dev_ip[d]
        port = rnd.randint(32768, 60999)
        if d in online:
            how = wchoice(rnd, [('disc', 40), ('closed', 20), ('timeout', 25 if d in flaky else 5), ('sock', 10), ('dup', 5)])
            if how == 'dup':
                add(t, 'New connection from %s:%d on port 1883.' % (ip, port), client_ip=ip)
                add(t, 'Client %s already connected, closing old connection.' % d, client_id=d)
                add(t, 'New client connected from %s:%d as %s (p2, c1, k60, u\'device\').' % (ip, port, d), client_ip=ip, client_id=d)
                online[d] = port
                continue
            msg = {'disc': 'Client %s disconnected.', 'closed': 'Client %s closed its connection.', 'timeout': 'Client %s has exceeded timeout, disconnecting.',
                   'sock': 'Socket error on client %s, disconnecting.'}[how] % d
            add(t, msg, client_id=d)
            del online[d]
        else:
            add(t, 'New connection from %s:%d on port %d.' % (ip, port, 1883 if not d.startswith('gateway') else 8883), client_ip=ip)
            proto = 'p5' if d in ('node-red', 'ha-bridge') else 'p4' if d == 'telegraf' else 'p2'
            user = {'telegraf': 'telegraf', 'node-red': 'nodered', 'ha-bridge': 'homeassistant'}.get(d, 'device')
            add(t, 'New client connected from %s:%d as %s (%s, c%d, k%d, u\'%s\').' % (ip, port, d, proto, 0 if d.startswith('gateway') else 1, 60 if proto == 'p2' else 30, user), client_ip=ip, client_id=d)
            online[d] = port
    scanners = public_ips(rnd, 12)
    for t in times(rnd, 36, 1, 3598):
        ip = rnd.choice(scanners)
        add(t, 'New connection from %s:%d on port 1883.' % (ip, rnd.randint(1024, 65535)), client_ip=ip)
        if rnd.random() < 0.7:
            add(t + timedelta(milliseconds=200), 'Client <unknown> disconnected, not authorised.', client_id='<unknown>')
        else:
            add(t + timedelta(milliseconds=200), 'Client <unknown> disconnected due to protocol error.', client_id='<unknown>')
    for t in times(rnd, 6, 1, 3598):
        add(t, 'OpenSSL Error[0]: error:0A000418:SSL routines::tlsv1 alert unknown ca')
        add(t, 'Client <unknown> disconnected: protocol error.', client_id='<unknown>')
    for t in times(rnd, 8, 2500, 2700):
        add(t, 'Outgoing messages are being dropped for client node-red.', client_id='node-red')
    for k in (1800, 3600):
        if k < 3600:
            add(at(k), 'Saving in-memory database to /mosquitto/data/mosquitto.db.')
    tl.flush(s)
    s.field('timestamp', 'time', 's', 'time')
    s.field('message', 'text', None, 'message')
    s.field('client_id', 'text', None, 'user')
    s.field('client_ip', 'ip', None, 'client')
    conn = F('message', 'startswith', 'New client connected from ')
    s.fact("'New client connected' events", 'count', flt=conn)
    s.fact("distinct client_id over 'New client connected' events", 'distinct', 'client_id', conn)
    s.fact("events whose message contains 'has exceeded timeout'", 'count', flt=F('message', 'contains', 'has exceeded timeout'))
    s.fact("events whose message contains 'not authorised'", 'count', flt=F('message', 'contains', 'not authorised'))
    s.fact("distinct client_ip over 'New connection from' events", 'distinct', 'client_ip', F('message', 'startswith', 'New connection from '))
    s.fact('first timestamp (unix seconds)', 'min', 'timestamp')
    return s


# ======================================================================= 9 NATS server
def gen_nats():
    rnd = random.Random(309)
    s = Sample('nats_server', 'NATS server 2.10 log (debug on): "[pid] YYYY/MM/DD hh:mm:ss.uuuuuu [LVL] msg", client prefix "ip:port - cid:N - \\"vX:lang:name\\""', 'nats-server.log')
    tl = TL()
    pid = 1

    def add(t, lvl, msg, **rec):
        ts = t.strftime('%Y/%m/%d %H:%M:%S') + '.%06d' % t.microsecond
        tl.add(t, '[%d] %s [%s] %s' % (pid, ts, lvl, msg), pid=pid, timestamp=ts, level=lvl, message=msg, **rec)

    t0 = at(0.2)
    banner = ['Starting nats-server', '  Version:  2.10.20', '  Git:      [7140387]', '  Cluster:  nats-cluster', '  Name:     nats-0', '  Node:     S1Nunr6R',
              '  ID:       NDQ5Y3IJHKJ4QFLO5G2PBN5BFZGCOOXR3ZWJRR2NDXBOZ74UCUB4TFRE', 'Using configuration file: /etc/nats-config/nats.conf',
              'Starting http monitor on 0.0.0.0:8222', 'Starting JetStream',
              '    _ ___ _____ ___ _____ ___ ___   _   __  __', ' _ | | __|_   _/ __|_   _| _ \\ __| /_\\ |  \\/  |', '| || | _|  | | \\__ \\ | | |   / _| / _ \\| |\\/| |',
              ' \\__/|___| |_| |___/ |_| |_|_\\___/_/ \\_\\_|  |_|', '', '         https://docs.nats.io/jetstream', '',
              '---------------- JETSTREAM ----------------', '  Max Memory:      1.00 GB', '  Max Storage:     10.00 GB', '  Store Directory: "/data/jetstream"',
              '  Domain:          hub', '-------------------------------------------', 'Starting JetStream cluster', 'Creating JetStream metadata controller',
              'JetStream cluster recovering state', 'Listening for client connections on 0.0.0.0:4222', 'Server is ready', 'Cluster name is nats-cluster',
              'Listening for route connections on 0.0.0.0:6222']
    for i, m in enumerate(banner):
        add(t0 + timedelta(microseconds=i * 23), 'INF', m)
    for i, r in enumerate(['10.0.7.12', '10.0.7.13']):
        add(t0 + timedelta(milliseconds=40 + i), 'INF', '%s:6222 - rid:%d - Route connection created' % (r, 5 + i))
    add(t0 + timedelta(milliseconds=300), 'INF', "JetStream cluster new metadata leader: nats-1/nats-cluster")
    apps = [('v1.37.0', 'go', 'orders-svc'), ('v1.37.0', 'go', 'billing-worker'), ('v2.28.2', 'node', 'web-bff'), ('v2.9.0', 'python3', 'etl'), ('v1.37.0', 'go', '')]
    hosts = private_ips(rnd, 30, '10.0.4.')
    cid = 12
    conns = {}
    for t in times(rnd, 250, 2, 3596):
        cid += 1
        ip = rnd.choice(hosts)
        port = rnd.randint(32768, 60999)
        ver, lang, name = rnd.choice(apps)
        base = '%s:%d - cid:%d' % (ip, port, cid)
        named = base + ' - "%s:%s:%s"' % (ver, lang, name)
        add(t, 'DBG', base + ' - Client connection created', client_ip=ip, cid=cid)
        if rnd.random() < 0.05:
            add(t + timedelta(milliseconds=3), 'ERR', base + ' - authentication error - User "%s"' % rnd.choice(['guest', 'etl', 'admin']), client_ip=ip, cid=cid)
            add(t + timedelta(milliseconds=4), 'DBG', base + ' - Client connection closed: Authentication Failure', client_ip=ip, cid=cid)
            continue
        conns[cid] = (ip, named, t)
        life = lognorm(rnd, 600, 1.2)
        for p in range(int(min(life, 3600) // 120)):
            tp = t + timedelta(seconds=120 * (p + 1))
            if tp > at(3599):
                break
            add(tp, 'DBG', named + ' - Client Ping Timer', client_ip=ip, cid=cid, client_name=name or None)
        te = t + timedelta(seconds=life)
        if te < at(3599):
            if rnd.random() < 0.12:
                add(te - timedelta(milliseconds=1), 'DBG', named + ' - Stale Client Connection - Closing', client_ip=ip, cid=cid, client_name=name or None)
                add(te, 'DBG', named + ' - Client connection closed: Stale Connection', client_ip=ip, cid=cid, client_name=name or None)
            else:
                add(te, 'DBG', named + ' - Client connection closed: Client Closed', client_ip=ip, cid=cid, client_name=name or None)
    busy = [c for c in sorted(conns) if 'web-bff' in conns[c][1]]
    for t in times(rnd, 14, 1500, 1900):
        c = rnd.choice(busy)
        ip, named, _ = conns[c]
        if rnd.random() < 0.5:
            add(t, 'INF', named + ' - Slow Consumer Detected: WriteDeadline of 10s exceeded with %d chunks of %d total bytes.' % (rnd.randint(2, 80), rnd.randint(100000, 9000000)), client_ip=ip, cid=c, client_name='web-bff')
        else:
            add(t, 'WRN', named + ' - Readloop processing time: %s' % go_dur(rnd.randint(2 * 10 ** 9, 6 * 10 ** 9)), client_ip=ip, cid=c, client_name='web-bff')
    for t in times(rnd, 6, 100, 3500):
        c = rnd.choice(sorted(conns))
        ip, named, _ = conns[c]
        add(t, 'ERR', named + ' - Maximum Payload Violation', client_ip=ip, cid=c)
    for i, a in enumerate((2601.0, 2603.0, 2607.0, 2615.0)):
        add(at(a), 'ERR', '10.0.7.13:6222 - rid:%d - Error trying to connect to route (attempt %d): dial tcp 10.0.7.13:6222: connect: connection refused' % (9, i + 1))
    add(at(2598.4), 'INF', '10.0.7.13:6222 - rid:6 - Router connection closed: Read Error')
    add(at(2598.5), 'WRN', "JetStream cluster stream '$G > ORDERS' has NO quorum, stalled")
    add(at(2612.1), 'WRN', 'Healthcheck failed: "JetStream stream \'$G > ORDERS\' is not current"')
    add(at(2620.3), 'INF', '10.0.7.13:6222 - rid:10 - Route connection created')
    add(at(2621.0), 'INF', "JetStream cluster new stream leader for '$G > ORDERS'")
    add(at(2622.8), 'INF', "JetStream cluster new consumer leader for '$G > ORDERS > billing'")
    tl.flush(s)
    s.field('pid', 'number', None, 'pid')
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('client_ip', 'ip', None, 'client')
    s.field('cid', 'number')
    s.field('client_name', 'text')
    s.fact('events at level [ERR]', 'count', flt=F('level', '==', 'ERR'))
    s.fact('events at level [WRN]', 'count', flt=F('level', '==', 'WRN'))
    s.fact("events whose message contains 'Slow Consumer Detected'", 'count', flt=F('message', 'contains', 'Slow Consumer Detected'))
    s.fact("'Client connection created' events", 'count', flt=F('message', 'contains', ' - Client connection created'))
    s.fact('distinct cid', 'distinct', 'cid')
    s.fact("events whose message contains 'authentication error'", 'count', flt=F('message', 'contains', 'authentication error'))
    return s


# ======================================================================= 10 klog (kube-controller-manager)
KLOG_PANIC = '''goroutine 2417 [running]:
k8s.io/apimachinery/pkg/util/runtime.logPanic({0x3e1c4a0, 0xc0061f2a80}, {0x33a9f00, 0x6b1e0d0})
	k8s.io/apimachinery/pkg/util/runtime/runtime.go:75 +0x85
k8s.io/apimachinery/pkg/util/runtime.handleCrash({0x3e1c4a0, 0xc0061f2a80}, {0x33a9f00, 0x6b1e0d0}, {0x6b9c2a0, 0x0, 0x1000000010000?})
	k8s.io/apimachinery/pkg/util/runtime/runtime.go:108 +0x98
panic({0x33a9f00?, 0x6b1e0d0?})
	runtime/panic.go:770 +0x132
k8s.io/kubernetes/pkg/controller/endpointslicemirroring.(*reconciler).reconcile(0xc000f1e2d0, 0xc004b3c000, {0xc0071ca000, 0x2, 0x2})
	k8s.io/kubernetes/pkg/controller/endpointslicemirroring/reconciler.go:91 +0x5a1
k8s.io/kubernetes/pkg/controller/endpointslicemirroring.(*Controller).syncEndpoints(0xc000a8c1e0, {0x3e1c4a0, 0xc0061f2a80}, {0xc006d2e180, 0x15})
	k8s.io/kubernetes/pkg/controller/endpointslicemirroring/endpointslicemirroring_controller.go:330 +0x7e5
created by k8s.io/kubernetes/pkg/controller/endpointslicemirroring.(*Controller).Run in goroutine 1301
	k8s.io/kubernetes/pkg/controller/endpointslicemirroring/endpointslicemirroring_controller.go:237 +0x1a5'''


K8S_SAFE = 'bcdfghjklmnpqrstvwxz2456789'


def klog_q(v):
    return '"' + v.replace('\\', '\\\\').replace('"', '\\"') + '"'


def gen_klog():
    rnd = random.Random(310)
    s = Sample('klog_kcm', 'Kubernetes 1.30 kube-controller-manager log, klog text header "Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg" with structured key="value" pairs', 'kube-controller-manager.log')
    tl = TL()

    def add(t, sev, src, msg, kv=(), cont=None, **rec):
        ts = t.strftime('%m%d %H:%M:%S') + '.%06d' % t.microsecond
        body = msg
        if kv:
            body = klog_q(msg) + ''.join(' %s=%s' % (k, v if isinstance(v, str) and (v.startswith('[') or v.startswith('&')) else klog_q(str(v)) if isinstance(v, str) else str(v)) for k, v in kv)
        text = '%s%s %7d %s] %s' % (sev, ts, 1, src, body)
        if cont:
            text += '\n' + cont
        r = {'severity': sev, 'timestamp': ts, 'thread': 1, 'source': src, 'message': msg}
        for k, v in kv:
            r['event_message' if k == 'message' else k] = v
        r.update(rec)
        tl.add(t, text, **r)

    def startup(t0, lease_wait=0.0):
        seq = [('I', 'serving.go:386', 'Generated self-signed cert in-memory', []),
               ('I', 'controllermanager.go:189', 'Starting', [('version', 'v1.30.4')]),
               ('I', 'controllermanager.go:191', 'Golang settings', [('GOGC', ''), ('GOMAXPROCS', ''), ('GOTRACEBACK', '')]),
               ('I', 'dynamic_cafile_content.go:157', 'Starting controller', [('name', 'client-ca-bundle::/etc/kubernetes/pki/ca.crt')]),
               ('I', 'secure_serving.go:213', 'Serving securely on 127.0.0.1:10257', []),
               ('I', 'leaderelection.go:250', 'attempting to acquire leader lease kube-system/kube-controller-manager...', [])]
        for i, (sv, src, m, kv) in enumerate(seq):
            add(t0 + timedelta(milliseconds=i * 13), sv, src, m, kv)
        t1 = t0 + timedelta(seconds=lease_wait + 0.2)
        add(t1, 'I', 'leaderelection.go:260', 'successfully acquired lease kube-system/kube-controller-manager')
        add(t1 + timedelta(milliseconds=1), 'I', 'event.go:389', 'Event occurred', [('object', 'kube-system/kube-controller-manager'), ('fieldPath', ''), ('kind', 'Lease'), ('apiVersion', 'coordination.k8s.io/v1'),
                                                                                 ('type', 'Normal'), ('reason', 'LeaderElection'), ('message', 'cp-1_%s became leader' % uid(rnd))])
        ctrls = ['serviceaccount-token-controller', 'endpoints-controller', 'endpointslice-controller', 'endpointslice-mirroring-controller', 'replicaset-controller',
                 'deployment-controller', 'statefulset-controller', 'daemonset-controller', 'job-controller', 'cronjob-controller', 'horizontal-pod-autoscaler-controller',
                 'node-lifecycle-controller', 'node-ipam-controller', 'garbage-collector-controller', 'resourcequota-controller', 'namespace-controller',
                 'persistentvolume-binder-controller', 'persistentvolume-attach-detach-controller', 'ttl-after-finished-controller', 'disruption-controller']
        for i, c in enumerate(ctrls):
            add(t1 + timedelta(milliseconds=40 + i * 11), 'I', 'controllermanager.go:761', 'Started controller', [('controller', c)])
        add(t1 + timedelta(milliseconds=300), 'W', 'controllermanager.go:739', 'Skipping a cloud provider controller', [('controller', 'service-lb-controller')])
        add(t1 + timedelta(milliseconds=310), 'I', 'controllermanager.go:739', 'Warning: controller is disabled', [('controller', 'bootstrap-signer-controller')])
        for i, c in enumerate(['deployment', 'ReplicaSet', 'job', 'cronjob', 'daemon sets', 'stateful set', 'endpoint', 'endpoint_slice', 'garbage collector', 'resource quota', 'taint', 'HPA']):
            add(t1 + timedelta(milliseconds=500 + i * 3), 'I', 'shared_informer.go:313', 'Waiting for caches to sync for %s' % c)
            add(t1 + timedelta(milliseconds=900 + i * 7), 'I', 'shared_informer.go:320', 'Caches are synced for %s' % c)
        add(t1 + timedelta(milliseconds=990), 'I', 'garbagecollector.go:157', 'All resource monitors have synced. Proceeding to collect garbage')

    startup(at(0.05))
    lost = 2742.0
    startup(at(lost + 7.5), lease_wait=14.7)
    deploys = ['shop/web', 'shop/orders', 'shop/payments', 'shop/inventory', 'shop/search', 'monitoring/grafana', 'ingress-nginx/ingress-nginx-controller']
    rs = {d: alnum(rnd, 10, K8S_SAFE) for d in deploys}
    nodes = ['worker-%d' % i for i in range(1, 7)]
    pods = Pool(rnd, deploys, 0.8)
    for t in times(rnd, 400, 3, 3596):
        sec = (t - BASE).total_seconds()
        if lost - 6 <= sec < lost + 25:
            continue
        k = wchoice(rnd, [('create', 26), ('delete', 10), ('scale', 12), ('hpa', 8), ('job', 12), ('quota', 4), ('gc', 8), ('rq', 6), ('nodenr', 3), ('evict', 1), ('conflict', 6), ('pvc', 2)])
        d = pods.pick()
        ns, name = d.split('/')
        if k in ('create', 'delete'):
            p = '%s-%s-%s' % (name, rs[d], alnum(rnd, 5, K8S_SAFE))
            add(t, 'I', 'event.go:389', 'Event occurred', [('object', '%s/%s-%s' % (ns, name, rs[d])), ('fieldPath', ''), ('kind', 'ReplicaSet'), ('apiVersion', 'apps/v1'), ('type', 'Normal'),
                                                          ('reason', 'SuccessfulCreate' if k == 'create' else 'SuccessfulDelete'), ('message', '%s pod: %s' % ('Created' if k == 'create' else 'Deleted', p))])
        elif k == 'scale':
            a = rnd.randint(2, 9)
            b = a + rnd.choice([-1, 1, 2])
            add(t, 'I', 'event.go:389', 'Event occurred', [('object', d), ('fieldPath', ''), ('kind', 'Deployment'), ('apiVersion', 'apps/v1'), ('type', 'Normal'), ('reason', 'ScalingReplicaSet'),
                                                          ('message', 'Scaled %s replica set %s-%s to %d from %d' % ('up' if b > a else 'down', name, rs[d], b, a))])
        elif k == 'hpa':
            a = rnd.randint(2, 9)
            b = a + rnd.choice([-1, 1, 2])
            add(t, 'I', 'event.go:389', 'Event occurred', [('object', d), ('fieldPath', ''), ('kind', 'HorizontalPodAutoscaler'), ('apiVersion', 'autoscaling/v2'), ('type', 'Normal'), ('reason', 'SuccessfulRescale'),
                                                          ('message', 'New size: %d; reason: cpu resource utilization (percentage of request) %s target' % (b, 'above' if b > a else 'below'))])
        elif k == 'job':
            j = 'report-%d' % (28290000 + int(sec // 300) * 5)
            add(t, 'I', 'event.go:389', 'Event occurred', [('object', 'batch/nightly-report'), ('fieldPath', ''), ('kind', 'CronJob'), ('apiVersion', 'batch/v1'), ('type', 'Normal'),
                                                          ('reason', rnd.choice(['SuccessfulCreate', 'SawCompletedJob'])), ('message', 'Created job %s' % j)])
            add(t + timedelta(milliseconds=20), 'I', 'event.go:389', 'Event occurred', [('object', 'batch/%s' % j), ('fieldPath', ''), ('kind', 'Job'), ('apiVersion', 'batch/v1'), ('type', 'Normal'),
                                                                                       ('reason', 'Completed'), ('message', 'Job completed')])
        elif k == 'quota':
            add(t, 'I', 'event.go:389', 'Event occurred', [('object', 'shop/search-%s' % rs['shop/search']), ('fieldPath', ''), ('kind', 'ReplicaSet'), ('apiVersion', 'apps/v1'), ('type', 'Warning'),
                                                          ('reason', 'FailedCreate'), ('message', 'Error creating: pods "search-%s-%s" is forbidden: exceeded quota: compute-quota, requested: limits.memory=2Gi, used: limits.memory=15Gi, limited: limits.memory=16Gi' % (rs['shop/search'], alnum(rnd, 5, K8S_SAFE)))])
        elif k == 'gc':
            add(t, 'W', 'garbagecollector.go:827', 'failed to discover some groups', [('groups', '<internal error: json: unsupported type: map[schema.GroupVersion]error>')])
        elif k == 'rq':
            add(t, 'E', 'resource_quota_controller.go:440', 'unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1')
        elif k == 'nodenr':
            n = rnd.choice(nodes[3:])
            add(t, 'I', 'event.go:389', 'Event occurred', [('object', n), ('fieldPath', ''), ('kind', 'Node'), ('apiVersion', 'v1'), ('type', 'Normal'), ('reason', 'NodeNotReady'),
                                                          ('message', 'Node %s status is now: NodeNotReady' % n)])
            add(t + timedelta(milliseconds=4), 'I', 'node_lifecycle_controller.go:1055', 'Controller detected that zone is now in new state', [('zone', 'eu-central-1b'), ('newState', 'PartialDisruption')])
        elif k == 'evict':
            p = '%s-%s-%s' % (name, rs[d], alnum(rnd, 5, K8S_SAFE))
            add(t, 'I', 'taint_eviction.go:113', 'Deleting pod', [('controller', 'taint-eviction-controller'), ('pod', '%s/%s' % (ns, p))])
        elif k == 'conflict':
            add(t, 'I', 'deployment_controller.go:503', 'Error syncing deployment', [('deployment', d), ('err', 'Operation cannot be fulfilled on replicasets.apps "%s-%s": the object has been modified; please apply your changes to the latest version and try again' % (name, rs[d]))])
        else:
            add(t, 'I', 'event.go:389', 'Event occurred', [('object', 'monitoring/data-prometheus-0'), ('fieldPath', ''), ('kind', 'PersistentVolumeClaim'), ('apiVersion', 'v1'), ('type', 'Normal'),
                                                          ('reason', 'WaitForFirstConsumer'), ('message', 'waiting for first consumer to be created before binding')])
    add(at(1944.61), 'E', 'runtime.go:79', 'Observed a panic: "invalid memory address or nil pointer dereference" (runtime error: invalid memory address or nil pointer dereference)', cont=KLOG_PANIC)
    add(at(lost - 5.0), 'E', 'leaderelection.go:347', 'error retrieving resource lock kube-system/kube-controller-manager: Get "https://10.0.0.10:6443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager?timeout=5s": context deadline exceeded')
    add(at(lost - 0.01), 'I', 'leaderelection.go:285', 'failed to renew lease kube-system/kube-controller-manager: timed out waiting for the condition')
    add(at(lost), 'E', 'controllermanager.go:340', 'leaderelection lost')
    tl.flush(s)
    s.field('severity', 'text', None, 'level')
    s.field('timestamp', 'time', None, 'time')
    s.field('thread', 'number', None, 'thread')
    s.field('source', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    s.field('object', 'text')
    s.field('kind', 'text')
    s.field('type', 'text')
    s.field('reason', 'text')
    s.field('controller', 'text')
    s.fact("events with severity 'E'", 'count', flt=F('severity', '==', 'E'))
    s.fact("events with severity 'W'", 'count', flt=F('severity', '==', 'W'))
    s.fact("'Event occurred' lines with reason=\"SuccessfulCreate\"", 'count', flt=F('reason', '==', 'SuccessfulCreate'))
    s.fact("'Event occurred' lines with type=\"Warning\"", 'count', flt=F('type', '==', 'Warning'))
    s.fact("events whose message contains 'stale GroupVersion discovery'", 'count', flt=F('message', 'contains', 'stale GroupVersion discovery'))
    s.fact("'Started controller' lines (two startups)", 'count', flt=F('message', '==', 'Started controller'))
    return s


# ======================================================================= 11 Kubernetes events, one JSON object per line
def gen_k8s_events():
    rnd = random.Random(311)
    s = Sample('k8s_events', "Kubernetes 1.30 core/v1 Events: `kubectl get events -A -o json | jq -c '.items[]'` (kubectl sorts keys; API order: namespace, name)", 'k8s-events.ndjson')
    items = []
    nodes = ['worker-%d' % i for i in range(1, 7)]

    def ts(t):
        return t.strftime('%Y-%m-%dT%H:%M:%SZ')

    def mts(t):
        return t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06dZ' % t.microsecond

    rv = [48210000]

    def ev(ns, kind, name, reason, msg, typ, comp, host=None, first=None, last=None, count=1, field_path=None, api='v1', scheduler_t=None, series=None):
        rv[0] += rnd.randint(1, 300)
        io = {'apiVersion': api, 'kind': kind, 'name': name, 'namespace': ns, 'resourceVersion': str(rv[0] - rnd.randint(100, 9000)), 'uid': uid(rnd)}
        if field_path:
            io['fieldPath'] = field_path
        if kind == 'Node':
            io.pop('namespace')
            io.pop('resourceVersion')
            io['uid'] = name
        o = {'apiVersion': 'v1', 'involvedObject': io, 'kind': 'Event', 'message': msg, 'reason': reason, 'type': typ}
        ct = scheduler_t or first
        o['metadata'] = {'creationTimestamp': ts(ct), 'name': '%s.%s' % (name, hexs(rnd, 16)), 'namespace': ns if kind != 'Node' else 'default',
                         'resourceVersion': str(rv[0]), 'uid': uid(rnd)}
        if scheduler_t is not None:
            o.update({'action': 'Scheduling', 'eventTime': mts(scheduler_t), 'firstTimestamp': None, 'lastTimestamp': None, 'reportingComponent': 'default-scheduler',
                      'reportingInstance': 'default-scheduler-cp-1', 'source': {}})
            if series:
                o['series'] = {'count': series[0], 'lastObservedTime': mts(series[1])}
        else:
            o.update({'count': count, 'eventTime': None, 'firstTimestamp': ts(first), 'lastTimestamp': ts(last or first), 'reportingComponent': comp if comp == 'kubelet' else comp,
                      'reportingInstance': host or '', 'source': {'component': comp, 'host': host} if host else {'component': comp}})
        items.append(o)

    apps = [('shop', 'web', 'registry.example.com/shop/web:1.9.4'), ('shop', 'orders', 'registry.example.com/shop/orders-api:3.2.0'),
            ('shop', 'payments', 'registry.example.com/shop/payments:2.0.7'), ('shop', 'search', 'docker.io/opensearchproject/opensearch:2.15.0'),
            ('monitoring', 'prometheus', 'quay.io/prometheus/prometheus:v2.53.1'), ('shop', 'recommender', 'registry.example.com/shop/recommender:0.4.1'),
            ('ingress-nginx', 'ingress-nginx-controller', 'registry.k8s.io/ingress-nginx/controller:v1.11.2')]
    for t in times(rnd, 62, 0, 3500):
        ns, app, img = rnd.choice(apps)
        rsh = alnum(rnd, 10, K8S_SAFE)
        pod = '%s-%s-%s' % (app, rsh, alnum(rnd, 5, K8S_SAFE))
        node = rnd.choice(nodes)
        ev(ns, 'ReplicaSet', '%s-%s' % (app, rsh), 'SuccessfulCreate', 'Created pod: %s' % pod, 'Normal', 'replicaset-controller', first=t, api='apps/v1')
        if rnd.random() < 0.12:
            n = rnd.randint(2, 9)
            ev(ns, 'Pod', pod, 'FailedScheduling', '0/6 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient memory, 3 Insufficient cpu. preemption: 0/6 nodes are available: 1 Preemption is not helpful for scheduling, 5 No preemption victims found for incoming pod.',
               'Warning', 'default-scheduler', scheduler_t=t + timedelta(milliseconds=30), series=(n, t + timedelta(seconds=n * 30)) if n > 2 else None)
            t = t + timedelta(seconds=n * 30 + 5)
        ev(ns, 'Pod', pod, 'Scheduled', 'Successfully assigned %s/%s to %s' % (ns, pod, node), 'Normal', 'default-scheduler', scheduler_t=t + timedelta(milliseconds=40))
        t2 = t + timedelta(seconds=1)
        cname = app if app != 'ingress-nginx-controller' else 'controller'
        fp = 'spec.containers{%s}' % cname
        if rnd.random() < 0.5:
            ev(ns, 'Pod', pod, 'Pulled', 'Container image "%s" already present on machine' % img, 'Normal', 'kubelet', node, t2, field_path=fp)
        elif rnd.random() < 0.85:
            ev(ns, 'Pod', pod, 'Pulling', 'Pulling image "%s"' % img, 'Normal', 'kubelet', node, t2, field_path=fp)
            pull = lognorm(rnd, 4, 0.8)
            t2 = t2 + timedelta(seconds=pull)
            ev(ns, 'Pod', pod, 'Pulled', 'Successfully pulled image "%s" in %s (%s including waiting). Image size: %d bytes.' % (img, go_dur(int(pull * 1e9)), go_dur(int(pull * 1.1e9)), rnd.randint(40, 900) * 1048576),
               'Normal', 'kubelet', node, t2, field_path=fp)
        else:
            n = rnd.randint(2, 8)
            ev(ns, 'Pod', pod, 'Pulling', 'Pulling image "%s"' % img.replace(img.rsplit(':', 1)[1], '9.9.9'), 'Normal', 'kubelet', node, t2, t2 + timedelta(seconds=n * 40), n, field_path=fp)
            ev(ns, 'Pod', pod, 'Failed', 'Failed to pull image "%s": rpc error: code = NotFound desc = failed to pull and unpack image "%s": failed to resolve reference "%s": %s: not found' % ((img.replace(img.rsplit(':', 1)[1], '9.9.9'),) * 4),
               'Warning', 'kubelet', node, t2, t2 + timedelta(seconds=n * 40), n, field_path=fp)
            ev(ns, 'Pod', pod, 'Failed', 'Error: ErrImagePull', 'Warning', 'kubelet', node, t2, t2 + timedelta(seconds=n * 40), n, field_path=fp)
            ev(ns, 'Pod', pod, 'BackOff', 'Back-off pulling image "%s"' % img.replace(img.rsplit(':', 1)[1], '9.9.9'), 'Normal', 'kubelet', node, t2, t2 + timedelta(seconds=n * 45), n * 3, field_path=fp)
            ev(ns, 'Pod', pod, 'Failed', 'Error: ImagePullBackOff', 'Warning', 'kubelet', node, t2, t2 + timedelta(seconds=n * 45), n * 3, field_path=fp)
            continue
        ev(ns, 'Pod', pod, 'Created', 'Created container %s' % cname, 'Normal', 'kubelet', node, t2, field_path=fp)
        ev(ns, 'Pod', pod, 'Started', 'Started container %s' % cname, 'Normal', 'kubelet', node, t2, field_path=fp)
        r = rnd.random()
        if r < 0.15:
            n = rnd.randint(2, 40)
            ev(ns, 'Pod', pod, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', 'Warning', 'kubelet', node, t2 + timedelta(seconds=5), t2 + timedelta(seconds=5 + n * 10), n, field_path=fp)
        elif r < 0.25:
            n = rnd.randint(3, 14)
            ev(ns, 'Pod', pod, 'Unhealthy', 'Liveness probe failed: Get "http://10.244.%d.%d:8080/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' % (rnd.randint(1, 6), rnd.randint(2, 250)),
               'Warning', 'kubelet', node, t2 + timedelta(seconds=30), t2 + timedelta(seconds=30 + n * 10), n, field_path=fp)
            ev(ns, 'Pod', pod, 'Killing', 'Container %s failed liveness probe, will be restarted' % cname, 'Normal', 'kubelet', node, t2 + timedelta(seconds=60), t2 + timedelta(seconds=60 + n * 10), max(1, n // 3), field_path=fp)
            ev(ns, 'Pod', pod, 'BackOff', 'Back-off restarting failed container %s in pod %s_%s(%s)' % (cname, pod, ns, uid(rnd)), 'Warning', 'kubelet', node, t2 + timedelta(seconds=90), t2 + timedelta(seconds=90 + n * 20), n * 2, field_path=fp)
        elif r < 0.30:
            ev(ns, 'Pod', pod, 'Killing', 'Stopping container %s' % cname, 'Normal', 'kubelet', node, t2 + timedelta(seconds=rnd.randint(60, 600)), field_path=fp)
    for t in times(rnd, 12, 0, 3500):
        ns, app, _ = rnd.choice(apps[:4])
        ev(ns, 'Deployment', app, 'ScalingReplicaSet', 'Scaled up replica set %s-%s to %d from %d' % (app, alnum(rnd, 10, K8S_SAFE), 4, 3), 'Normal', 'deployment-controller', first=t, api='apps/v1')
    for t in times(rnd, 8, 0, 3500):
        ns, app, _ = rnd.choice(apps[:3])
        ev(ns, 'HorizontalPodAutoscaler', app, 'SuccessfulRescale', 'New size: %d; reason: cpu resource utilization (percentage of request) above target' % rnd.randint(3, 12), 'Normal', 'horizontal-pod-autoscaler', first=t, api='autoscaling/v2')
    n = 'worker-5'
    ev('default', 'Node', n, 'NodeNotReady', 'Node %s status is now: NodeNotReady' % n, 'Normal', 'node-controller', first=at(2130.0))
    ev('default', 'Node', n, 'NodeHasDiskPressure', 'Node %s status is now: NodeHasDiskPressure' % n, 'Normal', 'kubelet', n, at(2101.0))
    ev('default', 'Node', n, 'EvictionThresholdMet', 'Attempting to reclaim ephemeral-storage', 'Warning', 'kubelet', n, at(2101.0), at(2190.0), 7)
    ev('default', 'Node', n, 'FreeDiskSpaceFailed', 'Failed to garbage collect required amount of images. Attempted to free 4823449190 bytes, but only found 0 bytes eligible to free.', 'Warning', 'kubelet', n, at(2102.0), at(2402.0), 6)
    ev('monitoring', 'Pod', 'prometheus-0', 'FailedMount', 'MountVolume.SetUp failed for volume "config" : failed to sync secret cache: timed out waiting for the condition', 'Warning', 'kubelet', 'worker-2', at(880.0), at(884.0), 2)
    ev('monitoring', 'Pod', 'prometheus-0', 'OOMKilling', 'Memory cgroup out of memory: Killed process 412233 (prometheus) total-vm:9831220kB, anon-rss:4193004kB, file-rss:0kB, shmem-rss:0kB, UID:65534 pgtables:8840kB oom_score_adj:984', 'Warning', 'kubelet', 'worker-2', at(3012.0))
    items.sort(key=lambda o: (o['metadata']['namespace'], o['metadata']['name']))
    for o in items:
        s.ev(jdump(o, sort_keys=True), **flatten(o))
    s.field('lastTimestamp', 'time', None, 'time')
    s.field('eventTime', 'time', None, 'time')
    s.field('type', 'text', None, 'level')
    s.field('reason', 'text')
    s.field('message', 'text', None, 'message')
    s.field('involvedObject.kind', 'text')
    s.field('involvedObject.name', 'text')
    s.field('involvedObject.namespace', 'text')
    s.field('source.component', 'text', None, 'logger')
    s.field('source.host', 'text', None, 'host')
    s.field('reportingComponent', 'text')
    s.field('count', 'number')
    s.fact("events with type 'Warning'", 'count', flt=F('type', '==', 'Warning'))
    s.fact("events with reason 'BackOff'", 'count', flt=F('reason', '==', 'BackOff'))
    s.fact("sum of count over reason 'Unhealthy'", 'sum', 'count', F('reason', '==', 'Unhealthy'))
    s.fact('max count', 'max', 'count')
    s.fact("distinct involvedObject.name over reason 'FailedScheduling'", 'distinct', 'involvedObject.name', F('reason', '==', 'FailedScheduling'))
    s.fact("events with reportingComponent 'default-scheduler' (eventTime set, lastTimestamp null)", 'count', flt=F('reportingComponent', '==', 'default-scheduler'))
    return s


# ======================================================================= 12 Fluent Bit (its own log)
FB_BANNER = r'''Fluent Bit v2.2.3
* Copyright (C) 2015-2024 The Fluent Bit Authors
* Fluent Bit is a CNCF sub-project under the umbrella of Fluentd
* https://fluentbit.io

___________.__                        __    __________.__  __          ________  
\_   _____/|  |  __ __   ____   _____/  |_  \______   \__|/  |_  ___  _\_____  \ 
 |    __)  |  | |  |  \_/ __ \ /    \   __\  |    |  _/  \   __\ \  \/ / /  ____/ 
 |     \   |  |_|  |  /\  ___/|   |  \  |    |    |   \  ||  |    \   / /       \ 
 \___  /   |____/____/  \___  >___|  /__|    |______  /__||__|     \_/  \_______ \
     \/                     \/     \/               \/                          \/
'''


def gen_fluentbit():
    rnd = random.Random(312)
    s = Sample('fluent_bit', 'Fluent Bit 2.2 own log on stderr ("[YYYY/MM/DD hh:mm:ss] [ info] [component] msg"), banner, multi-line Elasticsearch responses', 'fluent-bit.log')
    for ln in FB_BANNER.split('\n'):
        s.raw(ln)
    tl = TL()

    def add(t, lvl, comp, msg, **rec):
        ts = t.strftime('%Y/%m/%d %H:%M:%S')
        tl.add(t, '[%s] [%5s] [%s] %s' % (ts, lvl, comp, msg), time=ts, level=lvl, component=comp, message=msg.split('\n')[0], **rec)

    t0 = at(0.4)
    boot = [('info', 'fluent bit', 'version=2.2.3, commit=7a9e7b1b3e, pid=1'), ('info', 'storage', 'ver=1.5.1, type=memory+filesystem, sync=normal, checksum=off, max_chunks_up=128'),
            ('info', 'storage', 'backlog input plugin: storage_backlog.1'), ('info', 'cmetrics', 'version=0.6.6'), ('info', 'ctraces ', 'version=0.4.0'),
            ('info', 'input:tail:tail.0', 'initializing'), ('info', 'input:tail:tail.0', "storage_strategy='filesystem' (memory + filesystem)"),
            ('info', 'input:tail:tail.0', 'multiline core started'), ('info', 'input:storage_backlog:storage_backlog.1', 'initializing'),
            ('info', 'input:storage_backlog:storage_backlog.1', "storage_strategy='memory' (memory only)"),
            ('info', 'input:storage_backlog:storage_backlog.1', 'queue memory limit: 4.8M'),
            ('info', 'filter:kubernetes:kubernetes.0', 'https=1 host=kubernetes.default.svc port=443'),
            ('info', 'filter:kubernetes:kubernetes.0', ' token updated'), ('info', 'filter:kubernetes:kubernetes.0', 'local POD info OK'),
            ('info', 'filter:kubernetes:kubernetes.0', 'testing connectivity with API server...'), ('info', 'filter:kubernetes:kubernetes.0', 'connectivity OK'),
            ('info', 'output:es:es.0', 'worker #0 started'), ('info', 'output:es:es.0', 'worker #1 started'),
            ('info', 'http_server', 'listen iface=0.0.0.0 tcp_port=2020'), ('info', 'sp', 'stream processor started')]
    for i, (lvl, comp, msg) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 20), lvl, comp, msg)
    files = ['/var/log/containers/%s-%s_%s_%s-%s.log' % (p, alnum(rnd, 5, string.ascii_lowercase + string.digits), ns, c, hexs(rnd, 64))
             for p, ns, c in [('web-6d8f9c7b5d', 'shop', 'web'), ('orders-7c9d8f6b5', 'shop', 'orders'), ('payments-5b7c6d9f8', 'shop', 'payments'),
                              ('ingress-nginx-controller-6b9d7c8f5', 'ingress-nginx', 'controller'), ('coredns-7db6d8ff4d', 'kube-system', 'coredns'),
                              ('prometheus-0', 'monitoring', 'prometheus'), ('fluent-bit-x7k2p', 'logging', 'fluent-bit')]]
    inodes = {}
    for i, f in enumerate(files):
        inodes[f] = rnd.randint(1000000, 9999999)
        add(t0 + timedelta(milliseconds=500 + i), 'info', 'input:tail:tail.0', 'inotify_fs_add(): inode=%d watch_fd=%d name=%s' % (inodes[f], i + 1, f))
    wfd = len(files)
    task = 0
    es_bad = (1400.0, 1700.0)
    dns_bad = (2900.0, 2960.0)
    for t in times(rnd, 210, 5, 3590):
        sec = (t - BASE).total_seconds()
        k = wchoice(rnd, [('retry', 60 if es_bad[0] <= sec < es_bad[1] or dns_bad[0] <= sec < dns_bad[1] else 6), ('rotate', 10), ('docerr', 5), ('meta', 3), ('pause', 2)])
        if k == 'retry':
            task = (task + 1) % 12
            chunk = '1-%d.%09d.flb' % (epoch_s(t) - rnd.randint(0, 5), rnd.randint(0, 999999999))
            if dns_bad[0] <= sec < dns_bad[1]:
                add(t - timedelta(seconds=10), 'warn', 'net', "getaddrinfo(host='elasticsearch-master.logging.svc', err=12): Timeout while contacting DNS servers")
                add(t - timedelta(seconds=10), 'error', 'output:es:es.0', 'no upstream connections available')
            elif rnd.random() < 0.7:
                add(t, 'error', 'output:es:es.0', 'HTTP status=429 URI=/_bulk, response:\n{"error":{"root_cause":[{"type":"es_rejected_execution_exception","reason":"rejected execution of coordinating operation [coordinating_and_primary_bytes=214748364, replica_bytes=0, all_bytes=214748364, coordinating_operation_bytes=5242880, max_coordinating_and_primary_bytes=214748364]"}],"type":"es_rejected_execution_exception","reason":"rejected execution of coordinating operation [coordinating_and_primary_bytes=214748364, replica_bytes=0, all_bytes=214748364, coordinating_operation_bytes=5242880, max_coordinating_and_primary_bytes=214748364]"},"status":429}\n')
            else:
                add(t - timedelta(seconds=10), 'error', 'upstream', 'connection #%d to tcp://10.0.9.20:9200 timed out after 10 seconds (connection timeout)' % rnd.randint(40, 200))
            wait = rnd.choice([6, 7, 8, 9, 10, 11, 12, 14, 17, 19, 23, 31, 46, 59])
            add(t, 'warn', 'engine', "failed to flush chunk '%s', retry in %d seconds: task_id=%d, input=tail.0 > output=es.0 (out_id=0)" % (chunk, wait, task), chunk=chunk, retry_s=wait)
            tr = t + timedelta(seconds=wait)
            trs = (tr - BASE).total_seconds()
            if es_bad[0] <= trs < es_bad[1] and rnd.random() < 0.35:
                add(tr, 'error', 'engine', "chunk '%s' cannot be retried: task_id=%d, input=tail.0 > output=es.0" % (chunk, task), chunk=chunk)
            elif trs < 3599:
                add(tr, 'info', 'engine', "flush chunk '%s' succeeded at retry 1: task_id=%d, input=tail.0 > output=es.0 (out_id=0)" % (chunk, task), chunk=chunk)
        elif k == 'rotate':
            f = rnd.choice(files)
            add(t, 'info', 'input:tail:tail.0', 'inode=%d handle rotation(): %s => %s' % (inodes[f], f, f.replace('/var/log/containers/', '/var/log/pods/').replace('.log', '') + '/0.log.%s' % t.strftime('%Y%m%d-%H%M%S')))
            add(t, 'info', 'input:tail:tail.0', 'inotify_fs_remove(): inode=%d watch_fd=%d' % (inodes[f], rnd.randint(1, wfd)))
            inodes[f] = rnd.randint(1000000, 9999999)
            wfd += 1
            add(t + timedelta(seconds=1), 'info', 'input:tail:tail.0', 'inotify_fs_add(): inode=%d watch_fd=%d name=%s' % (inodes[f], wfd, f))
        elif k == 'docerr':
            add(t, 'error', 'output:es:es.0', 'error: Output\n{"took":%d,"errors":true,"items":[{"create":{"_index":"logs-k8s-2031.09.16","_id":"%s","status":400,"error":{"type":"document_parsing_exception","reason":"[1:412] failed to parse field [kubernetes.labels.app] of type [text] in document with id \'%s\'. Preview of field\'s value: \'{kubernetes={io/name=web}}\'","caused_by":{"type":"illegal_state_exception","reason":"Can\'t get text on a START_OBJECT at 1:390"}}}}]}' % (rnd.randint(3, 90), alnum(rnd, 20), alnum(rnd, 20)))
        elif k == 'meta':
            add(t, 'warn', 'filter:kubernetes:kubernetes.0', 'could not get meta for POD %s' % rnd.choice(['web-6d8f9c7b5d-2xkq9', 'report-28290415-7fz2c']))
        else:
            add(t, 'warn', 'input', 'tail.0 paused (mem buf overlimit)')
            add(t + timedelta(seconds=rnd.randint(1, 4)), 'info', 'input', 'tail.0 resume (mem buf overlimit)')
    te = at(3597.0)
    # the signal handler writes without a level tag
    tl.add(te, '[%s] [engine] caught signal (SIGTERM)' % te.strftime('%Y/%m/%d %H:%M:%S'), time=te.strftime('%Y/%m/%d %H:%M:%S'), component='engine', message='caught signal (SIGTERM)')
    add(te, 'info', 'input', 'pausing tail.0')
    add(te, 'info', 'input', 'pausing storage_backlog.1')
    add(te, 'warn', 'engine', 'service will shutdown in max 5 seconds')
    add(te + timedelta(seconds=1), 'info', 'engine', 'service has stopped (0 pending tasks)')
    add(te + timedelta(seconds=1), 'info', 'output:es:es.0', 'thread worker #0 stopping...')
    add(te + timedelta(seconds=1), 'info', 'output:es:es.0', 'thread worker #0 stopped')
    tl.flush(s)
    s.field('time', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('component', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    ff = F('message', 'startswith', 'failed to flush chunk')
    s.fact("events at level 'error'", 'count', flt=F('level', '==', 'error'))
    s.fact("events at level 'warn'", 'count', flt=F('level', '==', 'warn'))
    s.fact("'failed to flush chunk' events", 'count', flt=ff)
    s.fact("max 'retry in N seconds' over 'failed to flush chunk' events", 'max', flt=ff, key=lambda e: e['retry_s'])
    s.fact("events whose message contains 'HTTP status=429'", 'count', flt=F('message', 'contains', 'HTTP status=429'))
    s.fact("events from component 'input:tail:tail.0'", 'count', flt=F('component', '==', 'input:tail:tail.0'))
    return s


# ======================================================================= 13 CoreDNS
def gen_coredns():
    rnd = random.Random(313)
    s = Sample('coredns', 'CoreDNS 1.11 in Kubernetes (kubectl logs coredns-...): log plugin default format, errors plugin, [INFO]/[WARNING]/[ERROR] prefixes', 'coredns.log')
    s.raw('.:53')
    tl = TL()

    def other(t, lvl, msg, cont=None):
        tl.add(t, '[%s] %s' % (lvl, msg) + ('\n' + cont if cont else ''), level=lvl, message=msg)

    # the version banner is printed right after the first reload line: no prefix, so it continues that record
    other(at(0.0), 'INFO', 'plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5f046dd37f1cf888b953814040d180f52594972691cd6ff41be96639138a43908',
          'CoreDNS-1.11.3\nlinux/amd64, go1.21.11, a6338e9')
    pods = Pool(rnd, ['10.244.%d.%d' % (rnd.randint(1, 6), rnd.randint(2, 250)) for _ in range(45)], 0.9)
    svc = ['web.shop.svc.cluster.local.', 'orders.shop.svc.cluster.local.', 'payments.shop.svc.cluster.local.', 'redis-master.shop.svc.cluster.local.',
           'postgres.shop.svc.cluster.local.', 'prometheus-operated.monitoring.svc.cluster.local.', 'kubernetes.default.svc.cluster.local.']
    ext = [('api.stripe.com.', 'shop'), ('sqs.eu-central-1.amazonaws.com.', 'shop'), ('hooks.slack.com.', 'monitoring'), ('registry-1.docker.io.', 'batch'),
           ('s3.eu-central-1.amazonaws.com.', 'batch')]
    up_bad = (2300.0, 2330.0)

    def q(t, ip, qtype, name, rcode, flags, rsize, ns, proto='udp', size=None):
        port = rnd.randint(32768, 60999)
        qid = rnd.randint(0, 65535)
        size = size or len(name) + 17 + (11 if rnd.random() < 0.3 else 0)
        buf = 1232 if size > len(name) + 20 else 512
        d = go_float_s(ns)
        text = '[INFO] %s:%d - %d "%s IN %s %s %d false %d" %s %s %d %ss' % (ip, port, qid, qtype, name, proto, size, buf, rcode, flags, rsize, d)
        tl.add(t, text, level='INFO', client=ip, port=port, id=qid, type=qtype, name=name, proto=proto, size=size, rcode=rcode, rflags=flags, rsize=rsize, duration=float(d))

    q(at(0.4), '127.0.0.1', 'HINFO', '%d.%d.' % (rnd.getrandbits(62), rnd.getrandbits(62)), 'NXDOMAIN', 'qr,rd,ra', 124, 12480331)
    for t in times(rnd, 450, 1, 3598):
        ip = pods.pick()
        sec = (t - BASE).total_seconds()
        if rnd.random() < 0.72:
            name = rnd.choice(svc)
            for qt in ('A', 'AAAA'):
                ok = qt == 'A'
                q(t + timedelta(microseconds=rnd.randint(0, 400)), ip, qt, name, 'NOERROR', 'qr,aa,rd', len(name) * 2 + (44 if ok else 120), rnd.randint(40000, 400000))
        else:
            base, ns = rnd.choice(ext)
            tt = t
            for suf in ('%s.svc.cluster.local.' % ns, 'svc.cluster.local.', 'cluster.local.', 'eu-central-1.compute.internal.'):
                for qt in ('A', 'AAAA'):
                    q(tt, ip, qt, base + suf, 'NXDOMAIN', 'qr,aa,rd' if 'cluster.local' in suf else 'qr,rd,ra', len(base + suf) + 160, rnd.randint(40000, 300000) if 'cluster.local' in suf else rnd.randint(600000, 3000000))
                    tt += timedelta(microseconds=rnd.randint(200, 900))
            for qt in ('A', 'AAAA'):
                if up_bad[0] <= sec < up_bad[1]:
                    ns_ = 2000000000 + rnd.randint(0, 900000)
                    q(tt + timedelta(seconds=2), ip, qt, base, 'SERVFAIL', 'qr,rd', len(base) + 17, ns_)
                    other(tt + timedelta(seconds=2, microseconds=10), 'ERROR', 'plugin/errors: 2 %s %s: read udp 10.244.0.7:%d->10.0.0.2:53: i/o timeout' % (base, qt, rnd.randint(32768, 60999)))
                else:
                    cached = rnd.random() < 0.6
                    q(tt, ip, qt, base, 'NOERROR', 'qr,rd,ra', rnd.randint(60, 520), rnd.randint(40000, 200000) if cached else int(lognorm(rnd, 9e6, 0.8)))
    other(at(1200.0), 'INFO', 'Reloading')
    other(at(1200.001), 'INFO', 'plugin/reload: Running configuration SHA512 = 8f2c1ad9b0c44a1bd2b3e3c9a1c2f6c3e0a9f0be34d9f4d8e1b6a1a04f5ec3d1f25c7e1f9e4c2d5a3e7b9f1d6c8a0e2f4b6d8a0c2e4f6a8b0c2d4e6f8a0b2c4d6')
    other(at(1200.002), 'INFO', 'Reloading complete')
    other(at(1500.2), 'WARNING', 'No files matching import glob pattern: /etc/coredns/custom/*.override')
    other(at(1500.2), 'WARNING', 'No files matching import glob pattern: /etc/coredns/custom/*.server')
    for t in times(rnd, 3, 3000, 3100):
        other(t, 'WARNING', 'plugin/kubernetes: Kubernetes API connection failure: Get "https://10.96.0.1:443/version": dial tcp 10.96.0.1:443: i/o timeout')
    tl.flush(s)
    s.field('level', 'text', None, 'level')
    s.field('client', 'ip', None, 'client')
    s.field('port', 'number')
    s.field('id', 'number')
    s.field('type', 'text')
    s.field('name', 'text')
    s.field('proto', 'text')
    s.field('rcode', 'text', None, 'status')
    s.field('rflags', 'text')
    s.field('rsize', 'number', 'b', 'bytes')
    s.field('duration', 'number', 's', 'duration')
    s.field('message', 'text', None, 'message')
    qf = F('rcode', 'exists')
    s.fact("query lines with rcode 'NXDOMAIN'", 'count', flt=F('rcode', '==', 'NXDOMAIN'))
    s.fact("query lines with rcode 'SERVFAIL'", 'count', flt=F('rcode', '==', 'SERVFAIL'))
    s.fact('max duration (s) over query lines', 'max', 'duration', qf)
    s.fact('p95 (nearest-rank) duration in s over query lines', 'p95', 'duration', qf)
    s.fact('distinct client over query lines', 'distinct', 'client', qf)
    s.fact('events with level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    return s


# ======================================================================= 14 BIND 9 named log
def gen_bind():
    rnd = random.Random(314)
    s = Sample('bind_named', 'BIND 9.18 named log file channel with print-time/print-category/print-severity ("dd-Mon-YYYY hh:mm:ss.mmm category: severity: msg"), query logging on', 'named.log')
    tl = TL()

    def ts(t):
        return '%02d-%s-%d %s.%03d' % (t.day, MON[t.month - 1], t.year, t.strftime('%H:%M:%S'), t.microsecond // 1000)

    def add(t, cat, sev, msg, **rec):
        tl.add(t, '%s %s: %s: %s' % (ts(t), cat, sev, msg), timestamp=ts(t), category=cat, severity=sev, message=msg, **rec)

    def cl():
        return '@0x7f%s' % hexs(rnd, 10)

    t0 = at(0.01)
    boot = [('general', 'notice', 'starting BIND 9.18.28-1~deb12u2-Debian (Extended Support Version) <id:>'),
            ('general', 'info', 'running on Linux x86_64 6.1.0-25-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.106-3 (2024-08-26)'),
            ('general', 'info', "built with  '--build=x86_64-linux-gnu' '--prefix=/usr' '--sysconfdir=/etc/bind' '--with-openssl=/usr' '--enable-dnstap' '--with-libidn2'"),
            ('general', 'info', 'running as: named -f -u bind'), ('general', 'info', 'compiled by GCC 12.2.0'),
            ('general', 'info', 'compiled with OpenSSL version: OpenSSL 3.0.14 4 Jun 2024'), ('general', 'info', 'linked to OpenSSL version: OpenSSL 3.0.14 4 Jun 2024'),
            ('general', 'info', '----------------------------------------------------'), ('general', 'info', 'BIND 9 is maintained by Internet Systems Consortium,'),
            ('general', 'info', 'Inc. (ISC), a non-profit 501(c)(3) public-benefit '), ('general', 'info', 'corporation.  Support and training for BIND 9 are '),
            ('general', 'info', 'available at https://www.isc.org/support'), ('general', 'info', '----------------------------------------------------'),
            ('general', 'info', 'found 4 CPUs, using 4 worker threads'), ('general', 'info', 'using 4 UDP listeners per interface'),
            ('config', 'info', "loading configuration from '/etc/bind/named.conf'"), ('network', 'info', 'listening on IPv4 interface lo, 127.0.0.1#53'),
            ('network', 'info', 'listening on IPv4 interface eth0, 10.0.0.53#53'), ('general', 'warning', 'checkhints: b.root-servers.net/A (170.247.170.2) missing from hints'),
            ('general', 'warning', 'checkhints: b.root-servers.net/A (199.9.14.201) extra record in hints'), ('general', 'info', 'managed-keys-zone: loaded serial 14'),
            ('general', 'info', 'zone 0.in-addr.arpa/IN: loaded serial 1'), ('general', 'info', 'zone 10.in-addr.arpa/IN: loaded serial 2031091601'),
            ('general', 'info', 'zone corp.example.internal/IN: loaded serial 2031091601'), ('general', 'notice', 'all zones loaded'), ('general', 'notice', 'running'),
            ('resolver', 'info', 'resolver priming query complete: success')]
    for i, (c, sv, m) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 3), c, sv, m)
    clients = Pool(rnd, ['10.0.%d.%d' % (rnd.choice([1, 12, 12, 12, 20]), rnd.randint(2, 250)) for _ in range(70)], 0.8)
    names = Pool(rnd, ['www.google.com', 'outlook.office365.com', 'login.microsoftonline.com', 'fileserver.corp.example.internal', 'intranet.corp.example.internal',
                       'github.com', 'api.github.com', 'teams.microsoft.com', 'time.windows.com', 'ctldl.windowsupdate.com', 'slack.com', 'zoom.us',
                       'dc01.corp.example.internal', '_ldap._tcp.dc._msdcs.corp.example.internal', 'wpad.corp.example.internal', 'printer-3f.corp.example.internal',
                       'ocsp.digicert.com', 'connectivity-check.ubuntu.com', 'detectportal.firefox.com', 'update.googleapis.com'], 0.7)
    broken = ['cdn.badhost.example', 'legacy-app.partner.example']
    serial = 2031091601
    for t in times(rnd, 820, 1, 3598):
        ip = clients.pick()
        k = wchoice(rnd, [('q', 90), ('fail', 2), ('deny', 2), ('lame', 3), ('upd', 2), ('dnssec', 1)])
        port = rnd.randint(1024, 65535)
        if k == 'q':
            n = names.pick()
            if n.startswith('_ldap'):
                qt = 'SRV'
            elif n.startswith('wpad'):
                qt = 'A'
            else:
                qt = wchoice(rnd, [('A', 55), ('AAAA', 35), ('HTTPS', 8), ('PTR', 2)])
            if qt == 'PTR':
                n = '%d.%d.0.10.in-addr.arpa' % (rnd.randint(2, 250), rnd.choice([1, 12, 20]))
            fl = wchoice(rnd, [('+E(0)K', 60), ('+', 12), ('+E(0)', 18), ('+E(0)DK', 6), ('+ET', 1), ('+E(0)TK', 3)])
            add(t, 'queries', 'info', 'client %s %s#%d (%s): query: %s IN %s %s (10.0.0.53)' % (cl(), ip, port, n, n, qt, fl), client=ip, qname=n, qtype=qt, flags=fl, server='10.0.0.53')
        elif k == 'fail':
            n = rnd.choice(broken)
            add(t, 'queries', 'info', 'client %s %s#%d (%s): query: %s IN A +E(0)K (10.0.0.53)' % (cl(), ip, port, n, n), client=ip, qname=n, qtype='A', flags='+E(0)K', server='10.0.0.53')
            add(t + timedelta(seconds=rnd.uniform(1.5, 3)), 'lame-servers', 'info', "timed out resolving '%s/A/IN': 203.0.113.%d#53" % (n, rnd.randint(2, 250)))
            add(t + timedelta(seconds=3.2), 'query-errors', 'info', 'client %s %s#%d (%s): query failed (SERVFAIL) for %s/IN/A at query.c:7836' % (cl(), ip, port, n, n), client=ip, qname=n)
        elif k == 'deny':
            ext = '%s%d' % (rnd.choice(PUB), rnd.randint(1, 254))
            n = rnd.choice(['example.org', 'isc.org', 'sl.', 'peacecorps.gov'])
            add(t, 'security', 'info', "client %s %s#%d (%s): query (cache) '%s/ANY/IN' denied (allow-query-cache did not match)" % (cl(), ext, rnd.choice([53, 80, 4444, rnd.randint(1024, 65535)]), n, n), client=ext, qname=n)
        elif k == 'lame':
            add(t, 'lame-servers', 'info', "REFUSED unexpected RCODE resolving '%s/%s/IN': 198.51.100.%d#53" % (rnd.choice(['ns1.oldhost.example', 'mail.partner.example', 'vpn.supplier.example']), rnd.choice(['A', 'AAAA', 'NS']), rnd.randint(2, 250)))
        elif k == 'upd':
            host = 'laptop-%d.corp.example.internal' % rnd.randint(1, 300)
            add(t, 'update', 'info', "client %s 10.0.0.21#%d/key dhcp-update: updating zone 'corp.example.internal/IN': adding an RR at '%s' A 10.0.12.%d" % (cl(), port, host, rnd.randint(2, 250)), client='10.0.0.21')
        else:
            add(t, 'dnssec', 'info', 'validating %s/%s: no valid signature found' % (rnd.choice(['broken-dnssec.example', 'dnssec-failed.org']), rnd.choice(['A', 'DNSKEY'])))
    for i, tt in enumerate((900.0, 2400.0)):
        serial += 1
        add(at(tt), 'general', 'info', 'zone corp.example.internal/IN: loaded serial %d' % serial)
        add(at(tt + 0.01), 'notify', 'info', 'zone corp.example.internal/IN: sending notifies (serial %d)' % serial)
        c = cl()
        add(at(tt + 0.3), 'xfer-out', 'info', "client %s 10.0.0.54#%d (corp.example.internal): transfer of 'corp.example.internal/IN': IXFR started: delta (serial %d)" % (c, 40123 + i, serial), client='10.0.0.54')
        add(at(tt + 0.301), 'xfer-out', 'info', "client %s 10.0.0.54#%d (corp.example.internal): transfer of 'corp.example.internal/IN': IXFR ended: 1 messages, 6 records, 412 bytes, 0.001 secs (412000 bytes/sec) (serial %d)" % (c, 40123 + i, serial), client='10.0.0.54')
    add(at(3000.5), 'network', 'error', 'no longer listening on 10.0.0.53#53: address not available')
    add(at(3001.0), 'network', 'info', 'listening on IPv4 interface eth0, 10.0.0.53#53')
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('category', 'text', None, 'logger')
    s.field('severity', 'text', None, 'level')
    s.field('client', 'ip', None, 'client')
    s.field('qname', 'text')
    s.field('qtype', 'text')
    s.field('flags', 'text')
    s.field('message', 'text', None, 'message')
    qq = F('category', '==', 'queries')
    s.fact("events in category 'queries'", 'count', flt=qq)
    s.fact("query lines for qtype AAAA", 'count', flt={'all': [qq, F('qtype', '==', 'AAAA')]})
    s.fact("distinct client over category 'queries'", 'distinct', 'client', qq)
    s.fact("events in category 'query-errors'", 'count', flt=F('category', '==', 'query-errors'))
    s.fact("events whose message contains ' denied'", 'count', flt=F('message', 'contains', ' denied'))
    s.fact("events with severity 'warning' or 'error'", 'count', flt=F('severity', 'in', ['warning', 'error']))
    return s


# ======================================================================= 15 OpenVPN server
def gen_openvpn():
    rnd = random.Random(315)
    s = Sample('openvpn_server', 'OpenVPN 2.6 server log (--log file, verb 3): "YYYY-MM-DD hh:mm:ss [cn/]ip:port msg"', 'openvpn.log')
    tl = TL()

    def add(t, who, msg, **rec):
        ts = t.strftime('%Y-%m-%d %H:%M:%S')
        text = '%s %s%s' % (ts, (who + ' ') if who else '', msg)
        r = {'timestamp': ts, 'message': msg}
        if who:
            cn, _, addr = who.rpartition('/')
            ip, port = addr.rsplit(':', 1)
            r['real_ip'] = ip
            r['real_port'] = int(port)
            if cn:
                r['common_name'] = cn
        r.update(rec)
        tl.add(t, text, **r)

    t0 = at(0.0)
    boot = ['OpenVPN 2.6.12 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]',
            'library versions: OpenSSL 3.0.14 4 Jun 2024, LZO 2.10', 'DCO version: N/A',
            'net_route_v4_best_gw query: dst 0.0.0.0', 'net_route_v4_best_gw result: via 10.0.0.1 dev eth0',
            'WARNING: you are using user/group/chroot/setcon without persist-tun -- this may cause restarts to fail',
            'Diffie-Hellman initialized with 2048 bit key', 'TUN/TAP device tun0 opened', 'net_iface_mtu_set: mtu 1500 for tun0', 'net_iface_up: set tun0 up',
            'net_addr_v4_add: 10.8.0.1/24 dev tun0', 'Could not determine IPv4/IPv6 protocol. Using AF_INET', 'Socket Buffers: R=[212992->212992] S=[212992->212992]',
            'UDPv4 link local (bound): [AF_INET][undef]:1194', 'UDPv4 link remote: [AF_UNSPEC]', 'GID set to nogroup', 'UID set to nobody',
            'MULTI: multi_init called, r=256 v=256', 'IFCONFIG POOL IPv4: base=10.8.0.2 size=253', 'IFCONFIG POOL LIST', 'Initialization Sequence Completed']
    for i, m in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 5), None, m)
    users = ['alice', 'bob', 'carol', 'dmitri', 'erin', 'farid', 'grace', 'hiro', 'ines', 'jonas', 'kemal', 'lena', 'mateo', 'nina', 'oskar', 'priya', 'quinn', 'rosa', 'sven', 'tara']
    home = {u: rnd.choice(PUB) + str(rnd.randint(1, 254)) for u in users}
    plat = {u: rnd.choice([('win', 'OpenVPN_GUI_11.50.0.0'), ('mac', 'net.tunnelblick.tunnelblick_5978_4.0.1_build_5971'), ('linux', None), ('ios', 'net.openvpn.connect.ios_3.5.0-5235')]) for u in users}
    vip = {}
    peer_id = [0]
    for t in times(rnd, 34, 10, 3400):
        u = rnd.choice(users)
        ip = home[u]
        port = rnd.randint(1024, 65535)
        a = '%s:%d' % (ip, port)
        w = a
        step = [t]

        def nxt(ms=3):
            step[0] = step[0] + timedelta(milliseconds=ms)
            return step[0]
        add(t, None, 'MULTI: multi_create_instance called')
        add(nxt(), w, 'Re-using SSL/TLS context')
        add(nxt(), w, 'Control Channel MTU parms [ mss_fix:0 max_frag:0 tun_mtu:1250 tun_max_mtu:0 headroom:126 payload:1600 tailroom:126 ET:0 ]')
        add(nxt(), w, 'Data Channel MTU parms [ mss_fix:0 max_frag:0 tun_mtu:1500 tun_max_mtu:1600 headroom:136 payload:1768 tailroom:562 ET:0 ]')
        add(nxt(), w, 'TLS: Initial packet from [AF_INET]%s, sid=%s %s' % (a, hexs(rnd, 8), hexs(rnd, 8)))
        add(nxt(40), w, 'VERIFY OK: depth=1, CN=Acme Corp VPN CA')
        if u in ('lena', 'sven') and rnd.random() < 0.7:
            add(nxt(), w, 'VERIFY ERROR: depth=0, error=certificate has expired: CN=%s, serial=%d' % (u, rnd.randint(2, 90)), common_name_attempt=u)
            add(nxt(), w, 'OpenSSL: error:0A000086:SSL routines::certificate verify failed:')
            add(nxt(), w, 'TLS_ERROR: BIO read tls_read_plaintext error')
            add(nxt(), w, 'TLS Error: TLS object -> incoming plaintext read error')
            add(nxt(), w, 'TLS Error: TLS handshake failed')
            add(nxt(), w, 'SIGUSR1[soft,tls-error] received, client-instance restarting')
            continue
        add(nxt(), w, 'VERIFY OK: depth=0, CN=%s' % u)
        p, gui = plat[u]
        for kv in ['IV_VER=2.6.12' if p != 'ios' else 'IV_VER=3.git::d3f8b18b', 'IV_PLAT=%s' % p, 'IV_TCPNL=1', 'IV_MTU=1600', 'IV_NCP=2', 'IV_CIPHERS=AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305', 'IV_PROTO=990'] + (['IV_GUI_VER=%s' % gui] if gui else []):
            add(nxt(0), w, 'peer info: %s' % kv)
        add(nxt(), w, 'TLS: tls_multi_process: initial untrusted session promoted to trusted')
        add(nxt(), w, 'Control Channel: TLSv1.3, cipher TLSv1.3 TLS_AES_256_GCM_SHA384, peer certificate: 2048 bits RSA, signature: RSA-SHA256, peer temporary key: 253 bits X25519')
        add(nxt(), w, '[%s] Peer Connection Initiated with [AF_INET]%s' % (u, a))
        w = '%s/%s' % (u, a)
        v = vip.setdefault(u, '10.8.0.%d' % (len(vip) + 2))
        peer_id[0] += 1
        add(nxt(), w, 'MULTI_sva: pool returned IPv4=%s, IPv6=(Not enabled)' % v)
        add(nxt(), w, 'MULTI: Learn: %s -> %s' % (v, w), virtual_ip=v)
        add(nxt(), w, 'MULTI: primary virtual IP for %s: %s' % (w, v), virtual_ip=v)
        add(nxt(), w, 'Data Channel: cipher \'AES-256-GCM\', peer-id: %d' % peer_id[0])
        add(nxt(), w, 'Timers: ping 10, ping-restart 120')
        add(nxt(), w, 'Protocol options: explicit-exit-notify 1, protocol-flags cc-exit tls-ekm dyn-tls-crypt')
        add(nxt(1000), w, "PUSH: Received control message: 'PUSH_REQUEST'")
        add(nxt(), w, "SENT CONTROL [%s]: 'PUSH_REPLY,route 10.20.0.0 255.255.0.0,dhcp-option DNS 10.0.0.53,dhcp-option DOMAIN corp.example.internal,route-gateway 10.8.0.1,topology subnet,ping 10,ping-restart 120,ifconfig %s 255.255.255.0,peer-id %d,cipher AES-256-GCM,protocol-flags cc-exit tls-ekm dyn-tls-crypt,tun-mtu 1500' (status=1)" % (u, v, peer_id[0]))
        life = lognorm(rnd, 900, 0.9)
        te = t + timedelta(seconds=life)
        if te > at(3599):
            continue
        if rnd.random() < 0.35:
            add(te, w, '[%s] Inactivity timeout (--ping-restart), restarting' % u)
            add(te, w, 'SIGUSR1[soft,ping-restart] received, client-instance restarting')
        else:
            add(te, w, 'SIGTERM[soft,remote-exit] received, client-instance exiting')
    # sven's laptop keeps retrying with an expired certificate
    for t in times(rnd, 9, 1200, 2500):
        a = '%s:%d' % (home['sven'], rnd.randint(1024, 65535))
        add(t, None, 'MULTI: multi_create_instance called')
        add(t, a, 'Re-using SSL/TLS context')
        add(t, a, 'TLS: Initial packet from [AF_INET]%s, sid=%s %s' % (a, hexs(rnd, 8), hexs(rnd, 8)))
        add(t + timedelta(milliseconds=40), a, 'VERIFY OK: depth=1, CN=Acme Corp VPN CA')
        add(t + timedelta(milliseconds=40), a, 'VERIFY ERROR: depth=0, error=certificate has expired: CN=sven, serial=23')
        add(t + timedelta(milliseconds=40), a, 'OpenSSL: error:0A000086:SSL routines::certificate verify failed:')
        add(t + timedelta(milliseconds=40), a, 'TLS_ERROR: BIO read tls_read_plaintext error')
        add(t + timedelta(milliseconds=40), a, 'TLS Error: TLS object -> incoming plaintext read error')
        add(t + timedelta(milliseconds=40), a, 'TLS Error: TLS handshake failed')
        add(t + timedelta(milliseconds=41), a, 'SIGUSR1[soft,tls-error] received, client-instance restarting')
    scanners = public_ips(rnd, 25)
    for t in times(rnd, 60, 1, 3598):
        ip = rnd.choice(scanners)
        a = '%s:%d' % (ip, rnd.randint(1024, 65535))
        if rnd.random() < 0.5:
            add(t, a, 'TLS Error: tls-crypt unwrapping failed from [AF_INET]%s' % a)
        else:
            add(t, a, 'tls-crypt unwrap error: packet authentication failed')
            add(t, a, 'TLS Error: tls-crypt unwrapping failed from [AF_INET]%s' % a)
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('common_name', 'text', None, 'user')
    s.field('real_ip', 'ip', None, 'client')
    s.field('real_port', 'number')
    s.field('virtual_ip', 'ip')
    s.field('message', 'text', None, 'message')
    pci = F('message', 'contains', 'Peer Connection Initiated')
    s.fact("'Peer Connection Initiated' events", 'count', flt=pci)
    s.fact("distinct CN in '[cn] Peer Connection Initiated' (the line has no cn/ prefix yet)", 'distinct', flt=pci, key=lambda e: e['message'][1:e['message'].index(']')])
    s.fact("events whose message contains 'TLS handshake failed'", 'count', flt=F('message', 'contains', 'TLS handshake failed'))
    s.fact("events whose message starts with 'VERIFY ERROR'", 'count', flt=F('message', 'startswith', 'VERIFY ERROR'))
    s.fact("events whose message contains 'Inactivity timeout'", 'count', flt=F('message', 'contains', 'Inactivity timeout'))
    s.fact('distinct real_ip', 'distinct', 'real_ip')
    return s


# ======================================================================= 16 fail2ban
def gen_fail2ban():
    rnd = random.Random(316)
    s = Sample('fail2ban', 'fail2ban 1.0 /var/log/fail2ban.log ("%(asctime)s %(name)-24s[%(process)d]: %(levelname)-7s %(message)s")', 'fail2ban.log')
    tl = TL()
    pid = 812

    def add(t, name, lvl, msg, **rec):
        ts = comma_ms(t)
        # the jail is only a field where the message starts with "[jail] "
        rec.pop('jail', None)
        if msg.startswith('[') and '] ' in msg:
            rec['jail'] = msg[1:msg.index('] ')]
        tl.add(t, '%s %-24s[%d]: %-7s %s' % (ts, name, pid, lvl, msg), timestamp=ts, logger=name, pid=pid, level=lvl, message=msg, **rec)

    t0 = at(0.0)
    boot = [('fail2ban.server', 'INFO', '--------------------------------------------------'), ('fail2ban.server', 'INFO', 'Starting Fail2ban v1.0.2'),
            ('fail2ban.observer', 'INFO', 'Observer start...'), ('fail2ban.database', 'INFO', "Connected to fail2ban persistent database '/var/lib/fail2ban/fail2ban.sqlite3'")]
    for i, (n, l, m) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 2), n, l, m)
    jails = [('sshd', 'systemd', "'_SYSTEMD_UNIT=sshd.service + _COMM=sshd'", 5, 600, 1800),
             ('nginx-botsearch', 'pyinotify', '/var/log/nginx/access.log', 2, 600, 3600),
             ('postfix-sasl', 'systemd', "'_SYSTEMD_UNIT=postfix@-.service'", 3, 600, 3600)]
    tt = t0 + timedelta(milliseconds=20)
    for j, backend, src, maxretry, findtime, bantime in jails:
        for n, l, m in [('fail2ban.jail', 'INFO', "Creating new jail '%s'" % j), ('fail2ban.jail', 'INFO', "Jail '%s' uses %s {}" % (j, backend)),
                        ('fail2ban.jail', 'INFO', "Initiated '%s' backend" % backend), ('fail2ban.filter', 'INFO', '  maxLines: 1'),
                        ('fail2ban.filtersystemd' if backend == 'systemd' else 'fail2ban.filter', 'INFO', ('[%s] Added journal match for: %s' % (j, src)) if backend == 'systemd' else "Added logfile: '%s' (pos = %d, hash = %s)" % (src, rnd.randint(10 ** 6, 10 ** 8), hexs(rnd, 40))),
                        ('fail2ban.filter', 'INFO', '  maxRetry: %d' % maxretry), ('fail2ban.filter', 'INFO', '  findtime: %d' % findtime),
                        ('fail2ban.actions', 'INFO', '  banTime: %d' % bantime), ('fail2ban.filter', 'INFO', '  encoding: UTF-8')]:
            add(tt, n, l, m, jail=j)
            tt += timedelta(milliseconds=3)
    restored = public_ips(rnd, 5)
    for i, ip in enumerate(restored):
        add(tt + timedelta(milliseconds=50 + i), 'fail2ban.actions', 'NOTICE', '[sshd] Restore Ban %s' % ip, jail='sshd', ip=ip)
    for j, *_ in jails:
        add(tt + timedelta(milliseconds=80), 'fail2ban.jail', 'INFO', "Jail '%s' started" % j, jail=j)
    attackers = Pool(rnd, public_ips(rnd, 90), 0.6)
    banned = {}
    counts = {}
    jmap = {j[0]: j for j in jails}
    for t in times(rnd, 560, 5, 3598):
        j = wchoice(rnd, [('sshd', 70), ('nginx-botsearch', 18), ('postfix-sasl', 12)])
        ip = attackers.pick()
        if rnd.random() < 0.02:
            add(t, 'fail2ban.filter', 'INFO', '[%s] Ignore 10.0.0.%d by ip' % (j, rnd.randint(2, 40)), jail=j)
            continue
        key = (j, ip)
        if key in banned and banned[key] > t:
            if rnd.random() < 0.3:
                add(t, 'fail2ban.filter', 'INFO', '[%s] Found %s - %s' % (j, ip, t.strftime('%Y-%m-%d %H:%M:%S')), jail=j, ip=ip)
                add(t + timedelta(milliseconds=rnd.randint(1, 30)), 'fail2ban.actions', 'WARNING', '[%s] %s already banned' % (j, ip), jail=j, ip=ip)
            continue
        seen = [x for x in counts.get(key, []) if (t - x).total_seconds() < jmap[j][4]]
        seen.append(t)
        counts[key] = seen
        add(t, 'fail2ban.filter', 'INFO', '[%s] Found %s - %s' % (j, ip, t.strftime('%Y-%m-%d %H:%M:%S')), jail=j, ip=ip)
        if len(seen) >= jmap[j][3]:
            tb = t + timedelta(milliseconds=rnd.randint(50, 900))
            add(tb, 'fail2ban.actions', 'NOTICE', '[%s] Ban %s' % (j, ip), jail=j, ip=ip)
            banned[key] = tb + timedelta(seconds=jmap[j][5])
            counts[key] = []
            if banned[key] < at(3599):
                add(banned[key], 'fail2ban.actions', 'NOTICE', '[%s] Unban %s' % (j, ip), jail=j, ip=ip)
    # a broken action: iptables chain missing after a firewall reload
    te = at(2877.31)
    ip = attackers.pick()
    h = '7f1b2c3d4e50'
    add(te, 'fail2ban.filter', 'INFO', '[sshd] Found %s - %s' % (ip, te.strftime('%Y-%m-%d %H:%M:%S')), jail='sshd', ip=ip)
    add(te + timedelta(milliseconds=400), 'fail2ban.actions', 'NOTICE', '[sshd] Ban %s' % ip, jail='sshd', ip=ip)
    for i, m in enumerate(['%s -- exec: iptables -w -I f2b-sshd 1 -s %s -j REJECT --reject-with icmp-port-unreachable' % (h, ip),
                           "%s -- stderr: 'iptables: No chain/target/match by that name.'" % h, '%s -- returned 1' % h]):
        add(te + timedelta(milliseconds=420 + i), 'fail2ban.utils', 'ERROR', m)
    add(te + timedelta(milliseconds=424), 'fail2ban.actions', 'ERROR', "Failed to execute ban jail 'sshd' action 'iptables-multiport' info 'ActionInfo({'ip': '%s', 'family': 'inet4', 'fid': <function Actions.ActionInfo.<lambda> at 0x7f1b2c3a1f80>, 'raw-ticket': <function Actions.ActionInfo.<lambda> at 0x7f1b2c3a2020>})': Error banning %s" % (ip, ip), jail='sshd', ip=ip)
    add(at(3100.2), 'fail2ban.ipdns', 'WARNING', 'Unable to find a corresponding IP address for mail.partner.example: [Errno -2] Name or service not known')
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('logger', 'text', None, 'logger')
    s.field('pid', 'number', None, 'pid')
    s.field('level', 'text', None, 'level')
    s.field('message', 'text', None, 'message')
    s.field('jail', 'text')
    s.field('ip', 'ip', None, 'client')
    ban = F('message', 'contains', '] Ban ')
    s.fact("'[jail] Ban ip' events (not Restore Ban, not Unban)", 'count', flt=ban)
    s.fact("distinct ip over '[jail] Ban ip' events", 'distinct', 'ip', ban)
    s.fact("'[jail] Found ip' events", 'count', flt=F('message', 'contains', '] Found '))
    s.fact('events at level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    s.fact('events at level WARNING', 'count', flt=F('level', '==', 'WARNING'))
    s.fact("events with jail 'nginx-botsearch'", 'count', flt=F('jail', '==', 'nginx-botsearch'))
    return s


# ======================================================================= 17 Windows Security log exported as CSV
def gen_wincsv():
    rnd = random.Random(317)
    s = Sample('windows_security_csv', 'Windows Server 2022 Event Viewer "Save All Events As... CSV" of the Security log (Keywords,Date and Time,Source,Event ID,Task Category + unnamed description column; newest first; CRLF)', 'security-events.csv', eol='\r\n')
    s.raw('Keywords,Date and Time,Source,Event ID,Task Category')
    host, dom = 'RDS01', 'CORP'
    sid_base = 'S-1-5-21-3623811015-3361044348-30300820-'
    users = {'alice': 1104, 'bob': 1107, 'carol': 1112, 'dmitri': 1120, 'erin': 1131, 'adm-bob': 1502, 'svc-backup': 1610}
    recs = []

    def luid():
        return '0x%X' % rnd.randint(0x100000, 0x9FFFFFF)

    def add(t, kw, src, eid, task, msg, **rec):
        recs.append((t, kw, src, eid, task, msg, rec))

    def subj(sid, name, domain, lid):
        return 'Security ID:\t\t%s\n\tAccount Name:\t\t%s\n\tAccount Domain:\t\t%s\n\tLogon ID:\t\t%s' % (sid, name, domain, lid)

    sessions = []
    for t in times(rnd, 120, 30, 3590):
        u = rnd.choice(sorted(users))
        ltype = wchoice(rnd, [(3, 60), (10, 25), (2, 5), (5, 10)]) if u != 'svc-backup' else 5
        lid = luid()
        ip = '10.0.12.%d' % rnd.randint(2, 250) if ltype in (3, 10) else '-'
        ws = 'LAPTOP-%d' % rnd.randint(10, 99) if ltype in (3, 10) else host
        pkg = 'Kerberos' if ltype == 3 and rnd.random() < 0.7 else 'Negotiate' if ltype in (2, 10, 5) else 'NTLM'
        msg = ('An account was successfully logged on.\n\nSubject:\n\t%s\n\nLogon Information:\n\tLogon Type:\t\t%d\n\tRestricted Admin Mode:\t%s\n\tRemote Credential Guard:\t%s\n\tVirtual Account:\t\tNo\n\tElevated Token:\t\t%s\n\n'
               'Impersonation Level:\t\tImpersonation\n\nNew Logon:\n\tSecurity ID:\t\t%s%d\n\tAccount Name:\t\t%s\n\tAccount Domain:\t\t%s\n\tLogon ID:\t\t%s\n\tLinked Logon ID:\t\t0x0\n\tNetwork Account Name:\t-\n\tNetwork Account Domain:\t-\n\tLogon GUID:\t\t{%s}\n\n'
               'Process Information:\n\tProcess ID:\t\t%s\n\tProcess Name:\t\t%s\n\nNetwork Information:\n\tWorkstation Name:\t%s\n\tSource Network Address:\t%s\n\tSource Port:\t\t%s\n\n'
               'Detailed Authentication Information:\n\tLogon Process:\t\t%s\n\tAuthentication Package:\t%s\n\tTransited Services:\t-\n\tPackage Name (NTLM only):\t%s\n\tKey Length:\t\t0\n\n'
               'This event is generated when a logon session is created. It is generated on the computer that was accessed.') % (
            subj('S-1-5-18' if ltype != 3 else 'NULL SID', host + '$' if ltype != 3 else '-', dom if ltype != 3 else '-', '0x3E7' if ltype != 3 else '0x0'),
            ltype, 'No' if ltype == 10 else '-', 'No' if ltype == 10 else '-', 'Yes' if u.startswith('adm') or u.startswith('svc') else 'No',
            sid_base, users[u], u, dom, lid, uid(rnd) if pkg == 'Kerberos' else '00000000-0000-0000-0000-000000000000',
            '0x0' if ltype == 3 else '0x%x' % rnd.randint(0x200, 0x2000), '-' if ltype == 3 else 'C:\\Windows\\System32\\svchost.exe' if ltype != 5 else 'C:\\Windows\\System32\\services.exe',
            ws if ltype in (3, 10) else '-', ip, str(rnd.randint(49152, 65535)) if ltype == 10 else '0',
            'Kerberos' if pkg == 'Kerberos' else 'User32 ' if ltype in (2, 10) else 'Advapi  ' if ltype == 5 else 'NtLmSsp ', pkg, 'NTLM V2' if pkg == 'NTLM' else '-')
        add(t, 'Audit Success', 'Microsoft-Windows-Security-Auditing', 4624, 'Logon', msg, account=u, logon_type=ltype)
        if u.startswith('adm') or u.startswith('svc'):
            add(t, 'Audit Success', 'Microsoft-Windows-Security-Auditing', 4672, 'Special Logon',
                'Special privileges assigned to new logon.\n\nSubject:\n\t%s\n\nPrivileges:\t\tSeSecurityPrivilege\n\t\t\tSeBackupPrivilege\n\t\t\tSeRestorePrivilege\n\t\t\tSeTakeOwnershipPrivilege\n\t\t\tSeDebugPrivilege\n\t\t\tSeSystemEnvironmentPrivilege\n\t\t\tSeLoadDriverPrivilege\n\t\t\tSeImpersonatePrivilege\n\t\t\tSeDelegateSessionUserImpersonatePrivilege' % subj(sid_base + str(users[u]), u, dom, lid))
        sessions.append((t, u, lid, ltype))
    for t0, u, lid, ltype in sessions:
        te = t0 + timedelta(seconds=lognorm(rnd, 300 if ltype == 3 else 1500, 1.0))
        if te < at(3599):
            add(te, 'Audit Success', 'Microsoft-Windows-Security-Auditing', 4634, 'Logoff',
                'An account was logged off.\n\nSubject:\n\t%s\n\nLogon Type:\t\t\t%d\n\nThis event is generated when a logon session is destroyed. It may be positively correlated with a logon event using the Logon ID value. Logon IDs are only unique between reboots on the same computer.' % (subj(sid_base + str(users[u]), u, dom, lid), ltype))
        if ltype == 10 and rnd.random() < 0.6:
            for k in range(rnd.randint(1, 3)):
                tp = t0 + timedelta(seconds=rnd.uniform(5, 200))
                proc, cmd, parent = rnd.choice([('C:\\Windows\\System32\\cmd.exe', '"C:\\Windows\\system32\\cmd.exe" ', 'C:\\Windows\\explorer.exe'),
                                                ('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe', '"C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe" -NoProfile -ExecutionPolicy Bypass -File \\\\fs01\\scripts\\map-drives.ps1', 'C:\\Windows\\System32\\cmd.exe'),
                                                ('C:\\Windows\\System32\\whoami.exe', 'whoami  /groups', 'C:\\Windows\\System32\\cmd.exe'),
                                                ('C:\\Program Files\\Microsoft Office\\root\\Office16\\EXCEL.EXE', '"C:\\Program Files\\Microsoft Office\\Root\\Office16\\EXCEL.EXE" /dde', 'C:\\Windows\\explorer.exe')])
                add(tp, 'Audit Success', 'Microsoft-Windows-Security-Auditing', 4688, 'Process Creation',
                    'A new process has been created.\n\nCreator Subject:\n\t%s\n\nTarget Subject:\n\tSecurity ID:\t\tNULL SID\n\tAccount Name:\t\t-\n\tAccount Domain:\t\t-\n\tLogon ID:\t\t0x0\n\nProcess Information:\n\tNew Process ID:\t\t0x%x\n\tNew Process Name:\t%s\n\tToken Elevation Type:\t%%%%1938\n\tMandatory Label:\t\tMandatory Label\\Medium Mandatory Level\n\tCreator Process ID:\t0x%x\n\tCreator Process Name:\t%s\n\tProcess Command Line:\t%s\n\n'
                    'Token Elevation Type indicates the type of token that was assigned to the new process in accordance with User Account Control policy.' % (subj(sid_base + str(users[u]), u, dom, lid), rnd.randint(0x400, 0x4000), proc, rnd.randint(0x400, 0x4000), parent, cmd))
    brute = public_ips(rnd, 14)
    names = ['administrator', 'ADMINISTRATOR', 'admin', 'user', 'test', 'scanner', 'backup', 'guest', 'Administrator', 'sql', 'support']
    for t in times(rnd, 150, 1, 3599):
        ip = rnd.choice(brute[:6]) if rnd.random() < 0.8 else rnd.choice(brute)
        nm = rnd.choice(names)
        status, sub, why = ('0xC000006D', '0xC0000064', 'Unknown user name or bad password.') if nm.lower() not in ('administrator', 'guest') else \
            ('0xC000006D', '0xC000006A', 'Unknown user name or bad password.') if nm.lower() == 'administrator' else ('0xC000006E', '0xC0000072', 'Account currently disabled.')
        msg = ('An account failed to log on.\n\nSubject:\n\tSecurity ID:\t\tNULL SID\n\tAccount Name:\t\t-\n\tAccount Domain:\t\t-\n\tLogon ID:\t\t0x0\n\nLogon Type:\t\t\t3\n\n'
               'Account For Which Logon Failed:\n\tSecurity ID:\t\tNULL SID\n\tAccount Name:\t\t%s\n\tAccount Domain:\t\t\n\nFailure Information:\n\tFailure Reason:\t\t%s\n\tStatus:\t\t\t%s\n\tSub Status:\t\t%s\n\n'
               'Process Information:\n\tCaller Process ID:\t0x0\n\tCaller Process Name:\t-\n\nNetwork Information:\n\tWorkstation Name:\t-\n\tSource Network Address:\t%s\n\tSource Port:\t\t0\n\n'
               'Detailed Authentication Information:\n\tLogon Process:\t\tNtLmSsp \n\tAuthentication Package:\tNTLM\n\tTransited Services:\t-\n\tPackage Name (NTLM only):\t-\n\tKey Length:\t\t0\n\n'
               'This event is generated when a logon request fails. It is generated on the computer where access was attempted.') % (nm, why, status, sub, ip)
        add(t, 'Audit Failure', 'Microsoft-Windows-Security-Auditing', 4625, 'Logon', msg, account=nm, source_ip=ip)
        if rnd.random() < 0.3:
            add(t - timedelta(milliseconds=2), 'Audit Failure', 'Microsoft-Windows-Security-Auditing', 4776, 'Credential Validation',
                'The computer attempted to validate the credentials for an account.\n\nAuthentication Package:\tMICROSOFT_AUTHENTICATION_PACKAGE_V1_0\nLogon Account:\t%s\nSource Workstation:\t%s\nError Code:\t%s' % (nm, rnd.choice(['WIN-3KD8F2L1QX', 'DESKTOP-9A7B2C', '']), sub))
    for t in times(rnd, 10, 100, 3500):
        u = rnd.choice(['alice', 'carol'])
        add(t, 'Audit Success', 'Microsoft-Windows-Security-Auditing', 4648, 'Logon',
            'A logon was attempted using explicit credentials.\n\nSubject:\n\t%s\n\tLogon GUID:\t\t{00000000-0000-0000-0000-000000000000}\n\nAccount Whose Credentials Were Used:\n\tAccount Name:\t\tadm-bob\n\tAccount Domain:\t\tCORP\n\tLogon GUID:\t\t{00000000-0000-0000-0000-000000000000}\n\nTarget Server:\n\tTarget Server Name:\tlocalhost\n\tAdditional Information:\tlocalhost\n\n'
            'Process Information:\n\tProcess ID:\t\t0x%x\n\tProcess Name:\t\tC:\\Windows\\System32\\consent.exe\n\nNetwork Information:\n\tNetwork Address:\t::1\n\tPort:\t\t\t0\n\n'
            'This event is generated when a process attempts to log on an account by explicitly specifying that account\'s credentials.  This most commonly occurs in batch-type configurations such as scheduled tasks, or when using the RUNAS command.' % (subj(sid_base + str(users[u]), u, dom, luid()), rnd.randint(0x400, 0x4000)))
    add(at(12.0), 'Audit Success', 'Microsoft-Windows-Eventlog', 1102, 'Log clear',
        'The audit log was cleared.\nSubject:\n\tSecurity ID:\t%s1502\n\tAccount Name:\tadm-bob\n\tDomain Name:\tCORP\n\tLogon ID:\t0x%X' % (sid_base, rnd.randint(0x100000, 0x9FFFFFF)))
    recs.sort(key=lambda r: r[0], reverse=True)
    for t, kw, src, eid, task, msg, rec in recs:
        hh = t.hour % 12 or 12
        dt = '%d/%d/%d %d:%s %s' % (t.month, t.day, t.year, hh, t.strftime('%M:%S'), 'AM' if t.hour < 12 else 'PM')
        text = '%s,%s,%s,%d,%s,"%s"' % (kw, dt, src, eid, task, msg.replace('"', '""'))
        s.ev(text, **{'Keywords': kw, 'Date and Time': dt, 'Source': src, 'Event ID': eid, 'Task Category': task, 'message': msg}, **rec)
    s.field('Keywords', 'text', None, 'level')
    s.field('Date and Time', 'time', None, 'time')
    s.field('Source', 'text', None, 'logger')
    s.field('Event ID', 'number')
    s.field('Task Category', 'text')
    s.field('message', 'text', None, 'message')
    s.fact('records with Event ID 4625', 'count', flt=F('Event ID', '==', 4625))
    s.fact("records with Keywords 'Audit Failure'", 'count', flt=F('Keywords', '==', 'Audit Failure'))
    s.fact("records with Task Category 'Logon'", 'count', flt=F('Task Category', '==', 'Logon'))
    s.fact("distinct 'Source Network Address' over Event ID 4625 (inside the description)", 'distinct', flt=F('Event ID', '==', 4625), key=lambda e: e['source_ip'])
    s.fact("distinct 'Account Name' under 'Account For Which Logon Failed' over Event ID 4625 (inside the description)", 'distinct', flt=F('Event ID', '==', 4625), key=lambda e: e['account'])
    s.fact('records with Event ID 4688 (process creation)', 'count', flt=F('Event ID', '==', 4688))
    return s


# ======================================================================= 18 Keycloak (Quarkus console text)
KC_NPE = java_trace('java.lang.NullPointerException: Cannot invoke "org.keycloak.models.UserModel.getId()" because "user" is null', [
    'org.keycloak.protocol.oidc.TokenManager.validateToken(TokenManager.java:201)',
    'org.keycloak.protocol.oidc.TokenManager.refreshAccessToken(TokenManager.java:304)',
    'org.keycloak.protocol.oidc.grants.RefreshTokenGrantType.process(RefreshTokenGrantType.java:75)',
    'org.keycloak.protocol.oidc.endpoints.TokenEndpoint.processGrantRequest(TokenEndpoint.java:141)',
    'org.keycloak.protocol.oidc.endpoints.TokenEndpoint$quarkusrestinvoker$processGrantRequest_6408e15340992839b66447750c221d9aaa837bd7.invoke(Unknown Source)',
    'org.jboss.resteasy.reactive.server.handlers.InvocationHandler.handle(InvocationHandler.java:29)',
    'io.quarkus.resteasy.reactive.server.runtime.QuarkusResteasyReactiveRequestContext.invokeHandler(QuarkusResteasyReactiveRequestContext.java:141)',
    'org.jboss.resteasy.reactive.common.core.AbstractResteasyReactiveContext.run(AbstractResteasyReactiveContext.java:147)',
    'io.quarkus.vertx.core.runtime.VertxCoreRecorder$14.runWith(VertxCoreRecorder.java:582)',
    'org.jboss.threads.EnhancedQueueExecutor$Task.run(EnhancedQueueExecutor.java:2513)',
    'org.jboss.threads.EnhancedQueueExecutor$ThreadBody.run(EnhancedQueueExecutor.java:1538)',
    'org.jboss.threads.DelegatingRunnable.run(DelegatingRunnable.java:29)',
    'org.jboss.threads.ThreadLocalResettingRunnable.run(ThreadLocalResettingRunnable.java:29)',
    'io.netty.util.concurrent.FastThreadLocalRunnable.run(FastThreadLocalRunnable.java:30)',
    'java.base/java.lang.Thread.run(Thread.java:1583)'])
KC_BLOCKED = java_trace('io.vertx.core.VertxException: Thread blocked', [
    'java.base/jdk.internal.misc.Unsafe.park(Native Method)',
    'java.base/java.util.concurrent.locks.LockSupport.park(LockSupport.java:221)',
    'org.infinispan.commons.util.concurrent.CompletableFutures.await(CompletableFutures.java:125)',
    'org.infinispan.cache.impl.InvocationHelper.invoke(InvocationHelper.java:105)',
    'org.infinispan.cache.impl.CacheImpl.get(CacheImpl.java:480)',
    'org.keycloak.models.sessions.infinispan.InfinispanUserSessionProvider.getUserSession(InfinispanUserSessionProvider.java:313)',
    'io.vertx.core.impl.ContextImpl.lambda$executeBlocking$0(ContextImpl.java:178)',
    'io.netty.util.concurrent.FastThreadLocalRunnable.run(FastThreadLocalRunnable.java:30)',
    'java.base/java.lang.Thread.run(Thread.java:1583)'])


def gen_keycloak():
    rnd = random.Random(318)
    s = Sample('keycloak', 'Keycloak 25 (Quarkus) console log, default format "%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%c] (%t) %s%e%n", jboss-logging event listener with success-level=info', 'keycloak.log')
    s.raw('Updating the configuration and installing your custom providers, if any. Please wait.')
    tl = TL()

    def add(t, lvl, cat, thread, msg, **rec):
        ts = comma_ms(t)
        tl.add(t, '%s %-5s [%s] (%s) %s' % (ts, lvl, cat, thread, msg), timestamp=ts, level=lvl, category=cat, thread=thread, message=msg.split('\n')[0], **rec)

    t0 = at(0.0)
    boot = [('INFO', 'io.quarkus.deployment.QuarkusAugmentor', 'main', 'Quarkus augmentation completed in 14321ms'),
            ('INFO', 'org.keycloak.quarkus.runtime.hostname.DefaultHostnameProvider', 'main', 'Hostname settings: Base URL: <unset>, Hostname: sso.example.com, Strict HTTPS: true, Path: <request>, Strict BackChannel: false, Admin URL: <unset>, Admin: <request>, Port: -1, Proxied: true'),
            ('WARN', 'io.quarkus.agroal.runtime.DataSources', 'JPA Startup Thread', 'Datasource <default> enables XA but transaction recovery is not enabled. Please enable transaction recovery by setting quarkus.transaction-manager.enable-recovery=true, otherwise data may be lost if the application is terminated abruptly'),
            ('INFO', 'org.keycloak.connections.infinispan.DefaultInfinispanConnectionProviderFactory', 'main', 'Node name: kc-0-41250, Site name: null'),
            ('INFO', 'org.infinispan.CONTAINER', 'Thread-5', 'ISPN000556: Starting user marshaller \'org.infinispan.commons.marshall.ImmutableProtoStreamMarshaller\''),
            ('INFO', 'org.infinispan.CLUSTER', 'main', 'ISPN000078: Starting JGroups channel `ISPN` with stack `kubernetes`'),
            ('INFO', 'org.jgroups.JChannel', 'main', 'local_addr: 3f1c2e9a-7b41-4c55-9d2e-5a8e0b1f6c77, name: kc-0-41250'),
            ('INFO', 'org.infinispan.CLUSTER', 'main', 'ISPN000094: Received new cluster view for channel ISPN: [kc-1-20817|5] (2) [kc-1-20817, kc-0-41250]'),
            ('INFO', 'org.infinispan.CLUSTER', 'main', 'ISPN000079: Channel `ISPN` local address is `kc-0-41250`, physical addresses are `[10.244.3.41:7800]`'),
            ('INFO', 'org.keycloak.broker.provider.AbstractIdentityProviderMapper', 'main', 'Registering class org.keycloak.broker.provider.mappersync.ConfigSyncEventListener'),
            ('INFO', 'org.keycloak.quarkus.runtime.storage.infinispan.CacheManagerFactory', 'main', 'Starting Infinispan embedded cache manager'),
            ('INFO', 'io.quarkus', 'main', 'Keycloak 25.0.6 on JVM (powered by Quarkus 3.8.5) started in 11.842s. Listening on: http://0.0.0.0:8080. Management interface listening on http://0.0.0.0:9000.'),
            ('INFO', 'io.quarkus', 'main', 'Profile prod activated. '),
            ('INFO', 'io.quarkus', 'main', 'Installed features: [agroal, cdi, hibernate-orm, jdbc-postgresql, keycloak, logging-gelf, micrometer, narayana-jta, reactive-routes, rest, rest-jackson, smallrye-context-propagation, smallrye-health, vertx]')]
    for i, (lvl, cat, th, msg) in enumerate(boot):
        add(t0 + timedelta(milliseconds=400 + i * 350), lvl, cat, th, msg)
    realm = uid(rnd)
    clients = [('shop-web', 'https://shop.example.com/oauth/callback', 45), ('admin-console', 'https://sso.example.com/admin/shop/console/', 5),
               ('grafana', 'https://grafana.example.com/login/generic_oauth', 15), ('mobile-app', 'com.example.shop:/oauth2redirect', 25)]
    users = {u: uid(rnd) for u in ['alice', 'bob', 'carol', 'dmitri', 'erin', 'farid', 'grace', 'hiro', 'ines', 'jonas', 'kemal', 'lena', 'mateo', 'nina']}
    good_ips = Pool(rnd, public_ips(rnd, 40), 0.7)
    stuffing = public_ips(rnd, 6)

    def evline(t, lvl, typ, kv, **rec):
        thread = 'executor-thread-%d' % rnd.randint(1, 40)
        body = ', '.join('%s="%s"' % (k, v) for k, v in [('type', typ), ('realmId', realm)] + kv)
        r = {k: v for k, v in kv}
        r['type'] = typ
        r['realmId'] = realm
        add(t, lvl, 'org.keycloak.events', thread, body, **r)

    for t in times(rnd, 300, 15, 3595):
        cl, redir, _ = wchoice(rnd, [(c, c[2]) for c in clients])
        k = wchoice(rnd, [('login', 40), ('refresh', 30), ('bad', 10), ('logout', 6), ('rt_err', 4), ('stuff', 8), ('tmp', 1)])
        u = rnd.choice(sorted(users))
        ip = good_ips.pick()
        sess = uid(rnd)
        if k == 'login':
            evline(t, 'INFO', 'LOGIN', [('clientId', cl), ('userId', users[u]), ('ipAddress', ip), ('auth_method', 'openid-connect'), ('auth_type', 'code'),
                                        ('response_type', 'code'), ('redirect_uri', redir), ('consent', 'no_consent_required'), ('code_id', sess), ('username', u),
                                        ('response_mode', 'query'), ('authSessionParentId', sess), ('authSessionTabId', alnum(rnd, 11))])
            evline(t + timedelta(milliseconds=rnd.randint(80, 900)), 'INFO', 'CODE_TO_TOKEN', [('clientId', cl), ('userId', users[u]), ('ipAddress', ip), ('token_id', 'onrtac:' + uid(rnd)),
                                                                                                 ('grant_type', 'authorization_code'), ('refresh_token_type', 'Refresh'), ('scope', 'openid profile email'),
                                                                                                 ('refresh_token_id', uid(rnd)), ('code_id', sess), ('client_auth_method', 'client-secret' if cl != 'mobile-app' else 'client-secret-jwt')])
        elif k == 'refresh':
            evline(t, 'INFO', 'REFRESH_TOKEN', [('clientId', cl), ('userId', users[u]), ('ipAddress', ip), ('token_id', 'onrtrt:' + uid(rnd)), ('grant_type', 'refresh_token'),
                                                ('refresh_token_type', 'Refresh'), ('scope', 'openid profile email'), ('refresh_token_id', uid(rnd)), ('updated_refresh_token_id', uid(rnd)),
                                                ('client_auth_method', 'client-secret')])
        elif k == 'bad':
            evline(t, 'WARN', 'LOGIN_ERROR', [('clientId', cl), ('userId', users[u]), ('ipAddress', ip), ('error', 'invalid_user_credentials'), ('auth_method', 'openid-connect'),
                                              ('auth_type', 'code'), ('redirect_uri', redir), ('code_id', sess), ('username', u), ('authSessionParentId', sess), ('authSessionTabId', alnum(rnd, 11))])
        elif k == 'logout':
            evline(t, 'INFO', 'LOGOUT', [('clientId', cl), ('userId', users[u]), ('ipAddress', ip), ('redirect_uri', redir)])
        elif k == 'rt_err':
            evline(t, 'WARN', 'REFRESH_TOKEN_ERROR', [('clientId', cl), ('userId', 'null'), ('ipAddress', ip), ('error', rnd.choice(['invalid_token', 'invalid_token', 'session_expired'])),
                                                      ('grant_type', 'refresh_token'), ('client_auth_method', 'client-secret')])
        elif k == 'stuff':
            ip = rnd.choice(stuffing)
            nm = rnd.choice(['admin', 'test@example.com', 'info@example.com', 'root', 'support', 'j.smith@example.com', 'alice@example.org'])
            evline(t, 'WARN', 'LOGIN_ERROR', [('clientId', 'shop-web'), ('userId', 'null'), ('ipAddress', ip), ('error', 'user_not_found'), ('auth_method', 'openid-connect'),
                                              ('auth_type', 'code'), ('redirect_uri', clients[0][1]), ('code_id', sess), ('username', nm), ('authSessionParentId', sess), ('authSessionTabId', alnum(rnd, 11))])
        else:
            evline(t, 'WARN', 'LOGIN_ERROR', [('clientId', cl), ('userId', users[u]), ('ipAddress', ip), ('error', 'user_temporarily_disabled'), ('auth_method', 'openid-connect'),
                                              ('auth_type', 'code'), ('redirect_uri', redir), ('code_id', sess), ('username', u), ('authSessionParentId', sess), ('authSessionTabId', alnum(rnd, 11))])
    for t in times(rnd, 5, 600, 3500):
        add(t, 'ERROR', 'org.keycloak.services.error.KeycloakErrorHandler', 'executor-thread-%d' % rnd.randint(1, 40), 'Uncaught server error: ' + KC_NPE, exception='java.lang.NullPointerException')
    for t in times(rnd, 4, 1900, 2000):
        add(t, 'WARN', 'io.vertx.core.impl.BlockedThreadChecker', 'vertx-blocked-thread-checker', 'Thread Thread[vert.x-eventloop-thread-%d,5,main] has been blocked for %d ms, time limit is 2000 ms: ' % (rnd.randint(0, 3), rnd.randint(2001, 6000)) + KC_BLOCKED, exception='io.vertx.core.VertxException')
    add(at(1950.2), 'WARN', 'org.jgroups.protocols.kubernetes.KUBE_PING', 'jgroups-12,kc-0-41250', 'failed getting JSON response from Kubernetes Client[masterUrl=https://10.96.0.1:443/api/v1, headers={Authorization=#MASKED:1024#}, connectTimeout=5000, readTimeout=30000, operationAttempts=3, operationSleep=1000, streamProvider=org.jgroups.protocols.kubernetes.stream.TokenStreamProvider@5e0e82ae] for cluster [ISPN], namespace [iam], labels [app=keycloak]; encountered [java.lang.Exception: 3 attempt(s) with a 1000ms sleep to execute [OpenStream] failed. Last failure was [java.net.SocketTimeoutException: Read timed out]]')
    add(at(1961.0), 'INFO', 'org.infinispan.CLUSTER', 'non-blocking-thread--p2-t3', 'ISPN000094: Received new cluster view for channel ISPN: [kc-0-41250|6] (1) [kc-0-41250]')
    add(at(1961.1), 'WARN', 'org.infinispan.CLUSTER', 'non-blocking-thread--p2-t3', '[Context=authenticationSessions] ISPN000314: Lost at least half of the stable members, possible split brain causing data inconsistency. Current members are [kc-0-41250], lost members are [kc-1-20817], stable members are [kc-1-20817, kc-0-41250]')
    add(at(2015.7), 'INFO', 'org.infinispan.CLUSTER', 'jgroups-9,kc-0-41250', 'ISPN000093: Received new, MERGED cluster view for channel ISPN: MergeView::[kc-0-41250|7] (2) [kc-0-41250, kc-1-20817], 2 subgroups: [kc-1-20817|6] (1) [kc-1-20817], [kc-0-41250|6] (1) [kc-0-41250]')
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('category', 'text', None, 'logger')
    s.field('thread', 'text', None, 'thread')
    s.field('message', 'text', None, 'message')
    s.field('type', 'text')
    s.field('clientId', 'text')
    s.field('userId', 'text')
    s.field('ipAddress', 'ip', None, 'client')
    s.field('error', 'text')
    s.field('username', 'text', None, 'user')
    le = F('type', '==', 'LOGIN_ERROR')
    s.fact("events with type LOGIN_ERROR", 'count', flt=le)
    s.fact("events with error 'user_not_found'", 'count', flt=F('error', '==', 'user_not_found'))
    s.fact('distinct ipAddress over type LOGIN_ERROR', 'distinct', 'ipAddress', le)
    s.fact('distinct username over type LOGIN', 'distinct', 'username', F('type', '==', 'LOGIN'))
    s.fact('events at level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    s.fact('events at level WARN', 'count', flt=F('level', '==', 'WARN'))
    return s


# ======================================================================= 19 GitLab production_json.log
def gen_gitlab():
    rnd = random.Random(319)
    s = Sample('gitlab_production_json', 'GitLab 17 Rails production_json.log (Lograge JSON per request: method, path, controller, action, status, time, params, meta.*, db/redis/gitaly counters, duration_s)', 'production_json.log')
    people = [(12, 'alice'), (19, 'bob'), (23, 'carol'), (31, 'dmitri'), (44, 'erin'), (57, 'farid'), (61, 'grace'), (88, 'ci-bot')]
    ips = Pool(rnd, private_ips(rnd, 30, '10.30.1.') + public_ips(rnd, 12), 0.8)
    projects = ['platform/api', 'platform/web', 'platform/infra', 'data/pipelines', 'security/scanners']
    routes = [
        ('GET', '/{p}/-/merge_requests/{n}', 'Projects::MergeRequestsController', 'show', 'html', 'code_review_workflow', 0.35, 18),
        ('GET', '/{p}/-/merge_requests/{n}/diffs_batch.json', 'Projects::MergeRequests::DiffsController', 'diffs_batch', 'json', 'code_review_workflow', 0.25, 14),
        ('GET', '/{p}/-/pipelines/{n}', 'Projects::PipelinesController', 'show', 'html', 'continuous_integration', 0.3, 9),
        ('GET', '/{p}/-/jobs/{n}/trace.json', 'Projects::JobsController', 'trace', 'json', 'continuous_integration', 0.05, 12),
        ('GET', '/{p}/-/blob/main/{f}', 'Projects::BlobController', 'show', 'html', 'source_code_management', 0.2, 8),
        ('GET', '/{p}/-/tree/main', 'Projects::TreeController', 'show', 'html', 'source_code_management', 0.15, 5),
        ('GET', '/{p}/-/issues/{n}', 'Projects::IssuesController', 'show', 'html', 'team_planning', 0.3, 6),
        ('POST', '/{p}/-/merge_requests/{n}/discussions', 'Projects::DiscussionsController', 'create', 'json', 'code_review_workflow', 0.2, 3),
        ('GET', '/{p}.git/info/refs', 'Repositories::GitHttpController', 'info_refs', '*/*', 'source_code_management', 0.03, 10),
        ('POST', '/{p}.git/git-upload-pack', 'Repositories::GitHttpController', 'git_upload_pack', '*/*', 'source_code_management', 0.4, 6),
        ('GET', '/dashboard/merge_requests', 'Dashboard::MergeRequestsController', 'index', 'html', 'code_review_workflow', 0.4, 3),
        ('POST', '/users/sign_in', 'SessionsController', 'create', 'html', 'system_access', 0.12, 2),
        ('GET', '/-/manifest.json', 'PwaController', 'manifest', 'json', 'navigation', 0.005, 2),
        ('POST', '/api/graphql', 'GraphqlController', 'execute', 'json', 'not_owned', 0.08, 12)]
    files = ['README.md', 'src/server.go', 'app/models/user.rb', 'terraform/main.tf', 'Dockerfile', '.gitlab-ci.yml']
    for t in times(rnd, 820, 0, 3600):
        method, path, ctrl, action, fmt, cat, med, _ = wchoice(rnd, [(r, r[7]) for r in routes])
        p = rnd.choice(projects)
        n = rnd.randint(1, 4000)
        pth = path.replace('{p}', p).replace('{n}', str(n)).replace('{f}', rnd.choice(files))
        uid_, uname = rnd.choice(people) if rnd.random() < 0.92 else (None, None)
        dur = round(lognorm(rnd, med, 0.8), 5)
        st = wchoice(rnd, [(200, 88), (302, 3), (304, 2), (401, 1), (403, 1), (404, 3), (422, 1), (500, 1), (503, 0.3)])
        if method == 'POST' and ctrl == 'SessionsController':
            st = wchoice(rnd, [(302, 85), (200, 15)])
        if ctrl == 'Repositories::GitHttpController' and uid_ is None:
            st = 401
        exc = None
        if st == 500:
            exc = rnd.choice([('ActiveRecord::QueryCanceled', 'PG::QueryCanceled: ERROR:  canceling statement due to statement timeout\n', ['app/finders/merge_requests_finder.rb:212:in `by_source_branch\'', 'app/controllers/concerns/issuable_collections.rb:41:in `set_issuables_index\'', 'lib/gitlab/metrics/elasticsearch_rack_middleware.rb:16:in `call\'']),
                              ('GRPC::DeadlineExceeded', '4:Deadline Exceeded. debug_error_string:{UNKNOWN:Deadline Exceeded {grpc_status:4}}', ['lib/gitlab/gitaly_client.rb:237:in `execute\'', 'lib/gitlab/gitaly_client/commit_service.rb:481:in `find_commit\'', 'app/models/repository.rb:120:in `commit\''])])
            dur = round(dur + rnd.uniform(10, 60), 5)
        db = round(dur * rnd.uniform(0.1, 0.5), 5)
        view = round(dur * rnd.uniform(0.05, 0.3), 5) if fmt == 'html' else round(dur * 0.02, 5)
        cid = alnum(rnd, 26, '0123456789ABCDEFGHJKMNPQRSTVWXYZ')
        ip = ips.pick()
        params = [{'key': 'namespace_id', 'value': p.split('/')[0]}, {'key': 'project_id', 'value': p.split('/')[1]}] if '{p}' in path else []
        if ctrl == 'GraphqlController':
            params = [{'key': 'query', 'value': '[FILTERED]'}, {'key': 'operationName', 'value': rnd.choice(['getMergeRequestApprovals', 'getPipelineDetails', 'currentUser'])}, {'key': 'variables', 'value': '[FILTERED]'}]
        if '{n}' in path:
            params.append({'key': 'id', 'value': str(n)})
        if ctrl == 'SessionsController':
            params = [{'key': 'authenticity_token', 'value': '[FILTERED]'}, {'key': 'user', 'value': {'login': uname or 'unknown', 'password': '[FILTERED]', 'remember_me': '0'}}]
        o = {'method': method, 'path': pth, 'format': fmt, 'controller': ctrl, 'action': action, 'status': st, 'time': iso(t, 3), 'params': params,
             'correlation_id': cid, 'meta.caller_id': '%s#%s' % (ctrl, action), 'meta.feature_category': cat, 'meta.remote_ip': ip}
        if uname:
            o['meta.user'] = uname
            o['meta.user_id'] = uid_
        if ctrl.startswith('Projects') or ctrl.startswith('Repositories'):
            o['meta.project'] = p
            o['meta.root_namespace'] = p.split('/')[0]
        o['meta.client_id'] = 'user/%d' % uid_ if uid_ else 'ip/%s' % ip
        o['remote_ip'] = ip
        o['user_id'] = uid_
        o['username'] = uname
        o['ua'] = ua(rnd) if not ctrl.startswith('Repositories') else rnd.choice(['git/2.46.0', 'git/2.39.5', 'JGit/6.10.0.202406032230-r'])
        if st == 302:
            o['location'] = 'https://gitlab.example.com/' + rnd.choice(['users/sign_in', p])
        o['queue_duration_s'] = round(rnd.uniform(0.0005, 0.02), 6)
        o['request_urgency'] = 'default' if cat != 'continuous_integration' else 'low'
        o['target_duration_s'] = 1 if o['request_urgency'] == 'default' else 5
        if rnd.random() < 0.8:
            o['redis_calls'] = rnd.randint(1, 60)
            o['redis_duration_s'] = round(rnd.uniform(0.0005, 0.03), 6)
            o['redis_read_bytes'] = rnd.randint(100, 90000)
            o['redis_write_bytes'] = rnd.randint(50, 9000)
        if ctrl.startswith('Repositories') or action in ('show', 'diffs_batch'):
            o['gitaly_calls'] = rnd.randint(1, 30)
            o['gitaly_duration_s'] = round(dur * rnd.uniform(0.05, 0.4), 6)
        o['db_count'] = rnd.randint(3, 140)
        o['db_write_count'] = 0 if method == 'GET' else rnd.randint(1, 12)
        o['db_cached_count'] = rnd.randint(0, 40)
        o['db_replica_count'] = 0
        o['db_primary_count'] = o['db_count']
        o['db_main_count'] = o['db_count']
        o['db_ci_count'] = 0
        o['db_primary_duration_s'] = db
        o['cpu_s'] = round(dur * rnd.uniform(0.2, 0.7), 6)
        o['mem_objects'] = rnd.randint(10000, 900000)
        o['mem_bytes'] = rnd.randint(10 ** 6, 10 ** 8)
        o['mem_mallocs'] = rnd.randint(1000, 300000)
        o['mem_total_bytes'] = o['mem_bytes'] + o['mem_objects'] * 40
        o['pid'] = rnd.choice([2114, 2131, 2148, 2167])
        o['worker_id'] = 'puma_%d' % rnd.randint(0, 3)
        o['rate_limiting_gates'] = []
        if exc:
            o['exception.class'] = exc[0]
            o['exception.message'] = exc[1]
            o['exception.backtrace'] = exc[2]
        o['db_duration_s'] = db
        o['view_duration_s'] = view
        o['duration_s'] = dur
        s.ev(jdump(o), **o)
    s.field('time', 'time', None, 'time')
    s.field('method', 'text', None, 'method')
    s.field('path', 'text', None, 'path')
    s.field('controller', 'text', None, 'logger')
    s.field('action', 'text')
    s.field('status', 'number', None, 'status')
    s.field('remote_ip', 'ip', None, 'client')
    s.field('username', 'text', None, 'user')
    s.field('correlation_id', 'text')
    s.field('meta.feature_category', 'text')
    s.field('exception.class', 'text', None, 'exception')
    s.field('db_duration_s', 'number', 's')
    s.field('view_duration_s', 'number', 's')
    s.field('duration_s', 'number', 's', 'duration')
    s.fact('requests with status >= 500', 'count', flt=F('status', '>=', 500))
    s.fact('max duration_s', 'max', 'duration_s')
    s.fact('p95 (nearest-rank) duration_s', 'p95', 'duration_s')
    s.fact('distinct remote_ip', 'distinct', 'remote_ip')
    s.fact('requests with an exception.class', 'count', flt=F('exception.class', 'exists'))
    s.fact("requests with controller 'Projects::MergeRequestsController'", 'count', flt=F('controller', '==', 'Projects::MergeRequestsController'))
    return s


# ======================================================================= 20 Serilog compact JSON (CLEF)
NET_EXC = ("Npgsql.NpgsqlException (0x80004005): Exception while reading from stream\n ---> System.TimeoutException: Timeout during reading attempt\n"
           "   at Npgsql.Internal.NpgsqlReadBuffer.<Ensure>g__EnsureLong|55_0(NpgsqlReadBuffer buffer, Int32 count, Boolean async, Boolean readingNotifications)\n"
           "   at Npgsql.NpgsqlConnector.ReadMessageLong(Boolean async, DataRowLoadingMode dataRowLoadingMode, Boolean readingNotifications, Boolean isReadingPrependedMessage)\n"
           "   --- End of inner exception stack trace ---\n"
           "   at Npgsql.NpgsqlDataReader.NextResult(Boolean async, Boolean isConsuming, CancellationToken cancellationToken)\n"
           "   at Microsoft.EntityFrameworkCore.Storage.RelationalCommand.ExecuteReaderAsync(RelationalCommandParameterObject parameterObject, CancellationToken cancellationToken)\n"
           "   at Orders.Api.Data.OrderRepository.GetAsync(Int32 id, CancellationToken ct) in /src/Orders.Api/Data/OrderRepository.cs:line 41\n"
           "   at Orders.Api.Controllers.OrdersController.Get(Int32 id, CancellationToken ct) in /src/Orders.Api/Controllers/OrdersController.cs:line 28\n"
           "   at Microsoft.AspNetCore.Mvc.Infrastructure.ActionMethodExecutor.TaskOfIActionResultExecutor.Execute(ActionContext actionContext, IActionResultTypeMapper mapper, ObjectMethodExecutor executor, Object controller, Object[] arguments)\n"
           "   at Microsoft.AspNetCore.Routing.EndpointMiddleware.<Invoke>g__AwaitRequestTask|7_0(Endpoint endpoint, Task requestTask, ILogger logger)\n"
           "   at Serilog.AspNetCore.RequestLoggingMiddleware.Invoke(HttpContext httpContext)")


def gen_serilog():
    rnd = random.Random(320)
    s = Sample('serilog_clef', 'ASP.NET Core 8 with Serilog CompactJsonFormatter (CLEF: @t, @mt, @r, @l omitted for Information, @x, @tr/@sp) on stdout, UseSerilogRequestLogging', 'orders-api.clef')
    tl = TL()

    def add(t, mt, props, lvl=None, x=None, r=None, trace=False, **rec):
        o = {'@t': t.strftime('%Y-%m-%dT%H:%M:%S') + '.%06d%dZ' % (t.microsecond, rnd.randint(0, 9)), '@mt': mt}
        if r:
            o['@r'] = r
        if lvl:
            o['@l'] = lvl
        if x:
            o['@x'] = x
        if trace:
            o['@tr'] = hexs(rnd, 32)
            o['@sp'] = hexs(rnd, 16)
        o.update(props)
        rr = flatten(o)
        rr.update(rec)
        tl.add(t, jdump(o), **rr)

    t0 = at(0.2)
    add(t0, 'Storing keys in a directory \'{path}\' that may not be persisted outside of the container. Protected data will be unavailable when container is destroyed. For more information go to https://aka.ms/aspnet/dataprotectionwarning',
        {'path': '/root/.aspnet/DataProtection-Keys', 'EventId': {'Id': 60, 'Name': 'UsingEphemeralFileSystemLocationInContainer'}, 'SourceContext': 'Microsoft.AspNetCore.DataProtection.Repositories.FileSystemXmlRepository'}, lvl='Warning')
    add(t0 + timedelta(milliseconds=8), 'No XML encryptor configured. Key {KeyId:B} may be persisted to storage in unencrypted form.',
        {'KeyId': uid(rnd), 'EventId': {'Id': 35, 'Name': 'NoXMLEncryptorConfiguredKeyMayBePersistedToStorageInUnencryptedForm'}, 'SourceContext': 'Microsoft.AspNetCore.DataProtection.KeyManagement.XmlKeyManager'}, lvl='Warning')
    add(t0 + timedelta(milliseconds=40), 'Now listening on: {address}', {'address': 'http://[::]:8080', 'EventId': {'Id': 14, 'Name': 'ListeningOnAddress'}, 'SourceContext': 'Microsoft.Hosting.Lifetime'})
    add(t0 + timedelta(milliseconds=41), 'Application started. Press Ctrl+C to shut down.', {'SourceContext': 'Microsoft.Hosting.Lifetime'})
    add(t0 + timedelta(milliseconds=41), 'Hosting environment: {EnvName}', {'EnvName': 'Production', 'SourceContext': 'Microsoft.Hosting.Lifetime'})
    add(t0 + timedelta(milliseconds=42), 'Content root path: {ContentRoot}', {'ContentRoot': '/app', 'SourceContext': 'Microsoft.Hosting.Lifetime'})
    conn = '0HN6' + alnum(rnd, 9, string.ascii_uppercase + string.digits)
    db_bad = (2702.0, 2745.0)
    for t in times(rnd, 380, 1, 3598):
        sec = (t - BASE).total_seconds()
        method = wchoice(rnd, [('GET', 70), ('POST', 22), ('DELETE', 3), ('PUT', 5)])
        if rnd.random() < 0.12:
            path, method, st, el = '/healthz', 'GET', 200, round(lognorm(rnd, 0.4, 0.4), 4)
        else:
            path = {'GET': '/api/orders/%d' % rnd.randint(1, 99999), 'POST': '/api/orders', 'DELETE': '/api/orders/%d' % rnd.randint(1, 99999), 'PUT': '/api/orders/%d/status' % rnd.randint(1, 99999)}[method]
            st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'DELETE': 204, 'PUT': 204}[method], 90), (400, 3), (404, 5), (409, 1), (500, 1)])
            el = round(lognorm(rnd, 22, 0.8), 4)
        rid = '%s:%08X' % (conn, rnd.randint(1, 0xFFFF))
        common = {'RequestId': rid, 'RequestPath': path, 'ConnectionId': conn}
        exc = None
        if path != '/healthz':
            sql_ms = max(0, int(el * rnd.uniform(0.2, 0.7)))
            if db_bad[0] <= sec < db_bad[1] and rnd.random() < 0.6:
                st, el, exc = 500, round(30000 + rnd.uniform(5, 90), 4), NET_EXC
                add(t + timedelta(milliseconds=30000), 'Failed executing DbCommand ({elapsed}ms) [Parameters=[{parameters}], CommandType=\'{commandType}\', CommandTimeout=\'{commandTimeout}\']{newLine}{commandText}',
                    dict({'elapsed': '30,012', 'parameters': '@__id_0=\'?\' (DbType = Int32)', 'commandType': 'Text', 'commandTimeout': 30, 'newLine': '\n',
                          'commandText': 'SELECT o."Id", o."CustomerId", o."Status", o."Total" FROM "Orders" AS o WHERE o."Id" = @__id_0 LIMIT 1',
                          'EventId': {'Id': 20102, 'Name': 'Microsoft.EntityFrameworkCore.Database.Command.CommandError'}, 'SourceContext': 'Microsoft.EntityFrameworkCore.Database.Command'}, **common), lvl='Error', trace=True)
                add(t + timedelta(milliseconds=30001), 'An unhandled exception has occurred while executing the request.', dict({'EventId': {'Id': 1, 'Name': 'UnhandledException'}, 'SourceContext': 'Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddleware'}, **common), lvl='Error', x=exc, trace=True)
            else:
                if st == 500:
                    exc = 'System.InvalidOperationException: Sequence contains no elements\n   at System.Linq.ThrowHelper.ThrowNoElementsException()\n   at Orders.Api.Services.PricingService.Quote(Order order) in /src/Orders.Api/Services/PricingService.cs:line 57\n   at Orders.Api.Controllers.OrdersController.Post(CreateOrder cmd, CancellationToken ct) in /src/Orders.Api/Controllers/OrdersController.cs:line 44'
                    add(t + timedelta(milliseconds=el * 0.9), 'An unhandled exception has occurred while executing the request.', dict({'EventId': {'Id': 1, 'Name': 'UnhandledException'}, 'SourceContext': 'Microsoft.AspNetCore.Diagnostics.ExceptionHandlerMiddleware'}, **common), lvl='Error', x=exc, trace=True)
                elif rnd.random() < 0.25:
                    add(t + timedelta(milliseconds=el * 0.5), 'Executed DbCommand ({elapsed}ms) [Parameters=[{parameters}], CommandType=\'{commandType}\', CommandTimeout=\'{commandTimeout}\']{newLine}{commandText}',
                        dict({'elapsed': str(sql_ms), 'parameters': '@__id_0=\'?\' (DbType = Int32)', 'commandType': 'Text', 'commandTimeout': 30, 'newLine': '\n',
                              'commandText': 'SELECT o."Id", o."CustomerId", o."Status", o."Total" FROM "Orders" AS o WHERE o."Id" = @__id_0 LIMIT 1',
                              'EventId': {'Id': 20101, 'Name': 'Microsoft.EntityFrameworkCore.Database.Command.CommandExecuted'}, 'SourceContext': 'Microsoft.EntityFrameworkCore.Database.Command'}, **common), trace=True)
                if method == 'POST' and st == 201:
                    add(t + timedelta(milliseconds=el * 0.7), 'Start processing HTTP request {HttpMethod} {Uri}', dict({'HttpMethod': 'POST', 'Uri': 'http://payments:8080/v1/charges', 'EventId': {'Id': 100, 'Name': 'RequestPipelineStart'}, 'SourceContext': 'System.Net.Http.HttpClient.payments.LogicalHandler'}, **common), trace=True)
                    add(t + timedelta(milliseconds=el * 0.95), 'End processing HTTP request after {ElapsedMilliseconds}ms - {StatusCode}', dict({'ElapsedMilliseconds': round(el * 0.25, 4), 'StatusCode': 200, 'EventId': {'Id': 101, 'Name': 'RequestPipelineEnd'}, 'SourceContext': 'System.Net.Http.HttpClient.payments.LogicalHandler'}, **common), trace=True)
                    add(t + timedelta(milliseconds=el * 0.96), 'Order {OrderId} created for customer {CustomerId} with total {Total:C}', dict({'OrderId': rnd.randint(500000, 599999), 'CustomerId': rnd.randint(1, 9999), 'Total': round(rnd.uniform(5, 400), 2), 'SourceContext': 'Orders.Api.Controllers.OrdersController'}, **common), r=None, trace=True)
                if st == 409:
                    add(t + timedelta(milliseconds=el * 0.9), 'Concurrency conflict updating order {OrderId}', dict({'OrderId': rnd.randint(500000, 599999), 'SourceContext': 'Orders.Api.Controllers.OrdersController'}, **common), lvl='Warning', trace=True)
        lvl = 'Error' if st >= 500 else None
        add(t + timedelta(milliseconds=el), 'HTTP {RequestMethod} {RequestPath} responded {StatusCode} in {Elapsed:0.0000} ms', dict({'RequestMethod': method, 'StatusCode': st, 'Elapsed': el, 'SourceContext': 'Serilog.AspNetCore.RequestLoggingMiddleware'}, **common),
            lvl=lvl, x=exc, r=['%.4f' % el], trace=True)
    for t in times(rnd, 12, 100, 3500):
        add(t, 'Outbox dispatcher published {Count} messages in {ElapsedMs} ms', {'Count': rnd.randint(1, 200), 'ElapsedMs': rnd.randint(3, 900), 'SourceContext': 'Orders.Api.Messaging.OutboxDispatcher'})
    add(at(1500.0), 'Heartbeat to {Endpoint} failed, will retry in {Delay}', {'Endpoint': 'amqp://rabbitmq:5672', 'Delay': '00:00:05', 'SourceContext': 'Orders.Api.Messaging.BusHealth'}, lvl='Warning')
    tl.flush(s)
    s.field('@t', 'time', None, 'time')
    s.field('@l', 'text', None, 'level')
    s.field('@mt', 'text', None, 'message')
    s.field('@x', 'text', None, 'exception')
    s.field('SourceContext', 'text', None, 'logger')
    s.field('RequestMethod', 'text', None, 'method')
    s.field('RequestPath', 'text', None, 'path')
    s.field('StatusCode', 'number', None, 'status')
    s.field('Elapsed', 'number', 'ms', 'duration')
    s.field('RequestId', 'text')
    s.field('@tr', 'text')
    rq = F('SourceContext', '==', 'Serilog.AspNetCore.RequestLoggingMiddleware')
    s.fact("events with @l 'Error'", 'count', flt=F('@l', '==', 'Error'))
    s.fact('events without @l (level Information)', 'count', flt=F('@l', 'not_exists'))
    s.fact('request events with StatusCode >= 500', 'count', flt={'all': [rq, F('StatusCode', '>=', 500)]})
    s.fact('max Elapsed (ms) over request events', 'max', 'Elapsed', rq)
    s.fact('p95 (nearest-rank) Elapsed in ms over request events', 'p95', 'Elapsed', rq)
    s.fact('distinct SourceContext', 'distinct', 'SourceContext')
    return s


# ======================================================================= 21 Spring Boot + logstash-logback-encoder
SPRING_BANNER = r'''
  .   ____          _            __ _ _
 /\\ / ___'_ __ _ _(_)_ __  __ _ \ \ \ \
( ( )\___ | '_ | '_| | '_ \/ _` | \ \ \ \
 \\/  ___)| |_)| | | | | || (_| |  ) ) ) )
  '  |____| .__|_| |_|_| |_\__, | / / / /
 =========|_|==============|___/=/_/_/_/

 :: Spring Boot ::                (v3.3.4)
'''
SPRING_TRACE = java_trace('org.springframework.dao.DataAccessResourceFailureException: Unable to acquire JDBC Connection [HikariPool-1 - Connection is not available, request timed out after 30000ms (total=10, active=10, idle=0, waiting=23)] [n/a]', [
    'org.springframework.orm.jpa.vendor.HibernateJpaDialect.convertHibernateAccessException(HibernateJpaDialect.java:277)',
    'org.springframework.orm.jpa.vendor.HibernateJpaDialect.translateExceptionIfPossible(HibernateJpaDialect.java:241)',
    'org.springframework.dao.support.PersistenceExceptionTranslationInterceptor.invoke(PersistenceExceptionTranslationInterceptor.java:138)',
    'jdk.proxy2/jdk.proxy2.$Proxy142.findByCustomerId(Unknown Source)',
    'com.example.orders.service.OrderService.listForCustomer(OrderService.java:64)',
    'com.example.orders.web.OrderController.list(OrderController.java:41)',
    'java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
    'org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:885)',
    'org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run(TaskThread.java:61)',
    'java.base/java.lang.Thread.run(Thread.java:1583)'],
    caused=('java.sql.SQLTransientConnectionException: HikariPool-1 - Connection is not available, request timed out after 30000ms (total=10, active=10, idle=0, waiting=23)', [
        'com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)',
        'com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)',
        'com.zaxxer.hikari.HikariDataSource.getConnection(HikariDataSource.java:128)'], 41)) + '\n'


def java_iso(t):
    """ISO_OFFSET_DATE_TIME of a UTC instant with microseconds: trailing zeros dropped."""
    frac = ('%06d' % t.microsecond).rstrip('0')
    return t.strftime('%Y-%m-%dT%H:%M:%S') + ('.' + frac if frac else '') + 'Z'


def gen_springboot():
    rnd = random.Random(321)
    s = Sample('spring_logstash_json', 'Spring Boot 3.3 with logstash-logback-encoder LogstashEncoder on stdout (@timestamp, @version, message, logger_name, thread_name, level, level_value, stack_trace, MDC, kv arguments), banner first', 'orders-service.json.log')
    for ln in SPRING_BANNER.split('\n'):
        s.raw(ln)
    tl = TL()
    lv = {'TRACE': 5000, 'DEBUG': 10000, 'INFO': 20000, 'WARN': 30000, 'ERROR': 40000}

    def add(t, lvl, logger, thread, msg, stack=None, mdc=None, kv=None):
        o = {'@timestamp': java_iso(t), '@version': '1', 'message': msg, 'logger_name': logger, 'thread_name': thread, 'level': lvl, 'level_value': lv[lvl]}
        if stack:
            o['stack_trace'] = stack
        if mdc:
            o.update(mdc)
        if kv:
            o.update(kv)
        tl.add(t, jdump(o), **o)

    t0 = at(1.1)
    boot = [('INFO', 'com.example.orders.OrdersServiceApplication', 'main', 'Starting OrdersServiceApplication v2.14.0 using Java 21.0.4 with PID 1 (/app/app.jar started by app in /app)'),
            ('INFO', 'com.example.orders.OrdersServiceApplication', 'main', 'The following 1 profile is active: "prod"'),
            ('INFO', 'org.springframework.data.repository.config.RepositoryConfigurationDelegate', 'main', 'Bootstrapping Spring Data JPA repositories in DEFAULT mode.'),
            ('INFO', 'org.springframework.data.repository.config.RepositoryConfigurationDelegate', 'main', 'Finished Spring Data repository scanning in 112 ms. Found 6 JPA repository interfaces.'),
            ('INFO', 'org.springframework.boot.web.embedded.tomcat.TomcatWebServer', 'main', 'Tomcat initialized with port 8080 (http)'),
            ('INFO', 'org.apache.catalina.core.StandardService', 'main', 'Starting service [Tomcat]'),
            ('INFO', 'org.apache.catalina.core.StandardEngine', 'main', 'Starting Servlet engine: [Apache Tomcat/10.1.30]'),
            ('INFO', 'org.apache.catalina.core.ContainerBase.[Tomcat].[localhost].[/]', 'main', 'Initializing Spring embedded WebApplicationContext'),
            ('INFO', 'org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext', 'main', 'Root WebApplicationContext: initialization completed in 2291 ms'),
            ('INFO', 'org.hibernate.jpa.internal.util.LogHelper', 'main', 'HHH000204: Processing PersistenceUnitInfo [name: default]'),
            ('INFO', 'org.hibernate.Version', 'main', 'HHH000412: Hibernate ORM core version 6.5.3.Final'),
            ('INFO', 'com.zaxxer.hikari.HikariDataSource', 'main', 'HikariPool-1 - Starting...'),
            ('INFO', 'com.zaxxer.hikari.pool.HikariPool', 'main', 'HikariPool-1 - Added connection org.postgresql.jdbc.PgConnection@6b5f8707'),
            ('INFO', 'com.zaxxer.hikari.HikariDataSource', 'main', 'HikariPool-1 - Start completed.'),
            ('WARN', 'org.springframework.boot.autoconfigure.orm.jpa.JpaBaseConfiguration$JpaWebConfiguration', 'main', 'spring.jpa.open-in-view is enabled by default. Therefore, database queries may be performed during view rendering. Explicitly configure spring.jpa.open-in-view to disable this warning'),
            ('INFO', 'org.springframework.boot.actuate.endpoint.web.EndpointLinksResolver', 'main', "Exposing 3 endpoints beneath base path '/actuator'"),
            ('INFO', 'org.springframework.boot.web.embedded.tomcat.TomcatWebServer', 'main', "Tomcat started on port 8080 (http) with context path '/'"),
            ('INFO', 'com.example.orders.OrdersServiceApplication', 'main', 'Started OrdersServiceApplication in 7.412 seconds (process running for 8.106)')]
    for i, (lvl, lg, th, m) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 310 + rnd.randint(0, 200)), lvl, lg, th, m)
    add(t0 + timedelta(seconds=7.5), 'INFO', 'org.apache.catalina.core.ContainerBase.[Tomcat].[localhost].[/]', 'http-nio-8080-exec-1', "Initializing Spring DispatcherServlet 'dispatcherServlet'")
    pool_bad = (1630.0, 1700.0)
    ips = Pool(rnd, private_ips(rnd, 25, '10.244.1.'), 0.8)
    for t in times(rnd, 520, 10, 3598):
        sec = (t - BASE).total_seconds()
        th = 'http-nio-8080-exec-%d' % rnd.randint(1, 200)
        trace = {'traceId': hexs(rnd, 32), 'spanId': hexs(rnd, 16)}
        method = wchoice(rnd, [('GET', 70), ('POST', 25), ('PATCH', 5)])
        uri = {'GET': rnd.choice(['/api/orders/%d' % rnd.randint(1, 99999), '/api/orders?customerId=%d' % rnd.randint(1, 9999)]), 'POST': '/api/orders', 'PATCH': '/api/orders/%d' % rnd.randint(1, 99999)}[method]
        st = wchoice(rnd, [({'GET': 200, 'POST': 201, 'PATCH': 200}[method], 92), (400, 3), (404, 4), (500, 1)])
        dur = int(lognorm(rnd, 18, 0.8))
        stack = None
        if pool_bad[0] <= sec < pool_bad[1] and method == 'GET':
            st, dur = 500, 30000 + rnd.randint(0, 40)
        if st == 500:
            stack = SPRING_TRACE
            if dur >= 30000:
                add(t + timedelta(milliseconds=dur - 2), 'WARN', 'org.hibernate.engine.jdbc.spi.SqlExceptionHelper', th, 'SQL Error: 0, SQLState: null', mdc=trace)
                add(t + timedelta(milliseconds=dur - 1), 'ERROR', 'org.hibernate.engine.jdbc.spi.SqlExceptionHelper', th, 'HikariPool-1 - Connection is not available, request timed out after 30000ms (total=10, active=10, idle=0, waiting=23)', mdc=trace)
            add(t + timedelta(milliseconds=dur), 'ERROR', 'org.apache.catalina.core.ContainerBase.[Tomcat].[localhost].[/].[dispatcherServlet]', th,
                'Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed: org.springframework.dao.DataAccessResourceFailureException: Unable to acquire JDBC Connection [HikariPool-1 - Connection is not available, request timed out after 30000ms (total=10, active=10, idle=0, waiting=23)] [n/a]] with root cause',
                stack=SPRING_TRACE, mdc=trace)
        elif st == 400:
            add(t + timedelta(milliseconds=dur - 1), 'WARN', 'org.springframework.web.servlet.mvc.support.DefaultHandlerExceptionResolver', th,
                "Resolved [org.springframework.web.bind.MethodArgumentNotValidException: Validation failed for argument [0] in public org.springframework.http.ResponseEntity<com.example.orders.web.OrderDto> com.example.orders.web.OrderController.create(com.example.orders.web.CreateOrderRequest): [Field error in object 'createOrderRequest' on field 'quantity': rejected value [0]; codes [Min.createOrderRequest.quantity,Min.quantity,Min.int,Min]; default message [must be greater than or equal to 1]] ]", mdc=trace)
        elif method == 'POST' and rnd.random() < 0.5:
            add(t + timedelta(milliseconds=dur - 2), 'INFO', 'com.example.orders.service.OrderService', th, 'Order created', mdc=trace, kv={'orderId': rnd.randint(500000, 599999), 'customerId': rnd.randint(1, 9999)})
        add(t + timedelta(milliseconds=dur), 'INFO', 'com.example.orders.web.RequestLoggingFilter', th, '%s %s %d %dms' % (method, uri, st, dur), mdc=trace,
            kv={'http_method': method, 'uri': uri, 'status': st, 'duration_ms': dur, 'client_ip': ips.pick()})
    add(at(1625.3), 'WARN', 'com.zaxxer.hikari.pool.HikariPool', 'HikariPool-1 housekeeper', 'HikariPool-1 - Thread starvation or clock leap detected (housekeeper delta=1m4s205ms).')
    for k in range(1, 12):
        t = at(k * 300 + 0.02)
        add(t, 'INFO', 'com.example.orders.jobs.ReconcileJob', 'scheduling-1', 'Reconciled %d orders in %d ms' % (rnd.randint(0, 60), rnd.randint(40, 900)))
    tl.flush(s)
    s.field('@timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('logger_name', 'text', None, 'logger')
    s.field('thread_name', 'text', None, 'thread')
    s.field('message', 'text', None, 'message')
    s.field('stack_trace', 'text', None, 'exception')
    s.field('traceId', 'text')
    s.field('http_method', 'text', None, 'method')
    s.field('uri', 'text', None, 'path')
    s.field('status', 'number', None, 'status')
    s.field('duration_ms', 'number', 'ms', 'duration')
    s.field('client_ip', 'ip', None, 'client')
    rq = F('duration_ms', 'exists')
    s.fact('events at level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    s.fact('events with a stack_trace', 'count', flt=F('stack_trace', 'exists'))
    s.fact('request log events with status >= 500', 'count', flt=F('status', '>=', 500))
    s.fact('max duration_ms over request log events', 'max', 'duration_ms', rq)
    s.fact('p95 (nearest-rank) duration_ms over request log events', 'p95', 'duration_ms', rq)
    s.fact('distinct client_ip', 'distinct', 'client_ip')
    return s


# ======================================================================= 22 Apache Spark driver log
SPARK_OOM = java_trace('java.lang.OutOfMemoryError: Java heap space', [
    'java.base/java.util.Arrays.copyOf(Arrays.java:3537)',
    'java.base/java.io.ByteArrayOutputStream.ensureCapacity(ByteArrayOutputStream.java:100)',
    'org.apache.spark.sql.catalyst.expressions.UnsafeRow.copy(UnsafeRow.java:473)',
    'org.apache.spark.sql.execution.joins.UnsafeHashedRelation$.apply(HashedRelation.scala:470)',
    'org.apache.spark.sql.execution.SparkPlan.$anonfun$execute$1(SparkPlan.scala:195)',
    'org.apache.spark.scheduler.ResultTask.runTask(ResultTask.scala:93)',
    'org.apache.spark.scheduler.Task.run(Task.scala:141)',
    'org.apache.spark.executor.Executor$TaskRunner.run(Executor.scala:620)',
    'java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
    'java.base/java.lang.Thread.run(Thread.java:840)'])
SPARK_FNF = java_trace('org.apache.spark.SparkFileNotFoundException: File does not exist: s3a://shop-lake/raw/orders/dt=2031-09-15/part-00017-4c1b.c000.snappy.parquet', [
    'org.apache.spark.sql.errors.QueryExecutionErrors$.fileNotExistError(QueryExecutionErrors.scala:781)',
    'org.apache.spark.sql.execution.datasources.FileScanRDD$$anon$1.org$apache$spark$sql$execution$datasources$FileScanRDD$$anon$$readCurrentFile(FileScanRDD.scala:129)',
    'org.apache.spark.sql.execution.datasources.FileScanRDD$$anon$1.nextIterator(FileScanRDD.scala:209)',
    'org.apache.spark.scheduler.ShuffleMapTask.runTask(ShuffleMapTask.scala:104)',
    'org.apache.spark.scheduler.Task.run(Task.scala:141)',
    'java.base/java.lang.Thread.run(Thread.java:840)'])


def gen_spark():
    rnd = random.Random(322)
    s = Sample('spark_driver', 'Apache Spark 3.5 driver log on YARN (log4j2 default "%d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n%ex"), task/stage progress, executor loss, stack traces', 'spark-driver.log')
    tl = TL()

    def add(t, lvl, logger, msg, **rec):
        ts = t.strftime('%y/%m/%d %H:%M:%S')
        tl.add(t, '%s %s %s: %s' % (ts, lvl, logger, msg), timestamp=ts, level=lvl, logger=logger, message=msg.split('\n')[0], **rec)

    t0 = at(0.3)
    boot = [('INFO', 'SparkContext', 'Running Spark version 3.5.2'), ('INFO', 'SparkContext', 'OS info Linux, 6.1.0-25-amd64, amd64'), ('INFO', 'SparkContext', 'Java version 17.0.12'),
            ('WARN', 'NativeCodeLoader', 'Unable to load native-hadoop library for your platform... using builtin-java classes where applicable'),
            ('INFO', 'ResourceUtils', '=============================================================='), ('INFO', 'ResourceUtils', 'No custom resources configured for spark.driver.'),
            ('INFO', 'ResourceUtils', '=============================================================='), ('INFO', 'SparkContext', 'Submitted application: daily-orders-etl'),
            ('INFO', 'ResourceProfile', 'Default ResourceProfile created, executor resources: Map(cores -> name: cores, amount: 4, script: , vendor: , memory -> name: memory, amount: 8192, script: , vendor: , offHeap -> name: offHeap, amount: 0, script: , vendor: ), task resources: Map(cpus -> name: cpus, amount: 1.0)'),
            ('INFO', 'SecurityManager', 'Changing view acls to: spark'), ('INFO', 'SecurityManager', 'Changing modify acls to: spark'),
            ('INFO', 'Utils', "Successfully started service 'sparkDriver' on port 40127."), ('INFO', 'SparkEnv', 'Registering MapOutputTracker'),
            ('INFO', 'SparkEnv', 'Registering BlockManagerMaster'), ('INFO', 'DiskBlockManager', 'Created local directory at /tmp/blockmgr-%s' % uid(rnd)),
            ('INFO', 'MemoryStore', 'MemoryStore started with capacity 2004.6 MiB'), ('INFO', 'Utils', "Successfully started service 'SparkUI' on port 4040."),
            ('INFO', 'DefaultNoHARMFailoverProxyProvider', 'Connecting to ResourceManager at rm.hadoop.internal/10.0.8.5:8032'),
            ('INFO', 'Client', 'Requesting a new application from cluster with 6 NodeManagers'),
            ('INFO', 'Client', 'Submitting application application_1789430400123_0417 to ResourceManager'),
            ('INFO', 'YarnClientImpl', 'Submitted application application_1789430400123_0417'),
            ('INFO', 'Client', 'Application report for application_1789430400123_0417 (state: ACCEPTED)'),
            ('INFO', 'Client', 'Application report for application_1789430400123_0417 (state: RUNNING)'),
            ('INFO', 'YarnClientSchedulerBackend', 'Application application_1789430400123_0417 has started running.')]
    for i, (lvl, lg, m) in enumerate(boot):
        add(t0 + timedelta(milliseconds=i * 180), lvl, lg, m)
    hosts = ['10.0.8.%d' % i for i in (21, 22, 23, 24, 25, 26)]
    execs = {}
    for e in range(1, 7):
        h = hosts[e - 1]
        execs[e] = h
        add(at(6 + e * 0.4), 'INFO', 'YarnSchedulerBackend$YarnDriverEndpoint', 'Registered executor NettyRpcEndpointRef(spark-client://Executor) (%s:%d) with ID %d,  ResourceProfileId 0' % (h, rnd.randint(40000, 60000), e))
        add(at(6 + e * 0.4 + 0.05), 'INFO', 'BlockManagerMasterEndpoint', 'Registering block manager %s:%d with 4.1 GiB RAM, BlockManagerId(%d, %s, %d, None)' % (h, rnd.randint(40000, 60000), e, h, rnd.randint(40000, 60000)))
    tcur = 12.0
    tid_n = 0
    stage = 0
    lost_exec_at = 520.0
    lost_done = False
    next_exec = 7
    for job, (site, nstages) in enumerate([('load at EtlJob.scala:44', 2), ('save at EtlJob.scala:88', 3), ('count at EtlJob.scala:97', 1), ('save at EtlJob.scala:131', 2)]):
        t = at(tcur)
        add(t, 'INFO', 'SparkContext', 'Starting job: %s' % site)
        add(t, 'INFO', 'DAGScheduler', 'Got job %d (%s) with %d output partitions' % (job, site, 40))
        add(t, 'INFO', 'DAGScheduler', 'Final stage: ResultStage %d (%s)' % (stage + nstages - 1, site))
        jstart = t
        for si in range(nstages):
            kind = 'ShuffleMapStage' if si < nstages - 1 else 'ResultStage'
            ntask = rnd.choice([40, 60, 80])
            rdd = rnd.randint(10, 90)
            add(t, 'INFO', 'DAGScheduler', 'Submitting %d missing tasks from %s %d (MapPartitionsRDD[%d] at %s) (first 15 tasks are for partitions Vector(%s))' % (ntask, kind, stage, rdd, site, ', '.join(str(i) for i in range(15))))
            add(t, 'INFO', 'YarnScheduler', 'Adding task set %d.0 with %d tasks resource profile 0' % (stage, ntask))
            sstart = t
            slots = [t] * 12
            done = 0
            pending = list(range(ntask))
            attempt = {}
            while pending:
                part = pending.pop(0)
                k = min(range(12), key=lambda i: (slots[i], i))
                ts_ = slots[k] + timedelta(milliseconds=rnd.randint(1, 15))
                alive = sorted(execs)
                e = alive[k % len(alive)]
                tid_n += 1
                a = attempt.get(part, 0)
                add(ts_, 'INFO', 'TaskSetManager', 'Starting task %d.%d in stage %d.0 (TID %d) (%s, executor %d, partition %d, %s, %d bytes) ' % (part, a, stage, tid_n, execs[e], e, part, rnd.choice(['PROCESS_LOCAL', 'NODE_LOCAL', 'RACK_LOCAL']), rnd.randint(7000, 12000)), executor=e)
                ms = int(lognorm(rnd, 14000, 0.5))
                te = ts_ + timedelta(milliseconds=ms)
                if not lost_done and (te - BASE).total_seconds() >= lost_exec_at and e in execs and len(execs) > 3:
                    lost_done = True
                    h = execs.pop(e)
                    yd = (te - timedelta(milliseconds=40)).strftime('%Y-%m-%d %H:%M:%S') + '.%03d' % rnd.randint(0, 999)
                    add(te, 'ERROR', 'YarnScheduler', 'Lost executor %d on %s: Container from a bad node: container_1789430400123_0417_01_00000%d on host: %s. Exit status: 137. Diagnostics: [%s]Container killed on request. Exit code is 137\n[%s]Container exited with a non-zero exit code 137. \n[%s]Killed by external signal\n.' % (e, h, e + 1, h, yd, yd, yd), executor=e)
                    add(te + timedelta(milliseconds=5), 'WARN', 'TaskSetManager', 'Lost task %d.%d in stage %d.0 (TID %d) (%s executor %d): ExecutorLostFailure (executor %d exited caused by one of the running tasks) Reason: Container from a bad node: container_1789430400123_0417_01_00000%d on host: %s. Exit status: 137.' % (part, a, stage, tid_n, h, e, e, e + 1, h), executor=e)
                    add(te + timedelta(milliseconds=9), 'INFO', 'DAGScheduler', 'Executor lost: %d (epoch %d)' % (e, 3))
                    add(te + timedelta(milliseconds=12), 'INFO', 'BlockManagerMasterEndpoint', 'Trying to remove executor %d from BlockManagerMaster.' % e)
                    add(te + timedelta(milliseconds=14), 'WARN', 'BlockManagerMasterEndpoint', 'No more replicas available for rdd_%d_%d !' % (rdd, part))
                    add(te + timedelta(seconds=4), 'INFO', 'YarnSchedulerBackend$YarnDriverEndpoint', 'Registered executor NettyRpcEndpointRef(spark-client://Executor) (%s:%d) with ID %d,  ResourceProfileId 0' % (hosts[0], rnd.randint(40000, 60000), next_exec))
                    execs[next_exec] = hosts[0]
                    next_exec += 1
                    attempt[part] = a + 1
                    pending.append(part)
                    slots[k] = te + timedelta(seconds=4)
                    continue
                r = rnd.random()
                if r < 0.012 and a == 0:
                    add(te, 'WARN', 'TaskSetManager', 'Lost task %d.%d in stage %d.0 (TID %d) (%s executor %d): %s' % (part, a, stage, tid_n, execs[e], e, SPARK_OOM), executor=e)
                    attempt[part] = a + 1
                    pending.append(part)
                elif r < 0.02 and a == 0 and job == 0:
                    add(te, 'WARN', 'TaskSetManager', 'Lost task %d.%d in stage %d.0 (TID %d) (%s executor %d): %s' % (part, a, stage, tid_n, execs[e], e, SPARK_FNF), executor=e)
                    attempt[part] = a + 1
                    pending.append(part)
                else:
                    done += 1
                    add(te, 'INFO', 'TaskSetManager', 'Finished task %d.%d in stage %d.0 (TID %d) in %d ms on %s (executor %d) (%d/%d)' % (part, a, stage, tid_n, ms, execs[e], e, done, ntask), executor=e, task_ms=ms)
                slots[k] = te
            tend = max(slots)
            add(tend, 'INFO', 'YarnScheduler', 'Removed TaskSet %d.0, whose tasks have all completed, from pool ' % stage)
            add(tend, 'INFO', 'DAGScheduler', '%s %d (%s) finished in %.3f s' % (kind, stage, site, (tend - sstart).total_seconds()))
            if kind == 'ShuffleMapStage':
                add(tend, 'INFO', 'DAGScheduler', 'looking for newly runnable stages')
            t = tend + timedelta(milliseconds=rnd.randint(20, 200))
            stage += 1
        add(t, 'INFO', 'DAGScheduler', 'Job %d is finished. Cancelling potential speculative or zombie tasks for this job' % job)
        add(t, 'INFO', 'DAGScheduler', 'Job %d finished: %s, took %.6f s' % (job, site, (t - jstart).total_seconds()))
        for b in range(rnd.randint(2, 4)):
            add(t + timedelta(milliseconds=300 + b), 'INFO', 'BlockManagerInfo', 'Removed broadcast_%d_piece0 on %s:%d in memory (size: %.1f KiB, free: 4.1 GiB)' % (job * 4 + b, rnd.choice(hosts), rnd.randint(40000, 60000), rnd.uniform(5, 60)))
        tcur = (t - BASE).total_seconds() + rnd.uniform(20, 200)
    tfin = at(tcur)
    add(tfin, 'INFO', 'SparkContext', 'SparkContext is stopping with exitCode 0.')
    add(tfin, 'INFO', 'SparkUI', 'Stopped Spark web UI at http://10.0.8.4:4040')
    add(tfin + timedelta(milliseconds=100), 'INFO', 'YarnClientSchedulerBackend', 'Shutting down all executors')
    add(tfin + timedelta(milliseconds=400), 'INFO', 'SparkContext', 'Successfully stopped SparkContext')
    add(tfin + timedelta(milliseconds=410), 'INFO', 'ShutdownHookManager', 'Shutdown hook called')
    tl.flush(s)
    s.field('timestamp', 'time', None, 'time')
    s.field('level', 'text', None, 'level')
    s.field('logger', 'text', None, 'logger')
    s.field('message', 'text', None, 'message')
    fin = F('message', 'startswith', 'Finished task ')
    s.fact("'Finished task' events", 'count', flt=fin)
    s.fact("max task time in ms over 'Finished task ... in N ms' events", 'max', flt=fin, key=lambda e: e['task_ms'])
    s.fact("p95 (nearest-rank) task time in ms over 'Finished task ... in N ms' events", 'p95', flt=fin, key=lambda e: e['task_ms'])
    s.fact("'Lost task' events", 'count', flt=F('message', 'startswith', 'Lost task '))
    s.fact('events at level WARN', 'count', flt=F('level', '==', 'WARN'))
    s.fact('events at level ERROR', 'count', flt=F('level', '==', 'ERROR'))
    return s


# ======================================================================= main
GENERATORS = [gen_apache_error, gen_iis, gen_istio, gen_squid, gen_cassandra, gen_etcd, gen_celery, gen_mosquitto, gen_nats, gen_klog, gen_k8s_events,
              gen_fluentbit, gen_coredns, gen_bind, gen_openvpn, gen_fail2ban, gen_wincsv, gen_keycloak, gen_gitlab, gen_serilog, gen_springboot, gen_spark]


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
