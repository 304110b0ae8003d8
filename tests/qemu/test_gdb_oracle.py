#!/usr/bin/env python3
"""Independent oracle: gdb-multiarch, driving its own QEMU, reads the build's
board's counter at the two counter reads around nop1000's body (the `ldr`
before the first nop and the `ldr` after the last) and must see the same
delta that benchrack reports for that bench (`run --board NAME`). The
counter is the board's default (tests/lib/test_board.py): on the netduinos
TIM2_CNT, which the stub reads itself; elsewhere QEMU's own instruction
count, `monitor info replay` of a QEMU in record mode, read by gdb at the
same two breakpoints (the stub's load is then of a plain RAM word).

usage: test_gdb_oracle.py BENCHRACK GDB OBJDUMP QEMU SUITE_ELF
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import disasm  # noqa: E402
from elfpatch import Elf32  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, GDB, OBJDUMP, QEMU, ELF = sys.argv[1:6]
TIM2_CNT = 0x40000024  # RM0090 18.4.10 (STM32F2/F4); one count per instruction under -icount
ICOUNT = test_board.counter() == "icount"
MACHINE = test_board.qemu_machine()
# Offsets of stub/include/benchrack/control_block.h (pinned there by static asserts).
CB_OFFSET_STATE_ADDRESS = 20  # the request area is at the start of the state it points to
REQ_SEQ, REQ_BENCH, REQ_ITER, REQ_WARMUP, REQ_COUNTER, REQ_MASK, REQ_FLAGS = range(0, 28, 4)
NOP1000_INDEX = 1


def counter_reads():
    """Addresses of the stub's two counter loads around nop1000's body (its
    timed window, tests/lib/disasm.py), which must hold its 1000 nops in a
    row (on a Cortex-M0 a register move or two may sit between the first
    load and the nops: the oracle counts them as the stub does)."""
    first, _, second = disasm.bench_timed_window(OBJDUMP, ELF, "bench_nop1000")
    window = [m for a, m, _ in disasm.function(OBJDUMP, ELF, "bench_nop1000")
              if first <= a < second]
    longest = run = 0
    for m in window:
        run = run + 1 if m == "nop" else 0
        longest = max(longest, run)
    assert longest == 1000, f"nop1000's body is 1000 nops in a row (found {longest})"
    return first, second


read_a, read_b = counter_reads()
image = Elf32(ELF)
cb, _ = image.symbol("br_control_block")
req = image.read_u32(cb + CB_OFFSET_STATE_ADDRESS)


def script(tmp):
    """gdb's script: the request for 3 iterations of nop1000 written as the
    host would, then the counter read at both breakpoints (ORACLE A, B)."""
    if ICOUNT:
        # The stub loads a RAM word (the request's own counter field); QEMU's
        # count is what gdb reads at each stop (the script's only monitor
        # commands: the first answer is A's, the second B's).
        icount, counter, read = f"shift=0,rr=record,rrfile={tmp}/rr.bin", req + REQ_COUNTER, \
            "monitor info replay"
    else:
        icount, counter, read = "shift=0", TIM2_CNT, \
            f'printf "ORACLE {{}} %u\\n", *(unsigned int *){TIM2_CNT:#x}'
    return f"""
set pagination off
set confirm off
target remote | {QEMU} -M {MACHINE} -icount {icount} -display none -monitor none -serial null -S -gdb stdio -kernel {ELF}
break br_host_sync
continue
set {{unsigned int}}{req + REQ_BENCH:#x} = {NOP1000_INDEX}
set {{unsigned int}}{req + REQ_ITER:#x} = 3
set {{unsigned int}}{req + REQ_WARMUP:#x} = 0
set {{unsigned int}}{req + REQ_COUNTER:#x} = {counter:#x}
set {{unsigned int}}{req + REQ_MASK:#x} = 0xffffffff
set {{unsigned int}}{req + REQ_FLAGS:#x} = 0
set {{unsigned int}}{req + REQ_SEQ:#x} = {{unsigned int}}{req + REQ_SEQ:#x} + 1
delete
break *{read_a:#x}
break *{read_b:#x}
continue
{read.format("A")}
continue
{read.format("B")}
kill
"""


def reading(text, which):
    """The counter gdb read at breakpoint which (A or B), or None."""
    if ICOUNT:
        counts = re.findall(r"instruction count = (\d+)", text)
        return int(counts["AB".index(which)]) if len(counts) == 2 else None
    m = re.search(r"ORACLE " + which + r" (\d+)", text)
    return int(m.group(1)) if m else None


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "oracle.gdb")
    with open(path, "w") as f:
        f.write(script(tmp))
    # gdb prints the monitor's answers on stderr in batch mode: one stream.
    g = subprocess.run([GDB, "-nx", "-batch", "-x", path, ELF], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=60)
    at_a, at_b = reading(g.stdout, "A"), reading(g.stdout, "B")
    if at_a is None or at_b is None:
        print(g.stdout)
        sys.exit("gdb did not report both counter readings")
    oracle = at_b - at_a

    out = os.path.join(tmp, "run.json")
    # min == max needs a few samples; under icount each costs two halts.
    p = subprocess.run([BENCHRACK, "run", "--board", test_board.NAME, "-n",
                        str(test_board.samples(10, 4)), "--json", out, ELF], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    with open(out) as f:
        bench = next(b for b in json.load(f)["benches"] if b["name"] == "nop1000")

what = "QEMU's instruction count" if ICOUNT else "TIM2_CNT"
print(f"gdb-multiarch on {MACHINE}: {what} {at_a} at {read_a:#x}, {at_b} at {read_b:#x}: "
      f"delta {oracle}")
print(f"benchrack:     nop1000 median {bench['median']} (min {bench['min']}, max {bench['max']})")
ok = oracle == bench["median"] == bench["min"] == bench["max"] and oracle > 1000
print("ok" if ok else "FAIL: the controller and gdb disagree")
sys.exit(0 if ok else 1)
