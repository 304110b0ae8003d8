#!/usr/bin/env python3
"""`benchrack upload` against a small Python HTTP receiver that records every
request and answers from a script:

1. Bencher: POST /v0/projects/<project>/reports, "Authorization: Bearer
   TOKEN", JSON with branch, testbed = the board, start/end time, the BMF
   of the record as a string, adapter json; hash only for a full commit;
2. webhook: POST of the result record itself, byte for byte, the token in
   the header the config names, an Idempotency-Key that stays the same;
3. InfluxDB 2.x: POST /api/v2/write?org=..&bucket=..&precision=ms with
   "Authorization: Token TOKEN" and line protocol;
4. Pushgateway behind basic authentication, from a suite's upload: section
   (`upload --suite`): PUT, grouping path with base64 values, the token as
   the password;
   retries: 503, 503, 204 -> three requests with growing waits; 429 with
   Retry-After: 1 -> the second request a second later; 408 and a dropped
   connection -> retried; 500 forever -> the pass ends by its time limit,
   the upload stays in the spool with its attempts; Retry-After beyond the
   limit -> stop at once, and later passes wait for it unless --force;
5. never retried: 400, 401, 403, 404, 422 and a redirect -> one request,
   kept in results/rejected with the server's message;
6. a server echoing the token in its error -> redacted everywhere;
7. a server that never answers -> the request timeout and the time limit
   bound the pass;
8. TLS: a self-signed server is refused without its CA (nothing sent, the
   upload stays spooled); with ca_file it is delivered;
9. configuration errors: a token inline in YAML, a switch to turn TLS
   verification off, credentials in a URL -> exit 2 with file:line:col,
   the token never echoed;
10. the token appears in no file and no output;
11. hostile input (issue 12): a sink at http://127.0.0.1.example.invalid with
    a token -> exit 2, nothing spooled or sent; a spool item planted to
    point elsewhere with another variable as its token -> nothing sent,
    kept, listed as refused with the reason; one planted with the right
    URL but another variable -> sent with the configuration's token only;
    `upload` without a configuration -> exit 2, nothing sent.

usage: test_receivers.py BENCHRACK
"""
import base64
import email.utils
import json
import os
import shutil
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import records  # noqa: E402
from servers import Receiver, grep_token, make_cert, results_files  # noqa: E402
from upload_lib import Bench, Checker, plant, spool_items, write_config  # noqa: E402

BENCHRACK = sys.argv[1]
TOKEN = "tok-rcv-51be0f2d93"
OTHER = "other-secret-4c1d7e"  # an unrelated variable a planted spool file names
c = Checker()
counter = [0]


def new_run(results, **kw):
    """A new record file (a new time each) and its dict."""
    counter[0] += 1
    ts = f"2026-11-29T12:00:{counter[0]:02d}Z"
    rec = records.record(ts, **kw)
    return records.write(results, rec, f"20261129T1200{counter[0]:02d}.000Z-r{counter[0]}"), rec


