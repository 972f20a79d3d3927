#!/usr/bin/env python3
"""Hostile and heavy NPLT peers for `make chaos` (scripts/chaos.sh): loads a running server
and prints one line `idle_kib=N peak_kib=N after_kib=N settle_s=S served=0|1`: the server's
RSS before (settled), its peak during the load, the first reading within 10 s after the load
ended that is at most 1.2 x idle (or the last reading when none is: settle_s=-1), and
whether a normal client got a WELCOME while the load lasted.

  chaos_peers.py fragments ADDR PID TOKEN    200 peers, 128 FRAGMENTs each, never a HELLO
  chaos_peers.py idle ADDR PID TOKEN         300 silent sockets
  chaos_peers.py noread ADDR PID TOKEN FILE  40 clients accept an nplt download, never read
  chaos_peers.py httpidle ADDR PID TOKEN     150 idle sockets on the HTTP port (NPLT port + 2)
                                             from 127.0.0.1; served = /api/health still
                                             answers a client at 127.0.0.2
  chaos_peers.py uploads ADDR PID TOKEN TUI DIR N SIZE CONC
                                             N uploads of SIZE-byte logs through the real
                                             client, CONC at a time
  chaos_peers.py authidle ADDR PID TOKEN     300 clients past HELLO, idle; half of them send
                                             a HEARTBEAT every second
  chaos_peers.py legacyidle ADDR PID -       300 silent sockets greeted as legacy clients
                                             (a server without a token)
  chaos_peers.py slowloris ADDR PID TOKEN    100 HTTP sockets sending a request head that never
                                             ends, each reopened as soon as it is closed;
                                             /api/health asked 30 times from 127.0.0.1
  chaos_peers.py halfup ADDR PID TOKEN       20 clients start a 10 MiB upload, send 9.9 MB,
                                             then only HEARTBEATs; temp space sampled
  chaos_peers.py hellospam ADDR PID TOKEN    3,000 connect, HELLO, close cycles; sessions
                                             counted in the database before and after

Every kind also prints served_s: seconds a normal client took to get its WELCOME during
the load (the slowest of three tries).
"""
import json
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

FRAGMENT, HELLO, WELCOME, DOWNLOAD_REQUEST, OFFER, OFFER_ACCEPT = 0x7F, 0x20, 0x21, 0x58, 0x59, 0x5A
SESSION_CMD, SESSION_REPLY = 0x30, 0x31
ERROR, HEARTBEAT, UPLOAD_START, UPLOAD_DATA = 0x23, 0x22, 0x40, 0x41


def rss_kib(pid, field="VmRSS"):
    """VmRSS (all resident pages), or RssAnon (the heap: excludes the index's mmapped
    files, which are page cache the kernel reclaims) with field="RssAnon"."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def frame(ty, seq, payload):
    return struct.pack(">BHH", ty, seq, len(payload)) + payload


def connect(addr, source=None):
    host, port = addr.rsplit(":", 1)
    src = (source, 0) if source else None
    s = socket.create_connection((host, int(port)), timeout=20, source_address=src)
    return s


def recv_frame(s):
    head = b""
    while len(head) < 5:
        b = s.recv(5 - len(head))
        if not b:
            raise ConnectionError("closed")
        head += b
    ty, _seq, n = struct.unpack(">BHH", head)
    body = b""
    while len(body) < n:
        b = s.recv(n - len(body))
        if not b:
            raise ConnectionError("closed")
        body += b
    return ty, body


def hello(addr, token):
    s = connect(addr)
    msg = {"proto": 1, "client": "chaos", "client_version": "0"}
    if token and token != "-":
        msg["auth_token"] = token
    s.sendall(frame(HELLO, 0, json.dumps(msg).encode()))
    ty, _ = recv_frame(s)
    if ty != WELCOME:
        s.close()
        raise ConnectionError(f"no WELCOME (frame 0x{ty:02x})")
    return s


def served(addr, token):
    try:
        hello(addr, token).close()
        return True
    except OSError:
        return False


def served_time(addr, token, tries=3):
    """The slowest of `tries` WELCOMEs a normal client gets, in seconds (None: refused)."""
    worst = 0.0
    for _ in range(tries):
        t0 = time.time()
        if not served(addr, token):
            return None
        worst = max(worst, time.time() - t0)
        time.sleep(0.2)
    return round(worst, 3)


def data_dir(pid):
    args = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    return args[args.index(b"--data-dir") + 1].decode()


def session_count(pid):
    import sqlite3
    db = sqlite3.connect(f"file:{data_dir(pid)}/llmops.sqlite?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM sessions").fetchone()[0]
    finally:
        db.close()


def temp_bytes(pid):
    """Bytes in the server's upload temp folder (its own view: /proc/PID/root)."""
    tmp = f"/proc/{pid}/root{data_dir(pid)}/uploads/.tmp"
    total = 0
    for root, _dirs, files in os.walk(tmp):
        for f in files:
            try:
                total += os.stat(os.path.join(root, f)).st_blocks * 512
            except OSError:
                pass
    return total


