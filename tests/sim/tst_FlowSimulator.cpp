// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Event-driven flow simulation (FlowSimulator.hpp): alpha + size / rate per transfer, the
// latency paid after the last byte, max-min sharing between the transfers that are
// active at the same time, dependencies, refusals, cancellation and thread isolation.
// Every expected time is written as the closed form in a comment and computed from the
// catalog fields, so a catalog edit moves the expectation with it.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/core/Cancellation.hpp"
#include "model/fabric/Generators.hpp"
#include "model/sim/FabricNetwork.hpp"
#include "model/sim/FlowSimulator.hpp"
#include "model/topology/Topology.hpp"
#include "support/BuiltinCatalog.hpp"
#include "support/GeneratorRequests.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>
#endif

using namespace fabriclab;
using namespace fabriclab::sim;
using model::NodeId;
using model::NodeKind;

using fabriclab::testing::builtinFabric;

namespace {

// The simulator retires a transfer once it is within 1e-9 of its size (FlowSimulator.cpp,
// "within a few ulps of done") and accumulates time in steps, so a simulated time can
// differ from the closed form by that relative amount and no more.
constexpr double kRelTol = 1e-9;

// Cable lengths of the fixture, metres: server to leaf, and leaf to spine.
constexpr double kServerCable = 3;
constexpr double kSpineCable = 40;
// Signal propagation, seconds per metre (docs/reference/published-figures.md: <= 4.5 ns/m, NVIDIA cable specs).
constexpr double kSecondsPerMeter = 4.5e-9;
constexpr double kNicGbps = 400;

bool fuzzyEqual(double actual, double expected, double rel) {
    return std::abs(actual - expected) <= rel * std::max(std::abs(actual), std::abs(expected));
}

#define COMPARE_REL(actual, expected)                                                              \
    QVERIFY2(fuzzyEqual((actual), (expected), kRelTol),                                            \
             qPrintable(QStringLiteral("%1 = %2, expected %3")                                     \
                            .arg(QLatin1String(#actual))                                           \
                            .arg((actual), 0, 'g', 15)                                             \
                            .arg((expected), 0, 'g', 15)))

/// srv-1, srv-2, srv-3 on leaf-1; srv-4 on leaf-2; leaf-1 and leaf-2 under spine-1 (one
/// 40 m cable each); srv-5 alone on leaf-3, which has no uplink (a disconnected part).
/// Every server has one 400G NIC on a 3 m cable. Node ids follow insertion order, so
/// building the fixture twice gives the same ids.
struct Fixture {
    model::Topology topology;
    NodeId srv[6]; ///< srv[1] .. srv[5]
};

Fixture fixture() {
    Fixture f;
    auto& t = f.topology;
    const auto add = [&](const std::string& name, NodeKind kind) {
        model::Node n;
        n.name = name;
        n.kind = kind;
        n.server.gpus = 1;
        n.server.nics = 1;
        n.server.nicSpeed = model::Gbps(kNicGbps);
        n.sw = model::SwitchProps{64, model::Gbps(kNicGbps)};
        return t.addNode(n);
    };
    const auto cable = [&](NodeId a, NodeId b, model::LinkMedium medium, double meters) {
        t.addLink(model::Link{a, b, model::Gbps(kNicGbps), 1, medium, meters});
    };
    const NodeId leaf1 = add("leaf-1", NodeKind::Leaf);
    const NodeId leaf2 = add("leaf-2", NodeKind::Leaf);
    const NodeId leaf3 = add("leaf-3", NodeKind::Leaf);
    const NodeId spine = add("spine-1", NodeKind::Spine);
    const NodeId leafOf[6] = {{}, leaf1, leaf1, leaf1, leaf2, leaf3};
    for (int s = 1; s <= 5; ++s) {
        f.srv[s] = add("srv-" + std::to_string(s), NodeKind::Server);
        cable(f.srv[s], leafOf[s], model::LinkMedium::Dac, kServerCable);
    }
    cable(leaf1, spine, model::LinkMedium::Optics, kSpineCable);
    cable(leaf2, spine, model::LinkMedium::Optics, kSpineCable);
    return f;
}

/// Start-up latency from the catalog fields: a NIC on each side, each switch crossed,
/// the wire, and the transfer's own protocol latency.
double latencyOf(const model::Fabric& f, int switchHops, double meters, double extra = 0) {
    return 2 * f.nicLatencyNs * 1e-9 + switchHops * f.switchLatencyNs * 1e-9 +
           meters * kSecondsPerMeter + extra;
}

/// One NIC's goodput, bytes/s: line rate x line efficiency x (1 - protocol overhead).
double goodputBytes(const model::Fabric& f) {
    return kNicGbps * f.lineEfficiency * (1 - f.protocolOverhead) * 1e9 / 8;
}

Transfer transfer(NodeId from, NodeId to, double bytes, std::vector<std::uint32_t> after = {},
                  double extra = 0) {
    return Transfer{{from, 0}, {to, 0}, bytes, std::move(after), 0, extra};
}

} // namespace

Q_DECLARE_METATYPE(std::vector<fabriclab::sim::Transfer>)

class tst_FlowSimulator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void singleTransfer_data();
    void singleTransfer();
    void mpiLatency_data();
    void mpiLatency();
    void sharedNic_data();
    void sharedNic();
    void dependencyChain_data();
    void dependencyChain();
    void earlyFinisherFreesBandwidth();
    void stopTokenCancels();
    void refusals_data();
    void refusals();
    void sideBySideThreads();
};

void tst_FlowSimulator::singleTransfer_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<int>("to"); // destination server of srv-1's transfer
    QTest::addColumn<int>("switchHops");
    QTest::addColumn<double>("meters");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("extraLatency");

