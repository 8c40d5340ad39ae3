// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/routing/EcmpRouting.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace fabriclab::sim::routing {

/// Whether a link is a dragonfly's global link: between switches of one tier in two pods.
bool isGlobalLink(const model::Topology& topology, const model::Link& link);

/// Groups of a dragonfly: the pods whose switches have links to switches of other pods at
/// their own tier (global links). Fewer than three and Valiant has no group to detour
/// through: 0 then.
int dragonflyGroups(const model::Topology& topology);

/// Valiant routing on a dragonfly (Valiant and Brebner, 1981; Kim et al., ISCA 2008): a
/// flow between two groups goes minimally to a random switch with global links in a third
/// group, then minimally to its destination, so every pattern loads the global links
/// alike, at the price of a second global hop. The detour is drawn per flow from its key
/// (as a packet's would be per packet, the many flows of a pattern spreading it evenly),
/// and each leg is static ECMP. Inside a group, or on a fabric without three groups, it
/// routes as ECMP does.
class ValiantRouting final : public RoutingPolicy {
public:
    static constexpr ChannelLayout kLayout = EcmpRouting::kLayout;

    explicit ValiantRouting(std::shared_ptr<const FabricStructure> structure);

    std::unique_ptr<RoutingPolicy> clone() const override;
    /// Switches crossed after `from`; between groups, through the first detour switch.
    int hops(std::uint32_t from, std::uint32_t to) const override;
    void appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t flowKey,
                      Route& route) const override;

    /// Groups it detours between: 0 on a fabric without three.
    int groupCount() const { return static_cast<int>(m_gateways.size()); }
    /// A switch's group (its position among the groups), -1 outside every group.
    int groupOf(std::uint32_t switchIndex) const { return m_group[switchIndex]; }
    /// Gb/s of global links from group a to group b (each direction alike), row a, column b,
    /// groupCount() x groupCount().
    std::vector<double> globalCapacityGbps() const;

private:
    /// The detour switch a flow from group `a` to group `b` takes.
    std::uint32_t detour(int a, int b, std::uint64_t flowKey) const;

    std::shared_ptr<const FabricStructure> m_s;
    EcmpRouting m_minimal;
    std::vector<int> m_group; ///< per node index: its group's position, -1 if none
    /// Per group: its switches with global links, the detour points.
    std::vector<std::vector<std::uint32_t>> m_gateways;
};

} // namespace fabriclab::sim::routing
