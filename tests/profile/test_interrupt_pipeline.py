#!/usr/bin/env python3
"""The fact the one-write sample rests on (debug/flavour.h,
packets_follow_interrupt; QEMU's row), checked on the real QEMU with raw RSP:
- running, the interrupt byte and packets in one write: QEMU stops the
  machine on the 0x03 before it reads on, so exactly one stop reply (T02)
  comes, then the packets' replies, in order; and after the trailing 'c' the
  machine runs (the PC differs from one such write to the next);
- stopped, an interrupt followed by a packet: the 0x03 is dropped (no stop
  reply), only the packet is answered.

usage: test_interrupt_pipeline.py QEMU PROFILE_ELF
"""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks  # noqa: E402
from ports import connect  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402

QEMU, ELF = sys.argv[1:3]
WRITES = 50
QUIET_S = 0.3  # how long "no further reply" is watched for


def frame(payload):
    return b"$" + payload + b"#%02x" % (sum(payload) % 256)


class Rsp:
    """Packets out, payloads in ('+' and '-' skipped)."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def packet(self, timeout=5.0):
        """The next payload, or None when nothing came within timeout."""
        deadline = time.monotonic() + timeout
        while True:
            start = self.buf.find(b"$")
            end = self.buf.find(b"#", start) if start >= 0 else -1
            if start >= 0 and end >= 0 and len(self.buf) >= end + 3:
                payload = self.buf[start + 1:end]
                self.buf = self.buf[end + 3:]
                return payload
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                return None
            if not data:
                return None
            self.buf += data

    def ask(self, payload):
        self.sock.sendall(frame(payload))
        return self.packet()


c = Checks()
q, port = start_qemu(QEMU, ELF)
try:
    s = connect(port, process=q)
    r = Rsp(s)
    # Ack mode (QEMU 7.2 offers no QStartNoAckMode), as benchrack runs it:
    # QEMU's '+'s are skipped, and it does not wait for ours.
    features = r.ask(b"qSupported:swbreak+")
    c.check(features is not None and b"PacketSize" in features, f"qSupported: {features!r}")
    s.sendall(b"+" + frame(b"c"))
    pcs = set()
    one_stop_each = True
    for i in range(WRITES):
        time.sleep(0.002)
        s.sendall(b"\x03" + frame(b"g") + frame(b"m20000000,4") + frame(b"c"))
        stop, regs, mem = r.packet(), r.packet(), r.packet()
        if not (stop and stop.startswith(b"T02") and regs and len(regs) >= 128 and
                mem and len(mem) == 8):
            one_stop_each = False
            c.check(False, f"write {i}: replies {stop!r}, {regs!r:.40}, {mem!r}")
            break
        pc = bytes.fromhex(regs[120:128].decode())
        pcs.add(int.from_bytes(pc, "little"))
    c.check(one_stop_each, f"{WRITES} writes of 0x03 g m c to the running machine: each "
                           "answered by one T02, then g's and m's replies")
    c.check(len(pcs) > 1, f"the machine ran between them ({len(pcs)} distinct PCs)")
    s.sendall(b"\x03")
    c.check(r.packet() is not None, "stopped by a lone 0x03")
    s.sendall(b"\x03" + frame(b"m20000000,4"))
    reply = r.packet()
    c.check(reply is not None and len(reply) == 8, f"stopped: 0x03 then m answered by m's "
                                                    f"reply alone ({reply!r})")
    extra = r.packet(timeout=QUIET_S)
    c.check(extra is None, f"and nothing else (got {extra!r}): the 0x03 was dropped")
    s.close()
finally:
    q.kill()
    q.wait()
sys.exit(c.finish())