def check_bencher(br, tmp, results):
    rcv = Receiver([(201, {"Content-Type": "application/json"}, b'{"uuid": "x"}')])
    try:
        cfg = write_config(os.path.join(tmp, "bencher.yaml"),
                           [{"name": "bencher", "kind": "bencher",
                             "url": f"http://127.0.0.1:{rcv.port}", "project": "fw proj",
                             "branch": "main", "token_env": "BENCHER_API_TOKEN"}])
        run, rec = new_run(results, board="lab board",
                           git_commit="0123456789abcdef0123456789abcdef01234567")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
        c.check(rc == 0 and len(rcv.requests) == 1, f"bencher: delivered (exit {rc})", err)
        r = rcv.requests[0]
        c.check(r["method"] == "POST" and r["path"] == "/v0/projects/fw%20proj/reports",
                f"bencher: POST {r['path']}")
        h = r["headers"]
        c.check(h.get("Authorization") == "Bearer " + TOKEN, "bencher: Authorization: Bearer")
        c.check(h.get("Content-Type") == "application/json", "bencher: application/json")
        c.check(h.get("User-Agent", "").startswith("benchrack/"), "bencher: User-Agent")
        body = json.loads(r["body"])
        c.check(set(body) == {"branch", "hash", "testbed", "start_time", "end_time", "results",
                              "settings"}, f"bencher: the report's keys {sorted(body)}")
        c.check(body["branch"] == "main" and body["testbed"] == "lab board" and
                body["hash"] == rec["firmware"]["git_commit"],
                "bencher: branch, testbed = the board, hash = the commit")
        c.check(body["start_time"] == "2026-11-29T12:00:%02d.000Z" % counter[0] and
                body["end_time"] >= body["start_time"], "bencher: start and end time")
        c.check(body["settings"] == {"adapter": "json"}, "bencher: adapter json")
        bmf = json.loads(body["results"][0])
        want = {b["name"]: {"instructions": {"value": b["median"], "lower_value": b["p10"],
                                             "upper_value": b["p90"]},
                            "stack-bytes": {"value": b["stack_bytes"]},
                            "heap-peak-bytes": {"value": b["heap"]["peak_bytes"]}}
                for b in rec["benches"]}
        want["firmware"] = {"text-bytes": {"value": rec["firmware"]["text_bytes"]}}
        c.check(bmf == want, "bencher: results[0] is the record's BMF", f"{bmf}\n{want}")
        # a commit that is not a full hash is left out
        run2, _ = new_run(results, git_commit="feedc0de-dirty")
        br(["upload", "--upload-config", cfg, run2, "--results-dir", results])
        c.check(len(rcv.requests) == 2 and "hash" not in json.loads(rcv.requests[1]["body"]),
                "bencher: no hash for a commit that is not a full one")
    finally:
        rcv.stop()


def check_webhook(br, tmp, results):
    rcv = Receiver([(503, {}, b"warming up"), (200, {}, b"ok")])
    try:
        cfg = write_config(os.path.join(tmp, "hook.yaml"),
                           [{"name": "hook", "kind": "webhook",
                             "url": f"http://127.0.0.1:{rcv.port}/hook/in?src=lab",
                             "token_env": "HOOK_TOKEN", "token_header": "X-Api-Key"}],
                           retry_initial_ms=50)
        run, rec = new_run(results, board=records.HOSTILE_BOARD, suite=records.HOSTILE_SUITE,
                           benches=[records.bench(n, 10 + i)
                                    for i, n in enumerate(records.HOSTILE_BENCHES)])
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
        c.check(rc == 0 and len(rcv.requests) == 2,
                f"webhook: delivered on the 2nd try (exit {rc})", err)
        a, b = rcv.requests
        c.check(a["method"] == "POST" and a["path"] == "/hook/in?src=lab",
                f"webhook: POST {a['path']}")
        c.check(a["headers"].get("X-Api-Key") == TOKEN and "Authorization" not in a["headers"],
                "webhook: the token in X-Api-Key, no Authorization")
        with open(run, "rb") as f:
            on_disk = f.read()
        c.check(json.loads(a["body"]) == json.loads(on_disk),
                "webhook: the body is the result record on disk")
        c.check(a["body"] == b["body"], "webhook: the resend is the same bytes")
        key = a["headers"].get("Idempotency-Key", "")
        c.check(key != "" and key == b["headers"].get("Idempotency-Key"),
                f"webhook: the same Idempotency-Key on the resend ({key})")
    finally:
        rcv.stop()


