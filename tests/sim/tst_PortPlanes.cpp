// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Multiplane NICs (generator `portsPerNic`, model/fabric/PortPlanes, FabricNetwork's ports):
// each NIC's P ports go to P independent planes at the NIC speed / P, every plane holding
// every rail, and a flow is split evenly over the planes. Counts are worked by hand below;
// the flow figures are held against the same servers on one plane of whole-speed NICs,
// which the split must neither beat (the NIC's line rate is the bound) nor lose to.
#include "model/analysis/Bisection.hpp"
#include "model/design/Failures.hpp"
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/FabricComparison.hpp"
#include "model/report/RunReport.hpp"
#include "model/sim/EffectiveBisection.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSimulator.hpp"
#include "support/BuiltinCatalog.hpp"
#include "support/TopologyCounts.hpp"

#include <QtTest>

#include <set>

using namespace fabriclab;
using model::NodeKind;

namespace {

/// A rail-optimized leaf-spine of `servers` servers with 8 NICs of `nicGbps`, each NIC split
/// into `ports` planes, switches of `radix` ports at the plane's speed, 1:1.
model::GeneratorParams request(int servers, double nicGbps, int ports, int radix) {
    model::GeneratorParams p;
    p.kind = "leaf-spine";
    p.servers = servers;
    p.nicsPerServer = 8;
    p.nicSpeed = model::Gbps(nicGbps);
    p.leafRadix = radix;
    p.spineRadix = radix;
    if (ports > 1)
        p.portsPerNic = ports;
    return p;
}

/// Switches of each plane (Placement::plane), by tier.
std::map<int, testing::Census> censusByPlane(const model::Topology& t) {
    std::map<int, testing::Census> planes;
    for (const auto& [id, node] : t.nodes()) {
        if (node.kind == NodeKind::Server)
            continue;
        testing::Census& c = planes[node.placement.plane];
        c.leaves += node.kind == NodeKind::Leaf;
        c.spines += node.kind == NodeKind::Spine;
        c.cores += node.kind == NodeKind::Core;
    }
    return planes;
}

/// The plane of the switch end of every link a route loads (-1 for none found).
std::set<int> planesOf(const sim::FabricNetwork& network, const sim::Route& route,
                       std::size_t first, std::size_t last) {
    std::set<int> planes;
    const model::Topology& t = network.topology();
    for (std::size_t i = first; i < last; ++i)
        for (const model::LinkId id : network.linksOf(route.elements[i].channel)) {
            const model::Link& link = t.link(id);
            const model::Node& a = t.node(link.a);
            planes.insert(a.kind == NodeKind::Server ? t.node(link.b).placement.plane
                                                     : a.placement.plane);
        }
    return planes;
}

} // namespace

class tst_PortPlanes : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void countsByHand_data();
    void countsByHand();
    void refusesImpossibleSplits_data();
    void refusesImpossibleSplits();
    void routeSplitsEvenlyWithinPlanes();
    void oneFlowGetsTheWholeNic();
    void effectiveBisectionAsOnePlane_data();
    void effectiveBisectionAsOnePlane();
    void losingAPlaneCostsItsShare_data();
    void losingAPlaneCostsItsShare();
    void drawnByHand();
    void drawnByHandRunsFromAFile();
    void comparisonKeepsTheNic();
};

void tst_PortPlanes::countsByHand_data() {
    QTest::addColumn<int>("servers");
    QTest::addColumn<double>("nicGbps");
    QTest::addColumn<int>("ports");
    QTest::addColumn<int>("radix");
    QTest::addColumn<int>("leavesPerPlane");
    QTest::addColumn<int>("spinesPerPlane");
    QTest::addColumn<int>("uplinkCables"); // leaf-spine cables, all planes

    // 256 servers x 8 NICs of 800G as 2 planes of 400G, radix 64 at 400G, 1:1: a leaf takes
    // 32 servers down and 32 up, so 8 units x 8 rails = 64 leaves a plane; 64 x 32 = 2,048
    // uplinks over the fewest spines of 64 ports that take an equal share of every leaf:
    // 32 spines of one cable from each leaf. Two planes: 128 leaves, 64 spines, 4,096 cables.
    QTest::addRow("256 srv, 800G as 2 x 400G, radix 64")
        << 256 << 800.0 << 2 << 64 << 64 << 32 << 4096;
    // Spectrum-X multiplane's reach: 4,096 servers (32,768 GPUs) of 800G NICs as 4 planes of
    // 200G, switches of 256 ports at 200G (a 51.2T switch broken out). Per plane a leaf
    // takes 128 servers and 128 uplinks: 32 units x 8 rails = 256 leaves; 256 x 128 =
    // 32,768 uplinks over 128 spines of 256 ports. Four planes: 1,024 leaves, 512 spines,
    // 131,072 cables; two tiers, where one plane of 800G radix-64 switches tops out at
    // 64 x 64 / 2 = 2,048 NIC ports (256 servers).
    QTest::addRow("4096 srv, 800G as 4 x 200G, radix 256")
        << 4096 << 800.0 << 4 << 256 << 256 << 128 << 131072;
}

