"""Real servers and small HTTP peers for the upload tests, all on 127.0.0.1
at free ports, each with its own data directory, each stopped at the end:

- Influx: Debian's influxd (1.6) with a generated config (bind addresses,
  meta/data/wal under a temp dir, reporting disabled), optionally with
  authentication (an admin user whose password is the test's token);
- Pushgateway: Debian's prometheus-pushgateway;
- Receiver: a Python HTTP(S) server that records every request (method,
  path, headers, body) and answers from a script (status, headers, body);
- Proxy: a TCP proxy in front of a server that counts requests and can kill
  the server after the server received a request and before its answer gets
  back (the answer is lost, the write is not).

Readiness is always a connect-retry with a deadline, never a fixed sleep.
"""
import base64
import http.client
import http.server
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from ports import free_port  # noqa: E402

INFLUXD = "/usr/bin/influxd"
PUSHGATEWAY = "/usr/bin/prometheus-pushgateway"
READY_TIMEOUT_S = 30
HTTP_TIMEOUT_S = 10


def wait_http(port, path, ok=(200, 204), timeout=READY_TIMEOUT_S, proc=None):
    """Polls GET path until it answers one of ok, the process dies, or the
    deadline passes (then raises)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} while starting")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            status = conn.getresponse().status
            conn.close()
            if status in ok:
                return
            last = status
        except OSError as e:
            last = e
        time.sleep(0.05)
    raise RuntimeError(f"127.0.0.1:{port}{path} not ready after {timeout}s: {last}")


def wait_port_closed(port, timeout=READY_TIMEOUT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                pass
        except OSError:
            return
        time.sleep(0.05)
    raise RuntimeError(f"port {port} still open")


def stop_process(proc, timeout=20):
    """SIGTERM, then SIGKILL if proc has not exited within timeout seconds;
    nothing when proc is None or already gone."""
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=timeout)


class Influx:
    """influxd on 127.0.0.1:port with its data under workdir."""

    def __init__(self, workdir, password=None, port=None):
        self.workdir = workdir
        self.port = port or free_port()
        self.rpc_port = free_port()
        self.password = password
        self.user = "admin" if password else None
        self.user_created = False
        self.proc = None
        os.makedirs(workdir, exist_ok=True)
        self.config = os.path.join(workdir, "influxdb.conf")
        with open(self.config, "w", encoding="utf-8") as f:
            f.write(f"""reporting-disabled = true
bind-address = "127.0.0.1:{self.rpc_port}"
[meta]
  dir = "{workdir}/meta"
[data]
  dir = "{workdir}/data"
  wal-dir = "{workdir}/wal"
  wal-fsync-delay = "0s"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:{self.port}"
  auth-enabled = {"true" if password else "false"}
  log-enabled = false
  pprof-enabled = false
[logging]
  level = "error"
  suppress-logo = true
""")

    def start(self):
        log = open(os.path.join(self.workdir, "influxd.log"), "ab")
        self.proc = subprocess.Popen([INFLUXD, "run", "-config", self.config],
                                     stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        wait_http(self.port, "/ping", proc=self.proc)
        if self.password and not self.user_created:
            # the first user may be created without credentials (once: it persists)
            self.user_created = True
            self.query(f"CREATE USER {self.user} WITH PASSWORD '{self.password}' "
                       "WITH ALL PRIVILEGES", auth=False)
        return self

    def kill(self):
        """SIGKILL: no flush, no goodbye (the WAL keeps what was acknowledged)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.proc = None
        wait_port_closed(self.port)

    def stop(self):
        stop_process(self.proc)
        self.proc = None

    def _headers(self, auth):
        if not (auth and self.password):
            return {}
        cred = base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        return {"Authorization": "Basic " + cred}

    def query(self, q, db=None, auth=True):
        params = {"q": q, "epoch": "ms"}
        if db:
            params["db"] = db
        body = urllib.parse.urlencode(params)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        headers.update(self._headers(auth))
        conn.request("POST", "/query", body=body, headers=headers)
        resp = conn.getresponse()
        data = json.loads(resp.read() or b"{}")
        conn.close()
        if resp.status != 200:
            raise RuntimeError(f"query {q!r}: HTTP {resp.status}: {data}")
        for r in data.get("results", []):
            if "error" in r:
                raise RuntimeError(f"query {q!r}: {r['error']}")
        return data

    def write(self, db, body):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
        conn.request("POST", f"/write?db={db}&precision=ms", body=body.encode(),
                     headers=self._headers(True))
        resp = conn.getresponse()
        text = resp.read().decode()
        conn.close()
        return resp.status, text

    def points(self, db, measurement):
        """Every point of measurement as a dict (time, tags, fields)."""
        data = self.query(f'SELECT * FROM "{measurement}"', db=db)
        out = []
        for series in data["results"][0].get("series", []):
            for row in series["values"]:
                out.append(dict(zip(series["columns"], row)))
        return out

    def tag_keys(self, db, measurement):
        data = self.query(f'SHOW TAG KEYS FROM "{measurement}"', db=db)
        series = data["results"][0].get("series", [])
        return {v[0] for s in series for v in s["values"]}


