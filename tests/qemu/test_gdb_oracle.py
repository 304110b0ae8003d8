#!/usr/bin/env python3
"""Independent oracle: gdb-multiarch, driving its own QEMU, reads TIM2_CNT at
the two counter reads around nop1000's body (the `ldr` before the first nop
and the `ldr` after the last) and must see the same delta that benchrack
reports for that bench.

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

BENCHRACK, GDB, OBJDUMP, QEMU, ELF = sys.argv[1:6]
TIM2_CNT = 0x40000024
# Offsets of stub/include/benchrack/control_block.h (pinned there by static asserts).
CB_OFFSET_STATE_ADDRESS = 20  # the request area is at the start of the state it points to
REQ_SEQ, REQ_BENCH, REQ_ITER, REQ_WARMUP, REQ_COUNTER, REQ_MASK, REQ_FLAGS = range(0, 28, 4)
NOP1000_INDEX = 1


def counter_reads(insns):
    """Addresses of the loads just before and just after the run of nops."""
    runs, start = [], None
    for i, (_, m, _) in enumerate(insns + [(0, "", "")]):
        if m == "nop" and start is None:
            start = i
        elif m != "nop" and start is not None:
            runs.append((i - start, start, i - 1))
            start = None
    length, first, last = max(runs)
    assert length == 1000, f"nop1000's body is 1000 nops in a row (found {length})"
    before, after = insns[first - 1], insns[last + 1]
    for _, mnem, ops in (before, after):
        assert mnem.startswith("ldr"), f"expected a counter load next to the nops, got {mnem} {ops}"
    base = re.search(r"\[(\w+)", before[2]).group(1)
    assert re.search(r"\[(\w+)", after[2]).group(1) == base, "both loads read the same register"
    return before[0], after[0]


insns = disasm.function(OBJDUMP, ELF, "bench_nop1000")
read_a, read_b = counter_reads(insns)
image = Elf32(ELF)
cb, _ = image.symbol("br_control_block")
req = image.read_u32(cb + CB_OFFSET_STATE_ADDRESS)

script = f"""
set pagination off
set confirm off
target remote | {QEMU} -M netduinoplus2 -icount shift=0 -display none -monitor none -serial null -S -gdb stdio -kernel {ELF}
break br_host_sync
continue
set {{unsigned int}}{req + REQ_BENCH:#x} = {NOP1000_INDEX}
set {{unsigned int}}{req + REQ_ITER:#x} = 3
set {{unsigned int}}{req + REQ_WARMUP:#x} = 0
set {{unsigned int}}{req + REQ_COUNTER:#x} = {TIM2_CNT:#x}
set {{unsigned int}}{req + REQ_MASK:#x} = 0xffffffff
set {{unsigned int}}{req + REQ_FLAGS:#x} = 0
set {{unsigned int}}{req + REQ_SEQ:#x} = {{unsigned int}}{req + REQ_SEQ:#x} + 1
delete
break *{read_a:#x}
break *{read_b:#x}
continue
printf "ORACLE A %u\\n", *(unsigned int *){TIM2_CNT:#x}
continue
printf "ORACLE B %u\\n", *(unsigned int *){TIM2_CNT:#x}
kill
"""
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "oracle.gdb")
    with open(path, "w") as f:
        f.write(script)
    g = subprocess.run([GDB, "-nx", "-batch", "-x", path, ELF], capture_output=True, text=True,
                       timeout=60)
    a = re.search(r"ORACLE A (\d+)", g.stdout)
    b = re.search(r"ORACLE B (\d+)", g.stdout)
    if not (a and b):
        print(g.stdout, g.stderr)
        sys.exit("gdb did not report both counter readings")
    oracle = int(b.group(1)) - int(a.group(1))

    out = os.path.join(tmp, "run.json")
    p = subprocess.run([BENCHRACK, "run", "-n", "10", "--json", out, ELF], capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    with open(out) as f:
        bench = next(b for b in json.load(f)["benches"] if b["name"] == "nop1000")

print(f"gdb-multiarch: TIM2_CNT {a.group(1)} at {read_a:#x}, {b.group(1)} at {read_b:#x}: delta {oracle}")
print(f"benchrack:     nop1000 median {bench['median']} (min {bench['min']}, max {bench['max']})")
ok = oracle == bench["median"] == bench["min"] == bench["max"] and oracle > 1000
print("ok" if ok else "FAIL: the controller and gdb disagree")
sys.exit(0 if ok else 1)
