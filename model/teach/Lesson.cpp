// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/teach/Lesson.hpp"

#include "model/core/EnumNames.hpp"
#include "model/core/TextFormat.hpp"
#include "model/sim/Collectives.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSimulator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>

namespace fabriclab::teach {
namespace {

constexpr std::array<std::pair<Lesson, std::string_view>, 4> kNames{{
    {Lesson::RingAllReduce, "ring"},
    {Lesson::TreeAllReduce, "tree"},
    {Lesson::SharpAllReduce, "sharp"},
    {Lesson::AllToAll, "alltoall"},
}};
constexpr std::array<std::pair<Lesson, std::string_view>, 4> kTitles{{
    {Lesson::RingAllReduce, "Ring all-reduce"},
    {Lesson::TreeAllReduce, "Tree all-reduce"},
    {Lesson::SharpAllReduce, "SHARP all-reduce"},
    {Lesson::AllToAll, "All-to-all"},
}};

/// Chunks a tree or SHARP lesson pipelines: enough to see chunks overtake one another
/// on their way up, few enough to follow.
constexpr int kPipelineChunks = 4;

std::string chunkName(int chunk) {
    std::string name = std::to_string(chunk);
    name.insert(name.begin(), 'c'); // not "c" + ...: g++ 12 warns falsely (-Wrestrict)
    return name;
}

/// The design's servers with a NIC on the fabric, in topology order, and what the
/// simulator needs to time a step on them.
class Classroom {
public:
    Classroom(const model::Topology& topology, const model::Fabric& fabric)
        : m_network(topology, fabric) {
        for (const model::NodeId server : m_network.servers())
            if (m_network.nicCount(server) > 0)
                m_servers.push_back(server);
        m_rails = m_servers.empty() ? 0 : m_network.nicCount(m_servers.front());
        for (const model::NodeId server : m_servers)
            m_rails = std::min(m_rails, m_network.nicCount(server));
    }

    const std::vector<model::NodeId>& servers() const { return m_servers; }
    const sim::FabricNetwork& network() const { return m_network; }
    std::string name(model::NodeId id) const { return m_network.topology().node(id).name; }

    /// Times server-to-server moves of `bytes` each on the fabric, one flow per rail, and
    /// fills the step's link loads and labels.
    void simulate(LessonStep& step, double bytes) const {
        std::vector<sim::Transfer> transfers;
        std::vector<int> chunkOf;
        for (const ChunkMove& move : step.moves)
            for (int rail = 0; rail < m_rails; ++rail) {
                transfers.push_back(
                    sim::Transfer{{move.from, rail},
                                  {move.to, rail},
                                  bytes / m_rails,
                                  {},
                                  static_cast<std::uint64_t>(rail),
                                  model::microseconds(m_network.fabric().stepLatencyUs).value});
                chunkOf.push_back(move.chunk);
            }
        sim::SimulationOptions options;
        options.recordLinks = true;
        const sim::SimulationResult result =
            sim::FlowSimulator{}.run(m_network, transfers, {}, options);
        step.seconds = result.seconds;
        for (const sim::Sample& sample : result.timeline)
            for (std::size_t channel = 0; channel < sample.linkUtilization.size(); ++channel) {
                const float load = sample.linkUtilization[channel];
                if (load <= 0)
                    continue;
                for (const model::LinkId link :
                     m_network.linksOf(static_cast<std::uint32_t>(channel))) {
                    float& kept = step.linkLoad[link.value];
                    kept = std::max(kept, load);
                }
            }
        sim::expectTransfers(m_network, transfers);
        for (std::size_t i = 0; i < transfers.size(); ++i) {
            const sim::Route route =
                m_network.route(transfers[i].from, transfers[i].to, transfers[i].flowKey);
            for (const sim::PathElement& element : route.elements)
                for (const model::LinkId link : m_network.linksOf(element.channel)) {
                    auto& chunks = step.linkChunks[link.value];
                    if (std::find(chunks.begin(), chunks.end(), chunkOf[i]) == chunks.end())
                        chunks.push_back(chunkOf[i]);
                }
        }
        for (auto& [link, chunks] : step.linkChunks)
            std::sort(chunks.begin(), chunks.end());
    }

