// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/workload/StepTime.hpp"

#include "model/sim/Collectives.hpp"
#include "model/sim/IdealNetwork.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace fabriclab::model {

using sim::CollectiveGroup;
using sim::FabricNetwork;
using sim::IdealNetwork;
using sim::runCollective;
using sim::simulateRings;

namespace {

constexpr double kBytesPerValue = 2; // BF16 gradients and activations on the wire
/// FP8 training (Transformer Engine, DeepSeek-V3) sends the expert dispatch in FP8 and the
/// combine in BF16: 1.5 bytes per value on average over the two all-to-alls.
constexpr double kFp8ExpertBytesPerValue = 1.5;

/// Data-parallel gradient exchange: every GPU's DP group is a ring of `dp` ranks spaced
/// `tp` apart. Members on one server first combine over scale-up; the rest cross the
/// fabric on the GPU's own rail, one ring per group, all groups at once.
double dataParallelSeconds(const FabricNetwork& network, const model::Workload& w,
                           double gradientBytes, const std::vector<model::NodeId>& stageServers,
                           int gpusPerServer, std::stop_token stop) {
    if (w.dp < 2)
        return 0;
    const auto& gpu = w.gpu.spec;
    const double scaleUpBps =
        model::bytesPerSecond(model::GBps(gpu.scaleUpGBps * gpu.scaleUpEfficiency));
    // ZeRO-3 also gathers parameters for the forward and the backward pass: 3 passes of
    // (n-1)/n instead of the all-reduce's 2.
    const double volumeFactor = w.zero >= 3 ? 1.5 : 1.0;
    const int spacing = w.tp * w.cp; // Megatron order: tp, then cp, then dp
    const int membersPerServer = std::max(1, gpusPerServer / spacing); // DP members on a server
    const int serversPerGroup = std::max(1, w.dp / membersPerServer);
    double seconds = 0;
    if (membersPerServer > 1)
        seconds += 2.0 * (membersPerServer - 1) / membersPerServer * gradientBytes / scaleUpBps;
    if (serversPerGroup > 1) {
        const int stride = std::max(1, spacing / gpusPerServer);
        std::vector<std::vector<model::NodeId>> rings(static_cast<std::size_t>(stride));
        for (int d = 0; d < serversPerGroup; ++d)
            for (int o = 0; o < stride; ++o) {
                const auto index = static_cast<std::size_t>(o + stride * d);
                if (index < stageServers.size())
                    rings[static_cast<std::size_t>(o)].push_back(stageServers[index]);
            }
        // Every NIC a server has carries its share: 16 x 200G or 32 x 100G for 8 GPUs run
        // at the same rate as 8 x 400G (NCCL spreads a GPU's channels over its NICs).
        int rails = std::numeric_limits<int>::max();
        for (const auto server : stageServers)
            rails = std::min(rails, std::max(1, network.nicCount(server)));
        // Each GPU's shard after the local combine, split over the rails its server has.
        const double perGpu = gradientBytes / membersPerServer;
        const double perRail = perGpu * gpusPerServer / rails;
        const auto step = simulateRings(network, rings, rails, perRail / serversPerGroup, stop);
        seconds += 2.0 * (serversPerGroup - 1) * step.seconds;
    }
    return seconds * volumeFactor;
}

/// What each GPU moves in one step, by kind of traffic: set by the model and the split,
/// whatever fabric carries it.
struct StepBytes {
    double denseGradient = 0;  ///< dense gradients per GPU, reduced over all dp replicas
    double expertGradient = 0; ///< its expert shard's gradients, over the dp / ep replicas
    int expertGroups = 1;      ///< ep, for the expert shard's data-parallel group
    double layersPerStage = 1;
    double activation = 0;     ///< a tensor-parallel group's activations for one layer pass
    double keysAndValues = 0;  ///< one GPU's keys and values for one layer (ring attention)
    double expertAllToAll = 0; ///< one GPU's tokens in one dispatch or combine
};

/// Which traffic leaves its servers, as Megatron places ranks (tensor parallel fastest,
/// then context, data, pipeline). Decided once, so the timing (NVLink or NICs) and the
/// accounting (inside MFU or fabric traffic) cannot disagree.
struct Crossing {
    bool tp = false;
    bool cp = false;
    bool dp = false;
    bool pp = false;
    bool ep = false;
    int expertServers = 1; ///< servers an expert group spans
};

Crossing crossingFor(const model::Workload& w, int gpusPerServer, std::size_t servers) {
    Crossing c;
    c.tp = w.tp > gpusPerServer;
    c.cp = static_cast<long long>(w.tp) * w.cp > gpusPerServer;
    // Data-parallel members on one server combine over NVLink first (dataParallelSeconds).
    const int dpMembersPerServer = std::max(1, gpusPerServer / (w.tp * w.cp));
    c.dp = w.dp / dpMembersPerServer > 1;
    c.pp = w.pp > 1 && servers > 1;
    c.expertServers = std::max(1, w.ep * w.tp / gpusPerServer);
    c.ep = c.expertServers > 1;
    return c;
}

/// How long each kind of traffic takes on one network.
struct TrafficSeconds {
    double dp = 0;
    double tp = 0;
    double tpOnScaleUp = 0; ///< the same all-reduces inside one scale-up domain
    double cp = 0;
    double pp = 0;
    double ep = 0;
};

TrafficSeconds timeTraffic(const FabricNetwork& network, const model::Workload& w,
                           const StepBytes& bytes, int gpusPerServer, const Crossing& crossing,
                           std::stop_token stop) {
    const auto& servers = network.servers();
    const auto& gpu = w.gpu.spec;
    const double scaleUpBps =
        model::bytesPerSecond(model::GBps(gpu.scaleUpGBps * gpu.scaleUpEfficiency));
    const double nicBps = model::bytesPerSecond(network.nicGoodput({servers.front(), 0}));
    // A GPU's share of its server's NICs: below one when GPUs share a NIC, above one with
    // more NICs than GPUs (16 x 200G or 32 x 100G for 8 GPUs).
    const double nicsPerGpu =
        static_cast<double>(network.nicCount(servers.front())) / gpusPerServer;
    const long long gpus = static_cast<long long>(servers.size()) * gpusPerServer;
    const int stageServers = static_cast<int>(std::max<long long>(1, gpus / w.pp / gpusPerServer));
    const std::vector<model::NodeId> firstStage(servers.begin(), servers.begin() + stageServers);
    const double layers = bytes.layersPerStage;

    TrafficSeconds t;
    t.dp = dataParallelSeconds(network, w, bytes.denseGradient, firstStage, gpusPerServer, stop);
    if (bytes.expertGradient > 0) {
        model::Workload expertGroup = w;
        expertGroup.dp = std::max(1, w.dp / bytes.expertGroups);
        t.dp += dataParallelSeconds(network, expertGroup, bytes.expertGradient, firstStage,
                                    gpusPerServer, stop);
    }
    if (w.tp > 1) {
        // Megatron: two all-reduces per layer forward, two backward, on the activations.
        const double perRank = 4 * layers * bytes.activation * 2.0 * (w.tp - 1) / w.tp;
        const double bandwidth = crossing.tp ? nicBps * nicsPerGpu : scaleUpBps;
        const double latency =
            model::microseconds(4 * layers * 2 * (w.tp - 1) * gpu.scaleUpStepLatencyUs).value;
        t.tp = perRank / bandwidth + latency;
        t.tpOnScaleUp = tensorParallelOnScaleUpSeconds(w);
    }
    if (w.cp > 1) {
        // Ring attention: every layer gathers the other slices' keys and values in the
        // forward pass, again in the backward pass, and reduce-scatters their gradients:
        // 3 passes of (cp-1)/cp.
        const double perRank = 3 * layers * bytes.keysAndValues * (w.cp - 1.0) / w.cp;
        t.cp = perRank / (crossing.cp ? nicBps * nicsPerGpu : scaleUpBps);
    }
    if (w.pp > 1) {
        // Activations forward and gradients backward across each stage boundary, each
        // GPU carrying its tensor-parallel slice over its own NIC.
        t.pp = 2 * bytes.activation / w.tp / (crossing.pp ? nicBps * nicsPerGpu : scaleUpBps);
    }
    if (bytes.expertAllToAll > 0) {
        // Dispatch and combine, forward and backward, in every layer of the stage.
        const int span = crossing.expertServers;
        CollectiveGroup group{
            std::vector<model::NodeId>(servers.begin(),
                                       servers.begin() +
                                           std::min<int>(span, static_cast<int>(servers.size()))),
            std::max(1, w.ep / span), gpu};
        const model::CollectiveSpec spec{
            model::CollectiveOp::AllToAll,
            static_cast<long long>(std::max(1.0, bytes.expertAllToAll)),
            model::CollectiveAlgorithm::Auto};
        t.ep =
            group.ranks() > 1 ? 4 * layers * runCollective(network, group, spec, stop).seconds : 0;
    }
    return t;
}

std::string percent(double share) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
    return text;
}

