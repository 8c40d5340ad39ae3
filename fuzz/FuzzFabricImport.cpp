// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes as a real fabric's file, the kind a user hands to
// `fabriclab-cli import` or File > Import (the first byte picks the format: even for
// ibnetdiscover output, odd for Slurm's topology.conf; the rest is the file). Refusals are
// the contract; crashes, hangs and undefined behaviour are bugs.
#include "model/catalog/Catalog.hpp"
#include "model/io/FabricImport.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fabriclab::model;
    if (size == 0)
        return 0;
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        if (data[0] % 2 == 0)
            (void)importIbnetdiscover(text, "fuzz.topo", {}, Catalog::builtin());
        else
            (void)importSlurmTopology(text, "fuzz.conf", {}, Catalog::builtin());
    } catch (const std::exception&) {
    }
    return 0;
}
