#!/usr/bin/env python3
"""Exact instruction counts of the suite image under QEMU, gdb-multiarch as host.

Independent of the controller: gdb-multiarch drives a QEMU it starts over a
pipe (`target remote | qemu ... -gdb stdio`), breaks at br_host_sync, writes
requests into br_control_state by symbol and reads the results back. Two
exact counters, as the build's board has (tests/lib/test_board.py):
  - tim2 (the netduinos): TIM2_CNT advances exactly once per guest
    instruction (`-icount shift=0`); the stub's own samples are the counts;
  - icount (every other machine): QEMU in record mode; the request names the
    stub's watch word (br_control_state.result.count) as its counter, gdb
    sets a read watchpoint on it, and at each stop reads QEMU's own count
    (`monitor info replay`): an iteration's count is the difference between
    the stops at its two counter reads. At each stop gdb also writes the
    value the next read will see (STEP more each read), so the stub's own
    deltas test its arithmetic: STEP up, -STEP down, masked to 24 bits.
    Each sample costs two stops: fewer iterations there. The request of
    max_samples is run with no watchpoint (2 x max_samples stops otherwise):
    its samples are deltas of an unchanging word, 0 each.
Checks:
  - the constant control block against stub/include/benchrack/control_block.h
    (magic, version; size against the compiled type), max_samples against the
    image's br_ld_sample_count, and the bench names (read through its bench
    table) in the expected order;
  - every bench: status OK, count, min == max over the samples, a plausible
    stack depth; no heap use, except malloc_free (peak one slot, none live,
    one allocation per iteration) and malloc_leak (one slot live: a leak);
  - empty's count is a small constant > 0 (the loop's own overhead, at most
    --empty-overhead-goal);
  - nop1000's count is exactly empty's + 1000;
  - crc32_256 - crc32_64 is exactly 192 times the instructions of one pass of
    crc32_ieee_update's loop, counted in the disassembly;
  - crc32_ieee_update computes CRC-32/IEEE (compared with Python's zlib on the
    image's own input bytes);
  - a down-counter and a 24-bit mask negate and mask the deltas (TIM2: of
    empty's count; icount: of the STEP gdb writes);
  - invalid requests get BAD_BENCH, BAD_COUNT, NO_COUNTER and run nothing;
  - the stub's own stack: from the top of the stack region down to the SP at
    which the runner calls a bench (gdb stops at bench_empty's first
    instruction) is within --stub-stack-budget bytes.

Usage: qemu_counts.py --gdb GDB --qemu QEMU --machine M --objdump OBJDUMP
                      --contract control_block.h --heap-pool heap_pool.h
                      --counter-address ADDR
                      --stack-size BYTES --stub-stack-budget BYTES
                      --empty-overhead-goal INSTRUCTIONS
                      --benches empty,nop1000,crc32_64,crc32_256 SUITE_ELF
Exit status 0 when every check holds, 1 otherwise.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
from objdump_symbols import symbol_value  # noqa: E402
import test_board  # noqa: E402

RESULT_FIELDS = ("seq", "status", "bench_index", "count", "stack_bytes",
                 "heap_peak", "heap_live", "heap_allocs")
# Numeric macros and enumerators of the contract header: NAME 123U or NAME = 1U.
CONTRACT_CONSTANT = re.compile(r"^\s*(?:#define\s+(BR_CB_\w+)\s+|(BR_CB_\w+)\s*=\s*)"
                               r"(0x[0-9A-Fa-f]+|\d+)U\b", re.M)

FULL_MASK = 0xFFFFFFFF
SYSTICK_MASK = 0x00FFFFFF       # a 24-bit counter's width
ICOUNT = test_board.counter() == "icount"
# Two watchpoint stops a sample on icount: as many as the checks need.
ITERATIONS = 6 if ICOUNT else 16
WARMUP = 2 if ICOUNT else 3
WATCH_WORD = "br_control_state.result.count"
STEP = 7                        # what gdb adds to the watch word at each read (icount)
ICOUNT_LINE = re.compile(r"instruction count = (\d+)")
NOP_COUNT = 1000
CRC_SHORT, CRC_LONG = 64, 256   # message lengths of crc32_64 and crc32_256
GDB_TIMEOUT_S = 120

# objdump -d --no-show-raw-insn lines: "addr:\tmnemonic\toperands".
INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s+([a-z][a-z0-9.]*)\s*(.*)$")
BRANCH_TARGET = re.compile(r"(?:^|,\s*)([0-9a-f]+)\s*(?:<|$)")
CONDITIONS = ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge",
              "lt", "gt", "le")


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
        self.samples = []    # the stub's own deltas, from its sample buffer
        self.icount = None   # icount: each iteration's count from QEMU at the watch stops
        self.watched = False  # icount: a read watchpoint on the watch word while it runs
        self.stop_at = None  # a function to stop at once on the way (its first instruction)


def size_bytes(text):
    """A linker-script size ("8K", "1M", "4096") in bytes."""
    scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:].upper(), 1)
    return int(text[:-1] if scale != 1 else text, 0) * scale


def contract_constants(header):
    """{name: value} of the numeric constants of control_block.h."""
    with open(header, encoding="utf-8") as source:
        text = source.read()
    return {m.group(1) or m.group(2): int(m.group(3), 0) for m in CONTRACT_CONSTANT.finditer(text)}


def heap_slot_bytes(header):
    """HEAP_POOL_SLOT_BYTES of benches/heap_pool.h: what one allocation holds."""
    with open(header, encoding="utf-8") as source:
        match = re.search(r"#define\s+HEAP_POOL_SLOT_BYTES\s+(\d+)U", source.read())
    if match is None:
        raise SystemExit(f"FAIL: no HEAP_POOL_SLOT_BYTES in {header}")
    return int(match.group(1))


def watched_stops(request):
    """The watch stops of a watched request: two counter reads an iteration."""
    return 2 * (request.warmup + request.iterations)


def watch_lines(request):
    """gdb commands that run a watched request's loop: at each stop QEMU's
    count is printed and the watch word set STEP higher for the next read."""
    return ["set $br_k = 0",
            f"while $br_k < {watched_stops(request)}",
            "continue", "monitor info replay",
            f"set var {WATCH_WORD} = ($br_k + 1) * {STEP}",
            "set $br_k = $br_k + 1", "end"]


def gdb_script(args, requests):
    """The gdb command file: connect, then one block per request."""
    qemu = (f"{args.qemu} -M {args.machine} -icount {test_board.qemu_icount(args.record_dir)} "
            f"-display none -serial null -monitor none -S -gdb stdio -kernel {args.elf}")
    lines = ["set pagination off", "set confirm off", "set width 0",
             f"file {args.elf}", f"target remote | {qemu}",
             "break br_host_sync", "continue",
             'printf "HEADER %u %u %u %u %u %u\\n", br_control_block.magic, '
             "br_control_block.version, br_control_block.size, sizeof(br_control_block), "
             "br_control_block.bench_count, br_control_block.max_samples"]
    for index in range(len(args.benches)):
        lines.append(f'printf "NAME {index} %s\\n", '
                     f"((const br_suite_entry_t *)br_control_block.bench_table)[{index}].name")
    watching = False
    for seq, request in enumerate(requests, start=1):
        block = "br_control_state.request"
        if request.watched != watching:
            lines += [f"rwatch *(unsigned int *)&{WATCH_WORD}"] if request.watched else [
                "delete", "break br_host_sync"]
            watching = request.watched
        lines += [f"set var {block}.bench_index = {request.bench_index}",
                  f"set var {block}.iterations = {request.iterations}",
                  f"set var {block}.warmup = {request.warmup}",
                  f"set var {block}.counter_address = {request.address}",
                  f"set var {block}.counter_mask = {request.mask}",
                  f"set var {block}.counter_flags = {request.flags}",
                  f"set var {block}.seq = {seq}"]
        if request.stop_at is not None:
            lines += [f"tbreak *{request.stop_at}", "continue",
                      'printf "STUBSTACK %u\\n", '
                      "(unsigned int)&br_ld_stack_top - (unsigned int)$sp"]
        if request.watched:
            lines += watch_lines(request)
        lines += ["continue",
                  f'printf "RESULT {seq} ' + " ".join(["%u"] * len(RESULT_FIELDS)) + '\\n", '
                  + ", ".join(f"br_control_state.result.{f}" for f in RESULT_FIELDS)]
        if 0 < request.iterations <= args.max_samples:
            lines += [f'echo SAMPLES {seq}\\n',
                      f"x/{request.iterations}uw br_control_block.samples_address",
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


def parse_icount(output, requests):
    """Each watched request's per-iteration counts, from QEMU's counts at its
    watch stops (in request order); False when their number is not right."""
    counts = [int(v) for v in ICOUNT_LINE.findall(output)]
    watched = [r for r in requests if r.watched]
    if len(counts) != sum(watched_stops(r) for r in watched):
        return False
    for request in watched:
        stops, counts = counts[:watched_stops(request)], counts[watched_stops(request):]
        request.icount = [stops[2 * i + 1] - stops[2 * i]
                          for i in range(request.warmup, request.warmup + request.iterations)]
    return True


def parse(output, requests):
    """Fill requests from gdb's output; return (header, names, crcs, input bytes)."""
    header, names, crcs, message = None, {}, {}, []
    header_extra = {}
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
        if fields[0] == "STUBSTACK":
            header_extra["stub_stack"] = int(fields[1])
        elif fields[0] == "HEADER":
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
    return header, names, crcs, message, header_extra


