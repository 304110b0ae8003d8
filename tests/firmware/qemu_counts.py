#!/usr/bin/env python3
"""Exact instruction counts of the suite image under QEMU, gdb-multiarch as host.

Independent of the controller: gdb-multiarch drives a QEMU it starts over a
pipe (`target remote | qemu ... -gdb stdio`), breaks at br_host_sync, writes
requests into br_control_block by symbol and reads the results back. On the
emulated board TIM2_CNT advances exactly once per guest instruction
(`-icount shift=0`), so every count below is exact. Checks:
  - the header: magic, version, size, max_samples, and the bench names in the
    expected order;
  - every bench: status OK, count, min == max over the samples, a plausible
    stack depth, no heap use;
  - empty's count is a small constant > 0 (the loop's own overhead);
  - nop1000's count is exactly empty's + 1000;
  - crc32_256 - crc32_64 is exactly 192 times the instructions of one pass of
    crc32_ieee_update's loop, counted in the disassembly;
  - crc32_ieee_update computes CRC-32/IEEE (compared with Python's zlib on the
    image's own input bytes);
  - a down-counter and a 24-bit mask negate and mask the deltas;
  - invalid requests get BAD_BENCH, BAD_COUNT, NO_COUNTER and run nothing.

Usage: qemu_counts.py --gdb GDB --qemu QEMU --machine M --objdump OBJDUMP
                      --counter-address ADDR --stack-size BYTES
                      --benches empty,nop1000,crc32_64,crc32_256 SUITE_ELF
Exit status 0 when every check holds, 1 otherwise.
"""

import argparse
import re
import subprocess
import sys
import tempfile
import zlib

# From stub/include/benchrack/control_block.h (the contract under test).
BR_CB_MAGIC = 0x42524342
BR_CB_VERSION = 1
BR_CB_SIZE = 4960
BR_CB_MAX_SAMPLES = 1024
BR_CB_NOT_MEASURED = 0xFFFFFFFF
BR_CB_COUNTER_DOWN = 0x1
STATUS_OK, STATUS_BAD_BENCH, STATUS_BAD_COUNT, STATUS_NO_COUNTER = 1, 2, 3, 4
RESULT_FIELDS = ("seq", "status", "bench_index", "count", "stack_bytes",
                 "heap_peak", "heap_live", "heap_allocs")

FULL_MASK = 0xFFFFFFFF
SYSTICK_MASK = 0x00FFFFFF       # a 24-bit counter's width
ITERATIONS = 16
WARMUP = 3
EMPTY_OVERHEAD_GOAL = 4         # instructions the empty loop body may cost
NOP_COUNT = 1000
CRC_SHORT, CRC_LONG = 64, 256   # message lengths of crc32_64 and crc32_256
GDB_TIMEOUT_S = 120

BRANCH = re.compile(r"^\s*([0-9a-f]+):\s+(b[a-z]*|cbn?z)(?:\.[nw])?\s+(?:r\d+,\s*)?([0-9a-f]+)\s")
INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s+\S")


class Request:
    """One request written into the control block, and what came back."""

    def __init__(self, label, bench_index, iterations, warmup=WARMUP, address=None,
                 mask=FULL_MASK, flags=0):
        self.label = label
        self.bench_index = bench_index
        self.iterations = iterations
        self.warmup = warmup
        self.address = address
        self.mask = mask
        self.flags = flags
        self.result = None
        self.samples = []


def gdb_script(args, requests):
    """The gdb command file: connect, then one block per request."""
    qemu = (f"{args.qemu} -M {args.machine} -icount shift=0 -display none -serial null "
            f"-monitor none -S -gdb stdio -kernel {args.elf}")
    lines = ["set pagination off", "set confirm off", "set width 0",
             f"file {args.elf}", f"target remote | {qemu}",
             "break br_host_sync", "continue",
             'printf "HEADER %u %u %u %u %u\\n", br_control_block.magic, '
             "br_control_block.version, br_control_block.size, "
             "br_control_block.bench_count, br_control_block.max_samples"]
    for index in range(len(args.benches)):
        lines.append(f'printf "NAME {index} %s\\n", br_control_block.bench_names[{index}]')
    for seq, request in enumerate(requests, start=1):
        block = "br_control_block.request"
        lines += [f"set var {block}.bench_index = {request.bench_index}",
                  f"set var {block}.iterations = {request.iterations}",
                  f"set var {block}.warmup = {request.warmup}",
                  f"set var {block}.counter_address = {request.address}",
                  f"set var {block}.counter_mask = {request.mask}",
                  f"set var {block}.counter_flags = {request.flags}",
                  f"set var {block}.seq = {seq}",
                  "continue",
                  f'printf "RESULT {seq} ' + " ".join(["%u"] * len(RESULT_FIELDS)) + '\\n", '
                  + ", ".join(f"br_control_block.result.{f}" for f in RESULT_FIELDS)]
        if 0 < request.iterations <= BR_CB_MAX_SAMPLES:
            lines += [f'echo SAMPLES {seq}\\n',
                      f"x/{request.iterations}uw br_control_block.samples",
                      "echo END\\n"]
    lines += [f'printf "CRC {CRC_SHORT} %u\\n", crc32_ieee_update(0, crc32_input, {CRC_SHORT})',
              f'printf "CRC {CRC_LONG} %u\\n", crc32_ieee_update(0, crc32_input, {CRC_LONG})',
              "echo INPUT\\n", f"x/{CRC_LONG}xb crc32_input", "echo END\\n", "kill"]
    return "\n".join(lines) + "\n"


