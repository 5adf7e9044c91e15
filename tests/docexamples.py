"""What tests/man-examples.py and tests/readme-examples.py share.

Both read commands from a document, as the lines that start with "$ ",
and the lines after each one as what it prints; both run them with the
shell and compare.
"""

import subprocess


def command(text, lines, i, clean=lambda s: s):
    """The command that TEXT starts ("$ " taken off), and the index of the
    line after it: a line ending in "|" or "\\" continues on the next,
    lines[i], passed through CLEAN and stripped.  A backslash stays: the
    shell joins the lines."""
    while text.rstrip().endswith(("|", "\\")) and i < len(lines):
        text = text.rstrip() + "\n" + clean(lines[i]).strip()
        i += 1
    return text, i


def check(cmd, want, cwd=None, env=None, merged=False, timeout=120):
    """Run CMD with sh -c in CWD, standard input empty.  Return None when it
    exits 0 and, unless WANT is None, prints the lines WANT: its standard
    output, or with MERGED its standard error too, in one stream as a
    terminal shows them.  Else return what went wrong, in a few lines."""
    try:
        p = subprocess.run(["sh", "-c", cmd], cwd=cwd, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT if merged
                           else subprocess.PIPE,
                           text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return "FAIL (still running after %d s): %s" % (timeout, cmd)
    said = p.stdout if merged else p.stderr
    if p.returncode != 0:
        return "FAIL (exit %d): %s\n%s" % (p.returncode, cmd, said)
    got = p.stdout.rstrip("\n").split("\n") if p.stdout.strip("\n") else []
    if want is not None and got != want:
        return "FAIL (output): %s\nwanted:\n%s\ngot:\n%s" % (
            cmd, "\n".join(want), p.stdout)
    return None
