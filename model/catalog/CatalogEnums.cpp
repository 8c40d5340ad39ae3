// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/Fabric.hpp"
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

constexpr std::array<std::pair<Routing, std::string_view>, 5> kRoutings{{
    {Routing::Ecmp, "ecmp"},
    {Routing::Adaptive, "adaptive"},
    {Routing::Spray, "spray"},
    {Routing::Valiant, "valiant"},
    {Routing::Ugal, "ugal"},
}};

constexpr std::array<std::pair<Routing, std::string_view>, 5> kRoutingDescriptions{{
    {Routing::Ecmp, "static ECMP"},
    {Routing::Adaptive, "adaptive routing"},
    {Routing::Spray, "packet spraying"},
    {Routing::Valiant, "Valiant routing"},
    {Routing::Ugal, "UGAL routing"},
}};

constexpr std::array<std::pair<NcclTuner, std::string_view>, 2> kTuners{{
    {NcclTuner::Nccl, "nccl"},
    {NcclTuner::AwsOfiNccl, "aws-ofi-nccl"},
}};

} // namespace

std::string_view toString(Routing routing) {
    return enumName(kRoutings, routing);
}

std::optional<Routing> routingFromString(std::string_view text) {
    return enumValue<Routing>(kRoutings, text);
}

std::string routingNameList() {
    return enumNameList(kRoutings);
}

std::string_view describe(Routing routing) {
    return enumName(kRoutingDescriptions, routing);
}

std::string_view toString(NcclTuner tuner) {
    return enumName(kTuners, tuner);
}

std::optional<NcclTuner> ncclTunerFromString(std::string_view text) {
    return enumValue<NcclTuner>(kTuners, text);
}

std::string ncclTunerNameList() {
    return enumNameList(kTuners);
}

std::string_view toString(GpuArchitecture architecture) {
    return enumName(kArchitectures, architecture);
}

std::optional<GpuArchitecture> gpuArchitectureFromString(std::string_view text) {
    return enumValue<GpuArchitecture>(kArchitectures, text);
}

} // namespace fabriclab::model
