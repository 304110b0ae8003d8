#!/usr/bin/env python3
"""Records a real RSP conversation as a script for the scripted fake target
(tests/unit/fake_script.h): how the conversations in scripts/ were derived.

QEMU is started halted with ELF (tests/lib/qemu_gdbstub.py), optionally
behind faultproxy.py in MODE, and a recorder sits in front of both; CMD is
run with every "{port}" replaced by the recorder's port. What the client
sent and what it was given back is written to OUT, one script line each:

  > payload    a packet the client sent (0x03 written as \\x03)
  < payload    a packet it received
  <! payload   ... whose checksum was wrong
  nak          the next packet's acknowledgement was '-' (the server
               refused its checksum: the client sends it again)
  noack        the next packet was not acknowledged at all
  junk BYTES   bytes the client received outside any packet (or the part
               of a frame it got before the server closed)
  accept       the client connected again (the fake plays one connection:
               such a recording cannot be played as it is)
  hold         the client hung up here (the end of a conversation)
  close, rst   the server closed, or reset, the connection here

Lines are in the server's order: a request's line where the server took
it (its acknowledgement), not where the client sent it (pipelined requests
are all sent at once). Bytes outside 0x20-0x7e and the backslash are written
\\xHH. '+' acks are
not written (the fake acknowledges every packet unless told otherwise), nor
a packet resent after a '-' (the fake resends by itself, as QEMU does).
Standard library only; not run by the tests.

usage: record_rsp.py QEMU ELF OUT [--mode MODE [--opt K=V ...]] -- CMD...
"""
import argparse
import os
import re
import socket
import struct
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "proxy"))
from faultproxy import Direction, Proxy  # noqa: E402
from ports import connect, relay  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402


def escape(b):
    return "".join(chr(c) if 0x20 <= c < 0x7f and c != 0x5c else "\\x%02x" % c for c in b)


def own_description(payload):
    """A qXfer features reply (payload text, "l" or "m" then XML) reduced to
    the facts a client reads: the feature's name and each register's name,
    bitsize, regnum and type, written in this file's own words. A server's
    copy of GDB's feature files (their comments, layout and notices) is not
    ours to keep in the tree; what a register is called and numbered is the
    protocol. Any other payload is returned as it is."""
    if not payload[:1] in ("l", "m") or "<feature" not in payload:
        return payload
    text = payload[1:].replace("\\x0a", "\n")
    name = re.search(r'<feature name="([^"]+)"', text).group(1)
    regs = []
    for attrs in re.findall(r"<reg\s([^>]*?)/?>", text):
        kv = dict(re.findall(r'(\w+)="([^"]*)"', attrs))
        regs.append("<reg" + "".join(f' {k}="{kv[k]}"' for k in ("name", "bitsize", "regnum", "type")
                                     if k in kv) + "/>")
    return (payload[0] + f'<?xml version="1.0"?><feature name="{name}">' + "".join(regs) +
            "</feature>")


def checksum_ok(tok):
    body, _, sum_text = tok[1:].rpartition(b"#")
    try:
        return sum(body) % 256 == int(sum_text, 16)
    except ValueError:
        return False


