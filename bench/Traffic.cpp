// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/Traffic.hpp"

#include <random>
#include <stdexcept>
#include <string>

namespace fabriclab::bench {
namespace {

/// Uniform integer below `bound` from the raw generator: std::uniform_int_distribution
/// is implementation-defined, and the two sides of a case (separate processes, possibly a
/// test and a benchmark) must draw the very same flows.
std::uint32_t below(std::mt19937_64& random, std::uint32_t bound) {
    return static_cast<std::uint32_t>(random() % bound);
}

} // namespace

NicNumbering::NicNumbering(const sim::FabricNetwork& network) {
    m_firstNic.push_back(0);
    for (const model::NodeId server : network.servers()) {
        const int nics = network.nicCount(server);
        for (int nic = 0; nic < nics; ++nic) {
            m_endpoints.push_back(sim::Endpoint{server, nic});
            m_server.push_back(m_serverCount);
        }
        m_firstNic.push_back(static_cast<std::uint32_t>(m_endpoints.size()));
        ++m_serverCount;
    }
}

std::vector<NicPair> randomPermutation(const NicNumbering& nics, std::uint64_t seed) {
    const std::uint32_t n = nics.count();
    if (nics.serverCount() < 2)
        throw std::invalid_argument("a permutation across servers needs two servers at least");
    std::mt19937_64 random(seed);
    std::vector<std::uint32_t> target(n);
    for (std::uint32_t i = 0; i < n; ++i)
        target[i] = i;
    for (std::uint32_t i = n; i > 1; --i)
        std::swap(target[i - 1], target[below(random, i)]);
    // Repair pairs inside one server by swapping targets with a random partner for which
    // the swap is valid on both sides; with more than a handful of servers a couple of
    // draws suffice.
    const auto sameServer = [&](std::uint32_t from, std::uint32_t to) {
        return nics.serverOf(from) == nics.serverOf(to);
    };
    for (std::uint32_t i = 0; i < n; ++i) {
        for (int attempt = 0; sameServer(i, target[i]); ++attempt) {
            if (attempt > 1'000'000)
                throw std::runtime_error("could not place NIC " + std::to_string(i) +
                                         " off its server");
            const std::uint32_t j = below(random, n);
            if (!sameServer(i, target[j]) && !sameServer(j, target[i]))
                std::swap(target[i], target[j]);
        }
    }
    std::vector<NicPair> pairs;
    pairs.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
        pairs.emplace_back(i, target[i]);
    return pairs;
}

std::vector<NicPair> ring(const NicNumbering& nics) {
    std::vector<NicPair> pairs;
    const std::uint32_t servers = nics.serverCount();
    for (std::uint32_t s = 0; s < servers; ++s) {
        const std::uint32_t next = (s + 1) % servers;
        for (std::uint32_t k = 0; k < nics.nicsOf(s); ++k) {
            if (k >= nics.nicsOf(next))
                throw std::invalid_argument("ring: server " + std::to_string(next) +
                                            " has no NIC " + std::to_string(k));
            pairs.emplace_back(nics.firstNic(s) + k, nics.firstNic(next) + k);
        }
    }
    return pairs;
}

std::vector<NicPair> allToAll(const NicNumbering& nics) {
    const std::uint32_t n = nics.count();
    std::vector<NicPair> pairs;
    pairs.reserve(static_cast<std::size_t>(n) * (n > 0 ? n - 1 : 0));
    for (std::uint32_t from = 0; from < n; ++from)
        for (std::uint32_t to = 0; to < n; ++to)
            if (from != to)
                pairs.emplace_back(from, to);
    return pairs;
}

std::vector<NicPair> randomPairs(const NicNumbering& nics, std::size_t count, std::uint64_t seed) {
    if (nics.serverCount() < 2)
        throw std::invalid_argument("pairs across servers need two servers at least");
    std::mt19937_64 random(seed);
    std::vector<NicPair> pairs;
    pairs.reserve(count);
    while (pairs.size() < count) {
        const std::uint32_t from = below(random, nics.count());
        const std::uint32_t to = below(random, nics.count());
        if (nics.serverOf(from) != nics.serverOf(to))
            pairs.emplace_back(from, to);
    }
    return pairs;
}

} // namespace fabriclab::bench