    // time = 2 x NIC + hops x switch + 4.5 ns/m x metres + extra  +  bytes / goodput.
    // Same leaf: 1 switch, 2 x 3 m of copper = 27 ns of wire.
    // ib-ndr: 650 + 230 + 27 = 907 ns; 1 GB at 400 x 0.96 = 384 Gb/s = 48 GB/s: 20.833 ms.
    QTest::addRow("ib-ndr, same leaf, 1 GB")
        << QByteArray("ib-ndr") << 2 << 1 << 2 * kServerCable << 1e9 << 0.0;
    // Through the spine: 3 switches, 3 + 40 + 40 + 3 = 86 m = 387 ns; 650 + 690 + 387 = 1,727 ns.
    QTest::addRow("ib-ndr, via spine, 1 GB")
        << QByteArray("ib-ndr") << 4 << 3 << 2 * (kServerCable + kSpineCable) << 1e9 << 0.0;
    // 8 bytes: 907 ns + 8 B / 48 GB/s (0.17 ns): the latency is the whole story.
    QTest::addRow("ib-ndr, same leaf, 8 B")
        << QByteArray("ib-ndr") << 2 << 1 << 2 * kServerCable << 8.0 << 0.0;
    // A protocol latency on top (NCCL's 4 us LL128 step): 907 + 4,000 = 4,907 ns.
    QTest::addRow("ib-ndr, same leaf, 1 GB, +4 us protocol")
        << QByteArray("ib-ndr") << 2 << 1 << 2 * kServerCable << 1e9 << 4e-6;
    // roce-v2 (static ECMP, one path anyway): 1,680 + 2,100 + 387 = 4,167 ns;
    // 400 x 0.7 = 280 Gb/s = 35 GB/s: 28.571 ms.
    QTest::addRow("roce-v2, via spine, 1 GB")
        << QByteArray("roce-v2") << 4 << 3 << 2 * (kServerCable + kSpineCable) << 1e9 << 0.0;
    // ethernet-tcp: 10,000 + 700 + 27 = 10,727 ns; 400 x 0.6 x (1 - 0.5) = 120 Gb/s =
    // 15 GB/s: 66.667 ms (the protocol overhead field is applied).
    QTest::addRow("ethernet-tcp, same leaf, 1 GB")
        << QByteArray("ethernet-tcp") << 2 << 1 << 2 * kServerCable << 1e9 << 0.0;
}

