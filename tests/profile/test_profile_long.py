#!/usr/bin/env python3
"""An exact profile of a region of over 10 M instructions (issue 26): the
fixture built with 2500 rounds (fw_region.S), profiled by `benchrack profile
--exact --from region_start --to region_stop` on the QEMU it launches (from
QEMU's execution log). The oracle is QEMU's own trace of the same pass
(trace_oracle.py), never benchrack:
- the trace: heavy 2500 x 3001, light 2500 x 1001, over 10 M in all;
- benchrack: every function's self count, every chain's count and the
  instructions counted equal the trace's; every source line's count adds up.
How long it took is printed (the speed goal is a benchmark's, not a test's).

usage: test_profile_long.py BENCHRACK QEMU NM ELF
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import functions, profile  # noqa: E402
from trace_oracle import first_pass_counts  # noqa: E402

BENCHRACK, QEMU, NM, ELF = sys.argv[1:5]
c = Checks()
trace, total = first_pass_counts(QEMU, NM, ELF, "region_start", "region_stop")
print(f"the trace's pass: {trace}, {total} instructions")
c.check(trace.get("heavy") == 2500 * 3001 and trace.get("light") == 2500 * 1001 and
        total >= 10_000_000, f"the trace runs over 10 M instructions a pass ({total})")
rc, out, err, rec = profile(BENCHRACK, ELF, "--exact", "--from", "region_start", "--to",
                            "region_stop", timeout=600)
c.show(out, err)
c.check(rc == 0 and rec is not None, f"--exact exits 0 (got {rc})")
fn = functions(rec)
c.check({n: f["self"] for n, f in fn.items() if f["self"]} == trace,
        f"every function's self count is the trace's ({ {n: f['self'] for n, f in fn.items()} })")
c.check(rec is not None and rec["counted"] == total,
        f"instructions counted {rec and rec['counted']} == the trace's {total}")
chains = {";".join(ch["frames"]): ch["count"] for ch in rec["chains"]} if rec else {}
c.check(chains.get("Reset_Handler;step;heavy") == trace.get("heavy") and
        chains.get("Reset_Handler;step;light") == trace.get("light"),
        f"the leaves' chains are Reset_Handler;step;leaf with the trace's counts ({chains})")
c.check(rec is not None and sum(l["self"] for l in rec["lines"]) == total,
        "every instruction has a source line")
if rec is not None:
    print(f"profiled {rec['counted']} instructions exactly in {rec['seconds']:.1f} s "
          f"({rec['counted'] / max(rec['seconds'], 1e-9):.0f}/s)")
sys.exit(c.finish())
