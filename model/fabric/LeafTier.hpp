// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/fabric/GeneratorParams.hpp"
#include "model/topology/Topology.hpp"

#include <string>
#include <vector>

namespace fabriclab::model::generator {

/// Shared by the two-tier and three-tier generators: validated request, servers grouped
/// into units (a rail group of `nics` leaves, or one top-of-rack leaf), and each leaf's
/// uplink count for the requested oversubscription.
struct LeafTierPlan {
    int serversPerUnit = 0;     ///< servers under one unit's leaves
    int leavesPerUnit = 0;      ///< nicsPerServer when rail-optimized, else 1
    int portsPerServerLeaf = 0; ///< cables from one server to one of its leaves
    int units = 0;
    int uplinksPerLeaf = 0;
};

/// Refuses out-of-range fields (GeneratorError names the field).
void validateRequest(const GeneratorParams& params);

/// Refuses out-of-range fields (GeneratorError names the field) and sizes the leaf tier.
LeafTierPlan planLeafTier(const GeneratorParams& params);

/// "2:1", "1.5:1": how people write oversubscription.
std::string ratioText(double ratio);

/// Largest downlink count on a switch of `radix` ports that keeps down:up at `ratio`.
int maxDownlinks(int radix, double ratio);
/// Uplinks needed for `downlinks` at down:up `ratio`.
int uplinksFor(int downlinks, double ratio);

/// Smallest count of upper switches, at least `minimum`, such that each of `lowerCount`
/// lower switches spreads its `uplinks` evenly over all of them (the count divides
/// `uplinks`) and no upper switch needs more than `upperPorts` downlinks.
/// Returns 0 when even one link per lower switch does not fit.
int spreadCount(int lowerCount, int uplinks, int upperPorts, int minimum);

/// Uplinks per lower switch and the upper switches they spread over.
struct UplinkSpread {
    int uplinks = 0;
    int switches = 0; ///< 0: even one link per lower switch does not fit
};

/// Every upper switch takes the same cables from every lower one. When the `needed`
/// uplinks do not split over few upper switches (31, a prime, would take 31 spines of one
/// cable each), a designer spends free lower ports on more uplinks rather than buy
/// switches: NVIDIA's DGX H100 SuperPOD wires its 31-node scalable unit as a full 32
/// (32 uplinks per leaf over 4 spines). So: the fewest upper switches (at least two, so
/// one failing does not cut the fabric) the `freePorts` allow, then the fewest uplinks.
UplinkSpread spreadUplinks(int lowerCount, int needed, int freePorts, int upperPorts);

/// Adds servers and the leaves of `plan.units` units (starting at unit `firstUnit`),
/// wiring every server to its leaves. Returns the leaves in creation order.
std::vector<NodeId> addServersAndLeaves(Topology& topology, const GeneratorParams& params,
                                        const LeafTierPlan& plan, int firstUnit, int unitCount,
                                        int pod, int& serversLeft);

/// Wires each lower switch to every upper switch with uplinks/upper.size() parallel links.
void wireEvenly(Topology& topology, const std::vector<NodeId>& lower,
                const std::vector<NodeId>& upper, int uplinksPerLower, Gbps speed);

/// Refuses a plane count the leaves of `rails` rails cannot be split into: planes split a
/// rail-optimized fabric by rail, an equal group of rails each.
void checkPlanes(const GeneratorParams& p, int rails);

/// Adds `count` switches of `kind` named "<kind>-<n>" continuing the tier's numbering.
std::vector<NodeId> addSwitches(Topology& topology, NodeKind kind, int count, int radix, Gbps speed,
                                int pod);

} // namespace fabriclab::model::generator
