// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/BenchCases.hpp"

#include "bench/FlowSet.hpp"
#include "bench/SimGridPeer.hpp"
#include "bench/Traffic.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSimulator.hpp"
#include "model/sim/FlowSolver.hpp"
#include "model/workload/LayoutPlan.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fabriclab::bench {
namespace {

// Fixed seeds: both sides of a case run in separate processes and must draw the same flows.
constexpr std::uint64_t kPermutationSeed = 20240601;
constexpr std::uint64_t kPairsSeed = 7;
constexpr double kDrainBytes = 64.0 * 1024 * 1024; ///< 64 MiB per flow
constexpr double kQuickDrainBytes = 1.0 * 1024 * 1024;

model::GeneratorParams leafSpine(int servers, int nics, int leafRadix, int spineRadix,
                                 double oversubscription) {
    model::GeneratorParams p;
    p.kind = "leaf-spine";
    p.servers = servers;
    p.gpusPerServer = 8;
    p.nicsPerServer = nics;
    p.nicSpeed = model::Gbps(400);
    p.railOptimized = true;
    p.leafRadix = leafRadix;
    p.spineRadix = spineRadix;
    p.oversubscription = oversubscription;
    return p;
}

/// A generated fabric as the simulator sees it. Heap-held: the network points into the
/// topology, which must therefore never move.
struct Built {
    std::unique_ptr<model::Topology> topology;
    std::unique_ptr<sim::FabricNetwork> network;
    std::unique_ptr<NicNumbering> nics;
};

Built build(const model::GeneratorParams& params) {
    const model::Fabric* fabric = model::Catalog::builtin().findFabric("roce-v2");
    if (fabric == nullptr)
        throw std::runtime_error("the builtin catalog has no roce-v2 fabric");
    Built b;
    b.topology = std::make_unique<model::Topology>(model::generate(params));
    b.network = std::make_unique<sim::FabricNetwork>(*b.topology, *fabric);
    b.nics = std::make_unique<NicNumbering>(*b.network);
    return b;
}

/// FabricLab's max-min solve of a flow set, as FlowSimulator sets it up: one constraint
/// per channel, one unbounded variable of penalty 1 per flow.
std::unique_ptr<sim::FlowSolver> loadSolver(const FlowSet& flows) {
    auto solver = sim::makeSolver("heap");
    solver->addConstraints(flows.capacityGbps);
    solver->addPaths(flows.pathStart, flows.pathChannels);
    return solver;
}

std::vector<double> ratesOf(const sim::FlowSolver& solver, std::size_t count) {
    std::vector<double> rates(count);
    for (std::size_t f = 0; f < count; ++f)
        rates[f] = solver.rate(sim::VariableId{static_cast<std::uint32_t>(f)});
    return rates;
}

using Pattern = std::function<std::vector<NicPair>(const NicNumbering&)>;

/// FabricLab side of a one-solve case on given routes: routing is setup, the solver
/// (constraints, variables, elements, solve) is timed.
Sample fabricLabSolve(const model::GeneratorParams& params, const Pattern& pattern) {
    Sample s;
    const Built b = build(params);
    const std::vector<NicPair> pairs = pattern(*b.nics);
    double start = clockSeconds();
    const FlowSet flows = routeFlows(*b.network, *b.nics, pairs);
    s.setupSeconds = elapsedSince(start);
    start = clockSeconds();
    const auto solver = loadSolver(flows);
    const double solveStart = clockSeconds();
    solver->solve();
    s.solveSeconds = elapsedSince(solveStart);
    s.seconds = elapsedSince(start);
    s.perFlow = ratesOf(*solver, flows.size());
    s.pairs = static_cast<double>(pairs.size());
    s.flows = static_cast<double>(flows.size());
    return s;
}

/// SimGrid side of a one-solve case: the platform is setup, starting the communications
/// and SimGrid's first share computation are timed; with `timePlatform` the platform
/// (hosts, links, route table) is timed too.
Sample simGridSolve(const model::GeneratorParams& params, const Pattern& pattern,
                    bool timePlatform) {
    Sample s;
    const Built b = build(params);
    const std::vector<NicPair> pairs = pattern(*b.nics);
    const FlowSet flows = routeFlows(*b.network, *b.nics, pairs);
    const double start = clockSeconds();
    SimGridPeer peer(flows);
    const double platform = elapsedSince(start);
    SimGridPeer::Share share = peer.firstShare();
    s.setupSeconds = platform;
    s.seconds = share.wallSeconds + (timePlatform ? platform : 0.0);
    s.perFlow = std::move(share.rateGbps);
    s.pairs = static_cast<double>(pairs.size());
    s.flows = static_cast<double>(flows.size());
    return s;
}

/// Case b, FabricLab: routing every pair and loading the solver as it goes (no stored
/// routes: that is how a million flows stay small), then one solve; all of it timed.
Sample fabricLabBuildAndSolve(const model::GeneratorParams& params, const Pattern& pattern) {
    Sample s;
    const Built b = build(params);
    const std::vector<NicPair> pairs = pattern(*b.nics);
    const double start = clockSeconds();
    const sim::FabricNetwork& network = *b.network;
    auto solver = sim::makeSolver("heap");
    for (std::uint32_t c = 0; c < network.channelCount(); ++c)
        solver->addConstraint(network.capacityGbps(c));
    std::size_t flows = 0;
    // Two tiers: at most four channels per flow.
    solver->reserve(pairs.size(), 4 * pairs.size());
    sim::Route route;
    for (const auto& [from, to] : pairs) {
        network.routeInto(b.nics->endpoint(from), b.nics->endpoint(to), 0, route);
        if (route.elements.empty())
            continue; // inside one server: never reaches the fabric
        const sim::VariableId v = solver->addVariable();
        for (const sim::PathElement& e : route.elements)
            solver->expand(v, sim::ConstraintId{e.channel}, e.fraction);
        ++flows;
    }
    const double solveStart = clockSeconds();
    solver->solve();
    s.solveSeconds = elapsedSince(solveStart);
    s.seconds = elapsedSince(start);
    s.perFlow = ratesOf(*solver, flows);
    s.pairs = static_cast<double>(pairs.size());
    s.flows = static_cast<double>(flows);
    return s;
}

/// Case c, FabricLab: FlowSimulator drains every transfer exactly (no event or work cap),
/// all of it timed. FlowSimulator adds each transfer's start-up latency after its last
/// byte; SimGrid runs without latency, so finish times are compared with it taken off.
Sample fabricLabDrain(const model::GeneratorParams& params, const Pattern& pattern, double bytes) {
    Sample s;
    const Built b = build(params);
    const std::vector<NicPair> pairs = pattern(*b.nics);
    std::vector<sim::Transfer> transfers;
    transfers.reserve(pairs.size());
    for (const auto& [from, to] : pairs)
        transfers.push_back(
            sim::Transfer{b.nics->endpoint(from), b.nics->endpoint(to), bytes, {}, 0, 0});
    sim::SimulationOptions options;
    options.maxEvents = std::numeric_limits<std::size_t>::max();
    options.maxWork = std::numeric_limits<std::size_t>::max();
    const double start = clockSeconds();
    const sim::SimulationResult result =
        sim::FlowSimulator{}.run(*b.network, transfers, {}, options);
    s.seconds = elapsedSince(start);
    if (result.drainEstimated)
        throw std::runtime_error("FlowSimulator estimated the drain instead of simulating it");
    s.perFlow.resize(transfers.size());
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const sim::Route route =
            b.network->route(transfers[i].from, transfers[i].to, transfers[i].flowKey);
        s.perFlow[i] = result.finishTimes[i] - b.network->latency(route).value;
    }
    s.makespan = *std::max_element(s.perFlow.begin(), s.perFlow.end());
    s.makespanWithLatency = result.seconds;
    s.events = static_cast<double>(result.events);
    s.pairs = static_cast<double>(pairs.size());
    s.flows = static_cast<double>(pairs.size());
    return s;
}

