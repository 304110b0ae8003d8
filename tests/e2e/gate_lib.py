"""Helpers shared by the gate and format end-to-end tests: running the CLI,
writing suite files, reading records and the ELF build-id."""
import json
import os
import struct
import subprocess

TIMEOUT_S = 120


def run(benchrack, args, cwd=None, env=None, timeout=TIMEOUT_S):
    """(exit code, stdout, stderr) of benchrack ARGS."""
    p = subprocess.run([benchrack] + args, capture_output=True, text=True, timeout=timeout,
                       cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr


def write_suite(path, firmware, benches, **keys):
    """A suite file on the default board with the given benches (names or
    mappings written inline) and top-level keys."""
    lines = ["name: gate", f"firmware: {firmware}", "boards: [qemu-netduinoplus2]",
             "default_iterations: 20", "warmup_runs: 1"]
    for key, value in keys.items():
        lines.append(f"{key}: {value}")
    lines.append("benches:")
    for bench in benches:
        lines.append(f"  - {bench}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
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
