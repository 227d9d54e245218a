#!/usr/bin/env python3
"""The abuse scenarios of issue 21 against a running server (bench/abuse/run.sh starts one).

connections: an attacker on 127.0.0.2 holds IDLE idle and SLOW slow-header connections (each
  reopened as soon as the server drops it) while a client on 127.0.0.1 times GET /healthz and an
  authenticated GET, a fresh connection per request (a failed request counts as infinitely
  slow in p50/p99). Linux routes all of 127.0.0.0/8 to
  loopback, so binding the source address makes two clients on one machine.
memory: CONCURRENCY clients at once POST a 14 MB body of 7 million integers to a JSON endpoint;
  reports the server's peak RSS while they run.

Prints one `key=value` line per scenario.
"""
import argparse
import errno
import http.client
import select
import selectors
import socket
import threading
import time


REOPEN_S = 1.0


def percentile(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Attacker(threading.Thread):
    """Holds `idle` silent and `slow` dripping connections from `source`, reopening any the
    server closes. Non-blocking, one thread."""

    def __init__(self, port, source, idle, slow, drip_seconds):
        super().__init__(daemon=True)
        self.port, self.source = port, source
        self.idle, self.slow, self.drip = idle, slow, drip_seconds
        self.sel = selectors.DefaultSelector()
        self.stop = threading.Event()
        self.opened = self.dropped = self.refused = 0
        self.open_now = 0
        self.pending = []  # (when, kind): reopened shortly after the server drops one

    def connect(self, kind):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((self.source, 0))
            err = s.connect_ex(("127.0.0.1", self.port))
        except OSError:
            s.close()
            self.refused += 1
            return
        if err not in (0, errno.EINPROGRESS):
            s.close()
            self.refused += 1
            return
        state = {"kind": kind, "next": time.monotonic(), "sent_line": False}
        self.sel.register(s, selectors.EVENT_READ, state)
        self.opened += 1
        self.open_now += 1

    def drop(self, s):
        self.sel.unregister(s)
        s.close()
        self.dropped += 1
        self.open_now -= 1

    def run(self):
        for _ in range(self.idle):
            self.connect("idle")
        for _ in range(self.slow):
            self.connect("slow")
        while not self.stop.is_set():
            for key, _ in self.sel.select(timeout=0.1):
                try:
                    data = key.fileobj.recv(4096)
                except OSError:
                    data = b""
                if not data:  # the server closed it: come back (after REOPEN_S, not a storm)
                    kind = key.data["kind"]
                    self.drop(key.fileobj)
                    self.pending.append((time.monotonic() + REOPEN_S, kind))
            now = time.monotonic()
            due = [k for t, k in self.pending if t <= now]
            self.pending = [(t, k) for t, k in self.pending if t > now]
            for kind in due:
                self.connect(kind)
            for key in list(self.sel.get_map().values()):
                st = key.data
                if st["kind"] != "slow" or now < st["next"]:
                    continue
                line = b"X-Drip: 1\r\n" if st["sent_line"] else b"GET /healthz HTTP/1.1\r\n"
                try:
                    key.fileobj.send(line)
                    st["sent_line"] = True
                except OSError:
                    pass
                st["next"] = now + self.drip
        for key in list(self.sel.get_map().values()):
            key.fileobj.close()


def timed_get(port, path, token, timeout):
    started = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                       source_address=("127.0.0.1", 0))
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        c.request("GET", path, headers=headers)
        status = c.getresponse().status
        c.close()
    except (OSError, http.client.HTTPException):
        status = 0
    return status, time.monotonic() - started


