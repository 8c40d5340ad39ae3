// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/GpuSpec.hpp"
#include "model/core/EnumNames.hpp"

#include <array>
#include <utility>

namespace fabriclab::model {
namespace {

constexpr std::array<std::pair<GpuArchitecture, std::string_view>, 4> kArchitectures{{
    {GpuArchitecture::Volta, "volta"},
    {GpuArchitecture::Ampere, "ampere"},
    {GpuArchitecture::Hopper, "hopper"},
    {GpuArchitecture::Blackwell, "blackwell"},
}};

} // namespace

std::string_view toString(GpuArchitecture architecture) {
    return enumName(kArchitectures, architecture);
}

std::optional<GpuArchitecture> gpuArchitectureFromString(std::string_view text) {
    return enumValue<GpuArchitecture>(kArchitectures, text);
}

} // namespace fabriclab::model
