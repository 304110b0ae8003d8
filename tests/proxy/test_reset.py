#!/usr/bin/env python3
"""A target that resets while it is held halted (issue 31, NW1): through
faultproxy.py's `reset` mode, the proxy sends the real QEMU `monitor
system_reset` at the nth stop reply, before forwarding it, at five points of
a --from/--to session (a calibration start's step, its stop, a start and an
end). In `benchrack measure`, `benchrack run` and `benchrack check` (a
suite's from:/to: entry), every figure in the table and in the JSON must be
the true count, or "not measured" saying the target reset — never another
number (before the fix, a reset at the step's stop gave 23 where the truth
is 556, saved as measured, exit 0). The true count comes from a clean run
checked against QEMU's own clock: plain_markers -> plain_fixed is a fixed
path (the exact-count tests pin it against the disassembly).

usage: test_reset.py BENCHRACK QEMU PLAIN_ELF
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

BENCHRACK, QEMU, PLAIN = (os.path.abspath(a) for a in sys.argv[1:4])
WORK = tempfile.mkdtemp(prefix="benchrack-reset-")
RANGE = ["--from", "plain_markers", "--to", "plain_fixed"]
# Stop replies, counted from the connection's first (the `?` at connect):
# 2 a step before the first start, 4 a calibration start's step, 5 that
# step's stop (the counter read after it), 7 and 8 the same at the next
# start, 16 and 17 at a later one.
POINTS = [2, 4, 5, 8, 17]
RESET_WORDS = re.compile(r"the target reset")
SUITE = """name: reset
boards: [reset]
default_iterations: 8
warmup_runs: 0
benches:
  - name: markers
    elf: {elf}
    from: plain_markers
    to: plain_fixed
  - name: fixed_calls
    elf: {elf}
    function: plain_fixed
"""
c = Checks()


def through(nth, fn):
    """fn(port) with QEMU (plain firmware) behind a proxy that resets the
    target at the nth stop reply (nth 0: no fault)."""
    qemu, qport = start_qemu(QEMU, PLAIN)
    proxy = Proxy(qport, "reset" if nth else "pass", nth=nth)
    try:
        return fn(proxy.port), proxy.injected
    finally:
        proxy.close()
        qemu.kill()
        qemu.wait()


def load(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        res = json.load(f)
    os.unlink(path)
    return res


def measure(port):
    path = os.path.join(WORK, "measure.json")
    p = subprocess.run([BENCHRACK, "measure", PLAIN, *RANGE, "-n", "8", "-w", "0",
                        "--remote", f"127.0.0.1:{port}", "--flavour", "qemu",
                        "--timeout", "5", "--json", path],
                       capture_output=True, text=True, timeout=120)
    return p, load(path)


def suite_command(command, extra=()):
    def go(port):
        board = os.path.join(WORK, "reset.yaml")
        with open(board, "w", encoding="utf-8") as f:
            f.write(remote_board_yaml("reset", port, "never"))
        suite = os.path.join(WORK, "suite.yaml")
        with open(suite, "w", encoding="utf-8") as f:
            f.write(SUITE.format(elf=PLAIN))
        path = os.path.join(WORK, f"{command}.json")
        p = subprocess.run([BENCHRACK, command, suite, "--board", board, "--results-dir", WORK,
                            "--timeout", "5", "--json", path, *extra],
                           capture_output=True, text=True, timeout=120)
        return p, load(path)
    return go


def table_figures(text):
    """Every number on the table's raw/net lines."""
    out = []
    for line in text.splitlines():
        if re.match(r"(raw|net)\s", line):
            out += [float(x) for x in re.findall(r"\s(\d+(?:\.\d+)?)(?=\s)", line)[1:]]
    return out