/// Case c, SimGrid: platform, communications and the run to the end, all timed.
Sample simGridDrain(const model::GeneratorParams& params, const Pattern& pattern, double bytes) {
    Sample s;
    const Built b = build(params);
    const std::vector<NicPair> pairs = pattern(*b.nics);
    const FlowSet flows = routeFlows(*b.network, *b.nics, pairs);
    const double start = clockSeconds();
    SimGridPeer peer(flows);
    s.setupSeconds = elapsedSince(start);
    SimGridPeer::Drain drain = peer.drain(bytes);
    s.seconds = elapsedSince(start);
    s.perFlow = std::move(drain.finishSeconds);
    s.makespan = drain.makespan;
    s.pairs = static_cast<double>(pairs.size());
    s.flows = static_cast<double>(flows.size());
    return s;
}

void compare(CaseResult& row, const char* what) {
    row.compared = what;
    if (row.fabriclab.ran && row.simgrid.ran)
        row.agreement =
            maxRelativeDifference(row.fabriclab.median.perFlow, row.simgrid.median.perFlow);
    // The parent forks every later child: keep it small, so their peak memory is theirs.
    row.fabriclab.median.perFlow = {};
    row.simgrid.median.perFlow = {};
    const SideResult& any = row.fabriclab.ran ? row.fabriclab : row.simgrid;
    row.pairs = static_cast<std::size_t>(any.median.pairs);
    row.flows = static_cast<std::size_t>(any.median.flows);
}