    /// Whether the step loads a link between two switches (the spines' uplinks).
    bool crossesSwitches(const LessonStep& step) const {
        const model::Topology& topology = m_network.topology();
        for (const auto& [id, load] : step.linkLoad) {
            const model::Link& link = topology.link(model::LinkId{id});
            if (model::isSwitch(topology.node(link.a).kind) &&
                model::isSwitch(topology.node(link.b).kind))
                return true;
        }
        return false;
    }

private:
    sim::FabricNetwork m_network;
    std::vector<model::NodeId> m_servers;
    int m_rails = 0;
};

std::string moveList(const Classroom& room, const std::vector<ChunkMove>& moves) {
    std::string text;
    for (const ChunkMove& move : moves) {
        if (!text.empty())
            text += ", ";
        text += room.name(move.from) + " → " + room.name(move.to) + " " + chunkName(move.chunk);
    }
    return text;
}

void ringSteps(const Classroom& room, LessonRun& run) {
    const int n = run.servers;
    run.chunks = n;
    const auto& order = run.order;
    for (int s = 0; s < 2 * (n - 1); ++s) {
        const bool scatter = s < n - 1;
        const int phaseStep = scatter ? s : s - (n - 1);
        LessonStep step;
        for (int i = 0; i < n; ++i) {
            // Reduce-scatter: server i passes on the chunk it has summed the longest;
            // all-gather: the fully summed chunk it received last.
            const int chunk = ((scatter ? i - phaseStep : i + 1 - phaseStep) % n + n) % n;
            step.moves.push_back(ChunkMove{order[static_cast<std::size_t>(i)],
                                           order[static_cast<std::size_t>((i + 1) % n)], chunk,
                                           scatter});
        }
        step.caption = scatter
                           ? "Reduce-scatter, step " + std::to_string(phaseStep + 1) + " of " +
                                 std::to_string(n - 1) + ": every server sends one chunk (1/" +
                                 std::to_string(n) +
                                 " of its buffer) to the next server in the ring, which adds it to "
                                 "its own. After " +
                                 std::to_string(n - 1) +
                                 " steps each server holds one chunk summed over all servers."
                           : "All-gather, step " + std::to_string(phaseStep + 1) + " of " +
                                 std::to_string(n - 1) +
                                 ": every server forwards a fully summed chunk to the next server, "
                                 "which keeps it. Every link of the ring is busy at every step: "
                                 "that is why the ring reaches the NICs' full speed.";
        room.simulate(step, run.bytes / n);
        run.steps.push_back(std::move(step));
    }
}

/// Position i in a binary tree laid over the servers in order: parent (i-1)/2.
int depthOf(int i) {
    int depth = 0;
    for (int k = i + 1; k > 1; k /= 2)
        ++depth;
    return depth;
}

void treeSteps(const Classroom& room, LessonRun& run) {
    const int n = run.servers;
    const int chunks = kPipelineChunks;
    run.chunks = chunks;
    const auto& order = run.order;
    const int deepest = depthOf(n - 1);
    const int phaseSteps = chunks + deepest - 1;
    for (int up = 0; up < 2; ++up)
        for (int t = 0; t < phaseSteps; ++t) {
            const bool reduce = up == 0;
            LessonStep step;
            for (int i = 1; i < n; ++i) {
                const int depth = depthOf(i);
                // Up: a server sends chunk c once its children have sent it theirs, so
                // chunk c leaves the deepest level at step c and each level one step later.
                // Down: the root sends chunk c at step c, each level forwards it one later.
                const int chunk = reduce ? t - (deepest - depth) : t - (depth - 1);
                if (chunk < 0 || chunk >= chunks)
                    continue;
                const auto child = order[static_cast<std::size_t>(i)];
                const auto parent = order[static_cast<std::size_t>((i - 1) / 2)];
                step.moves.push_back(reduce ? ChunkMove{child, parent, chunk, true}
                                            : ChunkMove{parent, child, chunk, false});
            }
            step.caption =
                reduce ? "Reduce up the tree, step " + std::to_string(t + 1) + " of " +
                             std::to_string(phaseSteps) +
                             ": each server adds its children's chunk to its own and passes "
                             "the sum to its parent (" +
                             moveList(room, step.moves) +
                             "). Chunks follow one another up like a pipeline."
                       : "Broadcast down the tree, step " + std::to_string(t + 1) + " of " +
                             std::to_string(phaseSteps) + ": the summed chunks flow back down (" +
                             moveList(room, step.moves) +
                             "). A tree needs only log2(servers) hops, so it wins on latency; "
                             "a ring wins on bandwidth.";
            room.simulate(step, run.bytes / chunks);
            run.steps.push_back(std::move(step));
        }
}

/// The switch SHARP reduces in: the top of the fabric (the first switch of the highest
/// tier), and the links from each server up to it on a two-tier fabric.
model::NodeId sharpRoot(const model::Topology& topology) {
    std::optional<model::NodeId> root;
    for (const auto& [id, node] : topology.nodes())
        if (model::isSwitch(node.kind) && (!root || node.kind > topology.node(*root).kind))
            root = id;
    if (!root)
        throw std::invalid_argument("SHARP lesson: the design has no switch to reduce in");
    return *root;
}

void sharpSteps(const Classroom& room, LessonRun& run) {
    const auto& topology = room.network().topology();
    const model::NodeId root = sharpRoot(topology);
    const int chunks = kPipelineChunks;
    run.chunks = chunks;
    // Every server's NIC cables and the links from their switches to the root carry one
    // stream each way: the switches sum what comes up, so no link carries a chunk twice.
    std::vector<model::LinkId> serverLinks;
    std::vector<model::LinkId> upLinks;
    // Each edge switch sends up to the first top-tier switch it reaches: the root itself,
    // or, where groups of rails have spines of their own (rail planes), its plane's.
    const model::NodeKind top = topology.node(root).kind;
    const auto topOf = [&](model::NodeId edge) {
        std::optional<model::NodeId> first;
        for (const model::LinkId up : topology.linksOf(edge)) {
            const model::Link& l = topology.link(up);
            const model::NodeId other = l.a == edge ? l.b : l.a;
            if (topology.node(other).kind == top && (!first || other.value < first->value))
                first = other;
        }
        return first;
    };
    for (const model::NodeId server : run.order)
        for (const model::LinkId id : topology.linksOf(server)) {
            serverLinks.push_back(id);
            const model::Link& link = topology.link(id);
            const model::NodeId edge = link.a == server ? link.b : link.a;
            const auto edgeTop = topOf(edge);
            if (edge == root || !edgeTop)
                continue;
            for (const model::LinkId up : topology.linksOf(edge)) {
                const model::Link& l = topology.link(up);
                if ((l.a == *edgeTop || l.b == *edgeTop) &&
                    std::find(upLinks.begin(), upLinks.end(), up) == upLinks.end())
                    upLinks.push_back(up);
            }
        }
    for (int t = 0; t <= chunks; ++t) {
        LessonStep step;
        std::vector<int> moving;
        if (t < chunks)
            moving.push_back(t); // going up, summed in the switches
        if (t > 0)
            moving.push_back(t - 1); // coming down, the sum every server receives
        for (const model::NodeId server : run.order)
            for (const int chunk : moving)
                step.moves.push_back(chunk == t ? ChunkMove{server, root, chunk, true}
                                                : ChunkMove{root, server, chunk, false});
        for (const model::LinkId id : serverLinks) {
            step.linkLoad[id.value] = 1.0f;
            step.linkChunks[id.value] = moving;
        }
        for (const model::LinkId id : upLinks) {
            // One summed stream per NIC of the switch's servers, on this link's share.
            step.linkLoad[id.value] = 1.0f;
            step.linkChunks[id.value] = moving;
        }
        // The sums the switches make cannot be drawn as flows between NICs, so this step is
        // not simulated: every step moves one chunk each way over every NIC (the cables
        // carry both directions at once), so each takes an equal share of the engine's time.
        step.seconds = 1;
        step.caption =
            t == 0 ? "SHARP, step 1: every server sends chunk c0 up; the switches add the "
                     "chunks as they pass, so only one summed copy reaches the top."
            : t == chunks
                ? "SHARP, step " + std::to_string(t + 1) +
                      ": the last summed chunk comes down to every server. Each byte crossed "
                      "each NIC once each way, half the traffic of a ring."
                : "SHARP, step " + std::to_string(t + 1) + ": " + chunkName(t) +
                      " goes up to be summed while the sum of " + chunkName(t - 1) +
                      " comes down to every server.";
        run.steps.push_back(std::move(step));
    }
}

void allToAllSteps(const Classroom& room, LessonRun& run) {
    const int n = run.servers;
    run.chunks = n;
    const auto& order = run.order;
    for (int k = 1; k < n; ++k) {
        LessonStep step;
        for (int i = 0; i < n; ++i) {
            const int to = (i + k) % n;
            step.moves.push_back(ChunkMove{order[static_cast<std::size_t>(i)],
                                           order[static_cast<std::size_t>(to)], to, false});
        }
        room.simulate(step, run.bytes / n);
        step.caption =
            "All-to-all, step " + std::to_string(k) + " of " + std::to_string(n - 1) +
            ": every server sends the chunk meant for the server " + std::to_string(k) +
            " places further on. " +
            (room.crossesSwitches(step)
                 ? "Flows between leaves cross the spines; where two hash onto one uplink, "
                   "both slow down."
                 : "Each NIC talks to the same rail of the other servers, under one leaf: "
                   "the spines stay idle, which is what rail-optimized wiring is for.");
        run.steps.push_back(std::move(step));
    }
}

/// Puts the drawn steps on the engine's clock: they share its time for the collective in
/// proportion to what each took as drawn. The bus bandwidth so far counts the chunk moves
/// done as the share of the collective done (every move of a lesson carries one chunk),
/// over nccl-tests' ranks, so a pipeline filling up reads low. The schedule drawn is simpler
/// than NCCL's (a few large chunks, one tree, servers for GPUs), so its own time is not the
/// collective's: the last step ends on the engine's time and bus bandwidth.
void onEnginesClock(LessonRun& run, const model::NcclTestsReport& engine) {
    if (engine.rows.size() != 1)
        throw std::logic_error("lesson: nccl-tests should time one size, not " +
                               std::to_string(engine.rows.size()));
    run.engine = engine.rows.front();
    run.ranks = engine.ranks;
    const double seconds = model::microseconds(run.engine.timeUs).value;
    const double busFactor = sim::busBandwidthFactor(engine.op, engine.ranks);
    double drawn = 0;
    std::size_t moves = 0;
    for (const LessonStep& step : run.steps) {
        drawn += step.seconds;
        moves += step.moves.size();
    }
    if (!(drawn > 0) || moves == 0)
        throw std::logic_error("lesson: a schedule without moves or time");
    double elapsed = 0;
    std::size_t moved = 0;
    for (LessonStep& step : run.steps) {
        step.seconds *= seconds / drawn;
        elapsed += step.seconds;
        moved += step.moves.size();
        step.elapsedSeconds = elapsed;
        step.busBwGBps = model::rateOf(model::Bytes(run.bytes * (double(moved) / double(moves))),
                                       model::Seconds(elapsed))
                             .value *
                         busFactor;
    }
    // The sums above meet the engine's figures to rounding; the last step reports them.
    run.steps.back().elapsedSeconds = seconds;
    run.steps.back().busBwGBps = run.engine.busBwGBps;
}

} // namespace

model::NcclTestsOptions engineOptions(Lesson lesson, double bytes) {
    model::NcclTestsOptions options;
    options.minBytes = bytes;
    options.maxBytes = bytes;
    switch (lesson) {
    case Lesson::RingAllReduce:
        options.algorithm = model::CollectiveAlgorithm::Ring;
        break;
    case Lesson::TreeAllReduce:
        options.algorithm = model::CollectiveAlgorithm::Tree;
        break;
    case Lesson::SharpAllReduce:
        options.algorithm = model::CollectiveAlgorithm::Sharp;
        break;
    case Lesson::AllToAll:
        options.op = model::CollectiveOp::AllToAll; // NCCL's own way: PXN on multi-NIC servers
        break;
    }
    return options;
}

std::string_view toString(Lesson lesson) {
    return model::enumName(kNames, lesson);
}

std::string_view title(Lesson lesson) {
    return model::enumName(kTitles, lesson);
}

LessonRun teach(const model::Design& design, Lesson lesson, double bytes,
                const model::Catalog& catalog) {
    if (!(bytes > 0) || !std::isfinite(bytes))
        throw std::invalid_argument("lesson: the buffer must be a positive number of bytes");
    const int gpus = design.topology.gpuCount();
    if (gpus > kMaxTeachingGpus)
        throw std::invalid_argument("lessons are drawn step by step for up to " +
                                    std::to_string(kMaxTeachingGpus) + " GPUs; this design has " +
                                    model::grouped(gpus));
    const model::Fabric& fabric = design.fabric.spec;
    if (lesson == Lesson::SharpAllReduce && !fabric.inNetworkReduction)
        throw std::invalid_argument("fabric " + fabric.id +
                                    " has no in-network reduction (SHARP): pick an InfiniBand "
                                    "fabric for this lesson");
    const model::Topology running = model::afterFailures(design.topology, design.failures);
    const Classroom room(running, fabric);
    if (room.servers().size() < 2)
        throw std::invalid_argument(
            "lesson: it takes at least two servers connected to the fabric");

    LessonRun run;
    run.lesson = lesson;
    run.bytes = bytes;
    run.servers = static_cast<int>(room.servers().size());
    run.order = room.servers();
    switch (lesson) {
    case Lesson::RingAllReduce:
        ringSteps(room, run);
        break;
    case Lesson::TreeAllReduce:
        treeSteps(room, run);
        break;
    case Lesson::SharpAllReduce:
        sharpSteps(room, run);
        break;
    case Lesson::AllToAll:
        allToAllSteps(room, run);
        break;
    }
    onEnginesClock(run, model::runNcclTests(design, catalog, engineOptions(lesson, bytes)));
    return run;
}

} // namespace fabriclab::teach
