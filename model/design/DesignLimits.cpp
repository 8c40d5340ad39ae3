// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/design/DesignLimits.hpp"

#include <sstream>

namespace fabriclab::model {
namespace {

std::optional<std::string> outside(const char* field, double value, double lo, double hi) {
    if (value >= lo && value <= hi)
        return std::nullopt;
    std::ostringstream text;
    text << field << " must be from " << lo << " to " << hi << ", not " << value;
    return text.str();
}

} // namespace

std::optional<std::string> nodeRangeProblem(const Node& node) {
    using namespace limits;
    if (node.name.empty() || node.name.size() > kMaxNameLength)
        return "a name must have 1 to " + std::to_string(kMaxNameLength) + " characters";
    if (auto p = outside("x", node.x, -kMaxCoordinate, kMaxCoordinate))
        return p;
    if (auto p = outside("y", node.y, -kMaxCoordinate, kMaxCoordinate))
        return p;
    if (node.kind == NodeKind::Server) {
        if (auto p = outside("GPUs", node.server.gpus, 1, kMaxPerServer))
            return p;
        if (auto p = outside("NICs", node.server.nics, 1, kMaxPerServer))
            return p;
        if (auto p = outside("NIC Gb/s", node.server.nicSpeed.value, 1, kMaxGbps))
            return p;
        if (auto p = outside("ports per NIC", node.server.portsPerNic, 1, kMaxPortsPerNic))
            return p;
        return outside("scale-up GB/s", node.server.scaleUpGBps, 1, kMaxScaleUpGBps);
    }
    if (auto p = outside("radix", node.sw.radix, 1, kMaxRadix))
        return p;
    return outside("port Gb/s", node.sw.portSpeed.value, 1, kMaxGbps);
}

std::optional<std::string> linkRangeProblem(const Link& link) {
    using namespace limits;
    if (auto p = outside("Gb/s", link.speed.value, 1, kMaxGbps))
        return p;
    if (auto p = outside("cable count", link.count, 1, kMaxParallel))
        return p;
    return outside("length in metres", link.lengthMeters, 0, kMaxLengthMeters);
}

} // namespace fabriclab::model
