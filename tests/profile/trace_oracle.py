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


def first_pass_counts(qemu, nm, elf, start_name, stop_name, machine="netduinoplus2",
                      timeout=300):
    """{function: instructions} run from the first time the core reaches
    start_name to the first time after that it reaches stop_name (the latter
    not run), and their sum: the trace's figures of one pass of the region."""
    funcs = symbols(nm, elf)
    by_name = {name: (lo, hi) for lo, hi, name in funcs}
    start, stop = by_name[start_name][0], by_name[stop_name][0]
    counts, names = {}, {}
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
                            counts[last] -= 1
                            last = None
                        continue
                    pc = int(m.group(1), 16)
                    if not inside and pc == start:
                        inside = True
                    elif inside and pc == stop:
                        break
                    if inside:
                        name = names.get(pc)
                        if name is None:
                            name = next((n for lo, hi, n in funcs if lo <= pc < hi), hex(pc))
                            names[pc] = name
                        counts[name] = counts.get(name, 0) + 1
                        last = name
        finally:
            timer.cancel()
            p.kill()
            p.wait()
    return counts, sum(counts.values())
