// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/CatalogJson.hpp"

#include "model/topology/Link.hpp"

namespace fabriclab::model::catalog_json {
namespace {

// Generous bounds: they catch typos and hostile values, not unusual hardware.
constexpr double kMaxGbps = 3200;
constexpr double kMaxRadix = 2048;
constexpr double kMaxLatencyNs = 1e7;
constexpr double kMaxUsd = 1e8;
constexpr double kMaxWatts = 1e6;

int sourcedInt(const JsonCursor& cursor, double lo, double hi) {
    const double v = sourcedNumber(cursor, lo, hi);
    if (v != static_cast<double>(static_cast<int>(v)))
        cursor.fail("expected a whole number");
    return static_cast<int>(v);
}

} // namespace

std::string sourceOf(const JsonCursor& cursor) {
    if (!cursor.isObject())
        return {};
    const auto source = cursor.find("source");
    return source ? source->string() : std::string();
}

double sourcedNumber(const JsonCursor& cursor, double lo, double hi) {
    if (cursor.isObject()) {
        cursor.allowOnly({"value", "source"});
        return cursor["value"].number(lo, hi);
    }
    return cursor.number(lo, hi);
}

Fabric parseFabric(const JsonCursor& c) {
    c.allowOnly({"id",
                 "name",
                 "transport",
                 "portGbps",
                 "switchRadix",
                 "switchLatencyNs",
                 "nicLatencyNs",
                 "routing",
                 "lineEfficiency",
                 "incastEfficiency",
                 "protocolOverhead",
                 "stepLatencyUs",
                 "inNetworkReduction",
                 "ncclTuner",
                 "p2p",
                 "ringLl128StepUs",
                 "hardware",
                 "cloud",
                 "compareOrder",
                 "transportReference",
                 "source"});
    Fabric f;
    f.id = c["id"].string();
    f.name = c["name"].string();
    f.transport = c["transport"].string();
    if (f.transport != "infiniband" && f.transport != "ethernet")
        c["transport"].fail("expected \"infiniband\" or \"ethernet\"");
    f.portSpeed = Gbps(sourcedNumber(c["portGbps"], 1, kMaxGbps));
    f.switchRadix = sourcedInt(c["switchRadix"], 2, kMaxRadix);
    f.switchLatencyNs = sourcedNumber(c["switchLatencyNs"], 0, kMaxLatencyNs);
    f.nicLatencyNs = sourcedNumber(c["nicLatencyNs"], 0, kMaxLatencyNs);
    const std::string routing = c["routing"].string();
    if (const auto known = routingFromString(routing))
        f.routing = *known;
    else
        c["routing"].fail("expected " + routingNameList() + ", got \"" + routing + "\"");
    f.lineEfficiency = sourcedNumber(c["lineEfficiency"], 0.01, 1);
    f.incastEfficiency = sourcedNumber(c["incastEfficiency"], 0.01, 1);
    f.protocolOverhead = sourcedNumber(c["protocolOverhead"], 0, 0.99);
    if (auto step = c.find("stepLatencyUs"))
        f.stepLatencyUs = sourcedNumber(*step, 0, 1e6);
    f.inNetworkReduction = c["inNetworkReduction"].boolean();
    if (auto step = c.find("ringLl128StepUs"))
        f.ringLl128StepUs = sourcedNumber(*step, 0, 1e6);
    if (auto tuner = c.find("ncclTuner")) {
        const std::string name = tuner->string();
        if (const auto known = ncclTunerFromString(name))
            f.ncclTuner = *known;
        else
            tuner->fail("expected " + ncclTunerNameList() + ", got \"" + name +
                        "\" (or no ncclTuner: NCCL's own choice)");
    }
    if (auto order = c.find("compareOrder"))
        f.compareOrder = static_cast<int>(order->integer(1, 1000));
    if (auto reference = c.find("transportReference"))
        f.transportReference = reference->boolean();
    if (auto cloud = c.find("cloud")) {
        f.cloud = cloud->string();
        if (f.cloud.empty())
            cloud->fail("expected the name of the cloud that rents this fabric");
    }
    if (auto p2p = c.find("p2p")) {
        p2p->allowOnly({"chunkBytes", "startUs", "peerUs", "chunkUs"});
        if (auto chunk = p2p->find("chunkBytes"))
            f.p2p.chunkBytes = sourcedNumber(*chunk, 4096, 1 << 30);
        if (auto start = p2p->find("startUs"))
            f.p2p.startUs = sourcedNumber(*start, 0, 1e6);
        if (auto peer = p2p->find("peerUs"))
            f.p2p.peerUs = sourcedNumber(*peer, 0, 1e6);
        if (auto chunk = p2p->find("chunkUs"))
            f.p2p.chunkUs = sourcedNumber(*chunk, 0, 1e6);
    }
    const JsonCursor hw = c["hardware"];
    hw.allowOnly({"switch", "spineSwitch", "coreSwitch", "nic", "serverCable", "switchCable",
                  "transceiver"});
    f.hardware.switchId = hw["switch"].string();
    if (auto spine = hw.find("spineSwitch"))
        f.hardware.spineSwitchId = spine->string();
    if (auto core = hw.find("coreSwitch"))
        f.hardware.coreSwitchId = core->string();
    f.hardware.nicId = hw["nic"].string();
    f.hardware.serverCableId = hw["serverCable"].string();
    f.hardware.switchCableId = hw["switchCable"].string();
    f.hardware.transceiverId = hw["transceiver"].string();
    return f;
}

GpuSpec parseGpu(const JsonCursor& c) {
    c.allowOnly({"id", "name", "bf16Tflops", "fp8Tflops", "hbmGB", "scaleUpGBps", "scaleUpDomain",
                 "scaleUpEfficiency", "scaleUpStepLatencyUs", "defaultMfu", "powerWatts",
                 "architecture", "nvSwitch", "nvlsMulticast", "pcieGBps", "hbmTBps",
                 "computeEfficiency", "layerOverheadUs", "source"});
    GpuSpec g;
    g.id = c["id"].string();
    g.name = c["name"].string();
    g.bf16Tflops = sourcedNumber(c["bf16Tflops"], 1, 1e6);
    g.fp8Tflops = sourcedNumber(c["fp8Tflops"], 1, 1e6);
    g.hbmGB = sourcedNumber(c["hbmGB"], 1, 1e5);
    g.scaleUpGBps = sourcedNumber(c["scaleUpGBps"], 1, 1e5);
    g.scaleUpDomain = sourcedInt(c["scaleUpDomain"], 1, 1024);
    if (auto efficiency = c.find("scaleUpEfficiency"))
        g.scaleUpEfficiency = sourcedNumber(*efficiency, 0.01, 1);
    if (auto latency = c.find("scaleUpStepLatencyUs"))
        g.scaleUpStepLatencyUs = sourcedNumber(*latency, 0, 1e6);
    const JsonCursor mfu = c["defaultMfu"];
    mfu.allowOnly({"bf16", "fp8"});
    g.defaultMfuBf16 = sourcedNumber(mfu["bf16"], 0.01, 1);
    g.defaultMfuFp8 = sourcedNumber(mfu["fp8"], 0.01, 1);
    g.powerWatts = sourcedNumber(c["powerWatts"], 0, 1e5);
    if (auto architecture = c.find("architecture")) {
        const auto parsed = gpuArchitectureFromString(architecture->string());
        if (!parsed)
            architecture->fail("expected \"volta\", \"ampere\", \"hopper\" or \"blackwell\"");
        g.architecture = *parsed;
    }
    if (auto nvSwitch = c.find("nvSwitch"))
        g.nvSwitch = nvSwitch->boolean();
    if (auto multicast = c.find("nvlsMulticast"))
        g.nvlsMulticast = multicast->boolean();
    if (auto pcie = c.find("pcieGBps"))
        g.pcieGBps = sourcedNumber(*pcie, 0.1, 1e4);
    if (auto hbm = c.find("hbmTBps"))
        g.hbmTBps = sourcedNumber(*hbm, 0.01, 1e3);
    if (auto overhead = c.find("layerOverheadUs"))
        g.layerOverheadUs = sourcedNumber(*overhead, 0, 1e5);
    if (auto efficiency = c.find("computeEfficiency")) {
        efficiency->allowOnly({"gemmBf16", "gemmFp8", "attention", "memory", "experts", "kvRead"});
        g.gemmEfficiencyBf16 = sourcedNumber((*efficiency)["gemmBf16"], 0.01, 1);
        g.gemmEfficiencyFp8 = sourcedNumber((*efficiency)["gemmFp8"], 0.01, 1);
        g.attentionEfficiency = sourcedNumber((*efficiency)["attention"], 0.01, 1);
        g.memoryEfficiency = sourcedNumber((*efficiency)["memory"], 0.01, 1);
        if (auto experts = efficiency->find("experts"))
            g.expertEfficiency = sourcedNumber(*experts, 0.01, 1);
        g.kvReadEfficiency = g.memoryEfficiency;
        if (auto kvRead = efficiency->find("kvRead"))
            g.kvReadEfficiency = sourcedNumber(*kvRead, 0.01, 1);
    }
    return g;
}

ModelSpec parseModel(const JsonCursor& c) {
    c.allowOnly({"id", "name", "paramsB", "activeParamsB", "layers", "hiddenSize", "seqLen",
                 "experts", "expertsPerToken", "attentionHeads", "kvHeads", "headDim",
                 "kvLatentWidth", "vocabSize", "tiedEmbeddings", "source"});
    ModelSpec m;
    m.id = c["id"].string();
    m.name = c["name"].string();
    m.paramsB = sourcedNumber(c["paramsB"], 1e-3, 1e5);
    m.activeParamsB = sourcedNumber(c["activeParamsB"], 1e-3, m.paramsB);
    m.layers = sourcedInt(c["layers"], 1, 100000);
    m.hiddenSize = sourcedInt(c["hiddenSize"], 1, 10000000);
    m.seqLen = sourcedInt(c["seqLen"], 1, 100000000);
    m.experts = sourcedInt(c["experts"], 1, 100000);
    m.expertsPerToken = sourcedInt(c["expertsPerToken"], 1, m.experts);
    if (auto heads = c.find("attentionHeads"))
        m.attentionHeads = sourcedInt(*heads, 1, 100000);
    if (auto kv = c.find("kvHeads")) {
        if (m.attentionHeads == 0)
            kv->fail("kvHeads needs attentionHeads");
        m.kvHeads = sourcedInt(*kv, 1, m.attentionHeads);
    }
    if (auto width = c.find("headDim")) {
        if (m.attentionHeads == 0)
            width->fail("headDim needs attentionHeads");
        m.headDim = sourcedInt(*width, 1, 100000);
    }
    if (auto latent = c.find("kvLatentWidth"))
        m.kvLatentWidth = sourcedInt(*latent, 1, 10000000);
    if (auto vocab = c.find("vocabSize"))
        m.vocabSize = sourcedInt(*vocab, 1, 100000000);
    if (auto tied = c.find("tiedEmbeddings"))
        m.tiedEmbeddings = tied->boolean();
    // Untied embeddings are part of the parameters; more than all of them is a typo.
    if (m.inputEmbeddingParams() >= m.activeParamsB * 1e9)
        c["vocabSize"].fail("vocabulary x hidden size is more than the active parameters");
    return m;
}

PricedPart parsePart(const JsonCursor& c) {
    c.allowOnly({"id", "name", "ports", "portGbps", "portModes", "gbps", "medium", "maxMeters",
                 "transport", "priceUsd", "powerWatts"});
    PricedPart part;
    part.id = c["id"].string();
    part.name = c["name"].string();
    part.price = Usd(sourcedNumber(c["priceUsd"], 0, kMaxUsd));
    part.power = Watts(sourcedNumber(c["powerWatts"], 0, kMaxWatts));
    part.priceSource = sourceOf(c["priceUsd"]);
    part.powerSource = sourceOf(c["powerWatts"]);
    if (auto ports = c.find("ports"))
        part.ports = static_cast<int>(ports->integer(1, static_cast<long long>(kMaxRadix)));
    if (auto speed = c.find("portGbps"))
        part.gbps = speed->number(1, kMaxGbps);
    if (auto speed = c.find("gbps"))
        part.gbps = speed->number(1, kMaxGbps);
    if (auto medium = c.find("medium")) {
        part.medium = medium->string();
        if (!linkMediumFromString(part.medium))
            medium->fail("expected \"dac\", \"aoc\" or \"optics\"");
    }
    if (auto transport = c.find("transport")) {
        part.transport = transport->string();
        if (part.transport != "infiniband" && part.transport != "ethernet")
            transport->fail("expected \"infiniband\" or \"ethernet\"");
    }
    if (auto reach = c.find("maxMeters"))
        part.maxMeters = sourcedNumber(*reach, 0.1, 100000);
    if (part.ports > 0 && part.gbps > 0)
        part.portModes.push_back(PortMode{part.gbps, part.ports});
    if (auto modes = c.find("portModes"))
        for (std::size_t i = 0; i < modes->size(); ++i) {
            const JsonCursor mode = modes->at(i);
            mode.allowOnly({"gbps", "ports", "source"});
            part.portModes.push_back(PortMode{
                mode["gbps"].number(1, kMaxGbps),
                static_cast<int>(mode["ports"].integer(1, static_cast<long long>(kMaxRadix)))});
        }
    return part;
}

nlohmann::json toJson(const Fabric& f) {
    nlohmann::json json = {{"id", f.id},
                           {"name", f.name},
                           {"transport", f.transport},
                           {"portGbps", f.portSpeed.value},
                           {"switchRadix", f.switchRadix},
                           {"switchLatencyNs", f.switchLatencyNs},
                           {"nicLatencyNs", f.nicLatencyNs},
                           {"routing", std::string(toString(f.routing))},
                           {"lineEfficiency", f.lineEfficiency},
                           {"incastEfficiency", f.incastEfficiency},
                           {"protocolOverhead", f.protocolOverhead},
                           {"stepLatencyUs", f.stepLatencyUs},
                           {"inNetworkReduction", f.inNetworkReduction},
                           {"hardware",
                            {{"switch", f.hardware.switchId},
                             {"nic", f.hardware.nicId},
                             {"serverCable", f.hardware.serverCableId},
                             {"switchCable", f.hardware.switchCableId},
                             {"transceiver", f.hardware.transceiverId}}}};
    if (f.ncclTuner != NcclTuner::Nccl)
        json["ncclTuner"] = std::string(toString(f.ncclTuner));
    if (f.compareOrder > 0)
        json["compareOrder"] = f.compareOrder;
    if (f.transportReference)
        json["transportReference"] = true;
    if (!f.cloud.empty())
        json["cloud"] = f.cloud;
    if (f.ringLl128StepUs != kNcclNetRingLl128StepUs)
        json["ringLl128StepUs"] = f.ringLl128StepUs;
    if (f.p2p != P2pExecution{})
        json["p2p"] = {{"chunkBytes", f.p2p.chunkBytes},
                       {"startUs", f.p2p.startUs},
                       {"peerUs", f.p2p.peerUs},
                       {"chunkUs", f.p2p.chunkUs}};
    if (!f.hardware.spineSwitchId.empty())
        json["hardware"]["spineSwitch"] = f.hardware.spineSwitchId;
    if (!f.hardware.coreSwitchId.empty())
        json["hardware"]["coreSwitch"] = f.hardware.coreSwitchId;
    return json;
}

nlohmann::json toJson(const GpuSpec& g) {
    return {{"id", g.id},
            {"name", g.name},
            {"bf16Tflops", g.bf16Tflops},
            {"fp8Tflops", g.fp8Tflops},
            {"hbmGB", g.hbmGB},
            {"scaleUpGBps", g.scaleUpGBps},
            {"scaleUpDomain", g.scaleUpDomain},
            {"scaleUpEfficiency", g.scaleUpEfficiency},
            {"scaleUpStepLatencyUs", g.scaleUpStepLatencyUs},
            {"defaultMfu", {{"bf16", g.defaultMfuBf16}, {"fp8", g.defaultMfuFp8}}},
            {"powerWatts", g.powerWatts},
            {"architecture", toString(g.architecture)},
            {"nvSwitch", g.nvSwitch},
            {"nvlsMulticast", g.nvlsMulticast},
            {"pcieGBps", g.pcieGBps},
            {"hbmTBps", g.hbmTBps},
            {"computeEfficiency",
             {{"gemmBf16", g.gemmEfficiencyBf16},
              {"gemmFp8", g.gemmEfficiencyFp8},
              {"attention", g.attentionEfficiency},
              {"memory", g.memoryEfficiency},
              {"experts", g.expertEfficiency},
              {"kvRead", g.kvReadEfficiency}}},
            {"layerOverheadUs", g.layerOverheadUs}};
}

nlohmann::json toJson(const ModelSpec& m) {
    nlohmann::json json = {{"id", m.id},
                           {"name", m.name},
                           {"paramsB", m.paramsB},
                           {"activeParamsB", m.activeParamsB},
                           {"layers", m.layers},
                           {"hiddenSize", m.hiddenSize},
                           {"seqLen", m.seqLen},
                           {"experts", m.experts},
                           {"expertsPerToken", m.expertsPerToken}};
    if (m.attentionHeads > 0)
        json["attentionHeads"] = m.attentionHeads;
    if (m.kvHeads > 0)
        json["kvHeads"] = m.kvHeads;
    if (m.headDim > 0)
        json["headDim"] = m.headDim;
    if (m.kvLatentWidth > 0)
        json["kvLatentWidth"] = m.kvLatentWidth;
    if (m.vocabSize > 0)
        json["vocabSize"] = m.vocabSize;
    if (m.tiedEmbeddings)
        json["tiedEmbeddings"] = true;
    return json;
}

} // namespace fabriclab::model::catalog_json
