#!/usr/bin/env python3
"""Fits each GPU's matrix-product efficiency (gemmBf16, gemmFp8 in gpus.json) on the step-time fit set.

The fit cases are the rows of resources/validation/step-time.json that say
`"calibrates": "gemmEfficiency"`. Each is
run through `fabriclab-cli run --json` with its MFU removed, so the step comes from the hardware
model (model/workload/ComputeTime). The step is then

    step = A / e + B

where A is the matrix products' time at peak (step.compute.gemmSecondsAtPeak, bubble included)
and B the rest, at the catalog's efficiency e. For each GPU and precision the script solves for
the e that minimises the squared relative error over its fit rows (closed form in 1/e). Check
rows are never read by the fit; `--check` prints the prediction against each of them instead.
Usage:

  scripts/fit-compute-efficiency.py build/ci/app/fabriclab-cli [--check]
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = os.path.join(HERE, "..", "resources", "validation", "step-time.json")
GPUS = os.path.join(HERE, "..", "resources", "catalog", "gpus.json")
LEAF_SPINE_SERVERS = 256  # model/validation/PublishedStepTimes.cpp, kLeafSpineServers


def design(case):
    """The design PublishedStepTimes.cpp's stepFigureDesign builds, without the MFU."""
    workload = dict(case["workload"])
    workload.pop("mfu", None)
    servers = case["servers"]
    return {
        "format": "fabriclab-design", "version": 1, "name": case["id"], "fabric": case["fabric"],
        "generator": {
            "kind": "fat-tree" if servers > LEAF_SPINE_SERVERS else "leaf-spine",
            "servers": servers, "gpusPerServer": case.get("gpusPerServer", 8),
            "nicsPerServer": case.get("nicsPerServer", 8), "nicGbps": 400,
            "railOptimized": True, "leafRadix": 64, "spineRadix": 64, "coreRadix": 64,
            "oversubscription": 1.0},
        "workload": workload}


def run(cli, case):
    with tempfile.NamedTemporaryFile("w", suffix=".fabric.json", delete=False) as f:
        json.dump(design(case), f)
        path = f.name
    try:
        out = subprocess.run([cli, "run", path, "--json"], capture_output=True, text=True,
                             check=True)
        return json.loads(out.stdout)["step"]
    finally:
        os.unlink(path)


def check(cli, cases):
    """The check rows (those that calibrate nothing): the prediction's error against each."""
    errors = []
    for case in cases:
        if case.get("calibrates"):
            continue
        step = run(cli, case)
        error = (step["stepSeconds"] - case["published"]) / case["published"]
        errors.append(abs(error))
        print(f"{case['id']:36s} published {case['published']:9.3f} s  predicted "
              f"{step['stepSeconds']:9.3f} s  {100 * error:+6.1f}%  MFU {step['mfu']:.3f}")
    within = sum(e <= 0.15 for e in errors)
    print(f"{within} of {len(errors)} check rows within 15%; mean absolute error "
          f"{100 * sum(errors) / len(errors):.1f}%")


def main():
    cli = sys.argv[1]
    cases = json.load(open(STEPS))["cases"]
    if len(sys.argv) > 2 and sys.argv[2] == "--check":
        check(cli, cases)
        return
    gpus = {g["id"]: g for g in json.load(open(GPUS))["gpus"]}
    fit_rows = [c for c in cases if c.get("calibrates") == "gemmEfficiency"]
    steps = {c["id"]: run(cli, c) for c in fit_rows}
    # 1. Each GPU's dense efficiency, on the fit rows without routed experts.
    groups = collections.defaultdict(list)
    for case in fit_rows:
        if steps[case["id"]]["compute"]["expertGemmSecondsAtPeak"] == 0:
            groups[(case["gpu"], case["workload"].get("precision", "bf16"))].append(case)
    fitted = {}
    for (gpu, precision), rows in sorted(groups.items()):
        key = "gemmFp8" if precision == "fp8" else "gemmBf16"
        current = gpus[gpu]["computeEfficiency"][key]["value"]
        num = den = 0.0
        for case in rows:
            step = steps[case["id"]]
            a = step["compute"]["gemmSecondsAtPeak"]
            b = step["stepSeconds"] - a / current
            p = case["published"]
            num += (a / p) * (1 - b / p)
            den += (a / p) ** 2
        fitted[(gpu, precision)] = den / num
        print(f"{gpu} {precision}: {key} = {den / num:.3f} over {len(rows)} dense fit rows "
              f"({', '.join(c['id'] for c in rows)})")
    # 2. One experts' factor for every GPU, on the fit rows with routed experts, at the
    #    catalog's dense efficiencies (run this again after updating those).
    num = den = 0.0
    moe = []
    for case in fit_rows:
        step = steps[case["id"]]
        a = step["compute"]["expertGemmSecondsAtPeak"]
        if a == 0:
            continue
        gpu = gpus[case["gpu"]]["computeEfficiency"]
        dense = gpu["gemmFp8" if case["workload"].get("precision") == "fp8" else "gemmBf16"]["value"]
        experts = gpu.get("experts", {"value": 0.6})["value"]
        c = a / dense
        r = step["stepSeconds"] - c / experts
        p = case["published"]
        num += (c / p) * (1 - r / p)
        den += (c / p) ** 2
        moe.append(case["id"])
    if moe:
        print(f"experts = {den / num:.3f} over {len(moe)} fit rows with routed experts "
              f"({', '.join(moe)})")


if __name__ == "__main__":
    main()
