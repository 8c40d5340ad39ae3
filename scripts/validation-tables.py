#!/usr/bin/env python3
"""Rewrites the nccl-tests fit and check tables of tests/validation/README.md from what
tst_Validation prints, so the README shows what the suite measures at this commit:

  cmake --build --preset ci && scripts/validation-tables.py build/ci/tests/validation/tst_Validation
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
README = os.path.join(ROOT, "tests", "validation", "README.md")
FIGURES = os.path.join(ROOT, "resources", "validation", "nccl-tests.json")
ROW = re.compile(r"QINFO  : tst_Validation::ncclTests\((\w+) ([^)]+)\) \| \w+ \| [^|]+ \| [^|]+ "
                 r"\| ([^|]+) \| ([^|]+) \| ([^|]+) \|")
HEAD = ("| case | published | FabricLab (algorithm, protocol) | error vs middle | tolerance |\n"
        "|---|---|---|---|---|\n")


def published(case):
    low, high = case["published"]
    text = f"{low:g}" if low == high else f"{low:g}–{high:g}"
    return text + (" µs" if case.get("measure") == "timeUs" else "")


def main():
    out = subprocess.run([sys.argv[1], "-v1"], capture_output=True, text=True).stdout
    cases = {c["id"]: c for c in json.load(open(FIGURES))["cases"]}
    rows = {"fit": [], "check": []}
    for line in out.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        case = cases[m.group(2)]
        name = case["id"] + (" (known miss)" if "finding" in case else "")
        error = m.group(4).strip().replace("-", "−")
        rows[m.group(1)].append(f"| {name} | {published(case)} | {m.group(3).strip()} | "
                                f"{error} | {m.group(5).strip()} |")
    text = open(README).read()
    for kind, title in (("fit", "### Fit rows"), ("check", "### Check rows")):
        start = text.index("| case |", text.index(title))
        end = text.index("\n\n", start)
        text = text[:start] + HEAD + "\n".join(rows[kind]) + text[end:]
    open(README, "w").write(text)
    print(f"{len(rows['fit'])} fit and {len(rows['check'])} check rows written to {README}")


if __name__ == "__main__":
    main()
