// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/CatalogJson.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/TextFile.hpp"

#include <cmath>
#include <fstream>
#include <random>
#include <stdexcept>

namespace fabriclab::model {
namespace {

/// Whole numbers are written without ".0" so hand-written files stay as people wrote them.
nlohmann::json number(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9e15)
        return static_cast<long long>(value);
    return value;
}

nlohmann::json failuresJson(const std::vector<Failure>& list) {
    nlohmann::json failures = nlohmann::json::array();
    for (const Failure& f : list) {
        nlohmann::json entry = {{"element", f.element}, {"kind", std::string(toString(f.kind))}};
        if (f.cables > 0)
            entry["cables"] = f.cables;
        if (f.kind == FailureKind::Degraded)
            entry["capacity"] = number(f.capacity);
        failures.push_back(std::move(entry));
    }
    return failures;
}

template <class Spec> nlohmann::json catalogRef(const CatalogRef<Spec>& ref) {
    return ref.isInline ? catalog_json::toJson(ref.spec) : nlohmann::json(ref.spec.id);
}

nlohmann::json generatorJson(const GeneratorParams& p) {
    // The fields the kind reads, and no others (the reader fills the rest from the fabric).
    nlohmann::json g = {{"kind", p.kind}};
    const GeneratorEntry* entry = findGenerator(p.kind);
    if (!entry)
        return g; // the reader refuses unknown kinds, so none reaches here from a file
    for (const GeneratorField* field : entry->fields) {
        const std::optional<double> value = field->get(p);
        if (!value)
            continue;
        const std::string key(field->key);
        switch (field->type) {
        case GeneratorField::Type::Count:
            g[key] = static_cast<long long>(*value);
            break;
        case GeneratorField::Type::Flag:
            g[key] = *value != 0;
            break;
        case GeneratorField::Type::Speed:
        case GeneratorField::Type::Ratio:
            g[key] = number(*value);
            break;
        }
    }
    return g;
}

nlohmann::json nodeJson(const Node& node) {
    nlohmann::json n = {{"id", node.name},
                        {"kind", std::string(toString(node.kind))},
                        {"x", number(node.x)},
                        {"y", number(node.y)}};
    if (node.kind == NodeKind::Server) {
        n["gpus"] = node.server.gpus;
        n["nics"] = node.server.nics;
        n["nicGbps"] = number(node.server.nicSpeed.value);
        if (node.server.portsPerNic > 1)
            n["portsPerNic"] = node.server.portsPerNic;
        n["scaleUpGBps"] = number(node.server.scaleUpGBps);
    } else {
        n["radix"] = node.sw.radix;
        n["portGbps"] = number(node.sw.portSpeed.value);
    }
    if (node.placement.pod >= 0)
        n["pod"] = node.placement.pod;
    if (node.placement.group >= 0)
        n["group"] = node.placement.group;
    if (node.placement.rail >= 0)
        n["rail"] = node.placement.rail;
    if (node.placement.plane >= 0)
        n["plane"] = node.placement.plane;
    return n;
}

nlohmann::json workloadJson(const Workload& w) {
    nlohmann::json j = {{"model", catalogRef(w.model)},
                        {"gpu", catalogRef(w.gpu)},
                        {"globalBatchTokens", w.globalBatchTokens},
                        {"tp", w.tp},
                        {"pp", w.pp},
                        {"dp", w.dp},
                        {"ep", w.ep},
                        {"zero", w.zero},
                        {"precision", std::string(toString(w.precision))},
                        {"overlap", number(w.overlap)}};
    if (w.mfu)
        j["mfu"] = number(*w.mfu);
    // Written only when set, so files that never used them stay as they were.
    if (w.cp > 1)
        j["cp"] = w.cp;
    if (w.vpp > 1)
        j["vpp"] = w.vpp;
    if (w.recompute != Recompute::None)
        j["recompute"] = std::string(toString(w.recompute));
    if (w.seqLen)
        j["seqLen"] = *w.seqLen;
    if (w.attentionFlops != AttentionFlops::Full)
        j["attentionFlops"] = std::string(toString(w.attentionFlops));
    return j;
}

nlohmann::json servingJson(const ServingWorkload& s) {
    nlohmann::json j = {{"model", catalogRef(s.model)},
                        {"gpu", catalogRef(s.gpu)},
                        {"precision", std::string(toString(s.precision))},
                        {"inputTokens", s.inputTokens},
                        {"outputTokens", s.outputTokens},
                        {"tp", s.tp},
                        {"ep", s.ep}};
    if (s.batch)
        j["batch"] = *s.batch;
    if (s.disaggregated) {
        j["disaggregated"] = true;
        j["prefillServers"] = s.prefillServers;
    }
    if (s.requestRate)
        j["requestRate"] = number(*s.requestRate);
    return j;
}

nlohmann::json sitesJson(const Sites& sites) {
    nlohmann::json wan = {{"gbps", number(sites.wan.gbps)},
                          {"latencyMs", number(sites.wan.latencyMs)},
                          {"links", sites.wan.links}};
    if (sites.wan.usdPerLinkMonth)
        wan["usdPerLinkMonth"] = number(*sites.wan.usdPerLinkMonth);
    return {{"count", sites.count},
            {"wan", std::move(wan)},
            {"outer",
             {{"innerSteps", sites.outer.innerSteps},
              {"payloadBits", sites.outer.payloadBits},
              {"overlapSteps", sites.outer.overlapSteps}}}};
}

} // namespace

