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
