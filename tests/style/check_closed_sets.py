#!/usr/bin/env python3
"""Each closed set of names is declared once (issue 25), run as a test.

A closed set (gdbserver flavours, server kinds, counter kinds, upload sinks,
output formats) is written in one declaring header, as an x-macro list or as
one #define per member; its parser, its names, its help texts and its error's
"expected one of" are all made from that declaration. This test reads each
set's members from its declaring header (so the test repeats no member
itself), then scans every C file of controller/ for string literals, outside
comments, and fails naming file:line for:

  - a literal that is exactly a member, anywhere but a declaring header of a
    set holding that name ("qemu" is both a flavour and a server kind);
  - a literal that lists three or more members of one set by hand (a help
    text or an error message written out instead of made from the set).

Not counted: getopt rows (`{"qemu", required_argument, ...}`: the name of an
option, a different set, declared by the command's option table; so is the
first member of a cli/option_table.h row, `{.name = "json", ...`), keys of a
config schema (`.key = "serial"`: a key, declared by its table), and the
EXCEPTIONS below, each a (file, literal) pair that means something else.

usage: check_closed_sets.py SOURCE_ROOT
"""
import os
import re
import sys

from style_report import c_files, finish

ROOT = sys.argv[1]

# (what, declaring header, regex whose group 1 is a member's name)
X_ROW = r'X\(\s*\w+\s*,\s*"([^"]+)"'
SETS = [
    ("gdbserver flavour", "controller/debug/flavour_table.h",
     r'#define BR_FLAVOUR_\w+_NAME "([^"]+)"|X\(\s*\w+\s*,\s*"([^"]+)"'),
    ("server kind", "controller/debug/server_kind_table.h", X_ROW),
    ("counter kind", "controller/common/counter_kind.h", X_ROW),
    ("upload sink", "controller/config/upload_config.h", X_ROW),
    ("output format", "controller/results/format.h", X_ROW),
    ("page format", "controller/report/report_output.h", r'#define BR_REPORT_PAGE_FORMAT "([^"]+)"'),
    ("size diff format", "controller/report/report_size_diff.h", X_ROW),
    ("profile format", "controller/profile/format.h", X_ROW),
]

# Files not held to the rule yet, and why (temporary: remove when done).
EXEMPT_FILES = set()
EXEMPT_FOLDERS = ()

# (file, literal): the same word naming something outside the set.
EXCEPTIONS = {
    # Bencher's API: the adapter a report was made by, not a format of ours.
    ("controller/upload/render_bencher.c", "json"),
}

COMMENT_OR_LITERAL = re.compile(
    r'//[^\n]*|/\*.*?\*/|"((?:[^"\\\n]|\\.)*)"|\'(?:[^\'\\\n]|\\.)*\'', re.S)
GETOPT_ROW = re.compile(r'\s*,\s*(?:required|no|optional)_argument\b')
SCHEMA_KEY = re.compile(r'\.key\s*=\s*$')
OPTION_ROW = re.compile(r'\{\s*\.name\s*=\s*$')


def members_of(header, pattern):
    path = os.path.join(ROOT, header)
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"check_closed_sets: cannot read the declaring header {header}: {e}")
    names = [m if isinstance(m, str) else next(g for g in m if g)
             for m in re.findall(pattern, text)]
    if not names:
        sys.exit(f"check_closed_sets: no member of the set found in {header} ({pattern})")
    return names


def literals(text, rel):
    """(line, literal text, is a getopt row) for each string literal outside comments."""
    for m in COMMENT_OR_LITERAL.finditer(text):
        if m.group(1) is None:
            continue
        line = text.count("\n", 0, m.start()) + 1
        before = text[max(0, m.start() - 24):m.start()]
        other_set = GETOPT_ROW.match(text, m.end()) or SCHEMA_KEY.search(before) \
            or (rel.startswith("controller/cli/") and OPTION_ROW.search(before))
        yield line, m.group(1), bool(other_set)


def main():
    sets = [(what, header, members_of(header, pattern)) for what, header, pattern in SETS]
    declared_in = {}
    for what, header, names in sets:
        for n in names:
            declared_in.setdefault(n, set()).add(header)
    failures = []
    checked = 0
    for path, rel in c_files(ROOT, ["controller"]):
        if rel in EXEMPT_FILES or rel.startswith(EXEMPT_FOLDERS):
            continue
        checked += 1
        text = open(path, encoding="utf-8").read()
        for line, lit, getopt_row in literals(text, rel):
            if getopt_row:
                continue
            if lit in declared_in and rel not in declared_in[lit] \
                    and (rel, lit) not in EXCEPTIONS:
                failures.append(f"{rel}:{line}: \"{lit}\" is a member of a closed set "
                                f"declared in {', '.join(sorted(declared_in[lit]))}: "
                                "use its name from there")
            for what, header, names in sets:
                if rel == header:
                    continue
                hand = [n for n in names if re.search(rf'(?<![\w.-]){re.escape(n)}(?![\w-])', lit)]
                if len(hand) >= 3:
                    failures.append(f"{rel}:{line}: lists the {what}s by hand "
                                    f"({', '.join(hand)}): make the list from {header}")
    return finish(failures, f"{checked} files checked against {len(sets)} closed sets, "
                            f"{len(failures)} literals outside their declaration")


sys.exit(main())
