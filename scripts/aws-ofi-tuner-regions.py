#!/usr/bin/env python3
"""Writes model/sim/AwsOfiTunerRegions.cpp from aws-ofi-nccl's region tuner.

aws-ofi-nccl (https://github.com/aws/aws-ofi-nccl) ships a tuner that replaces NCCL's choice
of algorithm and protocol on p5/p5e, p5en, p6-b200 and p6-b300 with polygons in (message
bytes, ranks) space, written out in src/tuner/nccl_ofi_regions.cpp. This script reads that
file and writes the same polygons, their corners resolved, as a C++ table, so FabricLab picks
what an EFA job with the plugin picks.

Usage: scripts/aws-ofi-tuner-regions.py NCCL_OFI_REGIONS_CPP COMMIT > model/sim/AwsOfiTunerRegions.cpp
       clang-format -i model/sim/AwsOfiTunerRegions.cpp
"""
import math
import re
import sys

TUNER_MAX_RANKS = 1024.0 * 1024
TUNER_MAX_SIZE = 100.0 * 1024 * 1024 * 1024
PLATFORMS = {"p5_p5e": "P5", "p5en": "P5en", "p6": "P6", "p6_b300": "P6B300"}
CASES = [("8 * nNodes", 8), ("2 * nNodes", 2), ("nNodes", 1)]
ALGORITHMS = {"TREE": "Tree", "RING": "Ring", "NVLS_TREE": "NvlsTree", "NVLS": "Nvls",
              "PAT": "Pat", "COLLNET_DIRECT": "CollNetDirect", "COLLNET_CHAIN": "CollNetChain"}
PROTOCOLS = {"LL": "LL", "LL128": "LL128", "SIMPLE": "Simple"}
FUNCTIONS = {"AllReduce": "AllReduce", "AllGather": "AllGather", "ReduceScatter": "ReduceScatter",
             "Broadcast": "Broadcast"}


def log2(p):
    return tuple(math.log2(v if v != 0 else 1e-6) for v in p)


def extend_region(a, b, z):
    """The plugin's extend_region, in the same double arithmetic."""
    a, b, z = log2(a), log2(b), log2(z)
    if a[0] == b[0]:
        ret = (a[0], z[1])
    elif a[1] == b[1]:
        ret = (z[0], a[1])
    else:
        m = (a[1] - b[1]) / (a[0] - b[0])
        c = b[1] - m * b[0]
        projected = m * z[0] + c
        ret = (z[0], projected) if projected < z[1] else ((z[1] - c) / m, z[1])
    return (math.pow(2.0, ret[0]), math.pow(2.0, ret[1]))


def value(expr, names):
    expr = expr.strip()
    env = {"TUNER_MAX_SIZE": TUNER_MAX_SIZE, "TUNER_MAX_RANKS": TUNER_MAX_RANKS}
    m = re.fullmatch(r"(\w+)\.(x|y)", expr)
    if m:
        return names[m.group(1)][0 if m.group(2) == "x" else 1]
    if expr in env:
        return env[expr]
    return float(expr)


def split_top(text):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def point(token, names):
    token = token.strip()
    if token.startswith("{"):
        x, y = split_top(token[1:-1])
        return (value(x, names), value(y, names))
    return names[token]


def braced(text, start):
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start + 1:i], i
    raise ValueError("unbalanced braces")


def regions_of(block):
    names = {}
    ext = re.compile(r"nccl_ofi_tuner_point_t\s+(\w+)\s*=\s*extend_region\((.*?)\);", re.S)
    for m in ext.finditer(block):
        args = re.findall(r"\(nccl_ofi_tuner_point_t\)\s*(\{[^}]*\})", m.group(2))
        names[m.group(1)] = extend_region(*(point(a, names) for a in args))
    out = []
    head = re.compile(r"\.algorithm\s*=\s*NCCL_ALGO_(\w+),\s*\.protocol\s*=\s*NCCL_PROTO_(\w+),"
                      r"\s*\.num_vertices\s*=\s*(\d+),\s*\.vertices\s*=\s*")
    for m in head.finditer(block):
        inner, _ = braced(block, m.end())
        vertices = [point(t, names) for t in split_top(inner)]
        if len(vertices) != int(m.group(3)):
            raise ValueError(f"{m.group(1)} {m.group(2)}: {len(vertices)} vertices, says {m.group(3)}")
        out.append((m.group(1), m.group(2), vertices))
    return out


def main():
    source = open(sys.argv[1]).read()
    commit = sys.argv[2]
    rows = []
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r"static ncclResult_t region_init_internal_(\w+)\(", source)]
    for k, (pos, name) in enumerate(starts):
        body = source[pos:starts[k + 1][0] if k + 1 < len(starts) else len(source)]
        marks = []
        for text, per_node in CASES:
            m = re.search(r"if \(nRanks == " + re.escape(text) + r"\)", body)
            if m:
                marks.append((m.start(), per_node))
        marks.sort()
        guards = re.findall(r"if \(nRanks == ([^)]*)\)", body)
        unknown = [g for g in guards if g not in [text for text, _ in CASES]]
        if unknown:
            raise ValueError(f"{name}: unknown ranks-per-node case(s) {unknown}")
        for j, (mpos, per_node) in enumerate(marks):
            case = body[mpos:marks[j + 1][0] if j + 1 < len(marks) else len(body)]
            colls = [(m.start(), m.group(1)) for m in re.finditer(r"collType = ncclFunc(\w+);", case)]
            for i, (cpos, function) in enumerate(colls):
                block = case[cpos:colls[i + 1][0] if i + 1 < len(colls) else len(case)]
                for algorithm, protocol, vertices in regions_of(block):
                    rows.append((PLATFORMS[name], per_node, FUNCTIONS[function],
                                 ALGORITHMS[algorithm], PROTOCOLS[protocol], vertices))
    declared = sum(len(re.findall(r"\.algorithm\s*=\s*NCCL_ALGO_", source[pos:]
                                  [:(starts[k + 1][0] - pos) if k + 1 < len(starts) else None]))
                   for k, (pos, _) in enumerate(starts))
    if declared != len(rows):
        raise ValueError(f"read {len(rows)} regions of the {declared} the source declares")
    print("// SPDX-FileCopyrightText: FabricLab authors")
    print("// SPDX-License-Identifier: MIT")
    print("// Generated by scripts/aws-ofi-tuner-regions.py from aws-ofi-nccl")
    print(f"// src/tuner/nccl_ofi_regions.cpp at commit {commit}; do not edit by hand.")
    print("// Corners are (message bytes, ranks); extend_region corners are resolved.")
    print('#include "model/sim/AwsOfiTuner.hpp"\n')
    print("namespace fabriclab::sim::nccl::aws {\n")
    print("const std::vector<Region>& regions() {")
    print("    static const std::vector<Region> table = {")
    for platform, per_node, function, algorithm, protocol, vertices in rows:
        corners = ", ".join("{%r, %r}" % v for v in vertices)
        print(f"        {{Platform::{platform}, {per_node}, Function::{function}, "
              f"Algorithm::{algorithm}, Protocol::{protocol},")
        print(f"         {{{corners}}}}},")
    print("    };")
    print("    return table;")
    print("}\n")
    print("} // namespace fabriclab::sim::nccl::aws")


if __name__ == "__main__":
    main()
