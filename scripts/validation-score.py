#!/usr/bin/env python3
"""Scores a fabriclab-cli build against the published nccl-tests figures.

Runs every case of resources/validation/nccl-tests.json through `fabriclab-cli nccl-tests --json`
on the design tst_Validation builds for it (a rail-optimized leaf-spine of the case's
servers, GPUs and NICs), and counts the cases within their tolerance as tst_Validation does.
`fabriclab-cli validate` does the same inside FabricLab (model::runValidation); this script
scores from outside, so it also reads builds that predate that command. Use it to compare two
builds, e.g. before and after a model change:

  scripts/validation-score.py build/ci/app/fabriclab-cli
  scripts/validation-score.py /path/to/other/build/app/fabriclab-cli
  scripts/validation-score.py build/ci/app/fabriclab-cli --rows   # and one line per case
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIGURES = os.path.join(HERE, "..", "resources", "validation", "nccl-tests.json")
OPS = {"allreduce": "all_reduce", "allgather": "all_gather", "alltoall": "alltoall"}


def design(case):
    return {"format": "fabriclab-design", "version": 1, "name": case["id"],
            "fabric": case["fabric"],
            "generator": {"kind": "leaf-spine", "servers": case["servers"],
                          "gpusPerServer": case["gpusPerServer"],
                          "nicsPerServer": case["nicsPerServer"], "nicGbps": case["nicGbps"],
                          "railOptimized": True, "leafRadix": case.get("leafRadix", 64),
                          "spineRadix": case.get("spineRadix", 64), "oversubscription": 1.0},
            "workload": {"model": "llama3-8b", "gpu": case["gpu"],
                         "globalBatchTokens": 4194304, "tp": case["gpusPerServer"], "pp": 1,
                         "dp": case["servers"]}}


def main():
    cli = sys.argv[1]
    rows = "--rows" in sys.argv[2:]
    within = {"fit": 0, "check": 0}
    total = {"fit": 0, "check": 0}
    errors = []
    with tempfile.TemporaryDirectory() as folder:
        for case in json.load(open(FIGURES))["cases"]:
            path = os.path.join(folder, case["id"] + ".fabric.json")
            with open(path, "w") as out:
                json.dump(design(case), out)
            command = [cli, "nccl-tests", path, "--op", OPS[case["op"]], "-b", str(case["bytes"]),
                       "-e", str(case["bytes"]), "--json"]
            if case["algorithm"] != "auto":
                command += ["--algo", case["algorithm"]]
            row = json.loads(subprocess.run(command, capture_output=True, text=True,
                                            check=True).stdout)["rows"][0]
            got = row["timeUs"] if case.get("measure") == "timeUs" else row["busBwGBps"]
            low, high = case["published"]
            nearest = min(max(got, low), high)
            total[case["set"]] += 1
            ok = abs(got - nearest) / nearest <= case["tolerance"] + 1e-12
            within[case["set"]] += ok
            if rows:
                middle = (low + high) / 2
                print(f"{case['set']:5} {'ok  ' if ok else 'MISS'} {case['id']:45} "
                      f"{middle:9.2f} {got:9.2f} {100 * (got - middle) / middle:+6.1f}% "
                      f"{row['algorithm']} {row['protocol']}")
            if case["set"] == "check":
                middle = (low + high) / 2
                errors.append(abs(got - middle) / middle)
    print(f"check: {within['check']} of {total['check']} within tolerance, "
          f"|error| mean {100 * statistics.mean(errors):.1f}%, "
          f"median {100 * statistics.median(errors):.1f}%; "
          f"fit: {within['fit']} of {total['fit']}")


if __name__ == "__main__":
    main()