std::string flowLabel(std::size_t n) {
    if (n >= (std::size_t{1} << 20) && n % (std::size_t{1} << 20) == 0)
        return std::to_string(n >> 20) + "M";
    if (n >= 1024 && n % 1024 == 0)
        return std::to_string(n >> 10) + "K";
    return std::to_string(n);
}

} // namespace

/// A full design for case e: the 16K-GPU sample's workload and collective on a generated
/// `kind` fabric of `servers` x 8 GPUs at `radix`, on `fabric`.
/// The 16K sample regenerated at another size; `planes` and `nicGbps` (0: the sample's)
/// for the multi-plane leaf-spine of the million-GPU case.
model::Design scaledDesign(const char* kind, const char* fabric, int servers, int radix,
                           int planes = 0, double nicGbps = 0) {
    std::ifstream in(FABRICLAB_SAMPLES_DIR "/fat-tree-16k-ib-ndr.fabric.json");
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json d = nlohmann::json::parse(text.str());
    d["fabric"] = fabric;
    auto& g = d["generator"];
    g["kind"] = kind;
    g["servers"] = servers;
    g["leafRadix"] = radix;
    g["spineRadix"] = radix;
    g["coreRadix"] = radix;
    if (planes > 0) {
        g["planes"] = planes;
        g.erase("coreRadix");
        g.erase("spineOversubscription");
        g.erase("serversPerPod");
    }
    if (nicGbps > 0)
        g["nicGbps"] = nicGbps;
    auto& w = d["workload"];
    const int modelParallel = w["tp"].get<int>() * w["pp"].get<int>();
    w["dp"] = std::max(1, servers * 8 / modelParallel);
    if (servers * 8 % modelParallel != 0 || servers * 8 < modelParallel)
        d.erase("workload");
    return model::parseDesign(d.dump(), "scaled", model::Catalog::builtin());
}

/// Case e, FabricLab: a whole `fabriclab-cli run` (runDesign as the CLI calls it), timed;
/// beside it, one random permutation on the same fabric routed and solved, each timed
/// apart, to show where a run's time goes.
Sample fabricLabFullRun(const model::Design& design) {
    Sample s;
    double start = clockSeconds();
    const model::RunReport report = model::runDesign(design, model::Catalog::builtin());
    s.seconds = elapsedSince(start);
    const sim::FabricNetwork network(design.topology, design.fabric.spec, 1);
    const NicNumbering nics(network);
    const std::vector<NicPair> pairs = randomPermutation(nics, kPermutationSeed);
    // Adaptive fabrics spread a flow over several channels: routes are kept whole here
    // (FlowSet is single-path, for SimGrid), then loaded into the solver.
    start = clockSeconds();
    std::vector<sim::Route> routes(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i)
        network.routeInto(nics.endpoint(pairs[i].first), nics.endpoint(pairs[i].second), 0,
                          routes[i]);
    s.setupSeconds = elapsedSince(start);
    auto solver = sim::makeSolver("heap");
    for (std::uint32_t c = 0; c < network.channelCount(); ++c)
        solver->addConstraint(network.capacityGbps(c));
    std::size_t flows = 0;
    for (const sim::Route& route : routes) {
        if (route.elements.empty())
            continue;
        const sim::VariableId v = solver->addVariable();
        for (const sim::PathElement& e : route.elements)
            solver->expand(v, sim::ConstraintId{e.channel}, e.fraction);
        ++flows;
    }
    start = clockSeconds();
    solver->solve();
    s.solveSeconds = elapsedSince(start);
    s.pairs = static_cast<double>(report.gpus);
    s.flows = static_cast<double>(flows);
    return s;
}

