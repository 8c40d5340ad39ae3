// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/CatalogValues.hpp"
#include "model/catalog/Fabric.hpp"
#include "model/catalog/GpuSpec.hpp"
#include "model/catalog/ModelSpec.hpp"
#include "model/catalog/PriceCatalog.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// Fabrics, GPUs, models and prices, looked up by id.
class Catalog {
public:
    /// The catalogs compiled into FabricLab from resources/catalog/*.json.
    static const Catalog& builtin();

    /// Parses the four catalog documents. Throws std::invalid_argument naming the
    /// document, the JSON path and what was expected.
    static Catalog fromJson(std::string_view fabrics, std::string_view gpus,
                            std::string_view models, std::string_view prices);

    /// Replaces the price list (a user's edited prices.json); `origin` names it in errors.
    void loadPrices(std::string_view pricesJson, std::string_view origin);

    const Fabric* findFabric(std::string_view id) const;
    const GpuSpec* findGpu(std::string_view id) const;
    const ModelSpec* findModel(std::string_view id) const;
    /// "unknown fabric "ID" (known: efa, ethernet-tcp, ...)": a wrong id answered with the
    /// right ones.
    std::string unknownFabric(std::string_view id) const;
    const std::map<std::string, Fabric, std::less<>>& fabrics() const { return m_fabrics; }
    const std::map<std::string, GpuSpec, std::less<>>& gpus() const { return m_gpus; }
    const std::map<std::string, ModelSpec, std::less<>>& models() const { return m_models; }
    const PriceCatalog& prices() const { return m_prices; }
    /// Every number the four documents give, with its source, in document order.
    const std::vector<CatalogValue>& values() const { return m_values; }

private:
    std::map<std::string, Fabric, std::less<>> m_fabrics;
    std::map<std::string, GpuSpec, std::less<>> m_gpus;
    std::map<std::string, ModelSpec, std::less<>> m_models;
    PriceCatalog m_prices;
    std::vector<CatalogValue> m_values;
};

} // namespace fabriclab::model
