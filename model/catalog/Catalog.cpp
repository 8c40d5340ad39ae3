// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/Catalog.hpp"

#include "model/catalog/CatalogJson.hpp"
#include "model/catalog/CatalogValues.hpp"
#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/core/Hash.hpp"
#include "model/core/JsonCursor.hpp"

namespace fabriclab::model {
namespace {

nlohmann::json parseDocument(std::string_view text, const std::string& origin) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw JsonError(origin, "/", std::string("not valid JSON: ") + e.what());
    }
}

/// Checks the catalog header and returns the array of entries under `listKey`.
JsonCursor entries(const JsonCursor& root, std::string_view kind, std::string_view listKey) {
    if (root["format"].string() != "fabriclab-catalog")
        root["format"].fail("expected \"fabriclab-catalog\"");
    if (root["kind"].string() != kind)
        root["kind"].fail("expected \"" + std::string(kind) + "\"");
    if (root["version"].integer(1, 1000) != 1)
        root["version"].fail("this FabricLab reads catalog version 1");
    auto list = root[listKey];
    list.size();
    return list;
}

template <class Spec, class Parse>
std::map<std::string, Spec, std::less<>> parseList(std::string_view text, const std::string& origin,
                                                   std::string_view kind, Parse parse) {
    const auto document = parseDocument(text, origin);
    const JsonCursor root(document, origin);
    const JsonCursor list = entries(root, kind, kind);
    std::map<std::string, Spec, std::less<>> result;
    for (std::size_t i = 0; i < list.size(); ++i) {
        Spec spec = parse(list.at(i));
        if (result.count(spec.id))
            list.at(i)["id"].fail("duplicate id \"" + spec.id + "\"");
        result.emplace(spec.id, std::move(spec));
    }
    return result;
}

std::map<std::string, PricedPart> parseParts(const JsonCursor& root, std::string_view key) {
    std::map<std::string, PricedPart> parts;
    const JsonCursor list = root[key];
    for (std::size_t i = 0; i < list.size(); ++i) {
        PricedPart part = catalog_json::parsePart(list.at(i));
        if (parts.count(part.id))
            list.at(i)["id"].fail("duplicate id \"" + part.id + "\"");
        parts.emplace(part.id, std::move(part));
    }
    return parts;
}

/// {"value": x, "source": "..."} within [lo, hi]; the source is kept for reports.
Sourced sourced(const JsonCursor& cursor, double lo, double hi) {
    cursor.allowOnly({"value", "source"});
    const std::string source = cursor["source"].string();
    if (source.empty())
        cursor["source"].fail("expected where the number comes from");
    return {cursor["value"].number(lo, hi), source};
}

OwnershipPrices parseOwnership(const JsonCursor& c) {
    c.allowOnly({"pue", "electricityUsdPerKwh", "gpus", "cloudRentals"});
    OwnershipPrices o;
    o.pue = sourced(c["pue"], 1, 5);
    o.electricityUsdPerKwh = sourced(c["electricityUsdPerKwh"], 0, 10);
    const JsonCursor gpus = c["gpus"];
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        const JsonCursor g = gpus.at(i);
        g.allowOnly({"gpu", "serverUsdPerGpu", "serverWattsPerGpu", "rentalUsdPerGpuHour"});
        GpuCost cost;
        cost.gpuId = g["gpu"].string();
        cost.serverUsdPerGpu = sourced(g["serverUsdPerGpu"], 1, 1e7);
        cost.serverWattsPerGpu = sourced(g["serverWattsPerGpu"], 1, 1e5);
        cost.rentalUsdPerGpuHour = sourced(g["rentalUsdPerGpuHour"], 0.01, 1e4);
        if (o.gpus.count(cost.gpuId))
            g["gpu"].fail("duplicate GPU \"" + cost.gpuId + "\"");
        o.gpus.emplace(cost.gpuId, std::move(cost));
    }
    if (auto rentals = c.find("cloudRentals"))
        for (std::size_t i = 0; i < rentals->size(); ++i) {
            const JsonCursor r = rentals->at(i);
            r.allowOnly({"fabric", "gpu", "offer", "usdPerGpuHour"});
            o.cloudRentals.push_back({r["fabric"].string(), r["gpu"].string(), r["offer"].string(),
                                      sourced(r["usdPerGpuHour"], 0.01, 1e4)});
        }
    return o;
}

