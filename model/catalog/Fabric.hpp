// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/core/Units.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// How a fabric spreads flows over equal-cost paths; each has a routing policy
/// (sim/routing/RoutingPolicies.cpp). Static ECMP hashes each flow onto one path; adaptive
/// switches share it out by what each path can carry; spraying (Ultra Ethernet) splits it
/// evenly over every path, whatever their state.
enum class Routing { Ecmp, Adaptive, Spray, Valiant, Ugal };
/// Whose choice of algorithm and protocol a fabric's jobs run: NCCL's own cost model, or a
/// tuner plugin the fabric's jobs load in its place (sim::runCollective dispatches on it).
enum class NcclTuner { Nccl, AwsOfiNccl };

/// The names the catalog spells ("ecmp", "aws-ofi-nccl"); nullopt for an unknown name.
std::string_view toString(Routing routing);
std::optional<Routing> routingFromString(std::string_view text);
std::string routingNameList();
/// For people: "static ECMP", "adaptive routing", "packet spraying".
std::string_view describe(Routing routing);
std::string_view toString(NcclTuner tuner);
std::optional<NcclTuner> ncclTunerFromString(std::string_view text);
std::string ncclTunerNameList();

/// Catalog ids of the parts a fabric is built from (see PriceCatalog).
struct FabricHardware {
    std::string switchId;      ///< leaf switches, and every tier that names none of its own
    std::string spineSwitchId; ///< empty: switchId
    std::string coreSwitchId;  ///< empty: spineSwitchId, else switchId
    std::string nicId;
    std::string serverCableId; ///< server to leaf
    std::string switchCableId; ///< switch to switch fibre
    std::string transceiverId; ///< one per end of a switch-to-switch fibre

    const std::string& spineSwitch() const {
        return spineSwitchId.empty() ? switchId : spineSwitchId;
    }
    const std::string& coreSwitch() const {
        return coreSwitchId.empty() ? spineSwitch() : coreSwitchId;
    }

    friend bool operator==(const FabricHardware&, const FabricHardware&) = default;
};

/// How NCCL's sends and receives (an all-to-all is a group of them) run through the fabric's
/// network plugin: the chunk size the stack sets and the software time it spends around the
/// transfers. Zero costs: the transfers alone, as NCCL's own net plugins behave.
struct P2pExecution {
    double chunkBytes = 131072; ///< NCCL_P2P_NET_CHUNKSIZE; NCCL's default is 128 KiB
    double startUs = 0;         ///< once per grouped call
    double peerUs = 0;          ///< per remote peer a GPU exchanges with
    double chunkUs = 0;         ///< per chunk, one after another on each GPU
    friend bool operator==(const P2pExecution&, const P2pExecution&) = default;
};

/// What a ring LL128 step between servers costs beyond NCCL's table on NCCL's own network
/// transport (InfiniBand verbs, which RoCE fabrics and GCP's gIB plugin use too), us: fit
/// on 4 x 8 H100 over NDR, all-gather at 16 MiB (fit case vp-h100-ndr-4-nodes-allgather-16m:
/// 233 us measured, 135 in the model over 3 steps). Network plugins with their own costs
/// (EFA's) state theirs in the catalog.
inline constexpr double kNcclNetRingLl128StepUs = 33;

/// How a fabric behaves and what it is built from. Behaviour is data: the simulator reads
/// these numbers and never branches on the fabric's id.
struct Fabric {
    std::string id;                     ///< catalog id ("ib-ndr")
    std::string name;                   ///< for people
    std::string transport = "ethernet"; ///< "infiniband" or "ethernet"
    Gbps portSpeed{400};
    int switchRadix = 64;
    double switchLatencyNs = 0; ///< port to port, per hop
    double nicLatencyNs = 0;    ///< NIC and software start-up, one side
    Routing routing = Routing::Ecmp;
    double lineEfficiency = 1;   ///< share of line rate a NIC delivers at large sizes
    double incastEfficiency = 1; ///< share kept under many-to-one congestion
    double protocolOverhead = 0; ///< share lost to the transport stack (TCP)
    /// The share of line rate that carries data: line efficiency less protocol overhead.
    double goodputShare() const { return lineEfficiency * (1 - protocolOverhead); }
    double stepLatencyUs = 4;        ///< NCCL's per-step protocol latency over this fabric
    bool inNetworkReduction = false; ///< SHARP-style reduction in the switches
    /// The tuner plugin jobs on this fabric load in place of NCCL's choice.
    NcclTuner ncclTuner = NcclTuner::Nccl;
    /// Where the fabric's row stands in a comparison (1 first); 0: compared only when named.
    int compareOrder = 0;
    /// The fabric a scaling study sets designs of the other transport against (RoCEv2 for
    /// InfiniBand designs, InfiniBand NDR for Ethernet ones).
    bool transportReference = false;
    /// The cloud whose own fabric this is ("AWS" for EFA): it cannot be bought for a cluster
    /// of one's own, only rented with that cloud's servers. Empty for a fabric anyone buys.
    std::string cloud;
    P2pExecution p2p;
    /// Time each ring LL128 step between servers takes beyond NCCL's table, us
    /// (sim::nccl::ExecutionCosts).
    double ringLl128StepUs = kNcclNetRingLl128StepUs;
    FabricHardware hardware;

    friend bool operator==(const Fabric&, const Fabric&) = default;
};

} // namespace fabriclab::model
