#!/usr/bin/env python3
"""A fault-injecting TCP proxy for the GDB Remote Serial Protocol.

It sits between a client (benchrack) and a gdbserver (QEMU) and forwards
bytes both ways, injecting one kind of fault at a time:

  delay     every chunk held back 1-25 ms (both directions)
  split     every byte written on its own (both directions)
  corrupt   a checksum digit changed in some packets (both directions)
  dropack   some '+' acknowledgements dropped (both directions)
  garbage   junk bytes inserted between packets (both directions; toward the
            server only right before a '$', when the target is halted)
  close     the connection closed in the middle of a server reply
  stall     the server's replies held back for a while, once (`stall_s`)
  inject    one extra well-formed reply (a copy of the last reply to a request
            matching `match`) put before the reply to the `nth` such request
  fixcorrupt  the reply to the `nth` request matching `match` changed in one
            hex digit, its checksum fixed (well-formed, wrong)

  refuse    the reply to the `nth` request matching `match` replaced by an
            error reply, `E0E` (a server that refused that write or read)
  refuseall the same for the `nth` and every later one (memory that stays
            unwritable)

The last three pair each reply with its request (requests in order; a
resume's reply is its stop), so that the fault lands on the reply asked for.
  flipwrite one data byte of the first memory write (M) changed in flight,
            with the checksum made right again: a silent corruption only
            verification can catch (`flipped_address` says where)
  pass      nothing changed: the proxy only counts (`writes`, `stops`)
  reset     at the `nth` stop reply, before forwarding it, the proxy itself
            sends the server `monitor system_reset` (qRcmd) and swallows its
            answer: the target resets while the client holds it halted (a
            watchdog or a brown-out on a real board; issue 31)

The server's end, at the `nth` stop reply (a T or S packet from the server,
counted in `stops`), instead of that reply (issue 12):
  exited    `W00` sent, then the connection closed (QEMU on SIGTERM)
  killed    `X0f` sent (terminated by signal 15), then closed
  eof       the connection closed (a FIN, nothing said)
  rst       the connection reset (an abortive close: RST)
  mute      nothing more from the server, the connection left open (a
            server that stopped answering while the target runs)

Whatever the mode, the client's memory-write packets (M, X, vFlashWrite) are
counted in `Proxy.writes`.

Faults are counted per kind in `Proxy.injected`. Used by test_faults.py;
standard library only.
"""
import os
import collections
import random
import select
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from ports import connect, relay  # noqa: E402

JUNK = bytes(b for b in range(0x20, 0x7f) if chr(b) not in "$%+-#}*") + b"\r\n\x00\xff"


class Direction:
    """Splits one direction's byte stream into packets and single bytes."""

    def __init__(self):
        self.buf = bytearray()
        self.in_packet = False
        self.tail = 0  # checksum characters still expected

    def tokens(self, data):
        """Yields (kind, bytes): kind 'packet' for $...#xx or %...#xx, 'byte' otherwise."""
        for b in data:
            c = bytes([b])
            if not self.in_packet:
                if c in (b"$", b"%"):
                    self.in_packet = True
                    self.tail = -1
                    self.buf = bytearray(c)
                else:
                    yield "byte", c
                continue
            self.buf += c
            if self.tail < 0 and c == b"#":
                self.tail = 2
            elif self.tail > 0:
                self.tail -= 1
                if self.tail == 0:
                    self.in_packet = False
                    yield "packet", bytes(self.buf)


