"""Infra daemons: RabbitMQ 3.12 log, Consul agent (hclog text), Prometheus 2.x (go-kit logfmt)."""
import random
from datetime import datetime, timedelta

from common import UTC, write_log


def rabbitmq():
    rng = random.Random(4701)
    t = datetime(2024, 3, 26, 8, 0, 0, 100000, tzinfo=UTC)
    out = []
    state = {"pid": 200}

    def ep():
        state["pid"] += rng.randint(1, 400)
        return "<0.%d.0>" % state["pid"]

    def log(level, pid, *msgs):
        for m in msgs:
            out.append("%s+00:00 [%s] %s %s" % (t.strftime("%Y-%m-%d %H:%M:%S.%f"), level, pid, m))

    def boot():
        log("notice", "<0.44.0>", "Application syslog exited with reason: stopped")
        log("notice", "<0.230.0>", "Logging: switching to configured handler(s); following messages may not be visible in this log output")
        log("notice", "<0.230.0>", "Logging: configured log handlers are now ACTIVE")
        log("info", "<0.230.0>", "ra: starting system quorum_queues")
        log("info", "<0.230.0>", "", " Starting RabbitMQ 3.12.13 on Erlang 25.3.2.9 [jit]",
            " Copyright (c) 2007-2024 Broadcom Inc and/or its subsidiaries", " Licensed under the MPL 2.0. Website: https://rabbitmq.com")
        log("info", "<0.230.0>", "", " node           : rabbit@rmq-0.rmq-nodes.messaging", " home dir       : /var/lib/rabbitmq",
            " config file(s) : /etc/rabbitmq/conf.d/10-defaults.conf", " cookie hash    : 3oG5zCN2CPyJjpYwAXlQVg==",
            " log(s)         : <stdout>", " data dir       : /var/lib/rabbitmq/mnesia/rabbit@rmq-0.rmq-nodes.messaging")
        log("info", "<0.230.0>", "Running boot step pre_boot defined by app rabbit")
        log("info", "<0.230.0>", "Running boot step rabbit_global_counters defined by app rabbit")
        log("info", "<0.230.0>", "Memory high watermark set to 1638 MiB (1717986918 bytes) of 4096 MiB (4294967296 bytes) total")
        log("info", "<0.230.0>", "Enabling free disk space monitoring (disk free space: 18264489984, total memory: 4294967296)")
        t_ = rng.randint(2, 6)
        log("info", "<0.230.0>", "Ready to start client connection listeners")
        log("info", "<0.602.0>", "started TCP listener on [::]:5672")
        log("info", "<0.230.0>", "Server startup complete; %d plugins started." % 4, " * rabbitmq_prometheus",
            " * rabbitmq_management", " * rabbitmq_web_dispatch", " * rabbitmq_management_agent")
        return t_

    boot()
    conns = []
    users = ["orders", "billing", "notifier", "orders", "orders"]
    for i in range(900):
        t += timedelta(microseconds=rng.randint(1000, 20000000))
        r = rng.random()
        if i == 600:
            log("notice", "<0.87.0>", "SIGTERM received - shutting down")
            log("warning", "<0.230.0>", "HTTP listener registry could not find context rabbitmq_prometheus_tls")
            log("info", "<0.602.0>", "stopped TCP listener on [::]:5672")
            t += timedelta(seconds=12)
            conns = []
            boot()
        elif 300 <= i < 306:
            if i == 300:
                log("info", "<0.345.0>", "vm_memory_high_watermark set. Memory used:1722340864 allowed:1717986918")
                log("warning", "<0.345.0>", "memory resource limit alarm set on node 'rabbit@rmq-0.rmq-nodes.messaging'.", "",
                    "**********************************************************", "*** Publishers will be blocked until this alarm clears ***",
                    "**********************************************************", "")
            elif i == 305:
                log("info", "<0.345.0>", "vm_memory_high_watermark clear. Memory used:1503238553 allowed:1717986918")
                log("warning", "<0.345.0>", "memory resource limit alarm cleared on node 'rabbit@rmq-0.rmq-nodes.messaging'")
                log("warning", "<0.345.0>", "memory resource limit alarm cleared across the cluster")
            else:
                log("info", "<0.%d.0>" % rng.randint(600, 9000), "Connection <0.%d.0> (10.0.8.%d:%d -> 10.0.8.2:5672) is blocked by the memory alarm"
                    % (rng.randint(600, 9000), rng.randint(10, 60), rng.randint(30000, 60000)))
        elif r < 0.35 or not conns:
            p = ep()
            peer = "10.0.8.%d:%d -> 10.0.8.2:5672" % (rng.randint(10, 60), rng.randint(30000, 60000))
            u = rng.choice(users)
            log("info", p, "accepting AMQP connection %s (%s)" % (p, peer))
            log("info", p, "connection %s (%s): user '%s' authenticated and granted access to vhost '/'" % (p, peer, u))
            conns.append((p, peer, u))
        elif r < 0.60:
            p, peer, u = conns.pop(rng.randrange(len(conns)))
            log("info", p, "closing AMQP connection %s (%s, vhost: '/', user: '%s')" % (p, peer, u))
        elif r < 0.72 or (400 <= i < 440 and r < 0.9):
            p, peer, u = conns.pop(rng.randrange(len(conns)))
            if 400 <= i < 440:
                log("error", p, "closing AMQP connection %s (%s):" % (p, peer), "missed heartbeats from client, timeout: 60s")
            else:
                log("warning", p, "closing AMQP connection %s (%s, vhost: '/', user: '%s'):" % (p, peer, u), "client unexpectedly closed TCP connection")
        elif r < 0.76:
            p = ep()
            peer = "203.0.113.%d:%d -> 10.0.8.2:5672" % (rng.randint(2, 250), rng.randint(30000, 60000))
            log("info", p, "accepting AMQP connection %s (%s)" % (p, peer))
            log("error", p, "Error on AMQP connection %s (%s, state: starting):" % (p, peer),
                "PLAIN login refused: user 'guest' - invalid credentials")
        elif r < 0.90:
            log("info", "<0.%d.0>" % rng.randint(600, 9000), "Waiting for Mnesia tables for 30000 ms, 9 retries left") if rng.random() < 0.02 else \
                log("info", ep(), "queue 'orders.created' in vhost '/': %d messages ready, consumer count %d" % (rng.randint(0, 90000), rng.randint(0, 5)))
        else:
            log("debug", ep(), "Stats collector: %d queue metrics collected" % rng.randint(10, 40))
    write_log("rabbitmq.log", out)