def connections(args):
    attacker = Attacker(args.port, args.source, args.idle, args.slow, args.drip)
    attacker.start()
    time.sleep(args.settle)
    results = {"healthz": [], "authed": []}
    failures = {"healthz": 0, "authed": 0}
    lock = threading.Lock()
    end = time.monotonic() + args.seconds

    def client():
        while time.monotonic() < end:
            for name, path, token in (("healthz", "/healthz", None),
                                      ("authed", args.path, args.token)):
                status, took = timed_get(args.port, path, token, args.timeout)
                with lock:
                    # A failed request (refused, reset, timed out) counts as infinitely slow.
                    results[name].append(took * 1000 if status == 200 else float("inf"))
                    if status != 200:
                        failures[name] += 1

    clients = [threading.Thread(target=client) for _ in range(args.clients)]
    for t in clients:
        t.start()
    for t in clients:
        t.join()
    held = attacker.open_now
    attacker.stop.set()
    attacker.join()
    out = [f"scenario=connections idle={args.idle} slow={args.slow} source={args.source}"]
    for name in ("healthz", "authed"):
        v = results[name]
        out.append(f"{name}_n={len(v)} {name}_fail={failures[name]} "
                   f"{name}_p50_ms={percentile(v, 50):.1f} {name}_p99_ms={percentile(v, 99):.1f}")
    out.append(f"attacker_open_at_end={held} attacker_reopened={attacker.dropped}")
    print(" ".join(out), flush=True)


def memory(args):
    body = b'{"name":"memory","values":[' + b",".join([b"1"] * 7_000_000) + b"]}"
    stop = threading.Event()
    peak = [rss_kb(args.pid)]
    before = peak[0]

    def sample():
        while not stop.is_set():
            try:
                peak[0] = max(peak[0], rss_kb(args.pid))
            except OSError:
                return
            time.sleep(0.02)

    statuses = []
    lock = threading.Lock()

    head = (f"POST /api/v1/workspaces HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {args.token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()

    def post():
        # Sends the body in pieces and stops when the server answers early (a 413 before the
        # body is read), as a careful client would; then reads the status line.
        status = 0
        try:
            s = socket.create_connection(("127.0.0.1", args.port), timeout=120)
            s.sendall(head)
            view = memoryview(body)
            sent = 0
            while sent < len(view):
                readable, _, _ = select.select([s], [], [], 0)
                if readable:
                    break
                sent += s.send(view[sent:sent + 65536])
            answer = b""
            while b"\r\n" not in answer:
                piece = s.recv(4096)
                if not piece:
                    break
                answer += piece
            s.close()
            status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
        except (OSError, ValueError, IndexError):
            pass
        with lock:
            statuses.append(status)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    posts = [threading.Thread(target=post) for _ in range(args.concurrency)]
    for t in posts:
        t.start()
    for t in posts:
        t.join()
    took = time.monotonic() - started
    time.sleep(0.3)
    stop.set()
    sampler.join()
    counts = {s: statuses.count(s) for s in sorted(set(statuses))}
    print(f"scenario=memory concurrency={args.concurrency} body_mb={len(body) / 1e6:.1f} "
          f"rss_before_mb={before // 1024} peak_rss_mb={peak[0] // 1024} seconds={took:.1f} "
          f"statuses={','.join(f'{k}:{v}' for k, v in counts.items())}", flush=True)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="scenario", required=True)
    c = sub.add_parser("connections")
    c.add_argument("--port", type=int, required=True)
    c.add_argument("--token", required=True)
    c.add_argument("--path", required=True, help="the authenticated GET")
    c.add_argument("--source", default="127.0.0.2")
    c.add_argument("--idle", type=int, default=1000)
    c.add_argument("--slow", type=int, default=300)
    c.add_argument("--drip", type=float, default=5.0, help="seconds between header lines")
    c.add_argument("--settle", type=float, default=3.0)
    c.add_argument("--seconds", type=float, default=20.0)
    c.add_argument("--clients", type=int, default=4)
    c.add_argument("--timeout", type=float, default=10.0)
    m = sub.add_parser("memory")
    m.add_argument("--port", type=int, required=True)
    m.add_argument("--token", required=True)
    m.add_argument("--pid", type=int, required=True)
    m.add_argument("--concurrency", type=int, default=32)
    args = p.parse_args()
    {"connections": connections, "memory": memory}[args.scenario](args)


if __name__ == "__main__":
    main()
