"""Writes the `queries-heldout25` fixtures: one night (2026-11-24, 00:00-04:00 UTC) at Fernhollow Energy's
outage hotline, a contact centre whose PBX runs on a three-node Pacemaker/Corosync cluster and publishes
its call events to RabbitMQ. Three logs are written from one shared plan of the night, so that the files
agree:

- `pacemaker.log`: `/var/log/pacemaker/pacemaker.log` of `pbx-ha-3`, the DC, Pacemaker 2.0.5
  (`Nov 24 02:14:37.693 pbx-ha-3 pacemaker-controld  [1864] (function) \\tlevel: message`, the daemon
  name padded to 20 columns): attrd updates from the SysInfo clone, the scheduler's runs, the recheck
  timer, pingd flaps, the throttle's CPU-load notices, and the night's recovery and fencing;
- `rabbit@fh-mq-2.log`: RabbitMQ 3.12 with the default file formatter
  (`2026-11-24 02:06:41.072390+00:00 [warning] <0.245.0> message`, every line of a multi-line message
  prefixed, trailing blanks trimmed): AMQP 0-9-1 connections accepted, authenticated and closed,
  refused logins, channel errors, missed heartbeats and the memory alarm;
- `full`: Asterisk 20's `full` log with `dateformat=%F %T`
  (`[2026-11-24 02:13:07] VERBOSE[41873][C-00003f2a] pbx.c: Executing [...]`): the dialplan's
  VERBOSE call lines, PJSIP NOTICEs (scanners, failed authentications), the `h` extension's
  `fh-summary.agi` writing one `call-summary ...` line a call through AGI `VERBOSE`, taskprocessor
  warnings, errors dialling an unregistered endpoint, and a restart on another node.

Standard library only; everything comes from one seeded `random.Random`.
"""

import calendar
import math
import random
from datetime import datetime, timedelta

DAY = datetime(2026, 11, 24)


def T(h, m, s=0, us=0):
    return DAY + timedelta(hours=h, minutes=m, seconds=s, microseconds=us)


def secs(x):
    return timedelta(seconds=x)


def ms(x):
    return timedelta(milliseconds=x)


def epoch(t):
    return calendar.timegm(t.utctimetuple())


START, END = T(0, 0), T(4, 0)
PM, MQ, AST = "pacemaker.log", "rabbit@fh-mq-2.log", "full"

# every standard HTTP status: no figure an answer must hold reads like one
STATUS_LIKE = ({100, 101, 102, 103, 226, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 510, 511}
               | set(range(200, 209)) | set(range(300, 309)) | set(range(400, 419)) | set(range(500, 509)))

# ------------------------------------------------------------ the cluster
NODES = ["pbx-ha-1", "pbx-ha-2", "pbx-ha-3"]
NODEID = {n: i + 1 for i, n in enumerate(NODES)}
NODE_IP = {"pbx-ha-1": "10.40.2.11", "pbx-ha-2": "10.40.2.12", "pbx-ha-3": "10.40.2.13"}
ME = "pbx-ha-3"                      # the DC, whose pacemaker.log this is
DPID = {"pacemakerd": 1857, "pacemaker-based": 1858, "pacemaker-fenced": 1859, "pacemaker-execd": 1860,
        "pacemaker-attrd": 1861, "pacemaker-schedulerd": 1862, "pacemaker-controld": 1864}
CTLD = "pacemaker-controld"
FEATURES = "3.6.1"

# planted cluster events
REFRESH_AT = T(0, 20, 14, 380000)                       # an operator refreshes the SysInfo clone
PINGD_FLAPS = [(T(0, 31, 12, 404000), T(0, 31, 52, 118000)), (T(1, 27, 40, 771000), T(1, 28, 15, 209000)),
               (T(3, 2, 5, 330000), T(3, 2, 31, 902000)), (T(3, 47, 18, 546000), T(3, 47, 44, 87000))]
MON_FAIL = T(2, 14, 37, 612000)                         # asterisk's monitor times out on pbx-ha-2
STOP_INIT = MON_FAIL + ms(451)
STOP_FAIL = STOP_INIT + ms(90_019)                      # ... and its stop times out: fencing
FENCE_REQ = STOP_FAIL + ms(312)
NODE_LOST = T(2, 16, 17, 221000)
FENCE_OK = T(2, 16, 22, 304000)
AST_START_INIT = T(2, 16, 25, 71000)
AST_READY = T(2, 16, 41, 520000)
AST_START_NS = 19_099                                    # ms the start took
AST_START_DONE = AST_START_INIT + ms(5) + ms(AST_START_NS)
REJOIN = T(2, 19, 53, 118000)
HIGH_LOAD = (T(2, 17, 10, 450000), T(3, 26, 10))        # the throttle's "High CPU load" on pbx-ha-3
LOAD_PEAK = 14.72
QUIET_PM = (MON_FAIL - secs(15), AST_START_DONE + secs(15))

# ------------------------------------------------------------ the broker
MQ_NODE = "rabbit@fh-mq-2"
MQ_IP = "10.40.3.12"
ALLOWED = 6871947673
ALARMS = [(T(1, 49, 20, 233817), T(1, 50, 14, 501244), 6893117440, 6815744000),
          (T(2, 6, 41, 72390), T(2, 21, 33, 640118), 7016812544, 6705123328)]
CDRW_IP, CALLBACK_IP, WALLBOARD_IP, NOTIFY_IP, MON_IP = "10.40.5.21", "10.40.5.22", "10.40.5.30", "10.40.7.15", "10.40.9.5"
IVR_IPS = ["10.40.6.11", "10.40.6.12", "10.40.6.13"]
IVR_WEIGHTS = [0.47, 0.34, 0.19]
CANARY = "10.40.6.13"                                   # a new ivr-api build that declares a classic queue
WALLBOARD_REFUSED = (T(0, 45, 10, 612000), T(2, 51, 40))
WALLBOARD_FIXED = T(2, 52, 5, 331902)
CDRW_RESTART = T(2, 19, 2, 118402)
NOTIFY_RESTART = T(3, 30, 14, 770213)
ACK_TIMEOUT = T(1, 33, 47, 902114)

# ------------------------------------------------------------ the PBX
STORM = T(1, 40)
HANG_AT = T(2, 14, 6, 500000)                           # the old asterisk stops logging (hung)
NEW_PROC = T(2, 16, 26, 100000)
SPIKE = T(3, 12)                                        # a radio bulletin gives out the hotline number
DUTY_GONE = T(1, 47, 10, 400000)                        # the duty manager's softphone registration expires
DUTY_BACK = T(3, 24, 51, 600000)
AGENT24_BAD = (T(1, 8, 3), T(1, 34, 20))                # a home agent's phone with a stale password
BRUTE = (T(3, 35, 12), T(3, 50, 40))
HOTLINE, BILLING, PRIORITY = "8005550199", "8005550142", "8005550111"
PBX_PUBLIC = "203.0.113.60"
MAX_HOLD = 868                                          # the longest wait of an answered call


def _lognorm(rng, median, sigma):
    return median * math.exp(rng.gauss(0, sigma))


def _poisson(rng, a, b, per_min):
    out, t = [], a
    while True:
        t += timedelta(seconds=rng.expovariate(per_min / 60.0))
        if t >= b:
            return out
        out.append(t)


def in_alarm(t):
    return any(a <= t < b for a, b, _, _ in ALARMS)


class Call:
    __slots__ = ("t0", "kind", "caller", "queue", "status", "hold", "talk", "agent", "cb", "tid", "btid",
                 "cid", "chan", "duty_ok", "play", "lines", "summary_at", "ivr", "seed")

    def __init__(self, t0, kind):
        self.t0, self.kind = t0, kind
        self.cb, self.ivr, self.lines, self.summary_at, self.duty_ok, self.agent = None, [], [], None, None, None


