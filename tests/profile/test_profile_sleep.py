#!/usr/bin/env python3
"""A firmware that sleeps in its region (fw_sleep.S, issue 26), profiled
--exact from QEMU's execution log, which shows nothing while the core sleeps:
- woken by SysTick: the region (three WFIs, each then work) is counted to its
  end, every function's self count and the total equal to QEMU's own trace
  (trace_oracle.py), the handler's instructions included; the record says
  how often the core slept: the trace's runs of Reset_Handler's WFI (found
  by arm-none-eabi-objdump);
- never woken: exit 3 within --timeout and a few seconds, the message saying
  that the core went to sleep (WFI/WFE), where (Reset_Handler), and what to
  do; nothing written.

usage: test_profile_sleep.py BENCHRACK QEMU NM OBJDUMP ELF_WAKE ELF_FOREVER
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import functions, profile  # noqa: E402
from disasm import function  # noqa: E402
from trace_oracle import first_pass_counts, first_pass_pcs  # noqa: E402

BENCHRACK, QEMU, NM, OBJDUMP, ELF_WAKE, ELF_FOREVER = sys.argv[1:7]
REGION = ("--from", "region_start", "--to", "region_stop")
c = Checks()

trace, total = first_pass_counts(QEMU, NM, ELF_WAKE, "region_start", "region_stop")
print(f"the trace's pass: {trace}, {total} instructions")
c.check(trace.get("work", 0) > 0 and trace.get("SysTick_Handler", 0) > 0,
        f"the trace wakes from WFI through SysTick_Handler and runs work ({trace})")
rc, out, err, rec = profile(BENCHRACK, ELF_WAKE, "--exact", *REGION, "--timeout", "5")
c.show(out, err)
fn = functions(rec)
got = {n: f["self"] for n, f in fn.items() if f["self"]}
c.check(rc == 0 and got == trace and rec["counted"] == total,
        f"woken: exit {rc}, every function's self count and the total are the trace's "
        f"({got}, {rec and rec['counted']} == {trace}, {total})")

wfi = [a for a, mnemonic, _ in function(OBJDUMP, ELF_WAKE, "Reset_Handler") if mnemonic == "wfi"]
pcs = first_pass_pcs(QEMU, NM, ELF_WAKE, "region_start", "region_stop")
slept = sum(pcs.get(a, 0) for a in wfi)
c.check(len(wfi) == 1 and slept >= 1, f"the trace runs Reset_Handler's WFI {slept} times")
c.check(rec is not None and rec.get("sleeps") == slept and
        f"the core slept {slept} times in the region (WFI/WFE)" in out,
        f"woken: the record and the table say the core slept {rec and rec.get('sleeps')} "
        f"== {slept} times")

t0 = time.monotonic()
rc, out, err, rec = profile(BENCHRACK, ELF_FOREVER, "--exact", *REGION, "--timeout", "2")
took = time.monotonic() - t0
c.show(out, err)
c.check(rc == 3 and "went to sleep (WFI/WFE at" in err and "Reset_Handler" in err and
        "nothing woke it" in err,
        f"never woken: exit {rc} == 3, the message says the core sleeps and where")
c.check(took < 30, f"never woken: it ends in {took:.1f} s (--timeout 2)")
c.check(rec is None, "never woken: nothing written")
sys.exit(c.finish())
