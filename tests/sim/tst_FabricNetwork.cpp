// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Routing on hand-drawn fabrics: adaptive routing must not count a cable twice when
// flows spread unevenly over a switch's uplinks (found in review), and static ECMP must
// hash flows over cables, not over links, when bundles differ in size.
#include "model/catalog/Catalog.hpp"
#include "model/design/Failures.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSolver.hpp"
#include "model/sim/routing/RoutingPolicies.hpp"
#include "support/BuiltinCatalog.hpp"

#include <QtTest>

#include <tuple>

using namespace fabriclab;

namespace {

/// A node of a hand-drawn test fabric; servers get one NIC.
model::NodeId addNamedNode(model::Topology& t, const char* name, model::NodeKind kind) {
    model::Node n;
    n.name = name;
    n.kind = kind;
    n.server.nics = 1;
    return t.addNode(n);
}

/// The max-min fair rates of flows between servers' first NICs over `network`.
std::vector<double>
maxMinRates(const sim::FabricNetwork& network,
            std::initializer_list<std::pair<model::NodeId, model::NodeId>> pairs) {
    const auto solver = sim::makeSolver("heap");
    for (std::uint32_t c = 0; c < network.channelCount(); ++c)
        solver->addConstraint(network.capacityGbps(c));
    std::vector<sim::VariableId> flows;
    for (auto [from, to] : pairs) {
        const auto v = solver->addVariable();
        for (const auto& e : network.route({from, 0}, {to, 0}, 0).elements)
            solver->expand(v, sim::ConstraintId{e.channel}, e.fraction);
        flows.push_back(v);
    }
    solver->solve();
    std::vector<double> rates;
    for (const auto v : flows)
        rates.push_back(solver->rate(v));
    return rates;
}

} // namespace

class tst_FabricNetwork : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void unevenUplinksShareTheirCables();
    void staticEcmpHashesOverCables();
    void aCableRunsAtTheSlowerPort_data();
    void aCableRunsAtTheSlowerPort();
    void twinsRouteAsTheirOwnSpread_data();
    void twinsRouteAsTheirOwnSpread();
    void everyRoutingHasAPolicy();
    void aDegradedCableSlowsEachRouting_data();
    void aDegradedCableSlowsEachRouting();
    void aCopyRoutesAsItsOriginal_data();
    void aCopyRoutesAsItsOriginal();
};

void tst_FabricNetwork::aCableRunsAtTheSlowerPort_data() {
    QTest::addColumn<double>("cable");
    QTest::addColumn<double>("nic");
    QTest::addColumn<double>("port");
    QTest::addColumn<double>("usable"); // min of the three, times 2 cables
    QTest::newRow("800G cable, 400G NIC") << 800.0 << 400.0 << 800.0 << 800.0;
    QTest::newRow("400G cable, 200G switch port") << 400.0 << 400.0 << 200.0 << 400.0;
    QTest::newRow("all 400G") << 400.0 << 400.0 << 400.0 << 800.0;
}

void tst_FabricNetwork::aCableRunsAtTheSlowerPort() {
    QFETCH(double, cable);
    QFETCH(double, nic);
    QFETCH(double, port);
    QFETCH(double, usable);
    model::Topology t;
    model::Node server;
    server.name = "srv";
    server.server.nics = 2;
    server.server.nicSpeed = model::Gbps(nic);
    model::Node leaf;
    leaf.name = "leaf";
    leaf.kind = model::NodeKind::Leaf;
    leaf.sw.portSpeed = model::Gbps(port);
    const auto s = t.addNode(server);
    const auto l = t.addNode(leaf);
    const auto id = t.addLink(model::Link{s, l, model::Gbps(cable), 2});
    QCOMPARE(t.usableCapacity(t.link(id)).value, usable);
    QCOMPARE(t.injectionBandwidth().value, usable);
}

