#!/usr/bin/env python3
"""Fits the serving model's two constants of a GPU on the serving fit set.

The fit rows are those of resources/validation/serving.json whose `calibrates` names
`layerOverheadUs` (what a forward pass spends per layer beyond math and memory) or `kvRead`
(the share of HBM peak decode attention reaches reading the KV cache). Each row is run through
`fabriclab-cli run --json` with its GPU spelled out inline and the constant set to a trial
value; the constant is bisected until the row's metric meets its published figure. The two
constants touch both rows a little, so the bisections alternate until neither moves. Check
rows are never read by the fit; `--check` prints the prediction against each of them instead.
Usage:

  scripts/fit-serving.py build/ci/app/fabriclab-cli [--check]
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIGURES = os.path.join(HERE, "..", "resources", "validation", "serving.json")
GPUS = os.path.join(HERE, "..", "resources", "catalog", "gpus.json")


def design(case, gpu=None):
    """The design model/validation/PublishedServing.cpp builds, with an inline GPU if given."""
    serving = dict(case["serving"])
    if gpu is not None:
        serving["gpu"] = gpu
    return {
        "format": "fabriclab-design", "version": 1, "name": case["id"], "fabric": case["fabric"],
        "generator": {
            "kind": "leaf-spine", "servers": case["servers"],
            "gpusPerServer": case["gpusPerServer"], "nicsPerServer": 8, "nicGbps": 400,
            "railOptimized": True, "leafRadix": 64, "spineRadix": 64, "oversubscription": 1.0},
        "serving": serving}


def metric(cli, case, gpu=None):
    with tempfile.NamedTemporaryFile("w", suffix=".fabric.json", delete=False) as f:
        json.dump(design(case, gpu), f)
        path = f.name
    try:
        out = subprocess.run([cli, "run", path, "--json"], capture_output=True, text=True,
                             check=True)
        return json.loads(out.stdout)["serving"][case["metric"]]
    finally:
        os.unlink(path)


def with_constants(entry, overhead_us, kv_read):
    gpu = copy.deepcopy(entry)
    gpu["layerOverheadUs"] = overhead_us
    gpu["computeEfficiency"]["kvRead"] = kv_read
    return gpu


def bisect(f, lo, hi, target, rising):
    """The x in [lo, hi] where f(x) meets target; `rising` says whether f grows with x."""
    for _ in range(40):
        mid = (lo + hi) / 2
        if (f(mid) < target) == rising:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def fit(cli, cases):
    gpus = {g["id"]: g for g in json.load(open(GPUS))["gpus"]}
    rows = [c for c in cases if c["set"] == "fit"]
    for gpu_id in sorted({c["gpu"] for c in rows}):
        entry = gpus[gpu_id]
        overhead_row = next(c for c in rows if c["gpu"] == gpu_id and c["calibrates"] == "layerOverheadUs")
        kv_row = next(c for c in rows if c["gpu"] == gpu_id and c["calibrates"] == "kvRead")
        overhead, kv_read = 0.0, entry["computeEfficiency"]["memory"]["value"]
        for _ in range(4):
            # Time per output token grows with the overhead; tokens per second with the share.
            overhead = bisect(lambda x: metric(cli, overhead_row, with_constants(entry, x, kv_read)),
                              0.0, 1000.0, overhead_row["published"], rising=True)
            kv_read = bisect(lambda x: metric(cli, kv_row, with_constants(entry, overhead, x)),
                             0.05, 1.0, kv_row["published"], rising=True)
        print(f"{gpu_id}: layerOverheadUs {overhead:.1f} (on {overhead_row['id']}), "
              f"kvRead {kv_read:.3f} (on {kv_row['id']})")


def check(cli, cases):
    errors = []
    for case in cases:
        if case["set"] != "check":
            continue
        value = metric(cli, case)
        error = (value - case["published"]) / case["published"]
        errors.append(abs(error))
        mark = "miss" if "finding" in case else ("ok" if abs(error) <= case["tolerance"] else "FAIL")
        print(f"{case['id']:48s} {case['metric']:28s} {case['published']:10.1f} {value:10.1f} "
              f"{100 * error:+6.1f}% {mark}")
    within = sum(e <= 0.2 for e in errors)
    print(f"{within} of {len(errors)} check rows within 20%, mean error {100 * sum(errors) / len(errors):.1f}%")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cases = json.load(open(FIGURES))["cases"]
    if "--check" in sys.argv[2:]:
        check(sys.argv[1], cases)
    else:
        fit(sys.argv[1], cases)


if __name__ == "__main__":
    main()
