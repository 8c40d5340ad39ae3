// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/ExplicitRouteZone.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace fabriclab::bench {
namespace {

/// splitmix64 finalizer: host ids are small consecutive numbers, which linear probing
/// would cluster on without mixing.
std::uint64_t mix(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

void ExplicitRouteZone::reserve(std::size_t routes, std::size_t links) {
    m_routeStart.reserve(routes + 1);
    m_links.reserve(links);
    // At most half full keeps probe sequences short.
    if (2 * routes > m_slots.size())
        grow(std::bit_ceil(2 * routes));
}

std::size_t ExplicitRouteZone::slotOf(std::uint64_t key) const {
    const std::size_t mask = m_slots.size() - 1;
    std::size_t slot = mix(key) & mask;
    while (m_slots[slot].key != kEmpty && m_slots[slot].key != key)
        slot = (slot + 1) & mask;
    return slot;
}

void ExplicitRouteZone::grow(std::size_t slots) {
    std::vector<Slot> old = std::move(m_slots);
    m_slots.assign(slots, Slot{});
    for (const Slot& s : old)
        if (s.key != kEmpty)
            m_slots[slotOf(s.key)] = s;
}

bool ExplicitRouteZone::addRoute(const NetPoint* source, const NetPoint* destination,
                                 std::span<LinkImpl* const> links) {
    if (2 * (m_used + 1) > m_slots.size())
        grow(std::max<std::size_t>(16, 2 * m_slots.size()));
    const std::uint64_t k = key(source, destination);
    Slot& slot = m_slots[slotOf(k)];
    if (slot.key == k)
        return false;
    slot.key = k;
    slot.route = static_cast<std::uint32_t>(m_routeStart.size() - 1);
    ++m_used;
    m_links.insert(m_links.end(), links.begin(), links.end());
    m_routeStart.push_back(static_cast<std::uint32_t>(m_links.size()));
    return true;
}

std::span<ExplicitRouteZone::LinkImpl* const>
ExplicitRouteZone::route(const NetPoint* source, const NetPoint* destination) const {
    if (m_slots.empty())
        return {};
    const Slot& slot = m_slots[slotOf(key(source, destination))];
    if (slot.key == kEmpty)
        return {};
    return {m_links.data() + m_routeStart[slot.route],
            m_links.data() + m_routeStart[slot.route + 1]};
}

void ExplicitRouteZone::get_local_route(const NetPoint* source, const NetPoint* destination,
                                        simgrid::kernel::routing::Route* into,
                                        double* /*latency*/) {
    // Links carry no latency here (the comparison is pure bandwidth sharing), so the
    // latency accumulator is left alone.
    const auto links = route(source, destination);
    if (links.empty())
        throw std::logic_error("no route from " + source->get_name() + " to " +
                               destination->get_name());
    into->link_list_.insert(into->link_list_.end(), links.begin(), links.end());
}

} // namespace fabriclab::bench
