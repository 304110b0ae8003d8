#!/usr/bin/env python3
"""Make a man page from `benchrack [COMMAND] --help`, through scdoc.

The command's --help text is the one source of its man page: this turns it
into scdoc markup (NAME, SYNOPSIS, DESCRIPTION and one section per heading of
the help text, such as OPTIONS and EXIT STATUS), appends the scdoc file given
with --extra (sections written by hand, e.g. FILES), and runs scdoc to write
the roff page. The help text's layout decides the structure:
  - "usage: benchrack ..." is the synopsis;
  - an unindented line ending in ":" is a heading ("options:" -> OPTIONS);
  - a line indented 1-8 columns starts an item: its term, then after a gap
    of two or more spaces its description; deeper lines continue it;
  - other lines are paragraphs.

Usage: help2man.py --benchrack EXE [--command CMD] --scdoc SCDOC
                   [--extra FILE.scd] --output PAGE.1
Exit status 0, or 1 with the reason on stderr.
"""

import argparse
import re
import subprocess
import sys

HEADINGS = {"options": "OPTIONS", "commands": "COMMANDS", "exit codes": "EXIT STATUS",
            "exit": "EXIT STATUS"}
ITEM_MAX_INDENT = 8
ITEM = re.compile(r"^(\S.*?)(?:\s{2,}(\S.*))?$")


def escape(text):
    """scdoc's inline markup characters, taken literally; a leading - or .
    would start a list."""
    text = re.sub(r"([\\*_])", r"\\\1", text)
    return "\\" + text if text[:1] in ("-", ".") else text


def command_summaries(main_help):
    """command -> its one-line description in `benchrack --help`'s commands table."""
    out = {}
    term, desc, in_table = None, [], False
    for line in main_help.split("\n"):
        if line.startswith("commands:"):
            in_table = True
            continue
        if not in_table:
            continue
        if not line.strip() or (line and not line.startswith(" ")):
            if term is not None:
                out[term] = " ".join(desc)
            if not line.strip() and term is None:
                continue
            if line and not line.startswith(" "):
                break
            term, desc = None, []
            continue
        indent = len(line) - len(line.lstrip(" "))
        m = ITEM.match(line.strip())
        if indent <= ITEM_MAX_INDENT:
            if term is not None:
                out[term] = " ".join(desc)
            term = m.group(1).split()[0]
            desc = [m.group(2)] if m.group(2) else []
        elif term is not None:
            desc.append(line.strip())
    if term is not None:
        out.setdefault(term, " ".join(desc))
    return out


def convert(help_text, page, command, table_summary=""):
    lines = help_text.rstrip("\n").split("\n")
    if not lines or not lines[0].startswith("usage: "):
        raise ValueError("the help text does not start with 'usage: '")
    synopsis = lines[0][len("usage: "):]
    out = [f"{page}(1)", ""]
    body = []          # (kind, data): ("p", [lines]) | ("item", [term, [desc]]) | ("h", name)
    paragraph = None
    item = None
    for line in lines[1:]:
        if not line.strip():
            paragraph = item = None
            continue
        indent = len(line) - len(line.lstrip(" "))
        text = line.strip()
        if indent == 0:
            item = None
            m = re.match(r"^([a-z][a-z ]*):\s*(.*)$", text)
            if m and m.group(1) in HEADINGS:
                body.append(("h", HEADINGS[m.group(1)]))
                paragraph = None
                if m.group(2):
                    paragraph = [m.group(2)]
                    body.append(("p", paragraph))
                continue
            if paragraph is None:
                paragraph = []
                body.append(("p", paragraph))
            paragraph.append(text)
        elif indent <= ITEM_MAX_INDENT:
            m = ITEM.match(text)
            item = [m.group(1), [m.group(2)] if m.group(2) else []]
            body.append(("item", item))
            paragraph = None
        elif item is not None:
            item[1].append(text)
        else:
            if paragraph is None:
                paragraph = []
                body.append(("p", paragraph))
            paragraph.append(text)

    # NAME: the command's line in `benchrack --help`'s table of commands when
    # given, else the first sentence of the first paragraph before any heading
    # (never a section's text, such as the exit codes).
    first = ""
    for kind, data in body:
        if kind == "h":
            break
        if kind == "p":
            first = " ".join(data)
            break
    summary = table_summary or re.split(r"(?<=[.:;])\s", first, maxsplit=1)[0].rstrip(".:;")
    if not summary:
        raise ValueError("no summary for the NAME line: the help text needs a paragraph "
                         "before its first heading")
    summary = summary[0].lower() + summary[1:]
    name = page  # what whatis/apropos index: the page's own name (benchrack-run)
    out += ["# NAME", "", f"{name} - {escape(summary)}", "",
            "# SYNOPSIS", "", escape(synopsis), "", "# DESCRIPTION", ""]
    for kind, data in body:
        if kind == "h":
            out += [f"# {data}", ""]
        elif kind == "p":
            out += [escape(" ".join(data)), ""]
        else:
            term, desc = data
            out.append(f"*{escape(term)}*")
            if desc:
                out.append("\t" + escape(" ".join(desc)))
            out.append("")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--benchrack", required=True)
    parser.add_argument("--command", default="")
    parser.add_argument("--scdoc", required=True)
    parser.add_argument("--extra")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    argv = [args.benchrack] + ([args.command] if args.command else []) + ["--help"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        print(f"help2man: {' '.join(argv)} exited {proc.returncode}: {proc.stderr}",
              file=sys.stderr)
        return 1
    page = "benchrack-" + args.command if args.command else "benchrack"
    table_summary = ""
    if args.command:
        main = subprocess.run([args.benchrack, "--help"], capture_output=True, text=True,
                              timeout=30)
        table_summary = command_summaries(main.stdout).get(args.command, "")
    try:
        text = convert(proc.stdout, page, args.command, table_summary)
    except ValueError as e:
        print(f"help2man: {' '.join(argv)}: {e}", file=sys.stderr)
        return 1
    if args.extra:
        with open(args.extra, encoding="utf-8") as f:
            text += "\n" + f.read()
    roff = subprocess.run([args.scdoc], input=text, capture_output=True, text=True, timeout=30)
    if roff.returncode != 0:
        print(f"help2man: scdoc refused the page for {page}: {roff.stderr}", file=sys.stderr)
        return 1
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(roff.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
