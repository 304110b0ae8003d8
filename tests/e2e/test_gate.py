#!/usr/bin/env python3
"""The CI gate end to end, on QEMU (exact instruction counts):
- run --write-baseline records results/baselines/<suite>/<board>.json (stable key
  order), and check against it passes;
- the `work` bench made slower by a build option (gate-slower-O2.elf) fails
  check with exit 1, naming the bench, the metric and the percent;
- the same change passes under a looser fail_on_regression_percent;
- an exceeded budget fails;
- a baseline from another board is refused (check and diff, exit 2);
- diff between a baseline and a run: old, new, change %, verdict;
- every run first writes results/runs/<time>-<board>.json with provenance
  (build-id as readelf sees it, toolchain, commit, board, server, counter);
- SIGKILL in the middle of a suite leaves every finished bench on disk,
  readable by diff; a bench that never returns on a board that answers is a
  test failure: exit 1 from run and check, "did not finish within N s", the
  finished ones kept;
- entries for unmodified firmware (an ELF with function or from/to) are
  measured at breakpoints beside the stub's benches, with their calibration;
  on a board that cannot be reached (OpenOCD with no probe) they are "not
  run", never a number, and run and check exit 3 quoting OpenOCD; a board whose server cannot run the
  suite firmware yet is an infrastructure error.

usage: test_gate.py BENCHRACK GATE_ELF SLOWER_ELF PLAIN_ELF
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from gate_lib import (BOARD, ITERATIONS, Checker, build_id, load, run, runs_in,  # noqa: E402
                      test_board, write_suite, write_unreachable_board)

BENCHRACK, GATE, SLOWER, PLAIN = sys.argv[1:5]
BENCHES = ["empty", "nop1000", "work"]
c = Checker()


def key_order(obj, prefix=""):
    """Every key path in document order."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + k)
            out += key_order(v, prefix + k + ".")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += key_order(v, f"{prefix}{i}.")
    return out


