// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/RunReport.hpp"

#include "model/analysis/Connectivity.hpp"
#include "model/core/Cancellation.hpp"
#include "model/core/TextFormat.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/routing/RoutingPolicies.hpp"
#include "model/sim/routing/ValiantRouting.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <future>
#include <optional>
#include <stdexcept>

namespace fabriclab::model {
namespace {

/// Rounds for output: reports are read by people and diffed by golden tests, and
/// sub-milli differences are noise from summation order.
double rounded(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

/// `cabled` is `topology` without its uncabled servers (`reach.unlinked`). A server placed
/// and not cabled yet is left out of the figures with a warning (theoreticalBisection),
/// not a reason to refuse the whole design: its only problem is the missing cable, so the
/// other problems are those of the design without it.
void requireRunnable(const Topology& topology, const Topology& cabled, const ServerReach& reach) {
    const auto problems = cabled.problems();
    if (!problems.empty())
        throw std::invalid_argument(
            "cannot evaluate this design: " + problems.front() +
            (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : ""));
    if (topology.serverCount() == 0)
        throw std::invalid_argument("cannot evaluate this design: it has no servers");
    if (reach.connected.empty())
        throw std::invalid_argument(
            "cannot evaluate this design: no server is connected to a switch");
    // Cabled servers that cannot reach each other are a fabric that falls apart: a fault.
    if (!reach.cutOff.empty())
        throw std::invalid_argument(
            "cannot evaluate this design: server " + topology.node(reach.cutOff.front()).name +
            " cannot reach server " + topology.node(reach.connected.front()).name +
            ": they are cabled into separate parts of the fabric");
}

/// The fabric as a run evaluates it: the design's topology with the what-if failures whose
/// element it has (a failure whose element an edit removed or renamed is set aside rather
/// than refusing the run; files are checked strictly when read), and without the servers
/// that have no cable, which take no part in traffic (ids stay as they are, so playback
/// frames still name the design's links).
class FabricAsRun {
public:
    explicit FabricAsRun(const Design& design) : m_design(design) {
        if (!design.failures.empty())
            m_failed = afterFailures(design.topology, design.failures, &m_setAside);
        m_anyFailed = design.failures.size() > m_setAside.size();
        m_reach = serverReach(topology());
        if (!m_reach.unlinked.empty()) {
            m_withoutUnlinked = topology();
            for (const NodeId id : m_reach.unlinked)
                m_withoutUnlinked.removeNode(id);
        }
    }
    FabricAsRun(const FabricAsRun&) = delete;
    FabricAsRun& operator=(const FabricAsRun&) = delete;

    /// The design's topology with its failures applied.
    const Topology& topology() const { return m_anyFailed ? m_failed : m_design.topology; }
    /// That without uncabled servers: what the simulations route on.
    const Topology& simulated() const {
        return m_reach.unlinked.empty() ? topology() : m_withoutUnlinked;
    }
    const ServerReach& reach() const { return m_reach; }
    const std::vector<Failure>& setAside() const { return m_setAside; }

private:
    const Design& m_design;
    std::vector<Failure> m_setAside;
    Topology m_failed;
    bool m_anyFailed = false;
    ServerReach m_reach;
    Topology m_withoutUnlinked;
};

Fabric withRouting(Fabric fabric, Routing routing) {
    fabric.routing = routing;
    return fabric;
}

/// "the workload does not fit in memory: 88.4 GB per GPU against the H100's 80 GB".
std::string doesNotFit(const MemoryPerGpu& m, const std::string& gpuName) {
    const auto gb = [](double bytes) { return fixed(bytes / 1e9, 1); };
    return "the workload does not fit in memory: " + gb(m.total) + " GB per GPU (weights " +
           gb(m.weights) + ", gradients " + gb(m.gradients) + ", optimizer " + gb(m.optimizer) +
           ", activations " + gb(m.activations + m.logits) + " GB) against the " + gpuName + "'s " +
           fixed(m.hbm / 1e9, 0) +
           " GB; shard more (ZeRO, tensor or pipeline parallelism) or recompute";
}

nlohmann::ordered_json memoryJson(const RunReport& r) {
    if (!r.memory)
        return nullptr;
    const MemoryPerGpu& m = *r.memory;
    return {{"weightsGB", rounded(m.weights / 1e9, 3)},
            {"gradientsGB", rounded(m.gradients / 1e9, 3)},
            {"optimizerGB", rounded(m.optimizer / 1e9, 3)},
            {"activationsGB", rounded(m.activations / 1e9, 3)},
            {"logitsGB", rounded(m.logits / 1e9, 3)},
            {"totalGB", rounded(m.total / 1e9, 3)},
            {"hbmGB", rounded(m.hbm / 1e9, 3)},
            {"fits", m.fits},
            {"assumptions", m.assumptions}};
}

nlohmann::ordered_json stepJson(const RunReport& r) {
    if (!r.step)
        return nullptr;
    const auto& s = *r.step;
    nlohmann::ordered_json step = {{"computeSeconds", rounded(s.computeSeconds, 6)},
                                   {"commSeconds", rounded(s.commSeconds, 6)},
                                   {"idealCommSeconds", rounded(s.idealCommSeconds, 6)},
                                   {"exposedCommSeconds", rounded(s.exposedCommSeconds, 6)},
                                   {"communicationBound", s.communicationBound},
                                   {"stepSeconds", rounded(s.stepSeconds, 6)},
                                   {"commFraction", rounded(s.commToCompute, 4)},
                                   {"tokensPerSecond", rounded(s.tokensPerSecond, 1)},
                                   {"mfu", rounded(s.mfu, 4)},
                                   {"mfuSource", s.mfuPredicted() ? "predicted" : "given"},
                                   {"dpSeconds", rounded(s.dpSeconds, 6)},
                                   {"tpSeconds", rounded(s.tpSeconds, 6)},
                                   {"ppSeconds", rounded(s.ppSeconds, 6)},
                                   {"epSeconds", rounded(s.epSeconds, 6)},
                                   {"cpSeconds", rounded(s.cpSeconds, 6)},
                                   {"hfu", rounded(s.hfu, 4)},
                                   {"bubbleFraction", rounded(s.bubbleFraction, 4)},
                                   {"dpBytesPerGpu", rounded(s.dpBytesPerGpu, 0)},
                                   {"assumptions", s.assumptions}};
    if (s.compute) {
        const model::ComputeTime& c = *s.compute;
        step["compute"] = {{"gemmSeconds", rounded(c.gemmSeconds, 6)},
                           {"attentionSeconds", rounded(c.attentionSeconds, 6)},
                           {"elementwiseSeconds", rounded(c.elementwiseSeconds, 6)},
                           {"recomputeSeconds", rounded(c.recomputeSeconds, 6)},
                           {"tensorParallelSeconds", rounded(c.tensorParallelSeconds, 6)},
                           {"bubbleSeconds", rounded(c.bubbleSeconds, 6)},
                           {"optimizerSeconds", rounded(c.optimizerSeconds, 6)},
                           {"seconds", rounded(c.seconds, 6)},
                           {"gemmSecondsAtPeak", rounded(c.gemmSecondsAtPeak, 6)},
                           {"expertGemmSecondsAtPeak", rounded(c.expertGemmSecondsAtPeak, 6)}};
    }
    if (r.training)
        step["train"] = {{"tokens", r.training->tokens},
                         {"days", rounded(r.training->seconds / 86400, 3)},
                         {"gpuHours", rounded(r.training->gpuHours, 1)},
                         {"costUsd", rounded(r.training->costUsd, 0)}};
    return step;
}

nlohmann::ordered_json acrossSitesModeJson(const AcrossSitesMode& m) {
    nlohmann::ordered_json mode = {{"wanBytes", rounded(m.wanBytes, 0)},
                                   {"wanSeconds", rounded(m.wanSeconds, 6)},
                                   {"stallSeconds", rounded(m.stallSeconds, 6)},
                                   {"stepSeconds", rounded(m.stepSeconds, 6)},
                                   {"tokensPerSecond", rounded(m.tokensPerSecond, 1)},
                                   {"utilization", rounded(m.utilization, 4)},
                                   {"wanGbpsFor90Percent", nullptr},
                                   {"trainDays", rounded(m.trainSeconds / 86400, 3)},
                                   {"trainGpuHours", rounded(m.gpuHours, 1)},
                                   {"trainCostUsd", rounded(m.costUsd, 0)}};
    if (m.gbpsFor90Percent)
        mode["wanGbpsFor90Percent"] = rounded(*m.gbpsFor90Percent, 3);
    return mode;
}

/// Only for a design that trains across sites, so other reports keep their shape.
nlohmann::ordered_json sitesJson(const TrainingAcrossSites& t) {
    nlohmann::ordered_json quality = nullptr;
    if (t.quality)
        quality = {{"id", t.quality->id},
                   {"paramsB", t.quality->paramsB},
                   {"replicas", t.quality->replicas},
                   {"innerSteps", t.quality->innerSteps},
                   {"deltaPercent", t.quality->deltaPercent},
                   {"metric", t.quality->metric},
                   {"against", t.quality->against},
                   {"source", t.quality->source}};
    return {{"count", t.sites.count},
            {"gpus", t.gpus},
            {"wanGbpsPerSpan", rounded(t.sites.wan.gbps * t.sites.wan.links, 3)},
            {"wanLatencyMs", rounded(t.sites.wan.latencyMs, 3)},
            {"wanCircuits", t.sites.circuits()},
            {"wanUsdPerMonth", t.wanUsdPerMonth
                                   ? nlohmann::ordered_json(rounded(*t.wanUsdPerMonth, 0))
                                   : nlohmann::ordered_json(nullptr)},
            {"innerSteps", t.sites.outer.innerSteps},
            {"payloadBits", t.sites.outer.payloadBits},
            {"overlapSteps", t.sites.outer.overlapSteps},
            {"siteStepSeconds", rounded(t.siteStepSeconds, 6)},
            {"trainTokens", t.trainTokens},
            {"synchronous", acrossSitesModeJson(t.synchronous)},
            {"diloco", acrossSitesModeJson(t.diloco)},
            {"wanBytesRatio", rounded(t.wanBytesRatio, 3)},
            {"quality", quality},
            {"assumptions", t.assumptions}};
}

nlohmann::ordered_json servingJson(const RunReport& r) {
    if (!r.serving)
        return nullptr;
    const model::ServingEstimate& s = *r.serving;
    const model::ServingCompute& c = s.compute;
    const auto ms = [](double seconds) { return rounded(seconds * 1e3, 4); };
    return {{"ttftMs", ms(s.ttftSeconds)},
            {"tpotMs", ms(s.tpotSeconds)},
            {"outputTokensPerSecondPerGpu", rounded(s.outputTokensPerSecondPerGpu, 2)},
            {"capacityRequestsPerSecond", rounded(s.capacityRequestsPerSecond, 4)},
            {"servedRequestsPerSecond", rounded(s.servedRequestsPerSecond, 4)},
            {"batch", c.batch},
            {"batchFromMemory", c.batchFromMemory},
            {"replicas", s.replicas},
            {"prefillReplicas", s.prefillReplicas},
            {"decodeReplicas", s.decodeReplicas},
            {"usesFabric", s.usesFabric},
            {"kvBytesPerRequest", rounded(s.kvBytesPerRequest, 0)},
            {"kvTransferMs", ms(s.kvTransferSeconds)},
            {"kvTransferIdealMs", ms(s.kvTransferIdealSeconds)},
            {"prefill",
             {{"mathMs", ms(c.prefillMathSeconds)},
              {"memoryMs", ms(c.prefillMemorySeconds)},
              {"tensorParallelMs", ms(c.prefillTensorParallelSeconds)},
              {"ms", ms(c.prefillSeconds)}}},
            {"decode",
             {{"mathMs", ms(c.decodeMathSeconds)},
              {"weightsMs", ms(c.decodeWeightSeconds)},
              {"kvCacheMs", ms(c.decodeKvSeconds)},
              {"tensorParallelMs", ms(c.decodeTensorParallelSeconds)},
              {"expertMs", ms(c.decodeExpertSeconds)},
              {"stepMs", ms(c.decodeStepSeconds)},
              {"colocatedStepMs", ms(c.colocatedStepSeconds)}}},
            {"memory",
             {{"weightsGB", rounded(c.weightBytesPerGpu / 1e9, 3)},
              {"kvCacheGB", rounded(c.kvBytesPerGpu / 1e9, 3)},
              {"totalGB", rounded(c.memoryPerGpu / 1e9, 3)},
              {"hbmGB", rounded(c.hbm / 1e9, 3)},
              {"fits", c.fits}}},
            {"assumptions", s.assumptions}};
}

} // namespace

namespace {

// runDesign's stages, in the order it runs them.

/// The fabric the run uses: the design's own, or the catalog's one the options name.
Fabric fabricToRun(const Design& design, const Catalog& catalog, const RunOptions& options) {
    if (!options.fabricId)
        return design.fabric.spec;
    const Fabric* fabric = catalog.findFabric(*options.fabricId);
    if (!fabric)
        throw std::invalid_argument(catalog.unknownFabric(*options.fabricId));
    return *fabric;
}

/// Records the design's what-if failures (the fabric runs without them, but is counted
/// and costed as built) and what it counts; returns why failures naming nothing were set
/// aside. Throws when the fabric cannot run at all.
std::vector<std::string> recordBuild(const Design& design, const FabricAsRun& asRun,
                                     RunReport& report) {
    const std::vector<Failure>& setAsideFailures = asRun.setAside();
    std::vector<std::string> setAside;
    for (const Failure& failure : design.failures) {
        if (std::find(setAsideFailures.begin(), setAsideFailures.end(), failure) ==
            setAsideFailures.end())
            report.failures.push_back(describe(failure));
        else
            setAside.push_back("failure of \"" + failure.element +
                               "\" set aside: the design has no such node, link, rail or plane");
    }
    requireRunnable(asRun.topology(), asRun.simulated(), asRun.reach());
    report.gpus = design.topology.gpuCount();
    report.servers = design.topology.serverCount();
    report.switches = design.topology.switchCounts();
    report.switchPlanes = switchPlanes(design.topology);
    report.portsPerNic = portsPerNic(design.topology);
    return setAside;
}

/// The training job as it runs: over the GPUs of connected servers only, with a warning
/// saying so (or why it cannot run at all).
struct WorkloadAsRun {
    std::optional<Workload> workload;
    std::string warning;
};

WorkloadAsRun workloadAsRun(const Design& design, const FabricAsRun& asRun) {
    WorkloadAsRun out{design.workload, {}};
    const Topology& simulated = asRun.simulated();
    if (out.workload && !asRun.reach().unlinked.empty()) {
        out.workload = rescaled(*out.workload, simulated.gpuCount());
        out.warning = out.workload
                          ? "the training step covers the " + std::to_string(simulated.gpuCount()) +
                                " GPUs of connected servers (data parallelism " +
                                std::to_string(out.workload->dp) + ")"
                          : "no training step: tp x pp does not divide the " +
                                std::to_string(simulated.gpuCount()) + " GPUs of connected servers";
    }
    return out;
}

/// The collective group a network's servers form (the GPU and SHARP as the design asks).
using CollectiveGroupOn = std::function<sim::CollectiveGroup(const sim::FabricNetwork&)>;

struct CollectiveOutcome {
    sim::CollectiveResult result;
    std::optional<sim::Playback> playback;
    std::vector<sim::BusBwPoint> busBwCurve;
};

/// The design's collective on the network given, with its playback and message-size curve
/// when detail is asked for.
CollectiveOutcome runCollectiveOn(const sim::FabricNetwork& network,
                                  const sim::CollectiveGroup& group,
                                  const CollectiveSpec& collective, const RunOptions& options) {
    CollectiveOutcome outcome;
    try {
        // With detail, the phases are recorded per link for playback and kept, so the
        // message-size sweep scales them instead of simulating them again.
        sim::PhaseCache phases;
        outcome.result =
            sim::runCollective(network, group, collective, options.stop, options.detail, &phases);
        if (options.detail) {
            outcome.playback = sim::buildPlayback(network, outcome.result);
            // The playback holds what the canvas needs; the report need not keep it twice.
            for (sim::Sample& sample : outcome.result.phase.timeline)
                std::vector<float>().swap(sample.linkUtilization);
            outcome.busBwCurve = sim::busBandwidthCurve(network, group, collective,
                                                        sim::messageSizes(), options.stop, &phases);
        }
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("cannot time the " + std::string(toString(collective.op)) +
                                    ": " + e.what());
    }
    return outcome;
}

/// The collective's thread and the network it builds. The collective needs nothing from
/// the bisections: from the start it runs beside them on its own network (networks fill
/// their route caches as they go, so each thread has one), the topology shared read-only.
/// The network is built once, on that thread, while the caller works out the theoretical
/// bisection; the caller then routes on a copy, which shares the built structure and keeps
/// route caches of its own. On the 2-core machine a 16K-GPU run went from the sum of the
/// stages to little more than the longest. The members are declared so the outcome's
/// future, whose destructor waits for the thread, goes first.
struct CollectiveThread {
    std::promise<sim::FabricNetwork> networkBuilt;
    std::future<sim::FabricNetwork> builtNetwork = networkBuilt.get_future();
    std::future<CollectiveOutcome> outcome;
};

/// Starts the collective's thread. Everything passed must outlive `thread`.
void startCollective(CollectiveThread& thread, const Topology& simulated, const Fabric& fabric,
                     const CollectiveGroupOn& groupOn, const CollectiveSpec& collective,
                     const RunOptions& options) {
    thread.outcome = std::async(std::launch::async, [&]() -> CollectiveOutcome {
        std::optional<sim::FabricNetwork> built;
        try {
            built.emplace(simulated, fabric, options.seed);
            thread.networkBuilt.set_value(*built);
        } catch (...) {
            thread.networkBuilt.set_exception(std::current_exception());
            throw;
        }
        return runCollectiveOn(*built, groupOn(*built), collective, options);
    });
}

/// The theoretical bisection and the bill of materials, with their warnings.
void boundAndPrice(RunReport& report, const Design& design, const FabricAsRun& asRun,
                   const std::vector<std::string>& setAside, const Catalog& catalog,
                   const RunOptions& options) {
    if (options.bisection)
        report.bisection = options.theoretical ? options.theoretical()
                                               : theoreticalBisection(asRun.topology(),
                                                                      asRun.reach(), options.stop);
    report.warnings = report.bisection.warnings;
    report.warnings.insert(report.warnings.end(), setAside.begin(), setAside.end());
    report.cost = estimateCost(design.topology, report.fabric, catalog.prices(),
                               CostOptions{options.amortizationMonths});
    for (const std::string& note : report.cost.notes)
        report.warnings.push_back("bill of materials: " + note);
}

/// The cluster's cost of ownership at a throughput (0 before a step is timed).
void priceOwnership(RunReport& report, const std::optional<Workload>& workload,
                    const Catalog& catalog, const RunOptions& options, double tokensPerSecond) {
    OwnershipInputs in;
    in.gpuId = workload ? workload->gpu.spec.id : std::string();
    in.fabricId = report.fabric.id;
    in.fabricCloud = report.fabric.cloud;
    in.gpus = report.gpus;
    in.fabricCapexUsd = report.cost.capex.value;
    in.fabricWatts = report.cost.power.value;
    in.tokensPerSecond = tokensPerSecond;
    report.ownership =
        ownershipCost(in, catalog.prices(), {options.ownership, options.amortizationMonths});
    if (!workload)
        report.ownership.unpriced = "no workload names the servers' GPU";
}

/// Whether the job fits its GPUs' memory, warned about when it does not.
void checkMemory(RunReport& report, const std::optional<Workload>& workload) {
    if (!workload)
        return;
    try {
        report.memory = memoryPerGpu(*workload);
        if (!report.memory->fits)
            report.warnings.push_back(doesNotFit(*report.memory, workload->gpu.spec.name));
    } catch (const std::invalid_argument&) {
        // The step's refusal names what is wrong with the split.
    }
}

void enterStage(const RunOptions& options, std::string_view name, int permille) {
    throwIfStopped(options.stop);
    if (options.progress)
        options.progress(RunProgress{name, permille});
}

/// The effective bisection under every routing but the fabric's own, each started on a
/// thread and network of its own, except where a routing routes alike (sim::routing::
/// routesAlike) with the fabric's own or one already started: its result is theirs.
/// `simulated`, `theoretical` and `options` must outlive the futures.
struct OtherRouting {
    Routing routing;
    std::shared_future<sim::EffectiveBisection> result; ///< invalid: the fabric's own
};
using OtherRoutings = std::vector<OtherRouting>;
OtherRoutings startOtherRoutings(const Topology& simulated, const Fabric& fabric,
                                 const BisectionResult& theoretical, const RunOptions& options) {
    OtherRoutings started;
    const bool unevenBundles = sim::routing::hasUnevenBundles(simulated); // one walk for all
    const bool dragonfly = sim::routing::dragonflyGroups(simulated) > 0;
    for (const sim::routing::RoutingPolicyEntry& policy : sim::routing::routingPolicies()) {
        if (policy.routing == fabric.routing || (policy.dragonflyOnly && !dragonfly))
            continue;
        OtherRouting other{policy.routing, {}};
        const auto alike = [&](Routing routing) {
            return sim::routing::routesAlike(routing, policy.routing, unevenBundles);
        };
        const auto twin = std::find_if(started.begin(), started.end(), [&](const OtherRouting& o) {
            return o.result.valid() && alike(o.routing);
        });
        if (twin != started.end())
            other.result = twin->result;
        else if (!alike(fabric.routing))
            other.result =
                std::async(std::launch::async, [&simulated, &theoretical, &options,
                                                routed = withRouting(fabric, policy.routing)] {
                    const sim::FabricNetwork network(simulated, routed, options.seed);
                    return sim::effectiveBisection(network, theoretical, options.seed, options.stop,
                                                   true, options.bisectionSeeds);
                }).share();
        started.push_back(std::move(other));
    }
    return started;
}

/// The adversarial pattern on a dragonfly under the fabric's routing, then under each
/// routing startOtherRoutings weighs (in its order), on a thread of its own beside the rest
/// of the run; nothing to wait for on other fabrics.
std::future<std::vector<RoutingGroupShift>>
startGroupShifts(const Topology& simulated, const Fabric& fabric, const RunOptions& options) {
    if (sim::routing::dragonflyGroups(simulated) == 0)
        return {};
    std::vector<Routing> routings{fabric.routing};
    for (const sim::routing::RoutingPolicyEntry& policy : sim::routing::routingPolicies())
        if (policy.routing != fabric.routing)
            routings.push_back(policy.routing);
    return std::async(std::launch::async, [&simulated, &options, fabric, routings] {
        std::vector<RoutingGroupShift> shifts;
        for (const Routing routing : routings) {
            const sim::FabricNetwork network(simulated, withRouting(fabric, routing), options.seed);
            if (const auto shift = sim::groupShift(network, options.stop))
                shifts.push_back({routing, *shift});
        }
        return shifts;
    });
}

/// The results of startOtherRoutings, in the order started; `own` is the fabric's own.
std::vector<RoutingBisection> takeOtherRoutings(const OtherRoutings& started,
                                                const sim::EffectiveBisection& own) {
    std::vector<RoutingBisection> taken;
    for (const OtherRouting& other : started)
        taken.push_back({other.routing, other.result.valid() ? other.result.get() : own});
    return taken;
}

/// The collective's outcome into the report; with `partial`, a refusal is kept as one.
void takeCollective(RunReport& report, std::future<CollectiveOutcome>& run,
                    const RunOptions& options) {
    try {
        CollectiveOutcome outcome = run.get();
        report.collective = std::move(outcome.result);
        report.playback = std::move(outcome.playback);
        report.busBwCurve = std::move(outcome.busBwCurve);
    } catch (const std::invalid_argument& e) {
        if (!options.partial)
            throw;
        report.collectiveRefusal = e.what();
    }
}

/// The training step; with `partial`, a refusal is kept as one.
void timeStep(RunReport& report, const sim::FabricNetwork& network, const Design& design,
              const WorkloadAsRun& job, const RunOptions& options) {
    if (job.workload) {
        enterStage(options, "step time", 850);
        try {
            report.step = model::estimateStep(network, *job.workload, options.stop);
        } catch (const std::invalid_argument& e) {
            const std::string why = std::string("cannot estimate the training step: ") + e.what();
            if (!options.partial)
                throw std::invalid_argument(why);
            report.stepRefusal = why;
        }
    } else if (design.workload) {
        report.stepRefusal = job.warning; // its split does not fit the connected GPUs
    }
}

/// The serving estimate; with `partial`, a refusal is kept as one.
void estimateServingOn(RunReport& report, const sim::FabricNetwork& network, const Design& design,
                       const RunOptions& options) {
    if (!design.serving)
        return;
    enterStage(options, "serving", 900);
    try {
        report.serving = model::estimateServing(network, *design.serving, options.stop);
        for (const auto& warning : report.serving->warnings)
            report.warnings.push_back(warning);
    } catch (const std::invalid_argument& e) {
        const std::string why = std::string("cannot estimate serving: ") + e.what();
        if (!options.partial)
            throw std::invalid_argument(why);
        report.servingRefusal = why;
    }
}

/// The rental price of one of the workload's GPUs: each GPU kind rents at its own price,
/// one the price list lacks at its fallback.
double gpuHourUsd(const Workload& workload, const Catalog& catalog) {
    const GpuCost* rental = catalog.prices().ownership.findGpu(workload.gpu.spec.id);
    return rental ? rental->rentalUsdPerGpuHour.value : catalog.prices().gpuHourUsd;
}

/// What training the options' tokens costs at the step's throughput, rented by the GPU-hour.
TrainingEstimate trainingOf(const RunReport& report, const Workload& workload,
                            const Catalog& catalog, const RunOptions& options, int gpus) {
    TrainingEstimate training;
    training.tokens = options.trainTokens;
    training.gpuHourUsd = gpuHourUsd(workload, catalog);
    training.seconds = options.trainTokens / report.step->tokensPerSecond;
    training.gpuHours = training.seconds / 3600 * gpus;
    // A rented GPU-hour already pays for the network it sits on: the fabric's own
    // $/GPU-hour (report.cost) is for owners comparing builds, not added again here.
    // Each GPU kind rents at its own price; one the price list lacks at its fallback.
    training.costUsd = training.gpuHours * training.gpuHourUsd;
    return training;
}

} // namespace

RunReport runDesign(const Design& design, const Catalog& catalog, const RunOptions& options) {
    RunReport report;
    report.designName = design.name;
    report.fabric = fabricToRun(design, catalog, options);
    const FabricAsRun asRun(design);
    const std::vector<std::string> setAside = recordBuild(design, asRun, report);
    throwIfStopped(options.stop);
    const WorkloadAsRun job = workloadAsRun(design, asRun);

    // Three threads: the collective's (from the start), the other routing's (with detail)
    // and this one, which works out the bounds, the cost and the effective bisection.
    const CollectiveSpec collective = design.collective.value_or(CollectiveSpec{});
    const model::GpuSpec gpu = job.workload ? job.workload->gpu.spec : *catalog.findGpu("h100-sxm");
    const CollectiveGroupOn groupOn = [&](const sim::FabricNetwork& network) {
        sim::CollectiveGroup group = sim::groupOfServers(network, gpu);
        group.inNetworkReduction = design.sharp;
        return group;
    };
    CollectiveThread collectiveThread;
    if (options.simulate)
        startCollective(collectiveThread, asRun.simulated(), report.fabric, groupOn, collective,
                        options);

    boundAndPrice(report, design, asRun, setAside, catalog, options);
    priceOwnership(report, job.workload, catalog, options, 0);
    if (!options.simulate)
        return report;
    if (!job.warning.empty())
        report.warnings.push_back(job.warning);
    checkMemory(report, job.workload);

    enterStage(options, "effective bisection", 100);
    OtherRoutings otherRoutings;
    std::future<std::vector<RoutingGroupShift>> groupShifts;
    if (options.detail && options.bisection) {
        otherRoutings =
            startOtherRoutings(asRun.simulated(), report.fabric, report.bisection, options);
        groupShifts = startGroupShifts(asRun.simulated(), report.fabric, options);
    }
    const sim::FabricNetwork network = collectiveThread.builtNetwork.get();
    if (options.bisection)
        report.effective =
            sim::effectiveBisection(network, report.bisection, options.seed, options.stop,
                                    options.detail, options.bisectionSeeds);

    enterStage(options, "collective", 300);
    takeCollective(report, collectiveThread.outcome, options);
    timeStep(report, network, design, job, options);
    estimateServingOn(report, network, design, options);
    if (report.step) {
        report.training =
            trainingOf(report, *job.workload, catalog, options, asRun.simulated().gpuCount());
        priceOwnership(report, job.workload, catalog, options, report.step->tokensPerSecond);
        if (design.sites)
            report.sites = trainAcrossSites(
                *report.step, *job.workload, *design.sites,
                {options.trainTokens, report.training->gpuHourUsd, asRun.simulated().gpuCount()});
    }
    report.otherRoutings = takeOtherRoutings(otherRoutings, report.effective);
    if (groupShifts.valid())
        report.groupShift = groupShifts.get();
    enterStage(options, "done", 1000);
    return report;
}

EffectiveBisections effectiveBisections(const Design& design, const Fabric& fabric,
                                        const BisectionResult& theoretical,
                                        const RunOptions& options) {
    const FabricAsRun asRun(design);
    const Topology& simulated = asRun.simulated();
    EffectiveBisections out;
    // As runDesign: the other routings on threads of their own, with their own networks.
    OtherRoutings otherRoutings;
    if (options.detail)
        otherRoutings = startOtherRoutings(simulated, fabric, theoretical, options);
    const sim::FabricNetwork network(simulated, fabric, options.seed);
    out.effective = sim::effectiveBisection(network, theoretical, options.seed, options.stop,
                                            options.detail, options.bisectionSeeds);
    out.otherRoutings = takeOtherRoutings(otherRoutings, out.effective);
    return out;
}

int interactiveBisectionSeeds(int servers) {
    constexpr int kServerDraws = 4096; // servers x draws routed per edit
    return std::clamp(kServerDraws / std::max(1, servers), 2, RunOptions{}.bisectionSeeds);
}

namespace {

nlohmann::ordered_json bomJson(const std::vector<BomLine>& bom) {
    nlohmann::ordered_json lines = nlohmann::ordered_json::array();
    for (const BomLine& line : bom)
        lines.push_back({{"category", std::string(toString(line.category))},
                         {"tier", std::string(toString(line.tier))},
                         {"partId", line.partId},
                         {"item", line.item},
                         {"quantity", line.quantity},
                         {"unitUsd", rounded(line.unitPrice.value, 2)},
                         {"totalUsd", rounded(line.total().value, 2)},
                         {"totalWatts", rounded(line.power().value, 1)}});
    return lines;
}

nlohmann::ordered_json ownershipJson(const OwnershipCost& o) {
    nlohmann::ordered_json json = {{"mode", std::string(toString(o.mode))}, {"priced", o.priced}};
    if (!o.priced) {
        json["unpriced"] = o.unpriced;
        return json;
    }
    json["amortizationMonths"] = rounded(o.months, 2);
    json["gpuHours"] = rounded(o.gpuHours, 0);
    if (o.mode == OwnershipMode::Owned) {
        json["serversUsd"] = rounded(o.serversUsd, 0);
        json["fabricCapexUsd"] = rounded(o.fabricUsd, 0);
        json["energyUsd"] = rounded(o.energyUsd, 0);
    } else {
        json["rentalUsd"] = rounded(o.rentalUsd, 0);
        json["offer"] = o.rentalOffer;
    }
    json["totalUsd"] = rounded(o.totalUsd, 0);
    json["perGpuHourUsd"] = rounded(o.perGpuHourUsd, 4);
    if (o.lifetimeTokens > 0) {
        json["lifetimeTokens"] = rounded(o.lifetimeTokens, -6);
        json["perMillionTokensUsd"] = rounded(o.perMillionTokensUsd, 4);
    }
    nlohmann::ordered_json prices = nlohmann::ordered_json::array();
    for (const PriceUsed& p : o.prices)
        prices.push_back(
            {{"what", p.what}, {"value", p.value}, {"unit", p.unit}, {"source", p.source}});
    json["prices"] = prices;
    return json;
}

} // namespace

nlohmann::ordered_json reportToJson(const RunReport& r) {
    const auto& c = r.cost;
    nlohmann::ordered_json json = {
        {"gpus", r.gpus},
        {"servers", r.servers},
        {"switches",
         {{"leaf", r.switches.leaf},
          {"spine", r.switches.spine},
          {"core", r.switches.core},
          {"planes", r.switchPlanes},
          {"portsPerNic", r.portsPerNic}}},
        {"bisection",
         {{"theoreticalGbps", rounded(r.bisection.minCut.value, 3)},
          {"effectiveGbps", rounded(r.effective.gbps, 3)},
          {"effectiveRatio", rounded(r.effective.ratio, 4)},
          {"lineEfficiency", rounded(r.effective.lineEfficiency, 4)},
          {"routingEfficiency", rounded(r.effective.routingEfficiency, 4)},
          {"effectiveMinGbps", rounded(r.effective.minGbps, 3)},
          {"effectiveMaxGbps", rounded(r.effective.maxGbps, 3)},
          {"effectiveStddevGbps", rounded(r.effective.stddevGbps, 3)},
          {"effectiveSeeds", r.effective.seeds},
          {"ratio", rounded(r.bisection.ratio, 4)},
          {"halfInjectionGbps", rounded(r.bisection.halfInjection.value, 3)},
          {"split", r.bisection.split}}},
        {"collective",
         {{"op", std::string(toString(r.collective.op))},
          {"algorithm", std::string(toString(r.collective.algorithm))},
          {"protocol", std::string(toString(r.collective.protocol))},
          {"chosenBy", r.collective.chosenBy},
          {"ranks", r.collective.ranks},
          {"bytes", static_cast<long long>(r.collective.bytes)},
          {"timeUs", rounded(r.collective.seconds * 1e6, 3)},
          {"algBwGBps", rounded(r.collective.algBwGBps, 3)},
          {"busBwGBps", rounded(r.collective.busBwGBps, 3)},
          {"busBwMinGBps", rounded(r.collective.busBwMinGBps, 3)},
          {"busBwMaxGBps", rounded(r.collective.busBwMaxGBps, 3)},
          {"ecmpDraws", r.collective.ecmpDraws}}},
        {"step", stepJson(r)},
        {"memoryPerGpu", memoryJson(r)},
        {"serving", servingJson(r)},
        {"cost",
         {{"fabricCapexUsd", rounded(c.capex.value, 2)},
          {"switchesUsd", rounded(c.switches.value, 2)},
          {"nicsUsd", rounded(c.nics.value, 2)},
          {"cablesUsd", rounded(c.cables.value, 2)},
          {"perGpuUsd", rounded(c.perGpu, 2)},
          {"perEndpointUsd", rounded(c.perEndpoint, 2)},
          {"fabricPerGpuHourUsd", rounded(c.perGpuHour, 4)},
          {"amortizationMonths", rounded(c.amortizationMonths, 2)},
          {"powerWatts", rounded(c.power.value, 1)},
          {"bom", bomJson(c.bom)}}},
    };
    json["ownership"] = ownershipJson(r.ownership);
    if (r.sites)
        json["sites"] = sitesJson(*r.sites);
    if (!r.groupShift.empty()) {
        nlohmann::ordered_json shifts = nlohmann::ordered_json::array();
        for (const RoutingGroupShift& s : r.groupShift)
            shifts.push_back({{"routing", std::string(toString(s.routing))},
                              {"offeredGbps", rounded(s.shift.offeredGbps, 3)},
                              {"capacityGbps", rounded(s.shift.capacityGbps, 3)},
                              {"deliveredGbps", rounded(s.shift.deliveredGbps, 3)}});
        json["groupShift"] = std::move(shifts);
    }
    // Only when there is something to say, so reports of sound designs keep their shape.
    if (!r.failures.empty())
        json["failures"] = r.failures;
    if (!r.warnings.empty())
        json["warnings"] = r.warnings;
    return json;
}

FabricOutcome fabricOutcome(const RunReport& r) {
    FabricOutcome o;
    o.fabricId = r.fabric.id;
    o.fabricName = r.fabric.name;
    o.gpus = r.gpus;
    o.busBwGBps = r.collective.busBwGBps;
    o.capexUsd = r.cost.capex.value;
    o.perGpuHourUsd = r.cost.perGpuHour;
    if (r.step && r.training) {
        o.stepSeconds = r.step->stepSeconds;
        o.exposedCommSeconds = r.step->exposedCommSeconds;
        o.commToCompute = r.step->commToCompute;
        o.tokensPerSecond = r.step->tokensPerSecond;
        o.trainGpuHours = r.training->gpuHours;
        o.trainCostUsd = r.training->costUsd;
    }
    if (r.serving) {
        o.serving = true;
        o.servingUsesFabric = r.serving->usesFabric;
        o.ttftSeconds = r.serving->ttftSeconds;
        o.tpotSeconds = r.serving->tpotSeconds;
        o.servedTokensPerSecondPerGpu = r.serving->outputTokensPerSecondPerGpu;
    }
    const OwnershipCost& own = r.ownership;
    o.priced = own.priced;
    o.rented = own.mode == OwnershipMode::Rented;
    o.lifeHours = own.months > 0 && r.gpus > 0 ? own.gpuHours / r.gpus : 0;
    o.lifetimeUsd = own.totalUsd;
    o.energyUsd = own.energyUsd;
    o.perMillionTokensUsd = own.perMillionTokensUsd;
    if (own.priced)
        o.pricing =
            own.mode == OwnershipMode::Owned
                ? "owned over " + grouped(own.months) + " months"
                : "rented over " + grouped(own.months) + " months (" + own.rentalOffer + ")";
    return o;
}

Design withServers(const Design& design, int servers) {
    if (!design.generator)
        throw std::invalid_argument("a sweep needs a design with a \"generator\" to regenerate");
    Design scaled;
    scaled.name = design.name;
    scaled.description = design.description;
    scaled.fabric = design.fabric;
    scaled.generator = design.generator;
    scaled.generator->servers = servers;
    scaled.topology = generate(*scaled.generator);
    scaled.collective = design.collective;
    scaled.sites = design.sites; // each site is the swept size
    if (design.workload) {
        const int gpus = scaled.topology.gpuCount();
        scaled.workload = rescaled(*design.workload, gpus);
        if (!scaled.workload)
            throw std::invalid_argument(std::to_string(servers) + " servers give " +
                                        std::to_string(gpus) +
                                        " GPUs, not a multiple of tp x pp = " +
                                        std::to_string(design.workload->gpusPerReplica()));
    }
    return scaled;
}

} // namespace fabriclab::model
