// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Link.hpp"
#include "model/topology/Node.hpp"

#include <optional>
#include <string>

namespace fabriclab::model {

/// The ranges a design file accepts, in one place so that what the app lets a user
/// enter is exactly what the file reader will take back. Generous: they catch typos and
/// hostile values, not unusual hardware.
namespace limits {
inline constexpr double kMaxGbps = 3200;   ///< per port or cable
inline constexpr int kMaxPerServer = 1024; ///< GPUs or NICs in one server
/// Ports of one multiplane NIC: ConnectX-8 splits into 4 planes, MRC runs 8 of 100G per
/// 800G NIC (docs/reference/design-space.md §1); 64 leaves room without inviting typos.
inline constexpr int kMaxPortsPerNic = 64;
inline constexpr int kMaxRadix = 4096;
inline constexpr int kMaxParallel = 4096;   ///< cables in one link
inline constexpr int kMaxFailures = 100000; ///< entries in a design's failures list
inline constexpr double kMaxLengthMeters = 100000;
inline constexpr double kMaxScaleUpGBps = 1e5;
inline constexpr std::size_t kMaxNameLength = 200;
inline constexpr double kMaxCoordinate = 1e8;
} // namespace limits

/// Why a node's properties are out of range, naming the field; empty when they are fine.
std::optional<std::string> nodeRangeProblem(const Node& node);
/// The same for a link.
std::optional<std::string> linkRangeProblem(const Link& link);

} // namespace fabriclab::model