void tst_FlowSimulator::singleTransfer() {
    QFETCH(QByteArray, fabricId);
    QFETCH(int, to);
    QFETCH(int, switchHops);
    QFETCH(double, meters);
    QFETCH(double, bytes);
    QFETCH(double, extraLatency);

    const Fixture f = fixture();
    const model::Fabric& fab = builtinFabric(fabricId.constData());
    const FabricNetwork network(f.topology, fab);
    const Route route = network.route({f.srv[1], 0}, {f.srv[to], 0}, 0);
    QCOMPARE(route.switchHops, switchHops);
    COMPARE_REL(route.wireMeters, meters);
    COMPARE_REL(network.nicGoodput({f.srv[1], 0}).value, goodputBytes(fab) * 8 / 1e9);

    const auto result =
        FlowSimulator{}.run(network, {transfer(f.srv[1], f.srv[to], bytes, {}, extraLatency)});
    const double expected =
        latencyOf(fab, switchHops, meters, extraLatency) + bytes / goodputBytes(fab);
    COMPARE_REL(result.seconds, expected);
    QCOMPARE(result.finishTimes.size(), std::size_t{1});
    COMPARE_REL(result.finishTimes[0], expected);
}

void tst_FlowSimulator::mpiLatency_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<double>("microseconds");

    // docs/reference/published-figures.md (medium, article 000): 8-byte MPI latency between two servers on one
    // switch. The catalog's NIC latencies were derived from these with ~20 ns of wire;
    // the fixture has 6 m (27 ns). Tolerance 5%: the article gives one or two digits
    // ("~0.9", "~1.7", "~2.4"), i.e. +-0.05 us at best, 5% of 0.9 us.
    //   ib-ndr:     650 + 230 + 27 = 907 ns
    //   spectrum-x: 1,080 + 600 + 27 = 1,707 ns
    //   roce-v2:    1,680 + 700 + 27 = 2,407 ns
    QTest::addRow("ib-ndr ~0.9 us") << QByteArray("ib-ndr") << 0.9;
    QTest::addRow("spectrum-x ~1.7 us") << QByteArray("spectrum-x") << 1.7;
    QTest::addRow("roce-v2 tuned ~2.4 us") << QByteArray("roce-v2") << 2.4;
}

void tst_FlowSimulator::mpiLatency() {
    QFETCH(QByteArray, fabricId);
    QFETCH(double, microseconds);

    const Fixture f = fixture();
    const FabricNetwork network(f.topology, builtinFabric(fabricId.constData()));
    const double measured =
        FlowSimulator{}.run(network, {transfer(f.srv[1], f.srv[2], 8)}).seconds * 1e6;
    qInfo("%s: 8 B in %.3f us (article 000: ~%.1f us)", fabricId.constData(), measured,
          microseconds);
    QVERIFY2(
        std::abs(measured - microseconds) <= 0.05 * microseconds,
        qPrintable(QStringLiteral("%1 us, expected %2 us +- 5%").arg(measured).arg(microseconds)));
}

void tst_FlowSimulator::sharedNic_data() {
    QTest::addColumn<QByteArray>("fabricId");
    QTest::addColumn<bool>("incast"); // two senders into one NIC, else one NIC sending to two
    QTest::addColumn<double>("factor");

    // One NIC's goodput r split max-min fairly between two equal transfers of B bytes:
    // each runs at r/2, so the data time doubles: lat + 2B/r against lat + B/r.
    QTest::addRow("ib-ndr, one sender NIC, two receivers") << QByteArray("ib-ndr") << false << 2.0;
    // A lossless fabric keeps its whole capacity under incast (incastEfficiency 1.0).
    QTest::addRow("ib-ndr, two senders, one receiver NIC") << QByteArray("ib-ndr") << true << 2.0;
    // Incast loss applies only to many-to-one traffic: one sender is still a factor 2.
    QTest::addRow("roce-v2, one sender NIC, two receivers")
        << QByteArray("roce-v2") << false << 2.0;
    // roce-v2's receiving NIC keeps incastEfficiency 0.8 of its capacity with two
    // senders: 2B / (0.8 r) = 2.5 x B/r.
    QTest::addRow("roce-v2, two senders, one receiver NIC")
        << QByteArray("roce-v2") << true << 2.0 / 0.8;
}