nlohmann::json designToJson(const Design& design) {
    nlohmann::json root = {{"format", "fabriclab-design"},
                           {"version", kDesignFormatVersion},
                           {"name", design.name},
                           {"fabric", catalogRef(design.fabric)}};
    if (!design.description.empty())
        root["description"] = design.description;
    if (design.generator)
        root["generator"] = generatorJson(*design.generator);
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& [id, node] : design.topology.nodes())
        nodes.push_back(nodeJson(node));
    nlohmann::json links = nlohmann::json::array();
    for (const auto& [id, link] : design.topology.links())
        links.push_back({{"a", design.topology.node(link.a).name},
                         {"b", design.topology.node(link.b).name},
                         {"gbps", number(link.speed.value)},
                         {"count", link.count},
                         {"medium", std::string(toString(link.medium))},
                         {"lengthM", number(link.lengthMeters)}});
    root["nodes"] = std::move(nodes);
    root["links"] = std::move(links);
    if (design.workload)
        root["workload"] = workloadJson(*design.workload);
    if (design.serving)
        root["serving"] = servingJson(*design.serving);
    if (design.sites)
        root["sites"] = sitesJson(*design.sites);
    if (design.collective) {
        root["collective"] = {{"op", std::string(toString(design.collective->op))},
                              {"bytes", design.collective->bytes},
                              {"algorithm", std::string(toString(design.collective->algorithm))}};
        if (design.collective->protocol != CollectiveProtocol::Auto)
            root["collective"]["protocol"] = std::string(toString(design.collective->protocol));
    }
    if (design.sharp) // written only when on, as NCCL leaves it off unless asked
        root["sharp"] = true;
    if (!design.failures.empty())
        root["failures"] = failuresJson(design.failures);
    if (!design.story.empty()) {
        nlohmann::json story = nlohmann::json::array();
        for (const StoryStep& step : design.story) {
            nlohmann::json entry = {{"title", step.title}, {"fabric", step.fabric}};
            if (step.oversubscription)
                entry["oversubscription"] = number(*step.oversubscription);
            if (!step.failures.empty())
                entry["failures"] = failuresJson(step.failures);
            if (!step.charts.empty())
                entry["charts"] = step.charts;
            story.push_back(std::move(entry));
        }
        root["story"] = std::move(story);
    }
    return root;
}

std::string serializeDesign(const Design& design) {
    return designToJson(design).dump(2) + "\n";
}

void saveDesign(const Design& design, const std::filesystem::path& path) {
    writeTextFileAtomically(path, serializeDesign(design));
}

} // namespace fabriclab::model
