#!/usr/bin/env python3
"""Batch mode in chunks: the default suite, run with `-n N` on a suite image
whose sample buffer holds only 16 samples, gives exactly the counts of the
image with the default buffer, and the run record says how many halts each
bench took.

Runs `benchrack run SUITE --firmware ELF --board NAME -n N` on the build's
QEMU board (tests/lib/test_board.py; TIM2 or QEMU's icount: exact counts;
N 100, or 33 on icount, where each sample is two watchpoint stops: still
three chunks) and checks, for every bench of the peer:
  the committed baseline results/baselines/default/NAME.json where the board
  has one (the default board: the suite image with the default buffer; its
  counts are those of the former 1024-sample buffer, one halt a bench), or
  else the same run of this build's default-buffer image (PEER_ELF, one halt
  a bench), whose nop1000 must be exactly its empty + 1000 (1000 nops):
  - n is N, and median, min and max equal the peer's median (on QEMU
    every sample of a bench is the same exact count);
  - the stack depth and the heap's peak and live bytes equal the baseline's;
  - `halts` is ceil(100 / buffer) — the buffer read from the image's
    br_ld_sample_count — in the --json output and in the run record that
    benchrack wrote under --results-dir;
  - `benchrack measure ELF --bench nop1000 --json`, for a count just under,
    at and just over a whole number of buffers, takes that many halts (in its
    --json) and every sample is the baseline's nop1000 figure.

Usage: chunks.py --benchrack B --objdump OBJDUMP --suite SUITE.yaml
                 --baselines DIR --peer PEER_ELF ELF
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from objdump_symbols import finish, symbol_value  # noqa: E402
import test_board  # noqa: E402

ITERATIONS = 100 if test_board.counter() == "tim2" else 33
RUN_TIMEOUT_S = 120
NOPS = 1000  # benches/nop1000's body


def run_suite(args, elf, tmp):
    """`benchrack run SUITE --firmware ELF --board NAME -n ITERATIONS` with
    its --json and run record under tmp: the completed process."""
    run = subprocess.run([args.benchrack, "run", args.suite, "--firmware", elf,
                          "--board", test_board.NAME, "-n", str(ITERATIONS),
                          "--results-dir", tmp, "--json", os.path.join(tmp, "run.json")],
                         capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    print(run.stdout + run.stderr)
    if run.returncode != 0:
        raise SystemExit(f"FAIL: benchrack run {elf} exited {run.returncode}")
    return run


def peer_benches(args, failures):
    """{name: bench} the chunked run must equal: the board's committed
    baseline, or a run of the default-buffer image checked by nop1000 =
    empty + NOPS."""
    path = os.path.join(args.baselines, test_board.NAME + ".json")
    if os.path.exists(path):
        print(f"peer: the committed baseline {path}")
        with open(path, encoding="utf-8") as f:
            return {b["name"]: b for b in json.load(f)["benches"] if b["mode"] == "stub"}
    print(f"peer: no baseline for {test_board.NAME}; {args.peer} (default buffer), same run")
    with tempfile.TemporaryDirectory() as tmp:
        run_suite(args, args.peer, tmp)
        with open(os.path.join(tmp, "run.json"), encoding="utf-8") as f:
            peer = {b["name"]: b for b in json.load(f)["benches"] if b["mode"] == "stub"}
    empty, nop1000 = peer["empty"], peer["nop1000"]
    print(f"peer: nop1000 {nop1000['median']}, empty {empty['median']}")
    if not (nop1000["min"] == nop1000["max"] == empty["min"] + NOPS == empty["max"] + NOPS):
        failures.append(f"peer: nop1000 {nop1000['min']}..{nop1000['max']} is not empty "
                        f"{empty['min']}..{empty['max']} + {NOPS}")
    return peer


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--benchrack", required=True)
    parser.add_argument("--objdump", required=True)
    parser.add_argument("--suite", required=True)
    parser.add_argument("--baselines", required=True, help="results/baselines/default")
    parser.add_argument("--peer", required=True, help="the default-buffer suite image")
    parser.add_argument("elf")
    args = parser.parse_args()

    buffer = symbol_value(args.objdump, args.elf, "br_ld_sample_count")
    if buffer is None:
        raise SystemExit(f"FAIL: {args.elf} has no br_ld_sample_count: not built with the stub")
    halts = -(-ITERATIONS // buffer)
    print(f"{args.elf}: a {buffer}-sample buffer; -n {ITERATIONS} takes {halts} halts a bench")
    if halts < 2:
        raise SystemExit(f"FAIL: a {buffer}-sample buffer needs no chunks for {ITERATIONS}")
    failures = []
    baseline = peer_benches(args, failures)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        run_suite(args, args.elf, tmp)
        records = glob.glob(os.path.join(tmp, "runs", "*.json"))
        if len(records) != 1:
            raise SystemExit(f"FAIL: expected one run record, found {records}")
        documents = {}
        for label, path in (("--json", out), ("run record", records[0])):
            with open(path, encoding="utf-8") as f:
                documents[label] = {b["name"]: b for b in json.load(f)["benches"]}

    nop1000 = baseline["nop1000"]["median"]
    for n in (buffer - 1, buffer, 2 * buffer + 1):
        if n < 1:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "measure.json")
            run = subprocess.run([args.benchrack, "measure", args.elf, "--bench", "nop1000",
                                  "--board", test_board.NAME, "-n", str(n), "--json", out],
                                 capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
            if run.returncode != 0:
                failures.append(f"measure -n {n} exited {run.returncode}: {run.stderr}")
                continue
            with open(out, encoding="utf-8") as f:
                measured = json.load(f)
        want = -(-n // buffer)
        values = set(measured.get("samples") or [])
        print(f"measure --bench nop1000 -n {n}: {measured.get('n')} samples {sorted(values)}, "
              f"{measured.get('halts')} halts (expected {want})")
        if measured.get("halts") != want or measured.get("n") != n or values != {nop1000}:
            failures.append(f"measure -n {n}: n {measured.get('n')}, samples {sorted(values)}, "
                            f"halts {measured.get('halts')}; expected {n}, [{nop1000}], {want}")

    got = documents["--json"]
    for name, want in baseline.items():
        bench = got.get(name)
        if bench is None:
            failures.append(f"{name}: not in the run")
            continue
        figures = (bench["n"], bench["median"], bench["min"], bench["max"])
        expected = (ITERATIONS, want["median"], want["median"], want["median"])
        print(f"{name}: n/median/min/max {figures}, baseline {expected}; "
              f"stack {bench['stack_bytes']} (baseline {want['stack_bytes']}); "
              f"heap {bench['heap']['peak_bytes']}/{bench['heap']['live_bytes']}")
        if figures != expected:
            failures.append(f"{name}: n/median/min/max {figures}, expected {expected}")
        if bench["stack_bytes"] != want["stack_bytes"]:
            failures.append(f"{name}: stack {bench['stack_bytes']} != {want['stack_bytes']}")
        heap = (bench["heap"]["peak_bytes"], bench["heap"]["live_bytes"])
        want_heap = (want["heap"]["peak_bytes"], want["heap"]["live_bytes"])
        if heap != want_heap:
            failures.append(f"{name}: heap peak/live {heap} != {want_heap}")
    for label, benches in documents.items():
        for name, bench in benches.items():
            if bench.get("halts") != halts:
                failures.append(f"{label}: {name} took {bench.get('halts')} halts, "
                                f"expected {halts}")
    return finish(failures,
                  f"{len(baseline)} benches exact in chunks of {buffer}, {halts} halts each")


if __name__ == "__main__":
    sys.exit(main())
