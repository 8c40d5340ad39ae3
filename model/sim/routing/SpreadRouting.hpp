// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/sim/routing/MinimalRouting.hpp"

#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace fabriclab::sim::routing {

/// How a spreading policy shares a flow among the equal-cost cables at a switch.
enum class SpreadWeight {
    /// In proportion to what each can deliver to the destination: its own capacity or
    /// that of the paths beyond it, whichever is less. Adaptive routing: switches send
    /// each packet to a port whose queue is short, and a queue behind a slow cable, here
    /// or further on, backs up (credits, pause frames, RTT telemetry), so traffic shifts
    /// off a degraded path in proportion. On a healthy Clos, the same as ByCables.
    ByDeliverable,
    /// In proportion to their number, whatever their state: packet spraying, where the
    /// sender varies each packet's entropy value and every switch hashes it over its
    /// equal-cost ports (Ultra Ethernet; docs/reference/design-space.md, ue-spray), so a
    /// degraded cable gets its full share and holds the whole flow back.
    ByCables,
};

/// Adaptive routing and packet spraying as a flow-level model sees them: at every switch a
/// flow spreads over all equal-cost cables, hop by hop, so its rate splits into fractions
/// (SpreadWeight says in what proportion). Every group of cables a flow loads in proportion
/// to their capacity (a switch's uplinks, a pod's spines) is one channel, so a route is a
/// handful of channels instead of hundreds; a group it loads otherwise stays cable by
/// cable. Spreads are cached per pair of switches, and twins share their representative's
/// (FabricStructure::twinOf) with their own cables put in.
class SpreadRouting final : public MinimalRouting<SpreadRouting> {
public:
    static constexpr ChannelLayout kLayout{.bundleIsOneChannel = true, .groupChannels = true};

    SpreadRouting(std::shared_ptr<const FabricStructure> structure, SpreadWeight weight)
        : MinimalRouting(std::move(structure)), m_weight(weight) {}

    void appendMiddle(std::uint32_t from, std::uint32_t to, std::uint64_t flowKey,
                      Route& route) const override;

private:
    using Hop = FabricStructure::Hop;

    SpreadWeight m_weight;
    /// Gb/s the equal-cost paths from `node` can carry to `target` (adaptive weighing).
    double deliverable(std::uint32_t node, std::uint32_t target) const;
    mutable std::unordered_map<std::uint64_t, double> m_deliverable; ///< (node, target)
    /// Fills the scratch's weights for splitting a flow over `choice` toward `target` and
    /// returns true, or returns false where the split is by cables (spraying, or adaptive
    /// weights in proportion to the cables).
    bool weighChoice(const EqualCostHops::Choice& choice, std::uint32_t target) const;

    std::vector<PathElement> spread(std::uint32_t from, std::uint32_t to, double& meters) const;

    /// An element of a representatives' spread that is one end's own channel: a twin
    /// end puts its channel of the same slot there.
    struct Patch {
        std::uint32_t position;
        std::uint32_t slot;
        bool toSide; ///< the destination end's (else the source end's)
    };
    struct Middle {
        std::vector<PathElement> elements;
        double meters = 0;
        std::vector<Patch> patches;
    };
    std::vector<Patch> patchesFor(const std::vector<PathElement>& elements, std::uint32_t a,
                                  std::uint32_t b) const;
    mutable std::unordered_map<std::uint64_t, Middle> m_middles;
    /// A representative's first other twin (FabricStructure::twinOf), which stands for the
    /// far end when both ends of a route are its twins.
    std::uint32_t partnerOf(std::uint32_t representative) const;
    mutable std::vector<std::uint32_t> m_partners; ///< per node, filled on first use
    /// A hop a spread flow loads, and with what fraction of its rate.
    struct Use {
        std::uint32_t from;
        std::uint32_t hop; ///< index into m_s->switchHops[from]
        double fraction;
    };
    /// Dense scratch for spread(), all zero (load and groups: -1, meaning unused) between
    /// calls; the vectors keep their capacity so a call allocates only its result.
    struct SpreadScratch {
        std::vector<double> reached;         ///< per node: fraction arriving at the next level
        std::vector<double> load;            ///< per hop (m_s->hopBase numbering): fraction on it
        std::vector<std::uint32_t> upUsed;   ///< per node: its uplinks the flow uses
        std::vector<std::uint32_t> downUsed; ///< per node: links into it from above in use
        std::vector<double> upGroup;         ///< per node: its uplink group's share, 0 when split
        std::vector<double> downGroup;       ///< per node: share of the group into it from above
        std::vector<std::uint32_t> upGroupNodes;   ///< nodes whose upGroup was set
        std::vector<std::uint32_t> downGroupNodes; ///< nodes whose downGroup was set
        std::vector<std::pair<std::uint32_t, std::uint32_t>> peers; ///< (peer channel, node)
        std::vector<Use> uses;
        std::vector<std::uint32_t> frontier;
        std::vector<std::uint32_t> next;
        std::vector<double> fractions;
        std::vector<double> weights; ///< per hop of the choice being split (weighChoice)
    };
    mutable SpreadScratch m_spreadScratch;
    // The steps of spread(), over m_spreadScratch.
    /// Spreads a flow from switch `from` to `to` over every equal-cost cable, filling
    /// the scratch's uses and loads.
    void spreadHopByHop(std::uint32_t from, std::uint32_t to, double& meters) const;
    bool isUp(const Use& use) const;
    bool isDown(const Use& use) const;
    /// The flow's share of a switch's uplink group (or of the links into it from above)
    /// when it loads the group evenly, else 0.
    double groupShare(std::uint32_t node, bool up) const;
    void appendSingleCables(std::vector<PathElement>& elements) const;
    void appendGroupChannels(std::vector<PathElement>& elements) const;
    void clearSpreadScratch() const;
    /// A hop of a switch's uplink group, or of the group of links into it from above.
    struct GroupHop {
        std::uint32_t owner; ///< node the hop leaves from
        std::uint32_t index; ///< into m_s->switchHops[owner]
        double capacity;     ///< the hop's, Gb/s
    };
    /// Every hop of the group, loaded by a flow or not; per node, filled lazily.
    const std::vector<GroupHop>& groupHops(std::uint32_t node, bool up) const;
    mutable std::vector<std::optional<std::vector<GroupHop>>> m_upGroupHops;
    mutable std::vector<std::optional<std::vector<GroupHop>>> m_downGroupHops;
};

} // namespace fabriclab::sim::routing
