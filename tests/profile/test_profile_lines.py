#!/usr/bin/env python3
"""The report's per-line view (issue 26): the exact profile of the sort
workload (workloads/wl_sort.c, --from region_start --to region_stop, json)
rendered by `benchrack report --profile`, in Debian's headless Chromium
(tests/report/cdp.py):
- the view shows the record's hottest functions, hottest first, each a table
  of its lines with the record's counts, in the record's order;
- each row's source text is that line of the file, as this test reads it
  (the report run from the build folder, where the debug information's
  relative names open);
- run from elsewhere (the files not found), the same rows say "source not
  found" instead of a text;
- a record of another schema_version, or with a chain without its count:
  exit 2, the message naming the file (and the chain's line), no page
  written.

usage: test_profile_lines.py BENCHRACK ELF BUILD_ROOT
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "report"))
import cdp  # noqa: E402
from measure_cli import Checks  # noqa: E402

BENCHRACK, ELF, BUILD_ROOT = sys.argv[1:4]
SHOWN = 5  # functions the view shows
c = Checks()


def rows_of(b):
    """{function: [(line, count, source or None)]} of the page's view, in order."""
    return b.eval("""(() => {
        const out = {};
        document.querySelectorAll('figure[data-kind="lines"] [data-function]').forEach(t => {
            out[t.dataset.function] = Array.from(t.querySelectorAll('tbody tr')).map(r => [
                +r.dataset.line, +r.dataset.count,
                r.querySelector('td.source code') ? r.querySelector('td.source code').textContent
                                                  : null]);
        });
        return {order: Array.from(document.querySelectorAll(
            'figure[data-kind="lines"] [data-function]')).map(t => t.dataset.function),
            rows: out};
    })()""")


with tempfile.TemporaryDirectory() as tmp:
    record = os.path.join(tmp, "sort.json")
    p = subprocess.run([BENCHRACK, "profile", ELF, "--exact", "--from", "region_start", "--to",
                        "region_stop", "--format", "json", "--output", record],
                       capture_output=True, text=True, timeout=60)
    c.check(p.returncode == 0, f"profile --format json exits 0 (got {p.returncode}: "
                               f"{p.stderr[-300:]})")
    import json
    rec = json.load(open(record, encoding="utf-8"))
    by_fn = {}
    for ln in rec["lines"]:
        fn = by_fn.setdefault(ln["function"], {"self": 0, "lines": []})
        fn["self"] += ln["self"]
        fn["lines"].append(ln)
    want_order = sorted(by_fn, key=lambda f: -by_fn[f]["self"])[:SHOWN]
    os.mkdir(os.path.join(tmp, "results"))
    for where, cwd in (("from the build folder", BUILD_ROOT), ("from elsewhere", tmp)):
        page = os.path.join(tmp, "page.html")
        p = subprocess.run([BENCHRACK, "report", "-o", page, "--results-dir",
                            os.path.join(tmp, "results"), "--profile", record],
                           capture_output=True, text=True, timeout=60, cwd=cwd)
        c.check(p.returncode == 0, f"{where}: report exits 0 (got {p.returncode}: "
                                   f"{p.stderr[-300:]})")
        with cdp.Browser(width=1280, height=900) as b:
            b.network_off()
            b.open(page)
            view = rows_of(b)
            c.check(view["order"] == want_order,
                    f"{where}: the hottest functions, hottest first: {view['order']} == "
                    f"{want_order}")
            for f in want_order:
                got = [(r[0], r[1]) for r in view["rows"].get(f, [])]
                want = [(ln["line"], ln["self"]) for ln in by_fn[f]["lines"]]
                c.check(got == want, f"{where}: {f}'s lines and counts are the record's "
                                     f"({got[:4]}... == {want[:4]}...)")
            texts = [(f, r) for f in want_order for r in view["rows"].get(f, [])]
            if cwd == BUILD_ROOT:
                bad = []
                for f, (line, _, text) in texts:
                    ln = next(x for x in by_fn[f]["lines"] if x["line"] == line)
                    with open(os.path.join(BUILD_ROOT, ln["file"]), encoding="utf-8") as src:
                        want_text = src.read().split("\n")[line - 1]
                    if text != want_text:
                        bad.append((f, line, text, want_text))
                c.check(texts and not bad, f"{where}: every row's source text is the file's "
                                           f"line ({len(texts)} rows; wrong: {bad[:3]})")
            else:
                c.check(texts and all(r[2] is None for _, r in texts) and
                        b.eval("document.querySelectorAll('figure[data-kind=\"lines\"] "
                               "td.source .note').length") == len(texts),
                        f"{where}: every row says its source was not found ({len(texts)} rows)")
            c.check(b.problems() == [], f"{where}: no error on the page: {b.problems()}")
    for what, change, needle in (
            ("schema_version 2", lambda r: r.update(schema_version=2), "schema_version 2"),
            ("a chain without its count", lambda r: r["chains"][0].pop("count"),
             "a chain with \"frames\"")):
        bad = dict(rec, chains=[dict(ch) for ch in rec["chains"]])
        change(bad)
        path = os.path.join(tmp, "bad.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(bad, f, indent=1)
        page = os.path.join(tmp, "bad.html")
        p = subprocess.run([BENCHRACK, "report", "-o", page, "--results-dir",
                            os.path.join(tmp, "results"), "--profile", path],
                           capture_output=True, text=True, timeout=60)
        c.check(p.returncode == 2 and path in p.stderr and needle in p.stderr and
                not os.path.exists(page),
                f"a record with {what}: exit {p.returncode} == 2, the file and what is wrong "
                f"named, no page ({p.stderr.strip()[-200:]})")
sys.exit(c.finish())