void tst_FabricNetwork::unevenUplinksShareTheirCables() {
    // Leaves A, B, C; spines S1, S2; A and C reach both spines, B only S1. One 400G NIC
    // per server: a1, a2 on A, b1 on B, c1 on C. a1->b1 must cross A-S1; a2->c1 spreads
    // half over A-S1 and half over A-S2. With goodput g = 400 x lineEfficiency per cable,
    // A-S1 carries x1 + x2/2 <= g; raising both together saturates it at 1.5x = g, so
    // both flows get 2g/3 (256 Gb/s on IB NDR at 0.96).
    model::Topology t;
    const auto sw = [&](const char* name, model::NodeKind kind) {
        model::Node n;
        n.name = name;
        n.kind = kind;
        return t.addNode(n);
    };
    const auto server = [&](const char* name) {
        model::Node n;
        n.name = name;
        n.kind = model::NodeKind::Server;
        n.server.nics = 1;
        return t.addNode(n);
    };
    const auto A = sw("A", model::NodeKind::Leaf), B = sw("B", model::NodeKind::Leaf),
               C = sw("C", model::NodeKind::Leaf), S1 = sw("S1", model::NodeKind::Spine),
               S2 = sw("S2", model::NodeKind::Spine);
    const auto a1 = server("a1"), a2 = server("a2"), b1 = server("b1"), c1 = server("c1");
    for (auto [x, y] :
         {std::pair{A, S1}, {A, S2}, {B, S1}, {C, S1}, {C, S2}, {a1, A}, {a2, A}, {b1, B}, {c1, C}})
        t.addLink(model::Link{x, y});
    const model::Fabric fabric = fabriclab::testing::builtinFabric("ib-ndr");
    QVERIFY(fabric.routing == model::Routing::Adaptive);
    const sim::FabricNetwork network(t, fabric);

    const double expected = 2.0 / 3.0 * 400 * fabric.lineEfficiency;
    // Relative 1e-9: only floating-point summation order separates the two.
    for (const double rate : maxMinRates(network, {std::pair{a1, b1}, {a2, c1}}))
        QVERIFY2(qAbs(rate - expected) <= 1e-9 * expected,
                 qPrintable(QStringLiteral("rate %1, expected %2").arg(rate).arg(expected)));
}

void tst_FabricNetwork::staticEcmpHashesOverCables() {
    // Leaves A and B, spines S1 and S2; each leaf has 1 cable to S1 and 3 to S2. Static
    // ECMP picks one of the 4 equal-cost cables, so 3 flows in 4 should cross S2.
    model::Topology t;
    const auto node = [&](const char* name, model::NodeKind kind) {
        return addNamedNode(t, name, kind);
    };
    const auto A = node("A", model::NodeKind::Leaf), B = node("B", model::NodeKind::Leaf),
               S1 = node("S1", model::NodeKind::Spine), S2 = node("S2", model::NodeKind::Spine);
    const auto a1 = node("a1", model::NodeKind::Server), b1 = node("b1", model::NodeKind::Server);
    for (auto [x, y, count] :
         {std::tuple{A, S1, 1}, {A, S2, 3}, {B, S1, 1}, {B, S2, 3}, {a1, A, 1}, {b1, B, 1}})
        t.addLink(model::Link{x, y, model::Gbps(400), count});
    const model::Fabric fabric = fabriclab::testing::builtinFabric("roce-v2");
    QVERIFY(fabric.routing == model::Routing::Ecmp);
    const sim::FabricNetwork network(t, fabric);

    const auto touches = [&](std::uint32_t channel, model::NodeId n) {
        const model::Link& link = t.link(network.linkOf(channel));
        return link.a == n || link.b == n;
    };
    constexpr int kFlows = 4000;
    int viaS2 = 0;
    for (std::uint64_t key = 0; key < kFlows; ++key) {
        const sim::Route route = network.route({a1, 0}, {b1, 0}, key);
        QCOMPARE(route.elements.size(), std::size_t{4}); // NIC, A-spine, spine-B, NIC
        // Both middle cables meet at the same spine: the pick at A decides the path.
        const bool s2 = touches(route.elements[1].channel, S2);
        QVERIFY(touches(route.elements[1].channel, s2 ? S2 : S1));
        QVERIFY(touches(route.elements[2].channel, s2 ? S2 : S1));
        QVERIFY(touches(route.elements[2].channel, B));
        viaS2 += s2 ? 1 : 0;
        // The same flow always takes the same path.
        QCOMPARE(network.route({a1, 0}, {b1, 0}, key).elements[1].channel,
                 route.elements[1].channel);
    }
    // 4,000 independent draws of p = 3/4: one standard deviation is 0.007, so 0.03 is
    // over four of them; a hash that picked links instead of cables would give 1/2.
    QVERIFY2(qAbs(viaS2 / double(kFlows) - 0.75) <= 0.03,
             qPrintable(QStringLiteral("%1 of %2 flows via S2").arg(viaS2).arg(kFlows)));
}

void tst_FabricNetwork::twinsRouteAsTheirOwnSpread_data() {
    QTest::addColumn<QString>("fabric");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("servers");
    QTest::newRow("adaptive fat-tree") << "ib-ndr"
                                       << "fat-tree" << 64;
    QTest::newRow("ECMP fat-tree") << "roce-v2"
                                   << "fat-tree" << 64;
    QTest::newRow("adaptive leaf/spine") << "spectrum-x"
                                         << "leaf-spine" << 16;
}