def disassembly(objdump, elf, function):
    """[(address, mnemonic without width suffix, operands)] of function."""
    listing = subprocess.run([objdump, "-d", "--no-show-raw-insn", f"--disassemble={function}",
                              elf], check=True, capture_output=True, text=True).stdout
    instructions = []
    for line in listing.splitlines():
        match = INSTRUCTION.match(line)
        if match and not match.group(2).startswith("."):
            mnemonic = match.group(2).removesuffix(".n").removesuffix(".w")
            instructions.append((int(match.group(1), 16), mnemonic, match.group(3)))
    return instructions


def successors(instructions, position):
    """Positions control can go to after instructions[position] (Thumb subset:
    b, b<cond>, cbz/cbnz, returns by pop {..pc} or bx lr)."""
    address, mnemonic, operands = instructions[position]
    following = [position + 1] if position + 1 < len(instructions) else []
    if mnemonic == "bx" or (mnemonic in ("pop", "ldmia") and "pc" in operands):
        return []
    target = BRANCH_TARGET.search(operands)
    is_branch = mnemonic in ("cbz", "cbnz") or mnemonic == "b" or (
        mnemonic.startswith("b") and mnemonic[1:] in CONDITIONS)
    if not is_branch or target is None:
        return following
    where = [i for i, (a, _, _) in enumerate(instructions) if a == int(target.group(1), 16)]
    return where + ([] if mnemonic == "b" else following)