class Recorder:
    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.lines = []
        self.lock = threading.Lock()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = connect(self.upstream_port)
            with self.lock:
                if self.connections:
                    self.lines.append("accept")
                self.connections += 1
                self.pending = []  # '>' lines the server has not taken yet
                self.unreplied = 0  # requests it took and has not answered
                self.resend = False
                self.ended = False
                self.aborted = False
            relay(client, server, self._pump)

    def _take(self, word=None):
        """The server took the oldest pending request (acknowledged it, or
        word: "nak" refused it, "noack" answered it unacknowledged): its '>'
        line goes here, so the script is in the server's order (the fake,
        like QEMU, answers a packet before it reads the next)."""
        if word:
            self.lines.append(word)
        self.lines.append(self.pending.pop(0))
        if word != "nak":
            self.unreplied += 1

    def _token(self, direction, kind, tok):
        with self.lock:
            if direction == "c2s":
                if kind == "packet":
                    self.pending.append("> " + escape(tok[1:tok.rindex(b"#")]))
                elif tok == b"\x03":
                    while self.pending:
                        self._take()
                    self.lines.append("> \\x03")
                elif tok == b"-":
                    self.resend = True
                return
            if kind == "byte":
                if tok in (b"+", b"-") and self.pending:
                    self._take(None if tok == b"+" else "nak")
                elif self.lines and self.lines[-1].startswith("junk "):
                    self.lines[-1] += escape(tok)
                else:
                    self.lines.append("junk " + escape(tok))
                return
            good = checksum_ok(tok)
            if self.resend:  # the packet the client refused, sent again
                self.resend = False
                if good:
                    return
                self.lines.append("<! " + escape(tok[1:tok.rindex(b"#")]))
                return
            if not tok.startswith(b"$O") or tok.startswith(b"$OK"):
                if self.unreplied == 0 and self.pending:  # answered, never acknowledged
                    self._take("noack")
                self.unreplied = max(self.unreplied - 1, 0)
            payload = own_description(escape(tok[1:tok.rindex(b"#")]))
            self.lines.append(("< " if good else "<! ") + payload if payload or not good
                              else "<")

    def _end(self, direction, parser, word):
        """The conversation's end as the client saw it: it hung up ("hold":
        the fake says nothing more), or the server closed ("close", after the
        part of a frame it had sent as junk) or reset ("rst")."""
        with self.lock:
            if self.ended:
                return
            self.ended = True
            while self.pending:  # never acknowledged
                self._take("noack")
            if direction == "s2c" and parser.in_packet:
                self.lines.append("junk " + escape(bytes(parser.buf)))
            self.lines.append(word)

    def _pump(self, src, dst, direction):
        parser = Direction()
        word = "hold" if direction == "c2s" else "close"
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                for kind, tok in parser.tokens(data):
                    self._token(direction, kind, tok)
                dst.sendall(data)
        except ConnectionResetError:
            word = "rst"
            if direction == "s2c":  # passed on as a reset, not a FIN (as faultproxy.py
                # does it: the other thread's recv woken first, then a zero linger)
                self._end(direction, parser, word)
                self.aborted = True
                dst.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                dst.shutdown(socket.SHUT_RD)
                dst.close()
                return
        except OSError:
            pass
        self._end(direction, parser, word)
        for s in (src, dst):
            if self.aborted and s is (src if direction == "c2s" else dst):
                continue  # the client's end was reset: no FIN after it
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main():
    argv = sys.argv[1:]
    cut = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("qemu")
    ap.add_argument("elf")
    ap.add_argument("out")
    ap.add_argument("--mode")
    ap.add_argument("--opt", action="append", default=[])
    a = ap.parse_args(argv[:cut])
    cmd = argv[cut + 1:]
    qemu, qport = start_qemu(a.qemu, a.elf)
    proxy = None
    try:
        upstream = qport
        if a.mode:
            opts = {}
            for kv in a.opt:
                k, v = kv.split("=", 1)
                opts[k] = v.encode() if k == "match" else float(v) if "." in v else int(v)
            proxy = Proxy(qport, a.mode, **opts)
            upstream = proxy.port
        rec = Recorder(upstream)
        p = subprocess.run([c.replace("{port}", str(rec.port)) for c in cmd])
        with open(a.out, "w", encoding="ascii") as f:
            f.write("\n".join(rec.lines) + "\n")
        print(f"{a.out}: {len(rec.lines)} lines; the command exited {p.returncode}"
              + (f"; {proxy.injected} faults injected" if proxy else ""))
    finally:
        if proxy:
            proxy.close()
        qemu.kill()
        qemu.wait()


if __name__ == "__main__":
    main()
