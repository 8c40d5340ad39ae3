// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/Assumptions.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <string_view>
#include <utility>

namespace fabriclab::model {
namespace {

/// The values of one catalog entry, in the document's order.
std::vector<CatalogValue> valuesOf(const Catalog& catalog, std::string_view document,
                                   std::string_view entry) {
    std::vector<CatalogValue> values;
    for (const CatalogValue& value : catalog.values())
        if (value.document == document && value.entry == entry)
            values.push_back(value);
    return values;
}

/// Unit suffixes of catalog keys, longest first so "GBps" is not read as "Bps".
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kUnits{{
    {"UsdPerKwh", "USD/kWh"},
    {"UsdPerGpuHour", "USD per GPU-hour"},
    {"UsdPerGpu", "USD per GPU"},
    {"WattsPerGpu", "W per GPU"},
    {"Gbps", "Gb/s"},
    {"GBps", "GB/s"},
    {"Tflops", "TFLOPS"},
    {"Watts", "W"},
    {"Usd", "USD"},
    {"Ns", "ns"},
    {"Us", "us"},
    {"GB", "GB"},
}};

/// "switchLatency" -> "switch latency"; runs of capitals stay a word ("MFU").
std::string words(std::string_view camel) {
    std::string out;
    for (std::size_t i = 0; i < camel.size(); ++i) {
        const char c = camel[i];
        const bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
        const bool prevUpper = i > 0 && std::isupper(static_cast<unsigned char>(camel[i - 1]));
        const bool nextLower =
            i + 1 < camel.size() && std::islower(static_cast<unsigned char>(camel[i + 1]));
        if (upper && i > 0 && (!prevUpper || nextLower))
            out += ' ';
        // A word in capitals (MFU, P2P) keeps them; others are lower case in a sentence.
        const bool acronym = upper && (prevUpper || (i + 1 < camel.size() && !nextLower));
        out += acronym ? c : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    // Words the catalog's keys spell in camel case that people write in capitals.
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kAcronyms{{
        {"mfu", "MFU"},
        {"nic", "NIC"},
        {"gpu", "GPU"},
        {"pue", "PUE"},
        {"p2p", "P2P"},
        {"hbm", "HBM"},
        {"pcie", "PCIe"},
        {"ll128", "LL128"},
        {"tflops", "TFLOPS"},
    }};
    std::string spelt;
    for (std::size_t at = 0; at <= out.size();) {
        const std::size_t end = std::min(out.find(' ', at), out.size());
        std::string_view word(out.data() + at, end - at);
        for (const auto& [lower, upper] : kAcronyms)
            if (word == lower)
                word = upper;
        spelt.append(word);
        if (end < out.size())
            spelt += ' ';
        at = end + 1;
    }
    return spelt;
}

} // namespace

std::string assumptionLabel(const std::string& field) {
    std::string label;
    std::string_view rest(field);
    std::string unit;
    // The unit lives on the last key: "p2p.chunkUs".
    std::size_t dot = rest.rfind('.');
    std::string_view last = dot == std::string_view::npos ? rest : rest.substr(dot + 1);
    for (const auto& [suffix, name] : kUnits)
        if (last.size() > suffix.size() && last.ends_with(suffix)) {
            unit = name;
            last.remove_suffix(suffix.size());
            break;
        }
    if (dot != std::string_view::npos) {
        std::string_view head = rest.substr(0, dot);
        for (std::size_t at = 0; at <= head.size();) {
            const std::size_t next = std::min(head.find('.', at), head.size());
            label += words(head.substr(at, next - at)) + ", ";
            at = next + 1;
        }
    }
    label += words(last);
    if (!unit.empty())
        label += " (" + unit + ")";
    return label;
}

std::vector<AssumptionGroup> assumptionsFor(const Design& design, const Catalog& catalog,
                                            const std::vector<std::string>& comparedFabricIds,
                                            const CostReport& cost) {
    std::vector<AssumptionGroup> groups;
    const auto inlineGroup = [](std::string title) {
        return AssumptionGroup{std::move(title),
                               "written into the design file itself, not taken from the catalog",
                               {}};
    };

    // Fabrics: the design's own, then those it was compared on.
    std::vector<std::string> fabrics;
    if (!design.fabric.isInline)
        fabrics.push_back(design.fabric.spec.id);
    else
        groups.push_back(inlineGroup("Fabric: " + design.fabric.spec.name));
    for (const std::string& id : comparedFabricIds)
        if (std::find(fabrics.begin(), fabrics.end(), id) == fabrics.end())
            fabrics.push_back(id);
    std::vector<std::string> parts;
    const auto usePart = [&parts](const std::string& id) {
        if (!id.empty() && std::find(parts.begin(), parts.end(), id) == parts.end())
            parts.push_back(id);
    };
    for (const BomLine& line : cost.bom)
        usePart(line.partId);
    for (const std::string& id : fabrics) {
        const Fabric* fabric = catalog.findFabric(id);
        if (!fabric)
            continue;
        groups.push_back({"Fabric: " + fabric->name, {}, valuesOf(catalog, "fabrics", id)});
        const FabricHardware& hw = fabric->hardware;
        for (const std::string* part :
             {&hw.switchId, &hw.spineSwitch(), &hw.coreSwitch(), &hw.nicId, &hw.serverCableId,
              &hw.switchCableId, &hw.transceiverId})
            usePart(*part);
    }

    // The GPU and the model of the workload.
    if (design.workload) {
        const Workload& w = *design.workload;
        if (w.gpu.isInline)
            groups.push_back(inlineGroup("GPU: " + w.gpu.spec.name));
        else
            groups.push_back(
                {"GPU: " + w.gpu.spec.name, {}, valuesOf(catalog, "gpus", w.gpu.spec.id)});
        if (w.model.isInline)
            groups.push_back(inlineGroup("Model: " + w.model.spec.name));
        else
            groups.push_back(
                {"Model: " + w.model.spec.name, {}, valuesOf(catalog, "models", w.model.spec.id)});
    }

    // The price list's own figures (the period, energy), without other clouds' rentals.
    std::vector<CatalogValue> own = valuesOf(catalog, "prices", "");
    std::erase_if(
        own, [](const CatalogValue& v) { return v.field.starts_with("ownership.cloudRentals"); });
    groups.push_back({"Prices: period, energy and GPU time", {}, std::move(own)});
    if (design.workload && !design.workload->gpu.isInline) {
        const std::string& gpu = design.workload->gpu.spec.id;
        auto values = valuesOf(catalog, "prices", gpu);
        if (!values.empty())
            groups.push_back({"Servers: " + design.workload->gpu.spec.name, {}, std::move(values)});
    }
    for (const std::string& id : parts) {
        auto values = valuesOf(catalog, "prices", id);
        if (!values.empty() && catalog.prices().findPart(id))
            groups.push_back(
                {"Part: " + catalog.prices().findPart(id)->name, {}, std::move(values)});
    }
    return groups;
}

} // namespace fabriclab::model
