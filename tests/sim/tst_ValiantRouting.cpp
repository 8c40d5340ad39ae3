// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Valiant routing on a dragonfly+ (model/sim/routing/ValiantRouting): a flow between two
// groups detours through a random switch with global links in a third group, so it crosses
// exactly two global links where the minimal route crosses one; the detours spread evenly
// over the other groups; inside a group, and on fabrics without three groups, it is ECMP.
#include "model/fabric/Generators.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/routing/ValiantRouting.hpp"
#include "support/BuiltinCatalog.hpp"

#include <QtTest>

#include <map>

using namespace fabriclab;

namespace {

/// 1,024 GPUs in a dragonfly+ of `groups` groups (128 servers of 8 NICs, radix 64).
model::Topology dragonfly(int groups) {
    model::GeneratorParams p;
    p.kind = "dragonfly";
    p.servers = 128;
    p.extra["groups"] = groups;
    return model::generate(p);
}

model::Fabric routedBy(model::Routing routing) {
    model::Fabric fabric = testing::builtinFabric("ib-ndr");
    fabric.routing = routing;
    return fabric;
}

/// The global links (spine to spine of another group) a route crosses, and the groups
/// whose spines it passes.
struct Crossing {
    int globalLinks = 0;
    std::map<int, int> spinesByGroup;
};

Crossing crossingOf(const sim::FabricNetwork& network, const sim::Route& route) {
    const model::Topology& t = network.topology();
    Crossing c;
    for (const sim::PathElement& e : route.elements) {
        const model::Link& link = t.link(network.linkOf(e.channel));
        const model::Node& a = t.node(link.a);
        const model::Node& b = t.node(link.b);
        if (a.kind == model::NodeKind::Spine && b.kind == model::NodeKind::Spine)
            ++c.globalLinks;
    }
    return c;
}

/// The group of a server's first NIC's switch.
int groupOf(const model::Topology& t, model::NodeId server) {
    return t.node(server).placement.pod;
}

} // namespace

class tst_ValiantRouting : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void groupsAreFoundFromGlobalLinks();
    void betweenGroupsTwoGlobalLinks();
    void detoursSpreadOverTheOtherGroups();
    void insideAGroupItIsEcmp();
};

void tst_ValiantRouting::groupsAreFoundFromGlobalLinks() {
    QCOMPARE(sim::routing::dragonflyGroups(dragonfly(4)), 4);
    // Two groups leave no third to detour through; a fat-tree has no global links.
    QCOMPARE(sim::routing::dragonflyGroups(dragonfly(2)), 0);
    model::GeneratorParams fatTree;
    fatTree.kind = "fat-tree";
    fatTree.servers = 128;
    QCOMPARE(sim::routing::dragonflyGroups(model::generate(fatTree)), 0);
}

void tst_ValiantRouting::betweenGroupsTwoGlobalLinks() {
    const model::Topology topology = dragonfly(4);
    const sim::FabricNetwork network(topology, routedBy(model::Routing::Valiant));
    const sim::FabricNetwork minimal(topology, routedBy(model::Routing::Ecmp));
    const auto& servers = network.servers();
    int between = 0;
    for (std::size_t i = 0; i < servers.size(); ++i) {
        const model::NodeId from = servers[i];
        const model::NodeId to = servers[(i * 37 + 11) % servers.size()];
        if (groupOf(topology, from) == groupOf(topology, to))
            continue;
        ++between;
        // Leaf, spine, (global) spine of the third group, (global) spine, leaf: 5 switches
        // against the minimal route's 4.
        const sim::Route route = network.route({from, 0}, {to, 0}, i);
        QCOMPARE(crossingOf(network, route).globalLinks, 2);
        QCOMPARE(route.switchHops, 5);
        QCOMPARE(crossingOf(minimal, minimal.route({from, 0}, {to, 0}, i)).globalLinks, 1);
    }
    QVERIFY(between > 64);
}

void tst_ValiantRouting::detoursSpreadOverTheOtherGroups() {
    // From group 0 to group 1 of 4, the detour is group 2 or 3, each for about half the
    // flows: 4,000 keys, each share within 4 standard deviations of 1/2 (sqrt(0.25 / 4000)
    // = 0.0079, so 0.032).
    const model::Topology topology = dragonfly(4);
    const sim::FabricNetwork network(topology, routedBy(model::Routing::Valiant));
    model::NodeId from{}, to{};
    for (const model::NodeId s : network.servers()) {
        if (groupOf(topology, s) == 0)
            from = s;
        if (groupOf(topology, s) == 1)
            to = s;
    }
    std::map<int, int> detours;
    constexpr int kKeys = 4000;
    for (int key = 0; key < kKeys; ++key) {
        const sim::Route route = network.route({from, 0}, {to, 0}, static_cast<std::uint64_t>(key));
        for (const sim::PathElement& e : route.elements) {
            const model::Link& link = topology.link(network.linkOf(e.channel));
            for (const model::NodeId end : {link.a, link.b}) {
                const model::Node& n = topology.node(end);
                if (n.kind == model::NodeKind::Spine && n.placement.pod != 0 &&
                    n.placement.pod != 1) {
                    ++detours[n.placement.pod];
                    break;
                }
            }
        }
    }
    QCOMPARE(detours.size(), std::size_t{2});
    for (const auto& [group, count] : detours) {
        // Each detour spine is the end of two links on the route: count / 2 flows.
        const double share = count / 2.0 / kKeys;
        QVERIFY2(std::abs(share - 0.5) < 0.032, qPrintable(QString::number(share)));
    }
}

void tst_ValiantRouting::insideAGroupItIsEcmp() {
    const model::Topology topology = dragonfly(4);
    const sim::FabricNetwork network(topology, routedBy(model::Routing::Valiant));
    const sim::FabricNetwork minimal(topology, routedBy(model::Routing::Ecmp));
    const auto& servers = network.servers();
    for (std::size_t i = 0; i + 1 < servers.size(); ++i) {
        if (groupOf(topology, servers[i]) != groupOf(topology, servers[i + 1]))
            continue;
        const sim::Route a = network.route({servers[i], 0}, {servers[i + 1], 3}, i);
        const sim::Route b = minimal.route({servers[i], 0}, {servers[i + 1], 3}, i);
        QCOMPARE(a.elements.size(), b.elements.size());
        for (std::size_t e = 0; e < a.elements.size(); ++e)
            QCOMPARE(a.elements[e].channel, b.elements[e].channel);
    }
}

QTEST_APPLESS_MAIN(tst_ValiantRouting)
#include "tst_ValiantRouting.moc"