class Pushgateway:
    def __init__(self, workdir, port=None):
        self.workdir = workdir
        self.port = port or free_port()
        self.proc = None
        os.makedirs(workdir, exist_ok=True)

    def start(self):
        log = open(os.path.join(self.workdir, "pushgateway.log"), "ab")
        self.proc = subprocess.Popen(
            [PUSHGATEWAY, f"--web.listen-address=127.0.0.1:{self.port}"],
            stdout=log, stderr=log, stdin=subprocess.DEVNULL, cwd=self.workdir)
        log.close()
        wait_http(self.port, "/-/ready", ok=(200,), proc=self.proc)
        return self

    def stop(self):
        stop_process(self.proc)
        self.proc = None

    def metrics_text(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HTTP_TIMEOUT_S)
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
        conn.close()
        return text

    def samples(self, name):
        """(labels dict, value) of every sample of metric name on /metrics."""
        return [s for s in parse_exposition(self.metrics_text()) if s[0] == name]


def _parse_labels(text, i):
    """The labels of '{...}' at text[i]; returns (dict, index after '}')."""
    labels = {}
    i += 1
    while text[i] != "}":
        eq = text.index("=", i)
        key = text[i:eq].strip().lstrip(",").strip()
        assert text[eq + 1] == '"'
        j = eq + 2
        value = []
        while text[j] != '"':
            if text[j] == "\\":
                nxt = text[j + 1]
                value.append({"n": "\n", "\\": "\\", '"': '"'}[nxt])
                j += 2
            else:
                value.append(text[j])
                j += 1
        labels[key] = "".join(value)
        i = j + 1
        if text[i] == ",":
            i += 1
    return labels, i + 1


def parse_exposition(text):
    """[(name, labels, value)] of the text format (an independent reading:
    quotes, backslashes and \\n in label values unescaped here)."""
    out = []
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        brace = line.find("{")
        space = line.find(" ")
        if brace != -1 and (space == -1 or brace < space):
            name = line[:brace]
            labels, end = _parse_labels(line, brace)
            value = line[end:].strip().split(" ")[0]
        else:
            name, value = line.split(" ")[0], line.split(" ")[1]
            labels = {}
        out.append((name, labels, float(value)))
    return out


class Receiver:
    """An HTTP(S) server on 127.0.0.1 that records requests and answers from
    script: a list of (status, headers, body) used in turn, the last one
    repeated; a status of None drops the connection without an answer."""

    def __init__(self, script=None, tls=None):
        self.requests = []
        self.script = list(script or [(204, {}, b"")])
        self.lock = threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _any(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length) if length else b""
                with outer.lock:
                    outer.requests.append({"method": self.command, "path": self.path,
                                           "headers": dict(self.headers.items()),
                                           "body": body, "time": time.monotonic()})
                    n = len(outer.requests)
                    status, headers, payload = outer.script[min(n, len(outer.script)) - 1]
                if status is None:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if callable(payload):
                    payload = payload(outer.requests[-1])
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_POST = do_PUT = do_GET = _any

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(tls[0], tls[1])
            self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def make_cert(directory):
    """A self-signed certificate for 127.0.0.1 (and localhost): (cert, key)."""
    cert = os.path.join(directory, "cert.pem")
    key = os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext",
                    "subjectAltName=IP:127.0.0.1,DNS:localhost",
                    "-keyout", key, "-out", cert],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class Proxy:
    """A TCP proxy 127.0.0.1:port -> 127.0.0.1:upstream. Counts whole HTTP
    requests forwarded. With on_request set, calls it after the upstream has
    answered a request and drops that answer (the client sees the connection
    close): the server took the write, the client never hears so."""

    def __init__(self, upstream, on_request=None):
        self.upstream = upstream
        self.on_request = on_request
        self.requests = 0
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @staticmethod
    def _read_message(conn, whole):
        """One HTTP message: its head and a Content-Length body. When the
        peer closes early: None if whole (a request must be whole), else
        what came (a response is passed on as it is)."""
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return None if whole else data
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            k, _, v = line.partition(b":")
            if k.strip().lower() == b"content-length":
                length = int(v.strip())
        while len(rest) < length:
            chunk = conn.recv(65536)
            if not chunk:
                if whole:
                    return None
                break
            rest += chunk
        return head + b"\r\n\r\n" + rest

    def _serve(self, client):
        with client:
            client.settimeout(30)
            while True:
                req = self._read_message(client, whole=True)
                if req is None:
                    return
                try:
                    up = socket.create_connection(("127.0.0.1", self.upstream), timeout=30)
                except OSError:
                    return  # the server is gone: the client sees the connection close
                with up:
                    up.sendall(req)
                    resp = self._read_message(up, whole=False)
                self.requests += 1
                if self.on_request is not None:
                    hook, self.on_request = self.on_request, None
                    hook()
                    return  # the answer is lost
                client.sendall(resp)

    def _accept(self):
        while self.running:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def stop(self):
        self.running = False
        self.sock.close()


def results_files(root):
    """Every file under root."""
    out = []
    for d, _, names in os.walk(root):
        out += [os.path.join(d, n) for n in names]
    return out


def grep_token(token, paths, texts):
    """The files and texts (name -> text) that hold token: [] when none."""
    found = []
    for p in paths:
        with open(p, "rb") as f:
            if token.encode() in f.read():
                found.append(p)
    for name, text in texts.items():
        if token in text:
            found.append(name)
    return found


def have(program):
    return shutil.which(program) is not None or os.access(program, os.X_OK)
