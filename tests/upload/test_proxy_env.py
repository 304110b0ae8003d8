#!/usr/bin/env python3
"""No token to a proxy the configuration did not name (issue 31, NS1).

With http_proxy, https_proxy, ALL_PROXY and all_proxy (and HTTP_PROXY,
HTTPS_PROXY) all pointing at a listening socket that records every byte it
receives, `benchrack upload` of a run to a plain-http loopback webhook with
a bearer token:
- by default: the webhook gets the upload, token and all; the recording
  socket receives nothing (before the fix, the request and its token went to
  it in clear text);
- with `use_env_proxy: true` on the sink: the request goes to the recording
  socket (so the test's trap would catch a leak);
- with `proxy: http://127.0.0.1:PORT` on the sink: the same, named;
- `proxy: ftp://...` is refused, exit 2 with file:line, and `proxy` together
  with `use_env_proxy: true` too.

usage: test_proxy_env.py BENCHRACK (the default suite on --board host)
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e"))
from gate_lib import Checker  # noqa: E402

BENCHRACK = os.path.abspath(sys.argv[1])
SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs", "suites",
                     "default.yaml")
TOKEN = "tok-PROXYLEAK-5f1e2d3c4b"
PROXY_VARS = ["http_proxy", "https_proxy", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY"]
c = Checker()


class Recorder:
    """A listening socket that keeps every byte each connection sends and,
    once a request's headers (and body) are in, answers `reply`."""

    def __init__(self, reply):
        self.reply = reply
        self.received = b""
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn):
        conn.settimeout(5)
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            while len(body) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                body += chunk
            data = head + b"\r\n\r\n" + body
            conn.sendall(self.reply)
        except OSError:
            pass
        finally:
            self.received += data
            conn.close()

    def close(self):
        self.sock.close()


def main():
    tmp = tempfile.mkdtemp(prefix="benchrack-proxyenv-")
    sink = Recorder(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
    trap = Recorder(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
    try:
        p = subprocess.run([BENCHRACK, "run", SUITE, "--board", "host", "-n", "3", "--json",
                            "run.json", "--results-dir", "R"], cwd=tmp, capture_output=True,
                           text=True, timeout=60)
        c.check(p.returncode == 0, f"a host run for the upload ({p.returncode})", p.stderr)
        env = dict(os.environ, HOOK_TOKEN=TOKEN)
        for v in PROXY_VARS:
            env[v] = f"http://127.0.0.1:{trap.port}"
        env.pop("no_proxy", None)
        env.pop("NO_PROXY", None)

        def upload(extra, name):
            cfg = os.path.join(tmp, f"{name}.yaml")
            with open(cfg, "w", encoding="utf-8") as f:
                f.write("max_total_seconds: 10\nmax_attempts: 1\nsinks:\n"
                        f"  - {{name: hook, kind: webhook, url: 'http://127.0.0.1:{sink.port}/h',"
                        f" token_env: HOOK_TOKEN{extra}}}\n")
            shutil.rmtree(os.path.join(tmp, "R", "spool"), ignore_errors=True)
            sink.received = trap.received = b""
            return subprocess.run([BENCHRACK, "upload", "run.json", "--upload-config", cfg,
                                   "--results-dir", "R"], cwd=tmp, env=env,
                                  capture_output=True, text=True, timeout=60)

        p = upload("", "plain")
        c.check(p.returncode == 0, f"default: delivered, exit 0 ({p.returncode})", p.stderr)
        c.check(TOKEN.encode() in sink.received, "default: the webhook got the token")
        c.check(trap.received == b"" and TOKEN.encode() not in trap.received,
                f"default: the proxy of the environment received nothing "
                f"({len(trap.received)} bytes)", trap.received[:200].decode("latin-1"))

        p = upload(", use_env_proxy: true", "env")
        c.check(TOKEN.encode() in trap.received and sink.received == b"",
                "use_env_proxy: true: the request went to the environment's proxy",
                p.stderr)

        p = upload(f", proxy: 'http://127.0.0.1:{trap.port}'", "named")
        c.check(TOKEN.encode() in trap.received and sink.received == b"",
                "proxy: the request went to the named proxy", p.stderr)

        p = upload(", proxy: 'ftp://127.0.0.1:1'", "badscheme")
        c.check(p.returncode == 2 and "badscheme.yaml:4:" in p.stderr and "proxy" in p.stderr,
                f"proxy: ftp:// refused, exit 2 with file:line ({p.returncode})", p.stderr)
        p = upload(f", proxy: 'http://127.0.0.1:{trap.port}', use_env_proxy: true", "both")
        c.check(p.returncode == 2 and "both.yaml:4:" in p.stderr,
                f"proxy with use_env_proxy: refused, exit 2 ({p.returncode})", p.stderr)
        c.check(trap.received == b"" and sink.received == b"",
                "a refused configuration sends nothing")
    finally:
        sink.close()
        trap.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return c.finish()


if __name__ == "__main__":
    sys.exit(main())
