#!/usr/bin/python3
"""Run the commands of a README as a newcomer pastes them, twice.

usage: readme-examples.py README BUILD

Commands are the lines starting with "$ " in the README's code blocks,
indented by four spaces or fenced; a line ending in "|" or "\\" continues
on the next.  The lines that follow a command in its block, up to the next
command or the end of the block, are what it prints, standard output and
standard error as a terminal shows them; a command followed by none must
print nothing.  A fenced block tagged as shell (sh, bash, shell, console)
must mark its commands so.  Lines of other blocks are not run.

The commands run with sh, in order, from the top of a scratch copy of the
tree: the share/ beside README, build, a link to BUILD (the build under
test, as after `make`), and tests/data, a link to the test data beside
README (read, never written); with no TS_ variable in the environment and
standard input empty.  Each must exit 0 and print what the README shows.
Then they all run a second time in the same copy, as a reader who goes
through the README again, and must do the same; at the end share/ must be
as the tree has it.

Prints one paragraph per failure, README:LINE first, and exits 1; else
prints one line saying how many commands ran, and exits 0 (tests/docs.bats
runs it).  tests/docexamples.py, shared with tests/man-examples.py, runs
and compares.
"""

import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from docexamples import check, command  # noqa: E402

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)")
SHELL = {"sh", "bash", "shell", "console"}


def blocks(lines):
    """The code blocks of a Markdown text: (number of the block's first
    line, its lines without their indentation, whether it is a shell
    block without a "$ " line)."""
    out, i, prev_blank = [], 0, True
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m:
            indent, fence, info = len(m.group(1)), m.group(2), m.group(3)
            start, body = i + 2, []
            i += 1
            while i < len(lines) and not (
                    lines[i].lstrip(" ").startswith(fence[0] * len(fence))
                    and len(lines[i]) - len(lines[i].lstrip(" ")) <= 3):
                text = lines[i]
                body.append(text[min(indent, len(text) -
                                     len(text.lstrip(" "))):])
                i += 1
            i += 1
            unmarked = (info.lower() in SHELL and
                        not any(b.startswith("$ ") for b in body))
            out.append((start, body, unmarked))
            prev_blank = False
            continue
        if prev_blank and line.startswith("    ") and line.strip():
            start, body = i + 1, []
            while i < len(lines) and (lines[i].startswith("    ") or
                                      not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            out.append((start, body, False))
            prev_blank = False
            continue
        prev_blank = not line.strip()
        i += 1
    return out


def commands(lines):
    """The commands of a README's code blocks, in order: [line number,
    command, the lines it prints], and the line numbers of shell blocks
    whose commands are not marked."""
    out, unmarked = [], []
    for start, body, bad in blocks(lines):
        if bad:
            unmarked.append(start - 1)
        cur, i = None, 0
        while i < len(body):
            text = body[i]
            i += 1
            if text.startswith("$ "):
                n = start + i - 1
                cmd, i = command(text[2:], body, i)
                cur = [n, cmd, []]
                out.append(cur)
            elif cur is not None:
                cur[2].append(text)
    for c in out:
        while c[2] and not c[2][-1].strip():
            c[2].pop()
    return out, unmarked


def files(top):
    """Every file below TOP, by its path from TOP, with its bytes."""
    out = {}
    for d, _, names in os.walk(top):
        for name in names:
            p = os.path.join(d, name)
            with open(p, "rb") as f:
                out[os.path.relpath(p, top)] = f.read()
    return out


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: readme-examples.py README BUILD\n")
        return 2
    readme, build = sys.argv[1], os.path.abspath(sys.argv[2])
    name = os.path.basename(readme)
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    cmds, unmarked = commands(lines)
    bad = 0
    for n in unmarked:
        print("%s:%d: a shell block with no \"$ \" line: mark each command "
              "with \"$ \", or tag the block otherwise" % (name, n))
        bad += 1
    if not cmds:
        print("%s: no command found" % name)
        return 1
    share = os.path.join(os.path.dirname(os.path.abspath(readme)), "share")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
    scratch = tempfile.mkdtemp(prefix="readme-")
    try:
        shutil.copytree(share, os.path.join(scratch, "share"))
        os.symlink(build, os.path.join(scratch, "build"))
        os.makedirs(os.path.join(scratch, "tests"))
        os.symlink(os.path.join(os.path.dirname(share), "tests", "data"),
                   os.path.join(scratch, "tests", "data"))
        for run in ("", " (second run)"):
            for n, cmd, want in cmds:
                why = check(cmd, want, cwd=scratch, env=env, merged=True)
                if why is not None:
                    print("%s:%d%s: %s" % (name, n, run, why))
                    bad += 1
        was, now = files(share), files(os.path.join(scratch, "share"))
        for p in sorted(set(was) | set(now)):
            if was.get(p) != now.get(p):
                print("%s: share/%s: %s by the commands" % (
                    name, p, "made" if p not in was else
                    "removed" if p not in now else "changed"))
                bad += 1
    finally:
        shutil.rmtree(scratch)
    if bad:
        return 1
    print("%s: %d commands, run twice in a scratch copy: each exited 0 and "
          "printed what the README shows; share/ as it was" %
          (name, len(cmds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
