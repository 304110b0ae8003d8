"""QEMU's execution log (-singlestep -d exec,nochain -D LOG) as the PCs a
core ran, in order: one "Trace N: ... [flags/PC/...]" line per instruction
on core N; a "Stopped execution of TB chain" line takes back the line before
it (a block entered but not run)."""
import re

TRACE_LINE = re.compile(r"^Trace (\d+): \S+ \[[0-9a-f]+/([0-9a-f]+)/")


def core_pcs(log, core="0"):
    """The PCs core `core` ran, in order, from the log file at path log."""
    pcs = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TRACE_LINE.match(line)
            if m and m.group(1) == core:
                pcs.append(int(m.group(2), 16))
            elif line.startswith("Stopped execution of TB chain") and pcs:
                pcs.pop()
    return pcs


def run_trace(qemu, machine, elf, min_bytes, wait_s):
    """The PCs core 0 ran, in order: QEMU (machine, -icount shift=0,
    -singlestep -d exec,nochain) runs elf from reset until its log holds
    min_bytes or wait_s seconds have passed, then is stopped."""
    import os
    import signal
    import subprocess
    import tempfile
    import time
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "exec.log")
        p = subprocess.Popen([qemu, "-M", machine, "-display", "none", "-monitor", "none",
                              "-serial", "null", "-icount", "shift=0", "-singlestep",
                              "-d", "exec,nochain", "-D", log, "-kernel", elf],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and p.poll() is None:
            if os.path.exists(log) and os.path.getsize(log) > min_bytes:
                break
            time.sleep(0.05)
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=10)
        return core_pcs(log)


def region_count(pcs, start, end):
    """The instructions from the first run of start to the next of end
    (start counted, end not), or 0 when the trace holds no such pass."""
    if start not in pcs:
        return 0
    f = pcs.index(start)
    return pcs.index(end, f) - f if end in pcs[f:] else 0
