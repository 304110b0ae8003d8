#!/usr/bin/env python3
"""A suite run on QEMU posts its results, through the suite's upload:
section, to a real InfluxDB and a real Pushgateway (Debian packages,
127.0.0.1, free ports, their own data directories):

1. `benchrack run` uploads: InfluxDB and the Pushgateway, queried back, show
   exactly the values of the record in results/runs, with their tags; the
   spool is empty;
2. both servers down during the run: exit code 0 as without an upload
   section, both uploads wait in results/spool; servers up: `benchrack
   upload` delivers them; each point exactly once;
3. `benchrack check` with a budget exceeded and the servers down exits 1,
   exactly as the same check without an upload section does;
4. `--upload-config FILE` replaces the suite's sinks: a webhook receives the
   record exactly as results/runs holds it (on disk first);
5. the token is in no file the runs wrote and in no output;
6. a spool item planted to post another variable to another server is not
   sent by a run of a suite without an upload: section.

usage: test_run_upload.py BENCHRACK SUITE_ELF
"""
import glob
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import checks  # noqa: E402
import records  # noqa: E402
from servers import Influx, Pushgateway, Receiver, grep_token, results_files  # noqa: E402
from upload_lib import Bench, Checker, plant, spool_items, write_config  # noqa: E402

BENCHRACK, SUITE_ELF = sys.argv[1:3]
TOKEN = "tok-run-c0ffee4711"
c = Checker()