void tst_FlowSimulator::sharedNic() {
    QFETCH(QByteArray, fabricId);
    QFETCH(bool, incast);
    QFETCH(double, factor);

    const Fixture f = fixture();
    const model::Fabric& fab = builtinFabric(fabricId.constData());
    const FabricNetwork network(f.topology, fab);
    constexpr double kBytes = 1e9;
    // Every pair below sits on leaf-1: one switch, 6 m.
    const double latency = latencyOf(fab, 1, 2 * kServerCable);

    const auto one = FlowSimulator{}.run(network, {transfer(f.srv[1], f.srv[2], kBytes)});
    const std::vector<Transfer> two =
        incast ? std::vector<Transfer>{transfer(f.srv[2], f.srv[1], kBytes),
                                       transfer(f.srv[3], f.srv[1], kBytes)}
               : std::vector<Transfer>{transfer(f.srv[1], f.srv[2], kBytes),
                                       transfer(f.srv[1], f.srv[3], kBytes)};
    const auto both = FlowSimulator{}.run(network, two);

    COMPARE_REL(one.seconds, latency + kBytes / goodputBytes(fab));
    COMPARE_REL(both.seconds - latency, factor * (one.seconds - latency));
    // Equal shares: both finish together.
    COMPARE_REL(both.finishTimes[0], both.finishTimes[1]);
}

void tst_FlowSimulator::dependencyChain_data() {
    QTest::addColumn<int>("length");

    // A transfer starts when the one before it has finished, latency included, so a
    // chain of k transfers of B bytes takes k x (lat + B/r).
    QTest::addRow("A then B") << 2;
    QTest::addRow("A then B then C") << 3;
}

void tst_FlowSimulator::dependencyChain() {
    QFETCH(int, length);

    const Fixture f = fixture();
    const model::Fabric& fab = builtinFabric("ib-ndr");
    const FabricNetwork network(f.topology, fab);
    constexpr double kBytes = 5e8;
    // Hops alternate srv-1 -> srv-2 -> srv-3 -> srv-1 ..., all on leaf-1 (1 switch, 6 m).
    std::vector<Transfer> chain;
    for (int i = 0; i < length; ++i) {
        std::vector<std::uint32_t> after;
        if (i > 0)
            after.push_back(static_cast<std::uint32_t>(i - 1));
        chain.push_back(transfer(f.srv[1 + i % 3], f.srv[1 + (i + 1) % 3], kBytes, after));
    }
    const auto result = FlowSimulator{}.run(network, chain);
    const double link = latencyOf(fab, 1, 2 * kServerCable) + kBytes / goodputBytes(fab);
    for (int i = 0; i < length; ++i)
        COMPARE_REL(result.finishTimes[static_cast<std::size_t>(i)], (i + 1) * link);
    COMPARE_REL(result.seconds, length * link);
}

void tst_FlowSimulator::earlyFinisherFreesBandwidth() {
    // srv-1 sends X = 1 GB to srv-2 and Y = 3 GB to srv-3 over its one NIC (rate r).
    // Both run at r/2 until X's last byte at 2X/r; Y has Y - X left and gets all of r:
    //   X finishes at lat + 2X/r = lat + 2/r (in GB)
    //   Y finishes at lat + 2X/r + (Y - X)/r = lat + (X + Y)/r = lat + 4/r,
    // not lat + 6/r as it would without the speed-up (and the latency X pays after its
    // last byte does not hold back Y's bandwidth).
    const Fixture f = fixture();
    const model::Fabric& fab = builtinFabric("ib-ndr");
    const FabricNetwork network(f.topology, fab);
    constexpr double kX = 1e9;
    constexpr double kY = 3e9;
    const double r = goodputBytes(fab);
    const double latency = latencyOf(fab, 1, 2 * kServerCable);

    const auto result = FlowSimulator{}.run(
        network, {transfer(f.srv[1], f.srv[2], kX), transfer(f.srv[1], f.srv[3], kY)});
    COMPARE_REL(result.finishTimes[0], latency + 2 * kX / r);
    COMPARE_REL(result.finishTimes[1], latency + (kX + kY) / r);
    COMPARE_REL(result.seconds, latency + (kX + kY) / r);
    COMPARE_REL(result.dataSeconds, (kX + kY) / r);
}

void tst_FlowSimulator::stopTokenCancels() {
    const Fixture f = fixture();
    const FabricNetwork network(f.topology, builtinFabric("ib-ndr"));
    std::stop_source stop;
    stop.request_stop();
    QVERIFY_THROWS_EXCEPTION(
        model::Cancelled,
        FlowSimulator{}.run(network, {transfer(f.srv[1], f.srv[2], 1e9)}, stop.get_token()));
    // The same run without a stop request completes: the refusal came from the token.
    QVERIFY(FlowSimulator{}.run(network, {transfer(f.srv[1], f.srv[2], 1e9)}).seconds > 0);
}