void tst_FabricNetwork::twinsRouteAsTheirOwnSpread() {
    // Leaves of a pod are twins and route from their representatives' spreads with their
    // own cables put in. Give every cable its own length and there are no twins: each
    // pair is spread from scratch. Both must load the same channels by the same shares,
    // in the same order, for every pair of servers' NICs (the lengths only move latency).
    QFETCH(QString, fabric);
    QFETCH(QString, kind);
    QFETCH(int, servers);
    model::GeneratorParams p;
    p.kind = kind.toStdString();
    p.servers = servers;
    p.nicsPerServer = 2;
    p.leafRadix = 8;
    p.spineRadix = 8;
    p.coreRadix = 8;
    const model::Topology twins = model::generate(p);
    model::Topology unique = twins;
    for (const auto& [id, link] : twins.links()) {
        model::Link changed = link;
        changed.lengthMeters = 2 + 0.001 * id.value;
        unique.replaceLink(id, changed);
    }
    const model::Fabric& spec = testing::builtinFabric(fabric.toStdString());
    const sim::FabricNetwork a(twins, spec, 5);
    const sim::FabricNetwork b(unique, spec, 5);
    QCOMPARE(a.channelCount(), b.channelCount());
    QVERIFY(a.twinnedSwitches() > 0); // the leaves of a pod or block
    QCOMPARE(b.twinnedSwitches(), std::size_t{0});
    const auto& nodes = a.servers();
    int compared = 0;
    for (std::size_t i = 0; i < nodes.size(); i += 3)
        for (std::size_t j = 0; j < nodes.size(); ++j)
            for (int nic = 0; nic < 2; ++nic) {
                const sim::Endpoint from{nodes[i], nic};
                const sim::Endpoint to{nodes[j], nic};
                const sim::Route x = a.route(from, to, 11);
                const sim::Route y = b.route(from, to, 11);
                QCOMPARE(x.elements.size(), y.elements.size());
                for (std::size_t e = 0; e < x.elements.size(); ++e) {
                    QCOMPARE(x.elements[e].channel, y.elements[e].channel);
                    QCOMPARE(x.elements[e].fraction, y.elements[e].fraction);
                }
                QCOMPARE(x.switchHops, y.switchHops);
                ++compared;
            }
    QVERIFY(compared >= 100);
}

void tst_FabricNetwork::everyRoutingHasAPolicy() {
    // The catalog's routings each name a policy in the registry, with its channel layout:
    // ECMP hashes cable by cable, adaptive spreads over bundles and groups.
    for (const auto routing :
         {model::Routing::Ecmp, model::Routing::Adaptive, model::Routing::Spray,
          model::Routing::Valiant, model::Routing::Ugal})
        QVERIFY(sim::routing::routingPolicyFor(routing).routing == routing);
    QVERIFY(!sim::routing::routingPolicyFor(model::Routing::Ecmp).layout.bundleIsOneChannel);
    QVERIFY(sim::routing::routingPolicyFor(model::Routing::Adaptive).layout.groupChannels);
    QVERIFY(sim::routing::routingPolicyFor(model::Routing::Valiant).dragonflyOnly);
    QVERIFY(sim::routing::routingPolicyFor(model::Routing::Ugal).dragonflyOnly);
    QCOMPARE(sim::routing::routingPolicies().size(), std::size_t{5});
}

void tst_FabricNetwork::aDegradedCableSlowsEachRouting_data() {
    // Leaves L1, L2 under spines S1, S2, one cable each; servers x1, x2 on L1 send to y1, y2
    // on L2, one 400G NIC each; one cable on the way through S1 is degraded to a quarter,
    // L1's uplink or S1's downlink to L2. Per cable, goodput g = 400 x lineEfficiency.
    // - Spraying sends each flow half through each spine whatever their state: 2 x r/2 <=
    //   g/4 on the degraded cable, so r = g/4 (96 Gb/s on IB NDR at 0.96).
    // - Adaptive routing shares each flow out by what each spine can deliver to L2, g/4
    //   through S1 and g through S2: 1/5 and 4/5. The degraded cable takes 2r/5 <= g/4 and
    //   the cables through S2 take 8r/5 <= g, so r = 5g/8 (240 Gb/s): the two flows fill
    //   what is left through both spines (g/4 + g), wherever the degraded cable is.
    QTest::addColumn<model::Routing>("routing");
    QTest::addColumn<QString>("degraded");
    QTest::addColumn<sim::FabricNetwork::Grouping>("grouping");
    QTest::addColumn<double>("shareOfGoodput");
    using Grouping = sim::FabricNetwork::Grouping;
    for (const char* degraded : {"L1/S1", "L2/S1"}) {
        const QString element = QString::fromLatin1(degraded);
        QTest::addRow("spraying, %s degraded", degraded)
            << model::Routing::Spray << element << Grouping::Groups << 0.25;
        QTest::addRow("spraying, %s degraded, per cable", degraded)
            << model::Routing::Spray << element << Grouping::PerCable << 0.25;
        QTest::addRow("adaptive, %s degraded", degraded)
            << model::Routing::Adaptive << element << Grouping::Groups << 5.0 / 8;
        QTest::addRow("adaptive, %s degraded, per cable", degraded)
            << model::Routing::Adaptive << element << Grouping::PerCable << 5.0 / 8;
    }
}

