"""Helpers shared by the gate and format end-to-end tests: running the CLI,
writing suite files, reading records and the ELF build-id. The suites are
on this build's board (tests/lib/test_board.py: BENCHRACK_TEST_BOARD, whose
images the tests are given)."""
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import test_board  # noqa: E402

TIMEOUT_S = 120
BOARD = test_board.NAME
# Iterations of a suite's stub benches: exact figures repeat exactly, so a
# handful shows what twenty do. Twenty where the stub reads its counter
# itself (TIM2: one halt per bench); five on an icount board, where the
# host reads QEMU's count at two watchpoint stops per iteration.
ITERATIONS = test_board.samples(20, 5)


def run(benchrack, args, cwd=None, env=None, timeout=TIMEOUT_S):
    """(exit code, stdout, stderr) of benchrack ARGS."""
    p = subprocess.run([benchrack] + args, capture_output=True, text=True, timeout=timeout,
                       cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr


def write_suite(path, firmware, benches, **keys):
    """A suite file on this build's board (BOARD), ITERATIONS iterations,
    with the given benches (names or mappings written inline) and top-level
    keys."""
    lines = ["name: gate", f"firmware: {firmware}", f"boards: [{BOARD}]",
             f"default_iterations: {ITERATIONS}", "warmup_runs: 1"]
    for key, value in keys.items():
        lines.append(f"{key}: {value}")
    lines.append("benches:")
    for bench in benches:
        lines.append(f"  - {bench}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path


def write_unreachable_board(boards_dir):
    """A board behind OpenOCD that no probe here answers: nucleo-f446re's
    file (OpenOCD launched on its ST-LINK) renamed openocd-unreachable, with
    this build's core and memory map and SysTick for a counter (every core
    has one; a Cortex-M0 no DWT), so that this build's images fit it and
    what stops them is OpenOCD's own "open failed". Returns its path; a suite
    file in boards_dir/.. names it openocd-unreachable."""
    with open(os.path.join(test_board.SOURCE_ROOT, "configs", "boards", "nucleo-f446re.yaml"),
              encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, in_memory = [], False
    for line in lines:
        if line.startswith("name:"):
            line = "name: openocd-unreachable"
        elif line.startswith("core:"):
            line = "core: " + test_board.core()
        elif line.startswith("  kind: dwt"):
            line = "  kind: systick"
        elif line.startswith("memory:"):
            in_memory = True
            out += [line] + test_board.memory_lines()
            continue
        elif in_memory and line.startswith(" "):
            continue
        else:
            in_memory = False
        out.append(line)
    os.makedirs(boards_dir, exist_ok=True)
    path = os.path.join(boards_dir, "openocd-unreachable.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return path


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def runs_in(results_dir):
    """The run files under RESULTS/runs, oldest first."""
    d = os.path.join(results_dir, "runs")
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".json"))


def build_id(elf_path):
    """The GNU build-id of a 32-bit little-endian ELF as hex, or None."""
    with open(elf_path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
    for i in range(shnum):
        _, stype, _, _, offset, size = struct.unpack_from("<IIIIII", data, shoff + i * shentsize)
        if stype != 7:  # SHT_NOTE
            continue
        pos = offset
        while pos + 12 <= offset + size:
            namesz, descsz, ntype = struct.unpack_from("<III", data, pos)
            name = data[pos + 12:pos + 12 + namesz]
            desc_at = pos + 12 + ((namesz + 3) & ~3)
            if ntype == 3 and name.rstrip(b"\0") == b"GNU":
                return data[desc_at:desc_at + descsz].hex()
            pos = desc_at + ((descsz + 3) & ~3)
    return None


class Checker:
    def __init__(self):
        self.failures = 0

    def check(self, cond, what, detail=""):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            self.failures += 1
            if detail:
                print("     " + detail.replace("\n", "\n     "))
        return cond

    def finish(self):
        print(f"{self.failures} failed")
        return 1 if self.failures else 0


def left_out(benchrack, results_dir, page):
    """The run records of results_dir that `benchrack report` leaves out (it
    cannot read them) or that benchrack's reader refuses (`diff F F`), and
    every one that is empty or still `running`."""
    code, out, err = run(benchrack, ["report", "--results-dir", results_dir, "-o", page])
    bad = [line for line in err.splitlines()
           if "left out" in line and "is no longer there" not in line]
    if code != 0:
        bad.append(f"report exit {code}: {err}")
    for path in runs_in(results_dir):
        code, _, err = run(benchrack, ["diff", path, path])
        if code != 0:
            bad.append(f"{path}: benchrack diff exit {code}: {err}")
        try:
            if load(path)["status"] == "running":
                bad.append(f"{path}: still running")
        except (ValueError, KeyError) as e:
            bad.append(f"{path}: {e}")
    return bad
