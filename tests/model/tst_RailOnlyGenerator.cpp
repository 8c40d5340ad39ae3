// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Rail-only generator: one tier of rail switches and no spine (model/fabric/RailOnlyGenerator.cpp).
//   k = largest divisor of nics with servers * k <= leafRadix   rails sharing one switch
//   switches = nics / k; each server sends k parallel cables to each switch
//   refused when servers > leafRadix (rail r of every server must meet on one switch).
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/analysis/Connectivity.hpp"
#include "model/fabric/Generators.hpp"
#include "model/topology/Topology.hpp"
#include "support/GeneratorRequests.hpp"
#endif

Q_DECLARE_METATYPE(fabriclab::model::LinkMedium)

using namespace fabriclab::model;
using namespace fabriclab::testing;

namespace {

GeneratorParams railOnly(int servers, int nics, int leafRadix) {
    // The spine fields and ratios mean nothing to one tier: values every other kind refuses
    // (a radix of 1, a ratio of 100) show they are neither used nor judged.
    return generatorRequest("rail-only", servers, nics, false, leafRadix, 1, 1, 100.0, 100.0);
}

} // namespace

class tst_RailOnlyGenerator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void counts_data();
    void counts();
    void refusals_data();
    void refusals();
};

void tst_RailOnlyGenerator::counts_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<int>("switches");
    QTest::addColumn<int>("cablesPerServerSwitch");
    QTest::addColumn<LinkMedium>("medium"); // rail switches sit rows away; one switch is a ToR

    // The H100 build-out sheet's single layer (substack.tech-talk-cto.com, Aug 2024): 64
    // servers x 8 x 400G on 64-port Quantum-2s -> k = 1 (64 x 2 > 64), 8 switches, 512 cables.
    QTest::addRow("64 srv x 8 NIC, radix 64: a switch per rail")
        << railOnly(64, 8, 64) << 8 << 1 << LinkMedium::Aoc;
    // 16 x 4 = 64 <= 64 -> k = 4: two switches, each holding four rails of every server.
    QTest::addRow("16 srv x 8 NIC, radix 64: four rails a switch")
        << railOnly(16, 8, 64) << 2 << 4 << LinkMedium::Aoc;
    // 20 x 3 = 60 fits, but 3 does not divide 8; k = 2 -> four switches.
    QTest::addRow("20 srv x 8 NIC, radix 64: k divides the NICs")
        << railOnly(20, 8, 64) << 4 << 2 << LinkMedium::Aoc;
    // 8 x 8 = 64: every NIC on one switch (article 000's 8-node cluster), which is the
    // leaf-spine generator's one-switch cluster: copper, and no rail to fail.
    QTest::addRow("8 srv x 8 NIC, radix 64: one switch")
        << railOnly(8, 8, 64) << 1 << 8 << LinkMedium::Dac;
    // A p5-like server drawn as 32 x 100G: 32 servers x 2 = 64 -> k = 2, 16 switches.
    QTest::addRow("32 srv x 32 NIC, radix 64")
        << railOnly(32, 32, 64) << 16 << 2 << LinkMedium::Aoc;
    // Exactly the radix: 128 servers on 128-port rail switches (SN5600 at 400G).
    QTest::addRow("128 srv x 8 NIC, radix 128")
        << railOnly(128, 8, 128) << 8 << 1 << LinkMedium::Aoc;
}

void tst_RailOnlyGenerator::counts() {
    QFETCH(GeneratorParams, params);
    QFETCH(int, switches);
    QFETCH(int, cablesPerServerSwitch);
    QFETCH(LinkMedium, medium);
    const Topology t = generateOrFail(generateRailOnly, params);
    const TierCounts tiers = t.switchCounts();
    QCOMPARE(tiers.leaf, switches);
    QCOMPARE(tiers.spine, 0);
    QCOMPARE(tiers.core, 0);
    QCOMPARE(t.serverCount(), params.servers);
    const CableCounts cables = t.cableCounts();
    // Every NIC has exactly one cable, and nothing is cabled above the leaves.
    QCOMPARE(cables.server, static_cast<long long>(params.servers) * params.nicsPerServer);
    QCOMPARE(cables.leafSpine + cables.spineCore + cables.other, 0LL);
    for (const auto& [id, link] : t.links()) {
        QCOMPARE(link.count, cablesPerServerSwitch);
        QVERIFY(link.medium == medium);
    }
    // "rail-N" names the N-th rail switch (a rail group, as a shared rail leaf is in a
    // leaf-spine); a single switch has no rail to fail.
    std::vector<int> rails;
    for (const auto& [id, node] : t.nodes())
        if (node.kind == NodeKind::Leaf)
            rails.push_back(node.placement.rail);
    std::vector<int> expected(static_cast<std::size_t>(switches));
    for (int r = 0; r < switches; ++r)
        expected[static_cast<std::size_t>(r)] = switches == 1 ? -1 : r;
    QCOMPARE(rails, expected);
    // A sound design: no switch uses more ports than it has, every server is cabled.
    QCOMPARE(t.problems(), std::vector<std::string>{});
    // Each switch is a plane of its own: rails meet only over the servers' NVLink.
    QCOMPARE(switchPlanes(t), switches);
}

void tst_RailOnlyGenerator::refusals_data() {
    QTest::addColumn<GeneratorParams>("params");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QStringList>("mentions");

    QTest::addRow("65 servers on 64-port rail switches")
        << railOnly(65, 8, 64) << "servers" << QStringList{"65", "64", "leaf-spine"};
    QTest::addRow("no servers") << railOnly(0, 8, 64) << "servers" << QStringList{"servers"};
    QTest::addRow("radix of one port") << railOnly(1, 8, 1) << "leafRadix" << QStringList{"2"};
}

void tst_RailOnlyGenerator::refusals() {
    QFETCH(GeneratorParams, params);
    QFETCH(QString, field);
    QFETCH(QStringList, mentions);
    verifyRefusal(generateRailOnly, params, field, mentions);
}

QTEST_APPLESS_MAIN(tst_RailOnlyGenerator)
#include "tst_RailOnlyGenerator.moc"
