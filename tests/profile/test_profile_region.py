#!/usr/bin/env python3
"""Issue 26's fixture (fw_region.S: its own vector table and linker script):
Reset_Handler runs region_start, 5 calls of step (each: heavy, then light),
region_stop, forever. The oracle is QEMU's own execution trace of one pass
(trace_oracle.py), never benchrack:
- the trace itself: heavy 5 x 3001 = 15005, light 5 x 1001 = 5005 (the
  fixture is what it says);
- `profile --exact --from region_start --to region_stop` (the time from
  reaching one to reaching the other), from QEMU's execution log and
  single-stepped (--no-exec-log): every function's self count, the
  instructions counted and every chain's count equal the trace's; the chains
  are the call stack at each instruction, rooted at the reset handler:
  Reset_Handler;step;heavy, never prefixed with the region's first function;
- `--exact --function step`: one call, heavy 3001 and light 1001 by the trace,
  chains Reset_Handler;step;...;
- `--exact --function tail_caller` (which tail-calls light: b light), both
  paths: the chains Reset_Handler;tail_caller and
  Reset_Handler;tail_caller;light, counted as the trace;
- a region longer than --max-steps (both paths): exit 2, the message giving
  the trace's length, nothing written;
- sampled from the execution log (--interval 100): heavy's share of
  heavy+light 75 % +- 2 points (the trace's 75.0 %), every sample in the
  region, every chain rooted;
- sampled by halting (--no-exec-log), the same --from/--to: samples only
  inside the region (none
  outside), every chain rooted (Reset_Handler, no [unknown]), each leaf's
  chain Reset_Handler;step;leaf; taken = counted + lost, lost = its reasons;
- the same image linked with its ELF entry elsewhere (-e fault): the reset
  vector still names the root; both carry the warning that a halting
  sampler's bias on QEMU is not known.

usage: test_profile_region.py BENCHRACK QEMU NM ELF ELF_ENTRY_ELSEWHERE
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import functions, profile, profile_enough  # noqa: E402
from trace_oracle import first_pass_counts  # noqa: E402

BENCHRACK, QEMU, NM, ELF, ELF_ELSEWHERE = sys.argv[1:6]
c = Checks()
CALLER = {"heavy": "Reset_Handler;step;heavy", "light": "Reset_Handler;step;light",
          "step": "Reset_Handler;step", "region_start": "Reset_Handler;region_start",
          "Reset_Handler": "Reset_Handler"}

trace, total = first_pass_counts(QEMU, NM, ELF, "region_start", "region_stop")
print(f"the trace's pass: {trace}, {total} instructions")
c.check(trace.get("heavy") == 5 * 3001 and trace.get("light") == 5 * 1001,
        f"the trace runs heavy 15005 and light 5005 a pass ({trace})")


def chains(rec):
    return {";".join(ch["frames"]): ch["count"] for ch in rec["chains"]} if rec else {}


for path, extra in (("from QEMU's execution log", []), ("single-stepped", ["--no-exec-log"])):
    rc, out, err, rec = profile(BENCHRACK, ELF, "--exact", "--from", "region_start", "--to",
                                "region_stop", *extra)
    c.show(out, err)
    c.check(rc == 0 and rec is not None, f"{path}: --exact --from/--to exits 0 (got {rc})")
    c.check(rec is not None and rec["source"] == ("debug_port" if extra else "qemu_exec_log"),
            f"{path}: the record says its source ({rec and rec['source']})")
    fn = functions(rec)
    c.check({n: f["self"] for n, f in fn.items() if f["self"]} == trace,
            f"{path}: every function's self count is the trace's "
            f"({ {n: f['self'] for n, f in fn.items()} })")
    c.check(rec is not None and rec["counted"] == total,
            f"{path}: instructions counted {rec and rec['counted']} == the trace's {total}")
    want = {CALLER[n]: k for n, k in trace.items()}
    c.check(chains(rec) == want, f"{path}: the chains are the call stacks, counted as the "
                                 f"trace: {chains(rec)} == {want}")

step_trace, step_total = first_pass_counts(QEMU, NM, ELF, "step", "light")
rc, out, err, rec = profile(BENCHRACK, ELF, "--exact", "--function", "step")
c.show(out, err)
fn = functions(rec)
c.check(rc == 0 and fn.get("heavy", {}).get("self") == step_trace.get("heavy") == 3001,
        f"--function step: heavy {fn.get('heavy', {}).get('self')} == the trace's 3001")
c.check(fn.get("light", {}).get("self") == 1001,
        f"--function step: light {fn.get('light', {}).get('self')} == 1001 (5005 / 5)")
c.check(rec is not None and set(chains(rec)) == {"Reset_Handler;step", "Reset_Handler;step;heavy",
                                                 "Reset_Handler;step;light"},
        f"--function step: chains rooted at the reset handler ({chains(rec)})")

tail_trace, _ = first_pass_counts(QEMU, NM, ELF, "tail_caller", "tail_return")
c.check(tail_trace == {"tail_caller": 1, "light": 1001},
        f"the trace: tail_caller jumps to light, which returns for it ({tail_trace})")
for path, extra in (("from the log", []), ("single-stepped", ["--no-exec-log"])):
    rc, out, err, rec = profile(BENCHRACK, ELF, "--exact", "--function", "tail_caller", *extra)
    c.show(out, err)
    want = {"Reset_Handler;tail_caller": tail_trace.get("tail_caller"),
            "Reset_Handler;tail_caller;light": tail_trace.get("light")}
    c.check(rc == 0 and chains(rec) == want,
            f"{path}: a tail call is shown as one, light above tail_caller, counted as the "
            f"trace ({chains(rec)} == {want})")

for path, extra in (("from the log", []), ("single-stepped", ["--no-exec-log"])):
    rc, out, err, rec = profile(BENCHRACK, ELF, "--exact", "--from", "region_start", "--to",
                                "region_stop", "--max-steps", "1000", *extra)
    c.show(out, err)
    c.check(rc == 2 and "--max-steps" in err and str(total) in err,
            f"{path}: a region over --max-steps: exit {rc} == 2, its length {total} in the "
            "message")
    c.check(rec is None, f"{path}: and nothing is written")

# Sampled from the execution log: uniform draws over the instructions run.
heavy_truth = trace["heavy"] / (trace["heavy"] + trace["light"])
rc, out, err, rec = profile_enough(
    BENCHRACK, ELF, "--from", "region_start", "--to", "region_stop", "--interval", "100",
    duration=4, enough=lambda r: sum(f["self"] for f in r["functions"]
                                     if f["name"] in ("heavy", "light")) >= 1000)
c.show(out, err)
c.check(rc == 0 and rec is not None and rec["source"] == "qemu_exec_log",
        f"sampled from the log: exit {rc}, a record from QEMU's execution log")
if rec is not None:
    fn = functions(rec)
    h, l_ = fn.get("heavy", {}).get("self", 0), fn.get("light", {}).get("self", 0)
    share = h / (h + l_) if h + l_ else 0
    c.check(abs(share - 0.75) <= 0.02 and abs(heavy_truth - 0.75) < 0.001,
            f"sampled from the log: heavy's share of heavy+light {100 * share:.2f} % is "
            f"75 % +- 2 points (the trace's {100 * heavy_truth:.3f} %; {h + l_} samples)")
    c.check(rec["samples_taken"] == rec["counted"] and rec["samples_lost"] == 0 and
            rec["outside_region"] == 0 and rec["bias_known"],
            "sampled from the log: every sample in the region, none lost, bias known")
    c.check(all(name in CALLER.values() for name in chains(rec)),
            f"sampled from the log: every chain a rooted call stack ({chains(rec)})")

for elf, what in ((ELF, "the image"), (ELF_ELSEWHERE, "the image with its entry elsewhere")):
    rc, out, err, rec = profile_enough(BENCHRACK, elf, "--from", "region_start", "--to",
                                       "region_stop", "--rate", "500", "--no-exec-log",
                                       duration=3, enough=lambda r: r["counted"] >= 100 and
                                       r["region_passes"] > 1)
    c.show(out, err)
    c.check(rc == 0 and rec is not None, f"{what}: sampled exits 0 (got {rc})")
    if rec is None:
        continue
    ch = chains(rec)
    c.check(rec["counted"] > 0 and rec["outside_region"] == 0,
            f"{what}: {rec['counted']} samples in the region, none outside it")
    c.check(rec["region_passes"] > 1, f"{what}: {rec['region_passes']} passes sampled")
    lost = rec["samples_lost_reasons"]
    c.check(rec["samples_taken"] == rec["counted"] + rec["samples_lost"] and
            rec["samples_lost"] == lost["stack_not_read"] + lost["at_region_end"],
            f"{what}: taken = counted + lost, lost = its reasons ({rec['samples_taken']}, "
            f"{rec['samples_lost']}, {lost})")
    c.check(rec["unwind"]["failed_chains"] == 0 and
            all(name in CALLER.values() for name in ch),
            f"{what}: every chain is a call stack rooted at Reset_Handler ({ch})")
    c.check(any(name.endswith(";heavy") for name in ch), f"{what}: heavy was sampled")
    c.check(not rec["bias_known"] and "bias on this server is not known" in out,
            f"{what}: halting samples on QEMU carry the warning that their bias is unknown")
sys.exit(c.finish())
