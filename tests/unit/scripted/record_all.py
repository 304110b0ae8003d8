"""Records every scripted conversation of one folder again (after a change
to what the client sends), each the way its own header says it was made.

usage: record_all.py BUILD_DIR FOLDER   (e.g. build/plain scripts/run)

Each recorded .rsp's header names its record_rsp.py options ("Recorded with
... OUT OPTIONS") and the client ("#   -- COMMAND"); the file is recorded
again with them, against a QEMU record_rsp.py starts, and its header kept.
Then the two derived ones of scripts/run and scripts/session are made again
from the new normal.rsp: delay.rsp (a 1 ms pause before every reply) and,
where it exists, stall.rsp (50 ms once, before the server's 12th reply).
scripts/delay.rsp of test_scripted_target is written by hand (its header
says how) and is left as it is. Standard library only."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def split(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    return [l for l in lines if l.startswith("#")], [l for l in lines if not l.startswith("#")]


def record(build, path):
    header, _ = split(path)
    opts = next((l.split(" OUT", 1)[1].split() for l in header if "Recorded with" in l), None)
    client = next((l.split("-- ", 1)[1].split() for l in header if l.startswith("#   -- ")), None)
    if opts is None or client is None:
        return False  # derived or written by hand
    s = os.path.join(build, "tests", "unit", "scripted")
    command = [os.path.join(s, client[0])] + [os.path.join(s, a) if a.endswith(".elf") else a
                                              for a in client[1:]]
    out = path + ".new"
    subprocess.run([sys.executable, os.path.join(HERE, "record_rsp.py"), "qemu-system-arm",
                    os.path.join(s, "region.elf"), out, *opts, "--", *command],
                   check=True, capture_output=True, timeout=300)
    _, body = split(out)
    os.remove(out)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(header + body))
    return True


def derive(folder):
    _, normal = split(os.path.join(folder, "normal.rsp"))
    for name, pause in (("delay.rsp", lambda n: "~ 1"), ("stall.rsp", lambda n: "~ 50" if n == 12 else None)):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        header, _ = split(path)
        out, replies = [], 0
        for line in normal:
            if line.startswith("<") and not line.startswith("<!"):
                replies += 1
                p = pause(replies)
                if p:
                    out.append(p)
            out.append(line)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(header + out))


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    build, folder = argv[1], argv[2]
    if not os.path.isabs(folder):
        folder = os.path.join(HERE, folder)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".rsp") and record(build, os.path.join(folder, name)):
            print("recorded", name)
    if os.path.basename(folder.rstrip("/")) in ("run", "session"):
        derive(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
