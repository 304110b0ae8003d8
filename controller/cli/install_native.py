#!/usr/bin/env python3
"""Install a program built for the build machine, from a cross build.

Meson refuses `install: true` on a `native: true` target in a cross build, yet
benchrack (native) is what a cross build of this tree exists to ship. Run as
a Meson install script: copies FILE into $MESON_INSTALL_DESTDIR_PREFIX/DIR
with mode 0755, as `meson install` would (DESTDIR honoured).

Usage: install_native.py FILE DIR
"""

import os
import shutil
import sys


def main(argv):
    if len(argv) != 3:
        print("usage: install_native.py FILE DIR", file=sys.stderr)
        return 2
    source, subdir = argv[1], argv[2]
    prefix = os.environ.get("MESON_INSTALL_DESTDIR_PREFIX")
    if not prefix:
        print("install_native.py: run me from `meson install`", file=sys.stderr)
        return 2
    target_dir = os.path.join(prefix, subdir)
    os.makedirs(target_dir, exist_ok=True)
    target = os.path.join(target_dir, os.path.basename(source))
    shutil.copy2(source, target)
    os.chmod(target, 0o755)
    print(f"Installing {source} to {target_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