with tempfile.TemporaryDirectory() as tmp:
    results = os.path.join(tmp, "results")
    suite = write_suite(os.path.join(tmp, "gate.yaml"), GATE, BENCHES)
    base = ["--results-dir", results, "--commit", "feedc0de"]

    # 1. Record a baseline.
    rc, out, err = run(BENCHRACK, ["run", suite, "--write-baseline"] + base)
    c.check(rc == 0, f"run --write-baseline exits 0 (got {rc})", err)
    baseline = os.path.join(results, "baselines", "gate", BOARD + ".json")
    c.check(os.path.isfile(baseline), "baseline written to results/baselines/<suite>/<board>.json")
    c.check(f"baseline written to {baseline}" in err, "says where the baseline went", err)
    b1 = load(baseline)
    c.check(b1["kind"] == "baseline" and [b["name"] for b in b1["benches"]] == BENCHES,
            "baseline lists the benches in suite order")
    c.check(all("samples" not in b for b in b1["benches"]), "baseline carries no raw samples")
    runs = runs_in(results)
    c.check(len(runs) == 1 and runs[0].endswith(f"-{BOARD}.json"),
            "the run went to results/runs/<time>-<board>.json", repr(runs))
    rec = load(runs[0])
    c.check(rec["status"] == "complete" and rec["kind"] == "run", "run record complete")
    fw = rec["firmware"]
    c.check(fw["build_id"] is not None and fw["build_id"] == build_id(GATE),
            f"build-id {fw['build_id']} is the ELF's ({build_id(GATE)})")
    c.check(fw["path"] == GATE and fw["git_commit"] == "feedc0de", "firmware path and commit")
    c.check((fw["toolchain"] or "").startswith("GCC:"), f"toolchain {fw['toolchain']!r}")
    c.check(fw["text_bytes"] > 0, "text size recorded")
    c.check(rec["board"] == BOARD and
            rec["server"] == "qemu-system-arm -M " + test_board.qemu_machine(),
            "board and server recorded", f"{rec['board']}, {rec['server']}")
    counter = {"name": test_board.counter(), "unit": test_board.unit(), "clock_hz": None}
    c.check(rec["counter"] == counter, f"counter, unit and clock recorded ({counter})",
            str(rec["counter"]))
    c.check(rec["benchrack_version"] != "" and rec["host"] != "", "version and host recorded")
    work = next(b for b in rec["benches"] if b["name"] == "work")
    c.check(work["n"] == ITERATIONS and len(work["samples"]) == ITERATIONS and
            work["min"] == work["max"], f"work: {ITERATIONS} identical samples")

    # Re-recording gives the same keys in the same order: a diff reads well.
    rc, _, err = run(BENCHRACK, ["run", suite, "--write-baseline"] + base)
    b2 = load(baseline)
    c.check(rc == 0 and key_order(b1) == key_order(b2), "baseline key order is stable", err)
    c.check(b1["benches"] == b2["benches"], "the same firmware gives the same baseline figures")

    # 2. The same firmware passes.
    rc, out, err = run(BENCHRACK, ["check", suite] + base)
    c.check(rc == 0, f"check against its own baseline exits 0 (got {rc})", out + err)
    c.check("PASS" in out and "compared with " + baseline in out, "table says PASS", out)

    # 3. A slower bench fails, naming bench, metric and percent.
    rc, out, err = run(BENCHRACK, ["check", suite, "--firmware", SLOWER] + base)
    c.check(rc == 1, f"check of the slower firmware exits 1 (got {rc})", out + err)
    m = re.search(r"check failed on " + re.escape(BOARD) +
                  r": work: instructions (\d+) vs baseline "
                  r"(\d+): \+\d+ instructions \(\+(\d+\.\d) %\), beyond the 5% regression "
                  r"limit", err)
    c.check(m is not None, "stderr names work, instructions and the percent", err)
    if m:
        new, old, pct = int(m.group(1)), int(m.group(2)), float(m.group(3))
        c.check(new > old and abs(100.0 * (new - old) / old - pct) < 0.06,
                f"the percent is (new - old) / old: {pct}% from {old} to {new}")
        c.check(old == work["median"], "the baseline figure is the recorded median")
    c.check(re.search(r"work\s+instructions\s+\d+\s+\d+\s+\+\d+\.\d%\s+\+\d+ instructions \(\+\d+\.\d %\)", out) is not None,
            "the table shows old, new, change and verdict", out)
    c.check(re.search(r"empty\s+instructions\s+(\d+)\s+\1\s+\+0\.0%\s+equal", out) is not None,
            "an unchanged bench is equal", out)
    slower_run = runs_in(results)[-1]
    c.check(not os.path.exists(baseline + ".tmp"), "no temporary files left")

    # 4. A change under the threshold passes.
    loose = write_suite(os.path.join(tmp, "loose.yaml"), GATE, BENCHES,
                        fail_on_regression_percent=50)
    rc, out, err = run(BENCHRACK, ["check", loose, "--firmware", SLOWER] + base)
    c.check(rc == 0, f"the same change under a 50% limit passes (got {rc})", out + err)
    c.check(re.search(r"work\s+instructions\s+\d+\s+\d+\s+\+\d+\.\d%\s+\+\d+ instructions \(\+\d+\.\d %\)", out) is not None,
            "... still showing it as worse", out)

    # 5. An exceeded budget fails (no regression involved).
    tight = write_suite(os.path.join(tmp, "tight.yaml"), GATE,
                        ["empty", "nop1000",
                         "{name: work, budgets: {max_cycles_per_iteration: 100}}"])
    rc, out, err = run(BENCHRACK, ["check", tight] + base)
    c.check(rc == 1, f"an exceeded budget exits 1 (got {rc})", out + err)
    c.check(re.search(r"work: instructions median \d+ exceeds budget max_cycles_per_iteration "
                      r"100 by \d+\.\d%", err) is not None, "names the budget and percent", err)
    stack = write_suite(os.path.join(tmp, "stack.yaml"), GATE, BENCHES,
                        budgets="{max_stack_bytes: 4}")
    rc, out, err = run(BENCHRACK, ["check", stack] + base)
    c.check(rc == 1 and "exceeds budget max_stack_bytes 4" in err,
            f"a stack budget is enforced too (got {rc})", err)

    # 6. Another board's baseline is refused: the same machine under another
    # name (the build's board file, renamed), so the images run there too.
    boards = os.path.join(tmp, "boards")
    os.makedirs(boards)
    other = os.path.join(boards, "qemu-other.yaml")
    with open(test_board.board_file(), encoding="utf-8") as f:
        own = f.read()
    renamed = re.sub(r"^name: .*$", "name: qemu-other", own, count=1, flags=re.M)
    c.check(renamed != own, "the board file renamed qemu-other")
    with open(other, "w", encoding="utf-8") as f:
        f.write(renamed)
    rc, out, err = run(BENCHRACK, ["check", suite, "--board", other, "--baseline", baseline]
                       + base)
    c.check(rc == 2, f"check against another board's baseline exits 2 (got {rc})", out + err)
    c.check(f"{baseline} was recorded with board '{BOARD}', not 'qemu-other': refusing to "
            "compare figures from another board" in err, "says why", err)
    other_run = runs_in(results)[-1]
    rc, out, err = run(BENCHRACK, ["diff", baseline, other_run])
    c.check(rc == 2 and "refusing to compare" in err,
            f"diff refuses another board's run too (got {rc})", err)

    # 7. diff: baseline against the slower run, and two runs.
    rc, out, err = run(BENCHRACK, ["diff", baseline, slower_run])
    c.check(rc == 0, f"diff baseline run exits 0 (got {rc})", err)
    c.check(re.search(r"work\s+instructions\s+\d+\s+\d+\s+\+\d+\.\d%\s+\+\d+ instructions \(\+\d+\.\d %\)", out) is not None
            and re.search(r"nop1000\s+instructions\s+(\d+)\s+\1\s+\+0\.0%\s+equal", out),
            "diff shows per bench and metric old, new, change, verdict", out)
    c.check(re.search(r"work\s+stack_bytes\s+\d+\s+\d+", out) is not None,
            "diff covers the stack too", out)
    rc, out, err = run(BENCHRACK, ["diff", slower_run, runs[0]])
    c.check(rc == 0 and re.search(r"work\s+instructions\s+\d+\s+\d+\s+-\d+\.\d%\s+-\d+ instructions \(-\d+\.\d %\)", out),
            "diff of two runs: the faster one is better", out + err)

    # 8. SIGKILL in the middle of a suite.
    killed = write_suite(os.path.join(tmp, "killed.yaml"), GATE, BENCHES + ["stall"],
                         timeout_seconds=120)
    kill_results = os.path.join(tmp, "killed-results")
    proc = subprocess.Popen([BENCHRACK, "run", killed, "--results-dir", kill_results],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    record = None
    while time.monotonic() < deadline and record is None:
        files = runs_in(kill_results)
        if files:
            try:
                r = load(files[0])
                if len(r["benches"]) == 3:
                    record = files[0]
            except ValueError:
                pass  # never half a file: renamed into place whole
        time.sleep(0.02)
    children = []
    try:
        with open(f"/proc/{proc.pid}/task/{proc.pid}/children", encoding="ascii") as f:
            children = [int(p) for p in f.read().split()]
    except OSError:
        pass
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    for child in children:  # the QEMU benchrack launched, orphaned by the kill
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
    c.check(record is not None, "three benches finished before the kill")
    if record:
        r = load(record)
        c.check(r["status"] == "running" and [b["name"] for b in r["benches"]] == BENCHES,
                "after SIGKILL the record holds every finished bench", str(r["benches"])[:300])
        rc, out, err = run(BENCHRACK, ["diff", baseline, record])
        c.check(rc == 0 and re.search(r"work\s+instructions\s+(\d+)\s+\1\s+\+0\.0%\s+equal", out)
                is not None, "benchrack diff reads the interrupted run", out + err)
        c.check("unfinished run (running)" in err, "diff notes it is unfinished", err)

    # A bench that never returns on a board that answers costs only itself:
    # "did not finish within N s" with where the core was, the bench after it
    # measured on the board started again, exit 3 (README: a breakpoint that
    # never hit) in run and check alike.
    stalled = write_suite(os.path.join(tmp, "stalled.yaml"), GATE, ["empty", "stall", "nop1000"],
                          timeout_seconds=1)
    stall_results = os.path.join(tmp, "stall-results")
    rc, out, err = run(BENCHRACK, ["run", stalled, "--results-dir", stall_results])
    # (on an overloaded host: "..., but the host was overloaded: ...", the
    # same exit; tests/layouts/test_starved.py)
    # On an icount board QEMU runs in record mode, and QEMU 7.2 answers no
    # interrupt there while the core runs: benchrack cannot stop the core to
    # say where it was, and says so.
    if test_board.counter() == "icount":
        where = "where the core is is unknown: QEMU in record mode"
        print(f"note: on {BOARD} (QEMU in record mode) the stalled core's PC cannot be read: "
              f"asserted is that the message says so ({where!r})")
    else:
        where = "the core was at PC 0x"
    c.check(rc == 3 and "stall did not finish within 1 s" in err and where in err,
            f"a bench that never returns: run exits 3, did not finish within 1 s (got {rc})", err)
    files = runs_in(stall_results)
    if c.check(len(files) == 1, "its run record is on disk"):
        r = load(files[0])
        c.check(r["status"] == "failed" and "stall" in (r["error"] or "") and
                [b["name"] for b in r["benches"]] == ["empty", "stall", "nop1000"] and
                r["benches"][1]["status"] == "not_run" and
                "did not finish within 1 s" in (r["benches"][1]["reason"] or "") and
                r["benches"][2]["status"] == "measured" and
                r["benches"][2]["median"] - r["benches"][0]["median"] == 1000,
                "failed, saying which bench and why, the benches before and after it measured "
                "(nop1000 1000 instructions above empty: its 1000 nops)", str(r)[:400])
    rc, out, err = run(BENCHRACK, ["check", stalled, "--results-dir", stall_results])
    c.check(rc == 3 and "did not finish within 1 s" in err,
            f"check: the same bench, exit 3 (got {rc})", err)

    # 9. Unmodified firmware entries: measured at breakpoints, in suite order.
    elf_suite = write_suite(os.path.join(tmp, "elf.yaml"), GATE,
                            [f"{{name: fixed_calls, elf: {PLAIN}, function: plain_fixed}}",
                             "empty",
                             f"{{name: markers, elf: {PLAIN}, from: plain_markers, "
                             f"to: plain_fixed, budgets: {{max_heap_bytes: 0}}}}"])
    elf_results = os.path.join(tmp, "elf-results")
    rc, out, err = run(BENCHRACK, ["run", elf_suite, "--results-dir", elf_results])
    c.check(rc == 0 and re.search(rf"^fixed_calls\s+{ITERATIONS}\s+(\d+)\s+\1\s", out, re.M),
            f"a function entry is measured at breakpoints (got {rc})", out + err)
    r = load(runs_in(elf_results)[-1])
    names = [b["name"] for b in r["benches"]]
    c.check(names == ["fixed_calls", "empty", "markers"], "entries in suite order", str(names))
    entry = r["benches"][0]
    c.check(entry["mode"] == "function" and entry["elf"] == PLAIN and entry["heap"] is None and
            entry["calibration"] is not None and entry["calibration"]["median"] == 0,
            "its record: mode, its own ELF, no heap figure, the calibration beside it",
            str({k: v for k, v in entry.items() if k != "samples"}))
    rc, out, err = run(BENCHRACK, ["check", elf_suite, "--results-dir", elf_results])
    c.check(rc == 1 and "markers: heap_peak_bytes not known" in err,
            f"a heap budget on unmodified firmware cannot be shown to hold: exit 1 (got {rc})",
            err)

    # A board that cannot be reached (OpenOCD launched, no probe here): the
    # entry is not run, never a number; run and check exit 3 quoting OpenOCD.
    unreachable = write_unreachable_board(boards)
    remote_suite = os.path.join(tmp, "nucleo-elf.yaml")
    with open(remote_suite, "w", encoding="utf-8") as f:
        f.write(f"name: nucleo\nboards: [openocd-unreachable]\nbenches:\n"
                f"  - {{name: fixed_calls, elf: {PLAIN}, function: plain_fixed}}\n")
    rc, out, err = run(BENCHRACK, ["run", remote_suite] + base)
    c.check(rc == 3 and re.search(r"fixed_calls\s+not run: openocd", out) and
            "Error: open failed" in err,
            f"run reports the entry as not run, quoting OpenOCD: exit 3 (got {rc})", out + err)
    r = load(runs_in(results)[-1])
    c.check(r["benches"][0]["status"] == "not_run" and "median" not in r["benches"][0],
            "the record has no figure for it")
    rc, out, err = run(BENCHRACK, ["check", remote_suite] + base)
    c.check(rc == 3 and "Error: open failed" in err,
            f"check cannot pass what it could not measure: exit 3 (got {rc})", err)

    # 10. The suite firmware on a board behind OpenOCD with no probe: OpenOCD is
    # reached, and its own reason is quoted (exit 3), for run and check alike.
    nucleo = write_suite(os.path.join(tmp, "nucleo.yaml"), GATE, ["empty"])
    for cmd in ("run", "check"):
        rc, out, err = run(BENCHRACK, [cmd, nucleo, "--board", unreachable] + base)
        c.check(rc == 3 and "Error: open failed" in err and "not supported" not in err,
                f"{cmd} on an OpenOCD board without a probe: exit 3 quoting OpenOCD (got {rc})",
                err)

sys.exit(c.finish())
