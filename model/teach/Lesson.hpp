// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/Design.hpp"
#include "model/report/NcclTests.hpp"
#include "model/topology/Link.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

/// Collectives taught step by step on a small design: which server sends which chunk to
/// whom at each step, the links that carry it, how long the step takes on this fabric and
/// the bus bandwidth reached so far. The schedule is the textbook algorithm at server
/// level (every NIC of a server carries its share, as NCCL runs one ring or tree per
/// rail); each step's link loads come from the flow simulator on the design's own fabric,
/// failures included, so oversubscription and ECMP collisions show.
///
/// The drawn schedule is simpler than what NCCL runs (a few large chunks, one tree, servers
/// rather than GPUs), so its figures are not worked out from it: the collective is timed
/// by the engine exactly as `fabriclab-cli nccl-tests` times it for the design, the size and
/// the lesson's algorithm (model::runNcclTests), and the steps share that time in proportion
/// to what each takes on the fabric as drawn. The last step's elapsed time and bus
/// bandwidth are the engine's.
namespace fabriclab::teach {

enum class Lesson { RingAllReduce, TreeAllReduce, SharpAllReduce, AllToAll };

std::string_view toString(Lesson lesson);
/// A title for menus and captions ("Ring all-reduce").
std::string_view title(Lesson lesson);

/// Lessons are drawn link by link: past this many GPUs the steps blur together.
inline constexpr int kMaxTeachingGpus = 64;

/// What one server hands another in a step.
struct ChunkMove {
    model::NodeId from;
    model::NodeId to;
    int chunk = 0; ///< which slice of the buffer (0-based)
    /// The receiver adds the chunk into its own (reduce) rather than keeping a copy.
    bool reduce = false;
};

/// One step of a lesson.
struct LessonStep {
    std::string caption;
    std::vector<ChunkMove> moves;
    /// Links busy in this step (LinkId value): the busiest moment's utilization 0-1.
    std::unordered_map<std::uint32_t, float> linkLoad;
    /// Links busy in this step: the chunks crossing them, for labels ("c2", "c0 c3").
    std::unordered_map<std::uint32_t, std::vector<int>> linkChunks;
    /// This step's share of the engine's time for the collective: what the step takes on
    /// the fabric as drawn (start-up latency included), scaled with the others to add up
    /// to the engine's time.
    double seconds = 0;
    double elapsedSeconds = 0; ///< from the start of the collective to the end of the step
    /// Bus bandwidth so far, as nccl-tests defines it over the job's ranks (GPUs); the
    /// last step's is the engine's (LessonRun::engine).
    double busBwGBps = 0;
};

struct LessonRun {
    Lesson lesson = Lesson::RingAllReduce;
    double bytes = 0; ///< buffer per server
    int servers = 0;
    int chunks = 0;                   ///< slices the buffer is cut into
    std::vector<model::NodeId> order; ///< servers in the order the algorithm ranks them
    std::vector<LessonStep> steps;
    /// The collective as the engine runs it, as `fabriclab-cli nccl-tests` reports it for
    /// the design, `bytes` and the lesson's algorithm (engineOptions): NCCL's algorithm and
    /// protocol, its time, algbw and busbw.
    model::NcclTestsRow engine;
    int ranks = 0; ///< GPUs taking part, over which nccl-tests counts bus bandwidth
};

/// The nccl-tests run a lesson takes its figures from: all-reduce with NCCL_ALGO=ring, tree
/// or SHARP (CollNet or NVLS reducing in the switches), or all-to-all as NCCL runs it by
/// default, at `bytes` alone.
model::NcclTestsOptions engineOptions(Lesson lesson, double bytes);

/// The lesson on the design as it runs (its failures applied), `bytes` per server (the
/// size nccl-tests gives every rank). `catalog` supplies the GPU of a design without a
/// workload, as for nccl-tests. Throws std::invalid_argument with a message naming the
/// reason: more than kMaxTeachingGpus GPUs, fewer than two connected servers, bytes not
/// positive, SHARP on a fabric without in-network reduction, or what the engine refuses.
LessonRun teach(const model::Design& design, Lesson lesson, double bytes,
                const model::Catalog& catalog = model::Catalog::builtin());

} // namespace fabriclab::teach