def examine_values(lines):
    """The values of gdb `x` output lines ("0x... <sym+off>:\\tv\\tv...")."""
    values = []
    for line in lines:
        values += [int(v, 0) for v in line.split(":", 1)[1].split()]
    return values


def parse(output, requests):
    """Fill requests from gdb's output; return (header, names, crcs, input bytes)."""
    header, names, crcs, message = None, {}, {}, []
    block, block_lines = None, []
    for line in output.splitlines():
        if block is not None:
            if line == "END":
                values = examine_values(block_lines)
                if block == "INPUT":
                    message = bytes(values)
                else:
                    requests[block - 1].samples = values
                block, block_lines = None, []
            else:
                block_lines.append(line)
            continue
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "HEADER":
            header = [int(v) for v in fields[1:]]
        elif fields[0] == "NAME":
            names[int(fields[1])] = fields[2] if len(fields) > 2 else ""
        elif fields[0] == "RESULT":
            requests[int(fields[1]) - 1].result = dict(
                zip(RESULT_FIELDS, (int(v) for v in fields[2:])))
        elif fields[0] == "SAMPLES":
            block = int(fields[1])
        elif fields[0] == "INPUT":
            block = "INPUT"
        elif fields[0] == "CRC":
            crcs[int(fields[1])] = int(fields[2])
    return header, names, crcs, message


def crc_loop_instructions(objdump, elf):
    """Instructions in one pass of crc32_ieee_update's loop: from the target of
    its only backward branch up to and including that branch."""
    listing = subprocess.run([objdump, "-d", "--no-show-raw-insn",
                              "--disassemble=crc32_ieee_update", elf],
                             check=True, capture_output=True, text=True).stdout
    addresses, backward = [], []
    for line in listing.splitlines():
        match = INSTRUCTION.match(line)
        if match:
            addresses.append(int(match.group(1), 16))
        branch = BRANCH.match(line)
        if branch and int(branch.group(3), 16) < int(branch.group(1), 16):
            backward.append((int(branch.group(3), 16), int(branch.group(1), 16)))
    if len(backward) != 1:
        raise SystemExit(f"FAIL: expected one loop in crc32_ieee_update, found backward "
                         f"branches {[(hex(a), hex(b)) for a, b in backward]}")
    target, branch = backward[0]
    return sum(1 for a in addresses if target <= a <= branch)


class Checker:
    """Collects failed checks; prints every check."""

    def __init__(self):
        self.failures = 0

    def check(self, condition, message):
        print(("ok   " if condition else "FAIL ") + message)
        if not condition:
            self.failures += 1
        return condition


