#!/usr/bin/env python3
"""`benchrack profile --pcsr` where it cannot work, end to end:
- on the default board (QEMU, which implements no DWT and stops the machine
  on any packet): exit 2 before QEMU is launched, saying QEMU cannot, and no
  profile written;
- with a region (--function): exit 2 before any server starts, saying a flat
  profile cannot tell the region's samples;
- with --exact: exit 2.

usage: test_profile_pcsr_refused.py BENCHRACK PROFILE_ELF
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import profile  # noqa: E402

BENCHRACK, ELF = sys.argv[1:3]
c = Checks()
rc, out, err, rec = profile(BENCHRACK, ELF, "--pcsr", "--duration", "1")
c.show(out, err)
c.check(rc == 2 and "QEMU" in err and "DWT_PCSR" in err and rec is None,
        f"QEMU: exit 2 naming QEMU and DWT_PCSR, nothing written (got {rc})")
rc, out, err, rec = profile(BENCHRACK, ELF, "--pcsr", "--function", "profile_caller")
c.show(out, err)
c.check(rc == 2 and "flat profile" in err and rec is None,
        f"--pcsr --function: exit 2, a flat profile has no region (got {rc})")
rc, out, err, rec = profile(BENCHRACK, ELF, "--pcsr", "--exact", "--function", "profile_caller")
c.show(out, err)
c.check(rc == 2 and "--exact" in err, f"--pcsr --exact: exit 2 (got {rc})")
sys.exit(c.finish())