std::string significant(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

/// The inputs the step takes as given, as a practitioner would want them listed.
std::vector<std::string> stepAssumptions(const model::Workload& w, const StepTime& t, bool fp8) {
    std::vector<std::string> said;
    if (t.compute) {
        const model::GpuSpec& gpu = w.gpu.spec;
        said.push_back(
            "MFU " + percent(t.mfu) +
            " predicted from the hardware (no MFU given): matrix "
            "products at " +
            percent(fp8 ? gpu.gemmEfficiencyFp8 : gpu.gemmEfficiencyBf16) + " of " +
            (fp8 ? "FP8" : "BF16") + " peak, attention at " + percent(gpu.attentionEfficiency) +
            " of BF16 peak, HBM at " + percent(gpu.memoryEfficiency) + " of " +
            significant(gpu.hbmTBps) +
            " TB/s; with the pipeline bubble, recomputation, tensor parallelism on scale-up, the "
            "optimizer step and the traffic's time on an ideal nonblocking fabric");
    } else {
        said.push_back("MFU " + percent(t.mfu) +
                       " as given, end to end: it already holds pipeline bubbles, "
                       "recomputation, scale-up traffic and the fabric traffic's time on an "
                       "ideal nonblocking fabric");
    }
    const bool causal = w.attentionFlops == model::AttentionFlops::Causal;
    said.push_back(std::string("model FLOPs count 6 x the active parameters") +
                   (w.model.spec.inputEmbeddingParams() > 0 ? " less the input embedding" : "") +
                   (causal ? ", and causal attention (6 x layers x hidden x sequence per token)"
                           : ", and attention (12 x layers x hidden x sequence per token)") +
                   " over sequences of " + std::to_string(w.sequenceLength()) + " tokens" +
                   (w.seqLen ? " as given" : " (the model's context length)"));
    if (w.pp > 1)
        said.push_back("pipeline bubble " + percent(t.bubbleFraction) + " with " +
                       std::to_string(w.vpp) +
                       " virtual stage(s) and one sequence per micro-batch, inside the MFU");
    if (w.recompute != model::Recompute::None)
        said.push_back(std::string(toString(w.recompute)) + " recomputation: HFU " +
                       percent(t.hfu) + " for MFU " + percent(t.mfu));
    said.push_back("gradients reduced in BF16" +
                   std::string(w.zero >= 3   ? "; ZeRO-3 gathers parameters twice more"
                               : w.zero >= 1 ? "; ZeRO reduce-scatters them and gathers "
                                               "parameters (the same bytes as an all-reduce)"
                                             : ""));
    if (w.ep > 1)
        said.push_back(fp8 ? "expert all-to-alls dispatch in FP8 and combine in BF16"
                           : "expert all-to-alls in BF16");
    if (w.cp > 1)
        said.push_back(w.model.spec.kvShare() < 1
                           ? "context parallel exchanges the grouped-query keys and values (" +
                                 std::to_string(w.model.spec.kvHeads) + " of " +
                                 std::to_string(w.model.spec.attentionHeads) + " heads)"
                           : "context parallel exchanges full keys and values (the model "
                             "states no grouped-query heads)");
    if (t.communicationBound)
        said.push_back("the MFU leaves less time than this job's communication takes even on "
                       "an ideal fabric, so communication sets the step: the MFU is too high "
                       "for this split, or overlap too low");
    said.push_back("the step adds what this fabric takes beyond the ideal one, less what "
                   "overlap hides: " +
                   percent(w.overlap) + " of data, expert and context parallel; none of pipeline");
    return said;
}

} // namespace

