#!/usr/bin/env python3
"""Broken configuration files, end to end: each makes `benchrack run SUITE`
exit 2 before anything runs, with exactly one line on stderr that names the
file, the line and the column at fault, says what is wrong and what form was
expected. The table below is the contract: message and position, exactly.

usage: test_config_errors.py BENCHRACK
"""
import os
import subprocess
import sys
import tempfile

BENCHRACK = sys.argv[1]

GOOD_BOARD = """\
name: {name}
core: cortex-m4
server:
  kind: qemu
  machine: netduinoplus2
counter:
  kind: mmio
  name: tim2
  address: 0x40000024
memory:
  - {{name: flash, kind: flash, origin: 0x08000000, length: 1M}}
  - {{name: sram, kind: ram, origin: 0x20000000, length: 128K}}
"""

SUITE_ON = """\
name: broken
boards: [{board}]
benches: [empty]
"""

# (name, files {path: text}, the suite to run, expected stderr line)
CASES = [
    ("unknown key, with a suggestion",
     {"s.yaml": "name: s\nboards: [qemu-netduinoplus2]\nbenchs: [empty]\n"}, "s.yaml",
     "s.yaml:3:1: unknown key 'benchs' in suite (did you mean 'benches'?); expected one of: "
     "name, description, firmware, boards, default_iterations, warmup_runs, stack_watermark, "
     "fail_on_regression_percent, regression, timeout_seconds, budgets, size_budgets, benches, upload, "
     "build"),
    ("a regression limit that is not one",
     {"s.yaml": SUITE_ON.format(board="qemu-netduinoplus2") +
      "regression: {instructions: 0.5%, stack_bytes: 64 bytes}\n"}, "s.yaml",
     "s.yaml:4:47: regression limit '64 bytes' for stack_bytes is not one; expected a "
     "percentage (2%), bytes (64B, 1K) or both (2% and 64B)"),
    ("bytes for a count",
     {"s.yaml": SUITE_ON.format(board="qemu-netduinoplus2") + "regression:\n  ns: 64B\n"},
     "s.yaml",
     "s.yaml:5:7: regression limit '64B' for ns is not one; expected a percentage (0.5%), an "
     "amount in the counter's unit (10) or both (0.5% and 10)"),
    ("a regression limit for a metric there is none of",
     {"s.yaml": SUITE_ON.format(board="qemu-netduinoplus2") + "regression: {stack: 64B}\n"},
     "s.yaml",
     "s.yaml:4:14: unknown key 'stack' in regression; expected one of: instructions, cycles, "
     "ticks, ns, stack_bytes, heap_peak_bytes, text_bytes"),
    ("missing required key",
     {"s.yaml": "name: s\nbenches: [empty]\n"}, "s.yaml",
     "s.yaml:1:1: suite lacks required key 'boards'; expected boards: a list of board names "
     "(configs/boards/NAME.yaml) or board files"),
    ("not a whole number",
     {"s.yaml": SUITE_ON.format(board="qemu-netduinoplus2") + "default_iterations: many\n"},
     "s.yaml",
     "s.yaml:4:21: default_iterations: 'many' is not a whole number; expected a whole number "
     "from 1 to 1024"),
    ("out of range",
     {"s.yaml": SUITE_ON.format(board="qemu-netduinoplus2") + "default_iterations: 0\n"},
     "s.yaml",
     "s.yaml:4:21: default_iterations: 0 is out of range; expected a whole number from 1 to "
     "1024"),
    ("a single value where a list belongs",
     {"s.yaml": "name: s\nboards: qemu-netduinoplus2\nbenches: [empty]\n"}, "s.yaml",
     "s.yaml:2:9: boards is a single value; expected a list of board names "
     "(configs/boards/NAME.yaml) or board files"),
    ("yes is not a boolean here",
     {"s.yaml": SUITE_ON.format(board="qemu-netduinoplus2") + "stack_watermark: yes\n"},
     "s.yaml",
     "s.yaml:4:18: stack_watermark: 'yes' is not true or false; expected true or false"),
    ("negative percentage",
     {"s.yaml": SUITE_ON.format(board="qemu-netduinoplus2") +
      "fail_on_regression_percent: -5\n"}, "s.yaml",
     "s.yaml:4:29: fail_on_regression_percent: -5 is out of range; expected a percentage "
     "from 0 to 1000, e.g. 5"),
    ("a quoted number",
     {"s.yaml": SUITE_ON.format(board="qemu-netduinoplus2") + "timeout_seconds: \"30\"\n"},
     "s.yaml",
     "s.yaml:4:18: timeout_seconds: \"30\" is quoted text; expected how long one bench may "
     "run, 1 to 86400 seconds"),
    ("a key given twice",
     {"s.yaml": "name: s\nboards: [qemu-netduinoplus2]\nbenches: [empty]\nname: t\n"},
     "s.yaml",
     "s.yaml:4:1: key 'name' given twice (first at line 1); expected each key once"),
    ("YAML syntax",
     {"s.yaml": "name: s\nboards: [qemu-netduinoplus2\nbenches: [empty]\n"}, "s.yaml",
     "s.yaml:3:8: YAML syntax error: did not find expected ',' or ']' (while parsing a flow "
     "sequence at line 2, column 9)"),
    ("from without to",
     {"s.yaml": "name: s\nboards: [qemu-netduinoplus2]\nbenches:\n"
      "  - {name: app, elf: app.elf, from: main}\n"}, "s.yaml",
     "s.yaml:4:37: bench 'app' has from without to; expected both from: and to:"),
    ("a bench listed twice",
     {"s.yaml": "name: s\nboards: [qemu-netduinoplus2]\nbenches:\n  - empty\n  - nop1000\n"
      "  - empty\n"}, "s.yaml",
     "s.yaml:6:5: bench 'empty' listed twice (first at line 4); expected each bench once"),
    ("a suite-level budget on a bench",
     {"s.yaml": "name: s\nboards: [qemu-netduinoplus2]\nbenches:\n  - name: empty\n"
      "    budgets: {max_text_bytes: 4K}\n"}, "s.yaml",
     "s.yaml:5:15: unknown key 'max_text_bytes' in benches[0].budgets; expected one of: "
     "max_stack_bytes, max_heap_bytes, max_cycles_per_iteration"),
    ("an empty file",
     {"s.yaml": ""}, "s.yaml",
     "s.yaml:1:1: the file is empty; expected a suite mapping (key: value lines)"),
    ("a board that is nowhere",
     {"s.yaml": SUITE_ON.format(board="no-such-board")}, "s.yaml",
     "s.yaml:2:10: board 'no-such-board' not found; expected a name from configs/boards, or "
     "from boards/ beside the suite or ../boards, or a board file's path"),
    ("unknown server kind",
     {"b/k.yaml": GOOD_BOARD.format(name="k").replace("kind: qemu", "kind: jlink"),
      "s.yaml": SUITE_ON.format(board="b/k.yaml")}, "s.yaml",
     "b/k.yaml:4:9: server.kind: 'jlink' is not allowed; expected one of: qemu, openocd, "
     "remote, serial"),
    ("qemu server without a machine",
     {"b/m.yaml": GOOD_BOARD.format(name="m").replace("  machine: netduinoplus2\n", ""),
      "s.yaml": SUITE_ON.format(board="b/m.yaml")}, "s.yaml",
     "b/m.yaml:4:3: server lacks required key 'machine'; expected machine: a QEMU machine "
     "name, e.g. netduinoplus2"),
    ("a key of another server kind",
     {"b/o.yaml": GOOD_BOARD.format(name="o").replace(
         "  machine: netduinoplus2\n", "  machine: netduinoplus2\n  interface: x.cfg\n"),
      "s.yaml": SUITE_ON.format(board="b/o.yaml")}, "s.yaml",
     "b/o.yaml:6:3: unknown key 'interface' in server (kind qemu); expected one of: kind, "
     "program, machine, args"),
    ("a cycle counter without its clock",
     {"b/d.yaml": GOOD_BOARD.format(name="d").replace(
         "  kind: mmio\n  name: tim2\n  address: 0x40000024\n", "  kind: dwt\n"),
      "s.yaml": SUITE_ON.format(board="b/d.yaml")}, "s.yaml",
     "b/d.yaml:1:1: board lacks required key 'clock_hz' for a dwt counter; expected clock_hz: "
     "the core clock in Hz, e.g. 180000000"),
    ("a narrow counter without its clock (as --counter mmio:ADDR:16 without --clock-hz)",
     {"b/w.yaml": GOOD_BOARD.format(name="w").replace(
         "  address: 0x40000024\n", "  address: 0x40000024\n  width: 16\n"),
      "s.yaml": SUITE_ON.format(board="b/w.yaml")}, "s.yaml",
     "b/w.yaml:10:10: counter tim2 is 16 bits wide and wraps every 2^16 ticks: give its "
     "clock (clock_hz), or a wrapped interval could not be told from a short one"),
    ("no DWT on Cortex-M0",
     {"b/z.yaml": GOOD_BOARD.format(name="z").replace(
         "  kind: mmio\n  name: tim2\n  address: 0x40000024\n", "  kind: dwt\n").replace(
         "cortex-m4", "cortex-m0") + "clock_hz: 48000000\n",
      "s.yaml": SUITE_ON.format(board="b/z.yaml")}, "s.yaml",
     "b/z.yaml:7:9: cortex-m0 has no DWT cycle counter; expected counter kind systick, tim2 or mmio"),
    ("overlapping memory",
     {"b/v.yaml": GOOD_BOARD.format(name="v").replace("origin: 0x20000000",
                                                      "origin: 0x08080000"),
      "s.yaml": SUITE_ON.format(board="b/v.yaml")}, "s.yaml",
     "b/v.yaml:12:5: memory region sram overlaps flash; expected separate address ranges"),
    ("a board named unlike its file",
     {"b/n.yaml": GOOD_BOARD.format(name="nucleo"),
      "s.yaml": SUITE_ON.format(board="b/n.yaml")}, "s.yaml",
     "b/n.yaml:1:7: name 'nucleo' differs from the file's name 'n'; expected name: n"),
    ("memory with no RAM",
     {"b/r.yaml": GOOD_BOARD.format(name="r").replace("kind: ram", "kind: flash").replace(
         "origin: 0x20000000", "origin: 0x20000000"),
      "s.yaml": SUITE_ON.format(board="b/r.yaml")}, "s.yaml",
     "b/r.yaml:11:3: memory lacks a ram region; expected at least one flash and one ram "
     "region"),
]

failures = 0
with tempfile.TemporaryDirectory() as tmp:
    for i, (name, files, suite, want) in enumerate(CASES):
        case_dir = os.path.join(tmp, f"case{i}")
        for path, text in files.items():
            full = os.path.join(case_dir, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        p = subprocess.run([BENCHRACK, "run", suite, "--results-dir", "results"],
                           cwd=case_dir, capture_output=True, text=True, timeout=60)
        lines = [line for line in p.stderr.splitlines() if line.strip()]
        problems = []
        if p.returncode != 2:
            problems.append(f"exit code {p.returncode}, expected 2")
        if lines != ["benchrack: " + want]:
            problems.append(f"stderr was {lines!r},\n      expected {'benchrack: ' + want!r}")
        if p.stdout.strip():
            problems.append("printed figures on stdout")
        if os.path.exists(os.path.join(case_dir, "results")):
            problems.append("wrote results for a run that must not start")
        print(f"{'ok  ' if not problems else 'FAIL'} {name}")
        for problem in problems:
            print("      " + problem)
        failures += bool(problems)

print(f"{len(CASES)} broken configurations, {failures} failed")
sys.exit(1 if failures or len(CASES) < 15 else 0)
