#!/usr/bin/env python3
"""Fits NVLink SHARP's pipeline fill (nvlsFillUsPerRank, nvlsFillBytesPerRank) to its fit curve.

The fit cases are the figures in resources/validation/nccl-tests.json whose `calibrates` names
nvlsFill (one 64-GPU NVL72 rack, 4 MiB to 16 GiB). The script runs each through
`fabriclab-cli nccl-tests --json`, takes out the fill the build already adds (the constants
it reads from model/sim/NcclExecution.hpp), and adds back

    fill = nvlsFillUsPerRank x G x S / (S + nvlsFillBytesPerRank x G)

for S bytes on G GPUs (the same sum as NcclExecution's nvlsFillUs), searching a grid for the
two constants with the least squared relative busbw error. Check cases are never read. Usage:

  scripts/fit-nvls-fill.py build/ci/app/fabriclab-cli
"""
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIGURES = os.path.join(HERE, "..", "resources", "validation", "nccl-tests.json")
HEADER = os.path.join(HERE, "..", "model", "sim", "NcclExecution.hpp")


def constant(name):
    return float(re.search(name + r"\s*=\s*([0-9.e+-]+);", open(HEADER).read()).group(1))


def fill(us_per_rank, bytes_per_rank, size, gpus):
    return us_per_rank * gpus * size / (size + bytes_per_rank * gpus)


def main():
    cli = sys.argv[1]
    spec = importlib.util.spec_from_file_location(
        "score", os.path.join(HERE, "validation-score.py"))
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)
    built = (constant("nvlsFillUsPerRank"), constant("nvlsFillBytesPerRank"))
    cases = [c for c in json.load(open(FIGURES))["cases"]
             if c["set"] == "fit" and "nvlsFill" in c.get("calibrates", "")]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            path = os.path.join(folder, case["id"] + ".fabric.json")
            with open(path, "w") as out:
                json.dump(score.design(case), out)
            size, gpus = case["bytes"], case["gpusPerServer"]
            out = subprocess.run([cli, "nccl-tests", path, "-b", str(size), "-e", str(size),
                                  "--json"], capture_output=True, text=True, check=True).stdout
            stream = json.loads(out)["rows"][0]["timeUs"] - fill(*built, size, gpus)
            rows.append((size, gpus, stream, case["published"][0]))

    def error(us_per_rank, bytes_per_rank):
        total = 0.0
        for size, gpus, stream, published in rows:
            us = stream + fill(us_per_rank, bytes_per_rank, size, gpus)
            busbw = size / us / 1e3 * 2 * (gpus - 1) / gpus
            total += (busbw / published - 1) ** 2
        return total

    best = min((error(e, s), e, s) for e in (0.25 * i for i in range(80))
               for s in (0.05e6 * i for i in range(100)))
    print(f"{len(rows)} fit figures: nvlsFillUsPerRank {best[1]:.2f}, "
          f"nvlsFillBytesPerRank {best[2]:.3g} (rms error {100 * math.sqrt(best[0] / len(rows)):.1f}%)")


if __name__ == "__main__":
    main()
