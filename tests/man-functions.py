#!/usr/bin/env python3
"""man-functions.py - the installed headers and libtensorsuite(3) agree.

Every function the installed headers (src/lib/tensorsuite.h, tsnum.h)
declare is documented in man/libtensorsuite.3 (a .Fn or .Fo line names
it), and every function the page documents is declared.

    tests/man-functions.py TOP

prints what is missing on either side and exits 1 when something is.
"""
import importlib
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "scripts"))
api_symbols = importlib.import_module("api-symbols")  # noqa: E402


def documented(path):
    names = set()
    for line in open(path):
        m = re.match(r"\.(?:Fn|Fo)\s+(ts_[a-z0-9_]+)", line)
        if m:
            names.add(m.group(1))
    return names


def main():
    top = sys.argv[1]
    decl = api_symbols.api(os.path.join(top, "src/lib"))
    doc = documented(os.path.join(top, "man/libtensorsuite.3"))
    bad = 0
    for n in sorted(decl - doc):
        print(f"{n}: declared in the installed headers, not documented "
              "in libtensorsuite(3)")
        bad = 1
    for n in sorted(doc - decl):
        print(f"{n}: documented in libtensorsuite(3), not declared in the "
              "installed headers")
        bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
