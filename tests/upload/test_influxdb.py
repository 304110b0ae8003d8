#!/usr/bin/env python3
"""`benchrack upload` against a real InfluxDB 1.6 (Debian's influxd, started
here on 127.0.0.1 at a free port, its own data directory, authentication on:
the token is the admin's password, from an environment variable or a file):

1. a record with hostile names is uploaded; querying InfluxDB back returns
   exactly the record's values, with every tag, at the record's time; the
   firmware's sizes land in <measurement>_firmware;
2. uploading the same record again adds nothing (explicit timestamps);
3. server down: the upload stays in results/spool (exit 3), nothing lost;
   server up: `benchrack upload` delivers it; each point exactly once;
4. the server killed after it stored a write and before its answer came
   back: spooled, then delivered after the restart; each point once;
5. a field-type conflict (400) is kept aside in results/rejected with
   InfluxDB's message, sent once, never again;
6. a wrong password (401) is refused, never retried;
7. the token appears in no file the runs wrote and in no output.

usage: test_influxdb.py BENCHRACK
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import checks  # noqa: E402
import records  # noqa: E402
from servers import Influx, Proxy, grep_token, results_files  # noqa: E402
from upload_lib import Bench, Checker, spool_items, write_config  # noqa: E402

BENCHRACK = sys.argv[1]
TOKEN = "tok-influx-9f3c1e7a5b"
DB = checks.DB
c = Checker()


def check_points(influx, rec, measurement, what):
    checks.influx_points(c, influx, rec, measurement, what)


with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results")
    token_file = os.path.join(tmp, "secrets", "influx.token")
    os.makedirs(os.path.dirname(token_file))
    with open(token_file, "w", encoding="utf-8") as f:
        f.write(TOKEN + "\n")
    influx = Influx(os.path.join(tmp, "influx"), password=TOKEN).start()
    br = Bench(BENCHRACK, {"INFLUX_PASSWORD": TOKEN})
    try:
        influx.query(f"CREATE DATABASE {DB}")
        sink = {"name": "lab", "kind": "influxdb1", "url": f"http://127.0.0.1:{influx.port}",
                "database": DB, "username": "admin", "token_env": "INFLUX_PASSWORD",
                "measurement": "bench mark"}
        cfg = write_config(os.path.join(tmp, "up.yaml"), [sink], max_total_seconds=20)
        # the same sink with the token in a file (relative to the config file)
        file_sink = {k: v for k, v in sink.items() if k != "token_env"}
        file_sink["token_file"] = "secrets/influx.token"
        cfg_file = write_config(os.path.join(tmp, "up-file.yaml"), [file_sink],
                                max_total_seconds=20)

        # 1. hostile names, queried back exactly
        rec1 = records.record("2026-11-29T10:00:01Z", board=records.HOSTILE_BOARD,
                              suite=records.HOSTILE_SUITE, host=records.HOSTILE_HOST,
                              git_commit="0123456789abcdef0123456789abcdef01234567-dirty",
                              benches=[records.bench(n, 100 + 10 * i)
                                       for i, n in enumerate(records.HOSTILE_BENCHES)])
        rec1["benches"].append(dict(records.bench("skipped", 1), status="not_run",
                                    reason="not run here"))
        for k in ("median", "p10", "p90", "p95", "p99", "min", "max", "mean", "mad",
                  "cv_median", "n", "outliers", "stack_bytes", "heap", "wall_seconds",
                  "samples"):
            rec1["benches"][-1].pop(k, None)
        run1 = records.write(results, rec1, "20261129T100001.000Z-hostile")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run1, "--results-dir", results])
        c.check(rc == 0, f"upload exits 0 (got {rc})", err)
        c.check("delivered 20261129T100001.000Z-hostile--lab" in err, "says it was delivered",
                err)
        c.check(spool_items(results) == {}, "nothing left in the spool")
        check_points(influx, rec1, "bench mark", "hostile names")
        tags = influx.tag_keys(DB, "bench mark")
        c.check("elf" not in tags and "skipped" not in str(influx.points(DB, "bench mark")),
                "no tag for what the record does not know, no point for a bench not run")

        # 2. the same record again (token from a file this time): nothing added
        rc, out, err, _ = br(["upload", "--upload-config", cfg_file, run1, "--results-dir",
                              results])
        c.check(rc == 0, f"resend through token_file exits 0 (got {rc})", err)
        check_points(influx, rec1, "bench mark", "after a resend")

        # 3. server down, then up
        influx.stop()
        rec2 = records.record("2026-11-29T10:00:02.250Z")
        run2 = records.write(results, rec2, "20261129T100002.250Z-qemu-netduinoplus2")
        rc, out, err, took = br(["upload", "--upload-config", cfg, run2, "--results-dir",
                                 results, "--max-time", "3"])
        c.check(rc == 3, f"server down: exit 3 (got {rc})", err)
        c.check(took < 10, f"server down: bounded time ({took:.1f} s for --max-time 3)")
        spooled = spool_items(results)
        c.check(list(spooled) == ["20261129T100002.250Z-qemu-netduinoplus2--lab"],
                "server down: the upload waits in results/spool", repr(list(spooled)))
        item = next(iter(spooled.values()), {})
        c.check(item.get("attempts", 0) >= 1 and "no connection" in (item.get("last_error") or ""),
                "the spool item records its attempts and the last error", repr(item)[:400])
        c.check("not delivered yet" in err and "benchrack upload" in err,
                "stderr says it waits for `benchrack upload`", err)
        influx.start()
        rc, out, err, _ = br(["upload", "--upload-config", cfg, "--results-dir", results])
        c.check(rc == 0, f"server up: `benchrack upload` exits 0 (got {rc})", err)
        c.check(spool_items(results) == {}, "server up: the spool is empty")
        check_points(influx, rec2, "bench mark", "delivered from the spool")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, "--results-dir", results])
        c.check(rc == 0 and "nothing waits" in err, "a second `benchrack upload` has nothing to do",
                err)
        check_points(influx, rec2, "bench mark", "after the second upload")

        # 4. killed after storing the write, before its answer reached benchrack
        proxy = Proxy(influx.port, on_request=influx.kill)
        proxied = write_config(os.path.join(tmp, "proxied.yaml"),
                               [dict(sink, url=f"http://127.0.0.1:{proxy.port}")],
                               max_total_seconds=3, retry_initial_ms=100)
        rec3 = records.record("2026-11-29T10:00:03.500Z", board="board-3")
        run3 = records.write(results, rec3, "20261129T100003.500Z-board-3")
        rc, out, err, took = br(["upload", "--upload-config", proxied, run3, "--results-dir",
                                 results])
        c.check(rc == 3, f"killed mid-upload: exit 3 (got {rc})", err)
        c.check(influx.proc is None, "the server was killed during the upload")
        c.check(list(spool_items(results)) == ["20261129T100003.500Z-board-3--lab"],
                "killed mid-upload: the upload stays in the spool")
        influx.start()
        stored = [p for p in influx.points(DB, "bench mark")
                  if p["time"] == records.time_ms(rec3["timestamp"])]
        c.check(len(stored) == len(rec3["benches"]),
                "the killed server had stored the write before dying", repr(stored))
        rc, out, err, _ = br(["upload", "--upload-config", proxied, "--results-dir", results])
        c.check(rc == 0, f"after the restart: delivered (exit {rc})", err)
        c.check(proxy.requests >= 2, f"sent again through the proxy ({proxy.requests} requests)")
        check_points(influx, rec3, "bench mark", "resent after a lost answer")
        proxy.stop()

        # 5. a field-type conflict: 400, kept aside, never retried
        rec4 = records.record("2026-11-29T10:00:04Z")
        # type conflicts are per shard (a week of time): plant beside the run's time
        planted = records.time_ms(rec4["timestamp"]) - 1000
        status, text = influx.write(DB, f'conflict,bench=empty median="a string" {planted}')
        c.check(status == 204, f"a string median planted in 'conflict' ({status} {text})")
        counting = Proxy(influx.port)
        conflict = write_config(os.path.join(tmp, "conflict.yaml"),
                                [dict(sink, url=f"http://127.0.0.1:{counting.port}",
                                      measurement="conflict")], max_total_seconds=10)
        run4 = records.write(results, rec4, "20261129T100004.000Z-qemu-netduinoplus2")
        rc, out, err, _ = br(["upload", "--upload-config", conflict, run4, "--results-dir",
                              results])
        c.check(rc == 2, f"400: exit 2 (got {rc})", err)
        c.check("REJECTED" in err and "field type conflict" in err,
                "400: stderr reports InfluxDB's message", err)
        rejected = spool_items(results, "rejected")
        rid = "20261129T100004.000Z-qemu-netduinoplus2--lab"
        r = rejected.get(rid, {}).get("rejected") or {}
        c.check(r.get("status") == 400 and "field type conflict" in (r.get("message") or ""),
                "400: kept in results/rejected with the status and the server's message",
                repr(r))
        c.check(rejected.get(rid, {}).get("body", "").startswith("conflict,"),
                "400: the rejected item keeps the data for a person")
        c.check(rid not in spool_items(results), "400: gone from the spool")
        c.check(counting.requests == 1, f"400: sent once ({counting.requests})")
        rc, out, err, _ = br(["upload", "--upload-config", conflict, "--results-dir", results])
        c.check(counting.requests == 1 and rc == 0, "400: not retried by a later upload")
        rc, out, err, _ = br(["upload", "--list", "--results-dir", results])
        c.check(rc == 0 and rid in out and "field type conflict" in out,
                "`upload --list` shows the rejected upload and why", out)
        counting.stop()

        # 6. a wrong password: 401, never retried
        wrong = "tok-wrong-4d2a7c"
        br_wrong = Bench(BENCHRACK, {"INFLUX_PASSWORD": wrong})
        rec5 = records.record("2026-11-29T10:00:05Z")
        run5 = records.write(results, rec5, "20261129T100005.000Z-qemu-netduinoplus2")
        rc, out, err, _ = br_wrong(["upload", "--upload-config", cfg, run5, "--results-dir",
                                    results])
        c.check(rc == 2 and "HTTP 401" in err, f"401: refused, exit 2 (got {rc})", err)
        leaks = grep_token(wrong, results_files(results), br_wrong.outputs)
        c.check(leaks == [], "the wrong token is in no file and no output either", repr(leaks))

        # 7. the token nowhere
        files = [p for p in results_files(tmp)
                 if not p.startswith(os.path.join(tmp, "influx")) and p != token_file]
        leaks = grep_token(TOKEN, files, br.outputs)
        c.check(leaks == [], f"the token is in none of {len(files)} files nor any output",
                repr(leaks))
    finally:
        influx.stop()

sys.exit(c.finish())
