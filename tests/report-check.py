#!/usr/bin/env python3
"""Read ts-validate's reports as their readers do, and say what they hold.

    report-check.py github       < OUTPUT   workflow commands, as the runner
    report-check.py junit FILE              a JUnit document
    report-check.py json MANPAGE < OUTPUT   JSON Lines, keys in ts-validate(1)
    report-check.py text         < OUTPUT   verdict lines of the text format
    report-check.py unquote WORD            a name as the text format quotes it

A name is printed as Python's repr of its bytes, so that a test can
compare it with what it made.  Any breach (a line that the GitHub
runner would read as a command the tool did not mean, a document that
does not parse, a name that does not decode to a file that is there,
or to a bundle or a file of an archive there, ARCHIVE:NAME[/FILE], a
key the manual does not list) is a message on stderr and exit status 1.
"""
import base64
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("report-check: " + msg, file=sys.stderr)
    sys.exit(1)


def unquote(word):
    """The bytes of a name in the text format's quoting: as it is, or a
    shell word of '...' runs, $'...' runs (C escapes, \\ooo) and \\'."""
    if not word.startswith("'"):
        return word.encode()
    out = bytearray()
    named = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11,
             "\\": 92, "'": 39}
    i = 0
    while i < len(word):
        if word[i] == "'":
            j = word.index("'", i + 1)
            out += word[i + 1:j].encode()
            i = j + 1
        elif word.startswith("$'", i):
            i += 2
            while word[i] != "'":
                if word[i] != "\\":
                    fail("unquoted %r in %r" % (word[i], word))
                c = word[i + 1]
                if c in "01234567":
                    out.append(int(word[i + 1:i + 4], 8))
                    i += 4
                else:
                    out.append(named[c])
                    i += 2
            i += 1
        elif word.startswith("\\'", i):
            out.append(39)
            i += 2
        else:
            fail("%r is not a quoted name" % word)
    return bytes(out)


