"""Result records (results/SCHEMA.md, schema version 2) for the upload tests,
written as benchrack writes them, with names as hostile as a lab can make
them, and what each sink must show of them."""
import calendar
import json
import os
import time

# Names with every character the escaping rules are about: spaces, commas,
# equals signs, quotes, backslashes, newlines, non-ASCII.
HOSTILE_BENCHES = [
    "crc 32",
    "a,b=c",
    'say "hi"',
    "back\\slash",
    "ends\\",
    "line\nbreak",
    "n\u00e4me \u2713",
    "plain",
]
HOSTILE_BOARD = "lab/board 1,x=y"
HOSTILE_SUITE = 'suite "q" \u00fc'
HOSTILE_HOST = "rack 7\\a"


def bench(name, median, stack=40, heap=True):
    return {
        "name": name, "status": "measured", "reason": None, "mode": "stub", "elf": None,
        "warmup": 2, "n": 5,
        "median": median, "p10": median - 1, "p90": median + 1.5, "p95": median + 2,
        "p99": median + 2, "min": median - 1, "max": median + 2, "mean": median + 0.25,
        "mad": 0.5, "cv_median": 0.125, "outliers": 1,
        "stack_bytes": stack,
        "heap": {"peak_bytes": 128, "live_bytes": 0, "allocations": 2} if heap else None,
        "calibration": None,
        "budgets": {}, "wall_seconds": 0.0625,
        "samples": [median] * 5,
    }


def record(timestamp, board="qemu-netduinoplus2", suite="default", benches=None,
           host="vm", git_commit=None, toolchain="GCC: (15:12.2.rel1-1) 12.2.1 20221205"):
    benches = benches if benches is not None else [bench("empty", 1), bench("nop1000", 1001)]
    return {
        "schema_version": 3, "kind": "run", "status": "complete", "error": None,
        "timestamp": timestamp, "benchrack_version": "0.1.0", "host": host,
        "suite": suite, "suite_path": "configs/suites/x.yaml" if suite else None,
        "board": board, "server": "qemu-system-arm -M netduinoplus2",
        "counter": {"name": "tim2", "unit": "instructions (QEMU icount)", "clock_hz": None},
        "firmware": {"path": "/build/benches/suite-O2.elf", "build_id": "e7bd45fb",
                     "git_commit": git_commit, "toolchain": toolchain,
                     "text_bytes": 4080, "data_bytes": 864, "bss_bytes": 6664},
        "fail_on_regression_percent": 5, "budgets": {}, "benches": benches,
    }


def write(results_dir, rec, name):
    """Writes rec to results_dir/runs/<name>.json; returns the path."""
    d = os.path.join(results_dir, "runs")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return path


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def time_ms(timestamp):
    """The record's ISO 8601 UTC timestamp in ms since the epoch."""
    base, _, frac = timestamp.rstrip("Z").partition(".")
    ms = int((frac + "000")[:3]) if frac else 0
    return calendar.timegm(time.strptime(base, "%Y-%m-%dT%H:%M:%S")) * 1000 + ms


def point_time_ms(rec, run_file):
    """The time every point of the run carries: the record's timestamp, plus
    the run file's milliseconds when its name (results/paths.h) is stamped in
    the same second."""
    t = time_ms(rec["timestamp"])
    name = os.path.basename(run_file)
    if t % 1000 == 0 and len(name) > 20 and name[15] == "." and name[19] == "Z":
        try:
            f = calendar.timegm(time.strptime(name[:15], "%Y%m%dT%H%M%S")) * 1000 + \
                int(name[16:19])
        except ValueError:
            return t
        if f // 1000 == t // 1000:
            return f
    return t


def lp_name(name):
    """What InfluxDB keeps of a name benchrack writes in line protocol:
    control characters and a last backslash become U+FFFD."""
    chars = ["\ufffd" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch for ch in name]
    if chars and chars[-1] == "\\":
        chars[-1] = "\ufffd"
    return "".join(chars)


def lp_string(value):
    """What InfluxDB keeps of a string field benchrack writes: control
    characters become U+FFFD, the rest as it is."""
    return "".join("\ufffd" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch for ch in value)


def file_name(path):
    return path.rsplit("/", 1)[-1]


BOUNDED_LABELS = ("bench", "board", "suite", "unit")


def expected_labels(rec, b):
    """The labels (tags) a bench's series is keyed by, unescaped: the bounded
    default (issue 30), never one per commit or build."""
    return {k: v for k, v in all_labels(rec, b).items() if k in BOUNDED_LABELS}


def expected_provenance(rec, b):
    """What the record says of where the figures came from: InfluxDB string
    fields and the Pushgateway's info metrics, not labels."""
    return {k: v for k, v in all_labels(rec, b).items() if k not in BOUNDED_LABELS}


def all_labels(rec, b):
    """Every label a bench's series could carry, unescaped."""
    fw = rec["firmware"]
    labels = {
        "bench": b["name"], "board": rec["board"], "build_id": fw["build_id"],
        "counter": rec["counter"]["name"], "firmware": file_name(fw["path"]),
        "git_commit": fw["git_commit"], "host": rec["host"], "mode": b["mode"],
        "server": rec["server"], "suite": rec["suite"], "toolchain": fw["toolchain"],
        "unit": rec["counter"]["unit"],
        "elf": file_name(b["elf"]) if b.get("elf") else None,
    }
    return {k: v for k, v in labels.items() if v}


FLOAT_FIELDS = ["median", "p10", "p90", "p95", "p99", "min", "max", "mean", "mad", "cv_median"]


def expected_fields(b):
    """Every value a bench's series carries: {name: (value, is_integer)}."""
    out = {k: (b[k], False) for k in FLOAT_FIELDS}
    out["n"] = (b["n"], True)
    out["outliers"] = (b["outliers"], True)
    if b.get("stack_bytes") is not None:
        out["stack_bytes"] = (b["stack_bytes"], True)
    if b.get("heap"):
        out["heap_peak_bytes"] = (b["heap"]["peak_bytes"], True)
        out["heap_live_bytes"] = (b["heap"]["live_bytes"], True)
        out["heap_allocations"] = (b["heap"]["allocations"], True)
    if b.get("calibration"):
        out["calibration"] = (b["calibration"]["median"], False)
    if b.get("wall_seconds"):
        out["wall_seconds"] = (b["wall_seconds"], False)
    return out