void tst_FabricNetwork::aDegradedCableSlowsEachRouting() {
    QFETCH(model::Routing, routing);
    QFETCH(QString, degraded);
    QFETCH(sim::FabricNetwork::Grouping, grouping);
    QFETCH(double, shareOfGoodput);
    model::Topology t;
    const auto node = [&](const char* name, model::NodeKind kind) {
        return addNamedNode(t, name, kind);
    };
    using model::NodeKind;
    const auto L1 = node("L1", NodeKind::Leaf), L2 = node("L2", NodeKind::Leaf),
               S1 = node("S1", NodeKind::Spine), S2 = node("S2", NodeKind::Spine);
    const auto x1 = node("x1", NodeKind::Server), x2 = node("x2", NodeKind::Server),
               y1 = node("y1", NodeKind::Server), y2 = node("y2", NodeKind::Server);
    for (auto [a, b] :
         {std::pair{L1, S1}, {L1, S2}, {L2, S1}, {L2, S2}, {x1, L1}, {x2, L1}, {y1, L2}, {y2, L2}})
        t.addLink(model::Link{a, b});
    model::Failure quarter;
    quarter.element = degraded.toStdString();
    quarter.kind = model::FailureKind::Degraded;
    quarter.capacity = 0.25;
    const model::Topology afterFailure = model::applyFailures(t, {quarter});
    model::Fabric fabric = fabriclab::testing::builtinFabric("ib-ndr");
    fabric.routing = routing;
    const sim::FabricNetwork network(afterFailure, fabric, 0, grouping);

    const double expected = shareOfGoodput * 400 * fabric.lineEfficiency;
    // Relative 1e-9: only floating-point summation order separates the two.
    for (const double rate : maxMinRates(network, {std::pair{x1, y1}, {x2, y2}}))
        QVERIFY2(qAbs(rate - expected) <= 1e-9 * expected,
                 qPrintable(QStringLiteral("rate %1, expected %2").arg(rate).arg(expected)));
}

void tst_FabricNetwork::aCopyRoutesAsItsOriginal_data() {
    QTest::addColumn<QString>("fabric");
    QTest::newRow("ECMP") << "roce-v2";
    QTest::newRow("adaptive") << "ib-ndr";
}

void tst_FabricNetwork::aCopyRoutesAsItsOriginal() {
    // A copy shares the structure and clones the policy with its caches: another thread's
    // copy routes every flow exactly as the original, before and after the original has
    // filled its caches.
    QFETCH(QString, fabric);
    model::GeneratorParams p;
    p.kind = "fat-tree";
    p.servers = 32;
    p.nicsPerServer = 2;
    p.leafRadix = p.spineRadix = p.coreRadix = 8;
    const model::Topology topology = model::generate(p);
    const sim::FabricNetwork original(topology, testing::builtinFabric(fabric.toStdString()), 3);
    const sim::FabricNetwork cold = original; // before any route is cached
    const auto& servers = original.servers();
    for (std::size_t i = 0; i < servers.size(); ++i) {
        const sim::Endpoint from{servers[i], 0};
        const sim::Endpoint to{servers[(i * 7 + 5) % servers.size()], 1};
        (void)original.route(from, to, i);
    }
    const sim::FabricNetwork warm = original; // caches copied with the policy
    for (std::size_t i = 0; i < servers.size(); ++i) {
        const sim::Endpoint from{servers[i], 0};
        const sim::Endpoint to{servers[(i * 7 + 5) % servers.size()], 1};
        const sim::Route expected = original.route(from, to, i);
        for (const sim::FabricNetwork* copy : {&cold, &warm}) {
            const sim::Route got = copy->route(from, to, i);
            QCOMPARE(got.elements.size(), expected.elements.size());
            for (std::size_t e = 0; e < got.elements.size(); ++e) {
                QCOMPARE(got.elements[e].channel, expected.elements[e].channel);
                QCOMPARE(got.elements[e].fraction, expected.elements[e].fraction);
            }
            QCOMPARE(got.switchHops, expected.switchHops);
        }
    }
}

QTEST_APPLESS_MAIN(tst_FabricNetwork)
#include "tst_FabricNetwork.moc"
