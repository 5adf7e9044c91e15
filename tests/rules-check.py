#!/usr/bin/python3
"""Hold the rule table of the library, tensorsuite(5) and the code to
each other.

usage: rules-check.py TOP

The table is src/lib/util/rule.c ([TS_RULE_XN] = { "XN", "Section",
"text", under, writers }), the page man/tensorsuite.5 (a ".It XN" item
for each rule, under a section heading).  Both ways:
- every rule of the table is an item of the page, under the section the
  table names, and every item of the page is a row of the table;
- a rule reported under other ids ("under") says so in the page
  ("Reported as ..." naming them), and a rule of writers says "A rule for
  writers"; the page says so of no other rule;
- every other rule is reported under its own id somewhere in src/
  (TS_RULE_XN outside the table and the enum), and none of the first
  two kinds is.
Prints one line per disagreement; exit status 1 when there is any.
"""

import os
import re
import sys


def table(top):
    text = open(os.path.join(top, "src/lib/util/rule.c")).read()
    rows = {}
    for m in re.finditer(r'\[TS_RULE_([A-Z][0-9]+)\] = \{ "([A-Z][0-9]+)", '
                         r'"([^"]*)",(.*?)\n\t    (NULL|"[^"]*"), (true|false) \}',
                         text, re.S):
        rid, rid2, sec, _, under, writers = m.groups()
        rows[rid] = {
            "id": rid2, "section": sec,
            "under": set(under.strip('"').split()) if under != "NULL" else set(),
            "writers": writers == "true",
        }
    return rows


def page(top):
    lines = open(os.path.join(top, "man/tensorsuite.5")).read().split("\n")
    items, sec, cur = {}, None, None
    for line in lines:
        if line.startswith(".Ss "):
            sec, cur = line[4:].strip(), None
            continue
        m = re.match(r"\.It ([A-Z][0-9]+)$", line)
        if m:
            cur = m.group(1)
            items[cur] = {"section": sec, "text": ""}
            continue
        if line.startswith((".It", ".El", ".Sh", ".Ss")):
            cur = None
        elif cur is not None:
            items[cur]["text"] += " " + re.sub(r"^\.\w+ ", "", line)
    return items


def used(top):
    ids = set()
    for d, _, files in os.walk(os.path.join(top, "src")):
        for f in files:
            if not f.endswith((".c", ".h")) or f in ("rule.c", "tensorsuite.h"):
                continue
            text = open(os.path.join(d, f)).read()
            ids |= set(re.findall(r"\bTS_RULE_([A-Z][0-9]+)\b", text))
    return ids


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "."
    t, p, u = table(top), page(top), used(top)
    bad = []
    if len(t) < 40:
        bad.append("the table has only %d rows: is rule.c's layout changed?"
                   % len(t))
    for rid, r in sorted(t.items()):
        if r["id"] != rid:
            bad.append("%s: its row says '%s'" % (rid, r["id"]))
        if rid not in p:
            bad.append("%s: in the table, not in tensorsuite(5)" % rid)
            continue
        if p[rid]["section"] != r["section"]:
            bad.append("%s: section '%s' in the table, '%s' in the page"
                       % (rid, r["section"], p[rid]["section"]))
        text = p[rid]["text"]
        m = re.search(r"Reported as ((?:[A-Z][0-9]+)(?:[^.]*?))[,.]", text)
        said = set(re.findall(r"\b[A-Z][0-9]+\b", m.group(1))) if m else set()
        if said != r["under"]:
            bad.append("%s: reported as %s in the table, %s in the page"
                       % (rid, sorted(r["under"]) or "itself",
                          sorted(said) or "itself"))
        if r["writers"] != ("A rule for writers" in text):
            bad.append("%s: %sa rule for writers in the table, %sin the page"
                       % (rid, "" if r["writers"] else "not ",
                          "not " if r["writers"] else ""))
        own = not r["under"] and not r["writers"]
        if own and rid not in u:
            bad.append("%s: never reported under its own id (no TS_RULE_%s "
                       "in src/), and the page does not say why" % (rid, rid))
        if not own and rid in u:
            bad.append("%s: reported under its own id, though the page says "
                       "otherwise" % rid)
    for rid in sorted(set(p) - set(t)):
        bad.append("%s: in tensorsuite(5), not in the table" % rid)
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
