#!/usr/bin/env python3
"""Every public name of the controller is declared by one header only: no
two headers (in one layer or across layers: report/ and profile/ once both
had br_profile_t) declare the same type, function or macro. Scans every
controller/**/*.h for typedef names, function prototypes and #define'd
macros; prints each name declared in more than one header, with the places,
and exits 1 when there is one.

usage: test_public_names.py CONTROLLER_DIR
"""
import os
import re
import sys

TYPEDEF_END = re.compile(r"\}\s*(\w+)\s*;")
TYPEDEF_PLAIN = re.compile(r"^typedef\s+[^;(){}]*?\b(\w+)\s*;", re.M)
TYPEDEF_FN = re.compile(r"^typedef[^;{}]*?\(\s*\*\s*(\w+)\s*\)", re.M)
PROTOTYPE = re.compile(r"^(?!typedef|#|static\b|\s|/\*|\*|\})[\w \t\*]*?\b(\w+)\s*\(", re.M)
MACRO = re.compile(r"^#\s*define\s+(\w+)", re.M)
GUARD = re.compile(r"^BENCHRACK_\w+_H$")


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def names_of(text):
    text = strip_comments(text)
    found = {}
    for kind, rx in (("type", TYPEDEF_END), ("type", TYPEDEF_PLAIN), ("type", TYPEDEF_FN),
                     ("function", PROTOTYPE), ("macro", MACRO)):
        for m in rx.finditer(text):
            name = m.group(1)
            if kind == "macro" and GUARD.match(name):
                continue
            line = text.count("\n", 0, m.start()) + 1
            found.setdefault(name, (kind, line))
    return found


# What the scan must find in a header, or it is broken.
SELF_TEST = """
/* br_not_this(void); */
typedef struct br_a { int x; } br_a_t;
typedef uint32_t br_b_t;
typedef br_status_t (*br_c_fn)(void *ctx,
                               int n);
br_status_t br_d_run(br_a_t *a,
                     int n);
const char *br_e_name(void);
#define BR_F_MAX 4U
"""
SELF_TEST_NAMES = {"br_a_t", "br_b_t", "br_c_fn", "br_d_run", "br_e_name", "BR_F_MAX"}


def main():
    root = sys.argv[1]
    seen = set(names_of(SELF_TEST))
    if seen != SELF_TEST_NAMES:
        print(f"the scan is broken: found {sorted(seen)} in its own sample, "
              f"expected {sorted(SELF_TEST_NAMES)}")
        return 1
    where = {}
    headers = 0
    for dirpath, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith(".h"):
                continue
            path = os.path.join(dirpath, f)
            headers += 1
            with open(path, encoding="utf-8") as fh:
                for name, (kind, line) in names_of(fh.read()).items():
                    where.setdefault(name, []).append((os.path.relpath(path, root), line, kind))
    clashes = {n: p for n, p in where.items() if len(p) > 1}
    for name in sorted(clashes):
        places = ", ".join(f"{p}:{line} ({kind})" for p, line, kind in clashes[name])
        print(f"{name}: declared in {len(clashes[name])} headers: {places}")
    print(f"{headers} headers, {len(where)} public names, {len(clashes)} declared twice")
    if headers == 0 or len(where) < 100:
        print("too few headers or names found: the scan is broken")
        return 1
    return 1 if clashes else 0


if __name__ == "__main__":
    sys.exit(main())
