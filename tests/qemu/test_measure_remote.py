#!/usr/bin/env python3
"""`benchrack measure --remote HOST:PORT`: a gdbserver that is already running
in front of a board that already holds the firmware (here a QEMU this test
starts itself, halted at reset, its gdbstub on a free port of 127.0.0.1: the
build's board's machine, started as benchrack would start it, in record mode
when the board's counter is QEMU's icount; tests/lib/test_board.py). The
count (--counter, the board's default: tim2 or icount) is the exact figure
of the disassembly, and afterwards the board runs on: benchrack detached, it
did not kill it.

usage: test_measure_remote.py BENCHRACK OBJDUMP QEMU PLAIN_ELF
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from measure_cli import Checks, measure  # noqa: E402
from ports import wait_listening  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, OBJDUMP, QEMU, PLAIN = sys.argv[1:5]
READY_S = 10
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
    work.cleanup()
sys.exit(c.finish())
