#!/usr/bin/python3
"""Check TensorSuite metadata files against the JSON Schema.

usage: schema-check.py SCHEMA [FILE ...]

For every FILE, print one line:

    FILE<TAB>valid
    FILE<TAB>invalid<TAB>first error message

A FILE that cannot be read or is not JSON is reported as invalid too, so
the exit status is 0 whenever the schema itself could be loaded.  Exit
status 2 means a usage error, or a SCHEMA that cannot be read or is not a
valid draft 2020-12 schema.

The schema's "format" keywords are asserted, not merely annotated, so
that "time": "2023-02-29" is rejected as ts-validate rejects it.
"""

import json
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError, best_match
except ImportError as exc:
    sys.stderr.write("schema-check.py: %s (install python3-jsonschema)\n" % exc)
    sys.exit(2)

PROG = "schema-check.py"
USAGE = "usage: %s SCHEMA [FILE ...]\n" % PROG


def die(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def one_line(text):
    """Keep the report to one line per file, whatever the message holds."""
    return " ".join(str(text).split())


def pointer(path):
    """The JSON Pointer (RFC 6901) of an instance location."""
    parts = [str(p).replace("~", "~0").replace("/", "~1") for p in path]
    return "/" + "/".join(parts)


def first_error(validator, instance):
    """The most relevant error, or None.

    best_match prefers errors deep in the instance and looks inside
    anyOf/oneOf; sorting first makes the choice independent of the order
    in which the validator happens to yield errors.
    """
    errors = sorted(validator.iter_errors(instance),
                    key=lambda e: (list(map(str, e.absolute_path)),
                                   str(e.validator), e.message))
    if not errors:
        return None
    err = best_match(errors)
    return "%s: %s" % (pointer(err.absolute_path), one_line(err.message))


def reject_constant(name):
    # Python's json module reads NaN and Infinity, which JSON has not.
    raise ValueError("'%s' is not a JSON value" % name)


def load_json(path):
    with open(path, "r", encoding="utf-8") as f:
        return json.load(f, parse_constant=reject_constant)


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.stderr.write(USAGE)
        return 2

    try:
        schema = load_json(argv[1])
    except (OSError, ValueError) as exc:
        die("'%s': %s" % (argv[1], one_line(exc)))
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        die("'%s': not a draft 2020-12 schema: %s" %
            (argv[1], one_line(exc.message)))

    checker = getattr(Draft202012Validator, "FORMAT_CHECKER", None)
    if checker is None:
        checker = jsonschema.draft202012_format_checker
    validator = Draft202012Validator(schema, format_checker=checker)

    for path in argv[2:]:
        try:
            instance = load_json(path)
        except OSError as exc:
            msg = "cannot read: %s" % (exc.strerror or exc)
        except ValueError as exc:
            msg = "not JSON: %s" % exc
        else:
            msg = first_error(validator, instance)
        if msg is None:
            print("%s\tvalid" % path)
        else:
            print("%s\tinvalid\t%s" % (path, one_line(msg)))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:
        sys.exit(0)