def check_influx2(br, tmp, results):
    rcv = Receiver([(204, {}, b"")])
    try:
        cfg = write_config(os.path.join(tmp, "influx2.yaml"),
                           [{"name": "v2", "kind": "influxdb2",
                             "url": f"http://127.0.0.1:{rcv.port}", "org": "my org",
                             "bucket": "b/1", "token_env": "INFLUX_TOKEN"}])
        run, rec = new_run(results)
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
        c.check(rc == 0 and len(rcv.requests) == 1, f"influxdb2: delivered (exit {rc})", err)
        r = rcv.requests[0]
        c.check(r["method"] == "POST" and
                r["path"] == "/api/v2/write?org=my%20org&bucket=b%2F1&precision=ms",
                f"influxdb2: POST {r['path']}")
        c.check(r["headers"].get("Authorization") == "Token " + TOKEN,
                "influxdb2: Authorization: Token")
        lines = r["body"].decode().splitlines()
        ms = records.time_ms(rec["timestamp"])
        c.check(len(lines) == 3 and all(l.endswith(f" {ms}") for l in lines) and
                lines[0].startswith("benchrack,bench=empty,board=qemu-netduinoplus2,") and
                lines[2].startswith("benchrack_firmware,"),
                "influxdb2: a line per bench and the firmware, at the run's time in ms",
                "\n".join(lines))
    finally:
        rcv.stop()


def check_pushgateway_auth(br, tmp, results):
    """Basic authentication and the grouping path, as a Pushgateway behind a
    proxy with a password sees them; a suite's upload: section via --suite."""
    rcv = Receiver([(200, {}, b"")])
    try:
        suite = os.path.join(tmp, "pg-suite.yaml")
        with open(suite, "w", encoding="utf-8") as f:
            f.write("name: lab\nboards: [qemu-netduinoplus2]\nbenches: [empty]\nupload:\n"
                    "  sinks:\n"
                    f"    - {{name: pg, kind: pushgateway, url: 'http://127.0.0.1:{rcv.port}',\n"
                    "       username: pusher, token_env: HOOK_TOKEN, job: ci,\n"
                    "       grouping: [board, suite, counter]}\n")
        run, rec = new_run(results, board="np2 a/b", suite=None)
        rc, out, err, _ = br(["upload", "--suite", suite, run, "--results-dir", results])
        c.check(rc == 0 and len(rcv.requests) == 1, f"pushgateway via --suite: sent (exit {rc})",
                err)
        r = rcv.requests[0]
        cred = base64.b64encode(f"pusher:{TOKEN}".encode()).decode()
        c.check(r["headers"].get("Authorization") == "Basic " + cred,
                "pushgateway: basic authentication with the token as password")
        c.check(r["method"] == "PUT" and
                r["path"] == "/metrics/job/ci/board@base64/bnAyIGEvYg==/suite@base64/="
                             "/counter/tim2", f"pushgateway: PUT {r['path']}")
        c.check(r["headers"].get("Content-Type", "").startswith("text/plain; version=0.0.4"),
                "pushgateway: text format 0.0.4")
    finally:
        rcv.stop()


def one_sink(tmp, name, port, **extra):
    sink = {"name": "hook", "kind": "webhook", "url": f"http://127.0.0.1:{port}/h",
            "token_env": "HOOK_TOKEN"}
    sink.update({k: v for k, v in extra.items() if k in ("ca_file", "url", "timeout_seconds")})
    top = {k: v for k, v in extra.items() if k not in sink}
    return write_config(os.path.join(tmp, name), [sink], **top)


