// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// A SimGrid netzone holding exactly the routes it is given, one per (source, destination)
// host pair, in a hash table. Private to the peer: it includes SimGrid's kernel headers.
//
// Why not SimGrid's own zones: FullZone keeps a hosts x hosts table (32,768 NICs would
// need 8.6 GB of pointers), and the shortest-path zones (Dijkstra, Floyd) pick their own
// path among the equal-cost ones, where the comparison needs the very channel FabricLab's
// ECMP hash picked. This zone is FullZone's semantics at the cost of the routes used.
#pragma once

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fabriclab::bench {

class ExplicitRouteZone final : public simgrid::kernel::routing::NetZoneImpl {
public:
    using LinkImpl = simgrid::kernel::resource::StandardLinkImpl;
    using NetPoint = simgrid::kernel::routing::NetPoint;

    explicit ExplicitRouteZone(const std::string& name) : NetZoneImpl(name) {}

    /// Sizes the table for `routes` routes of `links` links in all, so that filling it
    /// never rehashes.
    void reserve(std::size_t routes, std::size_t links);
    /// Declares the route from `source` to `destination`. Returns false, changing nothing,
    /// when the pair already has a route (which may differ from `links`).
    bool addRoute(const NetPoint* source, const NetPoint* destination,
                  std::span<LinkImpl* const> links);
    /// The route of a pair, empty when it has none.
    std::span<LinkImpl* const> route(const NetPoint* source, const NetPoint* destination) const;

private:
    void get_local_route(const NetPoint* source, const NetPoint* destination,
                         simgrid::kernel::routing::Route* into, double* latency) override;

    static std::uint64_t key(const NetPoint* source, const NetPoint* destination) {
        return (static_cast<std::uint64_t>(source->id()) << 32) |
               static_cast<std::uint32_t>(destination->id());
    }
    std::size_t slotOf(std::uint64_t key) const;
    void grow(std::size_t slots);

    // Open addressing with linear probing: a slot is a key and a route number, 16 bytes,
    // where std::unordered_map would spend a node allocation per route.
    struct Slot {
        std::uint64_t key = kEmpty;
        std::uint32_t route = 0;
    };
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
    std::vector<Slot> m_slots;
    std::size_t m_used = 0;
    std::vector<std::uint32_t> m_routeStart{0}; ///< per route, plus one: offsets into m_links
    std::vector<LinkImpl*> m_links;
};

} // namespace fabriclab::bench
