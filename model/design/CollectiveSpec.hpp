// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

namespace fabriclab::model {

/// The operations nccl-tests times. SendRecv is its sendrecv_perf: every rank sends its
/// buffer to the next rank and receives the previous rank's, all at once.
enum class CollectiveOp { AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, SendRecv };
/// What a user may ask for. Ring, Tree, Nvls, NvlsTree, CollNetDirect, CollNetChain and Pat
/// are NCCL's own algorithms (NCCL_ALGO); Sharp means any in-network reduction (CollNet or
/// NVLS with switch reduction); Hierarchical is FabricLab's per-rail scheme; Direct and Pxn
/// are the two ways to run an all-to-all.
enum class CollectiveAlgorithm {
    Auto,
    Ring,
    Hierarchical,
    Tree,
    Sharp,
    Direct,
    Pxn,
    Nvls,
    NvlsTree,
    CollNetDirect,
    CollNetChain,
    Pat
};
/// NCCL's protocols (NCCL_PROTO): LL and LL128 trade bandwidth for latency, Simple the reverse.
enum class CollectiveProtocol { Auto, LL, LL128, Simple };

std::string_view toString(CollectiveOp op);
std::string_view toString(CollectiveAlgorithm algorithm);
/// Reads FabricLab's names (allreduce) and the spellings users bring from nccl-tests and
/// papers alike: all_reduce, all-reduce, AllReduce, send_recv; case, '_' and '-' ignored.
std::optional<CollectiveOp> collectiveOpFromString(std::string_view text);
/// Algorithm and protocol names are read regardless of case, as NCCL_ALGO and NCCL_PROTO are.
std::optional<CollectiveAlgorithm> collectiveAlgorithmFromString(std::string_view text);
std::string_view toString(CollectiveProtocol protocol);
std::optional<CollectiveProtocol> collectiveProtocolFromString(std::string_view text);

/// The collective a user wants timed, as nccl-tests would run it.
struct CollectiveSpec {
    CollectiveOp op = CollectiveOp::AllReduce;
    long long bytes = 1LL << 30; ///< message size per rank, as nccl-tests' "size"
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto;
    CollectiveProtocol protocol = CollectiveProtocol::Auto;

    friend bool operator==(const CollectiveSpec&, const CollectiveSpec&) = default;
};

} // namespace fabriclab::model