void tst_PortPlanes::countsByHand() {
    QFETCH(int, servers);
    QFETCH(double, nicGbps);
    QFETCH(int, ports);
    QFETCH(int, radix);
    QFETCH(int, leavesPerPlane);
    QFETCH(int, spinesPerPlane);
    QFETCH(int, uplinkCables);

    const model::Topology t = model::generate(request(servers, nicGbps, ports, radix));
    const testing::Census all = testing::census(t);
    QCOMPARE(all.servers, servers);
    QCOMPARE(all.leaves, leavesPerPlane * ports);
    QCOMPARE(all.spines, spinesPerPlane * ports);
    QCOMPARE(all.cores, 0);
    QCOMPARE(all.serverCables, servers * 8 * ports); // every port its own cable
    QCOMPARE(all.leafSpineCables, uplinkCables);

    const auto planes = censusByPlane(t);
    QCOMPARE(static_cast<int>(planes.size()), ports);
    for (const auto& [plane, c] : planes) {
        QVERIFY(plane >= 0 && plane < ports);
        QCOMPARE(c.leaves, leavesPerPlane);
        QCOMPARE(c.spines, spinesPerPlane);
    }
    for (const auto& [id, link] : t.links()) {
        const model::Node& a = t.node(link.a);
        const model::Node& b = t.node(link.b);
        QCOMPARE(link.speed.value, nicGbps / ports);
        if (a.kind != NodeKind::Server && b.kind != NodeKind::Server)
            QCOMPARE(a.placement.plane, b.placement.plane); // planes never meet
    }
    for (const auto& [id, node] : t.nodes())
        if (node.kind == NodeKind::Server) {
            QCOMPARE(node.server.portsPerNic, ports);
            QCOMPARE(node.server.nicSpeed.value, nicGbps); // the NIC bought is whole
        }
}

void tst_PortPlanes::refusesImpossibleSplits_data() {
    QTest::addColumn<int>("ports");
    QTest::addColumn<int>("planes");
    QTest::addColumn<QString>("field");

    QTest::addRow("no ports") << 0 << 0 << "portsPerNic";
    QTest::addRow("65 ports") << 65 << 0 << "portsPerNic";
    QTest::addRow("ports and rail planes") << 2 << 2 << "planes";
}

void tst_PortPlanes::refusesImpossibleSplits() {
    QFETCH(int, ports);
    QFETCH(int, planes);
    QFETCH(QString, field);
    model::GeneratorParams p = request(256, 800, 1, 64);
    p.portsPerNic = ports;
    if (planes > 0)
        p.planes = planes;
    try {
        model::generate(p);
        QFAIL("generated a fabric it should refuse");
    } catch (const model::GeneratorError& e) {
        QCOMPARE(QString::fromStdString(e.field()), field);
    }
}

