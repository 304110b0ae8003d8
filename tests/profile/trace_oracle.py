"""QEMU's own execution trace as the profiler's oracle (issue 26): the image
run under -icount shift=0 -singlestep -d exec,nochain (one line per
instruction; a "Stopped execution of TB chain" line takes back the line
before it, a block entered but not run, as a "cpu_io_recompile: rewound"
line does for a block re-run for an I/O access under -icount), the log streamed through a FIFO and
counted as it comes, never stored. Never benchrack."""
import os
import re
import subprocess
import tempfile
import threading

TRACE_LINE = re.compile(rb"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")


def symbols(nm, elf):
    """[(start, end, name)] of the image's functions, by address."""
    out = subprocess.run([nm, "-S", "--defined-only", elf], check=True, capture_output=True,
                         text=True).stdout
    funcs = []
    for f in (line.split() for line in out.splitlines()):
        if len(f) == 4 and f[2] in "tT":
            start = int(f[0], 16) & ~1
            funcs.append((start, start + int(f[1], 16), f[3]))
    return sorted(funcs)


def first_pass_pcs(qemu, nm, elf, start_name, stop_name, machine="netduinoplus2",
                   timeout=300):
    """{pc: times run} from the first time the core reaches start_name to the
    first time after that it reaches stop_name (the latter not run): the
    trace's figures of one pass of the region, instruction by instruction."""
    by_name = {name: (lo, hi) for lo, hi, name in symbols(nm, elf)}
    start, stop = by_name[start_name][0], by_name[stop_name][0]
    pcs = {}
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, "exec.fifo")
        os.mkfifo(fifo)
        p = subprocess.Popen([qemu, "-M", machine, "-display", "none", "-monitor", "none",
                              "-serial", "null", "-icount", "shift=0", "-singlestep",
                              "-d", "exec,nochain", "-D", fifo, "-kernel", elf],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        try:
            with open(fifo, "rb") as f:
                inside, last = False, None
                for line in f:
                    m = TRACE_LINE.match(line)
                    if m is None:
                        undo = (line.startswith(b"Stopped execution of TB chain") or
                                line.startswith(b"cpu_io_recompile: rewound"))
                        if undo and inside and last is not None:
                            pcs[last] -= 1
                            last = None
                        continue
                    pc = int(m.group(1), 16)
                    if not inside and pc == start:
                        inside = True
                    elif inside and pc == stop:
                        break
                    if inside:
                        pcs[pc] = pcs.get(pc, 0) + 1
                        last = pc
        finally:
            timer.cancel()
            p.kill()
            p.wait()
    return {pc: n for pc, n in pcs.items() if n}


def first_pass_counts(qemu, nm, elf, start_name, stop_name, machine="netduinoplus2",
                      timeout=300):
    """{function: instructions} of one pass of the region (first_pass_pcs),
    each PC in the function of the symbol table that holds it (its address
    in hex when none does), and their sum."""
    funcs = symbols(nm, elf)
    counts = {}
    for pc, n in first_pass_pcs(qemu, nm, elf, start_name, stop_name, machine,
                                timeout).items():
        name = next((f for lo, hi, f in funcs if lo <= pc < hi), hex(pc))
        counts[name] = counts.get(name, 0) + n
    return counts, sum(counts.values())


def lines_of(addr2line, elf, pcs):
    """{(file's base name, line): count} of {pc: count}, each PC's line as
    arm-none-eabi-addr2line gives it (PCs with no line left out)."""
    order = sorted(pcs)
    out = subprocess.run([addr2line, "-e", elf] + [hex(pc) for pc in order], check=True,
                         capture_output=True, text=True).stdout.splitlines()
    lines = {}
    for pc, where in zip(order, out):
        where = where.split(" (discriminator")[0]
        file, _, line = where.rpartition(":")
        if file.startswith("??") or not line.isdigit() or line == "0":
            continue
        key = (os.path.basename(file), int(line))
        lines[key] = lines.get(key, 0) + pcs[pc]
    return lines
