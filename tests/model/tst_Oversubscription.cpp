// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Leaf oversubscription: the worst leaf's server-facing bandwidth over its uplink
// bandwidth. Only a leaf with both can be measured; with none, there is no ratio (an
// empty design must not read "1:1").
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers pull in.
#ifndef Q_MOC_RUN
#include "model/analysis/Oversubscription.hpp"
#include "model/topology/Topology.hpp"

#include <optional>
#include <string>
#endif

using namespace fabriclab::model;

namespace {

NodeId addNode(Topology& t, const std::string& name, NodeKind kind) {
    Node n;
    n.name = name;
    n.kind = kind;
    n.server.nics = 8;
    n.server.nicSpeed = Gbps(400);
    n.sw = SwitchProps{64, Gbps(400)};
    return t.addNode(n);
}

void cable(Topology& t, NodeId a, NodeId b, int count) {
    t.addLink(Link{a, b, Gbps(400), count, LinkMedium::Dac, 2});
}

} // namespace

class tst_Oversubscription : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void worstLeaf_data();
    void worstLeaf();
};

void tst_Oversubscription::worstLeaf_data() {
    QTest::addColumn<int>("downA"); ///< 400G server cables on leaf A; 0: no server
    QTest::addColumn<int>("upA");   ///< 400G cables from leaf A to the spine; -1: no leaf
    QTest::addColumn<int>("downB"); ///< the same for leaf B; upB -1: no leaf B
    QTest::addColumn<int>("upB");
    QTest::addColumn<double>("ratio"); ///< 0: nothing to measure (nullopt)

    QTest::addRow("no leaves") << 0 << -1 << 0 << -1 << 0.0;
    QTest::addRow("a single leaf with servers and nothing above") << 8 << 0 << 0 << -1 << 0.0;
    QTest::addRow("leaves with uplinks but no servers") << 0 << 4 << 0 << 4 << 0.0;
    // 8 x 400 down : 4 x 400 up = 2:1.
    QTest::addRow("one leaf 2:1") << 8 << 4 << 0 << -1 << 2.0;
    // Worst of 8:4 (2:1) and 8:2 (4:1).
    QTest::addRow("worst of 2:1 and 4:1") << 8 << 4 << 8 << 2 << 4.0;
    // An unconnected leaf is a problem of its own, not an infinite ratio.
    QTest::addRow("2:1 beside a leaf with no uplinks") << 8 << 4 << 8 << 0 << 2.0;
    // More up than down is reported as 1:1, the slider's floor.
    QTest::addRow("4 down, 8 up") << 4 << 8 << 0 << -1 << 1.0;
}

void tst_Oversubscription::worstLeaf() {
    QFETCH(int, downA);
    QFETCH(int, upA);
    QFETCH(int, downB);
    QFETCH(int, upB);
    QFETCH(double, ratio);
    Topology t;
    const NodeId spine = addNode(t, "spine-1", NodeKind::Spine);
    const auto leaf = [&](const std::string& name, int down, int up) {
        if (up < 0)
            return;
        const NodeId id = addNode(t, name, NodeKind::Leaf);
        if (down > 0)
            cable(t, addNode(t, "srv-" + name, NodeKind::Server), id, down);
        if (up > 0)
            cable(t, id, spine, up);
    };
    leaf("leaf-a", downA, upA);
    leaf("leaf-b", downB, upB);

    const std::optional<double> measured = leafOversubscription(t);
    if (ratio == 0) {
        QVERIFY2(!measured, qPrintable(QString::number(measured.value_or(0))));
    } else {
        QVERIFY(measured);
        QCOMPARE(*measured, ratio);
    }
}

QTEST_APPLESS_MAIN(tst_Oversubscription)
#include "tst_Oversubscription.moc"
