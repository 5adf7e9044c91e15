#!/usr/bin/env python3
"""layers.py - no folder of libtensorsuite uses a folder above it.

src/lib/README declares the folders' order, from the bottom up, in its
line "Layers: num util ...".  Every #include "DIR/..." of a file of
src/lib/FOLDER must name FOLDER or one below it; with a build directory,
so must every symbol an object of the library takes from another (the
calls that a public header would hide from the includes).

Above the library, the front end (libtsfe.a) has three floors: the
statistics (src/fe/stats) and the generated values (src/fe/values),
the front end's base (src/fe: fe.h,
operand.h, readme.h, statsout.h), the engine (src/fe/job); the tools
(src/ts-*) sit on top.  A file includes from its floor or those below,
and a tool from no other tool.

    tests/layers.py TOP [BUILD]

prints each offence and exits 1 when there is one.
"""
import os
import re
import subprocess
import sys


def layers(top):
    with open(os.path.join(top, "src/lib/README")) as f:
        for line in f:
            m = re.match(r"\s*Layers:\s*(.*)", line)
            if m:
                return m.group(1).split()
    sys.exit("layers.py: src/lib/README has no 'Layers:' line")


def main():
    top = sys.argv[1]
    build = sys.argv[2] if len(sys.argv) > 2 else None
    order = layers(top)
    rank = {d: i for i, d in enumerate(order)}
    lib = os.path.join(top, "src/lib")
    bad = []
    sources = []
    for d in sorted(os.listdir(lib)):
        p = os.path.join(lib, d)
        if not os.path.isdir(p):
            continue
        if d not in rank:
            bad.append(f"src/lib/{d}/: a folder the 'Layers:' line of "
                       "src/lib/README does not place")
            continue
        for name in sorted(os.listdir(p)):
            if not name.endswith((".c", ".h")):
                continue
            sources.append((d, name))
            with open(os.path.join(p, name)) as f:
                for n, line in enumerate(f, 1):
                    m = re.match(r'\s*#\s*include\s+"([^"/]+)/', line)
                    if m is None:
                        continue
                    t = m.group(1)
                    if t not in rank:
                        bad.append(f"src/lib/{d}/{name}:{n}: includes from "
                                   f"'{t}/', which is not the library's")
                    elif rank[t] > rank[d]:
                        bad.append(f"src/lib/{d}/{name}:{n}: {d}/ includes "
                                   f"from {t}/, a folder above it")
    if build is not None:
        objs = [(d, os.path.join(build, "lib", d, n[:-2] + ".o"))
                for d, n in sources if n.endswith(".c")]
        defs, undefs = {}, {}
        for d, o in objs:
            out = subprocess.run(["nm", o], capture_output=True, text=True,
                                 check=True).stdout
            for line in out.splitlines():
                f = line.split()
                if len(f) == 2 and f[0] == "U":
                    undefs.setdefault(o, set()).add(f[1])
                elif len(f) == 3 and f[1].isupper():
                    defs[f[2]] = d
        for d, o in objs:
            for s in sorted(undefs.get(o, ())):
                t = defs.get(s)
                if t is not None and rank[t] > rank[d]:
                    bad.append(f"{os.path.relpath(o, build)}: {d}/ calls "
                               f"{s} of {t}/, a folder above it")
    bad += frontend(top, rank)
    for b in bad:
        print(b)
    return 1 if bad else 0


FLOORS = {"stats": 0, "values": 0, "fe": 1, "job": 2, "tool": 3}


def frontend(top, rank):
    """The front end's floors and the tools (see the docstring)."""
    bad = []
    fe = os.path.join(top, "src/fe")
    base_headers = {n for n in os.listdir(fe) if n.endswith(".h")}
    files = []
    for d, floor in (("src/fe/stats", "stats"), ("src/fe/values", "values"),
                     ("src/fe", "fe"), ("src/fe/job", "job")):
        for n in sorted(os.listdir(os.path.join(top, d))):
            if n.endswith((".c", ".h")):
                files.append((os.path.join(d, n), floor, None))
    src = os.path.join(top, "src")
    for t in sorted(os.listdir(src)):
        if t.startswith("ts-") and os.path.isdir(os.path.join(src, t)):
            for n in sorted(os.listdir(os.path.join(src, t))):
                if n.endswith((".c", ".h")):
                    files.append((f"src/{t}/{n}", "tool", t))
    tool_headers = {}
    for f, floor, t in files:
        if floor == "tool" and f.endswith(".h"):
            tool_headers.setdefault(os.path.basename(f), set()).add(t)
    for f, floor, tool in files:
        with open(os.path.join(top, f)) as fp:
            for n, line in enumerate(fp, 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if m is None:
                    continue
                inc = m.group(1)
                head = inc.split("/")[0] if "/" in inc else None
                if head in rank or inc in ("tensorsuite.h", "tsnum.h"):
                    continue
                if head in ("stats", "values", "job"):
                    to = head
                elif head is None and inc in base_headers:
                    to = "fe"
                elif head is None and tool is not None and \
                        tool in tool_headers.get(inc, ()):
                    to = "tool"
                else:
                    bad.append(f"{f}:{n}: includes \"{inc}\", which is "
                               "neither the library's, the front end's "
                               "nor its own tool's")
                    continue
                if FLOORS[to] > FLOORS[floor]:
                    bad.append(f"{f}:{n}: the {floor} floor includes "
                               f"\"{inc}\", of the {to} floor above it")
    return bad


if __name__ == "__main__":
    sys.exit(main())
