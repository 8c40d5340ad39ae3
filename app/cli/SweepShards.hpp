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

/// One point's line: {"point": k, "of": total, "row": row}, compact, newline-terminated.
std::string shardLine(std::size_t point, std::size_t total, const nlohmann::ordered_json& row);

/// The rows of a sweep from its shards' files, in point order. Throws model::JsonError
/// naming the file, the line and what is wrong: a malformed line, shards of different
/// sweeps, a point twice, or points missing (listed).
std::vector<nlohmann::ordered_json> mergeShards(const std::vector<std::string>& files);

} // namespace fabriclab::app
