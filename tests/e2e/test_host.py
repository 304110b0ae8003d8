#!/usr/bin/env python3
"""`benchrack run --board host`: the benches of benches/ built for the host
and measured natively, end to end.
- every bench the suite table lists (benches/suite.c, read here) is measured
  with n samples of CLOCK_MONOTONIC_RAW nanoseconds, in the table and in the
  run record (valid against the JSON Schema);
- no figure of the table is 0 ns: below the clock's resolution it is
  "< resolution" (the empty bench's net figure is exactly that);
- perf events: where this machine allows perf_event_open (asked of the kernel
  here, as the program does), every bench has cycles and instructions, and
  nop1000's instructions are exactly 1000 more than empty's (the loop's
  overhead); where it does not, no bench claims them and stderr says why once,
  with kernel.perf_event_paranoid;
- the program ran pinned to one CPU this process may use;
- `check` with the default suite on the host: exit 0, budgets (in the QEMU
  board's instructions) not applied, an entry benchrack cannot run is said;
- a host baseline keeps its samples; `--min-detectable 2%` picks the
  iterations that the rule of stats/shift.h gives from its spread (worked
  out here from the baseline's figures), and without a baseline is exit 2.

usage: test_host.py BENCHRACK HOST_BENCHES SUITE_C DEFAULT_SUITE SCHEMA
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import jsonschema

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import Checker, load, run  # noqa: E402

BENCHRACK, HOST_BENCHES, SUITE_C, DEFAULT_SUITE, SCHEMA = sys.argv[1:6]
N = 50
c = Checker()

with open(SUITE_C, encoding="utf-8") as f:
    NAMES = re.findall(r'\{"([a-z0-9_]+)", bench_', f.read())
with open(SCHEMA, encoding="utf-8") as f:
    validator = jsonschema.Draft202012Validator(json.load(f))


def perf_allowed():
    """Whether the kernel counts this process's user-mode instructions: asked
    through perf(1) when it is installed (as `perf stat -e instructions true`),
    else left to the record."""
    try:
        p = subprocess.run(["perf", "stat", "-x,", "-e", "instructions:u", "true"],
                           capture_output=True, text=True, timeout=30)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return None
    return p.returncode == 0 and "not supported" not in p.stderr and \
        "not counted" not in p.stderr and re.search(r"^\d+,", p.stderr, re.M) is not None


with tempfile.TemporaryDirectory() as tmp:
    rec_path = os.path.join(tmp, "host.json")
    code, out, err = run(BENCHRACK, ["run", "--board", "host", "-n", str(N), "--json", rec_path,
                                     "--results-dir", os.path.join(tmp, "results")])
    print(out)
    print(err)
    c.check(code == 0, "run --board host -n 50 exits 0", f"exit {code}")
    rec = load(rec_path)
    errors = list(validator.iter_errors(rec))
    c.check(not errors, "the host run record is valid against the JSON Schema",
            "; ".join(e.message for e in errors[:3]))
    benches = {b["name"]: b for b in rec["benches"]}
    c.check(len(NAMES) >= 8 and [b["name"] for b in rec["benches"]] == NAMES,
            f"every bench of benches/suite.c, in its order ({len(NAMES)})",
            f"{[b['name'] for b in rec['benches']]} vs {NAMES}")
    c.check(rec["board"] == "host" and rec["counter"]["unit"].startswith("ns"),
            "board host, unit ns", f"{rec['board']} {rec['counter']}")
    for name in NAMES:
        b = benches.get(name, {})
        c.check(b.get("status") == "measured" and b.get("n") == N and b.get("median", 0) > 0
                and len(b.get("samples", [])) == N,
                f"{name}: {N} samples of ns, median {b.get('median')} ns")
    resolution = rec["counter"]["resolution"]
    c.check(isinstance(resolution, (int, float)) and resolution >= 1,
            f"the clock's resolution is recorded ({resolution} ns)")

    # the table: never 0 ns; the empty bench's net figure is below resolution
    rows = {line.split()[0]: line for line in out.splitlines()
            if line.split() and line.split()[0] in NAMES}
    c.check(len(rows) == len(NAMES), "a table row per bench")
    zero = [name for name, line in rows.items()
            if re.search(r"(^|\s)0(\s|$)", line.split("n/m")[0].split(None, 2)[2])]
    c.check(not zero, "no figure of the table is 0 ns", f"rows with 0: {zero}")
    empty_row = rows.get("empty", "")
    c.check("< resolution" in empty_row, "empty's net figure reads '< resolution'", empty_row)

    # perf: counters where allowed, the reason once where not
    allowed = perf_allowed()
    note = rec["counter"].get("note")
    with_counters = [n for n in NAMES if benches[n].get("counters")]
    if note is None:
        c.check(allowed is not False, "perf counted here, as perf(1) says it can",
                f"perf(1) says allowed={allowed}")
        c.check(len(with_counters) == len(NAMES), "every bench has cycles and instructions")
        ins = {n: {x["name"]: x for x in benches[n]["counters"]}["instructions"]["median"]
               for n in NAMES}
        c.check(ins["nop1000"] - ins["empty"] == 1000,
                f"nop1000's instructions ({ins['nop1000']}) are 1000 plus the loop's overhead "
                f"(empty: {ins['empty']})")
    else:
        print(f"perf not allowed here: {note}")
        c.check(allowed is not True, "perf not counted, as perf(1) says it cannot",
                f"perf(1) says allowed={allowed}")
        c.check(not with_counters, "no bench claims cycles or instructions", str(with_counters))
        c.check("perf_event_paranoid = " in note, "the reason names kernel.perf_event_paranoid",
                note)
        c.check(err.count(note) == 1, "stderr says why once", err)

    # pinned to one CPU this process may use
    m = re.search(r"pinned to CPU (\d+)", rec["server"])
    c.check(m is not None and int(m.group(1)) in os.sched_getaffinity(0),
            f"the benches ran pinned to one CPU ({rec['server']})")

    # the default suite, checked on the host
    check_path = os.path.join(tmp, "check.json")
    code, out, err = run(BENCHRACK, ["check", DEFAULT_SUITE, "--board", "host", "-n", "20",
                                     "--json", check_path,
                                     "--results-dir", os.path.join(tmp, "results")])
    c.check(code == 0 and "PASS host" in out, "check SUITE --board host exits 0",
            f"exit {code}\n{out}\n{err}")
    checked = load(check_path)
    c.check(checked["suite"] == "default" and len(checked["benches"]) >= 7 and
            not checked["budgets"] and not any(b["budgets"] for b in checked["benches"]),
            "the suite's benches, and none of its budgets (the QEMU board's units) on the host")

    code, _, err = run(BENCHRACK, ["check", DEFAULT_SUITE, "--board", "host", "--against", "HEAD",
                                   "--results-dir", os.path.join(tmp, "results")])
    c.check(code == 2 and "--against with --board host needs build: host_program" in err,
            "--against with --board host needs the suite's build: host_program",
            f"exit {code}: {err}")

    # --min-detectable: the iterations from the baseline's spread, as stats/shift.h's
    # rule says (n = 2 (z sigma sqrt(pi/3) / delta)^2 a side, sigma = 1.4826 MAD),
    # worked out here from the baseline's own figures
    sized = os.path.join(tmp, "sized")
    code, _, err = run(BENCHRACK, ["run", "--board", "host", "-n", "40", "--write-baseline",
                                   "--results-dir", sized])
    base_rec = load(os.path.join(sized, "baselines", "no-suite", "host.json"))
    c.check(code == 0 and all(len(b.get("samples", [])) == 40 for b in base_rec["benches"]),
            "a host baseline keeps its samples (noisy figures)", err)
    z = 2.5758293035489004
    want = 0
    for b in base_rec["benches"]:
        sigma = 1.4826 * b["mad"] if b["mad"] > 0 else b["cv_median"] * abs(b["median"])
        delta = 0.02 * abs(b["median"])
        if delta <= base_rec["counter"]["resolution"]:
            continue  # below the clock's resolution: no number of iterations helps
        need = 2 if sigma <= 0 else max(2, math.ceil(2 * (z * sigma * math.sqrt(math.pi / 3) /
                                                          delta) ** 2))
        want = max(want, need)
    want = min(want, 1024)
    sized_json = os.path.join(tmp, "sized.json")
    code, _, err = run(BENCHRACK, ["run", "--board", "host", "--min-detectable", "2%",
                                   "--json", sized_json, "--results-dir", sized])
    got = {b["n"] for b in load(sized_json)["benches"]} if code == 0 else set()
    n = got.pop() if len(got) == 1 else None
    if want == 0:
        # Every bench's 2 % is below the clock's resolution on this host (it
        # varies: a VM's clocksource may tick at 20 ns): no iteration count can
        # resolve it, so benchrack must say so and keep the run as it was.
        plain_json = os.path.join(tmp, "plain.json")
        run(BENCHRACK, ["run", "--board", "host", "--json", plain_json,
                        "--results-dir", os.path.join(tmp, "plain")])
        plain = {b["n"] for b in load(plain_json)["benches"]} if os.path.exists(plain_json) else set()
        c.check(code == 0 and n is not None and plain == {n} and
                "has no noisy figure it can be resolved on" in err and
                "iterations left as they are" in err,
                f"--min-detectable 2% below every bench's resolution "
                f"({base_rec['counter']['resolution']}): iterations left as they are ({n})", err)
    else:
        c.check(code == 0 and n is not None and abs(n - want) <= 1 and
                f"--min-detectable 2%: {n} iterations per bench" in err,
                f"--min-detectable 2% picks the iterations from the baseline's spread ({n}; "
                f"worked out here: {want})", err)
    code, _, err = run(BENCHRACK, ["run", "--board", "host", "--min-detectable", "2%",
                                   "--results-dir", os.path.join(tmp, "empty")])
    c.check(code == 2 and "--min-detectable sizes the run from the baseline's spread" in err,
            "--min-detectable without a baseline is a usage error", f"exit {code}: {err}")

    # a bench the program does not have is a configuration error
    p = subprocess.run([HOST_BENCHES, "--iterations", "3", "no_such_bench"],
                       capture_output=True, text=True, timeout=30)
    c.check(p.returncode == 1 and "no bench called no_such_bench" in p.stdout,
            "the program refuses a bench it does not have", p.stdout)

sys.exit(c.finish())
