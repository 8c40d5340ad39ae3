// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

namespace fabriclab::model {

enum class CollectiveOp { AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast };
enum class CollectiveAlgorithm { Auto, Ring, Hierarchical, Tree, Sharp, Direct, Pxn };

std::string_view toString(CollectiveOp op);
std::string_view toString(CollectiveAlgorithm algorithm);
std::optional<CollectiveOp> collectiveOpFromString(std::string_view text);
std::optional<CollectiveAlgorithm> collectiveAlgorithmFromString(std::string_view text);

/// The collective a user wants timed, as nccl-tests would run it.
struct CollectiveSpec {
    CollectiveOp op = CollectiveOp::AllReduce;
    long long bytes = 1LL << 30; ///< message size per rank, as nccl-tests' "size"
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto;

    friend bool operator==(const CollectiveSpec&, const CollectiveSpec&) = default;
};

} // namespace fabriclab::model