double tensorParallelOnScaleUpSeconds(const model::Workload& w) {
    if (w.tp <= 1)
        return 0;
    const double layers = static_cast<double>(w.model.spec.layers) / w.pp;
    const double activation = static_cast<double>(w.globalBatchTokens) / w.dp / w.cp *
                              w.model.spec.hiddenSize * kBytesPerValue;
    return 4 * layers * model::scaleUpAllReduceSeconds(w.gpu.spec, activation, w.tp);
}

std::string_view toString(Parallelism parallelism) {
    switch (parallelism) {
    case Parallelism::Data:
        return "data";
    case Parallelism::Tensor:
        return "tensor";
    case Parallelism::Pipeline:
        return "pipeline";
    case Parallelism::Expert:
        return "expert";
    case Parallelism::Context:
        return "context";
    }
    return "?";
}

namespace {

// estimateStep's stages, in the order it runs them.

/// The GPUs of every server, which must be alike, and checks that the split fits them.
int uniformGpusPerServer(const FabricNetwork& network, const model::Workload& w) {
    const auto& topology = network.topology();
    const auto& servers = network.servers();
    if (servers.empty())
        throw std::invalid_argument("the design has no servers to train on");
    const int gpusPerServer = topology.node(servers.front()).server.gpus;
    for (const auto server : servers)
        if (topology.node(server).server.gpus != gpusPerServer)
            throw std::invalid_argument(
                "step time needs every server to have the same number of GPUs");
    const long long gpus = static_cast<long long>(servers.size()) * gpusPerServer;
    if (w.gpus() != gpus)
        throw std::invalid_argument("tp x pp x dp = " + std::to_string(w.gpus()) +
                                    " does not match the " + std::to_string(gpus) + " GPUs");
    if (w.tp > gpusPerServer && w.tp % gpusPerServer != 0)
        throw std::invalid_argument("tp " + std::to_string(w.tp) + " must be a multiple of the " +
                                    std::to_string(gpusPerServer) +
                                    " GPUs of a server when it spans servers");
    if (w.tp < gpusPerServer && gpusPerServer % w.tp != 0)
        throw std::invalid_argument("tp " + std::to_string(w.tp) + " must divide the " +
                                    std::to_string(gpusPerServer) + " GPUs of a server");
    return gpusPerServer;
}

/// The job's size as the later stages use it.
struct StepScale {
    bool fp8 = false;
    double peak = 0; ///< FLOP/s of one GPU at the job's precision
    double tokens = 0;
    double sequence = 0;
    double tokensPerReplica = 0;
    long long gpus = 0;
};

StepScale scaleOf(const model::Workload& w, long long gpus) {
    StepScale scale;
    scale.fp8 = w.precision == model::Precision::Fp8;
    scale.peak = (scale.fp8 ? w.gpu.spec.fp8Tflops : w.gpu.spec.bf16Tflops) * 1e12;
    scale.tokens = static_cast<double>(w.globalBatchTokens);
    scale.sequence = w.sequenceLength();
    scale.tokensPerReplica = scale.tokens / w.dp;
    scale.gpus = gpus;
    return scale;
}

/// The FLOPs per token and the compute time at the workload's (or the GPU's default) MFU,
/// and the pipeline bubble.
void computeAtMfu(StepTime& t, const model::Workload& w, const StepScale& scale) {
    const auto& model = w.model.spec;
    const auto& gpu = w.gpu.spec;
    t.mfu = w.mfu.value_or(scale.fp8 ? gpu.defaultMfuFp8 : gpu.defaultMfuBf16);
    // Model FLOPs per token as MFU counts them (PaLM, Chowdhery et al. 2022, appendix B;
    // Megatron-LM's count, Narayanan et al. 2021): 6 per active parameter that runs as a
    // matrix product (forward and backward; not the input embedding, a lookup) plus
    // 12 x layers x hidden x sequence for the attention scores and their use, or half of
    // that when the MFU was counted with a causal mask.
    const double attention = 12.0 * model.layers * model.hiddenSize * scale.sequence *
                             (w.attentionFlops == model::AttentionFlops::Causal ? 0.5 : 1.0);
    t.modelFlopsPerToken =
        6 * (model.activeParamsB * 1e9 - model.inputEmbeddingParams()) + attention;
    // Recomputation runs part of the forward pass again (a third of the 6 and of the 12):
    // full recomputes every layer, selective only the attention core.
    t.hardwareFlopsPerToken = t.modelFlopsPerToken;
    if (w.recompute == model::Recompute::Full)
        t.hardwareFlopsPerToken += t.modelFlopsPerToken / 3;
    else if (w.recompute == model::Recompute::Selective)
        t.hardwareFlopsPerToken += attention / 3;
    // Published MFU figures are end to end: they already include pipeline bubbles,
    // recomputation and kernel inefficiency, so nothing is added on top here.
    t.computeSeconds = t.modelFlopsPerToken * scale.tokens /
                       (static_cast<double>(scale.gpus) * scale.peak * t.mfu);
    t.hfu = t.mfu * t.hardwareFlopsPerToken / t.modelFlopsPerToken;
    const double microBatches = std::max(1.0, scale.tokensPerReplica / scale.sequence);
    t.bubbleFraction = (w.pp - 1) / (w.vpp * microBatches);
}

/// What each kind of parallelism moves per GPU per step.
StepBytes stepBytes(const model::Workload& w, const StepScale& scale) {
    const auto& model = w.model.spec;
    // Gradients: dense weights are reduced over all dp replicas; with expert parallelism
    // each GPU holds 1/ep of the experts, reduced over the dp/ep replicas holding the same
    // shard (Megatron's expert-data-parallel group). An expert's size comes from total and
    // active parameters: active = dense + k experts, total = dense + E experts.
    const int experts = std::max(1, model.experts);
    const int perToken = std::min(model.expertsPerToken, experts);
    const double expertParams = experts > perToken ? (model.paramsB - model.activeParamsB) * 1e9 *
                                                         experts / (experts - perToken)
                                                   : 0.0;
    const double denseParams = model.paramsB * 1e9 - expertParams;
    const int ep = experts > 1 ? std::max(1, w.ep) : 1;
    const double shard = static_cast<double>(w.tp) * w.pp;
    StepBytes bytes;
    bytes.denseGradient = denseParams / shard * kBytesPerValue;
    bytes.expertGradient = expertParams / (shard * ep) * kBytesPerValue;
    bytes.expertGroups = ep;
    bytes.layersPerStage = static_cast<double>(model.layers) / w.pp;
    // Each tensor-parallel group works on its context-parallel slice of the sequence.
    bytes.activation = scale.tokensPerReplica / w.cp * model.hiddenSize * kBytesPerValue;
    // Ring attention moves keys and values: 2 x hidden per token, times the grouped-query
    // share of heads, split over the tensor-parallel ranks.
    bytes.keysAndValues =
        scale.tokensPerReplica * 2.0 * model.hiddenSize * model.kvShare() * kBytesPerValue / w.tp;
    if (w.ep > 1 && model.experts > 1) {
        // Each GPU routes its own tokens: the replica's tokens split over tensor (sequence
        // parallel) and context parallel ranks, each token to its k experts.
        const double bytesPerValue = scale.fp8 ? kFp8ExpertBytesPerValue : kBytesPerValue;
        bytes.expertAllToAll = scale.tokensPerReplica / (static_cast<double>(w.tp) * w.cp) *
                               model.hiddenSize * bytesPerValue * model.expertsPerToken;
    }
    return bytes;
}

/// Of data, expert and context parallel traffic, the share compute does not hide; tensor
/// and pipeline traffic sit on the critical path whole.
double shownShare(Parallelism p, double overlap) {
    const bool overlaps =
        p == Parallelism::Data || p == Parallelism::Expert || p == Parallelism::Context;
    return overlaps ? 1 - overlap : 1.0;
}

/// Each kind's traffic on this fabric against the ideal one: what the step waits on
/// beyond the ideal (exposed) and what compute hides.
void splitParts(StepTime& t, const model::Workload& w, const TrafficSeconds& here,
                const TrafficSeconds& ideal, const Crossing& crossing) {
    const auto set = [&](Parallelism p, double seconds, double idealSeconds, bool onFabric) {
        CommPart& part = t.parts[static_cast<std::size_t>(p)];
        part.seconds = seconds;
        part.onFabric = onFabric && seconds > 0;
        if (!part.onFabric)
            return; // inside the scale-up domain: inside MFU, neither waits nor hides
        part.idealSeconds = std::min(idealSeconds, seconds);
        part.exposedSeconds = (seconds - part.idealSeconds) * shownShare(p, w.overlap);
        part.hiddenSeconds = seconds - part.idealSeconds - part.exposedSeconds;
    };
    set(Parallelism::Data, here.dp, ideal.dp, crossing.dp);
    set(Parallelism::Tensor, here.tp, ideal.tp, crossing.tp);
    set(Parallelism::Pipeline, here.pp, ideal.pp, crossing.pp);
    set(Parallelism::Expert, here.ep, ideal.ep, crossing.ep);
    set(Parallelism::Context, here.cp, ideal.cp, crossing.cp);
}

/// The parts' totals; returns the traffic the step would wait on over the ideal fabric.
/// A step at the MFU cannot be shorter than that: an MFU too high for this job's
/// communication leaves the step set by communication, and the report says so.
double sumParts(StepTime& t, double overlap) {
    double idealCritical = 0;
    for (int i = 0; i < kParallelismCount; ++i) {
        const CommPart& part = t.parts[static_cast<std::size_t>(i)];
        t.commSeconds += part.onFabric ? part.seconds : 0.0;
        t.idealCommSeconds += part.idealSeconds;
        t.exposedCommSeconds += part.exposedSeconds;
        idealCritical += part.idealSeconds * shownShare(static_cast<Parallelism>(i), overlap);
    }
    return idealCritical;
}

/// No MFU given: the compute comes from the hardware, and the step's waits on the ideal
/// fabric (which a measured MFU would hold) are added to it, so the MFU is what this split
/// would measure on a near-ideal fabric. Tensor parallelism is in the compute already, on
/// scale-up.
void computeFromHardware(StepTime& t, const model::Workload& w, double tpOnScaleUp,
                         const StepScale& scale) {
    t.compute = model::computeTime(w, tpOnScaleUp);
    double idealWaits = 0;
    for (int i = 0; i < kParallelismCount; ++i)
        if (static_cast<Parallelism>(i) != Parallelism::Tensor)
            idealWaits += t.parts[static_cast<std::size_t>(i)].idealSeconds *
                          shownShare(static_cast<Parallelism>(i), w.overlap);
    t.computeSeconds = t.compute->seconds + idealWaits;
    t.mfu = t.modelFlopsPerToken * scale.tokens /
            (static_cast<double>(scale.gpus) * scale.peak * t.computeSeconds);
    t.hfu = t.mfu * t.hardwareFlopsPerToken / t.modelFlopsPerToken;
}

} // namespace

