#!/usr/bin/env python3
"""No function of the controller longer than 100 lines (issue 25), run as a
test: every C function of controller/ is measured from the line of its
opening brace to the line of its closing one, and each one over the limit is
named (file:line, name, length).

A small brace parser, not a compiler: comments, string and character
literals and preprocessor lines are blanked first; a function is a brace at
file level right after a ')' (its parameter list), its name the identifier
before that list's '('.

No exceptions (the profiler's, while issue 26 rewrote it, are gone); a
folder or file named in EXCEPTIONS would not be measured.

usage: check_function_length.py SOURCE_ROOT
"""
import os
import re
import sys

LIMIT = 100
ROOT = sys.argv[1]
EXCEPTIONS = ()

NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', re.S)
PREPROCESSOR = re.compile(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', re.M)


def blank(m):
    return re.sub(r'[^\n]', ' ', m.group(0))


def function_name(text, close):
    """The identifier before the '(' matching the ')' at close."""
    depth = 0
    for i in range(close, -1, -1):
        if text[i] == ')':
            depth += 1
        elif text[i] == '(':
            depth -= 1
            if depth == 0:
                m = re.search(r'(\w+)\s*$', text[:i])
                return m.group(1) if m else "?"
    return "?"


def functions(text):
    """(name, first line, length in lines) of each function in text."""
    text = PREPROCESSOR.sub(blank, NOISE.sub(blank, text))
    depth = 0
    start = None
    name = None
    for m in re.finditer(r'[{}]', text):
        if m.group(0) == '{':
            if depth == 0:
                before = text[:m.start()].rstrip()
                start = m.start() if before.endswith(')') else None
                if start is not None:
                    name = function_name(text, len(before) - 1)
            depth += 1
        else:
            depth -= 1
            if depth == 0 and start is not None:
                first = text.count('\n', 0, start) + 1
                last = text.count('\n', 0, m.start()) + 1
                yield name, first, last - first + 1
                start = None


def main():
    long_ones = []
    count = 0
    for top, dirs, files in os.walk(os.path.join(ROOT, "controller")):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(top, f)
            rel = os.path.relpath(path, ROOT)
            if rel.startswith(EXCEPTIONS):
                continue
            for name, line, length in functions(open(path, encoding="utf-8").read()):
                count += 1
                if length > LIMIT:
                    long_ones.append((length, f"{rel}:{line}: {name} is {length} lines long"))
    for _, message in sorted(long_ones, reverse=True):
        print(f"{message}; split it (at most {LIMIT})")
    print(f"{count} functions measured, {len(long_ones)} over {LIMIT} lines "
          f"(not measured: {', '.join(EXCEPTIONS)})")
    if count == 0:
        print("no function found: is SOURCE_ROOT the repository?")
        return 1
    return 1 if long_ones else 0


sys.exit(main())