class Proxy:
    def __init__(self, upstream_port, mode, seed=1, stall_s=2.0, every=4, match=b"m40000024,4",
                 nth=10):
        self.upstream_port = upstream_port
        self.mode = mode
        self.rng = random.Random(seed)
        self.stall_s = stall_s
        self.every = every
        self.injected = 0
        self.packets = {"c2s": 0, "s2c": 0}
        self.stalled = False
        self.closed = False
        self.match = match
        self.nth = nth
        self.matched = 0
        self.outstanding = collections.deque()  # request payloads awaiting replies
        self.last_match_reply = None
        self.lock = threading.Lock()
        self.writes = 0
        self.flipped_address = None
        self.stops = 0
        self.aborted = False
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    # ---- faults ----------------------------------------------------------
    END_WORDS = {"exited": b"W00", "killed": b"X0f"}

    def _server_end(self, dst, tok, pending):
        """exited/killed/eof/rst: True when tok is the nth stop reply and the
        session was ended instead of forwarding it (pending sent first)."""
        if not tok.startswith((b"$T", b"$S")) or self.stops != self.nth:
            return False
        self.injected += 1
        self._send(dst, pending)
        if self.mode in self.END_WORDS:
            self._send(dst, [self._frame(self.END_WORDS[self.mode])])
        if self.mode == "rst":
            # Wake the other direction's recv first (SHUT_RD sends nothing),
            # then close with a zero linger: the kernel sends RST, not FIN.
            self.aborted = True
            dst.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            dst.shutdown(socket.SHUT_RD)
            dst.close()
        return True

    @staticmethod
    def _frame(payload):
        return b"$" + payload + b"#%02x" % (sum(payload) % 256)

    def _paired(self, direction, kind, tok):
        """inject / fixcorrupt / refuse(all): the bytes to send for one token, pairing
        replies with requests."""
        if kind != "packet" or not tok.startswith(b"$"):
            return [tok]
        payload = tok[1:tok.rindex(b"#")]
        with self.lock:
            if direction == "c2s":
                self.outstanding.append(payload)
                return [tok]
            if payload.startswith(b"O") and payload != b"OK" or not self.outstanding:
                return [tok]  # console output, or a stop nobody asked for
            request = self.outstanding.popleft()
            if not request.startswith(self.match):
                return [tok]
            self.matched += 1
            out = [tok]
            if self.matched == self.nth and self.mode == "inject" and self.last_match_reply:
                self.injected += 1
                out = [self._frame(self.last_match_reply), tok]
            elif (self.matched == self.nth and self.mode == "refuse"
                  or self.matched >= self.nth and self.mode == "refuseall"):
                self.injected += 1
                out = [self._frame(b"E0E")]
            elif self.matched == self.nth and self.mode == "fixcorrupt" and payload:
                self.injected += 1
                body = bytearray(payload)
                i = len(body) - 1 if len(body) < 2 else 1  # a digit of the low byte
                body[i] = ord("7") if body[i] != ord("7") else ord("3")
                out = [self._frame(bytes(body))]
            self.last_match_reply = payload
            return out

    def _transform(self, direction, kind, tok):
        """Returns the list of byte strings to send for one token."""
        m = self.mode
        if m in ("inject", "fixcorrupt", "refuse", "refuseall"):
            return self._paired(direction, kind, tok)
        if kind == "packet":
            self.packets[direction] += 1
            n = self.packets[direction]
            if direction == "c2s" and tok[1:2] in (b"M", b"X") or tok.startswith(b"$vFlashWrite"):
                self.writes += 1
        if (m == "flipwrite" and kind == "packet" and direction == "c2s"
                and tok.startswith(b"$M") and self.flipped_address is None):
            flipped = self._flip(tok)
            if flipped is not None:
                return [flipped]
        if m == "corrupt" and kind == "packet" and n % self.every == 2:
            self.injected += 1
            body = bytearray(tok)
            # change the last checksum digit to another hex digit
            body[-1] = ord("0") if body[-1] != ord("0") else ord("1")
            return [bytes(body)]
        if m == "dropack" and kind == "byte" and tok == b"+" and self.rng.random() < 0.3:
            self.injected += 1
            return []
        if m == "garbage" and kind == "packet" and self.rng.random() < 0.3:
            if direction == "c2s" and not tok.startswith(b"$"):
                return [tok]
            self.injected += 1
            junk = bytes(self.rng.choice(JUNK) for _ in range(self.rng.randint(1, 12)))
            return [junk, tok]
        if m == "split":
            if len(tok) > 1:
                self.injected += 1
            return [bytes([b]) for b in tok]
        return [tok]

    def _flip(self, tok):
        """The M packet tok with one data byte changed and a correct checksum,
        or None when it carries no data."""
        body = tok[1:tok.rindex(b"#")].decode("ascii")
        head, _, data = body.partition(":")
        addr, _, length = head[1:].partition(",")
        if len(data) < 2:
            return None
        k = min(len(data) // 2 - 1, 5)
        old = int(data[2 * k:2 * k + 2], 16)
        data = data[:2 * k] + "%02x" % (old ^ 0x5A) + data[2 * k + 2:]
        self.flipped_address = int(addr, 16) + k
        self.injected += 1
        payload = ("M%s,%s:%s" % (addr, length, data)).encode("ascii")
        return b"$" + payload + b"#%02x" % (sum(payload) % 256)

    RESET_RCMD = b"qRcmd," + b"system_reset".hex().encode("ascii")

    def _reset_server(self, server):
        """Sends server `monitor system_reset` and reads its answer up to the
        final OK (console O packets and acks in between, each packet acked)."""
        server.sendall(b"+" + self._frame(self.RESET_RCMD))
        parser = Direction()
        while True:
            data = server.recv(65536)
            if not data:
                raise ConnectionAbortedError
            for kind, tok in parser.tokens(data):
                if kind != "packet":
                    continue
                server.sendall(b"+")
                if tok.startswith(b"$OK#") or tok.startswith(b"$E"):
                    self.injected += 1
                    return

    def _send(self, sock, chunks):
        for c in chunks:
            if not c:
                continue
            if self.mode == "delay":
                self.injected += 1
                time.sleep(self.rng.uniform(0.001, 0.025))
            sock.sendall(c)

    def _pump(self, src, dst, direction):
        parser = Direction()
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                out = []
                for kind, tok in parser.tokens(data):
                    if direction == "s2c" and kind == "packet" and tok.startswith((b"$T", b"$S")):
                        self.stops += 1
                    if (self.mode == "reset" and direction == "s2c" and self.stops == self.nth
                            and kind == "packet" and tok.startswith((b"$T", b"$S"))):
                        self._reset_server(src)
                    if self.mode == "mute" and direction == "s2c" and self.stops >= self.nth:
                        self.injected = 1  # silent from the nth stop reply on
                        continue
                    if (self.mode in ("exited", "killed", "eof", "rst") and direction == "s2c"
                            and kind == "packet" and self._server_end(dst, tok, out)):
                        raise ConnectionAbortedError
                    if (self.mode == "close" and direction == "s2c" and kind == "packet"
                            and self.packets["s2c"] >= 12 and not self.closed):
                        self.injected += 1
                        self.closed = True
                        self._send(dst, out + [tok[: len(tok) // 2]])
                        raise ConnectionAbortedError
                    if (self.mode == "stall" and direction == "s2c" and kind == "packet"
                            and self.packets["s2c"] >= 12 and not self.stalled):
                        self.injected += 1
                        self.stalled = True
                        self._send(dst, out)
                        out = []
                        time.sleep(self.stall_s)
                    out.extend(self._transform(direction, kind, tok))
                self._send(dst, out)
        except (OSError, ConnectionAbortedError):
            pass
        client = src if direction == "c2s" else dst
        for s in (src, dst):
            if self.aborted and s is client:
                continue  # reset by _server_end: no FIN
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _serve(self):
        """One connection after another (a run opens one per breakpoint
        entry), each served to its end; faults are counted across them."""
        while self._serve_one():
            pass

    def _serve_one(self):
        try:
            client, _ = self.listener.accept()
        except OSError:
            return False
        try:
            server = connect(self.upstream_port)
        except OSError:
            client.close()
            return False
        with self.lock:
            self.outstanding.clear()
        relay(client, server, self._pump)
        return self.mode in ("inject", "fixcorrupt", "reset", "pass")

    def close(self):
        self.listener.close()