def write_suite(path, influx_port, pg_port, upload=True, budget=None):
    lines = ["name: uploaded", f"firmware: {SUITE_ELF}", "boards: [qemu-netduinoplus2]",
             "default_iterations: 10", "warmup_runs: 1", "benches:", "  - empty",
             "  - name: nop1000" + (f"\n    budgets: {{max_cycles_per_iteration: {budget}}}"
                                    if budget else ""),
             "  - crc32_64"]
    if upload:
        lines += ["upload:", "  max_total_seconds: 4", "  sinks:",
                  f"    - {{name: lab, kind: influxdb1, url: 'http://127.0.0.1:{influx_port}',"
                  " database: bench, username: admin, token_env: INFLUX_PASSWORD}",
                  f"    - {{name: pg, kind: pushgateway, url: 'http://127.0.0.1:{pg_port}'}}"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


def newest_run(results):
    runs = sorted(glob.glob(os.path.join(results, "runs", "*.json")))
    return runs[-1], records.load(runs[-1])


with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results")
    influx = Influx(os.path.join(tmp, "influx"), password=TOKEN).start()
    pg = Pushgateway(os.path.join(tmp, "pg")).start()
    br = Bench(BENCHRACK, {"INFLUX_PASSWORD": TOKEN, "OTHER_SECRET": "other-secret-9a3f"})
    base = ["--results-dir", results]
    try:
        influx.query(f"CREATE DATABASE {checks.DB}")
        suite = write_suite(os.path.join(tmp, "suite.yaml"), influx.port, pg.port)

        # 1. a run uploads
        rc, out, err, _ = br(["run", suite] + base)
        c.check(rc == 0, f"run exits 0 (got {rc})", err)
        c.check(err.count("delivered") == 2, "stderr: delivered to both sinks", err)
        c.check(spool_items(results) == {}, "the spool is empty")
        run1, rec1 = newest_run(results)
        c.check(rec1["status"] == "complete" and len(rec1["benches"]) == 3,
                "the run record is complete")
        checks.influx_points(c, influx, rec1, "benchrack", "run 1 in InfluxDB", run_file=run1)
        checks.pushgateway_group(c, pg, rec1, "run 1 in the Pushgateway", run_file=run1)

        # 2. servers down during the run
        influx.stop()
        pg.stop()
        rc, out, err, took = br(["run", suite] + base)
        c.check(rc == 0, f"servers down: the run still exits 0 (got {rc})", err)
        c.check(took < 60, f"servers down: the run took {took:.1f} s (upload limit 4 s)")
        run2, rec2 = newest_run(results)
        c.check(run2 != run1 and rec2["status"] == "complete", "servers down: run 2 on disk")
        stem = os.path.basename(run2)[:-5]
        c.check(sorted(spool_items(results)) == [stem + "--lab", stem + "--pg"],
                "servers down: both uploads wait in results/spool",
                repr(sorted(spool_items(results))))
        c.check("not delivered yet" in err, "servers down: stderr says so", err)
        influx.start()
        pg.start()
        rc, out, err, _ = br(["upload", "--suite", suite] + base)
        c.check(rc == 0, f"servers up: `benchrack upload` delivers (exit {rc})", err)
        c.check(spool_items(results) == {}, "servers up: the spool is empty")
        checks.influx_points(c, influx, rec2, "benchrack", "run 2 in InfluxDB", run_file=run2)
        checks.influx_points(c, influx, rec1, "benchrack", "run 1 still once in InfluxDB",
                             run_file=run1)
        checks.pushgateway_group(c, pg, rec2, "run 2 in the Pushgateway", run_file=run2)

        # 3. a check that fails, servers down: the same exit code as without uploads
        influx.stop()
        pg.stop()
        failing = write_suite(os.path.join(tmp, "failing.yaml"), influx.port, pg.port,
                              budget=500)
        plain = write_suite(os.path.join(tmp, "plain.yaml"), influx.port, pg.port,
                            upload=False, budget=500)
        rc_up, _, err_up, _ = br(["check", failing] + base)
        # a spool file planted to post another variable elsewhere (issue 12): a
        # suite with no upload: section sends nothing at all
        thief = Receiver([(204, {}, b"")])
        planted = plant(results, "planted--lab", "lab", "influxdb1",
                        f"http://127.0.0.1:{thief.port}/write", "OTHER_SECRET")
        rc_plain, _, err_plain, _ = br(["check", plain] + base)
        c.check(thief.requests == [] and os.path.exists(planted),
                "a planted spool item: nothing sent by a run without upload:, the file kept")
        thief.stop()
        os.unlink(planted)
        c.check(rc_up == 1 and rc_plain == 1,
                f"a failing check exits 1 with the servers down ({rc_up}) and without uploads "
                f"({rc_plain})", err_up + err_plain)
        c.check("not delivered yet" in err_up, "the failing check's results were spooled",
                err_up)
        influx.start()
        pg.start()
        rc, out, err, _ = br(["upload", "--suite", failing] + base)
        c.check(rc == 0 and spool_items(results) == {},
                f"the failing check's results delivered later (exit {rc})", err)

        # 4. --upload-config replaces the suite's sinks; the body is the record on disk
        rcv = Receiver([(204, {}, b"")])
        hook = write_config(os.path.join(tmp, "hook.yaml"),
                            [{"name": "hook", "kind": "webhook",
                              "url": f"http://127.0.0.1:{rcv.port}/runs"}])
        before = len(influx.points(checks.DB, "benchrack"))
        rc, out, err, _ = br(["run", suite, "--upload-config", hook] + base)
        run4, rec4 = newest_run(results)
        c.check(rc == 0 and len(rcv.requests) == 1, f"--upload-config: the webhook got it "
                f"(exit {rc})", err)
        c.check(len(rcv.requests) == 1 and json.loads(rcv.requests[0]["body"]) == rec4,
                "--upload-config: the body is the record results/runs holds")
        c.check(len(influx.points(checks.DB, "benchrack")) == before,
                "--upload-config: the suite's sinks were not used")
        rcv.stop()

        # 5. the token nowhere
        files = [p for p in results_files(tmp)
                 if not p.startswith((os.path.join(tmp, "influx"), os.path.join(tmp, "pg")))]
        leaks = grep_token(TOKEN, files, br.outputs)
        c.check(leaks == [], f"the token is in none of {len(files)} files nor any output",
                repr(leaks))
    finally:
        influx.stop()
        pg.stop()

sys.exit(c.finish())
