// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Traffic patterns over a fabric's NICs, numbered densely so that FabricLab and SimGrid
// (which knows hosts, not servers with NICs) name the same flows the same way.
#pragma once

#include "model/sim/FabricNetwork.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace fabriclab::bench {

/// NICs numbered 0..count()-1: server by server in FabricNetwork::servers() order, NIC by
/// NIC within a server.
class NicNumbering {
public:
    explicit NicNumbering(const sim::FabricNetwork& network);

    std::uint32_t count() const { return static_cast<std::uint32_t>(m_endpoints.size()); }
    sim::Endpoint endpoint(std::uint32_t nic) const { return m_endpoints[nic]; }
    /// Dense index of the NIC's server.
    std::uint32_t serverOf(std::uint32_t nic) const { return m_server[nic]; }
    std::uint32_t serverCount() const { return m_serverCount; }
    /// Number of the first NIC of a server (its NICs follow it).
    std::uint32_t firstNic(std::uint32_t server) const { return m_firstNic[server]; }
    std::uint32_t nicsOf(std::uint32_t server) const {
        return m_firstNic[server + 1] - m_firstNic[server];
    }

private:
    std::vector<sim::Endpoint> m_endpoints;
    std::vector<std::uint32_t> m_server;
    std::vector<std::uint32_t> m_firstNic;
    std::uint32_t m_serverCount = 0;
};

/// A flow from one NIC to another, by NicNumbering.
using NicPair = std::pair<std::uint32_t, std::uint32_t>;

/// Every NIC sends to exactly one NIC of another server and receives from exactly one:
/// every flow crosses the fabric, and no NIC is loaded twice. Deterministic in `seed`.
/// Throws std::invalid_argument for a single server, where no such permutation exists.
std::vector<NicPair> randomPermutation(const NicNumbering& nics, std::uint64_t seed);

/// NIC k of server s sends to NIC k of server s+1 (the last server wraps to the first):
/// the rail ring of ring collectives. Throws when a server lacks the next one's NIC k.
std::vector<NicPair> ring(const NicNumbering& nics);

/// Every NIC to every other NIC, those of its own server included (n x (n-1) pairs).
std::vector<NicPair> allToAll(const NicNumbering& nics);

/// `count` independent uniform pairs, source and destination on different servers;
/// a pair may repeat. Deterministic in `seed`.
std::vector<NicPair> randomPairs(const NicNumbering& nics, std::size_t count, std::uint64_t seed);

} // namespace fabriclab::bench