def check_retries(br, tmp, results):
    # 503, 503, 204: three requests, waits growing
    rcv = Receiver([(503, {}, b""), (503, {}, b""), (204, {}, b"")])
    cfg = one_sink(tmp, "r1.yaml", rcv.port, retry_initial_ms=200, retry_max_ms=2000)
    run, _ = new_run(results)
    rc, out, err, took = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    t = [r["time"] for r in rcv.requests]
    c.check(rc == 0 and len(t) == 3, f"503 twice: delivered on the 3rd request (exit {rc})", err)
    if len(t) == 3:
        c.check(0.1 <= t[1] - t[0] and 0.2 <= t[2] - t[1] <= 1.5,
                f"503 twice: backoff waits {t[1] - t[0]:.2f} s then {t[2] - t[1]:.2f} s")
    rcv.stop()
    # 429 with Retry-After: 1
    rcv = Receiver([(429, {"Retry-After": "1"}, b"slow down"), (204, {}, b"")])
    cfg = one_sink(tmp, "r2.yaml", rcv.port, retry_initial_ms=10)
    run, _ = new_run(results)
    rc, out, err, took = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    t = [r["time"] for r in rcv.requests]
    c.check(rc == 0 and len(t) == 2 and t[1] - t[0] >= 0.95,
            f"429 + Retry-After: 1 honoured ({t[1] - t[0] if len(t) == 2 else 0:.2f} s)", err)
    rcv.stop()
    # 408, a dropped connection, then 204
    rcv = Receiver([(408, {}, b"request timeout"), (None, {}, b""), (204, {}, b"")])
    cfg = one_sink(tmp, "r3.yaml", rcv.port, retry_initial_ms=10)
    run, _ = new_run(results)
    rc, out, err, took = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    c.check(rc == 0 and len(rcv.requests) == 3,
            f"408 and a dropped connection: retried (exit {rc})", err)
    rcv.stop()
    # 500 forever: bounded by max_total_seconds
    rcv = Receiver([(500, {}, b"internal error")])
    cfg = one_sink(tmp, "r4.yaml", rcv.port, max_total_seconds=2, max_attempts=100,
                   retry_initial_ms=100, retry_max_ms=400)
    run, _ = new_run(results)
    rc, out, err, took = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    item = spool_items(results).get(os.path.basename(run)[:-5] + "--hook", {})
    # ignoring the limit would take 100 attempts 100-400 ms apart (over 30 s);
    # 8 s leaves a loaded host room to start and end the process
    c.check(rc == 3 and took < 8.0 and len(rcv.requests) >= 3,
            f"500 forever: exit 3 after {took:.1f} s (limit 2 s), {len(rcv.requests)} requests",
            err)
    # The pass's last attempt gets only the time left: on a loaded host it
    # may time out (before or after the server saw it), and then its error
    # is the one kept — the truth, not the 500 before it.
    last = item.get("last_error") or ""
    timed_out = "timed out" in last
    c.check(len(rcv.requests) <= (item.get("attempts") or 0) <= len(rcv.requests) + timed_out and
            ("HTTP 500: internal error" in last or timed_out),
            "500 forever: the spool keeps the attempts and the last error (the server's "
            "message, or the last attempt's time-out at the pass's limit)", repr(item)[:300])
    rcv.stop()
    os.unlink(os.path.join(results, "spool", os.path.basename(run)[:-5] + "--hook.json"))
    # Retry-After beyond the limit: stop now, later passes wait unless --force
    rcv = Receiver([(503, {"Retry-After": "3600"}, b"maintenance"), (204, {}, b"")])
    cfg = one_sink(tmp, "r5.yaml", rcv.port, max_total_seconds=5)
    run, _ = new_run(results)
    rc, out, err, took = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    # waiting would take the pass's whole 5 s limit (or the hour)
    c.check(rc == 3 and len(rcv.requests) == 1 and took < 5,
            f"Retry-After: 3600: one request, no waiting ({took:.1f} s)", err)
    item = next(iter(spool_items(results).values()), {})
    c.check(item.get("not_before") is not None,
            f"the spool keeps not_before {item.get('not_before')}")
    rc, out, err, took = br(["upload", "--upload-config", cfg, "--results-dir", results])
    c.check(rc == 3 and len(rcv.requests) == 1 and "Retry-After" in err,
            "a later pass waits for the Retry-After", err)
    rc, out, err, took = br(["upload", "--upload-config", cfg, "--results-dir", results,
                             "--force"])
    c.check(rc == 0 and len(rcv.requests) == 2, "--force sends it anyway", err)
    rcv.stop()
    # issue 31: Retry-After as an HTTP-date (RFC 9110 10.2.3), an hour ahead:
    # the same as 3600 seconds, never ignored
    os.unlink(os.path.join(results, "spool", os.path.basename(run)[:-5] + "--hook.json")) \
        if os.path.exists(os.path.join(results, "spool",
                                       os.path.basename(run)[:-5] + "--hook.json")) else None
    when = email.utils.formatdate(time.time() + 3600, usegmt=True)
    rcv = Receiver([(503, {"Retry-After": when}, b"maintenance"), (204, {}, b"")])
    cfg = one_sink(tmp, "r6.yaml", rcv.port, max_total_seconds=5)
    run, _ = new_run(results)
    rc, out, err, took = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    item = spool_items(results).get(os.path.basename(run)[:-5] + "--hook", {})
    c.check(rc == 3 and len(rcv.requests) == 1 and took < 5 and
            item.get("not_before") is not None,
            f"Retry-After: {when}: one request, the spool waits until then "
            f"({took:.1f} s, not_before {item.get('not_before')})", err)
    rcv.stop()
    for name in list(spool_items(results)):
        os.unlink(os.path.join(results, "spool", name + ".json"))
    # ... and two seconds ahead, within the pass: waited for, then delivered
    when = email.utils.formatdate(time.time() + 2.5, usegmt=True)
    rcv = Receiver([(429, {"Retry-After": when}, b"slow down"), (204, {}, b"")])
    cfg = one_sink(tmp, "r7.yaml", rcv.port, retry_initial_ms=10, max_total_seconds=10)
    run, _ = new_run(results)
    rc, out, err, took = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    t = [r["time"] for r in rcv.requests]
    c.check(rc == 0 and len(t) == 2 and t[1] - t[0] >= 0.9,
            f"429 + Retry-After: {when} (2.5 s ahead) honoured "
            f"({t[1] - t[0] if len(t) == 2 else 0:.2f} s)", err)
    rcv.stop()