PriceCatalog parsePrices(std::string_view text, const std::string& origin) {
    const auto document = parseDocument(text, origin);
    const JsonCursor root(document, origin);
    if (root["kind"].string() != "prices")
        root["kind"].fail("expected \"prices\"");
    if (root["version"].integer(1, 1000) != 1)
        root["version"].fail("this FabricLab reads catalog version 1");
    PriceCatalog prices;
    if (auto id = root.find("id")) {
        prices.id = id->string();
        if (prices.id.empty())
            id->fail("expected the price list's name, got an empty string");
    }
    // Of the parsed document, so spacing and key order in the file do not change it.
    prices.hash = contentHash(document.dump());
    prices.amortizationMonths = catalog_json::sourcedNumber(root["amortizationMonths"], 1, 600);
    prices.hoursPerMonth = catalog_json::sourcedNumber(root["hoursPerMonth"], 1, 744);
    if (auto rental = root.find("gpuHourUsd"))
        prices.gpuHourUsd = catalog_json::sourcedNumber(*rental, 0, 1e4);
    if (auto ownership = root.find("ownership"))
        prices.ownership = parseOwnership(*ownership);
    prices.switches = parseParts(root, "switches");
    prices.nics = parseParts(root, "nics");
    prices.cables = parseParts(root, "cables");
    prices.transceivers = parseParts(root, "transceivers");
    return prices;
}

} // namespace

const Catalog& Catalog::builtin() {
    // Parsed once: the embedded text is part of the program and cannot change.
    static const Catalog catalog = fromJson(embedded::fabricsJson(), embedded::gpusJson(),
                                            embedded::modelsJson(), embedded::pricesJson());
    return catalog;
}

Catalog Catalog::fromJson(std::string_view fabrics, std::string_view gpus, std::string_view models,
                          std::string_view prices) {
    Catalog catalog;
    catalog.m_fabrics =
        parseList<Fabric>(fabrics, "fabrics.json", "fabrics",
                          [](const JsonCursor& c) { return catalog_json::parseFabric(c); });
    catalog.m_gpus = parseList<GpuSpec>(
        gpus, "gpus.json", "gpus", [](const JsonCursor& c) { return catalog_json::parseGpu(c); });
    catalog.m_models =
        parseList<ModelSpec>(models, "models.json", "models",
                             [](const JsonCursor& c) { return catalog_json::parseModel(c); });
    // The texts were checked above: what is left is listing their numbers for reports.
    for (const auto& [text, name] :
         {std::pair{fabrics, "fabrics"}, std::pair{gpus, "gpus"}, std::pair{models, "models"}}) {
        auto values = catalogValues(nlohmann::json::parse(text), name);
        catalog.m_values.insert(catalog.m_values.end(), std::make_move_iterator(values.begin()),
                                std::make_move_iterator(values.end()));
    }
    catalog.loadPrices(prices, "prices.json");
    return catalog;
}

void Catalog::loadPrices(std::string_view pricesJson, std::string_view origin) {
    PriceCatalog parsed = parsePrices(pricesJson, std::string(origin));
    // Every fabric must find its parts, or costing would fail later and far from the cause.
    for (const auto& [id, fabric] : m_fabrics) {
        const auto& hw = fabric.hardware;
        const std::pair<const std::map<std::string, PricedPart>*, const std::string*> needs[] = {
            {&parsed.switches, &hw.switchId},         {&parsed.switches, &hw.spineSwitch()},
            {&parsed.switches, &hw.coreSwitch()},     {&parsed.nics, &hw.nicId},
            {&parsed.cables, &hw.serverCableId},      {&parsed.cables, &hw.switchCableId},
            {&parsed.transceivers, &hw.transceiverId}};
        for (const auto& [parts, partId] : needs)
            if (!parts->count(*partId))
                throw JsonError(std::string(origin), "/",
                                "no price for part \"" + *partId + "\" that fabric \"" + id +
                                    "\" is built from");
    }
    m_prices = std::move(parsed);
    std::erase_if(m_values, [](const CatalogValue& v) { return v.document == "prices"; });
    auto values = catalogValues(nlohmann::json::parse(pricesJson), "prices");
    m_values.insert(m_values.end(), std::make_move_iterator(values.begin()),
                    std::make_move_iterator(values.end()));
}

const Fabric* Catalog::findFabric(std::string_view id) const {
    const auto it = m_fabrics.find(id);
    return it == m_fabrics.end() ? nullptr : &it->second;
}
const GpuSpec* Catalog::findGpu(std::string_view id) const {
    const auto it = m_gpus.find(id);
    return it == m_gpus.end() ? nullptr : &it->second;
}
const ModelSpec* Catalog::findModel(std::string_view id) const {
    const auto it = m_models.find(id);
    return it == m_models.end() ? nullptr : &it->second;
}

std::string Catalog::unknownFabric(std::string_view id) const {
    std::string known;
    for (const auto& [fabric, unused] : m_fabrics)
        known += (known.empty() ? "" : ", ") + fabric;
    return "unknown fabric \"" + std::string(id) + "\" (known: " + known + ")";
}

} // namespace fabriclab::model
