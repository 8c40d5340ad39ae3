// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes as one of the four catalog documents (the first byte picks
// fabrics, GPUs, models or prices; the rest is the document), the others the built-in
// ones, and as a user's price list loaded over the built-in catalog. Refusals are the
// contract; crashes, hangs and undefined behaviour are bugs.
#include "model/catalog/Catalog.hpp"
#include "model/catalog/EmbeddedCatalogs.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fabriclab::model;
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::array<std::string_view, 4> documents{embedded::fabricsJson(), embedded::gpusJson(),
                                              embedded::modelsJson(), embedded::pricesJson()};
    documents[data[0] % documents.size()] = text;
    try {
        (void)Catalog::fromJson(documents[0], documents[1], documents[2], documents[3]);
    } catch (const std::exception&) {
    }
    try {
        Catalog catalog = Catalog::builtin();
        catalog.loadPrices(text, "fuzz-prices.json");
    } catch (const std::exception&) {
    }
    return 0;
}