void tst_PortPlanes::routeSplitsEvenlyWithinPlanes() {
    const model::Topology t = model::generate(request(256, 800, 2, 64));
    const sim::FabricNetwork network(t, testing::builtinFabric("spectrum-x"));
    const model::NodeId a = network.servers().front();
    const model::NodeId b = network.servers().back(); // another unit: through the spines
    QCOMPARE(network.nicCount(a), 8);
    QCOMPARE(network.portCount(a), 2);
    const sim::Route route = network.route({a, 3}, {b, 3}, 7);

    // Each port's share runs NIC up, leaf, spine, leaf, NIC down, all in its own plane: the
    // route is two halves, and the server cables (both ends of each) carry 1/2 each.
    const model::Topology& topology = network.topology();
    std::vector<std::size_t> serverCables;
    for (std::size_t i = 0; i < route.elements.size(); ++i)
        if (topology.tierOf(topology.link(network.linkOf(route.elements[i].channel))) ==
            model::LinkTier::Server)
            serverCables.push_back(i);
    QCOMPARE(serverCables.size(), std::size_t{4});
    for (const std::size_t i : serverCables)
        QCOMPARE(route.elements[i].fraction, 0.5);
    QCOMPARE(serverCables.front(), std::size_t{0});
    QCOMPARE(serverCables.back(), route.elements.size() - 1);
    const std::size_t half = serverCables[2]; // the second port's NIC up
    QCOMPARE(serverCables[1] + 1, half);
    QVERIFY(planesOf(network, route, 0, half) == std::set<int>{0});
    QVERIFY(planesOf(network, route, half, route.elements.size()) == std::set<int>{1});
    QCOMPARE(network.nicGoodput({a, 3}).value,
             800 * testing::builtinFabric("spectrum-x").goodputShare());
}

void tst_PortPlanes::oneFlowGetsTheWholeNic() {
    // One 1 GB flow between servers of different units, alone: it moves at the whole NIC's
    // goodput, 800G x the fabric's goodput share, split or not; the split's planes run in
    // parallel, so the data time is the same to rounding (1e-9 relative).
    const model::Fabric& fabric = testing::builtinFabric("spectrum-x");
    const double bytes = 1e9;
    const double expected = bytes * 8 / (800e9 * fabric.goodputShare());
    for (const int ports : {1, 2, 4}) {
        const model::Topology t = model::generate(request(256, 800, ports, 64 * ports));
        const sim::FabricNetwork network(t, fabric);
        const model::NodeId a = network.servers().front();
        const model::NodeId b = network.servers().back();
        const sim::SimulationResult r =
            sim::FlowSimulator{}.run(network, {{{a, 0}, {b, 0}, bytes, {}, 0, 0}});
        qInfo("%d port(s): %.6f s of data, expected %.6f", ports, r.dataSeconds, expected);
        QVERIFY(std::abs(r.dataSeconds / expected - 1) < 1e-9);
    }
}

void tst_PortPlanes::effectiveBisectionAsOnePlane_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<int>("seed");
    for (const char* id : {"spectrum-x", "ib-ndr"})
        for (const int seed : {1, 2, 3})
            QTest::addRow("%s seed %d", id, seed) << QByteArray(id) << seed;
}

void tst_PortPlanes::effectiveBisectionAsOnePlane() {
    // 256 servers at 1:1 under adaptive routing: a non-blocking fabric delivers its min cut
    // times the line efficiency, whether each NIC is one 800G port or two planes of 400G
    // (tst_EffectiveBisection holds the single plane to "> 0.97" of it). The physical bound:
    // no split delivers more than the NICs inject.
    QFETCH(QByteArray, fabricId);
    QFETCH(int, seed);
    const model::Fabric& fabric = testing::builtinFabric(fabricId.toStdString());
    double ratio[2] = {};
    for (const int ports : {1, 2}) {
        const model::Topology t = model::generate(request(256, 800, ports, 64));
        const model::BisectionResult theoretical = model::theoreticalBisection(t);
        QCOMPARE(theoretical.ratio, 1.0);
        const sim::FabricNetwork network(t, fabric);
        ratio[ports - 1] =
            sim::effectiveBisection(network, theoretical, static_cast<std::uint64_t>(seed)).ratio /
            fabric.lineEfficiency;
    }
    qInfo("one plane %.4f, two planes %.4f of line rate", ratio[0], ratio[1]);
    QVERIFY(ratio[1] > 0.97);
    QVERIFY(ratio[1] <= 1 + 1e-9);
    QVERIFY(std::abs(ratio[1] - ratio[0]) < 0.03);
}

void tst_PortPlanes::losingAPlaneCostsItsShare_data() {
    QTest::addColumn<int>("ports");
    QTest::addColumn<int>("lost");
    // A NIC sprays over the ports it has left: with plane 2 of P down, one flow alone
    // moves at (P - 1) / P of the NIC's goodput, and NIC numbers stay as they were (the
    // flow still leaves NIC 5 and lands on NIC 5).
    QTest::addRow("2 planes, one down") << 2 << 1;
    QTest::addRow("4 planes, one down") << 4 << 1;
    QTest::addRow("4 planes, two down") << 4 << 2;
}