void runCases(const BenchOptions& options, const std::function<void(const CaseResult&)>& done) {
    const bool quick = options.quick;
    const auto runs = [&](int byDefault) {
        return options.repeat > 0 ? options.repeat : (quick ? 1 : byDefault);
    };
    const auto wants = [&](char id) { return options.cases.find(id) != std::string::npos; };

    const Pattern permutation = [](const NicNumbering& n) {
        return randomPermutation(n, kPermutationSeed);
    };
    const Pattern everyPair = [](const NicNumbering& n) { return allToAll(n); };

    const model::GeneratorParams bigTwoTier =
        quick ? leafSpine(64, 8, 32, 64, 1.0) : leafSpine(4096, 8, 128, 512, 1.0);

    if (wants('a')) {
        CaseResult row;
        row.id = "a";
        row.title =
            quick ? "permutation, 512 GPUs, one solve" : "permutation, 32,768 GPUs, one solve";
        row.timed = "FabricLab: solver load + solve (routes given); SimGrid: start comms + first "
                    "share (platform given)";
        row.targetMs = quick ? 0 : 7;
        row.fabriclab =
            measureSide(runs(3), [&] { return fabricLabSolve(bigTwoTier, permutation); });
        row.simgrid =
            measureSide(runs(3), [&] { return simGridSolve(bigTwoTier, permutation, false); });
        compare(row, "rates");
        done(row);
    }
    if (wants('b')) {
        const auto params = quick ? leafSpine(8, 8, 16, 16, 1.0) : leafSpine(128, 8, 64, 64, 1.0);
        CaseResult row;
        row.id = "b";
        row.title =
            quick ? "all-to-all, 64 GPUs, build + solve" : "all-to-all, 1,024 GPUs, build + solve";
        row.timed = "FabricLab: route every pair + solver load + solve; SimGrid: platform incl. "
                    "routes + comms + first share";
        row.targetMs = quick ? 0 : 150;
        row.targetMb = quick ? 0 : 200;
        row.fabriclab =
            measureSide(runs(3), [&] { return fabricLabBuildAndSolve(params, everyPair); });
        row.simgrid = measureSide(runs(3), [&] { return simGridSolve(params, everyPair, true); });
        compare(row, "rates");
        done(row);
    }
    if (wants('c')) {
        const auto params = quick ? leafSpine(32, 8, 32, 64, 1.0) : leafSpine(512, 8, 64, 512, 1.0);
        const double bytes = quick ? kQuickDrainBytes : kDrainBytes;
        CaseResult row;
        row.id = "c";
        row.title = quick ? "permutation drain, 256 GPUs, 1 MiB/flow"
                          : "permutation drain, 4,096 GPUs, 64 MiB/flow";
        row.timed = "FabricLab: FlowSimulator::run, exact (routing inside); SimGrid: platform + "
                    "comms + run()";
        row.targetMs = quick ? 0 : 300;
        row.fabriclab =
            measureSide(runs(1), [&] { return fabricLabDrain(params, permutation, bytes); });
        row.simgrid =
            measureSide(runs(1), [&] { return simGridDrain(params, permutation, bytes); });
        compare(row, "finish times");
        done(row);
    }
    if (wants('e')) {
        struct Size {
            const char* id;
            const char* kind;
            const char* fabric;
            int servers;
            int radix;
            double targetMs;
            double targetMb;
            int planes = 0;
            double nicGbps = 0;
        };
        // The sizes issue 13 names: 1K leaf/spine, 16K and 65K fat-trees at radix 64,
        // 131K at radix 128 on Spectrum-X (with the 2 s and 1 GB goal); and the million GPUs
        // of issue 36 (10 s, 4 GiB): 8 planes of two-tier 512-port leaf-spines, a 100G NIC
        // per plane, as an 800G NIC split into planes would wire them.
        const std::vector<Size> sizes =
            quick ? std::vector<Size>{{"e64", "leaf-spine", "spectrum-x", 8, 64, 0, 0},
                                      {"e512", "fat-tree", "ib-ndr", 64, 16, 0, 0}}
                  : std::vector<Size>{
                        {"e1K", "leaf-spine", "spectrum-x", 128, 128, 0, 0},
                        {"e16K", "fat-tree", "ib-ndr", 2048, 64, 0, 0},
                        {"e65K", "fat-tree", "ib-ndr", 8192, 64, 0, 0},
                        {"e131K", "fat-tree", "spectrum-x", 16384, 128, 2000, 1024},
                        {"e1M", "leaf-spine", "spectrum-x", 131072, 512, 10000, 4096, 8, 100}};
        for (const Size& size : sizes) {
            CaseResult row;
            row.id = size.id;
            row.title = "full run, ";
            row.title += std::to_string(size.servers * 8);
            row.title += " GPUs, ";
            row.title += size.kind;
            row.title += " on ";
            row.title += size.fabric;
            row.timed = "FabricLab: runDesign as fabriclab-cli run calls it (bisection over 8 "
                        "seeds, collective, step, cost)";
            row.targetMs = size.targetMs;
            row.targetMb = size.targetMb;
            row.simgridSkipped = "a full run has no SimGrid counterpart (cases a-d compare the "
                                 "solver)";
            row.fabriclab = measureSide(runs(1), [&] {
                return fabricLabFullRun(scaledDesign(size.kind, size.fabric, size.servers,
                                                     size.radix, size.planes, size.nicGbps));
            });
            row.flows = static_cast<std::size_t>(row.fabriclab.median.flows);
            row.pairs = row.flows;
            done(row);
        }
    }
    if (wants('p')) {
        // The planner's goal: every split of Llama 3.1 405B on 16,384 GPUs ranked in under 5 s.
        const model::Design design = quick ? scaledDesign("leaf-spine", "ib-ndr", 64, 64)
                                           : scaledDesign("fat-tree", "ib-ndr", 2048, 64);
        CaseResult row;
        row.id = "p";
        row.title = quick ? "plan, 512 GPUs" : "plan, Llama 3.1 405B on 16,384 GPUs";
        row.timed = "FabricLab: the fabric's network built and model::planLayouts (top 10), as "
                    "fabriclab-cli plan runs them";
        row.targetMs = quick ? 0 : 5000;
        row.simgridSkipped = "a plan has no SimGrid counterpart";
        if (design.workload) {
            row.fabriclab = measureSide(runs(3), [&] {
                Sample s;
                const double start = clockSeconds();
                const sim::FabricNetwork network(design.topology, design.fabric.spec);
                const model::LayoutPlan plan = model::planLayouts(network, *design.workload, 10);
                s.seconds = elapsedSince(start);
                return s;
            });
        }
        done(row);
    }
    if (wants('d')) {
        std::vector<std::size_t> sizes;
        for (std::size_t n = 1024; n <= (quick ? std::size_t{4096} : std::size_t{1} << 20); n *= 4)
            sizes.push_back(n);
        for (const std::size_t n : sizes) {
            const Pattern pairs = [n](const NicNumbering& nics) {
                return randomPairs(nics, n, kPairsSeed + n);
            };
            CaseResult row;
            row.id = "d";
            row.id += flowLabel(n); // not "d" + ...: GCC 12 flags that with a bogus -Wrestrict
            row.curve = true;
            row.title = flowLabel(n) + " random pairs";
            row.timed = "as case a";
            row.fabriclab = measureSide(runs(1), [&] { return fabricLabSolve(bigTwoTier, pairs); });
            if (n > options.simgridMaxFlows) {
                // Appending, not operator+(literal, string): GCC 12 flags that with a bogus
                // -Wrestrict.
                row.simgridSkipped = "over --simgrid-max-flows ";
                row.simgridSkipped += std::to_string(options.simgridMaxFlows);
            } else
                row.simgrid =
                    measureSide(runs(1), [&] { return simGridSolve(bigTwoTier, pairs, false); });
            compare(row, "rates");
            done(row);
        }
    }
}

} // namespace fabriclab::bench