def loop_instructions(objdump, elf, function, calls=False):
    """Instructions executed by one pass of function's loop: the number on the
    control-flow cycle through its only backward branch (a call on it counted
    as its one bl). The function must have exactly one loop, with one path
    through it (a branch-free body), and call nothing inside it unless CALLS."""
    instructions = disassembly(objdump, elf, function)
    back_edges = [(p, s) for p in range(len(instructions)) for s in successors(instructions, p)
                  if s <= p]
    if len(back_edges) != 1:
        raise SystemExit(f"FAIL: {function} should have one loop; back edges: "
                         f"{[hex(instructions[p][0]) for p, _ in back_edges]}")
    branch, head = back_edges[0]
    paths = []

    def walk(position, path):
        if position == branch:
            paths.append(path + [position])
            return
        for nxt in successors(instructions, position):
            if head <= nxt <= branch and nxt > position:
                walk(nxt, path + [position])

    walk(head, [])
    if len(paths) != 1:
        raise SystemExit(f"FAIL: {function}'s loop has {len(paths)} paths, not 1")
    called = [instructions[p] for p in paths[0] if instructions[p][1] in ("bl", "blx")]
    if called and not calls:
        raise SystemExit(f"FAIL: {function}'s loop calls {called}")
    return len(paths[0])