void tst_PortPlanes::losingAPlaneCostsItsShare() {
    QFETCH(int, ports);
    QFETCH(int, lost);
    const model::Fabric& fabric = testing::builtinFabric("ib-ndr");
    const model::Topology built = model::generate(request(256, 800, ports, 64 * ports));
    std::vector<model::Failure> failures;
    for (int plane = 0; plane < lost; ++plane)
        failures.push_back({model::planeElement(plane + 1), model::FailureKind::Down, 0, 1});
    const model::Topology left = model::applyFailures(built, failures);
    const sim::FabricNetwork network(left, fabric);
    const model::NodeId a = network.servers().front();
    const model::NodeId b = network.servers().back();
    QCOMPARE(network.nicCount(a), 8);
    const double nicGbps = 800.0 * (ports - lost) / ports * fabric.goodputShare();
    QCOMPARE(network.nicGoodput({a, 5}).value, nicGbps);
    const double bytes = 1e9;
    const sim::SimulationResult r =
        sim::FlowSimulator{}.run(network, {{{a, 5}, {b, 5}, bytes, {}, 0, 0}});
    QVERIFY(std::abs(r.dataSeconds / (bytes * 8 / (nicGbps * 1e9)) - 1) < 1e-9);
    const sim::Route route = network.route({a, 5}, {b, 5}, 1);
    const model::Topology& t = network.topology();
    for (const sim::PathElement& e : route.elements) {
        const model::Link& link = t.link(network.linkOf(e.channel));
        for (const model::NodeId end : {link.a, link.b})
            if (t.node(end).kind == NodeKind::Leaf)
                QCOMPARE(t.node(end).placement.rail, 5); // NIC 5 is still rail 5's
    }
}

void tst_PortPlanes::drawnByHand() {
    // Four servers, each one 800G NIC of two ports, cabled by hand to two leaves that carry
    // no plane: each leaf is a plane, port 0 the one on leaf-a for every server. srv-1 -> srv-2
    // goes half over each leaf, 400G each, so the flow moves at the NIC's 800G; with leaf-b down,
    // at 400G.
    model::Topology t;
    model::Node leaf;
    leaf.kind = NodeKind::Leaf;
    leaf.sw = {64, model::Gbps(400)};
    leaf.name = "leaf-a";
    const model::NodeId a = t.addNode(leaf);
    leaf.name = "leaf-b";
    const model::NodeId b = t.addNode(leaf);
    std::vector<model::NodeId> servers;
    for (int i = 1; i <= 4; ++i) {
        model::Node server;
        server.name = "srv-" + std::to_string(i);
        server.server = {8, 1, model::Gbps(800), 450, 2};
        servers.push_back(t.addNode(server));
    }
    // srv-2 is cabled to leaf-b first: planes are told apart by the switches each cable
    // reaches, numbered alike for every server, not by one server's cable order.
    for (const model::NodeId s : servers) {
        const bool crossed = s == servers[1];
        t.addLink({s, crossed ? b : a, model::Gbps(400), 1, model::LinkMedium::Dac, 2});
        t.addLink({s, crossed ? a : b, model::Gbps(400), 1, model::LinkMedium::Dac, 2});
    }
    QVERIFY(t.problems().empty());

    const model::Fabric& fabric = testing::builtinFabric("ib-ndr");
    const double bytes = 1e9;
    const auto seconds = [&](const model::Topology& topology) {
        const sim::FabricNetwork network(topology, fabric);
        return sim::FlowSimulator{}
            .run(network, {{{servers[0], 0}, {servers[1], 0}, bytes, {}, 0, 0}})
            .dataSeconds;
    };
    const double whole = bytes * 8 / (800e9 * fabric.goodputShare());
    QVERIFY(std::abs(seconds(t) / whole - 1) < 1e-9);
    const model::Topology oneLeaf =
        model::applyFailures(t, {{"leaf-b", model::FailureKind::Down, 0, 1}});
    QVERIFY(std::abs(seconds(oneLeaf) / (2 * whole) - 1) < 1e-9);

    // A one-port 400G server on leaf-b alone: flows to it from a two-port NIC go all over
    // the plane it is in, and flows from it land on the two-port NIC's port there, both at
    // its 400G (no share is lost to leaf-a, which cannot reach it).
    model::Node single;
    single.name = "srv-5";
    single.server = {8, 1, model::Gbps(400), 450, 1};
    const model::NodeId five = t.addNode(single);
    t.addLink({five, b, model::Gbps(400), 1, model::LinkMedium::Dac, 2});
    const sim::FabricNetwork mixed(t, fabric);
    for (const auto& [from, to] : {std::pair{servers[0], five}, std::pair{five, servers[0]}}) {
        const double took =
            sim::FlowSimulator{}.run(mixed, {{{from, 0}, {to, 0}, bytes, {}, 0, 0}}).dataSeconds;
        QVERIFY(std::abs(took / (2 * whole) - 1) < 1e-9);
    }
    double fractions = 0;
    for (const sim::PathElement& e : mixed.route({servers[0], 0}, {five, 0}, 1).elements)
        if (mixed.linkOf(e.channel) ==
            mixed.linkOf(mixed.route({servers[0], 0}, {five, 0}, 1).elements.back().channel))
            fractions += e.fraction;
    QCOMPARE(fractions, 1.0); // the whole flow down srv-5's one cable, listed once
}

