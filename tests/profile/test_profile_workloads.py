#!/usr/bin/env python3
"""Issue 26's Embench-style workloads (workloads/: crc32, aes, sort, matmult,
core; each its own vector table and linker script), one per run of this
test, against QEMU's own execution trace of the image (trace_oracle.py: the
log parsed here, addresses mapped to functions by arm-none-eabi-nm), never
benchrack:
- `profile --exact --from region_start --to region_stop` (from QEMU's
  execution log): every function's self count and the instructions counted
  equal the trace's one pass; every chain is rooted at Reset_Handler, and the
  chains ending in each function add up to the trace's count for it; every
  source line's count equals the trace's (each PC's line by
  arm-none-eabi-addr2line);
- sampled (from the log, --interval 25, 4 s or longer until 20000 samples): every function holding more
  than 5 % of the trace's instructions has a sampled self share within 2
  points of the trace's, from at least 20 000 samples, all in the region.

usage: test_profile_workloads.py BENCHRACK QEMU NM ADDR2LINE ELF
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import functions, profile, profile_enough  # noqa: E402
from trace_oracle import first_pass_pcs, lines_of, symbols  # noqa: E402

BENCHRACK, QEMU, NM, ADDR2LINE, ELF = sys.argv[1:6]
REGION = ("--from", "region_start", "--to", "region_stop")
SHARE_TOLERANCE = 0.02  # the 2 points
SHARE_FLOOR = 0.05  # "every function over 5 %"
# 2 points is 5.7 binomial errors at a 50 % share over 20000 samples (a false
# failure far below once in 10^6 tests); the count is asked for, not the
# seconds (profile_enough: a loaded host draws fewer in the same time)
MIN_SAMPLES = 20000
c = Checks()

pcs = first_pass_pcs(QEMU, NM, ELF, "region_start", "region_stop")
funcs = symbols(NM, ELF)
trace = {}
for pc, k in pcs.items():
    f = next((name for lo, hi, name in funcs if lo <= pc < hi), hex(pc))
    trace[f] = trace.get(f, 0) + k
total = sum(trace.values())
trace_lines = lines_of(ADDR2LINE, ELF, pcs)
name = os.path.basename(ELF)
print(f"{name}: the trace's pass: {total} instructions, {trace}")
c.check(total > 10000 and len(trace) >= 4,
        f"the trace runs a pass of {total} instructions in {len(trace)} functions")

rc, out, err, rec = profile(BENCHRACK, ELF, "--exact", *REGION)
c.show(out, err)
c.check(rc == 0 and rec is not None and rec["source"] == "qemu_exec_log",
        f"--exact exits 0 with a record from QEMU's execution log (got {rc})")
fn = functions(rec)
exact = {n: f["self"] for n, f in fn.items() if f["self"]}
c.check(exact == trace, f"--exact: every function's self count is the trace's ({exact})")
c.check(rec is not None and rec["counted"] == total,
        f"--exact: instructions counted {rec and rec['counted']} == the trace's {total}")
chains = rec["chains"] if rec else []
c.check(bool(chains) and all(ch["frames"][0] == "Reset_Handler" for ch in chains),
        f"--exact: every chain is rooted at Reset_Handler "
        f"({[';'.join(ch['frames']) for ch in chains if ch['frames'][0] != 'Reset_Handler']})")
leaves = {}
for ch in chains:
    leaves[ch["frames"][-1]] = leaves.get(ch["frames"][-1], 0) + ch["count"]
c.check(leaves == trace, f"--exact: the chains ending in each function add up to the "
                         f"trace's count for it ({leaves})")
lines = {}
for ln in rec["lines"] if rec else []:
    key = (os.path.basename(ln["file"]), ln["line"])
    lines[key] = lines.get(key, 0) + ln["self"]
c.check(lines == trace_lines and len(lines) > 10,
        f"--exact: every source line's count ({len(lines)} lines) is the trace's by addr2line"
        + ("" if lines == trace_lines else
           f": differ at {sorted(set(lines.items()) ^ set(trace_lines.items()))[:6]}"))

rc, out, err, rec = profile_enough(BENCHRACK, ELF, *REGION, "--interval", "25", duration=4,
                                   enough=lambda r: r["counted"] >= MIN_SAMPLES)
c.show(out, err)
c.check(rc == 0 and rec is not None and rec["source"] == "qemu_exec_log",
        f"sampled exits 0 with a record from QEMU's execution log (got {rc})")
if rec is not None:
    n = rec["counted"]
    c.check(n >= MIN_SAMPLES and rec["samples_taken"] == n and rec["outside_region"] == 0 and
            rec["samples_lost"] == 0,
            f"sampled: {n} samples (at least {MIN_SAMPLES}), all in the region, none lost")
    fn = functions(rec)
    for f, k in sorted(trace.items(), key=lambda kv: -kv[1]):
        truth = k / total
        if truth <= SHARE_FLOOR:
            continue
        share = fn.get(f, {}).get("self", 0) / n if n else 0.0
        c.check(abs(share - truth) <= SHARE_TOLERANCE,
                f"sampled: {f} {100 * share:.2f} % of {n} samples, the trace's "
                f"{100 * truth:.2f} % (within {100 * SHARE_TOLERANCE:.0f} points)")
sys.exit(c.finish())
