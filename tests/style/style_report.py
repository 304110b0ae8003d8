"""What the style checks share: the C files of some folders, in a stable
order; and the ending, each failure on a line of its own, then one summary
line, the exit status 1 when anything failed."""
import os


def c_files(root, folders):
    """(path, path relative to root) of each .c and .h file under the folders."""
    for folder in folders:
        for top, dirs, files in os.walk(os.path.join(root, folder)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    path = os.path.join(top, name)
                    yield path, os.path.relpath(path, root)


def finish(failures, summary):
    for f in failures:
        print(f)
    print(summary)
    return 1 if failures else 0
