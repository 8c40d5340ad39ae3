// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// SimGrid, the established flow-level simulator, given the same flows as FabricLab: the
// peer the benchmark times FabricLab against and the cross-check suite checks it against.
// SimGrid's headers stay behind this interface (pimpl), so users need not compile them.
#pragma once

#include "bench/FlowSet.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace fabriclab::bench {

/// Each NIC is a SimGrid host, each channel a link of the channel's capacity, and each
/// flow a communication whose route is exactly its FabricLab path. SimGrid runs its CM02
/// model with every correction off, which leaves pure weighted max-min sharing with all
/// weights 1 (what FabricLab's solver computes for FlowSimulator's flows):
///  - network/crosstraffic 0: CM02 otherwise loads 5% of a flow on its reverse path (ACKs);
///  - network/TCP-gamma 0: no TCP window bound gamma / (2 x RTT) on a flow's rate;
///  - network/latency-factor 1, network/bandwidth-factor 1 and zero link latency: no
///    slow-start corrections, and every flow shares from time 0;
///  - network/weight-S 0: flows are not weighted by their round-trip time.
///
/// SimGrid allows one engine per process, living until the process exits: create one
/// peer per process, in a child (runInChild), and start its flows once.
class SimGridPeer {
public:
    /// Default for maxmin/precision and surf/precision, both 1e-5 in SimGrid. surf/precision
    /// is a time: SimGrid finishes together every flow due within that many seconds of the
    /// current event, which at 1e-5 moved finish times of a 4,096-GPU 3:1 permutation drain
    /// by up to 10 us (5e-4 of its makespan). maxmin/precision calls a link saturated once
    /// less than precision x bandwidth remains, which moves rates when fair levels nearly
    /// tie. 1e-13 still absorbs the rounding of repeated subtractions (~1e-16 relative
    /// each), so events and saturations are still recognized, while moving nothing by more
    /// than ~1e-13: far inside a 1e-9 comparison.
    static constexpr double kExactPrecision = 1e-13;

    /// Creates this process's SimGrid engine and the platform: hosts, links and routes.
    /// Throws std::logic_error when the process already has a SimGrid engine.
    explicit SimGridPeer(const FlowSet& flows, double precision = kExactPrecision);
    /// Leaves the engine, the platform and the communications to the process exit: the
    /// engine cannot be recreated anyway, and SimGrid complains (with a backtrace) about
    /// every communication released before it completed.
    ~SimGridPeer();
    SimGridPeer(const SimGridPeer&) = delete;
    SimGridPeer& operator=(const SimGridPeer&) = delete;

    struct Share {
        std::vector<double> rateGbps; ///< per flow, in FlowSet order
        double wallSeconds = 0;       ///< starting every flow plus SimGrid's first share
    };
    /// Starts every flow with far more bytes than can move in a probe interval, lets
    /// SimGrid share the fabric and advance to the probe time (one share computation, no
    /// flow finishing), and reads each flow's rate back as bytes moved / time. SimGrid 3.32
    /// exposes no rate of a communication, only its remaining bytes; the probe interval is
    /// chosen so that every flow moves at least a fraction rate/fastest-link/2 of its
    /// bytes, keeping the rounding of remaining bytes near 1e-16 relative of that.
    Share firstShare();

    struct Drain {
        std::vector<double> finishSeconds; ///< per flow, simulated
        double makespan = 0;               ///< simulated seconds until the last flow finished
        double wallSeconds = 0;            ///< starting every flow plus SimGrid's run to the end
    };
    /// Starts every flow with `bytesPerFlow` and runs SimGrid until all have finished.
    Drain drain(double bytesPerFlow);

    std::size_t hostCount() const;
    std::size_t linkCount() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace fabriclab::bench