def check_refusals(br, tmp, results):
    for status in (400, 401, 403, 404, 422, 301):
        headers = {"Location": "http://127.0.0.1:1/elsewhere"} if status == 301 else {}
        rcv = Receiver([(status, headers, f"no: reason {status}".encode()), (204, {}, b"")])
        cfg = one_sink(tmp, f"s{status}.yaml", rcv.port, retry_initial_ms=10)
        run, _ = new_run(results)
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
        rid = os.path.basename(run)[:-5] + "--hook"
        rej = spool_items(results, "rejected").get(rid, {}).get("rejected") or {}
        msg = "redirected to http://127.0.0.1:1/elsewhere" if status == 301 else \
            f"no: reason {status}"
        c.check(rc == 2 and len(rcv.requests) == 1 and rej.get("status") == status and
                msg in (rej.get("message") or "") and rid not in spool_items(results),
                f"{status}: one request, kept in rejected/ with the server's message", err)
        br(["upload", "--upload-config", cfg, "--results-dir", results])
        c.check(len(rcv.requests) == 1, f"{status}: never sent again")
        rcv.stop()


def check_echo(br, tmp, results):
    rcv = Receiver([(400, {}, lambda r: f"bad token {r['headers'].get('Authorization')}".encode())])
    cfg = one_sink(tmp, "echo.yaml", rcv.port)
    run, _ = new_run(results)
    rc, out, err, _ = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    rid = os.path.basename(run)[:-5] + "--hook"
    rej = spool_items(results, "rejected").get(rid, {}).get("rejected") or {}
    c.check(rc == 2 and "bad token Bearer [redacted]" in (rej.get("message") or "") and
            "[redacted]" in err and TOKEN not in err,
            "a server echoing the token: redacted in rejected/ and on stderr", err)
    rcv.stop()


def check_timeouts(br, tmp, results):
    """A server that accepts and never answers."""
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(8)
    held = []
    stop = threading.Event()

    def hold():
        lsock.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(lsock.accept()[0])
            except OSError:
                pass

    t = threading.Thread(target=hold, daemon=True)
    t.start()
    cfg = one_sink(tmp, "silent.yaml", lsock.getsockname()[1], timeout_seconds=1,
                   max_total_seconds=3, retry_initial_ms=10)
    run, _ = new_run(results)
    rc, out, err, took = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
    c.check(rc == 3 and 2.0 <= took < 5.0 and "timed out" in err,
            f"a silent server: requests time out, the pass ends by its limit ({took:.1f} s)",
            err)
    stop.set()
    t.join()
    for s in held:
        s.close()
    lsock.close()
    os.unlink(os.path.join(results, "spool", os.path.basename(run)[:-5] + "--hook.json"))


