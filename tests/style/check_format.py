#!/usr/bin/env python3
"""The house's formatting rule, run as a test: every C file of the
controller (controller/) and of the stub (stub/) is as the repository's
.clang-format lays it out (`clang-format --dry-run --Werror`). Fails naming
each file that differs and the command that mends it.

The firmware fixtures of benches/ and tests/ are not held to it yet: some
tests name their source lines (file:line), which a reformat would move.

usage: check_format.py CLANG_FORMAT SOURCE_ROOT
"""
import os
import subprocess
import sys

CLANG_FORMAT, ROOT = sys.argv[1:3]
FOLDERS = ("controller", "stub")

files = []
for folder in FOLDERS:
    for top, dirs, names in os.walk(os.path.join(ROOT, folder)):
        dirs.sort()
        files += [os.path.join(top, n) for n in sorted(names) if n.endswith((".c", ".h"))]
if not files:
    sys.exit(f"check_format: no C files under {', '.join(FOLDERS)} of {ROOT}")
differ = [f for f in files
          if subprocess.run([CLANG_FORMAT, "--dry-run", "--Werror", f],
                            capture_output=True).returncode != 0]
for f in differ:
    print(f"differs from .clang-format: {os.path.relpath(f, ROOT)}")
print(f"{len(files)} files checked, {len(differ)} differ")
if differ:
    print(f"mend with: {CLANG_FORMAT} -i " + " ".join(os.path.relpath(f, ROOT) for f in differ[:5])
          + (" ..." if len(differ) > 5 else ""))
sys.exit(1 if differ else 0)
