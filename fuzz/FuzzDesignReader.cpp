// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes as a design file. A refusal (std::exception naming the file,
// the JSON path and what was expected) is the contract; a crash, a hang, a leak or
// undefined behaviour is a bug. A design that is accepted must also write itself back and
// read again to the same bytes.
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace fabriclab::model;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Design design;
    try {
        design = parseDesign(text, "fuzz.fabric.json", Catalog::builtin());
    } catch (const std::exception&) {
        return 0; // refused: what hostile input should get
    }
    const std::string saved = serializeDesign(design);
    if (serializeDesign(parseDesign(saved, "saved.fabric.json", Catalog::builtin())) != saved)
        std::abort(); // a design that does not survive its own round trip
    return 0;
}