def check_tls(br, tmp, results):
    if shutil.which("openssl") is None:
        print("skip TLS: no openssl")
        return
    cert, key = make_cert(tmp)
    rcv = Receiver([(204, {}, b"")], tls=(cert, key))
    try:
        url = f"https://127.0.0.1:{rcv.port}/h"
        cfg = one_sink(tmp, "tls.yaml", rcv.port, url=url)
        run, _ = new_run(results)
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run, "--results-dir", results])
        rid = os.path.basename(run)[:-5] + "--hook"
        c.check(rc == 3 and len(rcv.requests) == 0 and "TLS verification failed" in err and
                rid in spool_items(results),
                "TLS: an unknown certificate is refused, nothing sent, the upload kept", err)
        with_ca = one_sink(tmp, "tls-ca.yaml", rcv.port, url=url, ca_file=cert)
        rc, out, err, _ = br(["upload", "--upload-config", with_ca, run, "--results-dir",
                              results])
        c.check(rc == 0 and len(rcv.requests) == 1 and rid not in spool_items(results),
                "TLS: with ca_file the same upload is delivered", err)
    finally:
        rcv.stop()


def check_config_errors(br, tmp, results):
    cases = [
        ("inline.yaml",
         "sinks:\n  - name: hook\n    kind: webhook\n    url: http://127.0.0.1:1/h\n"
         f"    token: {TOKEN}\n",
         "inline.yaml:5:12: sink 'hook': a token written in the config file"),
        ("insecure.yaml",
         "sinks:\n  - {name: hook, kind: webhook, url: 'https://h/x', insecure: true}\n",
         "insecure.yaml:2:53: unknown key 'insecure'"),
        ("creds.yaml",
         f"sinks:\n  - {{name: hook, kind: webhook, url: 'https://u:{TOKEN}@h/x'}}\n",
         "creds.yaml:2:38: url of sink 'hook' carries credentials"),
    ]
    for name, text, want in cases:
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        run, _ = new_run(results)
        rc, out, err, _ = br(["upload", "--upload-config", path, run, "--results-dir", results])
        c.check(rc == 2 and want in err and TOKEN not in err,
                f"config error {name}: exit 2, {want!r}, the token not echoed", err)
        # run refuses it the same way, before measuring anything
        rc, out, err, _ = br(["run", "--upload-config", path, "--results-dir", results])
        c.check(rc == 2 and want in err, f"run --upload-config {name}: exit 2 first", err)
        os.unlink(path)  # holds the token: not one of the files a run wrote