def check_measure(label, truth, p, res, injected):
    c.check(injected == 1, f"{label}: the reset was injected ({injected})")
    c.check(res is not None, f"{label}: --json written (exit {p.returncode}: {p.stderr.strip()})")
    if res is None:
        return
    samples = res.get("samples") or []
    c.check(all(s == truth for s in samples if s is not None) and len(samples) == 8,
            f"{label}: every measured sample is the true {truth}: {samples}")
    figures = table_figures(p.stdout)
    # The table's n column is a count, then the figures: all the true count
    # (MAD and outliers 0), or no line at all when nothing was measured.
    c.check(all(x in (truth, 0, len(samples)) for x in figures),
            f"{label}: the table holds only the true count: {figures}")
    if p.returncode != 0:
        c.check(p.returncode == 3, f"{label}: a sample not measured is exit 3 ({p.returncode})")
        c.check(RESET_WORDS.search(p.stderr) is not None and
                RESET_WORDS.search(p.stdout) is not None,
                f"{label}: the reason says the target reset: {p.stderr.strip()}")


def check_suite(label, truth, p, res, injected):
    c.check(injected == 1, f"{label}: the reset was injected ({injected})")
    c.check(res is not None, f"{label}: --json written (exit {p.returncode}: {p.stderr.strip()})")
    if res is None:
        return
    bench = [b for b in res["benches"] if b["name"] == "markers"][0]
    if bench["status"] == "measured":
        c.check(all(s == truth for s in bench["samples"]) and bench["median"] == truth,
                f"{label}: measured, and every figure the true {truth}: {bench['samples']}")
    else:
        c.check(RESET_WORDS.search(bench.get("reason") or "") is not None,
                f"{label}: not measured, saying the target reset: {bench.get('reason')}")
        c.check(p.returncode == 3 or bench["status"] != "measured",
                f"{label}: not measured ({bench['status']}, exit {p.returncode})")
    for line in p.stdout.splitlines():
        if line.startswith("markers"):
            c.check(str(truth) in line or "not measured" in line,
                    f"{label}: the table's line has the true count or 'not measured': {line}")


def main():
    (p, clean), _ = through(0, measure)
    c.check(p.returncode == 0 and clean is not None,
            f"clean measure: exit 0 ({p.returncode}: {p.stderr.strip()})")
    truth = clean["samples"][0] if clean else None
    c.check(clean is not None and set(clean["samples"]) == {556},
            f"clean measure: plain_markers -> plain_fixed is 556 instructions: "
            f"{clean and clean['samples']}")
    saw_reset = 0
    for nth in POINTS:
        (p, res), injected = through(nth, measure)
        check_measure(f"measure, reset at stop {nth}", truth, p, res, injected)
        saw_reset += res is not None and res.get("strays", 0) > 0
    c.check(saw_reset == len(POINTS),
            f"measure: every reset was seen as a stop at the reset handler ({saw_reset})")
    for command in ("run", "check"):
        for nth in POINTS:
            (p, res), injected = through(nth, suite_command(command))
            check_suite(f"{command}, reset at stop {nth}", truth, p, res, injected)
    check_baseline(truth)
    return c.finish()


def baseline_entries():
    path = os.path.join(WORK, "baselines", "reset", "reset.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return {b["name"]: b for b in json.load(f)["benches"]}


def check_baseline(truth):
    """ND1: a run whose markers bench was not measured (a reset at stop 4)
    with --write-baseline never loses markers' baseline entry; the bench it
    measured is written."""
    (p, res), _ = through(0, suite_command("run", ["--write-baseline"]))
    before = baseline_entries()
    c.check(p.returncode == 0 and before.get("markers", {}).get("median") == truth,
            f"a clean run writes the baseline, markers {truth} ({p.returncode}: {p.stderr})")
    (p, res), injected = through(4, suite_command("run", ["--write-baseline"]))
    status = res and [b["status"] for b in res["benches"] if b["name"] == "markers"]
    c.check(injected == 1 and status == ["not_run"],
            f"the faulted run did not measure markers ({status})")
    after = baseline_entries()
    m = after.get("markers", {})
    c.check(m.get("status") == "measured" and m.get("median") == truth,
            f"--write-baseline after a bench not measured: markers' entry kept ({m.get('status')}, "
            f"{m.get('median')}): {p.stderr}")
    c.check(after.get("fixed_calls", {}).get("status") == "measured",
            "the bench it measured is in the baseline")
    if "baseline written" in p.stderr:
        c.check("kept the old baseline entry of markers" in p.stderr,
                f"the run says which old entry it kept: {p.stderr}")


if __name__ == "__main__":
    sys.exit(main())
