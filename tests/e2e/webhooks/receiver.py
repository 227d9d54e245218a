"""A webhook receiver for the tests: verifies every delivery the way a client would.

Each delivery is checked with the Standard Webhooks reference library (standardwebhooks) and
with the X-DocIntel scheme (hex HMAC-SHA256 of "{timestamp}.{body}" keyed by the secret), for
every secret the test registered for the path; a copy with a tampered body must fail both.

Control (JSON over HTTP, for the test):
  POST /_control/secrets   {"path": "/a", "secrets": ["whsec_..."]}
  POST /_control/plan      {"path": "/a", "statuses": [500, 500], "delay_ms": 0}
                           (the next answers for the path; then 200)
  GET  /_control/received  every delivery so far, in arrival order
Prints the bound port on its first line of output.
"""

import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

lock = threading.Lock()
secrets = {}  # path -> [secret]
plans = {}  # path -> {"statuses": [...], "delay_ms": n}
received = []


def standard_ok(secret, body, headers):
    try:
        Webhook(secret).verify(body, headers)
        return True
    except WebhookVerificationError:
        return False


def docintel_ok(secret, body, headers):
    timestamp = headers.get("x-docintel-timestamp", "")
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    offered = headers.get("x-docintel-signature", "").split(",")
    return any(hmac.compare_digest("v1=" + expected.hexdigest(), v.strip()) for v in offered)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"ok"):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/_control/received":
            with lock:
                body = json.dumps(received).encode()
            return self.answer(200, body)
        self.answer(404, b"no")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path.startswith("/_control/"):
            command = json.loads(body)
            with lock:
                if self.path == "/_control/secrets":
                    secrets[command["path"]] = command["secrets"]
                elif self.path == "/_control/plan":
                    plans[command["path"]] = command
            return self.answer(200)
        headers = {k.lower(): v for k, v in self.headers.items()}
        with lock:
            keys = list(secrets.get(self.path, []))
            plan = plans.get(self.path, {})
            statuses = plan.get("statuses", [])
            status = statuses.pop(0) if statuses else 200
            delay_ms = plan.get("delay_ms", 0)
        tampered = body + b" "
        record = {
            "path": self.path,
            "received_at": time.time(),
            "headers": headers,
            "body": body.decode(),
            "answered": status,
            "standard_ok": [standard_ok(k, body, headers) for k in keys],
            "docintel_ok": [docintel_ok(k, body, headers) for k in keys],
            "tampered_rejected": all(
                not standard_ok(k, tampered, headers) and not docintel_ok(k, tampered, headers)
                for k in keys
            ),
        }
        with lock:
            received.append(record)
        if delay_ms:
            time.sleep(delay_ms / 1000)
        self.answer(status, b"received" if status < 300 else b"receiver error")


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
