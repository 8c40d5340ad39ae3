// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Tallies of a generated fabric for the generator suites. "Which tier is this link in" is
// defined once here, so the leaf-spine and fat-tree suites cannot disagree on what counts
// as a server, leaf-spine or spine-core cable.
#pragma once

#include "model/topology/Topology.hpp"

#include <QString>
#include <QStringList>

#include <set>
#include <string>
#include <vector>

namespace fabriclab::testing {

/// Where a link sits: the engine's own classification (Topology::tierOf). Anything
/// touching a server is a server link; "Other" is a link no generator should build.
using model::LinkTier;

inline LinkTier linkTier(const model::Topology& t, const model::Link& link) {
    return t.tierOf(link);
}

/// Tally of a generated fabric, tier by tier. "Links" count Link entries, "cables" sum
/// Link::count over them, because generators bundle parallel cables into one link.
struct Census {
    int servers = 0;
    int leaves = 0;
    int spines = 0;
    int cores = 0;
    int pods = 0; ///< distinct Placement::pod values among the servers
    int serverLinks = 0;
    int serverCables = 0;
    int leafSpineLinks = 0;
    int leafSpineCables = 0;
    int spineCoreLinks = 0;
    int spineCoreCables = 0;
    int otherLinks = 0;
};

inline Census census(const model::Topology& t) {
    using model::NodeKind;
    Census c;
    std::set<int> serverPods;
    for (const auto& [id, node] : t.nodes()) {
        c.servers += node.kind == NodeKind::Server;
        c.leaves += node.kind == NodeKind::Leaf;
        c.spines += node.kind == NodeKind::Spine;
        c.cores += node.kind == NodeKind::Core;
        if (node.kind == NodeKind::Server)
            serverPods.insert(node.placement.pod);
    }
    c.pods = static_cast<int>(serverPods.size());
    for (const auto& [id, link] : t.links()) {
        switch (linkTier(t, link)) {
        case LinkTier::Server:
            ++c.serverLinks;
            c.serverCables += link.count;
            break;
        case LinkTier::LeafSpine:
            ++c.leafSpineLinks;
            c.leafSpineCables += link.count;
            break;
        case LinkTier::SpineCore:
            ++c.spineCoreLinks;
            c.spineCoreCables += link.count;
            break;
        case LinkTier::Other:
            ++c.otherLinks;
            break;
        }
    }
    return c;
}

/// Topology::problems() as one line, so a failed QVERIFY2 shows every problem at once.
inline QString joined(const std::vector<std::string>& lines) {
    QStringList list;
    for (const auto& line : lines)
        list << QString::fromStdString(line);
    return list.join(QStringLiteral("; "));
}

} // namespace fabriclab::testing
