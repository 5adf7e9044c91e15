#!/usr/bin/env python3
"""man-functions.py - the installed headers and libtensorsuite(3) agree.

Every function the installed headers (src/lib/tensorsuite.h, tsnum.h)
declare is documented in man/libtensorsuite.3 (a .Fn or .Fo line names
it), and every function the page documents is declared.

    tests/man-functions.py TOP

prints what is missing on either side and exits 1 when something is.
"""
import os
import re
import sys


def declared(path):
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    text = re.sub(r'extern\s+"C"\s*\{', " ", text)
    text = re.sub(r'^\}\s*$', " ", text, flags=re.M)
    names = set()
    # A declaration at file scope: "type name(" or "type *name(",
    # not a function pointer "(*name)(" inside a struct.
    depth = 0
    stmt = ""
    for ch in text:
        if ch == "{":
            depth += 1
            stmt = ""
        elif ch == "}":
            depth -= 1
            stmt = ""
        elif ch == ";":
            if depth == 0:
                m = re.search(r"\b(ts_[a-z0-9_]+)\s*\(", stmt)
                if m and not re.search(r"\(\s*\*\s*ts_", stmt) and \
                        not stmt.strip().startswith("typedef"):
                    names.add(m.group(1))
            stmt = ""
        elif depth == 0:
            stmt += ch
    return names


def documented(path):
    names = set()
    for line in open(path):
        m = re.match(r"\.(?:Fn|Fo)\s+(ts_[a-z0-9_]+)", line)
        if m:
            names.add(m.group(1))
    return names


def main():
    top = sys.argv[1]
    decl = set()
    for h in ("tensorsuite.h", "tsnum.h"):
        decl |= declared(os.path.join(top, "src/lib", h))
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
