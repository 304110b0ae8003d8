#!/usr/bin/env python3
"""Out-of-step and well-formed wrong replies, through faultproxy.py to a real
QEMU: one extra well-formed reply injected before a counter read's reply
(`inject`), and one counter reply changed in a digit with its checksum fixed
(`fixcorrupt`), each at two places (the first and the second counter read of
a halt). And with --stack, one extra "OK" before a stack paint's reply: at
a calibration start (the paint's own round) and at a later one (the paint
in the write that swaps and continues), and a paint refused at the same
two places (the session ends, exit 3, naming the write; the samples before
it kept and exact); an extra reply before a stack scan's read and a refused
scan read (in the end's one write). In `benchrack measure` (--function,
--from/--to, --function --stack) and in
`benchrack run` (a suite of breakpoint entries), every figure in the table
and in the JSON must be the clean run's exact figure or "not measured" —
never another number — and the fault must really have been injected.

usage: test_out_of_step.py BENCHRACK QEMU PLAIN_ELF
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from faultproxy import Proxy  # noqa: E402
from measure_cli import Checks  # noqa: E402
from qemu_gdbstub import remote_board_yaml, start_qemu  # noqa: E402

BENCHRACK, QEMU, PLAIN = sys.argv[1:4]
WORK = tempfile.mkdtemp(prefix="benchrack-outofstep-")
COUNTER_READ = b"m40000024,4"
FAULTS = [("inject", 9), ("inject", 10), ("fixcorrupt", 9), ("fixcorrupt", 10)]
MEASURES = {
    "function": ["--function", "plain_fixed"],
    "range": ["--from", "plain_markers", "--to", "plain_fixed"],
    "stack": ["--function", "plain_fixed", "--stack"],
    # recursion_descend's depths differ call by call: a scan that took one
    # chunk's reply for another's would show as a depth the clean run lacks.
    "stackdeep": ["--function", "recursion_descend", "--stack"],
}
# The stack paint's write (one M per start on plain_fixed's region, which
# begins at br_ld_stack_limit): the 3rd start paints in its own round, the
# 8th (after BR_BP_CALIBRATION_SAMPLES) in the write that resumes.
PAINT_WRITE = b"M2001e000,"
STACK_FAULTS = [("inject", 3), ("inject", 8)]
# And a paint the server refuses (an error reply in the M's place), at the
# same two starts: the session ends there (exit 3) saying which write failed,
# the samples before it kept, exact.
STACK_REFUSALS = [("refuse", 3), ("refuse", 8)]
# The stack scan's first read (an end's write reads the region back before
# the swap and the continue): an extra copy of an earlier scan reply (the
# same length: only the marker read after the scan can tell), and a refusal.
SCAN_READ = b"m2001e000,"
SCAN_FAULTS = [("inject", 3), ("inject", 8)]
SCAN_REFUSALS = [("refuse", 8)]
SUITE = """name: outofstep
boards: [outofstep]
default_iterations: 12
benches:
  - name: fixed_calls
    elf: {elf}
    function: plain_fixed
  - name: markers
    elf: {elf}
    from: plain_markers
    to: plain_fixed
