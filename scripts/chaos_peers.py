#!/usr/bin/env python3
"""Hostile NPLT peers for `make chaos` (scripts/chaos.sh): floods a running server and
prints one line `peak_kib=N served=0|1` (RSS of PID sampled during the attack, and whether
a normal client got a WELCOME while it lasted).

  chaos_peers.py fragments ADDR PID TOKEN   200 peers, 128 FRAGMENTs each, never a HELLO
  chaos_peers.py idle ADDR PID TOKEN        300 silent sockets
  chaos_peers.py noread ADDR PID TOKEN FILE 40 clients accept an nplt download, never read
"""
import json
import socket
import struct
import sys
import threading
import time

FRAGMENT, HELLO, WELCOME, DOWNLOAD_REQUEST, OFFER, OFFER_ACCEPT = 0x7F, 0x20, 0x21, 0x58, 0x59, 0x5A


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def frame(ty, seq, payload):
    return struct.pack(">BHH", ty, seq, len(payload)) + payload


def connect(addr):
    host, port = addr.rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=20)
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
    msg = {"proto": 1, "client": "chaos", "client_version": "0", "auth_token": token}
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


def sample(pid, stop, out):
    while not stop.is_set():
        out[0] = max(out[0], rss_kib(pid))
        time.sleep(0.02)


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
    peak, stop = [rss_kib(pid)], threading.Event()
    sampler = threading.Thread(target=sample, args=(pid, stop, peak))
    sampler.start()
    held, ok = [], False
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
            ok = served(addr, token)
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
        else:
            sys.exit(f"unknown flood {kind}")
    finally:
        stop.set()
        sampler.join()
        for s in held:
            s.close()
    print(f"peak_kib={peak[0]} served={int(ok)}")


if __name__ == "__main__":
    main()
