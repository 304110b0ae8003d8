#!/usr/bin/env python3
"""Benchmark of a region longer than a 32-bit counter's period on the
user's path: `benchrack measure ELF --board B --from long_from --to long_to`
end to end (benchrack launches its QEMU, as a user runs it), on two
machines in the same run (issue 29):

- netduinoplus2 with its board's counter, TIM2 (32 bits, one tick per
  instruction): the region crosses the period, so benchrack takes guard
  halts to see each wrap;
- lm3s6965evb (not an STM32) with its board's counter, icount (QEMU's own
  64-bit instruction count): no wrap, no guard halt.

The region (tests/machines/fw_machine.S -DLONG_REGION, linked for each
machine with its own vector table and memory map): two calls of a
2-instruction loop, 1.1e9 iterations each in full (4.4e9 instructions),
1e7 in smoke mode. The oracle of the count is QEMU's own execution trace
(tests/lib/qemu_trace.py) of two small variants of the same code on each
machine (the iterations given on the command line): the count is linear in
the iterations by construction, so the two traced counts give the line and
the region's count is read off it. Every sample must be exactly that.

Per run: wall time, CPU time (benchrack's and, through it, its QEMU's:
wait4's rusage holds the children it waited for), halts (guard halts
among them). Rounds alternate the order of the two machines; each figure is
the median over the rounds, and the ratios icount / TIM2 are taken within
each round (the machine is shared: the two runs of one round are minutes
apart at most). No goal: the figures are printed. Exit 1 only when a run
fails or a count is not exact (bench_mode.finish).

usage: bench_long_region.py BENCHRACK QEMU OBJDUMP
           (MACHINE BOARD FULL_N FULL_ELF SMOKE_N SMOKE_ELF TRACE1_N TRACE1_ELF
            TRACE2_N TRACE2_ELF)...   [--smoke]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import bench_mode  # noqa: E402  (takes --smoke out of argv)
from objdump_symbols import symbol_value  # noqa: E402
from qemu_trace import region_count, run_trace  # noqa: E402

BENCHRACK, QEMU, OBJDUMP = sys.argv[1:4]
ROUNDS = bench_mode.rounds(3)
COUNTER_PERIOD = 2 ** 32
# The full region runs some minutes of QEMU on a loaded host.
MEASURE_TIMEOUT_S = 1500
TRACE_BYTES, TRACE_WAIT_S = 4_000_000, 60
REGION = ["--from", "long_from", "--to", "long_to"]
# What each machine's counter must be, and whether it needs guard halts.
COUNTERS = {"qemu-netduinoplus2": ("tim2", True), "qemu-lm3s6965evb": ("icount", False)}


def machines():
    """The machines of the command line: name, board, and its variants as
    {variant: (iterations, elf)}."""
    rest = sys.argv[4:]
    out = []
    while rest:
        name, board, fields, rest = rest[0], rest[1], rest[2:10], rest[10:]
        variants = {}
        for i, variant in enumerate(("full", "smoke", "trace1", "trace2")):
            variants[variant] = (int(fields[2 * i]), fields[2 * i + 1])
        out.append((name, board, variants))
    return out


def traced(machine, elf):
    """The region's count in QEMU's execution trace of elf on machine."""
    start, end = (symbol_value(OBJDUMP, elf, n) & ~1 for n in ("long_from", "long_to"))
    return region_count(run_trace(QEMU, machine, elf, TRACE_BYTES, TRACE_WAIT_S), start, end)


def oracle(machine, variants, n):
    """The region's count at n iterations: the line through the two traced
    variants' counts (None when a trace holds no pass of the region, or
    the two give no whole number of instructions per iteration)."""
    (n1, elf1), (n2, elf2) = variants["trace1"], variants["trace2"]
    c1, c2 = traced(machine, elf1), traced(machine, elf2)
    print(f"  {machine}: QEMU trace {c1} instructions at {n1} iterations, {c2} at {n2}")
    if c1 == 0 or c2 == 0 or (c2 - c1) % (n2 - n1) != 0:
        return None
    per_iteration = (c2 - c1) // (n2 - n1)
    return c1 + per_iteration * (n - n1)


def measure(board, elf):
    """(wall s, CPU s, result JSON, output) of one `benchrack measure` of
    the region on board, benchrack launching its QEMU; result None when it
    failed."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.json")
        with tempfile.TemporaryFile("w+") as out:
            t0 = time.monotonic()
            p = subprocess.Popen([BENCHRACK, "measure", elf, "--board", board, *REGION, "-n", "1",
                                  "--timeout", str(MEASURE_TIMEOUT_S), "--json", path],
                                 stdout=out, stderr=subprocess.STDOUT)
            try:
                _, status, ru = os.wait4(p.pid, 0)
            except BaseException:
                p.kill()
                raise
            wall = time.monotonic() - t0
            out.seek(0)
            text = out.read()
        result = None
        if os.waitstatus_to_exitcode(status) == 0 and os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                result = json.load(f)
    return wall, ru.ru_utime + ru.ru_stime, result, text


