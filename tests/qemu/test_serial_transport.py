#!/usr/bin/env python3
"""The serial transport (Black Magic Probe's way: RSP over a tty) against a
real server: a pseudo-terminal pair (os.openpty) is bridged to QEMU's TCP
gdbstub, and `benchrack probe --device /dev/pts/N --flavour qemu` must report
the same core as over TCP and dump the same memory.

usage: test_serial_transport.py BENCHRACK QEMU FW_LOOP_ELF
"""
import os
import re
import select
import subprocess
import sys
import threading
import tty

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from ports import connect  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402

BENCHRACK, QEMU, ELF = sys.argv[1:4]
DUMP = "0x08000000:5000"


def bridge(master, sock, stop):
    """Copies bytes between the pty master and the socket until stopped."""
    sock.setblocking(False)
    while not stop.is_set():
        r, _, _ = select.select([master, sock], [], [], 0.1)
        try:
            if master in r:
                data = os.read(master, 65536)
                if not data:
                    break
                sock.sendall(data)
            if sock in r:
                data = sock.recv(65536)
                if not data:
                    break
                os.write(master, data)
        except (OSError, BlockingIOError):
            break


def probe(args):
    p = subprocess.run([BENCHRACK, "probe", "--flavour", "qemu", "--dump", DUMP] + args,
                       capture_output=True, text=True, timeout=60)
    core = re.search(r"^core:.*$", p.stdout, re.M)
    dump = [line for line in p.stdout.splitlines() if re.match(r"[0-9a-f]{8}:", line)]
    return p, core.group(0) if core else None, dump


failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok


q, port = start_qemu(QEMU, ELF)
try:
    tcp, tcp_core, tcp_dump = probe(["--remote", f"127.0.0.1:{port}"])
finally:
    q.kill()
    q.wait()
check(tcp.returncode == 0 and tcp_core is not None, f"probe over TCP: {tcp_core}")

q, port = start_qemu(QEMU, ELF)
master, slave = os.openpty()
tty.setraw(master)
path = os.ttyname(slave)
stop = threading.Event()
sock = connect(port)
t = threading.Thread(target=bridge, args=(master, sock, stop), daemon=True)
t.start()
try:
    ser, ser_core, ser_dump = probe(["--device", path])
finally:
    stop.set()
    t.join(2)
    sock.close()
    q.kill()
    q.wait()
print(ser.stdout, ser.stderr)
check(ser.returncode == 0, f"probe over the serial device {path} exits 0")
check(ser_core == tcp_core, "the same core as over TCP")
check(len(ser_dump) == len(tcp_dump) > 0 and ser_dump == tcp_dump,
      f"the same {DUMP} bytes as over TCP ({len(ser_dump)} lines)")
print(f"{4 - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