def constant(checker, request):
    """The one value of request's samples, after checking the result."""
    result, samples = request.result, request.samples
    name = request.label
    if not checker.check(result is not None, f"{name}: result read"):
        return None
    checker.check(result["status"] == STATUS_OK, f"{name}: status {result['status']} == OK")
    checker.check(result["count"] == request.iterations,
                  f"{name}: count {result['count']} == {request.iterations}")
    checker.check(len(samples) == request.iterations, f"{name}: {len(samples)} samples read")
    if not samples:
        return None
    low, high = min(samples), max(samples)
    checker.check(low == high, f"{name}: min {low} == max {high}")
    return low


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--gdb", required=True)
    parser.add_argument("--qemu", required=True)
    parser.add_argument("--machine", required=True)
    parser.add_argument("--objdump", required=True)
    parser.add_argument("--counter-address", required=True, type=lambda v: int(v, 0))
    parser.add_argument("--stack-size", required=True, type=int)
    parser.add_argument("--benches", required=True, type=lambda v: v.split(","),
                        help="the suite's bench names, in suite order")
    parser.add_argument("elf")
    args = parser.parse_args()

    index = {name: i for i, name in enumerate(args.benches)}
    for needed in ("empty", "nop1000", "crc32_64", "crc32_256"):
        if needed not in index:
            raise SystemExit(f"FAIL: the suite has no bench {needed}")
    counter = args.counter_address
    benches = [Request(name, index[name], ITERATIONS, address=counter) for name in args.benches]
    no_warmup = Request("empty, no warm-up, max samples", index["empty"], BR_CB_MAX_SAMPLES,
                        warmup=0, address=counter)
    down = Request("empty as a down-counter", index["empty"], ITERATIONS, address=counter,
                   flags=BR_CB_COUNTER_DOWN)
    down24 = Request("empty as a 24-bit down-counter", index["empty"], ITERATIONS,
                     address=counter, mask=SYSTICK_MASK, flags=BR_CB_COUNTER_DOWN)
    invalid = [
        (Request("bench index = bench_count", len(args.benches), ITERATIONS, address=counter),
         STATUS_BAD_BENCH),
        (Request("0 iterations", index["empty"], 0, address=counter), STATUS_BAD_COUNT),
        (Request("max + 1 iterations", index["empty"], BR_CB_MAX_SAMPLES + 1, address=counter),
         STATUS_BAD_COUNT),
        (Request("counter address 0", index["empty"], ITERATIONS, address=0), STATUS_NO_COUNTER),
    ]
    requests = benches + [no_warmup, down, down24] + [r for r, _ in invalid]

    with tempfile.NamedTemporaryFile("w", suffix=".gdb") as script:
        script.write(gdb_script(args, requests))
        script.flush()
        run = subprocess.run([args.gdb, "-nx", "-batch", "-x", script.name],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=GDB_TIMEOUT_S, check=False)
    header, names, crcs, message = parse(run.stdout, requests)
    checker = Checker()
    if not checker.check(header is not None, f"{args.elf}: control block header read"):
        print(run.stdout + run.stderr)
        return 1

    magic, version, size, bench_count, max_samples = header
    checker.check(magic == BR_CB_MAGIC, f"magic {magic:#x}")
    checker.check(version == BR_CB_VERSION, f"version {version}")
    checker.check(size == BR_CB_SIZE, f"size {size}")
    checker.check(max_samples == BR_CB_MAX_SAMPLES, f"max_samples {max_samples}")
    checker.check(bench_count == len(args.benches), f"bench_count {bench_count}")
    found = [names.get(i) for i in range(len(args.benches))]
    checker.check(found == args.benches, f"bench names in suite order: {found}")

    counts = {}
    for request in benches:
        counts[request.label] = constant(checker, request)
        result = request.result or {}
        stack = result.get("stack_bytes", BR_CB_NOT_MEASURED)
        checker.check(0 < stack < args.stack_size, f"{request.label}: stack {stack} bytes")
        checker.check((result.get("heap_peak"), result.get("heap_live"),
                       result.get("heap_allocs")) == (0, 0, 0), f"{request.label}: no heap use")
    print("per-iteration counts: " + ", ".join(f"{k} {v}" for k, v in counts.items()))

    empty = counts["empty"]
    if empty is not None:
        checker.check(0 < empty <= EMPTY_OVERHEAD_GOAL,
                      f"empty loop overhead {empty} in 1..{EMPTY_OVERHEAD_GOAL}")
        checker.check(counts["nop1000"] == empty + NOP_COUNT,
                      f"nop1000 {counts['nop1000']} == empty {empty} + {NOP_COUNT}")
        checker.check(constant(checker, no_warmup) == empty, "no warm-up, 1024 samples: same count")
        checker.check(constant(checker, down) == (-empty) & FULL_MASK,
                      "down-counter delta is start - end")
        checker.check(constant(checker, down24) == (-empty) & SYSTICK_MASK,
                      "24-bit down-counter delta is masked")

    per_byte = crc_loop_instructions(args.objdump, args.elf)
    if counts["crc32_64"] is not None and counts["crc32_256"] is not None:
        difference = counts["crc32_256"] - counts["crc32_64"]
        checker.check(difference == (CRC_LONG - CRC_SHORT) * per_byte,
                      f"crc32_256 - crc32_64 = {difference} == {CRC_LONG - CRC_SHORT} x "
                      f"{per_byte} instructions per byte")
    checker.check(len(message) == CRC_LONG, f"{len(message)} input bytes read")
    for length in (CRC_SHORT, CRC_LONG):
        expected = zlib.crc32(message[:length])
        checker.check(crcs.get(length) == expected,
                      f"crc32_ieee_update over {length} bytes = {crcs.get(length)} "
                      f"(zlib {expected})")

    for request, status in invalid:
        result = request.result or {}
        checker.check(result.get("status") == status and result.get("count") == 0
                      and result.get("stack_bytes") == BR_CB_NOT_MEASURED,
                      f"{request.label}: status {result.get('status')} == {status}, nothing run")

    if checker.failures:
        print(run.stdout + run.stderr)
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
