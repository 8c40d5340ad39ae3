// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes as a published-figures file, the kind a user hands to
// `fabriclab-cli validate --figures` or the app's "Your own figures…" (the first byte
// picks nccl-tests figures, step times or reference architectures; the rest is the file).
// Refusals are the contract; crashes, hangs and undefined behaviour are bugs.
#include "model/validation/PublishedArchitectures.hpp"
#include "model/validation/PublishedFigures.hpp"
#include "model/validation/PublishedStepTimes.hpp"

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
        switch (data[0] % 3) {
        case 0:
            (void)readPublishedFigures(text, "fuzz-figures.json");
            break;
        case 1:
            (void)readStepFigures(text);
            break;
        default:
            (void)readArchitectureFigures(text);
            break;
        }
    } catch (const std::exception&) {
    }
    return 0;
}
