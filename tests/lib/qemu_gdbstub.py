"""A QEMU board halted at reset with its gdbstub on a free port of 127.0.0.1,
the way the tests that talk RSP to a real server start one. Standard library
only."""
import subprocess

from ports import HOST, held_port

MACHINE = "netduinoplus2"


def qemu_args(qemu, elf, port, machine=MACHINE, fd=None, icount="shift=0"):
    """The command line: deterministic time (-icount shift=0, or icount's
    own text: record mode), no display, monitor or serial, halted (-S),
    gdbstub on HOST:port (or on the bound socket fd when given), elf loaded."""
    gdb = ["-gdb", f"tcp:{HOST}:{port}"] if fd is None else [
        "-chardev", f"socket,id=gdb0,fd={fd},server=on,wait=off,nodelay=on", "-gdb", "chardev:gdb0"]
    return [qemu, "-M", machine, "-icount", icount, "-display", "none",
            "-monitor", "none", "-serial", "null", "-S", *gdb, "-kernel", elf]


def start_qemu(qemu, elf, port=None, machine=MACHINE, stdin=None,
               stderr=subprocess.DEVNULL, icount="shift=0"):
    """(process, port): QEMU started on port (when None, a free one that it
    is handed as a bound socket, so no concurrent test or benchrack can take
    it). Its output is discarded unless stderr says otherwise. The caller
    kills and waits for it."""
    if port is not None:
        q = subprocess.Popen(qemu_args(qemu, elf, port, machine, icount=icount), stdin=stdin,
                             stdout=subprocess.DEVNULL, stderr=stderr)
        return q, port
    sock, port = held_port()
    with sock:
        q = subprocess.Popen(qemu_args(qemu, elf, port, machine, sock.fileno(), icount),
                             stdin=stdin,
                             stdout=subprocess.DEVNULL, stderr=stderr, pass_fds=(sock.fileno(),))
    return q, port


def remote_board_yaml(name, port, load):
    """A board file's text for a netduinoplus2 QEMU reached as a remote
    gdbserver on HOST:port, with the load: policy load."""
    return (f"name: {name}\n"
            "core: cortex-m4\n"
            f"server: {{kind: remote, host: {HOST}, port: {port}, flavour: qemu}}\n"
            "counter: {kind: tim2}\n"
            f"load: {load}\n"
            "memory:\n"
            "  - {name: flash, kind: flash, origin: 0x08000000, length: 1M}\n"
            "  - {name: sram, kind: ram, origin: 0x20000000, length: 128K}\n")