def members(archive):
    """The member names of a tar archive, as GNU tar lists them."""
    try:
        out = subprocess.run(["tar", "-tf", archive], capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return set(m.rstrip(b"/") for m in out.split(b"\n") if m)


def exists(name):
    """A file here, or a bundle or file inside an archive here, named
    ARCHIVE:NAME or ARCHIVE:NAME/FILE (the archive's name may hold ':')."""
    if os.path.lexists(name) or name in (b"no-such", b"-"):
        return True
    at = name.find(b":")
    while at > 0:
        archive, inside = name[:at], name[at + 1:]
        if os.path.isfile(archive):
            m = members(archive)
            if m is not None and inside in m:
                return True
        at = name.find(b":", at + 1)
    return False


# ---- GitHub: the runner's reading (actions/runner ActionCommand.cs) ----

COMMANDS = ("error", "warning", "notice")


def unescape(s, prop):
    for a, b in (("%0D", "\r"), ("%0A", "\n")) + \
            ((("%3A", ":"), ("%2C", ",")) if prop else ()) + (("%25", "%"),):
        s = s.replace(a, b)
    return s


def github():
    data = sys.stdin.buffer.read()
    # .NET's ReadLine ends a line at LF, CR or CR LF.
    lines = re.split(rb"\r\n|\r|\n", data)
    n = 0
    for raw in lines:
        line = raw.decode("utf-8", "replace")
        t = line.lstrip()
        end = t.find("::", 2) if t.startswith("::") else -1
        # The old syntax is looked for only in a line that is not a
        # command of the new one.
        if end < 0:
            if "##[" in line:
                fail("a ##[ command: %r" % raw)
            continue
        info = t[2:end]
        cmd, _, props = info.partition(" ")
        if cmd not in COMMANDS or len(t) != len(line):
            fail("a command the tool did not mean: %r" % raw)
        for p in filter(None, props.strip().split(",")):
            k, _, v = p.partition("=")
            v = unescape(v, True)
            if k == "file":
                name = v.encode()
                if not exists(name) and v.startswith("'"):
                    name = unquote(v)
                if not exists(name):
                    fail("file=%r is no file here" % v)
                print("%s %r %s" % (cmd, name, unescape(t[end + 2:], False)))
            elif k not in ("line", "col", "title"):
                fail("property %r in %r" % (k, raw))
        if props.strip() == "":
            print("%s %s" % (cmd, unescape(t[end + 2:], False)))
        n += 1
    print("%d annotations" % n)


# ---- JUnit ----

def junit(path):
    root = ET.parse(path).getroot()
    suites = root.findall("testsuite")
    cases = root.findall("testsuite/testcase")
    count = {"failure": 0, "error": 0}
    for c in cases:
        for k in count:
            count[k] += len(c.findall(k))
    for e in [root] + suites:
        got = (int(e.get("tests")), int(e.get("failures")),
               int(e.get("errors")))
        if got != (len(cases), count["failure"], count["error"]):
            fail("<%s> counts %s for %d cases, %s" % (e.tag, got, len(cases),
                                                       count))
    print("%d tests, %d failures, %d errors" % (len(cases), count["failure"],
                                                 count["error"]))
    for c in cases:
        name = unquote(c.get("name"))
        if not exists(name):
            fail("test case %r is no file here" % c.get("name"))
        kind, text = "pass", ""
        for k in ("failure", "error", "system-out"):
            e = c.find(k)
            if e is not None:
                kind, text = k, (e.text or "").strip().splitlines()[0]
                break
        print("%r %s %s" % (name, kind, text))


# ---- text: the verdict lines ----

VERDICT = re.compile(r"^(.*): (valid|invalid|not checked) \(.*\)$")


def text():
    for raw in sys.stdin.buffer.read().split(b"\n"):
        if raw == b"":
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            fail("not UTF-8: %r" % raw)
        if re.search(r"[\x00-\x1f\x7f-\x9f]", line):
            fail("a control character in %r" % raw)
        m = VERDICT.match(line)
        if m is None:
            continue
        name = unquote(m.group(1))
        if not exists(name):
            fail("%r is no file here" % m.group(1))
        print("%r %s" % (name, m.group(2)))


# ---- JSON ----

def documented(manpage):
    with open(manpage, encoding="utf-8") as f:
        page = f.read()
    sec = page[page.index(".Ss JSON reports"):page.index(".Sh ENVIRONMENT")]
    keys = set()
    for line in sec.splitlines():
        m = re.match(r"\.(It )?Li (.*)", line)
        if m:
            keys.update(w for w in m.group(2).split() if
                        re.fullmatch(r"[a-z_0-9]+", w))
    return keys


def jname(obj, key):
    """The bytes of a name member: exact, or quoted with KEY_base64."""
    v = obj.get(key)
    if v is None:
        return None
    if key + "_base64" in obj:
        raw = base64.b64decode(obj[key + "_base64"], validate=True)
        if unquote(v) != raw:
            fail("%s %r does not quote %s_base64 %r" % (key, v, key, raw))
        return raw
    return v.encode()


def jsonl(manpage):
    keys = documented(manpage)
    for line in sys.stdin.buffer.read().splitlines():
        r = json.loads(line.decode("utf-8"))
        for k in list(r) + [k for d in r["diagnostics"] for k in d]:
            if k not in keys:
                fail("key %r is not in %s" % (k, manpage))
        path = jname(r, "path")
        if not exists(path):
            fail("path %r is no file here" % path)
        print("%r valid=%s status=%d" % (path, r["valid"], r["status"]))
        for d in r["diagnostics"]:
            f = jname(d, "file")
            if f is not None and not exists(f):
                fail("file %r is no file here" % f)
            print("  %r %s" % (f, d["message"]))


def main():
    if len(sys.argv) < 2:
        fail("usage: report-check.py github|junit FILE|json MAN|text|unquote W")
    mode = sys.argv[1]
    if mode == "github":
        github()
    elif mode == "junit":
        junit(sys.argv[2])
    elif mode == "json":
        jsonl(sys.argv[2])
    elif mode == "text":
        text()
    elif mode == "unquote":
        print(repr(unquote(sys.argv[2])))
    else:
        fail("unknown mode %r" % mode)


main()
