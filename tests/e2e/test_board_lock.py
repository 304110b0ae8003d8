#!/usr/bin/env python3
"""Exclusive use of shared hardware from the desk: `probe` and `measure`
take the same lock a rack takes for a board reached at host:port (the lock is
named after the hardware, remote-<host>-<port>, not after any rack entry), so
a person and a rack never drive one probe at once.

- a lock held by another owner: probe and measure refuse with exit 3, naming
  the owner, and never touch the board;
- the lock free: both work, and the lock's history shows them take and give it;
- a stale lock of a dead owner: taken over, and stderr says so.

usage: test_board_lock.py BENCHRACK QEMU SUITE_ELF
"""
import fcntl
import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import test_board  # noqa: E402

BENCHRACK, QEMU, ELF = sys.argv[1:4]
failures = 0


def check(cond, what, detail=""):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1
        print("     " + detail.replace("\n", "\n     "))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, deadline_s=10.0):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.02)
    return False


port = free_port()
# The build's board's machine, started by hand as a person at a desk would
# (the suite image is linked for it), with -icount shift=0 and no record
# mode: in record mode QEMU 7.2 answers no client while the core runs, so
# once the first command detaches the next could not attach. Where the
# board counts with QEMU's icount (record mode), measure reads the counter
# this build's stub starts at reset, SysTick on the board's clock: the lock
# is what is under test here, not the figure.
# Elsewhere than netduinoplus2 the person says the server is QEMU (--flavour
# qemu): as a generic gdbserver benchrack would enable TIM2 through the
# STM32's RCC first, and QEMU's netduino2 models no RCC (reading it answers
# E14). On netduinoplus2 the generic flavour stays, that enabling with it.
MEASURE_ON = [] if test_board.is_default() else ["--flavour", "qemu"]
if test_board.counter() == "icount":
    MEASURE_ON += ["--counter", "systick", "--clock-hz", str(test_board.clock_hz())]
if MEASURE_ON:
    print(f"note: on {test_board.NAME} measure takes {' '.join(MEASURE_ON)}")
qemu = subprocess.Popen([QEMU, "-M", test_board.qemu_machine(), "-icount", "shift=0",
                         "-display", "none",
                         "-monitor", "none", "-serial", "null", "-S",
                         "-gdb", f"tcp:127.0.0.1:{port},server=on,wait=off", "-kernel", ELF],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    assert wait_listening(port), "QEMU's gdbstub did not come up"
    # QEMU accepts one client; a connection closed by wait_listening is gone.
    with tempfile.TemporaryDirectory() as locks:
        env = dict(os.environ, BENCHRACK_LOCK_DIR=locks)
        name = f"remote-127.0.0.1-{port}"
        path = os.path.join(locks, name + ".lock")
        probe = [BENCHRACK, "probe", "--remote", f"127.0.0.1:{port}", "--timeout", "5"]
        measure = [BENCHRACK, "measure", ELF, "--remote", f"127.0.0.1:{port}", "--bench",
                   "nop1000", "-n", "3", "--timeout", "10"] + MEASURE_ON

        # Held by someone else (this test, posing as a person at a desk).
        with open(path, "w") as f:
            f.write("4242 desk-pc 1700000000000\n")
            f.flush()
            fcntl.flock(f, fcntl.LOCK_EX)
            for cmd, what in ((probe, "probe"), (measure, "measure")):
                p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
                check(p.returncode == 3 and "in use" in p.stderr and "4242" in p.stderr and
                      "desk-pc" in p.stderr,
                      f"{what}: a board locked by another owner is refused (exit 3, names it)",
                      p.stdout + p.stderr)
            fcntl.flock(f, fcntl.LOCK_UN)
        os.unlink(path)

        # Free: both run, and the history records them.
        p = subprocess.run(probe, capture_output=True, text=True, env=env, timeout=60)
        check(p.returncode == 0 and "health:     ok" in p.stdout, "probe: the lock free, it runs",
              p.stdout + p.stderr)
        p = subprocess.run(measure, capture_output=True, text=True, env=env, timeout=60)
        check(p.returncode == 0 and "nop1000" in p.stdout, "measure: the lock free, it runs",
              p.stdout + p.stderr)
        hist_path = os.path.join(locks, name + ".history")
        history = open(hist_path).read() if os.path.exists(hist_path) else ""
        check(history.count("acquire") >= 2 and history.count("release") >= 2,
              "the lock's history shows both taking and giving the board", history)

        # A stale lock of an owner that is gone.
        with open(path, "w") as f:
            f.write("999999 gone-host 1700000000000\n")
        p = subprocess.run(probe, capture_output=True, text=True, env=env, timeout=60)
        check(p.returncode == 0 and "took over the stale lock" in p.stderr and
              "999999" in p.stderr, "a stale lock is taken over, and stderr says so",
              p.stdout + p.stderr)
finally:
    qemu.kill()
    qemu.wait()

print(f"{failures} failed")
sys.exit(1 if failures else 0)
