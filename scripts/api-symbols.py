#!/usr/bin/env python3
"""api-symbols.py - the functions the installed headers declare.

    scripts/api-symbols.py DIR

prints, one a line and sorted, the name of every function that
DIR/tensorsuite.h and DIR/tsnum.h declare at file scope: the library's
API.  The Makefile keeps these global in the installed libtensorsuite.a
and makes every other symbol local; tests/man-functions.py holds them to
libtensorsuite(3).
"""
import os
import re
import sys

HEADERS = ("tensorsuite.h", "tsnum.h")


def declared(path):
    """The names of the functions the header PATH declares."""
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


def api(top):
    """Every function of the installed headers in the folder TOP."""
    names = set()
    for h in HEADERS:
        names |= declared(os.path.join(top, h))
    return names


if __name__ == "__main__":
    for n in sorted(api(sys.argv[1])):
        print(n)