def load():
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main():
    variant = "smoke" if bench_mode.SMOKE else "full"
    errors = []
    print(f"the >2^32 region on the user's path ({variant} mode), {load()}")
    print("oracle: QEMU's execution trace of two small variants, along the loop:")
    runs = []
    for name, board, variants in machines():
        n, elf = variants[variant]
        expected = oracle(name, variants, n)
        if expected is None:
            errors.append(f"{name}: the trace gave no count of the region")
            continue
        print(f"  {name}: {n} iterations per call: {expected} instructions"
              f" ({expected / COUNTER_PERIOD:.2f} periods of a 32-bit counter)")
        runs.append((name, board, elf, expected))
    figures = {}
    for r in range(ROUNDS):
        order = runs if r % 2 == 0 else runs[::-1]
        for name, board, elf, expected in order:
            wall, cpu, res, text = measure(board, elf)
            if res is None:
                errors.append(f"{name}: benchrack measure failed:\n{text}")
                continue
            counter, guarded = COUNTERS[board]
            fig = figures.setdefault(name, {"wall": [], "cpu": [], "halts": [], "guard": []})
            fig["wall"].append(wall)
            fig["cpu"].append(cpu)
            fig["halts"].append(res["halts"])
            fig["guard"].append(res["guard_halts"])
            print(f"  round {r + 1} {name}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
                  f"{res['halts']} halts ({res['guard_halts']} guard), samples {res['samples']}, "
                  f"{load()}", flush=True)
            if res["samples"] != [expected]:
                errors.append(f"{name}: samples {res['samples']} are not the trace's {expected}")
            if res["counter"]["name"] != counter:
                errors.append(f"{name}: counted by {res['counter']['name']}, not {counter}")
            if not guarded and res["guard_halts"] != 0:
                errors.append(f"{name}: {res['guard_halts']} guard halts on a 64-bit counter")
            if guarded and res["guard_halts"] < expected // COUNTER_PERIOD:
                errors.append(f"{name}: {res['guard_halts']} guard halts, fewer than the "
                              f"{expected // COUNTER_PERIOD} periods the region crosses")
    report(runs, figures)
    bench_mode.finish([], errors)


def report(runs, figures):
    """Prints each machine's medians and the ratios of the icount
    machine's figures to the TIM2 machine's, within each round."""
    if len(figures) != len(runs) or not runs:
        return
    rounds = lambda v, f="{:.1f}": ", ".join(f.format(x) for x in v)  # noqa: E731
    print(f"per run of `benchrack measure --from long_from --to long_to -n 1`, median of {ROUNDS} "
          f"round(s) (CPU = benchrack's and its QEMU's), {load()}:")
    for name, board, _, expected in runs:
        fig = figures[name]
        counter, _ = COUNTERS[board]
        print(f"  {name:14s} {counter:6s} {statistics.median(fig['wall']):8.1f} s wall "
              f"[{rounds(fig['wall'])}]  {statistics.median(fig['cpu']):8.1f} s CPU "
              f"[{rounds(fig['cpu'])}]  halts {rounds(fig['halts'], '{}')} "
              f"(guard {rounds(fig['guard'], '{}')}); {expected} instructions")
    by_counter = {COUNTERS[board][0]: name for name, board, _, _ in runs}
    tim2, icount = by_counter.get("tim2"), by_counter.get("icount")
    if tim2 is None or icount is None or len(figures[tim2]["wall"]) != len(figures[icount]["wall"]):
        return
    a, b = figures[icount], figures[tim2]
    for unit in ("wall", "cpu"):
        ratios = [i / t for i, t in zip(a[unit], b[unit])]
        print(f"  {icount} icount / {tim2} TIM2, {unit}: {statistics.median(ratios):.2f}x "
              f"[rounds: {rounds(ratios, '{:.2f}')}]")


main()