def check_hostile(br, tmp, results):
    legit = Receiver([(204, {}, b"")])
    thief = Receiver([(204, {}, b"")])
    try:
        # a look-alike local host: the token would go in clear text to it
        look = write_config(os.path.join(tmp, "lookalike.yaml"),
                            [{"name": "hook", "kind": "webhook",
                              "url": f"http://127.0.0.1.example.invalid:{thief.port}/h",
                              "token_env": "HOOK_TOKEN"}])
        before = sorted(spool_items(results))
        run, _ = new_run(results)
        rc, out, err, _ = br(["upload", "--upload-config", look, run, "--results-dir", results])
        c.check(rc == 2 and "lookalike.yaml:2:" in err and "unencrypted" in err,
                f"sink at http://127.0.0.1.example.invalid with a token: exit {rc}, "
                "file:line:col and why", err)
        c.check(sorted(spool_items(results)) == before and thief.requests == [],
                "look-alike host: nothing spooled, nothing sent")

        # planted: another URL and another variable -> nothing sent, refused, listed
        cfg = one_sink(tmp, "legit.yaml", legit.port)
        plant(results, "planted-1--hook", "hook", "webhook",
              f"http://127.0.0.1:{thief.port}/steal", "OTHER_SECRET")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, "--results-dir", results])
        c.check(rc == 2 and "NOT SENT planted-1--hook" in err and "refused" in err and
                "is not under sink 'hook'" in err,
                f"planted item pointing elsewhere: exit {rc}, refused with the reason", err)
        c.check(thief.requests == [] and legit.requests == [],
                "planted item pointing elsewhere: nothing sent anywhere")
        c.check("planted-1--hook" in spool_items(results), "the planted item is kept")
        rc, out, err, _ = br(["upload", "--list", "--results-dir", results])
        line = [x for x in out.splitlines() if "planted-1--hook" in x]
        c.check(rc == 0 and line and "refused: its URL" in line[0],
                "`upload --list` shows the planted item as refused, and why", out)
        # no configuration: refused outright, nothing sent
        rc, out, err, _ = br(["upload", "--results-dir", results])
        c.check(rc == 2 and "--upload-config" in err and thief.requests == [],
                f"`upload` without a configuration: exit {rc}, nothing sent", err)
        os.unlink(os.path.join(results, "spool", "planted-1--hook.json"))
        # planted with an escape sequence in its URL: shown escaped, never raw
        plant(results, "planted-3--hook", "hook", "webhook",
              f"http://127.0.0.1:{thief.port}/\x1b]0;owned\x07\x1b[2J", "OTHER_SECRET")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, "--results-dir", results])
        rc2, out2, err2, _ = br(["upload", "--list", "--results-dir", results])
        c.check(rc == 2 and "NOT SENT planted-3--hook" in err and "\\x1b]0;owned" in err,
                "a planted URL with an escape sequence is shown escaped", err)
        c.check(not any(ch in out + err + out2 + err2 for ch in "\x1b\x07"),
                "no raw ESC or BEL from a planted spool file on the terminal")
        c.check(thief.requests == [], "the planted escape-sequence item: nothing sent")
        os.unlink(os.path.join(results, "spool", "planted-3--hook.json"))
        # ... and in its file's name
        named = plant(results, "planted-\x1b[2J--hook", "hook", "webhook",
                      f"http://127.0.0.1:{thief.port}/x", "OTHER_SECRET")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, "--results-dir", results])
        rc2, out2, err2, _ = br(["upload", "--list", "--results-dir", results])
        c.check(rc == 2 and "planted-\\x1b[2J--hook" in err and "planted-\\x1b[2J" in out2 and
                not any(ch in out + err + out2 + err2 for ch in "\x1b\x07"),
                "a planted file named with an escape sequence: shown escaped", err + out2)
        os.unlink(named)

        # planted at the right URL with another variable: the config's token only
        plant(results, "planted-2--hook", "hook", "webhook",
              f"http://127.0.0.1:{legit.port}/h", "OTHER_SECRET")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, "--results-dir", results])
        auth = [r["headers"].get("Authorization") for r in legit.requests]
        c.check(rc == 0 and auth == [f"Bearer {TOKEN}"],
                f"planted with another variable: sent with the config's token only ({rc})",
                err)
        c.check(all(OTHER not in repr(r) for r in legit.requests + thief.requests),
                "the other variable's value reached no server")
    finally:
        legit.stop()
        thief.stop()


with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results")
    br = Bench(BENCHRACK, {"BENCHER_API_TOKEN": TOKEN, "HOOK_TOKEN": TOKEN,
                           "INFLUX_TOKEN": TOKEN, "OTHER_SECRET": OTHER})
    check_bencher(br, tmp, results)
    check_webhook(br, tmp, results)
    check_influx2(br, tmp, results)
    check_pushgateway_auth(br, tmp, results)
    check_retries(br, tmp, results)
    check_refusals(br, tmp, results)
    check_echo(br, tmp, results)
    check_timeouts(br, tmp, results)
    check_tls(br, tmp, results)
    check_config_errors(br, tmp, results)
    check_hostile(br, tmp, results)
    files = results_files(tmp)
    leaks = grep_token(TOKEN, files, br.outputs)
    c.check(leaks == [], f"the token is in none of {len(files)} files nor any output",
            repr(leaks))
    leaks = grep_token(OTHER, files, br.outputs)
    c.check(leaks == [], "the other variable's value is in no file and no output", repr(leaks))

sys.exit(c.finish())
