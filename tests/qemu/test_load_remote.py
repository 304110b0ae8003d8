#!/usr/bin/env python3
"""The image loaded over the debug port, on a board benchrack did not launch:
a QEMU of the build's board (tests/lib/test_board.py: its machine, in record
mode when its counter is icount) started halted (-S) with another, idle
image (fw_loop.elf), reached as a remote gdbserver through a board file (the
board's own, its server: `{kind: remote, host: 127.0.0.1, port: P,
flavour: qemu}`). The launched path is `--board NAME`. On microbit,
mps2-an500 and mps2-an505, QEMU 7.2 copies its -kernel image back into
memory at each system reset (README, "Loading over the debug port"): there
every figure below taken onto the idle image fails unless benchrack resets
the board before it loads, never after (controller/run/image_start.h).

- `load: always`: `benchrack run configs/suites/default.yaml --board FILE`
  exits 0 with exactly the launched path's counts, every bench; nop1000 is
  exactly empty + 1000 (its 1000 nops); on the TIM2 boards (the netduinos,
  whose figures these are) empty 1, nop1000 1001, crc32_64 655, crc32_256
  2575 exactly, figures of the M3/M4 code those builds make (another core's
  compiler output, for another board's memory, has other crc32 counts);
- `benchrack measure PLAIN --board FILE --from X --to Y` on unmodified
  firmware equals the launched path;
- `load: if-different` on a QEMU that already holds the image writes nothing
  (the proxy counts the memory-write packets: 0; with `load: always` through
  the same proxy, the peer figure, they are many);
- `if-different` compares the image's GNU build-id note in target memory
  first (its address from objdump, an oracle outside benchrack): on a QEMU
  holding another image the only flash read before the first write is the
  36-byte note; on one holding the image the note is read, then the full
  read-back confirms it, and nothing is written;
- a long load's progress ("loading: N of M bytes", rewritten in place), then
  one line saying what was written (or "already on the target" when
  if-different finds it there), is on stderr when stderr is a terminal (benchrack run under a pty from
  Python's pty module), and not when stderr is a pipe or a file;
- a write corrupted in flight (faultproxy.py's flipwrite: one data byte
  changed, checksum made right) is caught by verification: exit 3, naming
  the address the proxy changed.

usage: test_load_remote.py BENCHRACK QEMU SUITE_YAML SUITE_ELF PLAIN_ELF IDLE_ELF MARKERS_C
"""
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "proxy"))
import disasm  # noqa: E402
from faultproxy import Proxy  # noqa: E402
from measure_cli import Checks  # noqa: E402
from qemu_gdbstub import start_qemu  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, QEMU, SUITE_YAML, SUITE, PLAIN, IDLE, MARKERS = sys.argv[1:8]
OBJDUMP = shutil.which("arm-none-eabi-objdump")
FLASH_ORIGIN, FLASH_LENGTH = test_board.memory(kind="flash")
FLASH = (FLASH_ORIGIN, FLASH_ORIGIN + FLASH_LENGTH)
READ = re.compile(rb"^\$m([0-9a-fA-F]+),([0-9a-fA-F]+)#")
TIMEOUT_S = 120
LAUNCHED = ["--board", test_board.NAME]
# A run's samples per bench: the suite's own on TIM2 (one read of a register
# per sample); on icount each sample of a stub bench is two watchpoint stops,
# and 5 samples make every figure these checks compare.
RUN_N = [] if test_board.counter() == "tim2" else ["-n", "5"]
# Figures of the netduinos' M3/M4 images (TIM2 boards).
TIM2_FIGURES = (("empty", 1), ("nop1000", 1001), ("crc32_64", 655), ("crc32_256", 2575))
WORK = tempfile.mkdtemp(prefix="benchrack-load-")
c = Checks()


def board_file(name, port, load):
    path = os.path.join(WORK, name + ".yaml")
    with open(path, "w") as f:
        f.write(test_board.remote_board_yaml(name, "127.0.0.1", port, load))
    return path


def benchrack(*args):
    p = subprocess.run([BENCHRACK, *args, *RUN_N, "--results-dir", os.path.join(WORK, "results")]
                       if args[0] in ("run", "check") else [BENCHRACK, *args],
                       capture_output=True, text=True, timeout=TIMEOUT_S)
    return p.returncode, p.stdout, p.stderr