void tst_PortPlanes::drawnByHandRunsFromAFile() {
    // The same drawing as a design file (the fuzz seed two-planes-by-hand.json without its
    // failure): each server's two cables are its NIC's two ports, which the reader allows,
    // saving keeps, and a run reports as a two-port design of two planes.
    const std::string text = R"({"format": "fabriclab-design", "version": 1, "name": "two planes",
        "fabric": "spectrum-x",
        "nodes": [{"id": "leaf-a", "kind": "leaf", "radix": 64, "portGbps": 400},
                  {"id": "leaf-b", "kind": "leaf", "radix": 64, "portGbps": 400},
                  {"id": "srv-1", "kind": "server", "nics": 1, "nicGbps": 800, "portsPerNic": 2},
                  {"id": "srv-2", "kind": "server", "nics": 1, "nicGbps": 800, "portsPerNic": 2}],
        "links": [{"a": "srv-1", "b": "leaf-a", "gbps": 400}, {"a": "srv-2", "b": "leaf-a", "gbps": 400},
                  {"a": "srv-1", "b": "leaf-b", "gbps": 400}, {"a": "srv-2", "b": "leaf-b", "gbps": 400}],
        "collective": {"op": "allreduce", "bytes": 1048576, "algorithm": "auto"}})";
    const model::Catalog& catalog = model::Catalog::builtin();
    const model::Design design = model::parseDesign(text, "two planes", catalog);
    const model::Design again =
        model::parseDesign(model::serializeDesign(design), "saved", catalog);
    for (const auto& [id, node] : again.topology.nodes())
        if (node.kind == NodeKind::Server)
            QCOMPARE(node.server.portsPerNic, 2);
    const model::RunReport report = model::runDesign(again, catalog);
    QCOMPARE(report.switchPlanes, 2);
    QCOMPARE(report.portsPerNic, 2);
    // Half the injection each way: 2 servers x 800G, one on each side of the cut.
    QCOMPARE(report.bisection.minCut.value, 800.0);
}

void tst_PortPlanes::comparisonKeepsTheNic() {
    // Set beside other fabrics, a multiplane design keeps the NIC it split (800G as 4 x 200G)
    // and takes each fabric's switches at its ports' speed, rather than a NIC of the
    // fabric's own speed split four ways.
    const model::Catalog& catalog = model::Catalog::builtin();
    const model::Design sample = model::loadDesign(
        FABRICLAB_SOURCE_DIR "/samples/spectrum-x-multiplane-8k-gpu-4x200g.fabric.json", catalog);
    for (const char* id : {"ib-xdr", "roce-v2"}) {
        const model::DesignOnFabric on =
            model::designOnFabric(sample, *catalog.findFabric(id), catalog);
        QVERIFY(on.regenerated);
        QCOMPARE(on.design.generator->nicSpeed.value, 800.0);
        QCOMPARE(on.design.generator->portsPerNic.value_or(1), 4);
        for (const auto& [linkId, link] : on.design.topology.links())
            QCOMPARE(link.speed.value, 200.0);
    }
}

QTEST_APPLESS_MAIN(tst_PortPlanes)
#include "tst_PortPlanes.moc"
