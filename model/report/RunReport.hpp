// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/advice/FabricVerdict.hpp"
#include "model/analysis/Bisection.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/cost/CostModel.hpp"
#include "model/cost/Ownership.hpp"
#include "model/design/Design.hpp"
#include "model/sim/BusBandwidthCurve.hpp"
#include "model/sim/Collectives.hpp"
#include "model/sim/EffectiveBisection.hpp"
#include "model/sim/GroupShift.hpp"
#include "model/sim/Playback.hpp"
#include "model/workload/MemoryPerGpu.hpp"
#include "model/workload/ServingEstimate.hpp"
#include "model/workload/StepTime.hpp"
#include "model/workload/TrainingAcrossSites.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// Where a run is: the stage it starts, and how far the run is, 0-1000.
struct RunProgress {
    std::string_view stage;
    int permille = 0;
};

struct RunOptions {
    std::optional<std::string> fabricId;      ///< evaluate on this fabric instead of the design's
    std::optional<double> amortizationMonths; ///< the price catalog's default when absent
    /// Owned (servers, fabric, energy) or rented; the cost of ownership's period is
    /// `amortizationMonths`.
    OwnershipMode ownership = OwnershipMode::Owned;
    std::uint64_t seed = 1; ///< ECMP hashes and the bisection permutation
    /// Draws the effective bisection averages over (seeds `seed`, `seed` + 1, ...): one draw
    /// can be lucky or unlucky by a third on a static-ECMP fabric.
    int bisectionSeeds = 8;
    double trainTokens = 1e12; ///< token budget for time and cost to train
    /// False: only topology, theoretical bisection and cost (what a comparison table
    /// shows), without the effective bisection, collective and step simulations.
    bool simulate = true;
    /// Also what the app draws beside the figures: the bisection under the other routing
    /// (ECMP against adaptive), bus bandwidth over message sizes, and the collective's
    /// playback with per-link utilization.
    bool detail = false;
    /// False: no theoretical or effective bisection (zeros in the report). For studies
    /// that only read step time, collective and cost, where at 16K GPUs the two
    /// bisections are most of a run.
    bool bisection = true;
    /// Where the theoretical bisection of the fabric as it runs (the design's topology with
    /// its what-if failures applied, model::afterFailures) comes from when the caller has it
    /// already, or has it being worked out (the app computes it once per edit for its
    /// status bar too). Unset: runDesign computes it.
    std::function<BisectionResult()> theoretical;
    /// False (the CLI): a part the engine cannot compute refuses the whole run (throws
    /// std::invalid_argument). True (the app, which shows whatever it can): the collective
    /// and the training step are computed apart, and one that cannot be is left out of the
    /// report with its reason (RunReport::collectiveRefusal, stepRefusal) while the rest
    /// is reported as usual. A design that cannot be evaluated at all still throws.
    bool partial = false;
    /// Polled throughout (routing, solving, between stages): a stopped run throws
    /// model::Cancelled within a few milliseconds.
    std::stop_token stop;
    /// Called from the running thread as each stage starts.
    std::function<void(const RunProgress&)> progress;
};

/// Draws of the effective bisection for a run that must answer an edit within a second
/// (the app): 8 up to 512 servers, then fewer as each draw routes more flows, never under 2
/// so a spread is always shown.
int interactiveBisectionSeeds(int servers);

/// What training a token budget takes on this design.
struct TrainingEstimate {
    double tokens = 0;
    double seconds = 0;
    double gpuHours = 0;
    /// GPU-hours x the GPU's rental price (the price list's per GPU kind), which already
    /// includes the network.
    double costUsd = 0;
    double gpuHourUsd = 0; ///< the rental price costUsd is at
};

/// The effective bisection a design would deliver under another routing.
struct RoutingBisection {
    Routing routing;
    sim::EffectiveBisection effective;
};

/// The adversarial pattern of a dragonfly under one routing.
struct RoutingGroupShift {
    Routing routing;
    sim::GroupShift shift;
};