def medians(json_path):
    with open(json_path) as f:
        rec = json.load(f)
    return {b["name"]: (b["median"], b["min"], b["max"], b["stack_bytes"], b["heap"])
            for b in rec["benches"] if b["status"] == "measured"}


class Qemu:
    """A QEMU of the board's machine halted at reset with elf (in record
    mode, its log in a directory of its own, when the counter is icount),
    killed on leaving."""

    def __init__(self, elf):
        self.proc, self.port = start_qemu(QEMU, elf, machine=test_board.qemu_machine(),
                                          icount=test_board.qemu_icount(
                                              tempfile.mkdtemp(dir=WORK)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait()


class RecordingProxy(Proxy):
    """The pass-through proxy, also keeping the client's packets in order."""

    def __init__(self, upstream_port):
        self.sent = []
        super().__init__(upstream_port, "pass")

    def _transform(self, direction, kind, tok):
        if direction == "c2s" and kind == "packet":
            self.sent.append(tok)
        return super()._transform(direction, kind, tok)

    def flash_reads_before_first_write(self):
        """(address, length) of each flash read the client sent before its
        first memory write (all of them when it wrote nothing)."""
        reads = []
        for tok in self.sent:
            if tok[1:2] in (b"M", b"X") or tok.startswith(b"$vFlashWrite"):
                break
            m = READ.match(tok)
            if m and FLASH[0] <= int(m.group(1), 16) < FLASH[1]:
                reads.append((int(m.group(1), 16), int(m.group(2), 16)))
        return reads


def run_on_pty(argv):
    """Runs argv with its stderr on a pseudo-terminal (stdout a pipe);
    returns the exit code and everything written to the terminal."""
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the last holder of the terminal closed it
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return p.wait(timeout=TIMEOUT_S), b"".join(chunks).decode(errors="replace")


def build_id_note(elf):
    """(address, size) of elf's .note.gnu.build-id by objdump -h (its LMA)."""
    out = subprocess.run([OBJDUMP, "-h", elf], capture_output=True, text=True,
                         check=True).stdout
    m = re.search(r"\.note\.gnu\.build-id\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", out)
    return (int(m.group(2), 16), int(m.group(1), 16)) if m else None


def measure_json(elf, *args):
    path = os.path.join(WORK, "m.json")
    if os.path.exists(path):
        os.unlink(path)
    rc, out, err = benchrack("measure", elf, *args, "--json", path)
    res = None
    if os.path.exists(path):
        with open(path) as f:
            res = json.load(f)
    return rc, out, err, res


def main():
    # The launched path: the peer every figure is compared with.
    launched_json = os.path.join(WORK, "launched.json")
    rc, out, err = benchrack("run", SUITE_YAML, "--firmware", SUITE, *LAUNCHED,
                             "--json", launched_json)
    c.check(rc == 0, f"launched: run exits 0 (got {rc})")
    launched = medians(launched_json) if rc == 0 else {}

    # 1. load: always onto a QEMU holding an idle image.
    with Qemu(IDLE) as q:
        board = board_file("remote-always", q.port, "always")
        remote_json = os.path.join(WORK, "remote.json")
        rc, out, err = benchrack("run", SUITE_YAML, "--firmware", SUITE, "--board", board,
                                 "--json", remote_json)
        c.show(out, err)
        c.check(rc == 0, f"remote, load: always: run exits 0 (got {rc})")
        remote = medians(remote_json) if rc == 0 else {}
        empty, nop1000 = remote.get("empty", (None,))[:3], remote.get("nop1000", (None,))[:3]
        c.check(len(set(empty)) == 1 and empty[0] is not None and
                nop1000 == tuple(v + 1000 for v in empty),
                f"remote: nop1000 {nop1000} is empty {empty} + 1000 exactly (median/min/max)")
        if test_board.counter() == "tim2":
            for name, want in TIM2_FIGURES:
                got = remote.get(name, ())[:3]
                c.check(got == (want, want, want),
                        f"remote {name}: median/min/max {got} == {want} exactly")
        else:
            print(f"not asserted on {test_board.NAME}: {dict(TIM2_FIGURES)} are the TIM2 "
                  f"boards' figures of their M3/M4 images; {test_board.core()} code has its own "
                  f"(held equal to the launched path's, and nop1000 to empty + 1000)")
        c.check(remote == launched and len(remote) >= 4,
                f"every bench equals the launched path ({len(remote)} benches)")

    # 2. measure --from/--to on unmodified firmware: equal to the launched path.
    line_from = disasm.marker_line(MARKERS, "marker: from")
    line_to = disasm.marker_line(MARKERS, "marker: to")
    span = ["--from", f"plain_markers.c:{line_from}", "--to", f"plain_markers.c:{line_to}",
            "-n", "20"]
    rc, out, err, peer = measure_json(PLAIN, *span, *LAUNCHED)
    c.check(rc == 0, f"launched: measure exits 0 (got {rc})")
    with Qemu(IDLE) as q:
        board = board_file("remote-measure", q.port, "always")
        rc, out, err, res = measure_json(PLAIN, *span, "--board", board)
        c.show(out, err)
        c.check(rc == 0, f"remote, load: always: measure --from/--to exits 0 (got {rc})")
        c.check(res is not None and peer is not None and res["raw"] == peer["raw"],
                f"measure over the debug port equals the launched path: "
                f"{res and res['raw'].get('median')} == {peer and peer['raw'].get('median')}")

    # 3. if-different: the image is already there: nothing written. The peer:
    # load: always through the same kind of proxy writes many packets.
    with Qemu(PLAIN) as q:
        proxy = Proxy(q.port, "pass")
        try:
            board = board_file("remote-same", proxy.port, "if-different")
            rc, out, err, res = measure_json(PLAIN, *span, "--board", board)
        finally:
            proxy.close()
        c.show(out, err)
        c.check(rc == 0 and res is not None and res["raw"] == peer["raw"],
                f"if-different, image there: exit 0 and the same figures (got {rc})")
        c.check(proxy.writes == 0, f"if-different wrote nothing: {proxy.writes} write packets")
    with Qemu(PLAIN) as q:
        proxy = Proxy(q.port, "pass")
        try:
            board = board_file("remote-again", proxy.port, "always")
            rc, out, err, res = measure_json(PLAIN, *span, "--board", board)
        finally:
            proxy.close()
        c.check(rc == 0 and proxy.writes > 0,
                f"peer: load: always writes it again: {proxy.writes} write packets (exit {rc})")
    with Qemu(IDLE) as q:
        proxy = Proxy(q.port, "pass")
        try:
            board = board_file("remote-differs", proxy.port, "if-different")
            rc, out, err, res = measure_json(PLAIN, *span, "--board", board)
        finally:
            proxy.close()
        c.check(rc == 0 and proxy.writes > 0 and res["raw"] == peer["raw"],
                f"if-different on another image writes it ({proxy.writes} write packets) and "
                f"measures the same (exit {rc})")

    # 3b. The build-id note decides first (objdump says where it is).
    note = build_id_note(PLAIN) if OBJDUMP else None
    c.check(note is not None and note[1] == 36,
            f"objdump finds PLAIN's 36-byte build-id note: {note}")
    with Qemu(IDLE) as q:
        proxy = RecordingProxy(q.port)
        try:
            board = board_file("remote-note-differs", proxy.port, "if-different")
            rc, out, err, res = measure_json(PLAIN, *span, "--board", board)
        finally:
            proxy.close()
        before = proxy.flash_reads_before_first_write()
        c.check(rc == 0 and proxy.writes > 0,
                f"another image there: if-different writes ({proxy.writes} write packets, "
                f"exit {rc})")
        c.check(note is not None and before == [note],
                f"the only flash read before writing is the build-id note "
                f"{note and (hex(note[0]), note[1])}: {[(hex(a), n) for a, n in before]}")
    with Qemu(PLAIN) as q:
        proxy = RecordingProxy(q.port)
        try:
            board = board_file("remote-note-same", proxy.port, "if-different")
            rc, out, err, res = measure_json(PLAIN, *span, "--board", board)
        finally:
            proxy.close()
        reads = proxy.flash_reads_before_first_write()
        c.check(rc == 0 and proxy.writes == 0,
                f"the image there: nothing written ({proxy.writes} write packets, exit {rc})")
        c.check(note is not None and reads[:1] == [note] and len(reads) > 1
                and reads[1][0] == FLASH[0],
                f"the note read first, then the image read back from its start to confirm: "
                f"{[(hex(a), n) for a, n in reads[:3]]}")

    # 3c. A load's progress: on a terminal, and only there.
    progress = re.compile(r"loading: (\d+) of (\d+) bytes")
    with Qemu(IDLE) as q:
        board = board_file("remote-tty", q.port, "always")
        rc, tty = run_on_pty([BENCHRACK, "run", SUITE_YAML, "--firmware", SUITE, "--board",
                              board, *RUN_N, "--results-dir", os.path.join(WORK, "results")])
    shown = [(int(a), int(b)) for a, b in progress.findall(tty)]
    c.check(rc == 0 and len(shown) >= 1,
            f"stderr a terminal: the load's progress is shown ({len(shown)} updates, exit {rc})")
    c.check(shown != [] and shown[-1][0] == shown[-1][1]
            and all(a <= b for (a, _), (b, _) in zip(shown, shown[1:])),
            f"it counts up to the whole image: {shown[:2]} ... {shown[-1:]}")
    c.check("\r\x1b[Kloading: " in tty,
            "the load's line is rewritten in place (carriage return, erase line)")
    done = re.findall(r"loaded [^\r\n]*: (\d+) bytes in (\d+) segments written", tty)
    c.check(len(done) == 1 and shown != [] and int(done[0][0]) == shown[-1][1],
            f"then one line says what was written: {done}")
    with Qemu(SUITE) as q:
        board = board_file("remote-tty-same", q.port, "if-different")
        rc, tty = run_on_pty([BENCHRACK, "run", SUITE_YAML, "--firmware", SUITE, "--board",
                              board, *RUN_N, "--results-dir", os.path.join(WORK, "results")])
    c.check(rc == 0 and tty.count("already on the target") == 1 and "loading:" not in tty,
            f"if-different, the image there: one line, already on the target (exit {rc})")
    with Qemu(IDLE) as q:
        board = board_file("remote-pipe", q.port, "always")
        rc, out, err = benchrack("run", SUITE_YAML, "--firmware", SUITE, "--board", board)
    c.check(rc == 0 and "loading:" not in err and "\x1b[K" not in err,
            f"stderr a pipe: no progress (exit {rc})")
    with Qemu(IDLE) as q:
        board = board_file("remote-file", q.port, "always")
        log = os.path.join(WORK, "stderr.log")
        with open(log, "w") as f:
            p = subprocess.run([BENCHRACK, "run", SUITE_YAML, "--firmware", SUITE, "--board",
                                board, *RUN_N, "--results-dir", os.path.join(WORK, "results")],
                               stdout=subprocess.PIPE, stderr=f, timeout=TIMEOUT_S)
        with open(log) as f:
            logged = f.read()
    c.check(p.returncode == 0 and "loading:" not in logged and "\x1b[K" not in logged,
            f"stderr a file: no progress (exit {p.returncode})")

    # 4. A write corrupted in flight: verification catches it, exit 3, naming the address.
    with Qemu(IDLE) as q:
        proxy = Proxy(q.port, "flipwrite")
        try:
            board = board_file("remote-flip", proxy.port, "always")
            rc, out, err = benchrack("run", SUITE_YAML, "--firmware", SUITE, "--board", board)
        finally:
            proxy.close()
        c.show(out, err)
        where = proxy.flipped_address
        c.check(where is not None, f"the proxy changed the byte at {where and hex(where)}")
        named = re.search(r"differs from the ELF at (0x[0-9a-f]{8})", err)
        c.check(rc == 3 and named is not None and where is not None
                and int(named.group(1), 16) == where,
                f"corrupted write caught: exit {rc}, naming {named and named.group(1)}")
        c.check("Table" not in out and re.search(r"^crc32_64\s+\d", out, re.M) is None
                and re.search(r"^crc32_64\s+not run: loading", out, re.M) is not None,
                "no figure printed from a board whose image did not arrive intact: each "
                "bench listed as not run, saying why")


try:
    main()
finally:
    shutil.rmtree(WORK, ignore_errors=True)
sys.exit(c.finish())
