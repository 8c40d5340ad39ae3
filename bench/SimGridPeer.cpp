// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/SimGridPeer.hpp"

#include "bench/ExplicitRouteZone.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace fabriclab::bench {
namespace {

namespace sg4 = simgrid::s4u;

/// FabricLab speaks Gb/s, SimGrid bytes per second (FlowSimulator converts the same way).
constexpr double kBytesPerGbit = 1e9 / 8;

/// Bytes each flow carries while its rate is probed: far more than move in the probe
/// interval, and a power of two so the subtraction SimGrid does is as exact as it gets.
constexpr std::uint64_t kProbeBytes = std::uint64_t{1} << 50;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

struct SimGridPeer::Impl {
    const FlowSet* flows = nullptr;
    // Never deleted: SimGrid's engine is a process-wide singleton meant to live until the
    // process exits, and tearing down a million pending communications would only cost time.
    sg4::Engine* engine = nullptr;
    ExplicitRouteZone* zone = nullptr;
    std::vector<sg4::Host*> hosts;                   ///< per NIC; null when no flow uses it
    std::vector<ExplicitRouteZone::LinkImpl*> links; ///< per channel; null when unused
    double fastestLinkBytesPerSecond = 0;
    std::size_t hostCount = 0;
    std::size_t linkCount = 0;
    bool started = false;
    // Held to the end of the process, like the engine: SimGrid prints a backtrace for
    // every communication released before it completed.
    std::vector<sg4::CommPtr> comms;

    void startAll(std::uint64_t bytes) {
        if (started)
            throw std::logic_error("SimGridPeer: the flows were started already");
        started = true;
        comms.reserve(flows->size());
        for (std::size_t f = 0; f < flows->size(); ++f)
            comms.push_back(
                sg4::Comm::sendto_async(hosts[flows->source[f]], hosts[flows->sink[f]], bytes));
    }
};

SimGridPeer::SimGridPeer(const FlowSet& flows, double precision)
    : m_impl(std::make_unique<Impl>()) {
    Impl& d = *m_impl;
    d.flows = &flows;
    if (sg4::Engine::has_instance())
        throw std::logic_error(
            "SimGridPeer: this process has a SimGrid engine already (one per process)");
    d.engine = new sg4::Engine("fabriclab-simgrid-peer");
    // SimGrid logs every configuration change at INFO; only trouble is worth reading.
    xbt_log_control_set("root.thres:warning");
    // Configuration must precede the first zone: creating it instantiates the models.
    d.engine->set_config("network/model:CM02");
    d.engine->set_config("network/crosstraffic:0");
    d.engine->set_config("network/TCP-gamma:0");
    d.engine->set_config("network/latency-factor:1");
    d.engine->set_config("network/bandwidth-factor:1");
    d.engine->set_config("network/weight-S:0");
    d.engine->set_config("maxmin/precision", precision);
    d.engine->set_config("surf/precision", precision);

    // The first zone created becomes the platform's root (and gets the models).
    d.zone = new ExplicitRouteZone("fabric");
    sg4::NetZone* zone = d.zone->get_iface();

    d.hosts.assign(flows.nicCount, nullptr);
    d.links.assign(flows.capacityGbps.size(), nullptr);
    const auto host = [&](std::uint32_t nic) {
        if (d.hosts[nic] == nullptr) {
            // Hosts compute nothing here; any speed will do.
            d.hosts[nic] = zone->create_host("nic" + std::to_string(nic), 1e9);
            ++d.hostCount;
        }
        return d.hosts[nic];
    };
    const auto link = [&](std::uint32_t channel) {
        if (d.links[channel] == nullptr) {
            const double bandwidth = flows.capacityGbps[channel] * kBytesPerGbit;
            d.links[channel] =
                zone->create_link("ch" + std::to_string(channel), bandwidth)->seal()->get_impl();
            d.fastestLinkBytesPerSecond = std::max(d.fastestLinkBytesPerSecond, bandwidth);
            ++d.linkCount;
        }
        return d.links[channel];
    };

    d.zone->reserve(flows.size(), flows.pathChannels.size());
    std::vector<ExplicitRouteZone::LinkImpl*> path;
    for (std::size_t f = 0; f < flows.size(); ++f) {
        const sg4::Host* from = host(flows.source[f]);
        const sg4::Host* to = host(flows.sink[f]);
        path.clear();
        for (const std::uint32_t channel : flows.path(f))
            path.push_back(link(channel));
        if (!d.zone->addRoute(from->get_netpoint(), to->get_netpoint(), path)) {
            // SimGrid routes per host pair: a pair that repeats must repeat its path.
            const auto known = d.zone->route(from->get_netpoint(), to->get_netpoint());
            if (!std::equal(known.begin(), known.end(), path.begin(), path.end()))
                throw std::invalid_argument("SimGridPeer: NICs " + std::to_string(flows.source[f]) +
                                            " -> " + std::to_string(flows.sink[f]) +
                                            " have two different paths");
        }
    }
    zone->seal();
}

SimGridPeer::~SimGridPeer() {
    // See Impl::engine and Impl::comms: both must outlive this object.
    (void)m_impl.release();
}

SimGridPeer::Share SimGridPeer::firstShare() {
    Impl& d = *m_impl;
    Share share;
    if (d.flows->size() == 0)
        return share;
    // No flow is faster than the fastest link, so none moves more than half its bytes.
    const double probe = static_cast<double>(kProbeBytes) / (2 * d.fastestLinkBytesPerSecond);
    const auto start = std::chrono::steady_clock::now();
    d.startAll(kProbeBytes);
    d.engine->run_until(probe);
    share.wallSeconds = secondsSince(start);

    share.rateGbps.resize(d.comms.size());
    for (std::size_t f = 0; f < d.comms.size(); ++f) {
        const double moved = static_cast<double>(kProbeBytes) - d.comms[f]->get_remaining();
        share.rateGbps[f] = moved / probe / kBytesPerGbit;
    }
    return share;
}

SimGridPeer::Drain SimGridPeer::drain(double bytesPerFlow) {
    Impl& d = *m_impl;
    if (!(bytesPerFlow >= 1) || !std::isfinite(bytesPerFlow))
        throw std::invalid_argument("SimGridPeer::drain: a flow needs one byte at least");
    Drain result;
    const auto start = std::chrono::steady_clock::now();
    d.startAll(static_cast<std::uint64_t>(bytesPerFlow));
    d.engine->run();
    result.wallSeconds = secondsSince(start);
    result.makespan = sg4::Engine::get_clock();
    result.finishSeconds.resize(d.comms.size());
    for (std::size_t f = 0; f < d.comms.size(); ++f)
        result.finishSeconds[f] = d.comms[f]->get_finish_time();
    return result;
}

std::size_t SimGridPeer::hostCount() const {
    return m_impl->hostCount;
}
std::size_t SimGridPeer::linkCount() const {
    return m_impl->linkCount;
}

} // namespace fabriclab::bench
