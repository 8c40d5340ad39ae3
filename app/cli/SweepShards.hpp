// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

/// Sweeps spread over processes or machines. A sweep's points (server count x fabric, in
/// the order `sweep` runs them) are numbered; shard I of N takes the points whose number
/// modulo N is I - 1, so heavy and light points mix in every shard. Each shard writes one
/// JSON line per point; merging checks that every point of the sweep is there exactly once
/// and gives back the unsharded sweep's rows in order. Any scheduler can run the shards
/// (GNU parallel, a Slurm array); FabricLab keeps no state between them.
namespace fabriclab::app {

struct Shard {
    int index = 1; ///< 1-based
    int count = 1;
    bool takes(std::size_t point) const {
        return static_cast<int>(point % static_cast<std::size_t>(count)) == index - 1;
    }
};

/// Parses "I/N" (1 <= I <= N <= kMaxShards); throws std::invalid_argument naming the problem.
Shard parseShard(const std::string& text);
inline constexpr int kMaxShards = 100000;

/// One point's line: {"point": k, "of": total, "sweep": identity, "row": row}, compact,
/// newline-terminated. `identity` is what makes the sweep this sweep (the output head, its
/// design's hash, fabrics, server counts, seed, months, ownership, tokens, prices) and its
/// "fingerprint", added here, summarises it.
std::string shardLine(std::size_t point, std::size_t total, nlohmann::ordered_json identity,
                      const nlohmann::ordered_json& row);

/// A sweep put back together: its identity (the shards', fingerprint and all) and its rows.
struct MergedSweep {
    nlohmann::ordered_json identity;
    std::vector<nlohmann::ordered_json> rows;
};

/// The rows of a sweep from its shards' files, in point order. Throws model::JsonError
/// naming the file, the line and what is wrong: a malformed line, a shard of another sweep
/// (naming what differs: the seed, the design's hash, ...), a point twice, or points
/// missing (listed).
MergedSweep mergeShards(const std::vector<std::string>& files);

} // namespace fabriclab::app
