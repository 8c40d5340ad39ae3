// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/core/EnumNames.hpp"
#include "model/design/CollectiveSpec.hpp"
#include "model/design/Workload.hpp"

#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace fabriclab::model {
namespace {

constexpr std::array<std::pair<CollectiveOp, std::string_view>, 6> kOps{{
    {CollectiveOp::AllReduce, "allreduce"},
    {CollectiveOp::AllGather, "allgather"},
    {CollectiveOp::ReduceScatter, "reducescatter"},
    {CollectiveOp::AllToAll, "alltoall"},
    {CollectiveOp::Broadcast, "broadcast"},
    {CollectiveOp::SendRecv, "sendrecv"},
}};
constexpr std::array<std::pair<CollectiveAlgorithm, std::string_view>, 12> kAlgorithms{{
    {CollectiveAlgorithm::Auto, "auto"},
    {CollectiveAlgorithm::Ring, "ring"},
    {CollectiveAlgorithm::Hierarchical, "hierarchical"},
    {CollectiveAlgorithm::Tree, "tree"},
    {CollectiveAlgorithm::Sharp, "sharp"},
    {CollectiveAlgorithm::Direct, "direct"},
    {CollectiveAlgorithm::Pxn, "pxn"},
    {CollectiveAlgorithm::Nvls, "nvls"},
    {CollectiveAlgorithm::NvlsTree, "nvls-tree"},
    {CollectiveAlgorithm::CollNetDirect, "collnet-direct"},
    {CollectiveAlgorithm::CollNetChain, "collnet-chain"},
    {CollectiveAlgorithm::Pat, "pat"},
}};
constexpr std::array<std::pair<CollectiveProtocol, std::string_view>, 4> kProtocols{{
    {CollectiveProtocol::Auto, "auto"},
    {CollectiveProtocol::LL, "LL"},
    {CollectiveProtocol::LL128, "LL128"},
    {CollectiveProtocol::Simple, "Simple"},
}};

} // namespace

std::string_view toString(CollectiveOp op) {
    return enumName(kOps, op);
}
std::string_view toString(CollectiveAlgorithm algorithm) {
    return enumName(kAlgorithms, algorithm);
}
std::optional<CollectiveOp> collectiveOpFromString(std::string_view text) {
    std::string name;
    for (const char c : text)
        if (c != '_' && c != '-')
            name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return enumValue<CollectiveOp>(kOps, name);
}
std::optional<CollectiveAlgorithm> collectiveAlgorithmFromString(std::string_view text) {
    return enumValueIgnoringCase<CollectiveAlgorithm>(kAlgorithms, text);
}
std::string_view toString(CollectiveProtocol protocol) {
    return enumName(kProtocols, protocol);
}
std::optional<CollectiveProtocol> collectiveProtocolFromString(std::string_view text) {
    return enumValueIgnoringCase<CollectiveProtocol>(kProtocols, text);
}
constexpr std::array<std::pair<Recompute, std::string_view>, 3> kRecompute{{
    {Recompute::None, "none"},
    {Recompute::Selective, "selective"},
    {Recompute::Full, "full"},
}};

std::string_view toString(Recompute recompute) {
    return enumName(kRecompute, recompute);
}
std::optional<Recompute> recomputeFromString(std::string_view text) {
    return enumValue<Recompute>(kRecompute, text);
}
constexpr std::array<std::pair<AttentionFlops, std::string_view>, 2> kAttentionFlops{{
    {AttentionFlops::Full, "full"},
    {AttentionFlops::Causal, "causal"},
}};

std::string_view toString(AttentionFlops count) {
    return enumName(kAttentionFlops, count);
}
std::optional<AttentionFlops> attentionFlopsFromString(std::string_view text) {
    return enumValue<AttentionFlops>(kAttentionFlops, text);
}
std::string_view toString(Precision precision) {
    return precision == Precision::Fp8 ? "fp8" : "bf16";
}

} // namespace fabriclab::model