class Night:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.pm = []      # (t, seq, daemon, func, level, msg)
        self.mq = []      # (t, seq, level, pid, msg)
        self.ast = []     # (t, seq, level, tid, cid, src, msg)
        self.seq = 0
        self.ivr_conns = []   # (t_open, t_agi_done, purpose)
        self._asterisk()
        self._broker()
        self._cluster()

    # ============================================================ the PBX (asterisk full log)
    def X(self, t, level, tid, cid, src, msg):
        self.seq += 1
        self.ast.append((t, self.seq, level, tid, cid, src, msg))

    def _caller(self):
        rng = self.rng
        if rng.random() < 0.7:
            return f"+447700900{rng.randint(0, 999):03d}"
        return f"+441632960{rng.randint(0, 999):03d}"

    def _plan_calls(self):
        rng = self.rng

        def hot_rate(t):
            if t < STORM:
                return 0.55
            if t < HANG_AT:
                return 3 + 5 * (t - STORM).total_seconds() / (HANG_AT - STORM).total_seconds()
            if t < T(3, 30):
                return 7.0
            return 7.0 - 5.0 * (t - T(3, 30)).total_seconds() / 1800

        arrivals = []
        for t in _poisson(rng, START, END, 8.0):
            if rng.random() < hot_rate(t) / 8.0:
                arrivals.append((t, "hotline"))
        for t in _poisson(rng, START, END, 0.22):
            arrivals.append((t, "billing"))
        for t in _poisson(rng, START, END, 0.35):
            if t >= STORM or rng.random() < 0.2:
                arrivals.append((t, "priority"))
        for _ in range(45):
            arrivals.append((SPIKE + secs(rng.uniform(0, 59.5)), "hotline"))
        for _ in range(12):
            arrivals.append((AST_READY + secs(rng.uniform(2, 48)), "hotline"))
        calls = []
        for t, kind in sorted(arrivals):
            if HANG_AT - secs(20) <= t < AST_READY + secs(1):
                continue
            if t >= END - secs(5):
                continue
            c = Call(t, kind)
            c.caller = self._caller()
            calls.append(c)
        return calls

    def _outcome(self, c):
        rng = self.rng
        t = c.t0
        if c.kind == "billing":
            c.queue = "billing"
            if rng.random() < 0.1:
                c.status, c.hold = "ABANDONED", int(min(600, max(4, _lognorm(rng, 40, 0.6))))
            else:
                c.status, c.hold = "ANSWERED", int(min(400, max(2, _lognorm(rng, 25, 0.6))))
            c.talk = int(min(1700, max(20, _lognorm(rng, 320, 0.5)))) if c.status == "ANSWERED" else 0
            return
        c.duty_ok = not (DUTY_GONE <= t < DUTY_BACK)
        if c.kind == "priority" and c.duty_ok:
            c.queue, c.status, c.hold = "priority", "ANSWERED", rng.randint(3, 14)
            c.talk = int(min(1500, max(30, _lognorm(rng, 260, 0.5))))
            c.agent = "duty-manager"
            return
        c.queue = "outage-hotline"
        if t < STORM:
            p_ab, p_to, med = 0.05, 0.0, 25
        elif t < HANG_AT:
            p_ab, p_to, med = 0.22, 0.08, 170
        elif t < T(3, 30):
            p_ab, p_to, med = 0.30, 0.17, 290
        else:
            p_ab, p_to, med = 0.12, 0.03, 110
        r = rng.random()
        if r < p_to:
            c.status, c.hold = "TIMEOUT", 900 + rng.randint(0, 1)
        elif r < p_to + p_ab:
            c.status, c.hold = "ABANDONED", int(min(880, max(4, _lognorm(rng, med * 0.8, 0.7))))
        else:
            c.status, c.hold = "ANSWERED", int(min(680, max(3, _lognorm(rng, med, 0.6))))
        c.talk = int(min(1800, max(15, _lognorm(rng, 230, 0.5)))) if c.status == "ANSWERED" else 0

    def _agents_at(self, t):
        base = [f"agent-{n}" for n in range(1011, 1024)]
        if not (AGENT24_BAD[0] <= t < AGENT24_BAD[1] + secs(30)):
            base.append("agent-1024")
        for n, at in self.home_login.items():
            if t >= at:
                base.append(f"agent-{n}")
        return base

    def _asterisk(self):
        rng = self.rng
        self.home_login = {n: T(2, 28) + secs(rng.uniform(0, 720)) for n in range(1025, 1031)}
        calls = self._plan_calls()
        for c in calls:
            self._outcome(c)
            c.play = rng.uniform(11, 19) if c.t0 >= STORM else rng.uniform(6, 9)
            c.seed = rng.getrandbits(32)
        # the longest answered wait: one hotline call in the storm
        cand = [c for c in calls if c.queue == "outage-hotline" and c.status == "ANSWERED" and T(2, 40) <= c.t0 < T(2, 55)]
        big = cand[len(cand) // 2]
        big.hold = MAX_HOLD
        big.caller = "+447700900871"
        for c in calls:
            if c is not big and c.caller == big.caller:
                c.caller = "+447700900872"
        self.calls = calls
        old = [c for c in calls if c.t0 < HANG_AT]
        new = [c for c in calls if c.t0 >= AST_READY]
        self._numbering(old, tid0=38406, cid0=0x3e1c, chan0=0x1a2f0)
        self._numbering(new, tid0=61301, cid0=1, chan0=1)
        for c in calls:
            self._call_lines(c)
        self._tune_hold_mean()
        for c in calls:
            limit = self._limit(c)
            for ln in c.lines:
                if ln[0] < limit:
                    self.X(*ln)
            if c.summary_at is not None and c.summary_at >= limit:
                c.summary_at = None
            for conn in c.ivr:
                if conn[0] < limit:
                    self.ivr_conns.append(conn)
        self._pbx_noise()

    @staticmethod
    def _limit(c):
        return HANG_AT if c.t0 < HANG_AT else END

    def _tune_hold_mean(self):
        """The mean hold of answered hotline calls off its rounding edge: one early call's wait nudged."""
        early = [c for c in self.calls if c.queue == "outage-hotline" and c.status == "ANSWERED" and c.t0 < T(1, 0)]
        knob = early[len(early) // 2]
        for _ in range(80):
            rows = [c.hold for c in self.calls if c.queue == "outage-hotline" and c.status == "ANSWERED"
                    and c.summary_at is not None and c.summary_at < self._limit(c)]
            m = sum(rows) / len(rows)
            if 0.15 < (m * 10) % 1 < 0.4:
                return
            knob.hold += 1
            knob.lines, knob.ivr = [], []
            self._call_lines(knob)
        raise AssertionError("hold mean not tunable")

    def _numbering(self, calls, tid0, cid0, chan0):
        rng = self.rng
        tid, cid, ch = tid0, cid0, chan0
        for c in calls:
            tid += rng.randint(1, 9)
            c.tid = tid
            tid += rng.randint(1, 4)
            c.btid = tid
            c.cid = f"C-{cid:08x}"
            cid += 1
            c.chan = f"PJSIP/carrier-a-{ch:08x}"
            ch += 5 + rng.randint(0, 2)

    def _call_lines(self, c):
        rng = random.Random(c.seed)
        L = c.lines
        tid, cid, ch = c.tid, c.cid, c.chan
        did = {"hotline": HOTLINE, "billing": BILLING, "priority": PRIORITY}[c.kind]
        ctx = "from-carrier"
        state = {"pr": 1}
        agent_seq = [int(ch.rsplit("-", 1)[1], 16)]

        def ex(t, app, args, ext=did):
            L.append((t, "VERBOSE", tid, cid, "pbx.c", f'Executing [{ext}@{ctx}:{state["pr"]}] {app}("{ch}", "{args}") in new stack'))
            state["pr"] += 1

        def v(t, src, msg, th=tid):
            L.append((t, "VERBOSE", th, cid, src, msg))

        def achan(agent):
            agent_seq[0] += 1
            return f"PJSIP/{agent}-{agent_seq[0]:08x}"

        def spawn(t):
            v(t, "pbx.c", f"Spawn extension ({ctx}, {did}, {state['pr'] - 1}) exited non-zero on '{ch}'")

        t = c.t0
        label = {"hotline": "Outage hotline", "billing": "Billing line", "priority": "Priority line"}[c.kind]
        ex(t, "NoOp", f"{label} call from {c.caller}")
        ex(t, "Answer", "")
        t += secs(rng.uniform(0.02, 0.12))
        ex(t, "AGI", f"fh-lookup.agi,{c.caller}")
        t_conn = t + secs(rng.uniform(0.05, 0.2))
        done = t_conn + (secs(rng.uniform(3.05, 3.3)) if in_alarm(t_conn) else secs(rng.uniform(0.12, 0.6)))
        c.ivr.append((t_conn, done, "lookup"))
        v(done, "res_agi.c", f"<{ch}>AGI Script fh-lookup.agi completed, returning 0")
        t = done + secs(rng.uniform(0.01, 0.05))
        if c.kind == "priority":
            ex(t, "Dial", "PJSIP/duty-manager,30")
            if c.duty_ok:
                a = achan("duty-manager")
                v(t, "app_dial.c", "Called PJSIP/duty-manager")
                v(t + secs(0.2), "app_dial.c", f"{a} is ringing")
                ta = t + secs(c.hold)
                v(ta, "app_dial.c", f"{a} answered {ch}")
                b = self._uuid(rng)
                v(ta, "bridge_channel.c", f"Channel {a} joined 'simple_bridge' basic-bridge <{b}>", c.btid)
                v(ta + secs(0.01), "bridge_channel.c", f"Channel {ch} joined 'simple_bridge' basic-bridge <{b}>")
                te = ta + secs(c.talk)
                v(te, "bridge_channel.c", f"Channel {ch} left 'simple_bridge' basic-bridge <{b}>")
                v(te, "bridge_channel.c", f"Channel {a} left 'simple_bridge' basic-bridge <{b}>", c.btid)
                spawn(te)
                self._summary(c, te + secs(0.4), ctx)
                return
            L.append((t, "ERROR", tid, cid, "res_pjsip.c",
                      "Endpoint 'duty-manager': Could not create dialog to invalid URI 'duty-manager'.  Is endpoint registered and reachable?"))
            L.append((t, "ERROR", tid, cid, "chan_pjsip.c", "Failed to create outgoing session to endpoint 'duty-manager'"))
            L.append((t, "WARNING", tid, cid, "app_dial.c", "Unable to create channel of type 'PJSIP' (cause 3 - No route to destination)"))
            v(t, "app_dial.c", "Everyone is busy/congested at this time (1:0/0/1)")
            t += secs(0.02)
        prompt = "custom/fh-storm-notice" if c.t0 >= STORM else "custom/fh-welcome"
        if c.kind == "billing":
            prompt = "custom/fh-billing-welcome"
        ex(t, "Playback", prompt)
        v(t, "file.c", f"<{ch}> Playing '{prompt}.slin' (language 'en')")
        tq = t + secs(c.play)
        ex(tq, "Queue", f"{c.queue},t,,,900")
        v(tq, "res_musiconhold.c", f"Started music on hold, class 'default', on channel '{ch}'")
        end_hold = tq + secs(c.hold)
        agents = self._agents_at(tq) if c.queue == "outage-hotline" else ["agent-1041", "agent-1042", "agent-1043", "agent-1044"]
        # agents rung but not picking up
        k_fail = rng.choice([0, 0, 0, 1, 1, 2]) if c.hold > 40 else 0
        ring = rng.uniform(2.5, 9.0)
        slots = []
        for k in range(k_fail):
            s = end_hold - secs(ring + 17 * (k + 1)) if c.status == "ANSWERED" else tq + secs(1 + 17 * k)
            if tq + secs(0.5) <= s and s + secs(15) < end_hold:
                slots.append(s)
        for s in sorted(slots):
            ag = rng.choice(agents)
            a = achan(ag)
            v(s, "app_queue.c", f"Called PJSIP/{ag}")
            v(s + secs(0.3), "app_queue.c", f"{a} is ringing")
            v(s + secs(15), "app_queue.c", "Nobody picked up in 15000 ms")
        if c.status == "ANSWERED":
            w = [1.6 if x == "agent-1017" else 1.0 for x in agents]
            ag = rng.choices(agents, weights=w)[0]
            c.agent = ag
            a = achan(ag)
            s = max(tq + secs(0.4), end_hold - secs(ring))
            v(s, "app_queue.c", f"Called PJSIP/{ag}")
            v(s + secs(0.25), "app_queue.c", f"{a} is ringing")
            v(end_hold, "app_queue.c", f"{a} answered {ch}")
            v(end_hold, "res_musiconhold.c", f"Stopped music on hold on {ch}")
            b = self._uuid(rng)
            v(end_hold + secs(0.01), "bridge_channel.c", f"Channel {a} joined 'simple_bridge' basic-bridge <{b}>", c.btid)
            v(end_hold + secs(0.02), "bridge_channel.c", f"Channel {ch} joined 'simple_bridge' basic-bridge <{b}>")
            te = end_hold + secs(c.talk)
            first, second = ((ch, tid), (a, c.btid)) if rng.random() < 0.6 else ((a, c.btid), (ch, tid))
            v(te, "bridge_channel.c", f"Channel {first[0]} left 'simple_bridge' basic-bridge <{b}>", first[1])
            v(te + secs(0.01), "bridge_channel.c", f"Channel {second[0]} left 'simple_bridge' basic-bridge <{b}>", second[1])
            spawn(te + secs(0.02))
            self._summary(c, te + secs(0.4), ctx)
        elif c.status == "ABANDONED":
            c.agent = "none"
            v(end_hold, "res_musiconhold.c", f"Stopped music on hold on {ch}")
            spawn(end_hold)
            self._summary(c, end_hold + secs(0.3), ctx)
        else:
            c.agent = "none"
            v(end_hold, "res_musiconhold.c", f"Stopped music on hold on {ch}")
            t = end_hold + secs(0.05)
            ex(t, "Read", "CB,custom/fh-callback-offer,1,,1,5")
            t += secs(rng.uniform(4.5, 6.5))
            if rng.random() < 0.72:
                c.cb = True
                v(t, "app_read.c", "User entered '1'")
                ex(t, "AGI", f"fh-callback.agi,{c.caller}")
                t_conn = t + secs(rng.uniform(0.05, 0.2))
                done = t_conn + (secs(rng.uniform(3.05, 3.3)) if in_alarm(t_conn) else secs(rng.uniform(0.12, 0.6)))
                c.ivr.append((t_conn, done, "callback"))
                v(done, "res_agi.c", f"<{ch}>AGI Script fh-callback.agi completed, returning 0")
                ex(done, "Playback", "custom/fh-callback-booked")
                v(done, "file.c", f"<{ch}> Playing 'custom/fh-callback-booked.slin' (language 'en')")
            else:
                v(t, "app_read.c", "User entered nothing.")
                ex(t, "Playback", "custom/fh-goodbye")
                v(t, "file.c", f"<{ch}> Playing 'custom/fh-goodbye.slin' (language 'en')")
            th = end_hold + secs(13.8)
            ex(th, "Hangup", "")
            spawn(th)
            self._summary(c, end_hold + secs(14), ctx)

    def _summary(self, c, t, ctx):
        """The `h` extension runs a small AGI that logs one line per call through AGI `VERBOSE`."""
        c.summary_at = t + timedelta(milliseconds=40)
        text = (f"call-summary queue={c.queue} caller={c.caller} hold={c.hold} talk={c.talk} status={c.status} "
                f"agent={c.agent}")
        c.lines.append((t, "VERBOSE", c.tid, c.cid, "pbx.c", f'Executing [h@{ctx}:1] AGI("{c.chan}", "fh-summary.agi") in new stack'))
        c.lines.append((c.summary_at, "VERBOSE", c.tid, c.cid, "res_agi.c", f"fh-summary.agi: {text}"))
        c.lines.append((c.summary_at, "VERBOSE", c.tid, c.cid, "res_agi.c", f"<{c.chan}>AGI Script fh-summary.agi completed, returning 0"))

    @staticmethod
    def _uuid(r):
        h = f"{r.getrandbits(128):032x}"
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def _callid(self):
        r = self.rng
        kind = r.random()
        if kind < 0.5:
            return str(r.randint(10 ** 9, 4 * 10 ** 9 - 1))
        if kind < 0.8:
            return f"{r.getrandbits(128):032x}"
        return f"{r.getrandbits(64):016x}@{r.randint(1, 254)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"

    def _pbx_noise(self):
        rng = self.rng
        pjsip_tids = [38214, 38215, 38219, 38223]

        def ptid(t):
            """A PJSIP worker thread of the process running at t."""
            return rng.choice(pjsip_tids) + (23000 if t >= NEW_PROC else 0)
        # scanners: "No matching endpoint found"
        scanners = {"185.53.88.41": [(T(0, 12), 2.5, 110), (T(0, 52), 3.0, 140), (T(1, 44), 2.0, 105), (T(2, 38), 3.5, 150),
                                     (T(3, 21), 2.0, 120)],
                    "45.143.200.17": [(T(0, 33), 4.0, 95), (T(1, 16), 3.0, 100), (T(2, 58), 3.0, 110), (T(3, 41), 2.5, 80)],
                    "193.107.216.54": [(T(0, 5), 200.0, 70), (T(2, 0), 110.0, 85)]}
        others = ["92.118.39.14", "141.98.11.77", "89.248.165.52", "212.70.149.138", "45.95.147.230", "103.145.13.201",
                  "194.26.29.120", "62.210.90.33", "5.188.206.14", "77.247.108.91", "37.49.230.161", "51.15.213.8"]
        for ip in others:
            n = rng.randint(1, 14)
            a = START + secs(rng.uniform(0, 13500))
            scanners[ip] = [(a, rng.uniform(0.5, 90), n)]
        exts = ["100", "101", "1000", "1001", "200", "2001", "6001", "admin", "test", "0011972595", "9011441632960"]
        for ip, bursts in scanners.items():
            port = rng.choice([5060, 5061, 5070, 5071, 5080, 5160])
            for a, minutes, n in bursts:
                for _ in range(n):
                    t = a + secs(rng.uniform(0, minutes * 60))
                    if HANG_AT <= t < NEW_PROC or t >= END:
                        continue
                    ext = rng.choice(exts)
                    r = rng.random()
                    if r < 0.55:
                        frm = f'\'"{ext}" <sip:{ext}@{PBX_PUBLIC}>\''
                        meth = "REGISTER"
                    elif r < 0.85:
                        frm = f"'<sip:{ext}@{PBX_PUBLIC}>'"
                        meth = "INVITE"
                    else:
                        frm = "'\"sipvicious\"<sip:100@1.1.1.1>'"
                        meth = "OPTIONS"
                    self.X(t, "NOTICE", ptid(t), None, "res_pjsip/pjsip_distributor.c",
                           f"Request '{meth}' from {frm} failed for '{ip}:{port}' (callid: {self._callid()}) - No matching endpoint found")
        # a home agent's phone with a stale password, then fixed
        t = AGENT24_BAD[0]
        while t < AGENT24_BAD[1]:
            self.X(t, "NOTICE", ptid(t), None, "res_pjsip/pjsip_distributor.c",
                   f"Request 'REGISTER' from '<sip:agent-1024@pbx.fernhollow.net>' failed for '10.50.3.24:5062' "
                   f"(callid: {self._callid()}) - Failed to authenticate")
            t += secs(60 + rng.uniform(-0.5, 0.5))
        self.X(AGENT24_BAD[1] + secs(21), "VERBOSE", ptid(AGENT24_BAD[1] + secs(21)), None, "res_pjsip_registrar.c",
               "Added contact 'sip:agent-1024@10.50.3.24:5062;ob' to AOR 'agent-1024' with expiration of 300 seconds")
        self.X(AGENT24_BAD[1] + secs(21), "VERBOSE", ptid(AGENT24_BAD[1] + secs(21)), None, "res_pjsip/pjsip_configuration.c",
               "Endpoint agent-1024 is now Reachable")
        # someone guessing agent-1011's password
        t = BRUTE[0]
        while t < BRUTE[1]:
            self.X(t, "NOTICE", ptid(t), None, "res_pjsip/pjsip_distributor.c",
                   f"Request 'REGISTER' from '\"agent-1011\" <sip:agent-1011@{PBX_PUBLIC}>' failed for '80.94.95.203:5077' "
                   f"(callid: {self._callid()}) - Failed to authenticate")
            t += secs(rng.uniform(6, 14))
        # the duty manager's softphone
        self.X(DUTY_GONE, "VERBOSE", ptid(DUTY_GONE), None, "res_pjsip_registrar.c",
               "Removed contact 'sip:duty-manager@10.50.4.9:5060;ob' from AOR 'duty-manager' due to expiration")
        self.X(DUTY_GONE, "VERBOSE", ptid(DUTY_GONE), None, "res_pjsip/pjsip_configuration.c",
               "Endpoint duty-manager is now Unreachable")
        self.X(DUTY_BACK, "VERBOSE", ptid(DUTY_BACK), None, "res_pjsip_registrar.c",
               "Added contact 'sip:duty-manager@10.50.4.9:5060;ob' to AOR 'duty-manager' with expiration of 300 seconds")
        self.X(DUTY_BACK, "VERBOSE", ptid(DUTY_BACK), None, "res_pjsip/pjsip_configuration.c",
               "Endpoint duty-manager is now Reachable")
        # home agents on VPN: qualify flaps
        for n in (1019, 1022, 1026):
            t = START + secs(rng.uniform(300, 1800))
            while t < END - secs(600):
                if n == 1026 and t < self.home_login[1026]:
                    t = self.home_login[1026] + secs(rng.uniform(300, 900))
                    continue
                down = t
                up = down + secs(rng.uniform(25, 140))
                tids = pjsip_tids if down < HANG_AT else [x + 23000 for x in pjsip_tids]
                if not (HANG_AT - secs(200) <= down < NEW_PROC + secs(60)):
                    uri = f"sip:agent-{n}@10.50.3.{n - 1000}:5062;ob"
                    self.X(down, "VERBOSE", rng.choice(tids), None, "res_pjsip/pjsip_options.c",
                           f"Contact agent-{n}/{uri} is now Unreachable.  RTT: 0.000 msec")
                    self.X(down, "VERBOSE", rng.choice(tids), None, "res_pjsip/pjsip_configuration.c",
                           f"Endpoint agent-{n} is now Unreachable")
                    self.X(up, "VERBOSE", rng.choice(tids), None, "res_pjsip/pjsip_options.c",
                           f"Contact agent-{n}/{uri} is now Reachable.  RTT: {rng.uniform(28, 140):.3f} msec")
                    self.X(up, "VERBOSE", rng.choice(tids), None, "res_pjsip/pjsip_configuration.c",
                           f"Endpoint agent-{n} is now Reachable")
                t = up + secs(rng.uniform(1500, 3600))
        # home agents logging in for the storm
        for n, at in sorted(self.home_login.items()):
            tid = ptid(END - secs(1))
            self.X(at, "VERBOSE", tid, None, "res_pjsip_registrar.c",
                   f"Added contact 'sip:agent-{n}@10.50.3.{n - 1000}:5062;ob' to AOR 'agent-{n}' with expiration of 300 seconds")
            self.X(at, "VERBOSE", tid, None, "res_pjsip/pjsip_configuration.c", f"Endpoint agent-{n} is now Reachable")
        # the old process clogs: CEL publishes to the blocked broker back up its taskprocessors
        old_main = 1742
        for t, name, again in [(T(2, 8, 13, 200000), "stasis/m:cel:aggregator-00000003", False),
                               (T(2, 9, 52, 700000), "stasis/m:cel:aggregator-00000003", True),
                               (T(2, 11, 7, 100000), "stasis/m:cel:aggregator-00000003", True),
                               (T(2, 12, 31, 400000), "pjsip/distributor-00000011", False),
                               (T(2, 13, 40, 900000), "stasis/m:cel:aggregator-00000003", True)]:
            self.X(t, "WARNING", rng.choice([38231, 38232, old_main + 17]), None, "taskprocessor.c",
                   f"The '{name}' task processor queue reached 500 scheduled tasks{' again' if again else ''}.")
        # the new process on pbx-ha-3
        main = 61044
        self.X(NEW_PROC, "NOTICE", main, None, "loader.c", "264 modules will be loaded.")
        self.X(NEW_PROC + secs(1.2), "NOTICE", main, None, "cdr.c", "CDR simple logging enabled.")
        self.X(NEW_PROC + secs(3.4), "VERBOSE", main, None, "res_pjsip/pjsip_transport_management.c",
               "Transport 'transport-udp' bound to 0.0.0.0:5060")
        self.X(AST_READY, "VERBOSE", main, None, "asterisk.c", "Asterisk Ready.")
        registered = [f"agent-{n}" for n in range(1011, 1025)] + ["agent-1041", "agent-1042", "agent-1043", "agent-1044"]
        for i, ep in enumerate(registered):
            t = AST_READY + secs(0.6 + 0.35 * i + rng.uniform(0, 0.2))
            ip = f"10.50.3.{ep[-2:]}" if ep in ("agent-1019", "agent-1022", "agent-1024") else f"10.50.1.{int(ep[-2:])}"
            port = 5062 if ip.startswith("10.50.3.") else 5060
            tid = ptid(END - secs(1))
            self.X(t, "VERBOSE", tid, None, "res_pjsip/pjsip_options.c",
                   f"Contact {ep}/sip:{ep}@{ip}:{port};ob is now Reachable.  RTT: {rng.uniform(0.4, 90):.3f} msec")
            self.X(t, "VERBOSE", tid, None, "res_pjsip/pjsip_configuration.c", f"Endpoint {ep} is now Reachable")
        for t, again in [(T(2, 19, 44, 300000), False), (T(2, 20, 51, 800000), True)]:
            self.X(t, "WARNING", rng.choice([61322, 61323]), None, "taskprocessor.c",
                   f"The 'stasis/m:cel:aggregator-00000002' task processor queue reached 500 scheduled tasks{' again' if again else ''}.")

    # ============================================================ the broker (RabbitMQ 3.12)
    def Q(self, t, level, pid, msg):
        self.seq += 1
        self.mq.append((t, self.seq, level, pid, msg))

    def _pid(self, t):
        """Erlang allocates process ids in time order: a new connection's reader gets the next free one."""
        n = 31547 + int((t - START).total_seconds() * 26.0) + self.rng.randint(0, 9)
        while n in self.used_pids or n - 1 in self.used_pids:
            n += 1
        self.used_pids.add(n)
        return f"<0.{n}.0>"

    def _port(self):
        return self.rng.randint(32768, 60999)

    def _conn(self, t, ip, user, name=None, close=None, how="normal", chan_err=None, pid=None):
        rng = self.rng
        pid = pid or self._pid(t)
        p = self._port()
        ends = f"{ip}:{p} -> {MQ_IP}:5672"
        self.Q(t, "info", pid, f"accepting AMQP connection {pid} ({ends})")
        t1 = t + ms(rng.uniform(1.5, 9))
        if name:
            self.Q(t1, "info", pid, f"connection {pid} ({ends}) has a client-provided name: {name}")
        full = f"{ends} - {name}" if name else ends
        t2 = t1 + ms(rng.uniform(0.3, 3))
        self.Q(t2, "info", pid, f"connection {pid} ({full}): user '{user}' authenticated and granted access to vhost 'pbx'")
        if chan_err:
            n = int(pid[3:-3]) + rng.randint(3, 12)
            cp = f"<0.{n}.0>"
            self.Q(t2 + ms(rng.uniform(2, 8)), "error", cp,
                   f"Channel error on connection {pid} ({full}, vhost: 'pbx', user: '{user}'), channel 1:\n{chan_err}")
        if close is None:
            return pid, full
        if how == "normal":
            self.Q(close, "info", pid, f"closing AMQP connection {pid} ({full}, vhost: 'pbx', user: '{user}')")
        else:
            self.Q(close, "warning", pid,
                   f"closing AMQP connection {pid} ({full}, vhost: 'pbx', user: '{user}'):\nclient unexpectedly closed TCP connection")
        return pid, full

    def _broker(self):
        rng = self.rng
        self.used_pids = set()
        declare_err = ("operation queue.declare caused a channel exception precondition_failed: inequivalent arg 'x-queue-type' "
                       "for queue 'callback.requests' in vhost 'pbx': received none but current is the value 'quorum' of type 'longstr'")
        # long-lived connections opened before the night (no lines until they end)
        old_ast = [("<0.1873.0>", f"{NODE_IP['pbx-ha-2']}:38122 -> {MQ_IP}:5672"),
                   ("<0.1902.0>", f"{NODE_IP['pbx-ha-2']}:38130 -> {MQ_IP}:5672")]
        cdrw_old = ("<0.2211.0>", f"{CDRW_IP}:46610 -> {MQ_IP}:5672 - cdr-writer@pbxdb-1")
        notify_old = ("<0.2468.0>", f"{NOTIFY_IP}:51020 -> {MQ_IP}:5672 - outage-notifier")
        cb_conn = ("<0.2390.0>", f"{CALLBACK_IP}:40212 -> {MQ_IP}:5672 - SpringAMQP#6b1e2f90:0")
        # the monitoring check, every minute
        t = T(0, 0, 17, 412000)
        while t < END:
            self._conn(t, MON_IP, "monitoring", close=t + ms(rng.uniform(35, 70)))
            t += secs(60) + ms(rng.uniform(-60, 60))
        # ivr-api (PHP): one short connection per AGI request from the PBX
        for t_open, done, purpose in sorted(self.ivr_conns):
            ip = rng.choices(IVR_IPS, weights=IVR_WEIGHTS)[0]
            if ip == CANARY:
                self._conn(t_open, ip, "ivr-api", chan_err=declare_err, close=t_open + ms(rng.uniform(14, 30)))
            elif in_alarm(t_open):
                self._conn(t_open, ip, "ivr-api", close=done - ms(rng.uniform(10, 40)), how="abrupt")
            else:
                self._conn(t_open, ip, "ivr-api", close=min(done - ms(5), t_open + ms(rng.uniform(20, 90))))
        # the wallboard with a rotated password, retrying every 30 s until someone fixes its secret
        t = WALLBOARD_REFUSED[0]
        while t < WALLBOARD_REFUSED[1]:
            pid = self._pid(t)
            ends = f"{WALLBOARD_IP}:{self._port()} -> {MQ_IP}:5672"
            self.Q(t, "info", pid, f"accepting AMQP connection {pid} ({ends})")
            self.Q(t + ms(rng.uniform(2, 6)), "error", pid,
                   f"Error on AMQP connection {pid} ({ends}, state: starting):\nPLAIN login refused: user 'wallboard' - invalid credentials")
            t += secs(30) + ms(rng.uniform(-900, 900))
        self._conn(WALLBOARD_FIXED, WALLBOARD_IP, "wallboard", name="wallboard-ops-floor")
        # the callback scheduler's consumer hangs on one delivery for 30 minutes
        cp = "<0.2395.0>"
        self.Q(ACK_TIMEOUT, "warning", cp,
               "Consumer amq.ctag-3vX0cKxQbqDd1lUqGzP7mA on channel 1 has timed out waiting for a consumer acknowledgement of a "
               "delivery with delivery tag = 4412. Timeout used: 1800000 ms. This timeout value can be configured, see "
               "consumers doc guide to learn more")
        self.Q(ACK_TIMEOUT + ms(0.4), "error", cp,
               f"Channel error on connection {cb_conn[0]} ({cb_conn[1]}, vhost: 'pbx', user: 'callback'), channel 1:\n"
               "operation none caused a channel exception precondition_failed: delivery acknowledgement on channel 1 timed out. "
               "Timeout value used: 1800000 ms. This timeout value can be configured, see consumers doc guide to learn more")
        # the memory alarm (twice)
        for a, b, used, used_after in ALARMS:
            self.Q(a, "info", "<0.247.0>", f"vm_memory_high_watermark set. Memory used:{used} allowed:{ALLOWED}")
            self.Q(a + ms(0.3), "warning", "<0.245.0>",
                   f"memory resource limit alarm set on node '{MQ_NODE}'.\n\n"
                   "**********************************************************\n"
                   "*** Publishers will be blocked until this alarm clears ***\n"
                   "**********************************************************\n")
            self.Q(b, "info", "<0.247.0>", f"vm_memory_high_watermark clear. Memory used:{used_after} allowed:{ALLOWED}")
            self.Q(b + ms(0.2), "warning", "<0.245.0>", f"memory resource limit alarm cleared on node '{MQ_NODE}'")
            self.Q(b + ms(0.5), "warning", "<0.245.0>", "memory resource limit alarm cleared across the cluster")
        # the cdr-writer is restarted by hand
        self.Q(CDRW_RESTART, "info", cdrw_old[0], f"closing AMQP connection {cdrw_old[0]} ({cdrw_old[1]}, vhost: 'pbx', user: 'cdr-writer')")
        self._conn(CDRW_RESTART + secs(6.9), CDRW_IP, "cdr-writer", name="cdr-writer@pbxdb-1")
        # asterisk on the new node: its cdr and cel connections
        self.new_ast = []
        for k in range(2):
            tt = AST_READY + ms(800 + 290 * k + rng.uniform(0, 60))
            self.new_ast.append(tt)
            self._conn(tt, NODE_IP["pbx-ha-3"], "asterisk")
        # the old node's connections: dead since the fence, detected once the alarm no longer pauses heartbeats
        for k, (pid, ends) in enumerate(old_ast):
            tt = ALARMS[1][1] + secs(60.5 + 1.6 * k + rng.uniform(0, 0.3))
            self.Q(tt, "error", pid, f"closing AMQP connection {pid} ({ends}):\nmissed heartbeats from client, timeout: 60s")
        # the notifier is redeployed
        self.Q(NOTIFY_RESTART, "info", notify_old[0],
               f"closing AMQP connection {notify_old[0]} ({notify_old[1]}, vhost: 'pbx', user: 'notify')")
        self._conn(NOTIFY_RESTART + secs(11.2), NOTIFY_IP, "notify", name="outage-notifier")

    # ============================================================ the cluster (pacemaker.log of the DC)
    def P(self, t, daemon, func, level, msg):
        self.seq += 1
        self.pm.append((t, self.seq, daemon, func, level, msg))

    def _cib(self, t, changes, origin):
        """One CIB modification as pacemaker-based logs it: the diff and the completed request."""
        old = self.cibv
        self.cibv += 1
        b = "pacemaker-based"
        self.P(t, b, "cib_perform_op", "info", f"Diff: --- 0.215.{old} 2")
        self.P(t, b, "cib_perform_op", "info", f"Diff: +++ 0.215.{self.cibv} (null)")
        self.P(t, b, "cib_perform_op", "info", f"+  /cib:  @num_updates={self.cibv}")
        for c in changes:
            self.P(t, b, "cib_perform_op", "info", c)
        self.P(t + ms(1), b, "cib_process_request", "info",
               f"Completed cib_modify operation for section status: OK (rc=0, origin={origin}, version=0.215.{self.cibv})")
        return f"0.215.{self.cibv}"

    def _attr(self, t, node, name, old, new, src=None):
        """attrd on the DC (the writer) updating one node attribute, and the transition it aborts."""
        rng = self.rng
        src = src or node
        a = "pacemaker-attrd"
        nid = NODEID[node]
        self.P(t, a, "attrd_peer_update", "notice", f"Setting {name}[{node}]: {old} -> {new} | from {src}")
        tw = t + ms(rng.uniform(0.5, 3)) + (secs(5) if name == "pingd" else secs(0))
        self.attr_req += 1
        req = self.attr_req
        self.P(tw, a, "write_attribute", "info", f"Sent CIB request {req} with 1 change for {name} (id n/a, set n/a)")
        path = (f"/cib/status/node_state[@id='{nid}']/transient_attributes[@id='{nid}']/instance_attributes[@id='status-{nid}']"
                f"/nvpair[@id='status-{nid}-{name}']")
        if new == "(unset)":
            ch = f"-- {path}"
        elif old == "(unset)":
            ch = (f"++ /cib/status/node_state[@id='{nid}']/transient_attributes[@id='{nid}']/instance_attributes[@id='status-{nid}']:  "
                  f"<nvpair id=\"status-{nid}-{name}\" name=\"{name}\" value=\"{new}\"/>")
        else:
            ch = f"+  {path}:  @value={new}"
        tc = tw + ms(rng.uniform(1, 4))
        v = self._cib(tc, [ch], f"{ME}/attrd/{req}")
        self.P(tc + ms(2), a, "attrd_cib_callback", "info", f"CIB update {req} result for {name}: OK | rc=0")
        self.P(tc + ms(2), a, "attrd_cib_callback", "info", f"* {name}[{node}]={new if new != '(unset)' else ''}")
        what = f"doing modify {name}={new}" if new != "(unset)" else "deletion"
        self.P(tc + ms(3), CTLD, "abort_transition_graph", "info",
               f"Transition {self.tn} aborted by status-{nid}-{name} {what}: Transient attribute change | cib={v} "
               f"source=abort_unless_down:330 path={path} complete=true")
        return tc + ms(3)

    def _pe(self, t, cause="abort", notices=(), warn=False, leave=True, moving=(), skip_node=None):
        """One scheduler run and the graph it hands the controller; returns (transition, source, time)."""
        rng = self.rng
        if cause == "timer":
            self.P(t, CTLD, "crm_timer_popped", "info", "Cluster Recheck Timer just popped | input=I_PE_CALC time=900000ms")
            self.P(t, CTLD, "do_state_transition", "notice",
                   "State transition S_IDLE -> S_POLICY_ENGINE | input=I_PE_CALC cause=C_TIMER_POPPED origin=crm_timer_popped")
        elif cause == "abort":
            self.P(t, CTLD, "do_state_transition", "notice",
                   "State transition S_IDLE -> S_POLICY_ENGINE | input=I_PE_CALC cause=C_FSA_INTERNAL origin=abort_transition_graph")
        t += ms(rng.uniform(3, 9))
        s = "pacemaker-schedulerd"
        self._online_lines(t)
        for func, level, msg in notices:
            self.P(t, s, func, level, msg)
        if leave:
            self._leave_lines(t, moving, skip_node)
        self.tn += 1
        if warn:
            self.pe_warn += 1
            src = f"/var/lib/pacemaker/pengine/pe-warn-{self.pe_warn}.bz2"
            self.P(t + ms(2), s, "process_pe_message", "warning", f"Calculated transition {self.tn} (with warnings), saving inputs in {src}")
        else:
            self.pe_input += 1
            src = f"/var/lib/pacemaker/pengine/pe-input-{self.pe_input}.bz2"
            self.P(t + ms(2), s, "process_pe_message", "notice", f"Calculated transition {self.tn}, saving inputs in {src}")
        t += ms(rng.uniform(4, 9))
        self.P(t, CTLD, "do_state_transition", "info",
               "State transition S_POLICY_ENGINE -> S_TRANSITION_ENGINE | input=I_PE_SUCCESS cause=C_IPC_MESSAGE origin=handle_response")
        self.pe_ref += rng.randint(1, 3)
        self.P(t, CTLD, "do_te_invoke", "info",
               f"Processing graph {self.tn} (ref=pe_calc-dc-{epoch(t)}-{self.pe_ref}) derived from {src}")
        return self.tn, src, t

    def _graph_done(self, t, tn, src, complete, skipped=0, incomplete=0, how="Complete"):
        self.P(t, CTLD, "run_graph", "notice",
               f"Transition {tn} (Complete={complete}, Pending=0, Fired=0, Skipped={skipped}, Incomplete={incomplete}, Source={src}): {how}")
        if how == "Complete":
            self.P(t, CTLD, "do_log", "info", "Input I_TE_SUCCESS received in state S_TRANSITION_ENGINE from notify_crmd")
            self.P(t, CTLD, "do_state_transition", "notice",
                   "State transition S_TRANSITION_ENGINE -> S_IDLE | input=I_TE_SUCCESS cause=C_FSA_INTERNAL origin=notify_crmd")

    def _idle_pe(self, t, cause="abort"):
        tn, src, t = self._pe(t, cause)
        self._graph_done(t + ms(1), tn, src, 0)

    def _local_op(self, t, rsc, op, exec_ms, action, tn):
        """An operation run on this node: controld initiates it, execd runs it, controld records the result."""
        rng = self.rng
        key = f"{rsc}_{op}_0"
        self.P(t, CTLD, "te_rsc_command", "notice",
               f"Initiating {'monitor' if op == 'monitor' else op} operation {key} locally on {ME} | action {action}")
        self.call_id += 1
        cid = self.call_id
        te = t + ms(rng.uniform(1, 4))
        self.P(te, "pacemaker-execd", "log_execute", "info", f"executing - rsc:{rsc} action:{op} call_id:{cid}")
        done = te + ms(exec_ms)
        self.op_pid += rng.randint(3, 40)
        self.P(done, "pacemaker-execd", "log_finished", "info",
               f"finished - rsc:{rsc} action:{op} call_id:{cid} pid:{self.op_pid} exit-code:0 exec-time:{exec_ms}ms queue-time:0ms")
        self.exec_times.append(exec_ms)
        self.cib_update += rng.randint(1, 3)
        name = "probe" if op == "monitor" else op
        rc = "0 (ok)"
        self.P(done + ms(2), CTLD, "process_lrm_event", "notice",
               f"Result of {name} operation for {rsc} on {ME}: {rc} | call={cid} key={key} confirmed=true cib-update={self.cib_update}")
        nid = NODEID[ME]
        self._cib(done + ms(3), [f"+  /cib/status/node_state[@id='{nid}']/lrm[@id='{nid}']/lrm_resources/lrm_resource[@id='{rsc}']"
                                 f"/lrm_rsc_op[@id='{rsc}_last_0']:  @operation_key={key}, @operation={op}, "
                                 f"@transition-key={action}:{tn}:0:{self.uuid_dc}, @transition-magic=0:0;{action}:{tn}:0:{self.uuid_dc}, "
                                 f"@call-id={cid}, @last-rc-change={epoch(done)}, @exec-time={exec_ms}"],
                 f"{ME}/crmd/{self.cib_update}")
        self.P(done + ms(4), CTLD, "match_graph_event", "info", f"Action {key} ({action}) confirmed on {ME} (rc=0)")
        return done + ms(5)

    def _remote_op(self, t, node, rsc, op, action, rc, dur):
        key = f"{rsc}_{op}_0"
        self.P(t, CTLD, "te_rsc_command", "notice", f"Initiating {op} operation {key} on {node} | action {action}")
        done = t + ms(dur)
        self.P(done, CTLD, "match_graph_event", "info", f"Action {key} ({action}) confirmed on {node} (rc={rc})")
        return done

    def _membership(self, t, node, lost):
        nid = NODEID[node]
        group = {"pacemaker-based": "cib", "pacemaker-fenced": "stonith-ng", "pacemaker-attrd": "attrd", CTLD: "crmd"}
        for d in ("pacemaker-based", "pacemaker-fenced", "pacemaker-attrd", CTLD):
            if lost:
                self.P(t, d, "pcmk_cpg_membership", "info",
                       f"Group {group[d]} event {self.cpg_event}: {node} (node {nid} pid 1893) left via cluster exit")
                self.P(t, d, "crm_update_peer_proc", "info", f"pcmk_cpg_membership: Node {node}[{nid}] - corosync-cpg is now offline")
                self.P(t, d, "crm_update_peer_state_iter", "notice",
                       f"Node {node} state is now lost | nodeid={nid} previous=member source=crm_update_peer_proc")
            else:
                self.P(t, d, "crm_update_peer_state_iter", "notice",
                       f"Node {node} state is now member | nodeid={nid} previous=lost source=pcmk_quorum_notification")
        self.cpg_event += 1
        self.P(t, CTLD, "pcmk_quorum_notification", "info",
               f"Quorum retained | membership={1184 if lost else 1188} members={2 if lost else 3}")

    def _cluster(self):
        rng = self.rng
        self.cibv, self.attr_req, self.tn, self.pe_input, self.pe_warn, self.pe_ref = 2031, 1408, 3011, 1402, 40, 1190
        self.call_id, self.op_pid, self.cib_update, self.cpg_event = 52, 40911, 588, 7
        self.uuid_dc = "8c2f4a3e-51d0-4b7e-9f2a-6d3c1e0b7a54"
        self.exec_times = []
        self.online = {n: True for n in NODES}
        self.where = {"fence-pbx-ha-1": "pbx-ha-2", "fence-pbx-ha-2": "pbx-ha-3", "fence-pbx-ha-3": "pbx-ha-1",
                      "fs-spool": "pbx-ha-2", "vip-sip": "pbx-ha-2", "asterisk": "pbx-ha-2"}
        events = []    # (t, kind, payload)
        # SysInfo: every 180 s per node, cpu_load and ram_free
        self.sys_vals = {n: {"cpu_load": f"{rng.uniform(0.05, 0.9):.2f}", "ram_free": str(rng.randint(3900, 5200))} for n in NODES}
        for n in NODES:
            t = START + secs(rng.uniform(5, 175))
            while t < END:
                events.append((t, "sysinfo", n))
                t += secs(180) + ms(rng.uniform(-60, 60))
        t = T(0, 7, 31, 518000)
        while t < END:
            events.append((t, "timer", None))
            t += secs(900)
        for a, b in PINGD_FLAPS:
            events.append((a, "ping_down", "pbx-ha-1"))
            events.append((b, "ping_up", "pbx-ha-1"))
        events.append((REFRESH_AT, "refresh", None))
        events.append((MON_FAIL, "incident", None))
        events.append((REJOIN, "rejoin", None))
        events.append((HIGH_LOAD[0], "load", None))
        events.sort(key=lambda e: e[0])
        busy_until = START
        for t, kind, arg in events:
            if kind in ("sysinfo", "timer") and (QUIET_PM[0] <= t < QUIET_PM[1] or REJOIN - secs(10) <= t < REJOIN + secs(75)):
                continue
            if kind in ("sysinfo", "timer") and t < busy_until:
                t = busy_until + ms(rng.uniform(20, 300))
            if kind == "sysinfo":
                if not self.online[arg]:
                    continue
                changed = []
                for name, p in (("cpu_load", 0.9), ("ram_free", 0.5)):
                    if rng.random() < p:
                        old = self.sys_vals[arg][name]
                        if name == "cpu_load":
                            hi = arg == ME and HIGH_LOAD[0] <= t < HIGH_LOAD[1]
                            new = f"{rng.uniform(4.5, 10.5) if hi else rng.uniform(0.05, 1.9):.2f}"
                        else:
                            new = str(rng.randint(3900, 5200))
                        if new != old:
                            changed.append((name, old, new))
                            self.sys_vals[arg][name] = new
                tt = t
                for name, old, new in changed:
                    tt = self._attr(tt, arg, name, old, new) + ms(rng.uniform(0.2, 1))
                if changed:
                    self._idle_pe(tt + ms(2))
                    busy_until = tt + secs(0.2)
            elif kind == "timer":
                self._idle_pe(t, cause="timer")
                busy_until = t + secs(0.2)
            elif kind == "ping_down":
                tt = self._attr(t, arg, "pingd", "1000", "0")
                self._idle_pe(tt + ms(2))
            elif kind == "ping_up":
                tt = self._attr(t, arg, "pingd", "0", "1000")
                self._idle_pe(tt + ms(2))
            elif kind == "refresh":
                busy_until = self._refresh(t)
            elif kind == "incident":
                busy_until = self._incident(t)
            elif kind == "rejoin":
                busy_until = self._rejoin(t)
            elif kind == "load":
                self._throttle()

    def _refresh(self, t):
        rng = self.rng
        self.P(t, CTLD, "delete_resource", "info", "Removing resource sysinfo for crm_resource.40871 (internal) on pbx-ha-3")
        self.P(t, CTLD, "notify_deleted", "info", "Notifying crm_resource.40871 on pbx-ha-3 that sysinfo was deleted")
        v = None
        for k, n in enumerate(NODES):
            nid = NODEID[n]
            v = self._cib(t + ms(2 + 2 * k), [f"-- /cib/status/node_state[@id='{nid}']/lrm[@id='{nid}']/lrm_resources/lrm_resource[@id='sysinfo']"],
                          f"{n}/crmd/{rng.randint(300, 700)}")
        self.P(t + ms(5), CTLD, "abort_transition_graph", "info",
               f"Transition {self.tn} aborted by deletion of lrm_resource[@id='sysinfo']: Resource state removal | cib={v} "
               f"source=abort_unless_down:344 path=/cib/status/node_state[@id='3']/lrm[@id='3']/lrm_resources/lrm_resource[@id='sysinfo'] "
               "complete=true")
        tn, src, t2 = self._pe(t + ms(7))
        a = self._remote_op(t2 + ms(1), "pbx-ha-1", "sysinfo", "monitor", 4, 0, 1210)
        b = self._remote_op(t2 + ms(1), "pbx-ha-2", "sysinfo", "monitor", 5, 0, 1345)
        c = self._local_op(t2 + ms(1), "sysinfo", "monitor", 1287, 6, tn)
        end = max(a, b, c) + ms(3)
        self._graph_done(end, tn, src, 3)
        return end + secs(0.2)

    def _incident(self, t):
        """asterisk's monitor times out on pbx-ha-2, its stop too; pbx-ha-2 is fenced and the group moves here."""
        rng = self.rng
        t = MON_FAIL + ms(84)
        ts = epoch(MON_FAIL)
        nid = 2
        v = self._cib(t, [f"++ /cib/status/node_state[@id='{nid}']/lrm[@id='{nid}']/lrm_resources/lrm_resource[@id='asterisk']:  "
                          f"<lrm_rsc_op id=\"asterisk_last_failure_0\" operation_key=\"asterisk_monitor_20000\" operation=\"monitor\" "
                          f"crm-debug-origin=\"do_update_resource\" crm_feature_set=\"{FEATURES}\" "
                          f"transition-key=\"33:3011:0:{self.uuid_dc}\" transition-magic=\"2:1;33:3011:0:{self.uuid_dc}\" "
                          f"exit-reason=\"\" on_node=\"pbx-ha-2\" call-id=\"73\" rc-code=\"1\" op-status=\"2\" interval=\"20000\" "
                          f"last-rc-change=\"{ts}\" exec-time=\"30002\" queue-time=\"0\" op-digest=\"3b7c1d0e6f2a9b84c5d1e0f7a2b3c4d5\"/>"],
                      "pbx-ha-2/crmd/389")
        self.P(t + ms(2), CTLD, "abort_transition_graph", "info",
               f"Transition {self.tn} aborted by operation asterisk_monitor_20000 'create' on pbx-ha-2: Old event | "
               f"magic=2:1;33:3011:0:{self.uuid_dc} cib={v} source=process_graph_event:500 complete=true")
        self.P(t + ms(2), CTLD, "update_failcount", "info",
               f"Updating failcount for asterisk on pbx-ha-2 after failed monitor: rc=1 (update=value++, time={ts})")
        self.P(t + ms(2), CTLD, "process_graph_event", "info",
               "Detected action (3011.33) asterisk_monitor_20000.73=unknown error: failed")
        tt = self._attr(t + ms(4), "pbx-ha-2", "fail-count-asterisk#monitor_20000", "(unset)", "1", src="pbx-ha-3")
        tt = self._attr(tt + ms(1), "pbx-ha-2", "last-failure-asterisk#monitor_20000", "(unset)", str(ts), src="pbx-ha-3")
        fail_mon = ("unpack_rsc_op_failure", "warning", "Processing failed monitor of asterisk on pbx-ha-2: Timed Out | rc=1")
        tn, src, t2 = self._pe(tt + ms(3), notices=[fail_mon, ("LogAction", "notice", " * Recover    asterisk           (             pbx-ha-2 )")],
                               moving={"asterisk"})
        # the stop, on pbx-ha-2, times out
        self.P(STOP_INIT, CTLD, "te_rsc_command", "notice", f"Initiating stop operation asterisk_stop_0 on pbx-ha-2 | action 34")
        self.P(STOP_FAIL, CTLD, "status_from_rc", "warning", "Action 34 (asterisk_stop_0) on pbx-ha-2 failed (target: 0 vs. rc: 1): Error")
        ts2 = epoch(STOP_FAIL)
        v = self._cib(STOP_FAIL, [f"+  /cib/status/node_state[@id='2']/lrm[@id='2']/lrm_resources/lrm_resource[@id='asterisk']"
                                  f"/lrm_rsc_op[@id='asterisk_last_failure_0']:  @operation_key=asterisk_stop_0, @operation=stop, "
                                  f"@transition-key=34:{tn}:0:{self.uuid_dc}, @transition-magic=2:1;34:{tn}:0:{self.uuid_dc}, "
                                  f"@call-id=74, @rc-code=1, @op-status=2, @interval=0, @last-rc-change={ts2}, @exec-time=90002"],
                      "pbx-ha-2/crmd/392")
        self.P(STOP_FAIL + ms(2), CTLD, "abort_transition_graph", "notice",
               f"Transition {tn} aborted by operation asterisk_stop_0 'modify' on pbx-ha-2: Event failed | "
               f"magic=2:1;34:{tn}:0:{self.uuid_dc} cib={v} source=match_graph_event:299 complete=false")
        self.P(STOP_FAIL + ms(2), CTLD, "match_graph_event", "info", "Action asterisk_stop_0 (34) confirmed on pbx-ha-2 (rc=1)")
        self.P(STOP_FAIL + ms(2), CTLD, "update_failcount", "info",
               f"Updating failcount for asterisk on pbx-ha-2 after failed stop: rc=1 (update=INFINITY, time={ts2})")
        self.P(STOP_FAIL + ms(2), CTLD, "process_graph_event", "info",
               f"Detected action ({tn}.34) asterisk_stop_0.74=unknown error: failed")
        self._graph_done(STOP_FAIL + ms(3), tn, src, 1, skipped=2, how="Stopped")
        self.P(STOP_FAIL + ms(3), CTLD, "do_state_transition", "notice",
               "State transition S_TRANSITION_ENGINE -> S_POLICY_ENGINE | input=I_PE_CALC cause=C_FSA_INTERNAL origin=notify_crmd")
        tt = self._attr(STOP_FAIL + ms(5), "pbx-ha-2", "fail-count-asterisk#stop_0", "(unset)", "INFINITY", src="pbx-ha-3")
        tt = self._attr(tt + ms(1), "pbx-ha-2", "last-failure-asterisk#stop_0", "(unset)", str(ts2), src="pbx-ha-3")
        notices = [fail_mon,
                   ("unpack_rsc_op_failure", "warning", "Processing failed stop of asterisk on pbx-ha-2: Timed Out | rc=1"),
                   ("pe_fence_node", "warning", "Cluster node pbx-ha-2 will be fenced: asterisk failed there"),
                   ("stage6", "warning", "Scheduling Node pbx-ha-2 for STONITH"),
                   ("LogNodeActions", "notice", " * Fence (reboot) pbx-ha-2 'asterisk failed there'"),
                   ("LogAction", "notice", " * Move       fence-pbx-ha-1     (      pbx-ha-2 -> pbx-ha-3 )"),
                   ("LogAction", "notice", " * Move       fs-spool           (      pbx-ha-2 -> pbx-ha-3 )"),
                   ("LogAction", "notice", " * Move       vip-sip            (      pbx-ha-2 -> pbx-ha-3 )"),
                   ("LogAction", "notice", " * Recover    asterisk           ( pbx-ha-2 -> pbx-ha-3 )"),
                   ("LogAction", "notice", " * Stop       ping:1             (                 pbx-ha-2 )  due to node availability"),
                   ("LogAction", "notice", " * Stop       sysinfo:1          (                 pbx-ha-2 )  due to node availability")]
        tn, src, t3 = self._pe(FENCE_REQ - ms(20), cause=None, notices=notices, warn=True,
                               moving={"fence-pbx-ha-1", "fs-spool", "vip-sip", "asterisk"}, skip_node="pbx-ha-2")
        # fencing
        self.P(FENCE_REQ, CTLD, "te_fence_node", "notice", "Requesting fencing (reboot) of node pbx-ha-2 | action=1 timeout=60000")
        f = "pacemaker-fenced"
        opid = "5c0e2a41-77d3-4e1b-9a2f-3b8d6c4e1f02"
        self.P(FENCE_REQ + ms(1), f, "handle_request", "notice",
               "Client pacemaker-controld.1864.4c1e2b0d wants to fence (reboot) 'pbx-ha-2' with device '(any)'")
        self.P(FENCE_REQ + ms(1), f, "initiate_remote_stonith_op", "notice",
               f"Requesting peer fencing (reboot) of pbx-ha-2 | id={opid} state=0")
        self.P(FENCE_REQ + ms(3), f, "can_fence_host_with_device", "notice", "fence-pbx-ha-2 can fence (reboot) pbx-ha-2: static-list")
        self.P(FENCE_REQ + ms(9), f, "process_remote_stonith_query", "info",
               f"Query result 1 of 2 from pbx-ha-1 for pbx-ha-2/reboot (0 devices) {opid}")
        self.P(FENCE_REQ + ms(10), f, "process_remote_stonith_query", "info",
               f"Query result 2 of 2 from pbx-ha-3 for pbx-ha-2/reboot (1 devices) {opid}")
        self.P(FENCE_REQ + ms(10), f, "call_remote_stonith", "info",
               f"Total timeout set to 60 for peer's fencing of pbx-ha-2 for pacemaker-controld.1864|id={opid}")
        self.P(FENCE_REQ + ms(10), f, "call_remote_stonith", "notice",
               "Requesting that pbx-ha-3 perform 'reboot' action targeting pbx-ha-2 | for client pacemaker-controld.1864 (72s, 0s)")
        self.P(FENCE_REQ + ms(12), f, "stonith_fence_get_devices_cb", "info", "Found 1 matching devices for 'pbx-ha-2'")
        # the node drops out of the membership while it is powered off
        self.online["pbx-ha-2"] = False
        self._membership(NODE_LOST, "pbx-ha-2", lost=True)
        self.P(NODE_LOST + ms(1), CTLD, "peer_update_callback", "info",
               "Node pbx-ha-2 is no longer a peer | DC=true old=0x4000000 new=0x0000000")
        self.P(NODE_LOST + ms(2), "pacemaker-attrd", "attrd_peer_remove", "notice", "Removing all pbx-ha-2 attributes for peer loss")
        self.P(FENCE_OK, f, "log_operation", "notice",
               "Operation 'reboot' [42007] (call 5 from pacemaker-controld.1864) for host 'pbx-ha-2' with device 'fence-pbx-ha-2' returned: 0 (OK)")
        self.P(FENCE_OK + ms(2), f, "remote_op_done", "notice",
               f"Operation 'reboot' targeting pbx-ha-2 on pbx-ha-3 for pacemaker-controld.1864@pbx-ha-3.{opid[:8]}: OK")
        self.P(FENCE_OK + ms(3), CTLD, "tengine_stonith_callback", "notice", f"Stonith operation 5/1:{tn}:0:{self.uuid_dc}: OK (0)")
        self.P(FENCE_OK + ms(3), CTLD, "tengine_stonith_notify", "notice",
               f"Peer pbx-ha-2 was terminated (reboot) by pbx-ha-3 on behalf of pacemaker-controld.1864: OK | initiator=pbx-ha-3 ref={opid}")
        v = self._cib(FENCE_OK + ms(5), ["-- /cib/status/node_state[@id='2']/lrm[@id='2']",
                                         "-- /cib/status/node_state[@id='2']/transient_attributes[@id='2']",
                                         "+  /cib/status/node_state[@id='2']:  @crmd=offline, @crm-debug-origin=send_stonith_update, @join=down, @expected=down"],
                      "pbx-ha-3/crmd/603")
        # the moves, here
        t = FENCE_OK + ms(40)
        t = self._local_op(t, "fence-pbx-ha-1", "start", 41, 13, tn)
        t = self._local_op(t + ms(2), "fs-spool", "start", 2143, 24, tn)
        t = self._local_op(t + ms(2), "vip-sip", "start", 82, 27, tn)
        assert t < AST_START_INIT
        done = self._local_op(AST_START_INIT, "asterisk", "start", AST_START_NS, 30, tn)
        assert abs((done - ms(5) - AST_START_DONE).total_seconds()) < 0.01, (done, AST_START_DONE)
        for k, rsc in enumerate(("fence-pbx-ha-1", "fs-spool", "vip-sip", "asterisk")):
            self.P(done + ms(1 + k), CTLD, "te_rsc_command", "notice",
                   f"Initiating monitor operation {rsc}_monitor_{60000 if rsc.startswith('fence') else 20000} locally on {ME} | action {14 + k * 5}")
        for rsc in ("fence-pbx-ha-1", "fs-spool", "vip-sip", "asterisk"):
            self.where[rsc] = ME
        self._graph_done(done + ms(240), tn, src, 13)
        return done + secs(1)

    def _online_lines(self, t):
        for n in NODES:
            if self.online[n]:
                self.P(t, "pacemaker-schedulerd", "determine_online_status", "info", f"Node {n} is online")

    def _leave_lines(self, t, moving=(), skip_node=None):
        s = "pacemaker-schedulerd"
        for rsc in ["fence-pbx-ha-1", "fence-pbx-ha-2", "fence-pbx-ha-3", "fs-spool", "vip-sip", "asterisk"]:
            if rsc not in moving:
                self.P(t, s, "LogActions", "info", f"Leave   {rsc}\t(Started {self.where[rsc]})")
        for clone in ("ping", "sysinfo"):
            for k, n in enumerate(NODES):
                if self.online[n] and n != skip_node:
                    self.P(t, s, "LogActions", "info", f"Leave   {clone}:{k}\t(Started {n})")

    def _rejoin(self, t):
        rng = self.rng
        self.online["pbx-ha-2"] = True
        self._membership(REJOIN, "pbx-ha-2", lost=False)
        tp = REJOIN + ms(6412)
        self.P(tp, CTLD, "pcmk_cpg_membership", "info", f"Group crmd event {self.cpg_event}: pbx-ha-2 (node 2 pid 1877) is member")
        self.P(tp, CTLD, "crm_update_peer_proc", "info", "pcmk_cpg_membership: Node pbx-ha-2[2] - corosync-cpg is now online")
        self.P(tp + ms(1), CTLD, "peer_update_callback", "info", "Node pbx-ha-2 is now a peer | DC=true old=0x0000000 new=0x4000000")
        tj = tp + ms(1812)
        self.P(tj, CTLD, "do_state_transition", "info",
               "State transition S_IDLE -> S_INTEGRATION | input=I_NODE_JOIN cause=C_FSA_INTERNAL origin=peer_update_callback")
        self.P(tj, CTLD, "do_dc_join_offer_one", "info", "Making join-5 offers based on membership event 1188")
        self.P(tj, CTLD, "join_make_offer", "info", "Sending join-5 offer to pbx-ha-2")
        self.P(tj + ms(64), CTLD, "do_dc_join_filter_offer", "info", "Node pbx-ha-2[2] - join-5 phase welcomed -> integrated")
        self.P(tj + ms(64), CTLD, "do_state_transition", "info",
               "State transition S_INTEGRATION -> S_FINALIZE_JOIN | input=I_INTEGRATED cause=C_FSA_INTERNAL origin=check_join_state")
        self.P(tj + ms(65), CTLD, "do_dc_join_finalize", "info", "Finalizing join-5 for 3 clients")
        self.P(tj + ms(90), CTLD, "do_dc_join_ack", "info", "Updating node state to member for pbx-ha-2")
        self.P(tj + ms(90), CTLD, "controld_delete_node_state", "info", "Deleting resource history for node pbx-ha-2 (via CIB call 1506)")
        self._cib(tj + ms(95), ["+  /cib/status/node_state[@id='2']:  @crmd=online, @crm-debug-origin=do_lrm_query_internal, @join=member, @expected=member"],
                  "pbx-ha-3/crmd/612")
        self.P(tj + ms(98), CTLD, "do_state_transition", "notice",
               "State transition S_FINALIZE_JOIN -> S_POLICY_ENGINE | input=I_FINALIZED cause=C_FSA_INTERNAL origin=check_join_state")
        notices = [("LogAction", "notice", " * Start      ping:1             (                 pbx-ha-2 )"),
                   ("LogAction", "notice", " * Start      sysinfo:1          (                 pbx-ha-2 )")]
        tn, src, t2 = self._pe(tj + ms(100), cause=None, notices=notices, skip_node="pbx-ha-2")
        tt = t2 + ms(2)
        ends = []
        for k, rsc in enumerate(["fence-pbx-ha-1", "fence-pbx-ha-2", "fence-pbx-ha-3", "fs-spool", "vip-sip", "asterisk", "ping", "sysinfo"]):
            ends.append(self._remote_op(tt, "pbx-ha-2", rsc, "monitor", 3 + k, 7, rng.randint(40, 900)))
        t3 = max(ends) + ms(20)
        t3 = self._remote_op(t3, "pbx-ha-2", "ping", "start", 41, 0, 4102)
        t3 = self._remote_op(t3 + ms(5), "pbx-ha-2", "sysinfo", "start", 45, 0, 1388)
        self._graph_done(t3 + ms(30), tn, src, 12)
        # the fresh node publishes its attributes again
        tt = t3 + secs(1.2)
        for name, val in (("pingd", "1000"), ("cpu_load", f"{rng.uniform(0.4, 1.2):.2f}"), ("ram_free", str(rng.randint(5600, 6100)))):
            tt = self._attr(tt, "pbx-ha-2", name, "(unset)", val) + ms(2)
            if name != "pingd":
                self.sys_vals["pbx-ha-2"][name] = val
        self._idle_pe(tt + ms(2))
        return tt + secs(1)

    def _throttle(self):
        rng = self.rng
        a, b = HIGH_LOAD
        self.P(a - ms(2), CTLD, "throttle_send_command", "info", "New throttle mode: high load (was low)")
        self.loads = []
        t = a
        while t < b:
            if abs((t - T(3, 12, 40)).total_seconds()) < 15:
                v = LOAD_PEAK
            elif T(3, 11, 30) <= t < T(3, 14):
                v = round(rng.uniform(10.6, 11.7), 2)
            else:
                v = round(rng.uniform(6.5, 10.9), 2)
            self.loads.append([t, v])
            t += secs(30) + ms(rng.uniform(-40, 40))
        self._tune_load_mean()
        for t, v in self.loads:
            self.P(t, CTLD, "throttle_check_thresholds", "notice", f"High CPU load detected: {v:.6f}")
        self.P(b + ms(400), CTLD, "throttle_send_command", "info", "New throttle mode: low load (was high)")

    def _tune_load_mean(self):
        """The mean of the logged loads off its rounding edges at one and two decimals."""
        vals = self.loads
        for _ in range(4000):
            m = sum(v for _, v in vals) / len(vals)
            if 0.15 < (m * 100) % 1 < 0.4 and 0.1 < (m * 10) % 1 < 0.4:
                return
            i = self.rng.randrange(len(vals))
            if vals[i][1] != LOAD_PEAK and vals[i][1] < 10.88:
                vals[i][1] = round(vals[i][1] + 0.01, 2)
        raise AssertionError("load mean not tunable")


# ------------------------------------------------------------ rendering

def pacemaker_log(night):
    out = []
    for t, _, daemon, func, level, msg in sorted(night.pm, key=lambda e: (e[0], e[1])):
        if not (START <= t < END):
            continue
        out.append(f"{t:%b %d %H:%M:%S}.{t.microsecond // 1000:03d} {ME} {daemon:<20}[{DPID[daemon]}] ({func}) \t{level}: {msg}")
    return "\n".join(out) + "\n"


def rabbit_log(night):
    out = []
    for t, _, level, pid, msg in sorted(night.mq, key=lambda e: (e[0], e[1])):
        if not (START <= t < END):
            continue
        stamp = f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond:06d}+00:00"
        for line in msg.split("\n"):
            out.append(f"{stamp} [{level}] {pid} {line}".rstrip())
    return "\n".join(out) + "\n"


def asterisk_log(night):
    out = []
    for t, _, level, tid, cid, src, msg in sorted(night.ast, key=lambda e: (e[0], e[1])):
        if not (START <= t < END):
            continue
        tag = f"{level}[{tid}]" + (f"[{cid}]" if cid else "")
        out.append(f"[{t:%Y-%m-%d %H:%M:%S}] {tag} {src}: {msg}")
    return "\n".join(out) + "\n"


def write_all(seed):
    night = Night(seed)
    return {PM: pacemaker_log(night), MQ: rabbit_log(night), AST: asterisk_log(night)}, night
