// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Routing on hand-drawn fabrics: adaptive routing must not count a cable twice when
// flows spread unevenly over a switch's uplinks (found in review).
#include "model/catalog/Catalog.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSolver.hpp"

#include <QtTest>

using namespace fabriclab;

class tst_FabricNetwork : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void unevenUplinksShareTheirCables();
    void aCableRunsAtTheSlowerPort_data();
    void aCableRunsAtTheSlowerPort();
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
    const model::Fabric fabric = *model::Catalog::builtin().findFabric("ib-ndr");
    QVERIFY(fabric.routing == model::Routing::Adaptive);
    const sim::FabricNetwork network(t, fabric);

    const auto solver = sim::makeSolver("heap");
    for (std::uint32_t c = 0; c < network.channelCount(); ++c)
        solver->addConstraint(network.capacityGbps(c));
    std::vector<sim::VariableId> flows;
    for (auto [from, to] : {std::pair{a1, b1}, {a2, c1}}) {
        const auto v = solver->addVariable();
        for (const auto& e : network.route({from, 0}, {to, 0}, 0).elements)
            solver->expand(v, sim::ConstraintId{e.channel}, e.fraction);
        flows.push_back(v);
    }
    solver->solve();
    const double expected = 2.0 / 3.0 * 400 * fabric.lineEfficiency;
    // Relative 1e-9: only floating-point summation order separates the two.
    for (const auto v : flows)
        QVERIFY2(
            qAbs(solver->rate(v) - expected) <= 1e-9 * expected,
            qPrintable(QStringLiteral("rate %1, expected %2").arg(solver->rate(v)).arg(expected)));
}

QTEST_APPLESS_MAIN(tst_FabricNetwork)
#include "tst_FabricNetwork.moc"
