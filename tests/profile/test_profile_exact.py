#!/usr/bin/env python3
"""`benchrack profile --exact` counts every instruction of a region exactly,
single-stepped (--no-exec-log) and from QEMU's execution log alike: on
profile-O2.elf, one call of profile_caller (which calls each leaf
PROFILE_ROUNDS times):
- self(leaf) = calls x the instructions of one call, as `benchrack measure
  --function leaf` counts one call (every call costs the same);
- total(profile_caller) = the instructions of the whole call, as `benchrack
  measure --function profile_caller` counts it, and = the instructions stepped;
- single-stepped, the counter across the stepped pass agrees (one step
  more: the step past the end);
- self counts add up to the total; every chain is the call stack from the
  reset handler (br_reset_handler;br_main;profile_caller;...);
- a region longer than --max-steps is refused once --max-steps are stepped
  (exit 2), with its length (the rest run at breakpoints).

usage: test_profile_exact.py BENCHRACK PROFILE_ELF PROFILE_H
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import functions, per_call, profile, rounds  # noqa: E402

BENCHRACK, ELF, HEADER = sys.argv[1:4]
c = Checks()
ROUNDS = rounds(HEADER)



short, long_, caller = (per_call(c, BENCHRACK, ELF, n) for n in
                        ("profile_leaf_short", "profile_leaf_long", "profile_caller"))
for path, extra in (("single-stepped", ["--no-exec-log"]), ("from the execution log", [])):
    rc, out, err, rec = profile(BENCHRACK, ELF, "--exact", "--function", "profile_caller", *extra)
    c.show(out, err)
    c.check(rc == 0, f"{path}: profile --exact exits 0 (got {rc})")
    fn = functions(rec)
    if not c.check(rec is not None and {"profile_leaf_short", "profile_leaf_long",
                                        "profile_caller"} <= fn.keys(),
                   f"{path}: the three functions profiled"):
        continue
    c.check(fn["profile_leaf_short"]["self"] == ROUNDS * short,
            f"{path}: self(profile_leaf_short) {fn['profile_leaf_short']['self']} == "
            f"{ROUNDS} calls x {short}")
    c.check(fn["profile_leaf_long"]["self"] == ROUNDS * long_,
            f"{path}: self(profile_leaf_long) {fn['profile_leaf_long']['self']} == "
            f"{ROUNDS} calls x {long_}")
    c.check(fn["profile_caller"]["total"] == caller,
            f"{path}: total(profile_caller) {fn['profile_caller']['total']} == measure's {caller}")
    c.check(rec["counted"] == caller, f"{path}: instructions counted {rec['counted']} == {caller}")
    if extra:
        c.check(rec["counter_delta"] == caller + 1,
                f"{path}: counter across the pass {rec['counter_delta']} == {caller} + the "
                "step past the end")
    c.check(sum(f["self"] for f in rec["functions"]) == caller,
            f"{path}: self counts add up to the total")
    c.check(all(ch["frames"][:3] == ["br_reset_handler", "br_main", "profile_caller"]
                for ch in rec["chains"]),
            f"{path}: every chain is the call stack: br_reset_handler;br_main;profile_caller;...")
    c.check(sum(l["self"] for l in rec["lines"]) == caller,
            f"{path}: every instruction has a source line (-g)")

rc, out, err, rec = profile(BENCHRACK, ELF, "--exact", "--function", "profile_caller",
                            "--max-steps", str(caller - 1), "--no-exec-log")
c.show(out, err)
c.check(rc == 2 and "--max-steps" in err and str(caller) in err,
        f"a region over --max-steps is refused with its length (exit {rc})")
c.check(rec is None, "and nothing is written")
sys.exit(c.finish())