def run_gdb(gdb, script):
    """Run gdb on script in a process group of its own (gdb and the QEMU it
    starts); on timeout, end that group so that no QEMU outlives the test."""
    process = subprocess.Popen([gdb, "-nx", "-batch", "-x", script], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        return process.communicate(timeout=GDB_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        return stdout, stderr + f"\nFAIL: gdb timed out after {GDB_TIMEOUT_S} s\n"


class Checker:
    """Collects failed checks; prints every check."""

    def __init__(self):
        self.failures = 0

    def check(self, condition, message):
        print(("ok   " if condition else "FAIL ") + message)
        if not condition:
            self.failures += 1
        return condition


def constant(checker, request, status_ok):
    """The one value of request's counts (its samples on TIM2, QEMU's counts
    at its watch stops on icount), after checking the result; on icount, the
    stub's own deltas are checked to be STEP (up) or what DELTA says."""
    result = request.result
    samples = request.icount if request.watched else request.samples
    name = request.label
    if request.watched and samples is None:
        checker.check(False, f"{name}: QEMU's count read at every watch stop")
        return None
    if not checker.check(result is not None, f"{name}: result read"):
        return None
    checker.check(result["status"] == status_ok, f"{name}: status {result['status']} == OK")
    checker.check(result["count"] == request.iterations,
                  f"{name}: count {result['count']} == {request.iterations}")
    checker.check(len(samples) == request.iterations, f"{name}: {len(samples)} samples read")
    if not samples:
        return None
    low, high = min(samples), max(samples)
    checker.check(low == high, f"{name}: min {low} == max {high}")
    if request.watched and request.flags == 0 and request.mask == FULL_MASK:
        checker.check(request.samples == [STEP] * request.iterations,
                      f"{name}: the stub's own deltas of the watch word are {STEP} "
                      f"({sorted(set(request.samples))})")
    return low


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--gdb", required=True)
    parser.add_argument("--qemu", required=True)
    parser.add_argument("--machine", required=True)
    parser.add_argument("--objdump", required=True)
    parser.add_argument("--contract", required=True, help="control_block.h")
    parser.add_argument("--heap-pool", required=True, help="benches/heap_pool.h (slot size)")
    parser.add_argument("--counter-address", required=True, type=lambda v: int(v, 0))
    parser.add_argument("--stack-size", required=True, type=size_bytes,
                        help="bytes, or with a K or M suffix as in a linker script")
    parser.add_argument("--stub-stack-budget", required=True, type=int,
                        help="bytes the runner's own frames may take below the stack top")
    parser.add_argument("--empty-overhead-goal", type=int, default=4,
                        help="instructions the empty loop body may cost")
    parser.add_argument("--benches", required=True, type=lambda v: v.split(","),
                        help="the suite's bench names, in suite order")
    parser.add_argument("elf")
    args = parser.parse_args()
    print(f"board {test_board.NAME}: counter {test_board.counter()}, {ITERATIONS} iterations, "
          f"{WARMUP} warm-up")

    c = contract_constants(args.contract)
    args.max_samples = symbol_value(args.objdump, args.elf, "br_ld_sample_count")
    if args.max_samples is None:
        raise SystemExit(f"FAIL: {args.elf} has no br_ld_sample_count: not built with the stub")
    not_measured = c["BR_CB_NOT_MEASURED"]
    status_ok = c["BR_CB_STATUS_OK"]
    index = {name: i for i, name in enumerate(args.benches)}
    for needed in ("empty", "nop1000", "crc32_64", "crc32_256"):
        if needed not in index:
            raise SystemExit(f"FAIL: the suite has no bench {needed}")
    counter = f"(unsigned int)&{WATCH_WORD}" if ICOUNT else args.counter_address
    empty_index = index["empty"]
    benches = [Request(name, index[name], ITERATIONS, address=counter) for name in args.benches]
    benches[empty_index].stop_at = "bench_empty"
    no_warmup = Request("empty, no warm-up, max samples", empty_index, args.max_samples,
                        warmup=0, address=counter)
    down = Request("empty as a down-counter", empty_index, ITERATIONS, address=counter,
                   flags=c["BR_CB_COUNTER_DOWN"])
    down24 = Request("empty as a 24-bit down-counter", empty_index, ITERATIONS,
                     address=counter, mask=SYSTICK_MASK, flags=c["BR_CB_COUNTER_DOWN"])
    invalid = [
        (Request("bench index = bench_count", len(args.benches), ITERATIONS, address=counter),
         c["BR_CB_STATUS_BAD_BENCH"]),
        (Request("0 iterations", empty_index, 0, address=counter), c["BR_CB_STATUS_BAD_COUNT"]),
        (Request("max + 1 iterations", empty_index, args.max_samples + 1, address=counter),
         c["BR_CB_STATUS_BAD_COUNT"]),
        (Request("counter address 0", empty_index, ITERATIONS, address=0),
         c["BR_CB_STATUS_NO_COUNTER"]),
    ]
    for request in benches + [down, down24]:
        request.watched = ICOUNT
    requests = benches + [down, down24, no_warmup] + [r for r, _ in invalid]

    with tempfile.TemporaryDirectory() as record_dir, \
            tempfile.NamedTemporaryFile("w", suffix=".gdb") as script:
        args.record_dir = record_dir
        script.write(gdb_script(args, requests))
        script.flush()
        stdout, stderr = run_gdb(args.gdb, script.name)
    header, names, crcs, message, extra = parse(stdout, requests)
    checker = Checker()
    if ICOUNT and not checker.check(parse_icount(stdout + "\n" + stderr, requests),
                                    "QEMU's count read at every watch stop"):
        print(stdout + stderr)
    if not checker.check(header is not None, f"{args.elf}: control block header read"):
        print(stdout + stderr)
        return 1

    stub_stack = extra.get("stub_stack")
    checker.check(stub_stack is not None and stub_stack <= args.stub_stack_budget,
                  f"the stub's own stack at a bench call: {stub_stack} bytes "
                  f"(budget {args.stub_stack_budget})")
    magic, version, size, type_size, bench_count, max_samples = header
    checker.check(magic == c["BR_CB_MAGIC"], f"magic {magic:#x}")
    checker.check(version == c["BR_CB_VERSION"], f"version {version}")
    checker.check(size == type_size, f"size {size} == sizeof(br_control_block) {type_size}")
    checker.check(max_samples == args.max_samples, f"max_samples {max_samples}")
    checker.check(bench_count == len(args.benches), f"bench_count {bench_count}")
    found = [names.get(i) for i in range(len(args.benches))]
    checker.check(found == args.benches, f"bench names in suite order: {found}")

    counts = {}
    slot = heap_slot_bytes(args.heap_pool)
    heap_expected = {
        # One slot taken and given back per iteration (warm-up included).
        "malloc_free": (slot, 0, WARMUP + ITERATIONS),
        # The same, but the last block is never freed: one slot live, a leak.
        "malloc_leak": (slot, slot, WARMUP + ITERATIONS),
    }
    for request in benches:
        counts[request.label] = constant(checker, request, status_ok)
        result = request.result or {}
        stack = result.get("stack_bytes", not_measured)
        checker.check(0 < stack < args.stack_size, f"{request.label}: stack {stack} bytes")
        heap = (result.get("heap_peak"), result.get("heap_live"), result.get("heap_allocs"))
        want = heap_expected.get(request.label, (0, 0, 0))
        checker.check(heap == want, f"{request.label}: heap peak/live/allocs {heap} == {want}")
    print("per-iteration counts: " + ", ".join(f"{k} {v}" for k, v in counts.items()))

    empty = counts["empty"]
    if empty is not None:
        checker.check(0 < empty <= args.empty_overhead_goal,
                      f"empty loop overhead {empty} in 1..{args.empty_overhead_goal}")
        checker.check(counts["nop1000"] == empty + NOP_COUNT,
                      f"nop1000 {counts['nop1000']} == empty {empty} + {NOP_COUNT}")
        # icount: the word the stub reads does not change without the
        # watchpoint (its deltas 0), and gdb's STEP is what it negates.
        checker.check(constant(checker, no_warmup, status_ok) == (0 if ICOUNT else empty),
                      f"no warm-up, {args.max_samples} samples: same count"
                      + (" (the unwatched word's delta, 0)" if ICOUNT else ""))
        for request, mask, what in ((down, FULL_MASK, "down-counter delta is start - end"),
                                    (down24, SYSTICK_MASK, "24-bit down-counter delta is masked")):
            count = constant(checker, request, status_ok)
            if ICOUNT:  # the count is QEMU's; the stub's deltas are of gdb's STEP
                checker.check(count == empty and request.samples ==
                              [(-STEP) & mask] * request.iterations,
                              f"{what}: {sorted(set(request.samples))} == -{STEP} & {mask:#x} "
                              f"(count {count} == empty {empty})")
            else:
                checker.check(count == (-empty) & mask, f"{what}: {count}")

    per_byte = loop_instructions(args.objdump, args.elf, "crc32_ieee_update")
    # The two benches' loops differ only in the length they pass: one
    # instruction (movs) where it fits in 8 bits, more where it does not
    # (Thumb-1: 256 is movs and lsls). Their loops' lengths say by how much.
    call_site = (loop_instructions(args.objdump, args.elf, f"bench_crc32_{CRC_LONG}", calls=True)
                 - loop_instructions(args.objdump, args.elf, f"bench_crc32_{CRC_SHORT}",
                                     calls=True))
    if counts["crc32_64"] is not None and counts["crc32_256"] is not None:
        difference = counts["crc32_256"] - counts["crc32_64"]
        checker.check(difference == (CRC_LONG - CRC_SHORT) * per_byte + call_site,
                      f"crc32_256 - crc32_64 = {difference} == {CRC_LONG - CRC_SHORT} x "
                      f"{per_byte} instructions per byte + {call_site} (the length passed)")
    checker.check(len(message) == CRC_LONG, f"{len(message)} input bytes read")
    for length in (CRC_SHORT, CRC_LONG):
        expected = zlib.crc32(message[:length])
        checker.check(crcs.get(length) == expected,
                      f"crc32_ieee_update over {length} bytes = {crcs.get(length)} "
                      f"(zlib {expected})")

    for request, status in invalid:
        result = request.result or {}
        checker.check(result.get("status") == status and result.get("count") == 0
                      and result.get("stack_bytes") == not_measured,
                      f"{request.label}: status {result.get('status')} == {status}, nothing run")

    if checker.failures:
        print(stdout + stderr)
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
