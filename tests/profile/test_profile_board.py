#!/usr/bin/env python3
"""`profile --board B` on a board whose counter is QEMU's icount (issue 29:
every single-core QEMU board but the netduinos), on the default suite image
built for it (suite-O2-qemu-NAME.elf; without a host it runs its start-up,
br_main, then br_main's loop calling br_host_sync forever). Before the fix,
--board launched QEMU in record mode for that counter, where QEMU 7.2
answers no interrupt while the core runs: every mode ended in "the target
did not stop", exit 3. The oracle is QEMU's own execution trace
(trace_oracle.py), never benchrack:
- `--exact --from br_reset_handler --to br_host_sync`, from QEMU's execution
  log and single-stepped (--no-exec-log, whose cross-check reads the board's
  icount, record mode kept): every function's self count and the
  instructions counted equal the trace's; single-stepped, the icount across
  the pass is the trace's count + 1 (the step that ends it, exact.h); the
  region starts where the launch halts the core (the reset vector);
- sampled from the execution log (--interval 10, no region): br_host_sync's
  share of the loop's samples within 3 points of the trace's share of one
  pass of the loop (br_host_sync to br_host_sync);
- sampled by halting (--no-exec-log, the mode that interrupts the core):
  exit 0, samples counted, taken = counted + lost, each leaf a function of
  the loop or of the start-up.

usage: test_profile_board.py BENCHRACK QEMU NM ELF BOARD
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import functions, profile, profile_enough  # noqa: E402
from trace_oracle import first_pass_counts  # noqa: E402

BENCHRACK, QEMU, NM, ELF, BOARD = sys.argv[1:6]
MACHINE = BOARD.removeprefix("qemu-")
ON = ["--board", BOARD]
START, STOP, LOOP = "br_reset_handler", "br_host_sync", "br_host_sync"
c = Checks()


def selfs(rec):
    return {n: f["self"] for n, f in functions(rec).items() if f["self"]}


trace, total = first_pass_counts(QEMU, NM, ELF, START, STOP, MACHINE)
print(f"the trace from {START} to {STOP} on {MACHINE}: {trace}, {total} instructions")
c.check(total > 0 and {START, "br_main", "br_counter_enable"} <= set(trace),
        f"the trace runs the start-up, br_main and br_counter_enable ({trace})")

for path, extra in (("from QEMU's execution log", []), ("single-stepped", ["--no-exec-log"])):
    rc, out, err, rec = profile(BENCHRACK, ELF, *ON, "--exact", "--from", START, "--to", STOP,
                                *extra)
    c.show(out, err)
    c.check(rc == 0 and rec is not None, f"{path}: --exact on {BOARD} exits 0 (got {rc})")
    c.check(selfs(rec) == trace,
            f"{path}: every function's self count is the trace's ({selfs(rec)} == {trace})")
    c.check(rec is not None and rec["counted"] == total,
            f"{path}: instructions counted {rec and rec['counted']} == the trace's {total}")
    if extra:
        c.check(rec is not None and rec["counter"] == "icount" and
                rec["counter_delta"] == total + 1,
                f"{path}: the board's icount across the pass {rec and rec['counter_delta']} == "
                f"{total} + the step that ends it (exact.h)")

loop, loop_total = first_pass_counts(QEMU, NM, ELF, LOOP, LOOP, MACHINE)
truth = loop.get(LOOP, 0) / loop_total if loop_total else 0
print(f"the trace's pass of the loop: {loop}, {LOOP} {100 * truth:.2f} %")
c.check(set(loop) == {"br_main", LOOP}, f"the loop is br_main calling {LOOP} ({loop})")


def in_loop(rec):
    fn = functions(rec)
    return sum(fn.get(n, {}).get("self", 0) for n in loop)


rc, out, err, rec = profile_enough(BENCHRACK, ELF, *ON, "--interval", "10", duration=1,
                                   enough=lambda r: in_loop(r) >= 4000)
c.show(out, err)
c.check(rc == 0 and rec is not None and rec["source"] == "qemu_exec_log",
        f"sampled from the log on {BOARD}: exit {rc}, a record from QEMU's execution log")
if rec is not None:
    n = in_loop(rec)
    share = functions(rec).get(LOOP, {}).get("self", 0) / n if n else 0
    c.check(n >= 4000 and abs(share - truth) <= 0.03,
            f"sampled from the log: {LOOP}'s share of the loop {100 * share:.2f} % is the "
            f"trace's {100 * truth:.2f} % +- 3 points ({n} samples)")

rc, out, err, rec = profile_enough(BENCHRACK, ELF, *ON, "--no-exec-log", "--rate", "200",
                                   duration=2, enough=lambda r: r["counted"] >= 50)
c.show(out, err)
c.check(rc == 0 and rec is not None and rec["source"] == "debug_port",
        f"sampled by halting on {BOARD}: exit {rc} (got a record: {rec is not None})")
if rec is not None:
    leaves = set(selfs(rec))
    c.check(rec["counted"] >= 50 and leaves <= set(loop) | set(trace),
            f"sampled by halting: {rec['counted']} samples, each in the loop or the "
            f"start-up ({leaves})")
    c.check(rec["samples_taken"] == rec["counted"] + rec["samples_lost"],
            f"sampled by halting: taken {rec['samples_taken']} = counted {rec['counted']} + "
            f"lost {rec['samples_lost']}")
sys.exit(c.finish())
