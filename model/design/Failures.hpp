// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Topology.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

enum class FailureKind { Down, Degraded };

std::string_view toString(FailureKind kind);
std::optional<FailureKind> failureKindFromString(std::string_view text);

/// One failed or degraded element of a design, named as a user names it: a node
/// ("spine-1"), a link by its two ends ("leaf-3/spine-2"), or a whole rail ("rail-4": every
/// leaf of that rail). Kept in the design file, so a what-if scenario can be saved, shown
/// again and run by `fabriclab-cli run`.
struct Failure {
    std::string element;
    FailureKind kind = FailureKind::Down;
    /// Links that are down: how many of their cables fail (one NIC of a server, say);
    /// 0 means all of them.
    int cables = 0;
    /// Degraded elements: the share of capacity left, in (0, 1).
    double capacity = 1;

    friend bool operator==(const Failure&, const Failure&) = default;
};

/// The nodes and links an element id stands for.
struct FailureTarget {
    std::vector<NodeId> nodes;
    std::vector<LinkId> links;
};

/// Looks element ids up in one topology. Built once per list of failures: a scenario that
/// fails 5% of a 16K-GPU fabric's links names thousands of them, and finding each by a walk
/// over every link would cost seconds where the index costs one pass.
class ElementIndex {
public:
    explicit ElementIndex(const Topology& topology);
    /// What `element` names; nullopt when nothing carries that id.
    std::optional<FailureTarget> resolve(std::string_view element) const;
    /// Links attached to a node.
    const std::vector<LinkId>& linksOf(NodeId node) const;

private:
    const Topology& m_topology;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<LinkId>> m_between;
    std::map<std::uint32_t, std::vector<LinkId>> m_attached;
};

/// What `element` names in `topology`; nullopt when nothing carries that id. For one id;
/// use an ElementIndex for many.
std::optional<FailureTarget> resolveElement(const Topology& topology, std::string_view element);
/// The id a link is failed by: its ends' names, "a/b".
std::string linkElement(const Topology& topology, const Link& link);
/// The id of a rail (0-based in placements, 1-based for people): "rail-4".
std::string railElement(int rail);
/// The id of a NIC-port plane (Placement::plane, 0-based; 1-based for people): "plane-2",
/// every switch of that plane.
std::string planeElement(int plane);

/// The fabric left when the failures happen: failed nodes leave with their links, failed
/// cables leave their links (a link with none left goes), degraded elements keep their
/// share of capacity. Ids of what remains are unchanged, so results still name the
/// design's links. Throws std::invalid_argument naming a failure whose element the
/// topology lacks.
Topology applyFailures(const Topology& topology, const std::vector<Failure>& failures);

/// How each element fares under a list of failures, for drawing it: down (gone from the
/// run) or degraded (there, with less: fewer cables or less capacity).
struct FailedElements {
    std::set<NodeId> nodesDown;
    std::set<NodeId> nodesDegraded;
    std::set<LinkId> linksDown;
    std::set<LinkId> linksDegraded;
    bool empty() const {
        return nodesDown.empty() && nodesDegraded.empty() && linksDown.empty() &&
               linksDegraded.empty();
    }
};
/// Failures whose element the topology lacks are left out.
FailedElements failedElements(const Topology& topology, const std::vector<Failure>& failures);

/// The fabric as it runs: applyFailures with the failures whose element the topology has
/// (an edit may have removed one since); `setAside` receives the others.
Topology afterFailures(const Topology& topology, const std::vector<Failure>& failures,
                       std::vector<Failure>* setAside = nullptr);

/// Ready-made what-if scenarios a presenter picks from a list. Each returns the failures
/// to add (empty when the design has nothing of that kind).
/// The first spine (or, without spines, the first core) down.
std::vector<Failure> loseOneSpine(const Topology& topology);
/// Every leaf of the first rail down.
std::vector<Failure> loseOneRail(const Topology& topology);
/// Every switch of the first NIC-port plane down ("plane-1"): each multiplane NIC loses one
/// port; empty without such planes.
std::vector<Failure> loseOnePlane(const Topology& topology);
/// `share` of the switch-to-switch cables down, picked by `seed` so a scenario replays the
/// same way: whole links where all their cables are picked, else the picked cables.
std::vector<Failure> loseLinksAtRandom(const Topology& topology, double share, std::uint64_t seed);

/// "spine-1 down", "leaf-3/spine-2: 1 cable down", "rail-2 at 50%".
std::string describe(const Failure& failure);

} // namespace fabriclab::model
