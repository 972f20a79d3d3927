"""Independent truth parsers for gen_app samples."""
import re
from datetime import datetime

from common import fact, flt, iso_naive, read_lines, top, write_truth

REQ = re.compile(r'^\[(\d{2}/[A-Z][a-z]{2}/\d{4} \d{2}:\d{2}:\d{2})\] "(\S+) (\S+) (\S+)" (\d{3}) (\d+)$')


def django():
    name = "django_runserver.log"
    lines = read_lines(name)
    events, reqs = 0, []
    in_tb = False
    for l in lines:
        if l.strip() == "":
            continue
        if l.startswith("Internal Server Error: "):
            events += 1
            in_tb = True
            continue
        if in_tb:
            # traceback body: the "Traceback" line, indented lines, and the final exception line
            if l.startswith("Traceback ") or l.startswith(" "):
                continue
            in_tb = False
            continue  # the exception line closes the traceback (still the same event)
        events += 1
        m = REQ.match(l)
        if m:
            reqs.append(m.groups())
    st = [int(r[4]) for r in reqs]
    first500 = min(datetime.strptime(r[0], "%d/%b/%Y %H:%M:%S") for r in reqs if r[4] == "500")
    write_truth(name, "Django development server (runserver console)", events,
                "blank lines are not events; 'Internal Server Error: <path>' plus its Python traceback (through the final "
                "exception line) is ONE event; every other non-blank line (request lines, 'Not Found:'/'Bad Request:' "
                "lines, startup banner lines, reload notices, broken-pipe notices) is one event", [
        fact("request lines with status >= 500", "status", "status", "count", sum(1 for s in st if s >= 500),
             flt("status", "status", ">=", 500)),
        fact("request lines with status 404", "status", "status", "count", sum(1 for s in st if s == 404),
             flt("status", "status", "==", 404)),
        fact("largest response size on request lines", "size", "bytes", "max", max(int(r[5]) for r in reqs), unit="bytes"),
        fact("most requested path (query string included as written)", "path", "path", "top", top(r[2] for r in reqs)),
        fact("first request answered 500 (local time, no zone)", "time", "time", "first_time", iso_naive(first500),
             flt("status", "status", "==", 500)),
        fact("POST requests", "method", "method", "count", sum(1 for r in reqs if r[1] == "POST"),
             flt("method", "method", "==", "POST")),
    ])


LV = re.compile(r"^\[(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\] (\w+)\.([A-Z]+): (.*)$")


def laravel():
    name = "laravel.log"
    ev = []
    for l in read_lines(name):
        m = LV.match(l)
        if m:
            ev.append(m.groups())
        else:
            assert ev, l
    uids = [int(m.group(1)) for e in ev for m in [re.search(r'"user_id":(\d+)', e[3])] if m]
    first_err = min(datetime.strptime(e[0], "%Y-%m-%d %H:%M:%S") for e in ev if e[2] == "ERROR")
    write_truth(name, "Laravel (storage/logs/laravel.log, Monolog line format)", len(ev),
                "a line starting with '[yyyy-mm-dd HH:MM:SS] channel.LEVEL:' starts an event; the inline exception "
                "text, [stacktrace] frames and the closing '\"}' line belong to it", [
        fact("ERROR entries", "level", "level", "count", sum(1 for e in ev if e[2] == "ERROR"), flt("level", "level", "==", "ERROR")),
        fact("WARNING entries", "level", "level", "count", sum(1 for e in ev if e[2] == "WARNING"), flt("level", "level", "==", "WARNING")),
        fact("distinct user_id values in the context JSON (key user_id only, not userId)", "user_id", "user",
             "count_distinct", len(set(uids))),
        fact("most frequent user_id in the context JSON", "user_id", "user", "top", top(uids)),
        fact("first ERROR (local time, no zone)", "time", "time", "first_time", iso_naive(first_err), flt("level", "level", "==", "ERROR")),
        fact("entries whose message contains SQLSTATE", "message", "message", "count",
             sum(1 for e in ev if "SQLSTATE" in e[3].split(' {"')[0]), flt("message", "message", "contains", "SQLSTATE")),
    ])


def run():
    django()
    laravel()