void tst_FlowSimulator::refusals_data() {
    QTest::addColumn<std::vector<Transfer>>("transfers");

    const Fixture f = fixture();
    const NodeId* s = f.srv;
    QTest::addRow("two transfers wait on each other")
        << std::vector<Transfer>{transfer(s[1], s[2], 1e6, {1}), transfer(s[2], s[3], 1e6, {0})};
    QTest::addRow("three-transfer cycle behind a transfer that runs")
        << std::vector<Transfer>{transfer(s[1], s[2], 1e6), transfer(s[1], s[2], 1e6, {0, 3}),
                                 transfer(s[2], s[3], 1e6, {1}), transfer(s[3], s[1], 1e6, {2})};
    QTest::addRow("waits on itself") << std::vector<Transfer>{transfer(s[1], s[2], 1e6, {0})};
    QTest::addRow("waits on a transfer that does not exist")
        << std::vector<Transfer>{transfer(s[1], s[2], 1e6), transfer(s[2], s[3], 1e6, {7})};
    // leaf-3 has no uplink: route() finds no path and says so.
    QTest::addRow("destination in a disconnected part")
        << std::vector<Transfer>{transfer(s[1], s[5], 1e6)};
    QTest::addRow("NIC the server does not have")
        << std::vector<Transfer>{Transfer{{s[1], 1}, {s[2], 0}, 1e6, {}, 0, 0}};
    QTest::addRow("negative size") << std::vector<Transfer>{transfer(s[1], s[2], -1)};
    QTest::addRow("negative protocol latency")
        << std::vector<Transfer>{transfer(s[1], s[2], 1e6, {}, -1e-6)};
}

void tst_FlowSimulator::refusals() {
    QFETCH(std::vector<Transfer>, transfers);

    const Fixture f = fixture();
    const FabricNetwork network(f.topology, builtinFabric("ib-ndr"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlowSimulator{}.run(network, transfers));
}

void tst_FlowSimulator::sideBySideThreads() {
    // 16 servers x 8 NICs on a 2:1 leaf-spine under static ECMP (roce-v2): hash collisions,
    // incast and chained dependencies give many distinct rate changes. Two threads, each
    // with its own network over the same (read-only) topology, must reproduce a serial
    // run bit for bit: the simulator keeps no global state.
    const model::Topology topology = testing::generateOrFail(
        model::generateLeafSpine,
        testing::generatorRequest("leaf-spine", 16, 8, true, 64, 64, 64, 2.0, 1.0));
    if (QTest::currentTestFailed())
        return;
    const model::Fabric& fab = builtinFabric("roce-v2");
    std::vector<Transfer> transfers;
    {
        const FabricNetwork probe(topology, fab);
        const auto& servers = probe.servers();
        const int n = static_cast<int>(servers.size());
        for (int k = 1; k <= 3; ++k)
            for (int s = 0; s < n; ++s)
                for (int nic = 0; nic < 8; ++nic) {
                    std::vector<std::uint32_t> after;
                    if (k > 1) // the same NIC's previous shift
                        after.push_back(static_cast<std::uint32_t>(
                            transfers.size() - static_cast<std::size_t>(8 * n)));
                    transfers.push_back(Transfer{
                        {servers[static_cast<std::size_t>(s)], nic},
                        {servers[static_cast<std::size_t>((s + k * 5) % n)], (nic + k) % 8},
                        1e7 * (1 + k) * (1 + nic / 8.0),
                        after,
                        static_cast<std::uint64_t>(nic),
                        0});
                }
    }

    const auto simulate = [&](SimulationResult& into) {
        const FabricNetwork network(topology, fab, 7);
        into = FlowSimulator{}.run(network, transfers);
    };
    SimulationResult serial;
    simulate(serial);
    SimulationResult first;
    SimulationResult second;
    std::thread a(simulate, std::ref(first));
    std::thread b(simulate, std::ref(second));
    a.join();
    b.join();

    QVERIFY(serial.events > 3); // the case really has several rate changes
    QCOMPARE(first.seconds, serial.seconds);
    QCOMPARE(second.seconds, serial.seconds);
    QCOMPARE(first.events, serial.events);
    QCOMPARE(second.events, serial.events);
    QVERIFY(first.finishTimes == serial.finishTimes);
    QVERIFY(second.finishTimes == serial.finishTimes);
}

QTEST_APPLESS_MAIN(tst_FlowSimulator)
#include "tst_FlowSimulator.moc"