StepTime estimateStep(const FabricNetwork& network, const model::Workload& w,
                      std::stop_token stop) {
    const int gpusPerServer = uniformGpusPerServer(network, w);
    const std::size_t servers = network.servers().size();
    const StepScale scale = scaleOf(w, static_cast<long long>(servers) * gpusPerServer);
    StepTime t;
    computeAtMfu(t, w, scale);
    const StepBytes bytes = stepBytes(w, scale);
    t.dpBytesPerGpu = bytes.denseGradient + bytes.expertGradient;
    t.epBytesPerGpu = bytes.expertAllToAll;

    const Crossing crossing = crossingFor(w, gpusPerServer, servers);
    const TrafficSeconds here = timeTraffic(network, w, bytes, gpusPerServer, crossing, stop);
    t.dpSeconds = here.dp;
    t.tpSeconds = here.tp;
    t.cpSeconds = here.cp;
    t.ppSeconds = here.pp;
    t.epSeconds = here.ep;

    // Tensor parallelism inside the scale-up domain is part of how MFU is measured (Llama
    // 3's 38-43% ran TP on NVLink), and so is any traffic that stays inside a server:
    // context parallelism within it, a data-parallel group or an expert group that fits in
    // it, a pipeline on one server. Those are reported, not added.

    // An end-to-end MFU was measured on a run that already paid for its fabric traffic, on
    // a fabric close to ideal. Adding that traffic again counted it twice (a DeepSeek-V3
    // run's expert all-to-all, a B200 run's gradient exchange). So the same traffic is
    // timed on the ideal fabric for these servers, which the MFU holds, and the step adds
    // what this fabric takes beyond it: oversubscription, ECMP collisions, failed cables,
    // extra hops and latency, the transport's share of line rate, the plugin's software time.
    TrafficSeconds ideal;
    if (crossing.dp || crossing.tp || crossing.cp || crossing.ep || crossing.pp) {
        const IdealNetwork best(network);
        ideal = timeTraffic(best.network(), w, bytes, gpusPerServer, crossing, stop);
    }
    // MFU is measured with tensor parallelism inside the scale-up domain, so what tensor
    // parallelism across servers adds is its time beyond the same all-reduces on NVLink,
    // not beyond the ideal fabric.
    ideal.tp = here.tpOnScaleUp;
    splitParts(t, w, here, ideal, crossing);
    const double idealCritical = sumParts(t, w.overlap);
    if (!w.mfu)
        computeFromHardware(t, w, here.tpOnScaleUp, scale);
    t.communicationBound = idealCritical > t.computeSeconds;
    t.busySeconds = std::max(t.computeSeconds, idealCritical);

    t.stepSeconds = t.busySeconds + t.exposedCommSeconds;
    t.assumptions = stepAssumptions(w, t, scale.fp8);
    t.commToCompute = t.commSeconds / t.computeSeconds;
    t.tokensPerSecond = scale.tokens / t.stepSeconds;
    return t;
}

} // namespace fabriclab::model
