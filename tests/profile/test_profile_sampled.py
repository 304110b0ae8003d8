#!/usr/bin/env python3
"""Sampled profiles of profile_caller: two leaves of known cost, one
PROFILE_LONG_FACTOR (3) times the other, called alternately.
From QEMU's execution log (the default on a QEMU benchrack launches: samples
at instruction-count intervals, issue 26), `--function profile_caller`:
- the long leaf's share of the two leaves is within 2 points, and within 4
  standard errors, of the truth (its share of the leaves'
  instructions, from `benchrack measure`: long / (short + long));
- profile_caller's own share is within 2 points of its share of the
  instructions (measure: caller - leaves) — no over-counting after returns;
- every chain that ends in a leaf is br_reset_handler;br_main;profile_caller;leaf;
- every sample is in the region, none lost.
Halting (--no-exec-log, everything from reset, --rate 500):
- every chain that ends in a leaf is br_reset_handler;br_main;profile_caller;leaf
  (no [unknown], no frame skipped);
- the unwinder used what the image offers: CFI at -O2 (no frame pointer),
  frame records at -O0 -fno-omit-frame-pointer with .debug_frame removed;
- the figures add up: counted + outside + lost = taken; what the samples
  cost (sample_cost_seconds) is ordered (median <= p90) and their sum (mean x
  taken) fits in the time spent; one write to the server per sample (QEMU:
  the interrupt, the reads and the continue together);
- the table warns that this sampler's bias on QEMU is not known (host time:
  README).

usage: test_profile_sampled.py BENCHRACK PROFILE_ELF KIND (cfi|frame-records)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import functions, per_call, profile_enough  # noqa: E402

BENCHRACK, ELF, KIND = sys.argv[1:4]
LEAVES = ("profile_leaf_short", "profile_leaf_long")
ROOT = ["br_reset_handler", "br_main", "profile_caller"]
# 4 binomial standard errors (a false failure once in 16000 runs; 3 were once
# in 370) and 2 points agree at 7500 samples: sqrt(.75 * .25 / 7500) = 0.5 point
LEAF_SAMPLES = 7500
c = Checks()
long_calls = per_call(c, BENCHRACK, ELF, "profile_leaf_long") or 0
short_calls = per_call(c, BENCHRACK, ELF, "profile_leaf_short") or 0
caller_call = per_call(c, BENCHRACK, ELF, "profile_caller") or 1
truth = long_calls / (short_calls + long_calls or 1)
rounds = (caller_call - 1) // (short_calls + long_calls or 1)  # the leaves' calls per call
caller_truth = (caller_call - rounds * (short_calls + long_calls)) / caller_call



def leaf_samples(r):
    """The samples in the two leaves."""
    return sum(f["self"] for f in r["functions"] if f["name"] in LEAVES)


rc, out, err, rec = profile_enough(BENCHRACK, ELF, "--function", "profile_caller", "--interval",
                                   "25", duration=4,
                                   enough=lambda r: leaf_samples(r) >= LEAF_SAMPLES)
c.show(out, err)
c.check(rc == 0 and rec is not None and rec["source"] == "qemu_exec_log",
        f"from the log: exits 0 with a record from QEMU's execution log (got {rc})")
if rec is not None:
    fn = functions(rec)
    lo = fn.get("profile_leaf_long", {"self": 0})["self"]
    sh = fn.get("profile_leaf_short", {"self": 0})["self"]
    share = lo / (lo + sh) if lo + sh else 0
    se = (share * (1 - share) / (lo + sh)) ** 0.5 if lo + sh else 1
    c.check(lo + sh >= LEAF_SAMPLES,
            f"{lo + sh} samples in the leaves (at least {LEAF_SAMPLES})")
    c.check(abs(share - truth) <= 0.02 and abs(share - truth) <= 4 * se,
            f"the long leaf's share of the leaves {100 * share:.2f} % is within 2 points and "
            f"4 errors ({100 * se:.2f}) of the truth {100 * truth:.2f} %")
    caller_self = fn.get("profile_caller", {"self": 0})["self"] / max(rec["counted"], 1)
    c.check(abs(caller_self - caller_truth) <= 0.02,
            f"profile_caller's own share {100 * caller_self:.2f} % is within 2 points of its "
            f"instructions' {100 * caller_truth:.2f} %")
    bad = [ch for ch in rec["chains"] if ch["frames"][-1] in LEAVES and ch["frames"][:-1] != ROOT]
    c.check(not bad, f"every leaf chain is br_reset_handler;br_main;profile_caller;leaf ({bad[:3]})")
    c.check(rec["samples_taken"] == rec["counted"] and rec["samples_lost"] == 0,
            "every sample in the region, none lost")

rc, out, err, rec = profile_enough(BENCHRACK, ELF, "--no-exec-log", "--rate", "500", duration=4,
                                   enough=lambda r: r["counted"] >= 1000)
c.show(out, err)
c.check(rc == 0 and rec is not None and rec["source"] == "debug_port",
        f"halting: exits 0 with a record (got {rc})")
if rec is None:
    sys.exit(c.finish())
n = rec["counted"]
c.check(n >= 1000, f"halting: {n} samples (at least 1000)")
c.check(rec["samples_taken"] == n + rec["outside_region"] + rec["samples_lost"],
        "halting: counted + outside + lost = taken")
cost = rec["sample_cost_seconds"]
c.check(cost is not None and 0 < cost["median"] <= cost["p90"] and
        0 < cost["mean"] * rec["samples_taken"] <= rec["seconds"],
        f"halting: one sample's cost {cost} is ordered and fits in {rec['seconds']} s")
c.check(rec["server_writes"] <= rec["samples_taken"] + 2,
        f"halting: {rec['server_writes']} writes to the server for {rec['samples_taken']} "
        "samples: one each")
leaf_chains = [ch for ch in rec["chains"] if ch["frames"][-1] in LEAVES]
c.check(leaf_chains, "halting: the leaves were sampled")
bad = [ch for ch in leaf_chains if ch["frames"][:-1] != ROOT]
c.check(not bad, f"halting: every leaf chain is br_reset_handler;br_main;profile_caller;leaf "
                 f"({bad[:3]})")
u = rec["unwind"]
if KIND == "cfi":
    c.check(u["cfi_frames"] > 0 and u["frame_record_frames"] == 0, f"unwound by CFI ({u})")
else:
    c.check(u["frame_record_frames"] > 0 and u["cfi_frames"] == 0,
            f"unwound by frame records, no CFI in the image ({u})")
c.check(u["failed_chains"] == 0, f"no chain ended in [unknown] ({u['failed_chains']})")
c.check(not rec["bias_known"] and "bias on this server is not known" in out,
        "halting on QEMU: the table warns that the sampler's bias is not known")
sys.exit(c.finish())
