#!/usr/bin/python3
"""Run the EXAMPLES of an mdoc page and compare what they print.

usage: man-examples.py PAGE

Commands are the lines starting with "$ " in the EXAMPLES section (in
.Dl lines or literal displays); a line ending in "|" or "\\" continues on
the next.  Lines that follow a command inside a display are its expected
standard output; a command without them must only succeed.  Commands run
with the shell from the current directory (tests/docexamples.py, which
tests/readme-examples.py shares).  Prints one line per failure; exit
status 1 when any command failed or printed something else.
"""

import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from docexamples import check, command  # noqa: E402


def unescape(line):
    line = line.replace("\\-", "-").replace("\\e", "\\").replace("\\(aq", "'")
    return re.sub(r"\\&", "", line)


def examples(page):
    lines = open(page, encoding="utf-8").read().split("\n")
    try:
        start = lines.index(".Sh EXAMPLES")
    except ValueError:
        return []
    out, cur, in_disp = [], None, False
    i = start + 1
    while i < len(lines) and not lines[i].startswith(".Sh "):
        line = lines[i]
        i += 1
        if line.startswith(".Bd"):
            in_disp = True
            continue
        if line.startswith(".Ed"):
            in_disp, cur = False, None
            continue
        if line.startswith(".Dl $ "):
            out.append([unescape(line[4:])[2:], None])
            cur = None
            continue
        if not in_disp:
            continue
        text = unescape(line)
        if text.startswith("$ "):
            cmd, i = command(text[2:], lines, i, unescape)
            cur = [cmd, []]
            out.append(cur)
        elif cur is not None:
            cur[1].append(text)
    return out


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: man-examples.py PAGE\n")
        return 2
    bad = 0
    ex = examples(sys.argv[1])
    if not ex:
        print("%s: no EXAMPLES commands found" % sys.argv[1])
        return 1
    for cmd, want in ex:
        why = check(cmd, want or None)
        if why is not None:
            print(why)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
