"""Helpers for the rack tests: write rack, suite and board files into a
temporary directory, run `benchrack rack`, read its document back.
Standard library only."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from ports import free_port  # noqa: E402,F401 (the rack tests import it from here)

FAILED = []


def check(cond, what, detail=""):
    if cond:
        print(f"ok   {what}")
    else:
        print(f"FAIL {what}\n     {detail}")
        FAILED.append(what)


def finish():
    if FAILED:
        print(f"{len(FAILED)} failed: {FAILED}")
        sys.exit(1)
    print("all passed")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def suite(dirname, name, firmware, benches, iterations=100, timeout=30, budgets=True):
    """A suite file: benches (names) of firmware, no budgets unless asked."""
    lines = [f"name: {name}", f"firmware: {firmware}", "boards: [qemu-netduinoplus2]",
             f"default_iterations: {iterations}",
             "warmup_runs: 2", f"timeout_seconds: {timeout}", "benches:"]
    lines += [f"  - {b}" for b in benches]
    return write(os.path.join(dirname, "suites", name + ".yaml"), "\n".join(lines) + "\n")


def board(dirname, name, machine="netduinoplus2", program="qemu-system-arm", core="cortex-m4"):
    """A QEMU board file like configs/boards/qemu-<machine>.yaml, with its own program."""
    text = f"""name: {name}
core: {core}
server:
  kind: qemu
  program: {program}
  machine: {machine}
counter:
  kind: tim2
memory:
  - {{name: flash, kind: flash, origin: 0x08000000, length: 1M}}
  - {{name: sram, kind: ram, origin: 0x20000000, length: 128K}}
stack:
  length: 8K
hardware_breakpoints: 6
"""
    return write(os.path.join(dirname, "boards", name + ".yaml"), text)


def rack(dirname, name, entries, retries=1, parallel=None):
    """entries: list of dicts {name, board, suites, tags, remote}."""
    lines = [f"name: {name}", f"retries: {retries}"]
    if parallel is not None:
        lines.append(f"parallel: {parallel}")
    lines.append("boards:")
    for e in entries:
        lines.append(f"  - name: {e['name']}")
        lines.append(f"    board: {e['board']}")
        lines.append(f"    suites: [{', '.join(e.get('suites', []))}]")
        if e.get("tags"):
            lines.append(f"    tags: [{', '.join(e['tags'])}]")
        if e.get("remote"):
            lines.append(f"    remote: {e['remote']}")
        if "retries" in e:
            lines.append(f"    retries: {e['retries']}")
    return write(os.path.join(dirname, "racks", name + ".yaml"), "\n".join(lines) + "\n")


def run_rack(benchrack, rack_path, workdir, *extra, timeout=240, lock_dir=None, env=None,
             background=False):
    """Runs benchrack rack; returns (completed process, document, seconds)."""
    name = os.path.splitext(os.path.basename(rack_path))[0]
    doc = os.path.join(workdir, f"doc-{name}-{time.monotonic_ns()}.json")
    args = [benchrack, "rack", rack_path, "--results-dir", os.path.join(workdir, "results"),
            "--lock-dir", lock_dir or os.path.join(workdir, "locks"), "--document", doc,
            *extra]
    e = dict(os.environ if env is None else env)
    if background:
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=e)
        return p, doc
    t0 = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=e)
    secs = time.monotonic() - t0
    document = None
    if os.path.exists(doc):
        with open(doc) as f:
            document = json.load(f)
    return p, document, secs


def boards_by_name(document):
    return {b["name"]: b for b in document["boards"]} if document else {}


def figures(run_path):
    """{bench: (n, median, min, max, stack)} of a run record."""
    with open(run_path) as f:
        rec = json.load(f)
    out = {}
    for b in rec["benches"]:
        out[b["name"]] = (b.get("status"), b.get("n"), b.get("median"), b.get("min"),
                          b.get("max"), b.get("stack_bytes"), b.get("samples"))
    return out
