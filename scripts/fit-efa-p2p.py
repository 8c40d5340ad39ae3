#!/usr/bin/env python3
"""Fits the efa fabric's p2p software costs (startUs, peerUs, chunkUs) to its fit curve.

The fit cases are the all-to-all figures in resources/validation/nccl-tests.json whose
`calibrates` names these constants (p5 on 8 servers, 32 MiB to 2 GiB). The script runs each
through `fabriclab-cli nccl-tests --json` with the costs set to zero, which gives the
transfers' own time, then adds

    startUs + remote peers x (peerUs + chunks per peer x chunkUs)

(the same sum as sim::nccl::p2pOverheadSeconds, with NCCL's chunk rule) and searches a grid
for the three constants with the least squared relative busbw error. Check cases are never
read. Usage:

  scripts/fit-efa-p2p.py build/ci/app/fabriclab-cli
"""
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIGURES = os.path.join(HERE, "..", "resources", "validation", "nccl-tests.json")
FABRICS = os.path.join(HERE, "..", "resources", "catalog", "fabrics.json")


def chunks_per_peer(chunk_setting, piece):
    chunk = chunk_setting / 4 if piece < chunk_setting else (
        chunk_setting / 2 if piece < 8 * chunk_setting else chunk_setting)
    return max(1, math.ceil(piece / chunk))


def transfer_times(cli, cases, fabric):
    """Each fit case's (bytes, ranks, remote peers, time in us) without p2p software costs."""
    free = dict(fabric, id="efa-no-p2p-costs",
                p2p={"chunkBytes": fabric["p2p"]["chunkBytes"]["value"]})
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            design = {"format": "fabriclab-design", "version": 1, "name": case["id"],
                      "fabric": free,
                      "generator": {"kind": "leaf-spine", "servers": case["servers"],
                                    "gpusPerServer": case["gpusPerServer"],
                                    "nicsPerServer": case["nicsPerServer"],
                                    "nicGbps": case["nicGbps"], "railOptimized": True,
                                    "leafRadix": 64, "spineRadix": 64, "oversubscription": 1.0}}
            path = os.path.join(folder, case["id"] + ".fabric.json")
            with open(path, "w") as out:
                json.dump(design, out)
            out = subprocess.run([cli, "nccl-tests", path, "-g", "alltoall", "-b",
                                  str(case["bytes"]), "-e", str(case["bytes"]), "--json"],
                                 capture_output=True, text=True, check=True).stdout
            ranks = case["servers"] * case["gpusPerServer"]
            remote = ranks - case["gpusPerServer"]
            rows.append((case["bytes"], ranks, remote, json.loads(out)[0]["timeUs"],
                         case["published"][0]))
    return rows


def main():
    cli = sys.argv[1]
    efa = next(f for f in json.load(open(FABRICS))["fabrics"] if f["id"] == "efa")
    chunk_setting = efa["p2p"]["chunkBytes"]["value"]
    cases = [c for c in json.load(open(FIGURES))["cases"]
             if c["set"] == "fit" and "efa p2p" in c.get("calibrates", "")]
    rows = transfer_times(cli, cases, efa)

    def error(start, peer, chunk):
        total = 0.0
        for size, ranks, remote, time, published in rows:
            piece = size / ranks
            us = time + start + remote * (peer + chunks_per_peer(chunk_setting, piece) * chunk)
            busbw = size / us / 1e3 * (ranks - 1) / ranks
            total += (busbw / published - 1) ** 2
        return total

    grid = ((error(s, p, c), s, p, c) for s in range(0, 600, 10)
            for p in (0.25 * i for i in range(24)) for c in (0.05 * i for i in range(60)))
    best = min(grid)
    print(f"{len(rows)} fit figures: startUs {best[1]}, peerUs {best[2]:.2f}, "
          f"chunkUs {best[3]:.2f} (rms error {100 * math.sqrt(best[0] / len(rows)):.1f}%)")


if __name__ == "__main__":
    main()