def heartbeats(socks, stop, every):
    while not stop.wait(every):
        for s in socks:
            try:
                s.sendall(frame(HEARTBEAT, 0, b""))
            except OSError:
                pass


def half_upload(addr, token, size, sent):
    """HELLO, UPLOAD_START of `size` bytes, `sent` bytes of it; the socket, or None if the
    start was refused (the server says so before any data is read back)."""
    s = hello(addr, token)
    start = {"request_id": 1, "filename": "half.log", "size": size, "result_on_save": True}
    s.sendall(frame(UPLOAD_START, 1, json.dumps(start).encode()))
    chunk = b"2026-01-01 00:00:00 INFO half upload line\n" * 1400
    n, seq = 0, 2
    while n < sent:
        part = chunk[: min(len(chunk), sent - n)]
        s.sendall(frame(UPLOAD_DATA, seq & 0xFFFF, part))
        n, seq = n + len(part), seq + 1
    return s


def refused_early(s):
    """Whether the server answered an ERROR (a refused start) on `s` within 0.5 s."""
    s.settimeout(0.5)
    try:
        ty, body = recv_frame(s)
        return ty == ERROR and b"temp_budget" in body
    except (OSError, ConnectionError):
        return False
    finally:
        s.settimeout(20)


def health(http):
    """GET /api/health answers 200 while the HTTP port is flooded (asked from another
    loopback address than the flood's: the per-address limit is what keeps it reachable)."""
    try:
        s = connect(http, "127.0.0.2")
        s.settimeout(10)
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        head = s.recv(64)
        s.close()
        return head.startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def sample(pid, stop, out):
    while not stop.is_set():
        out[0] = max(out[0], rss_kib(pid))
        out[1] = max(out[1], rss_kib(pid, "RssAnon"))
        time.sleep(0.02)


