"""The board this build's images are for, as a test sees it (issue 29).

Meson passes it in the environment of every test that takes `env:
test_env` (tests/meson.build): BENCHRACK_TEST_BOARD is the cross file's
[properties] board (qemu-netduinoplus2 in the default build and in a native
one), BENCHRACK_SOURCE_ROOT the checkout. A test written for every cross
file names the board through NAME, and reads what differs between boards
(QEMU machine, counter kind, unit, memory) from the board's own file in
configs/boards/ with the functions below, never from a copy of its own.
Standard library only: the board file is read with a few regular
expressions that hold for the shipped files' one-line keys."""
import os
import re

NAME = os.environ.get("BENCHRACK_TEST_BOARD") or "qemu-netduinoplus2"
SOURCE_ROOT = os.environ.get("BENCHRACK_SOURCE_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def board_file(name=NAME):
    """Path of configs/boards/NAME.yaml."""
    return os.path.join(SOURCE_ROOT, "configs", "boards", name + ".yaml")


def _text(name):
    with open(board_file(name), encoding="utf-8") as f:
        return f.read()


def _key(text, key):
    m = re.search(r"^\s*" + re.escape(key) + r":\s*([^\s#]+)", text, re.M)
    return m.group(1) if m else None


def qemu_machine(name=NAME):
    """QEMU's -M machine of the board (None when it is not a QEMU board)."""
    text = _text(name)
    return _key(text, "machine") if _key(text, "kind") == "qemu" else None


def core(name=NAME):
    """The board file's core, e.g. cortex-m4."""
    return _key(_text(name), "core")


def counter(name=NAME):
    """The board's default counter kind: tim2, icount, systick, dwt..."""
    m = re.search(r"^counter:\s*\n\s+kind:\s*([^\s#]+)", _text(name), re.M)
    return m.group(1) if m else None


def unit(name=NAME):
    """The unit benchrack prints for the board's default counter on QEMU:
    TIM2 and icount both count instructions exactly (measure/counter.c)."""
    if qemu_machine(name) and counter(name) in ("tim2", "icount"):
        return "instructions (QEMU icount)"
    return None  # a clock counter's unit depends on the run (ticks, cycles)


def clock_hz(name=NAME):
    """The board file's clock_hz (SysTick's clock on the icount boards), or
    None when it has none (the netduinos: a TIM2 tick is an instruction)."""
    value = _key(_text(name), "clock_hz")
    return int(value) if value else None


def memory_lines(name=NAME):
    """The board file's memory: entries, as written (one `  - {...}` line
    each), for a board file of a test's own on the same memory map."""
    return re.findall(r"^\s+-\s*\{name:.*\}\s*$", _text(name), re.M)


def memory(name=NAME, kind="ram"):
    """(origin, length in bytes) of the board's first region of KIND."""
    for m in re.finditer(r"\{name:\s*[^,]+,\s*kind:\s*(\w+),\s*origin:\s*(0x[0-9a-fA-F]+),"
                         r"\s*length:\s*(\d+)([KM]?)\}", _text(name)):
        if m.group(1) == kind:
            scale = {"": 1, "K": 1024, "M": 1024 * 1024}[m.group(4)]
            return int(m.group(2), 16), int(m.group(3)) * scale
    return None


def flash(name=NAME):
    """(origin, length in bytes) of the board's first flash region."""
    return memory(name, "flash")


def stub_halts_per_iteration(name=NAME):
    """Halts a stub bench costs per iteration on the board's default
    counter: 0 where the stub reads a timer itself (TIM2), 2 under icount
    (the host reads QEMU's count at a read watchpoint on the stub's counter
    word, twice an iteration). Tests size their sample counts by it."""
    return 2 if counter(name) == "icount" else 0


def samples(many, few, name=NAME):
    """A test's stub-bench sample count: many where samples cost no halt,
    few where each costs halts (icount)."""
    return few if stub_halts_per_iteration(name) else many


def is_default():
    """True in the default build's board (netduinoplus2)."""
    return NAME == "qemu-netduinoplus2"


def qemu_icount(directory, name=NAME):
    """QEMU's -icount text for the board's counter: one instruction per
    virtual ns (shift=0), and in record mode (its log in DIRECTORY, which
    must outlive QEMU) when the counter is icount, which benchrack reads
    with `monitor info replay` and which exists in record mode only."""
    if counter(name) == "icount":
        return f"shift=0,rr=record,rrfile={os.path.join(directory, 'record.bin')}"
    return "shift=0"


def remote_board_yaml(board_name, host, port, load, name=NAME):
    """The text of a board file for the board NAME reached as a remote
    gdbserver (flavour qemu) on host:port, with the load: policy LOAD: the
    board's own file with its server: block replaced, so its core, counter,
    memory and stack are the board's. The QEMU behind the port must be
    started as benchrack would (machine, qemu_icount())."""
    text = _text(name)
    text = re.sub(r"^name:.*$", f"name: {board_name}", text, count=1, flags=re.M)
    text = re.sub(r"^server:[^\n]*\n(?:[ \t]+[^\n]*\n)*",
                  f"server: {{kind: remote, host: {host}, port: {port}, flavour: qemu}}\n",
                  text, count=1, flags=re.M)
    return text + f"load: {load}\n"