/// What one design delivers and costs: the figures `fabriclab-cli run` prints.
struct RunReport {
    std::string designName;
    Fabric fabric;
    int gpus = 0;
    int servers = 0;
    TierCounts switches;
    /// Parts the switches fall into (model::switchPlanes): more than 1 where groups of
    /// rails have spines of their own, whose rails meet over NVLink only.
    int switchPlanes = 1;
    /// model::portsPerNic: above 1, the planes are NIC-port planes holding every rail.
    int portsPerNic = 1;
    BisectionResult bisection;
    sim::EffectiveBisection effective;
    sim::CollectiveResult collective;
    std::optional<model::StepTime> step; ///< when the design has a workload
    /// What each GPU holds training the workload, against its memory; when the design has a
    /// workload whose split can be worked out. A workload that does not fit is also named
    /// in the warnings.
    std::optional<MemoryPerGpu> memory;
    std::optional<TrainingEstimate> training;
    /// When the design trains across sites: synchronous data parallelism over the WAN
    /// against DiLoCo, from this site's step.
    std::optional<TrainingAcrossSites> sites;
    /// When the design serves a model: time to first token, per output token and the
    /// tokens each GPU serves, the KV hand-over simulated on the fabric.
    std::optional<model::ServingEstimate> serving;
    CostReport cost;
    /// The whole cluster over the amortization period, owned or rented (RunOptions), and
    /// per trained token when there is a workload.
    OwnershipCost ownership;
    /// What the figures leave out and why (servers not connected to the fabric), one
    /// sentence each; empty for a sound design.
    std::vector<std::string> warnings;
    /// The design's what-if failures as run, in words ("spine-1 down").
    std::vector<std::string> failures;
    /// Why the collective (and with it the playback and the message-size curve) or the
    /// training step (and the training estimate) of a run that went on without it was not
    /// computed, in the words a whole refusal would have used; empty when it was. The run
    /// goes on without them with RunOptions::partial, and without the step of a workload
    /// whose split does not fit the GPUs of its cabled servers.
    std::string collectiveRefusal;
    std::string stepRefusal;
    std::string servingRefusal;

    // With RunOptions::detail only.
    /// The same bisection traffic under every other routing, in model::Routing's order:
    /// shows what the fabric's routing wins or loses.
    std::vector<RoutingBisection> otherRoutings;
    /// On a dragonfly: the shift-by-one-group pattern (sim::groupShift) under the fabric's
    /// routing, then each of otherRoutings in its order; empty elsewhere.
    std::vector<RoutingGroupShift> groupShift;
    std::vector<sim::BusBwPoint> busBwCurve; ///< the design's collective, 8 B to 8 GiB
    std::optional<sim::Playback> playback;   ///< the design's collective, frame by frame
};

/// Evaluates a design. Throws std::invalid_argument with a sentence naming the fault when
/// the design cannot be evaluated (unknown fabric, no server connected to a switch,
/// switches over their radix). Servers outside the fabric's main part are left out of
/// the bisection and named in `warnings`.
RunReport runDesign(const Design& design, const Catalog& catalog, const RunOptions& options = {});

/// The effective bisection of a design, and with RunOptions::detail the same traffic under
/// the other routing, exactly as runDesign computes them with the same options (its
/// what-if failures applied, uncabled servers left out, `fabric` as evaluated), from the
/// theoretical bisection a run already has. The app shows a preview over fewer draws
/// (interactiveBisectionSeeds) and completes it with this at RunOptions' default, the
/// draws `fabriclab-cli run` reports. Polls `options.stop`.
struct EffectiveBisections {
    sim::EffectiveBisection effective;
    std::vector<RoutingBisection> otherRoutings;
};
EffectiveBisections effectiveBisections(const Design& design, const Fabric& fabric,
                                        const BisectionResult& theoretical,
                                        const RunOptions& options);

/// The `run --json` object of docs/reference/design-format.md. `step` is null for a design without
/// a workload.
nlohmann::ordered_json reportToJson(const RunReport& report);

/// What a fabric comparison weighs of a run (model::fabricVerdict's inputs); the step
/// and training figures stay 0 for a design without a workload.
FabricOutcome fabricOutcome(const RunReport& report);

/// The design with `servers` servers, regenerated from its generator (sweeps).
/// Scales the workload's data parallelism with the GPU count; throws
/// std::invalid_argument when the design has no generator or the split cannot scale.
Design withServers(const Design& design, int servers);

} // namespace fabriclab::model