def go_dur(ms, rng):
    if ms < 1:
        return "%.1fµs" % (ms * 1000)
    if ms < 1000:
        return ("%.6f" % ms).rstrip("0").rstrip(".") + "ms"
    return ("%.9f" % (ms / 1000)).rstrip("0").rstrip(".") + "s"


def consul():
    rng = random.Random(4702)
    t = datetime(2024, 3, 27, 9, 0, 0, tzinfo=UTC)
    out = []

    def log(level, mod, msg):
        out.append("%s [%s]%s %s: %s" % (t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000),
                                          level, " " * (5 - len(level)), mod, msg))

    checks = ["service:web-1", "service:web-2", "service:api-1", "serfHealth", "service:redis-1"]
    paths = ["/v1/health/service/web?passing=1&index=%d", "/v1/kv/config/app?index=%d", "/v1/agent/self", "/v1/catalog/services?index=%d",
             "/v1/status/leader"]
    for i in range(1500):
        t += timedelta(microseconds=rng.randint(2000, 4000000))
        r = rng.random()
        if 800 <= i < 812:
            if i == 800:
                log("ERROR", "agent.server.memberlist.lan", "memberlist: Push/Pull with consul-3 failed: dial tcp 10.0.10.4:8301: i/o timeout")
                log("INFO", "agent.server.serf.lan", "serf: EventMemberFailed: consul-3 10.0.10.4")
                log("WARN", "agent.server.raft", "heartbeat timeout reached, starting election: last-leader-addr=10.0.10.4:8300 last-leader-id=0c2f5e1a-9c1d-7e44-b2a5-3d9f1e6c0b11")
                log("INFO", "agent.server.raft", 'entering candidate state: node="Node at 10.0.10.2:8300 [Candidate]" term=7')
            elif i == 806:
                log("INFO", "agent.server.raft", "election won: term=7 tally=2")
                log("INFO", "agent.server.raft", 'entering leader state: leader="Node at 10.0.10.2:8300 [Leader]"')
                log("INFO", "agent.server", "cluster leadership acquired")
                log("INFO", "agent.server", "New leader elected: payload=consul-1")
            else:
                log("ERROR", "agent.http", 'Request error: method=GET url=%s from=10.0.1.%d:%d error="rpc error making call: No cluster leader"'
                    % (rng.choice(paths).replace("%d", str(rng.randint(100, 99999))), rng.randint(2, 60), rng.randint(30000, 60000)))
        elif r < 0.62:
            p = rng.choice(paths)
            if "%d" in p:
                p = p % rng.randint(100, 99999)
            blocking = "index=" in p
            ms = rng.uniform(0.05, 3) if not blocking else rng.uniform(5, 300000 if rng.random() < 0.2 else 900)
            log("DEBUG", "agent.http", "Request finished: method=GET url=%s from=10.0.1.%d:%d latency=%s"
                % (p, rng.randint(2, 60), rng.randint(30000, 60000), go_dur(ms, rng)))
        elif r < 0.75:
            log("DEBUG", "agent", "Check status updated: check=%s status=passing" % rng.choice(checks))
        elif r < 0.82 or (1100 <= i < 1180 and r < 0.95):
            c = "service:web-1" if 1100 <= i < 1180 else rng.choice(checks)
            log("WARN", "agent", "Check is now critical: check=%s" % c)
        elif r < 0.88:
            log("INFO", "agent", "Synced check: check=%s" % rng.choice(checks))
        elif r < 0.94:
            log("INFO", "agent", "Synced node info")
        elif r < 0.97:
            log("WARN", "agent.server.memberlist.lan", "memberlist: Refuting a suspect message (from: consul-%d)" % rng.randint(2, 3))
        else:
            log("ERROR", "agent.server.rpc", 'RPC failed to server in DC: server=10.0.20.2:8300 datacenter=dc2 method=Catalog.ListServices error="rpc error getting client: failed to get conn: dial tcp <nil>->10.0.20.2:8300: i/o timeout"')
    write_log("consul.log", out)


