// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/layout/LevelOfDetail.hpp"
#include "model/topology/Topology.hpp"
#include "views/canvas/CanvasTool.hpp"

#include <QString>

namespace fabriclab::views {

/// What a design's pods and blocks of spines are called (CanvasText::nounsOf).
struct CanvasNouns {
    /// A dragonfly's pods are its groups (they have global links between them).
    bool podsAreGroups = false;
    /// A block of spines serves one rail (a SuperPOD's spine-leaf groups, whose spines carry
    /// their rail), rather than being a plane.
    bool spinesServeRails = false;
    /// Every server is a rack-scale NVLink domain (NVL36, NVL72: 32 GPUs or more, more than
    /// one tray holds), so the server tier is a tier of racks.
    bool serversAreRacks = false;
};

/// The words the canvas shows: block labels, hover tooltips and tool hints. Tooltips are
/// composed from the model when asked, so they are never stale.
class CanvasText {
public:
    using Nouns = CanvasNouns;
    static Nouns nounsOf(const model::Topology& topology);

    /// "unit 3": one-based, like node names.
    static QString groupTitle(model::GroupKey key, Nouns nouns = {});
    /// A tier row's label: "Spines · 512".
    static QString tierLabel(model::NodeKind kind, int count, Nouns nouns = {});
    /// The title cut to what a narrow card can show: "P3" for pod 3, "U12" for unit 12.
    static QString groupShortTitle(model::GroupKey key, Nouns nouns = {});
    /// A count as every figure of the app is written, thousands grouped: "1,024".
    static QString count(long long n);
    /// "800 Gb/s", "3.2 Tb/s", "1.6 Pb/s".
    static QString rate(model::Gbps rate);
    /// "32 servers, 8 leaves"
    static QString blockCounts(const model::Block& block);
    /// "256 GPUs"
    static QString blockGpus(const model::Block& block);
    /// GPUs in as few characters as honest: "1,024" stays, 16,384 becomes "16K".
    static QString blockGpusShort(const model::Block& block);
    /// The name of a drawn endpoint: a node's name or a group's title.
    static QString endpointName(const model::Topology& topology, const model::Endpoint& endpoint);

    static QString nodeToolTip(const model::Topology& topology, model::NodeId id);
    static QString blockToolTip(const model::Block& block, Nouns nouns = {});
    /// Speed x count per kind of cable, medium, endpoints and summed capacity.
    static QString edgeToolTip(const model::Topology& topology, const model::Edge& edge);
    /// What a tool does, for the status bar when it is picked.
    static QString toolHint(CanvasTool tool);
    /// What a node placed by hand got, for the status bar: "srv-3 placed: 8 GPUs,
    /// 8 × 400 Gb/s NICs — edit in the Inspector"; a switch's ports and speed.
    static QString placed(const model::Topology& topology, model::NodeId id);
};

} // namespace fabriclab::views