"""
c = Checks()


def through(mode, nth, fn, match=COUNTER_READ):
    """fn(port) with QEMU (plain firmware) behind a proxy injecting mode at
    the nth reply to a request that begins with match."""
    qemu, qport = start_qemu(QEMU, PLAIN)
    proxy = Proxy(qport, mode, match=match, nth=nth) if mode else None
    try:
        return fn(proxy.port if proxy else qport), (proxy.injected if proxy else 0)
    finally:
        if proxy:
            proxy.close()
        qemu.kill()
        qemu.wait()


def measure(what):
    def go(port):
        path = os.path.join(WORK, f"measure-{what}.json")
        if os.path.exists(path):
            os.unlink(path)
        p = subprocess.run([BENCHRACK, "measure", PLAIN, *MEASURES[what], "-n", "12", "-w", "0",
                            "--remote", f"127.0.0.1:{port}", "--flavour", "qemu",
                            "--timeout", "5", "--json", path],
                           capture_output=True, text=True, timeout=120)
        res = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else None
        return p, res
    return go


def run_suite(port):
    board = os.path.join(WORK, "outofstep.yaml")
    with open(board, "w", encoding="utf-8") as f:
        f.write(remote_board_yaml("outofstep", port, "never"))
    suite = os.path.join(WORK, "suite.yaml")
    with open(suite, "w", encoding="utf-8") as f:
        f.write(SUITE.format(elf=PLAIN))
    path = os.path.join(WORK, "run.json")
    if os.path.exists(path):
        os.unlink(path)
    p = subprocess.run([BENCHRACK, "run", suite, "--board", board, "--results-dir", WORK,
                        "--timeout", "5", "--json", path],
                       capture_output=True, text=True, timeout=120)
    res = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else None
    return p, res


def numbers_in_table(text):
    """The figure lines of a table (rows that begin with raw/net or a bench name)."""
    return [line.split() for line in text.splitlines()
            if re.match(r"^(raw|net|fixed_calls|markers)\s+\d", line)]


def check_measure(label, clean, p, res, injected):
    c.check(injected == 1, f"{label}: the fault was injected ({injected})")
    if clean.get("stack") and clean["stack"].get("per_sample"):
        depths = set(clean["stack"]["per_sample"])
        got_depths = [] if res is None or not res.get("stack") else res["stack"]["per_sample"]
        wrong = [d for d in got_depths if d is not None and d not in depths]
        c.check(not wrong, f"{label}: no stack depth other than the exact {sorted(depths)} "
                           f"(wrong: {wrong})")
    exact = set(clean["samples"])
    got = [] if res is None else res["samples"]
    wrong = [s for s in got if s is not None and s not in exact]
    c.check(not wrong, f"{label}: no sample other than the exact {sorted(exact)} (wrong: {wrong})")
    if p.returncode == 0:
        c.check(res is not None and res["raw"]["median"] == clean["raw"]["median"]
                and len(got) == len(clean["samples"]),
                f"{label}: exit 0 with the exact figure "
                f"({res and res['raw']['median']} == {clean['raw']['median']}; "
                f"recoveries {res and res.get('recoveries')}, dropped {res and res.get('dropped')})")
        c.check(numbers_in_table(p.stdout) == numbers_in_table(clean_out[label.split()[0]]),
                f"{label}: the table's figures are the clean ones")
    else:
        c.check(p.returncode == 3 and "benchrack" in p.stderr,
                f"{label}: otherwise exit 3 with the reason ({p.returncode}: "
                f"{p.stderr.strip().splitlines()[-1:] })")
        c.check(numbers_in_table(p.stdout) in ([], numbers_in_table(clean_out[label.split()[0]])),
                f"{label}: and no figure printed but the clean ones")


def check_pairs(label, clean, p, res, injected):
    """Recovered once, and each call's figure and stack depth as the clean
    run paired them (the calls differ, so a dropped sample moves the median:
    not compared)."""
    c.check(injected == 1, f"{label}: the fault was injected ({injected})")
    pairs = set(zip(clean["samples"], clean["stack"]["per_sample"]))
    got = [] if res is None else list(zip(res["samples"], res["stack"]["per_sample"]))
    wrong = [g for g in got if g not in pairs]
    c.check(p.returncode == 0 and len(got) >= 1 and not wrong,
            f"{label}: exit {p.returncode} == 0, every (figure, depth) as the clean run's "
            f"(wrong: {wrong})")
    c.check(res is not None and res.get("recoveries") == 1,
            f"{label}: the stream put back in step once (recoveries "
            f"{res and res.get('recoveries')})")


def check_refused(label, clean, p, res, injected, doing="painting"):
    c.check(injected == 1, f"{label}: the refusal was injected ({injected})")
    c.check(p.returncode == 3, f"{label}: exit 3 ({p.returncode})")
    c.check(f"{doing} the stack region at 0x2001e000" in p.stderr
            and 'failed: the server answered "E0E"' in p.stderr,
            f"{label}: the error says {doing} the stack failed, with the server's answer "
            f"({p.stderr.strip().splitlines()[-1:]})")
    got = [] if res is None else res["samples"]
    c.check(len(got) >= 1 and set(got) <= set(clean["samples"]),
            f"{label}: the samples before it kept, exact ({got})")
    depths = [] if res is None or not res.get("stack") else res["stack"]["per_sample"]
    c.check(len(depths) == len(got) and set(depths) <= set(clean["stack"]["per_sample"]),
            f"{label}: their stack depths exact ({depths})")


clean_out = {}
clean_res = {}
for what in MEASURES:
    (p, res), _ = through(None, 0, measure(what))
    c.check(p.returncode == 0 and res is not None, f"clean measure {what}: exit {p.returncode}")
    if res is None:
        print(p.stdout, p.stderr)
        sys.exit(1)
    clean_out[what], clean_res[what] = p.stdout, res
    print(f"clean measure {what}: {sorted(set(res['samples']))}")
    faults = {"stack": STACK_FAULTS, "stackdeep": []}.get(what, FAULTS)
    match = PAINT_WRITE if what == "stack" else COUNTER_READ
    for mode, nth in faults:
        (p, r), injected = through(mode, nth, measure(what), match)
        check_measure(f"{what} {mode}@{nth}", res, p, r, injected)
    for mode, nth in STACK_REFUSALS if what == "stack" else []:
        (p, r), injected = through(mode, nth, measure(what), match)
        check_refused(f"{what} {mode}@{nth}", res, p, r, injected)
    for mode, nth in SCAN_FAULTS if what == "stackdeep" else []:
        (p, r), injected = through(mode, nth, measure(what), SCAN_READ)
        check_pairs(f"{what} scan {mode}@{nth}", res, p, r, injected)
    for mode, nth in SCAN_REFUSALS if what == "stackdeep" else []:
        (p, r), injected = through(mode, nth, measure(what), SCAN_READ)
        check_refused(f"{what} scan {mode}@{nth}", res, p, r, injected, "reading")

(p, clean_run), _ = through(None, 0, run_suite)
c.check(p.returncode == 0 and clean_run is not None, f"clean run: exit {p.returncode}")
if clean_run is None:
    print(p.stdout, p.stderr)
    sys.exit(1)
clean_benches = {b["name"]: b for b in clean_run["benches"]}
print("clean run: " + ", ".join(f"{n} {b.get('median')}" for n, b in clean_benches.items()))
for mode, nth in FAULTS:
    (p, r), injected = through(mode, nth, run_suite)
    label = f"run {mode}@{nth}"
    c.check(injected == 1, f"{label}: the fault was injected ({injected})")
    for b in (r or {}).get("benches", []):
        want = clean_benches[b["name"]]
        if b.get("status") == "measured":
            c.check(b["median"] == want["median"] and set(b["samples"]) <= set(want["samples"]),
                    f"{label}: {b['name']} {b['median']} == {want['median']}, samples exact")
        else:
            c.check(b.get("median") is None and not b.get("samples"),
                    f"{label}: {b['name']} not measured, no figure")
    rows = {row[0]: row for row in numbers_in_table(p.stdout)}
    for name, row in rows.items():
        c.check(float(row[2]) == float(clean_benches[name]["median"]),
                f"{label}: table {name} median {row[2]} == {clean_benches[name]['median']}")
    c.check(p.returncode in (0, 1, 3), f"{label}: exit {p.returncode}")

sys.exit(1 if c.failures else 0)
