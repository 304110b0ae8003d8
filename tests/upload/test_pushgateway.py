#!/usr/bin/env python3
"""`benchrack upload` against a real Prometheus Pushgateway (Debian's
prometheus-pushgateway, started here on 127.0.0.1 at a free port):

1. a record with hostile names is pushed (PUT, job and grouping labels in
   the URL, base64url where a value is no plain path segment); the
   Pushgateway's /metrics shows exactly the record's values, with every
   label, quotes, backslashes, newlines and non-ASCII intact, and the run's
   time as benchrack_run_timestamp_seconds;
2. pushing the same record again leaves each sample exactly once (PUT
   replaces the group);
3. server down: spooled (exit 3); server up: `benchrack upload` delivers,
   each sample once;
4. a group keyed by a board whose name holds '/' and by an empty suite.

usage: test_pushgateway.py BENCHRACK
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import checks  # noqa: E402
import records  # noqa: E402
from servers import Pushgateway  # noqa: E402
from upload_lib import Bench, Checker, spool_items, write_config  # noqa: E402

BENCHRACK = sys.argv[1]
c = Checker()


def check_group(pg, rec, what):
    checks.pushgateway_group(c, pg, rec, what)


with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results")
    pg = Pushgateway(os.path.join(tmp, "pg")).start()
    br = Bench(BENCHRACK)
    try:
        sink = {"name": "pg", "kind": "pushgateway", "url": f"http://127.0.0.1:{pg.port}/"}
        cfg = write_config(os.path.join(tmp, "up.yaml"), [sink], max_total_seconds=20)

        # 1. hostile names
        rec1 = records.record("2026-11-29T11:00:01.125Z", board=records.HOSTILE_BOARD,
                              suite=records.HOSTILE_SUITE, host=records.HOSTILE_HOST,
                              git_commit="abc\\def \"x\"",
                              benches=[records.bench(n, 200 + 7 * i)
                                       for i, n in enumerate(records.HOSTILE_BENCHES)])
        run1 = records.write(results, rec1, "20261129T110001.125Z-hostile")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run1, "--results-dir", results])
        c.check(rc == 0, f"push exits 0 (got {rc})", err)
        c.check(spool_items(results) == {}, "nothing left in the spool")
        check_group(pg, rec1, "hostile names")

        # 2. again: PUT replaces the group
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run1, "--results-dir", results])
        c.check(rc == 0, f"second push exits 0 (got {rc})", err)
        check_group(pg, rec1, "after a resend")

        # 3. down, then up (a second group: another board, no suite)
        pg.stop()
        rec2 = records.record("2026-11-29T11:00:02Z", board="board-2", suite=None)
        run2 = records.write(results, rec2, "20261129T110002.000Z-board-2")
        rc, out, err, _ = br(["upload", "--upload-config", cfg, run2, "--results-dir", results,
                              "--max-time", "2"])
        c.check(rc == 3, f"server down: exit 3 (got {rc})", err)
        c.check(list(spool_items(results)) == ["20261129T110002.000Z-board-2--pg"],
                "server down: spooled")
        pg.start()  # no persistence: the first group is gone, the spooled one comes back
        rc, out, err, _ = br(["upload", "--upload-config", cfg, "--results-dir", results])
        c.check(rc == 0, f"server up: delivered (exit {rc})", err)
        c.check(spool_items(results) == {}, "server up: the spool is empty")
        check_group(pg, rec2, "delivered from the spool")

        # 4. a job name and grouping of the config's choosing
        custom = write_config(os.path.join(tmp, "custom.yaml"),
                              [dict(sink, job="bench rack/ci", grouping=["board", "host"],
                                    metric_prefix="lab")])
        rc, out, err, _ = br(["upload", "--upload-config", custom, run1, "--results-dir",
                              results])
        c.check(rc == 0, f"custom job and grouping: exit 0 (got {rc})", err)
        got = [labels for _, labels, _ in pg.samples("lab_median")]
        c.check(len(got) == len(rec1["benches"]) and
                all(l.get("job") == "bench rack/ci" and l.get("host") == rec1["host"] and
                    l.get("board") == rec1["board"] and l.get("suite") == rec1["suite"]
                    for l in got),
                "custom job, host in the grouping, suite among the labels, lab_ prefix",
                repr(got[:2]))
    finally:
        pg.stop()

sys.exit(c.finish())
