// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/design/Failures.hpp"

#include "model/core/EnumNames.hpp"
#include "model/core/TextFormat.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <utility>

namespace fabriclab::model {
namespace {

constexpr std::array<std::pair<FailureKind, std::string_view>, 2> kKinds{{
    {FailureKind::Down, "down"},
    {FailureKind::Degraded, "degraded"},
}};

constexpr std::string_view kRailPrefix = "rail-";
constexpr std::string_view kPlanePrefix = "plane-";

/// N of "<prefix>N", N >= 1; nullopt for anything else.
std::optional<int> numbered(std::string_view prefix, std::string_view element) {
    if (!element.starts_with(prefix))
        return std::nullopt;
    const std::string_view digits = element.substr(prefix.size());
    int number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (error != std::errc() || end != digits.data() + digits.size() || number < 1)
        return std::nullopt;
    return number;
}

/// The link at `share` of its capacity (the reader keeps shares inside (0, 1)).
Link degraded(Link link, double share) {
    link.speed = Gbps{link.speed.value * share};
    return link;
}

} // namespace

std::string_view toString(FailureKind kind) {
    return enumName(kKinds, kind);
}

std::optional<FailureKind> failureKindFromString(std::string_view text) {
    return enumValue<FailureKind>(kKinds, text);
}

std::string linkElement(const Topology& topology, const Link& link) {
    return topology.node(link.a).name + "/" + topology.node(link.b).name;
}

std::string railElement(int rail) {
    return std::string(kRailPrefix) + std::to_string(rail + 1);
}

std::string planeElement(int plane) {
    return std::string(kPlanePrefix) + std::to_string(plane + 1);
}

ElementIndex::ElementIndex(const Topology& topology) : m_topology(topology) {
    for (const auto& [id, link] : topology.links()) {
        m_between[std::minmax(link.a.value, link.b.value)].push_back(id);
        m_attached[link.a.value].push_back(id);
        m_attached[link.b.value].push_back(id);
    }
}

const std::vector<LinkId>& ElementIndex::linksOf(NodeId node) const {
    static const std::vector<LinkId> kNone;
    const auto found = m_attached.find(node.value);
    return found == m_attached.end() ? kNone : found->second;
}

std::optional<FailureTarget> ElementIndex::resolve(std::string_view element) const {
    FailureTarget target;
    if (const auto node = m_topology.findNode(element)) {
        target.nodes.push_back(*node);
        return target;
    }
    if (const auto rail = numbered(kRailPrefix, element)) {
        for (const auto& [id, node] : m_topology.nodes())
            if (node.kind == NodeKind::Leaf && node.placement.rail == *rail - 1)
                target.nodes.push_back(id);
        return target.nodes.empty() ? std::nullopt : std::optional(target);
    }
    if (const auto plane = numbered(kPlanePrefix, element)) {
        for (const auto& [id, node] : m_topology.nodes())
            if (isSwitch(node.kind) && node.placement.plane == *plane - 1)
                target.nodes.push_back(id);
        return target.nodes.empty() ? std::nullopt : std::optional(target);
    }
    const auto slash = element.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    const auto a = m_topology.findNode(element.substr(0, slash));
    const auto b = m_topology.findNode(element.substr(slash + 1));
    if (!a || !b)
        return std::nullopt;
    const auto found = m_between.find(std::minmax(a->value, b->value));
    if (found == m_between.end())
        return std::nullopt;
    target.links = found->second;
    return target;
}

std::optional<FailureTarget> resolveElement(const Topology& topology, std::string_view element) {
    return ElementIndex(topology).resolve(element);
}

Topology applyFailures(const Topology& topology, const std::vector<Failure>& failures) {
    const ElementIndex index(topology);
    Topology left = topology;
    for (const Failure& failure : failures) {
        const auto target = index.resolve(failure.element);
        if (!target)
            throw std::invalid_argument("failure of \"" + failure.element +
                                        "\": the design has no such node, link, rail or plane");
        for (const NodeId id : target->nodes) {
            if (failure.kind == FailureKind::Down) {
                left.removeNode(id);
                continue;
            }
            for (const LinkId linkId : index.linksOf(id))
                if (left.links().count(linkId))
                    left.replaceLink(linkId, degraded(left.link(linkId), failure.capacity));
        }
        for (const LinkId id : target->links) {
            if (!left.links().count(id))
                continue; // gone with a failed node
            const Link& link = left.link(id);
            if (failure.kind == FailureKind::Degraded) {
                left.replaceLink(id, degraded(link, failure.capacity));
            } else if (failure.cables > 0 && failure.cables < link.count) {
                Link fewer = link;
                fewer.count -= failure.cables;
                left.replaceLink(id, fewer);
            } else {
                left.removeLink(id);
            }
        }
    }
    return left;
}

FailedElements failedElements(const Topology& topology, const std::vector<Failure>& failures) {
    FailedElements failed;
    if (failures.empty())
        return failed;
    const ElementIndex index(topology);
    for (const Failure& failure : failures) {
        const auto target = index.resolve(failure.element);
        if (!target)
            continue;
        const bool down = failure.kind == FailureKind::Down;
        for (const NodeId id : target->nodes) {
            (down ? failed.nodesDown : failed.nodesDegraded).insert(id);
            for (const LinkId link : index.linksOf(id))
                (down ? failed.linksDown : failed.linksDegraded).insert(link);
        }
        for (const LinkId id : target->links) {
            const bool whole =
                down && (failure.cables == 0 || failure.cables >= topology.link(id).count);
            (whole ? failed.linksDown : failed.linksDegraded).insert(id);
        }
    }
    for (const LinkId id : failed.linksDown)
        failed.linksDegraded.erase(id);
    for (const NodeId id : failed.nodesDown)
        failed.nodesDegraded.erase(id);
    return failed;
}

Topology afterFailures(const Topology& topology, const std::vector<Failure>& failures,
                       std::vector<Failure>* setAside) {
    const ElementIndex index(topology);
    std::vector<Failure> applicable;
    for (const Failure& failure : failures) {
        if (index.resolve(failure.element))
            applicable.push_back(failure);
        else if (setAside)
            setAside->push_back(failure);
    }
    return applyFailures(topology, applicable);
}

std::vector<Failure> loseOneSpine(const Topology& topology) {
    for (const NodeKind kind : {NodeKind::Spine, NodeKind::Core})
        for (const auto& [id, node] : topology.nodes())
            if (node.kind == kind)
                return {Failure{node.name, FailureKind::Down, 0, 1}};
    return {};
}

namespace {

/// The lowest `field` of any node `counts`, as `element` names it, down; nothing when no node
/// has one.
std::vector<Failure> loseLowest(const Topology& topology, bool (*counts)(NodeKind),
                                int Placement::*field, std::string (*element)(int)) {
    int first = -1;
    for (const auto& [id, node] : topology.nodes())
        if (counts(node.kind) && node.placement.*field >= 0)
            first = first < 0 ? node.placement.*field : std::min(first, node.placement.*field);
    if (first < 0)
        return {};
    return {Failure{element(first), FailureKind::Down, 0, 1}};
}

} // namespace

std::vector<Failure> loseOneRail(const Topology& topology) {
    return loseLowest(
        topology, [](NodeKind kind) { return kind == NodeKind::Leaf; }, &Placement::rail,
        railElement);
}

std::vector<Failure> loseOnePlane(const Topology& topology) {
    return loseLowest(topology, isSwitch, &Placement::plane, planeElement);
}

std::vector<Failure> loseLinksAtRandom(const Topology& topology, double share, std::uint64_t seed) {
    // Every switch-to-switch cable gets a draw; a cable fails when its draw falls under
    // `share`. SplitMix64 keeps the draw a pure function of (seed, link, cable), so the
    // scenario is the same on every machine and after every save.
    const auto draw = [seed](std::uint64_t link, std::uint64_t cable) {
        std::uint64_t z = seed ^ (link * 0x9E3779B97F4A7C15ULL) ^ (cable << 32);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        return static_cast<double>(z >> 11) / static_cast<double>(1ULL << 53);
    };
    std::vector<Failure> failures;
    for (const auto& [id, link] : topology.links()) {
        if (topology.tierOf(link) == LinkTier::Server)
            continue;
        int down = 0;
        for (int cable = 0; cable < link.count; ++cable)
            down += draw(id.value, static_cast<std::uint64_t>(cable)) < share ? 1 : 0;
        if (down > 0)
            failures.push_back(Failure{linkElement(topology, link), FailureKind::Down,
                                       down < link.count ? down : 0, 1});
    }
    return failures;
}

std::string describe(const Failure& failure) {
    if (failure.kind == FailureKind::Degraded)
        return failure.element + " at " + fixed(100 * failure.capacity, 0) + "%";
    if (failure.cables > 0)
        return failure.element + ": " + std::to_string(failure.cables) +
               (failure.cables == 1 ? " cable down" : " cables down");
    return failure.element + " down";
}

} // namespace fabriclab::model
