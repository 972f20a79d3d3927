"""Independent truth parsers for gen_java samples (multi-line entries grouped by header line)."""
import re
from datetime import datetime

from common import fact, flt, iso_naive, read_lines, top, write_truth

TC = re.compile(r"^(\d{2}-[A-Z][a-z]{2}-\d{4} \d{2}:\d{2}:\d{2}\.\d{3}) ([A-Z]+) \[([^\]]*)\] (\S+) (.*)$")


def group(lines, head_re):
    events = []
    for l in lines:
        m = head_re.match(l)
        if m:
            events.append([m.groups(), [l]])
        else:
            assert events, l
            events[-1][1].append(l)
    return events


def tomcat():
    name = "tomcat_catalina.out"
    ev = group(read_lines(name), TC)
    def ts(g):
        return datetime.strptime(g[0], "%d-%b-%Y %H:%M:%S.%f")
    first_severe = min(ts(g) for g, _ in ev if g[1] == "SEVERE")
    last_start = max(ts(g) for g, _ in ev if "Server startup in" in g[4])
    write_truth(name, "Apache Tomcat (catalina.out, OneLineFormatter)", len(ev),
                "a line starting with 'dd-Mon-yyyy HH:MM:SS.mmm LEVEL [thread]' starts an event; following lines "
                "(stack traces, indented continuation) belong to it", [
        fact("SEVERE entries", "level", "level", "count", sum(1 for g, _ in ev if g[1] == "SEVERE"),
             flt("level", "level", "==", "SEVERE")),
        fact("WARNING entries", "level", "level", "count", sum(1 for g, _ in ev if g[1] == "WARNING"),
             flt("level", "level", "==", "WARNING")),
        fact("distinct thread names", "thread", "thread", "count_distinct", len(set(g[2] for g, _ in ev))),
        fact("first SEVERE entry (local time, no zone)", "time", "time", "first_time", iso_naive(first_severe),
             flt("level", "level", "==", "SEVERE")),
        fact("most frequent logger/source (class.method)", "logger", "logger", "top", top(g[3] for g, _ in ev)),
        fact("last server startup (message contains 'Server startup in')", "time", "time", "last_time", iso_naive(last_start),
             flt("message", "message", "contains", "Server startup in")),
    ])


ZK = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3}) \[myid:(\d*)\] - ([A-Z]+)\s+\[(.*):([\w$]+)@(\d+)\] - (.*)$")


def zookeeper():
    name = "zookeeper.log"
    ev = group(read_lines(name), ZK)
    def ts(g):
        return datetime.strptime(g[0], "%Y-%m-%d %H:%M:%S,%f")
    first_err = min(ts(g) for g, _ in ev if g[2] == "ERROR")
    write_truth(name, "Apache ZooKeeper (default log4j/logback pattern)", len(ev),
                "a line starting with 'yyyy-mm-dd HH:MM:SS,mmm [myid:N] - LEVEL' starts an event; stack-trace and "
                "exception lines that follow belong to it", [
        fact("WARN entries", "level", "level", "count", sum(1 for g, _ in ev if g[2] == "WARN"), flt("level", "level", "==", "WARN")),
        fact("ERROR entries", "level", "level", "count", sum(1 for g, _ in ev if g[2] == "ERROR"), flt("level", "level", "==", "ERROR")),
        fact("most frequent logging class (%C{1})", "class", "logger", "top", top(g[4] for g, _ in ev)),
        fact("distinct thread names (%t)", "thread", "thread", "count_distinct", len(set(g[3] for g, _ in ev))),
        fact("first ERROR (local time, no zone)", "time", "time", "first_time", iso_naive(first_err),
             flt("level", "level", "==", "ERROR")),
        fact("slow fsync warnings (message contains 'fsync-ing the write ahead log')", "message", "message", "count",
             sum(1 for g, _ in ev if "fsync-ing the write ahead log" in g[6]),
             flt("message", "message", "contains", "fsync-ing the write ahead log")),
    ])


def run():
    tomcat()
    zookeeper()