def settled_idle(pid):
    """The idle level: the first reading that holds within 2% over 2 s (guard 60 s)."""
    window, guard = [], time.time() + 60
    while True:
        window = (window + [rss_kib(pid)])[-5:]
        if len(window) == 5 and (max(window) - min(window) <= max(window) // 50 or time.time() > guard):
            return max(window)
        time.sleep(0.5)


def settle(pid, idle):
    """Polls for 10 s after the load: (first reading <= 1.2 x idle, seconds) or (last, -1)."""
    start = time.time()
    while True:
        now = rss_kib(pid)
        if now * 5 <= idle * 6:
            return now, round(time.time() - start, 1)
        if time.time() - start > 10:
            return now, -1
        time.sleep(0.1)


def index_quiet(pid, quiet_s=3.0, guard_s=180.0):
    """Waits until the server's lexical index files stop changing for `quiet_s` (its
    segment merges for the load are done) and returns the seconds waited. The data dir is
    read from the server's command line (`--data-dir`)."""
    args = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
    data = args[args.index(b"--data-dir") + 1].decode()
    lex = os.path.join(data, "index", "lexical")

    def signature():
        try:
            names = sorted(os.listdir(lex))
        except OSError:
            return None
        out = []
        for n in names:
            try:
                st = os.stat(os.path.join(lex, n))
                out.append((n, st.st_size, st.st_mtime_ns))
            except OSError:
                pass
        return out

    start = time.time()
    last, since = signature(), time.time()
    while time.time() - start < guard_s:
        time.sleep(0.25)
        now = signature()
        if now != last:
            last, since = now, time.time()
        elif time.time() - since >= quiet_s:
            break
    return round(time.time() - start - quiet_s, 1)


def log_file(path, seed, size):
    """A realistic log of exactly `size` bytes (varied words, so the index has work)."""
    rng = random.Random(seed)
    words = ["GET", "POST", "/api/v1/orders", "/health", "timeout", "upstream", "refused",
             "db-primary", "cache", "worker", "retry", "200", "404", "500", "503", "ms"]
    out, n = [], 0
    while n < size:
        line = f"2026-01-01T00:{n % 60:02d}:{rng.randrange(60):02d} {rng.choice(['INFO', 'WARN', 'ERROR'])} " \
            + " ".join(rng.choice(words) + str(rng.randrange(10000)) for _ in range(8)) + "\n"
        out.append(line)
        n += len(line)
    data = "".join(out).encode()[:size]
    with open(path, "wb") as f:
        f.write(data[:-1] + b"\n")


def uploads(addr, token, tui, paths, conc):
    """Uploads through the real client, `conc` at a time; each returns once its file is
    indexed. True when all of them succeeded."""
    ok, pending = True, list(paths)
    while pending:
        batch, pending = pending[:conc], pending[conc:]
        procs = [subprocess.Popen([tui, "--server", addr, "--token", token, "--json", "upload",
                                   "--mode", "nplt", p], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL) for p in batch]
        for p in procs:
            out, _ = p.communicate()
            ok = ok and p.returncode == 0 and b"file_id" in out
    return ok


def delete_sessions(addr, token):
    """Deletes every other session of this token (with their uploads and index entries)."""
    s = hello(addr, token)
    s.sendall(frame(SESSION_CMD, 1, json.dumps({"request_id": 1, "op": "list"}).encode()))
    while True:
        ty, body = recv_frame(s)
        if ty == SESSION_REPLY:
            reply = json.loads(body)
            break
    current = (reply.get("current") or {}).get("id")
    for i, sess in enumerate(reply["sessions"]):
        if sess["id"] == current:
            continue
        rid = 10 + i
        s.sendall(frame(SESSION_CMD, rid, json.dumps({"request_id": rid, "op": "delete", "id": sess["id"]}).encode()))
        while True:
            ty, body = recv_frame(s)
            if ty in (SESSION_REPLY, ERROR) and json.loads(body).get("request_id") == rid:
                if ty == ERROR:
                    raise RuntimeError(f"session delete refused: {body[:200]!r}")
                break
    s.close()


def fragments(addr):
    chunk = bytes([HELLO]) + b"x" * 65534
    try:
        s = connect(addr)
        for i in range(128):
            s.sendall(frame(FRAGMENT, i, chunk))
        s.close()
    except OSError:
        pass  # refused or closed by the server: what it should do


def main():
    kind, addr, pid, token = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    if kind == "uploads":
        tui, work, n, size = sys.argv[5], sys.argv[6], int(sys.argv[7]), int(sys.argv[8])
        conc = int(sys.argv[9])
        # Written before the idle reading, so the files' page cache is not the server's.
        os.makedirs(work, exist_ok=True)
        paths = [os.path.join(work, f"load-{i}.log") for i in range(n)]
        for i, p in enumerate(paths):
            log_file(p, i, size)
        # Idle is the level of a server that has indexed and deleted one upload: the first
        # upload loads lasting state of its own (allocator arenas of the indexing threads,
        # the writer's first segments, about 11 MB for a 300 KB file), whatever its size.
        warm = os.path.join(work, "warm-up.log")
        log_file(warm, 999, 300_000)
        if not uploads(addr, token, tui, [warm], 1):
            sys.exit("warm-up upload failed")
        delete_sessions(addr, token)
    idle = settled_idle(pid)
    idle_anon = rss_kib(pid, "RssAnon")
    peak, stop = [idle, idle_anon], threading.Event()
    sampler = threading.Thread(target=sample, args=(pid, stop, peak))
    sampler.start()
    held, ok, note = [], False, ""
    try:
        if kind == "fragments":
            ts = [threading.Thread(target=fragments, args=(addr,)) for _ in range(200)]
            for t in ts:
                t.start()
            ok = served(addr, token)
            for t in ts:
                t.join()
        elif kind == "idle":
            for _ in range(300):
                try:
                    held.append(connect(addr))
                except OSError:
                    pass
            time.sleep(1)
            served_s = served_time(addr, token)
            ok = served_s is not None
            note += f"served_s={served_s} "
        elif kind == "noread":
            target = sys.argv[5]
            for i in range(40):
                s = hello(addr, token)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                req = {"request_id": 1, "target": target, "mode": "nplt"}
                s.sendall(frame(DOWNLOAD_REQUEST, 1, json.dumps(req).encode()))
                while True:
                    ty, body = recv_frame(s)
                    if ty == OFFER:
                        offer = json.loads(body)
                        break
                acc = {"offer_id": offer["offer_id"], "mode": "nplt", "resume_from": 0}
                s.sendall(frame(OFFER_ACCEPT, 2, json.dumps(acc).encode()))
                held.append(s)  # never read again
            time.sleep(3)
            ok = served(addr, token)
        elif kind == "httpidle":
            # chaos.sh puts the HTTP listener on the NPLT port + 2.
            host, port = addr.rsplit(":", 1)
            http = f"{host}:{int(port) + 2}"
            for _ in range(150):
                try:
                    held.append(connect(http))
                except OSError:
                    pass
            time.sleep(1)
            ok = health(http)
        elif kind == "uploads":
            # served: every upload got its result (the load itself is the client here)
            ok = uploads(addr, token, tui, paths, conc)
        elif kind == "authidle":
            beating = []
            for i in range(300):
                try:
                    s = hello(addr, token)
                    held.append(s)
                    if i % 2:
                        beating.append(s)
                except OSError:
                    pass
            hb_stop = threading.Event()
            hb = threading.Thread(target=heartbeats, args=(beating, hb_stop, 1.0))
            hb.start()
            time.sleep(2)
            served_s = served_time(addr, token)
            hb_stop.set()
            hb.join()
            ok = served_s is not None
            note += f"served_s={served_s} "
        elif kind == "legacyidle":
            for _ in range(300):
                try:
                    s = connect(addr)
                    held.append(s)
                except OSError:
                    pass
            greeted = 0
            for s in held:
                try:
                    ty, _ = recv_frame(s)
                    greeted += ty == 0x01
                except (OSError, ConnectionError):
                    pass
            served_s = served_time(addr, token)
            ok = served_s is not None
            note += f"greeted={greeted} served_s={served_s} "
        elif kind == "slowloris":
            host, port = addr.rsplit(":", 1)
            http = f"{host}:{int(port) + 2}"
            lstop, reopened = threading.Event(), [0]

            def loris():
                def open_one():
                    try:
                        s = connect(http)
                        s.sendall(b"GET /api/health HTTP/1.1\r\nX-a: ")
                        s.setblocking(False)
                        return s
                    except OSError:
                        return None
                socks = [open_one() for _ in range(100)]
                while not lstop.is_set():
                    for i, s in enumerate(socks):
                        closed = s is None
                        if s is not None:
                            # Anything read (the 503 of an eviction, or EOF) means closed.
                            try:
                                s.recv(512)
                                closed = True
                            except BlockingIOError:
                                closed = False
                            except OSError:
                                closed = True
                        if closed:
                            if s is not None:
                                s.close()
                            socks[i] = open_one()
                            reopened[0] += 1
                    time.sleep(0.005)
                for s in socks:
                    if s is not None:
                        s.close()
            lt = threading.Thread(target=loris)
            lt.start()
            time.sleep(1)
            answered, worst = 0, 0.0
            for _ in range(30):
                t0 = time.time()
                try:
                    s = connect(http)
                    s.settimeout(10)
                    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    answered += s.recv(64).startswith(b"HTTP/1.1 200")
                    s.close()
                except OSError:
                    pass
                worst = max(worst, time.time() - t0)
                time.sleep(0.1)
            served_s = served_time(addr, token)
            lstop.set()
            lt.join()
            ok = answered == 30 and served_s is not None
            note += f"health_ok={answered}/30 health_worst_s={round(worst, 3)} reopened={reopened[0]} served_s={served_s} "
        elif kind == "halfup":
            size, sent = 10 * 1024 * 1024, 9_900_000
            peak_tmp, refused, tstop = [0], 0, threading.Event()

            def tmp_sampler():
                while not tstop.is_set():
                    peak_tmp[0] = max(peak_tmp[0], temp_bytes(pid))
                    time.sleep(0.1)
            ts = threading.Thread(target=tmp_sampler)
            ts.start()
            for _ in range(20):
                try:
                    s = half_upload(addr, token, size, sent)
                except OSError:
                    refused += 1
                    continue
                if refused_early(s):
                    refused += 1
                    s.close()
                else:
                    held.append(s)
            last_data = time.time()
            hb_stop = threading.Event()
            hb = threading.Thread(target=heartbeats, args=(held, hb_stop, 2.0))
            hb.start()
            served_s = served_time(addr, token)
            during = temp_bytes(pid)
            # The stall deadline drops them: wait for the temp folder to empty (guard 120 s).
            cleared = None
            while time.time() - last_data < 120:
                if temp_bytes(pid) == 0:
                    cleared = round(time.time() - last_data, 1)
                    break
                time.sleep(0.2)
            hb_stop.set()
            hb.join()
            tstop.set()
            ts.join()
            ok = served_s is not None and cleared is not None
            note += (f"accepted={len(held)} refused={refused} temp_peak_kib={peak_tmp[0] // 1024} "
                     f"temp_during_kib={during // 1024} temp_cleared_s={cleared} served_s={served_s} ")
        elif kind == "hellospam":
            before = session_count(pid)
            failed = 0
            for _ in range(3000):
                try:
                    hello(addr, token).close()
                except OSError:
                    failed += 1
            served_s = served_time(addr, token)
            added = session_count(pid) - before
            ok = served_s is not None and added == 0
            note += f"cycles=3000 failed={failed} sessions_added={added} served_s={served_s} "
        else:
            sys.exit(f"unknown flood {kind}")
    finally:
        stop.set()
        sampler.join()
        for s in held:
            s.close()
    if kind == "uploads":
        # What the index holds for the data (its in-memory state) once the index work the
        # load caused is over (the last segment merges run on after the last upload was
        # acknowledged, reading the segments through mapped files), then the data deleted:
        # what is left after that is what the load itself kept.
        merging = index_quiet(pid)
        note = f"merging_s={merging} held_kib={rss_kib(pid)} anon_held_kib={rss_kib(pid, 'RssAnon')} "
        delete_sessions(addr, token)
        # The deletes make tantivy merge the segments they emptied (purging the deleted
        # text from disk); the 10 s start once that is done too.
        note += f"purging_s={index_quiet(pid)} "
    after, secs = settle(pid, idle)
    print(note + f"idle_kib={idle} peak_kib={peak[0]} after_kib={after} settle_s={secs} served={int(ok)} "
          f"anon_idle_kib={idle_anon} anon_peak_kib={peak[1]} anon_after_kib={rss_kib(pid, 'RssAnon')}")


if __name__ == "__main__":
    main()
