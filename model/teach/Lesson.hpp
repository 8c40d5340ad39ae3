// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Design.hpp"
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
/// rail); each step's time and link loads come from the flow simulator on the design's
/// own fabric, failures included, so oversubscription and ECMP collisions show.
namespace fabriclab::teach {

enum class Lesson { RingAllReduce, TreeAllReduce, SharpAllReduce, AllToAll };

std::string_view toString(Lesson lesson);
std::optional<Lesson> lessonFromString(std::string_view text);
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
    double seconds = 0;        ///< this step on the fabric, start-up latency included
    double elapsedSeconds = 0; ///< from the start of the collective to the end of the step
    double busBwGBps = 0;      ///< bus bandwidth per server so far (nccl-tests' definition)
};

struct LessonRun {
    Lesson lesson = Lesson::RingAllReduce;
    double bytes = 0; ///< buffer per server
    int servers = 0;
    int chunks = 0;                   ///< slices the buffer is cut into
    std::vector<model::NodeId> order; ///< servers in the order the algorithm ranks them
    std::vector<LessonStep> steps;
};

/// The lesson on the design as it runs (its failures applied), `bytes` per server.
/// Throws std::invalid_argument with a message naming the reason: more than
/// kMaxTeachingGpus GPUs, fewer than two connected servers, bytes not positive, SHARP on
/// a fabric without in-network reduction.
LessonRun teach(const model::Design& design, Lesson lesson, double bytes);

} // namespace fabriclab::teach
