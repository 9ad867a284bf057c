"""An agentest/v1 server that goes wrong on purpose, for the tests of what its author is told
(test/docker/packaged-failures.test.ts; a test double). BROKEN_MODE, from its spec's environment:
    dies            takes one step, prints its key in a log line, then kills itself (SIGKILL: 137)
    exits           prints why and exits with code 3 before it listens
    loopback        a working server, but listening on 127.0.0.1 inside its container
    ignores-cancel  takes a step every 0.5 s until its client hangs up; DELETE answers 200 and changes nothing
    honours-cancel  the same, but DELETE ends the run with a final event of status "cancelled", as it should
"""

import json
import os
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = os.environ.get("BROKEN_MODE", "dies")
KEY = os.environ.get("OPENAI_API_KEY", "no key")
cancelled = set()


def log(line):
    print("broken-agent: " + line, flush=True)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b""):
        self.send_response(status)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.reply(200)

    def do_DELETE(self):
        if MODE == "honours-cancel":
            cancelled.add(self.path.rsplit("/", 1)[-1])
            log("cancel asked for " + self.path + "; stopping")
        else:
            log("cancel asked for " + self.path + "; carrying on")
        self.reply(200)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        if "run_id" not in body:
            return self.reply(400, b'{"error": "no run_id"}')
        self.send_response(200)
        self.send_header("content-type", "application/x-ndjson")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        step = {"type": "step", "action": {"type": "wait", "ms": 100}, "thought": "waiting"}
        try:
            while True:
                if body["run_id"] in cancelled:
                    self.chunk({"type": "final", "status": "cancelled"})
                    self.wfile.write(b"0\r\n\r\n")
                    return
                self.chunk(step)
                if MODE == "dies":
                    time.sleep(0.5)
                    log("run " + body["run_id"] + ": calling the model with key " + KEY)
                    log("fatal: out of memory in the model client")
                    os.kill(os.getpid(), signal.SIGKILL)
                time.sleep(0.5)
        except OSError:
            log("the client hung up")

    def chunk(self, event):
        data = (json.dumps(event) + "\n").encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()


if MODE == "exits":
    log("reading /home/agent/agent.toml")
    log("error: /home/agent/agent.toml: no such file")
    sys.exit(3)
host = "127.0.0.1" if MODE == "loopback" else "0.0.0.0"
log("listening on %s:8000 (%s)" % (host, MODE))
ThreadingHTTPServer((host, 8000), Handler).serve_forever()