def prometheus():
    rng = random.Random(4703)
    t = datetime(2024, 3, 28, 0, 0, 0, tzinfo=UTC)
    out = []

    def log(caller, level, rest):
        out.append("ts=%s caller=%s level=%s %s" % (t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000), caller, level, rest))

    def boot():
        log("main.go:585", "info", 'msg="Starting Prometheus Server" mode=server version="(version=2.50.1, branch=HEAD, revision=8c9b0285360a0b6288d76214a75ce3025bce4050)"')
        log("main.go:590", "info", 'build_context="(go=go1.21.7, platform=linux/amd64, user=root@6213bb3ee580, date=20240226-11:36:26, tags=netgo,builtinassets,stringlabels)"')
        log("main.go:591", "info", 'host_details="(Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64 prometheus-0 (none))"')
        log("web.go:566", "info", 'component=web msg="Start listening for connections" address=0.0.0.0:9090')
        log("head.go:606", "info", 'component=tsdb msg="Replaying on-disk memory mappable chunks if any"')
        for s in range(0, 4):
            log("head.go:760", "info", 'component=tsdb msg="WAL segment loaded" segment=%d maxSegment=3' % s)
        log("head.go:797", "info", 'component=tsdb msg="WAL replay completed" checkpoint_replay_duration=%s wal_replay_duration=%s wbl_replay_duration=200ns total_replay_duration=%s'
            % (go_dur(rng.uniform(0.05, 0.5), rng), go_dur(rng.uniform(800, 9000), rng), go_dur(rng.uniform(900, 9500), rng)))
        log("main.go:1153", "info", 'msg="TSDB started"')
        log("main.go:1335", "info", 'msg="Loading configuration file" filename=/etc/prometheus/prometheus.yml')
        log("main.go:1114", "info", 'msg="Server is ready to receive web requests."')

    boot()
    pools = ["node", "kubelet", "cadvisor", "blackbox", "postgres-exporter"]
    for i in range(1300):
        t += timedelta(milliseconds=rng.randint(100, 15000))
        r = rng.random()
        if i == 900:
            log("main.go:853", "warn", 'msg="Received SIGTERM, exiting gracefully..."')
            log("main.go:877", "info", 'msg="Stopping scrape discovery manager..."')
            log("main.go:1262", "info", 'msg="Notifier manager stopped"')
            log("main.go:1274", "info", 'msg="See you next time!"')
            t += timedelta(seconds=15)
            boot()
        elif 500 <= i < 560 and r < 0.8:
            log("notifier.go:530", "error", 'component=notifier alertmanager=http://alertmanager:9093/api/v2/alerts count=%d msg="Error sending alert" err="Post \\"http://alertmanager:9093/api/v2/alerts\\": dial tcp 10.0.11.9:9093: connect: connection refused"' % rng.randint(1, 8))
        elif r < 0.45:
            log("scrape.go:1738", "warn" if rng.random() < 0.15 else "debug",
                'component="scrape manager" scrape_pool=%s target=http://10.0.11.%d:9100/metrics msg="Append failed" err="out of bounds"' % (rng.choice(pools), rng.randint(2, 90)))
        elif r < 0.60:
            log("compact.go:576", "info", 'component=tsdb msg="write block" mint=%d maxt=%d ulid=01HT%022X duration=%s'
                % (1711584000000 + i * 7200000, 1711591200000 + i * 7200000, rng.getrandbits(88), go_dur(rng.uniform(300, 9000), rng)))
        elif r < 0.75:
            log("head.go:1298", "info", 'component=tsdb msg="Head GC completed" caller=truncateMemory duration=%s' % go_dur(rng.uniform(2, 400), rng))
        elif r < 0.82:
            log("head.go:1266", "info", 'component=tsdb msg="WAL checkpoint complete" first=%d last=%d duration=%s'
                % (i, i + 2, go_dur(rng.uniform(20, 2000) if i < 1100 else rng.uniform(20000, 95000), rng)))
        elif r < 0.90:
            log("manager.go:663", "warn", 'component="rule manager" file=/etc/prometheus/rules/node.yml group=node msg="Evaluating rule failed" rule="alert: NodeHighLoad\\nexpr: node_load5 > 8\\nfor: 10m\\n" err="query timed out in expression evaluation"')
        elif r < 0.97:
            log("db.go:1619", "info", 'component=tsdb msg="Deleting obsolete block" block=01HS%022X' % rng.getrandbits(88))
        else:
            log("klog.go:108", "warn", 'component=k8s_client_runtime func=Warningf msg="pkg/mod/k8s.io/client-go@v0.29.1/tools/cache/reflector.go:229: failed to list *v1.Pod: pods is forbidden: User \\"system:serviceaccount:monitoring:prometheus\\" cannot list resource \\"pods\\" in API group \\"\\" at the cluster scope"')
    write_log("prometheus.log", out)


def run():
    rabbitmq()
    consul()
    prometheus()
