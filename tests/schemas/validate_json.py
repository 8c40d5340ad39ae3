#!/usr/bin/env python3
# SPDX-FileCopyrightText: FabricLab authors
# SPDX-License-Identifier: MIT
"""Checks JSON documents against one of FabricLab's schemas (schemas/*.schema.json).

    validate_json.py SCHEMA FILE...          every FILE is one JSON document
    validate_json.py --lines SCHEMA FILE...  every non-blank line of FILE is one (JSON Lines)

Prints one line per violation (file, line for JSON Lines, JSON path, message) and exits 1
when there is any, 0 when every document follows the schema, 2 on a usage error. The other
schemas in SCHEMA's folder are known by their $id, so "$ref"s between them resolve offline.
Works with python3-jsonschema 4.10 (Debian 12) and the releases after it.
"""
import json
import pathlib
import sys

import jsonschema
from jsonschema.validators import validator_for


def validator(schema_path):
    folder = pathlib.Path(schema_path).resolve().parent
    known = [json.loads(p.read_text()) for p in sorted(folder.glob("*.schema.json"))]
    schema = json.loads(pathlib.Path(schema_path).read_text())
    cls = validator_for(schema)
    cls.check_schema(schema)
    try:
        from referencing import Registry, Resource  # jsonschema 4.18 and later

        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s)) for s in known if "$id" in s)
        return cls(schema, registry=registry)
    except ImportError:
        store = {s["$id"]: s for s in known if "$id" in s}
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return cls(schema, resolver=resolver)


def documents(path, lines):
    text = pathlib.Path(path).read_text()
    if not lines:
        yield path, json.loads(text)
        return
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield f"{path}:{number}", json.loads(line)


def main(argv):
    lines = "--lines" in argv
    args = [a for a in argv if a != "--lines"]
    if len(args) < 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    check = validator(args[0])
    failures = 0
    for path in args[1:]:
        for where, document in documents(path, lines):
            for error in sorted(check.iter_errors(document), key=lambda e: list(e.path)):
                pointer = "/" + "/".join(str(p) for p in error.absolute_path)
                print(f"{where}: {pointer}: {error.message[:300]}")
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
