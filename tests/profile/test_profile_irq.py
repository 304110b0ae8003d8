#!/usr/bin/env python3
"""An interrupt handler interrupting a loop (profile-irq-O2.elf: the loop pends
the interrupt through NVIC_ISPR): the handler's samples unwind through the
Cortex-M exception frame into the loop, i.e. their chain is
br_reset_handler;br_main;profile_irq_loop;profile_irq_handler, and the record
counts the exception frames crossed (halting, --no-exec-log); from QEMU's
execution log the handler sits above the loop it interrupted the same way
(-d int: the exception's entry and return), and no other chain is seen
(but the reset handler's own, while it copies .data and zeroes .bss).

usage: test_profile_irq.py BENCHRACK PROFILE_IRQ_ELF
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
from measure_cli import Checks  # noqa: E402
from profile_cli import profile_enough  # noqa: E402

BENCHRACK, ELF = sys.argv[1:3]
c = Checks()


def handler_samples(rec):
    """The samples whose leaf is the handler."""
    return sum(ch["count"] for ch in rec["chains"] if ch["frames"][-1] == "profile_irq_handler")


want = ["br_reset_handler", "br_main", "profile_irq_loop", "profile_irq_handler"]
for path, extra in (("halting", ["--no-exec-log", "--rate", "500"]),
                    ("from the execution log", [])):
    rc, out, err, rec = profile_enough(BENCHRACK, ELF, *extra, duration=3,
                                       enough=lambda r: handler_samples(r) >= 50)
    c.show(out, err)
    c.check(rc == 0 and rec is not None, f"{path}: profile exits 0 with a record (got {rc})")
    if rec is None:
        continue
    handler = [ch for ch in rec["chains"] if ch["frames"][-1] == "profile_irq_handler"]
    in_handler = handler_samples(rec)
    c.check(in_handler >= 50, f"{path}: {in_handler} samples in the handler (at least 50)")
    bad = [ch for ch in handler if ch["frames"] != want]
    c.check(not bad, f"{path}: every handler chain is {';'.join(want)} ({bad[:3]})")
    if extra:
        c.check(rec["unwind"]["exception_frames"] >= in_handler,
                f"{path}: an exception frame crossed per handler sample ({rec['unwind']})")
    loop = sum(ch["count"] for ch in rec["chains"]
               if ch["frames"] == want[:3])
    c.check(loop > 0, f"{path}: {loop} samples in the loop itself, chain {';'.join(want[:3])}")
    # the reset handler's own startup (.data copy, .bss zeroing) runs before
    # br_main and may catch a sample: a chain of the root alone is true
    odd = [ch for ch in rec["chains"] if ch["frames"] not in (want, want[:3], want[:1])]
    c.check(not odd, f"{path}: no chain but these, the startup's and the loop's ({odd[:3]})")
    c.check(rec["unwind"]["failed_chains"] == 0, f"{path}: no chain ended in [unknown]")
sys.exit(c.finish())
