#!/usr/bin/env python3
"""Heap and size figures of stub benches through `benchrack measure` on the
build's QEMU board (`--board NAME`, tests/lib/test_board.py):
- malloc_free (one allocation and its release per iteration, through the
  benches' pool allocator wrapped by the stub's hooks): peak exactly one
  slot, nothing live, one allocation per iteration, warm-up included; no
  leak reported;
- malloc_leak (the last block is never freed): one slot live at the end,
  reported as a LEAK in the text and as "leak": true in JSON;
- sizes: a bench's size is its image's text/data/bss less the empty bench's
  image's: nop1000 adds its 1000 two-byte nops (plus alignment); --sizes
  lists bench_nop1000 among the functions the empty image lacks; the ELF's
  own sizes equal arm-none-eabi-size's.

usage: test_measure_heap_size.py BENCHRACK SIZE SUITE_ELF HEAP_POOL_H
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from measure_cli import Checks, measure  # noqa: E402
import test_board  # noqa: E402

BENCHRACK, SIZE, SUITE, HEAP_POOL = sys.argv[1:5]
# Under icount each stub sample costs two halts: fewer there.
N, WARMUP = test_board.samples(30, 8), 2
BOARD = ("--board", test_board.NAME)
NOPS, NOP_BYTES, ALIGN_SLACK = 1000, 2, 8
c = Checks()

with open(HEAP_POOL, encoding="utf-8") as f:
    slot = int(re.search(r"#define\s+HEAP_POOL_SLOT_BYTES\s+(\d+)U", f.read()).group(1))

rc, out, err, res = measure(BENCHRACK, SUITE, *BOARD, "--bench", "malloc_free", "-n", str(N), "-w",
                            str(WARMUP))
c.show(out, err)
heap = res["heap"] if res else {}
c.check(rc == 0, f"malloc_free exits 0 (got {rc})")
c.check(heap.get("peak") == slot, f"malloc_free: peak {heap.get('peak')} == one {slot}-byte slot")
c.check(heap.get("live") == 0 and heap.get("leak") is False, "malloc_free: nothing live, no leak")
c.check(heap.get("allocations") == N + WARMUP,
        f"malloc_free: {heap.get('allocations')} allocations == {N} iterations + {WARMUP} warm-up")
c.check("LEAK" not in out, "no leak reported")

rc, out, err, res = measure(BENCHRACK, SUITE, *BOARD, "--bench", "malloc_leak", "-n", str(N), "-w",
                            str(WARMUP))
c.show(out, err)
heap = res["heap"] if res else {}
c.check(rc == 0, f"malloc_leak exits 0: a leak is a finding, not a failure (got {rc})")
c.check(heap.get("live") == slot and heap.get("leak") is True,
        f"malloc_leak: {heap.get('live')} bytes live == one slot: a leak")
c.check(heap.get("peak") == slot, "malloc_leak: peak one slot (it frees the previous block first)")
c.check("LEAK" in out, "the report says LEAK")

rc, out, err, res = measure(BENCHRACK, SUITE, *BOARD, "--bench", "nop1000", "-n", "5", "--sizes")
c.show(out, err)
c.check(rc == 0, f"nop1000 --sizes exits 0 (got {rc})")
delta = res["bench_size"] if res else None
c.check(delta is not None and NOPS * NOP_BYTES <= delta["text"] <= NOPS * NOP_BYTES + ALIGN_SLACK
        and delta["data"] == 0 and delta["bss"] == 0,
        f"nop1000's size against the empty bench: {delta and delta['text']} bytes of text "
        f"== {NOPS} nops x {NOP_BYTES} (+ up to {ALIGN_SLACK} of alignment)")
names = [s["name"] for s in res["symbols"]] if res else []
c.check("bench_nop1000" in names and "bench_empty" not in names,
        f"--sizes lists the bench's own functions: {names}")
berkeley = subprocess.run([SIZE, SUITE], check=True, capture_output=True,
                          text=True).stdout.splitlines()[1].split()
c.check(res is not None and [res["size"]["text"], res["size"]["data"], res["size"]["bss"]]
        == [int(v) for v in berkeley[:3]],
        f"the ELF's text/data/bss {res and res['size']} == arm-none-eabi-size {berkeley[:3]}")

sys.exit(c.finish())
