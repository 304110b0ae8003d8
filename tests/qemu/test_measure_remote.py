#!/usr/bin/env python3
"""`benchrack measure --remote HOST:PORT`: a gdbserver that is already running
in front of a board that already holds the firmware (here a QEMU this test
starts itself, halted at reset, its gdbstub on a free port of 127.0.0.1: the
build's board's machine, started as benchrack would start it, in record mode
when the board's counter is QEMU's icount; tests/lib/test_board.py). The
count (--counter, the board's default: tim2 or icount) is the exact figure
of the disassembly, and afterwards the board runs on: benchrack detached, it
did not kill it.
A breakpoint never reached (--to plain_never) on a fresh such QEMU: exit 3
within one --timeout, naming it "never hit"; on TIM2 the core is stopped
and its place named ("the core was at"); on icount (QEMU in record mode
answers no interrupt while the guest runs) the message names record mode
and --timeout and that the QEMU is left running. Either way that QEMU runs
on: benchrack never kills a server it did not launch.

usage: test_measure_remote.py BENCHRACK OBJDUMP QEMU PLAIN_ELF
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402
from ports import wait_listening  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, OBJDUMP, QEMU, PLAIN = sys.argv[1:5]
READY_S = 10
TIMEOUT_S = 2
GIVE_UP_S = TIMEOUT_S + 7  # start-up and the probe on a loaded ASan host
c = Checks()


work = tempfile.TemporaryDirectory(prefix="benchrack-remote-")
qemu, port = start_qemu(QEMU, PLAIN, machine=test_board.qemu_machine(),
                        icount=test_board.qemu_icount(work.name),
                        stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
try:
    # QEMU's gdbstub serves one client: a probe connection is closed at once
    # and the listener stays for the next.
    c.check(wait_listening(port, READY_S, qemu), f"QEMU serves on 127.0.0.1:{port}")
    expected = disasm.straight_line_cost(OBJDUMP, PLAIN, "plain_fixed")
    rc, out, err, res = measure(BENCHRACK, PLAIN, "--function", "plain_fixed", "-n", "10",
                                "--remote", f"127.0.0.1:{port}", "--flavour", "qemu",
                                "--counter", test_board.counter())
    c.show(out, err)
    c.check(rc == 0, f"--remote exits 0 (got {rc})")
    raw = res["raw"] if res else {}
    c.check(raw.get("min") == raw.get("max") == expected,
            f"--remote counts plain_fixed exactly: {raw.get('median')} == {expected}")
    c.check(res is not None and f"127.0.0.1:{port}" in res["server"],
            f"the result names the server: {res and res['server']}")
    c.check(qemu.poll() is None, "the board runs on after benchrack detached")
finally:
    qemu.kill()
    qemu.wait()

# A breakpoint never reached, on a QEMU of its own (record mode serves one
# session only).
qemu, port = start_qemu(QEMU, PLAIN, machine=test_board.qemu_machine(),
                        icount=test_board.qemu_icount(work.name),
                        stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
try:
    c.check(wait_listening(port, READY_S, qemu), f"QEMU serves on 127.0.0.1:{port}")
    start = time.monotonic()
    rc, out, err, res = measure(BENCHRACK, PLAIN, "--from", "plain_fixed", "--to", "plain_never",
                                "--timeout", str(TIMEOUT_S), "--remote", f"127.0.0.1:{port}",
                                "--flavour", "qemu", "--counter", test_board.counter())
    took = time.monotonic() - start
    c.show(out, err)
    c.check(rc == 3, f"never reached: exit {rc} == 3")
    c.check("--to plain_never" in err and "never hit" in err,
            "never reached: says --to plain_never never hit")
    if test_board.counter() == "icount":
        c.check("record mode" in err and f"--timeout ({TIMEOUT_S} s)" in err
                and "did not launch" in err,
                "never reached, icount: names record mode, --timeout and a QEMU not launched")
    else:
        c.check("the core was at" in err, "never reached: says where the core was")
    c.check(took < GIVE_UP_S, f"never reached: gave up after {took:.1f} s (< {GIVE_UP_S} s)")
    c.check(qemu.poll() is None, "never reached: the QEMU benchrack did not launch runs on")
finally:
    qemu.kill()
    qemu.wait()
    work.cleanup()
sys.exit(c.finish())
