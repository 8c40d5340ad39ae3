// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <optional>

namespace fabriclab::model {

/// The wide-area links that join the sites. Sites sit on a ring, so each has a span to the
/// next (two sites share a single span): a ring all-reduce then sends over every span at once.
struct WanLinks {
    double gbps = 100;     ///< one circuit, each direction
    double latencyMs = 10; ///< one way, from a site to the next
    int links = 1;         ///< circuits per span
    /// The lease of one circuit; the WAN is left unpriced (and the report says so) without it.
    std::optional<double> usdPerLinkMonth;

    friend bool operator==(const WanLinks&, const WanLinks&) = default;
};

/// DiLoCo's outer loop (Douillard et al. 2023): every replica takes `innerSteps` steps on
/// its own, then the sites average their parameter deltas in one all-reduce over the WAN.
struct OuterSync {
    int innerSteps = 500; ///< H: the paper's choice
    /// Bits per parameter of the outer gradients on the wire: 32 as the paper sends them,
    /// 16 (OpenDiLoCo), 8 (INTELLECT-1) or 4 (Streaming DiLoCo's E3M0).
    int payloadBits = 16;
    /// Inner steps the outer all-reduce may run behind (Streaming DiLoCo's tau): only its
    /// time beyond that many steps stalls the replicas. 0: the replicas wait for it.
    int overlapSteps = 0;

    friend bool operator==(const OuterSync&, const OuterSync&) = default;
};

/// Training across sites: `count` copies of the design's fabric, one replica of the
/// workload each, joined by WAN links. The design's topology and workload are one site.
struct Sites {
    int count = 2;
    WanLinks wan;
    OuterSync outer;

    /// Spans on the ring of sites: one between two sites, else one per site.
    int spans() const { return count == 2 ? 1 : count; }
    int circuits() const { return spans() * wan.links; }

    friend bool operator==(const Sites&, const Sites&) = default;
};

} // namespace fabriclab::model
