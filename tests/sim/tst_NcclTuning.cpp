// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// NCCL's cost model (NcclTuning.hpp) against the worked example of
// docs/reference/nccl-cost-model.md §5.1, whose figures were worked out by hand from
// NCCL 2.30.7's tuning.cc: Hopper, Intel CPU, 4 nodes x 8 GPUs, ring and tree graphs of
// 4 channels at 10 GB/s, no CollNet, NVLS or PAT. The note prints one decimal, so every
// comparison allows half a unit in the last place printed.
// Then the graph search (NcclGraphs.hpp) on servers whose result the NCCL maintainers
// quote, and the enable rules NCCL applies.
#include <QTest>

#ifndef Q_MOC_RUN
#include "model/sim/NcclGraphs.hpp"
#include "model/sim/NcclTuning.hpp"
#include "support/RelativeCompare.hpp"
#endif

using namespace fabriclab::sim::nccl;
using fabriclab::model::GpuArchitecture;

Q_DECLARE_METATYPE(fabriclab::sim::nccl::Algorithm)
Q_DECLARE_METATYPE(fabriclab::sim::nccl::Protocol)

namespace {

System workedExample() {
    System s;
    s.architecture = GpuArchitecture::Hopper;
    s.nodes = 4;
    s.ranksPerNode = 8;
    s.ring = Graph{4, 10, 10};
    s.tree = Graph{4, 10, 10};
    return s;
}

/// Printed to one decimal: the true value lies within 0.05 of it (plus rounding noise).
void compareOneDecimal(double actual, double printed) {
    QVERIFY2(std::abs(actual - printed) <= 0.05 + 1e-9,
             qPrintable(QStringLiteral("%1, expected %2 to one decimal").arg(actual).arg(printed)));
}

} // namespace

class tst_NcclTuning : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void workedExampleTable_data();
    void workedExampleTable();
    void workedExampleChoice_data();
    void workedExampleChoice();
    void inNetworkReductionIsOptIn();
    void searchOnKnownServers_data();
    void searchOnKnownServers();
    void fabricCapsChannels();
};

void tst_NcclTuning::workedExampleTable_data() {
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<Protocol>("protocol");
    QTest::addColumn<double>("latencyUs");
    QTest::addColumn<double>("algBwGBps");

    // docs/reference/nccl-cost-model.md §5.1, table "pair | Lat (us) | algBw (GB/s)".
    QTest::addRow("ring LL") << Algorithm::Ring << Protocol::LL << 78.8 << 10.3;
    QTest::addRow("ring LL128") << Algorithm::Ring << Protocol::LL128 << 144.4 << 19.0;
    QTest::addRow("ring Simple") << Algorithm::Ring << Protocol::Simple << 282.8 << 20.6;
    QTest::addRow("tree LL") << Algorithm::Tree << Protocol::LL << 35.2 << 4.8;
    QTest::addRow("tree LL128") << Algorithm::Tree << Protocol::LL128 << 65.5 << 17.3;
    QTest::addRow("tree Simple") << Algorithm::Tree << Protocol::Simple << 120.4 << 18.4;
}

void tst_NcclTuning::workedExampleTable() {
    QFETCH(Algorithm, algorithm);
    QFETCH(Protocol, protocol);
    QFETCH(double, latencyUs);
    QFETCH(double, algBwGBps);

    const TuningTable table(workedExample());
    compareOneDecimal(table.latencyUs(Function::AllReduce, algorithm, protocol), latencyUs);
    compareOneDecimal(table.bandwidthGBps(Function::AllReduce, algorithm, protocol), algBwGBps);
}

void tst_NcclTuning::workedExampleChoice_data() {
    QTest::addColumn<double>("bytes");
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<Protocol>("protocol");
    QTest::addColumn<double>("timeUs");

    // docs/reference/nccl-cost-model.md §5.1: "AllReduce choice, with the tree correction and the ring plateau".
    QTest::addRow("1 KiB") << 1024.0 << Algorithm::Tree << Protocol::LL << 35.4;
    QTest::addRow("64 KiB") << 65536.0 << Algorithm::Tree << Protocol::LL << 57.8;
    QTest::addRow("1 MiB") << 1048576.0 << Algorithm::Tree << Protocol::LL128 << 166.8;
    QTest::addRow("16 MiB") << 16777216.0 << Algorithm::Ring << Protocol::LL128 << 1027.7;
    QTest::addRow("256 MiB") << 268435456.0 << Algorithm::Ring << Protocol::Simple << 13400.0;
}

void tst_NcclTuning::workedExampleChoice() {
    QFETCH(double, bytes);
    QFETCH(Algorithm, algorithm);
    QFETCH(Protocol, protocol);
    QFETCH(double, timeUs);

    const auto chosen = TuningTable(workedExample()).select(Function::AllReduce, bytes);
    QVERIFY(chosen);
    QCOMPARE(toString(chosen->algorithm), toString(algorithm));
    QCOMPARE(toString(chosen->protocol), toString(protocol));
    // 13.40 ms is printed to 10 us; the others to 0.1 us.
    const double halfUnit = timeUs > 10000 ? 5.0 : 0.05;
    QVERIFY2(std::abs(chosen->timeUs - timeUs) <= halfUnit + 1e-9,
             qPrintable(QStringLiteral("%1 us, expected %2").arg(chosen->timeUs).arg(timeUs)));
}

void tst_NcclTuning::inNetworkReductionIsOptIn() {
    // NCCL_COLLNET_ENABLE is unset by default: without it neither CollNet nor multi-node
    // NVLS (which needs IB SHARP) may run, whatever the hardware offers.
    System s = workedExample();
    s.nvlsSupported = true;
    s.collNet = Graph{4, 20, 10};
    s.nvls = Graph{16, 20, 24};
    s.nvlsTree = s.nvls;
    const TuningTable off(s);
    for (const auto a : {Algorithm::CollNetDirect, Algorithm::CollNetChain, Algorithm::Nvls})
        QVERIFY(!off.cost(Function::AllReduce, a, Protocol::Simple, 1 << 30));
    s.collNetEnabled = true;
    const TuningTable on(s);
    for (const auto a : {Algorithm::CollNetDirect, Algorithm::CollNetChain, Algorithm::Nvls})
        QVERIFY(on.cost(Function::AllReduce, a, Protocol::Simple, 1 << 30));
    // NVLS-tree needs no switch reduction: available either way across nodes.
    QVERIFY(off.cost(Function::AllReduce, Algorithm::NvlsTree, Protocol::Simple, 1 << 30));
}

void tst_NcclTuning::searchOnKnownServers_data() {
    QTest::addColumn<int>("nodes");
    QTest::addColumn<int>("nics");
    QTest::addColumn<double>("nicGBps");
    QTest::addColumn<double>("expectedGBps"); // ring channels x per-channel speed

    // An HGX H100 (NVLink 370.8 GB/s as NCCL counts it, PCIe Gen5 48 GB/s). The NCCL
    // maintainers quote 46-48 GB/s per 400G NIC (nccl-tests #290): NCCL's inter-node speed
    // list tops out at 48, so 8 NICs give 8 channels of 48.
    QTest::addRow("8 x 400G, 4 nodes") << 4 << 8 << 50.0 << 384.0;
    // 16 x 200G: 25 GB/s each rounds down to 24 (the list has no 25), 16 channels.
    QTest::addRow("16 x 200G, 4 nodes") << 4 << 16 << 25.0 << 384.0;
    // 32 x 100G EFA: four NICs act as one 400G NIC per GPU, capped by PCIe at 48.
    QTest::addRow("32 x 100G, 4 nodes") << 4 << 32 << 12.5 << 384.0;
    // 4 x 400G: half the NICs, half the channels.
    QTest::addRow("4 x 400G, 4 nodes") << 4 << 4 << 50.0 << 192.0;
    // One node: NVLink only. 370.8 / 60 = 6 channels of 60, doubled at half speed: 360.
    QTest::addRow("one node") << 1 << 8 << 50.0 << 360.0;
}

void tst_NcclTuning::searchOnKnownServers() {
    QFETCH(int, nodes);
    QFETCH(int, nics);
    QFETCH(double, nicGBps);
    QFETCH(double, expectedGBps);

    NodeHardware h;
    h.nics = nics;
    h.nicGBps = nicGBps;
    const System s = searchGraphs(Communicator{h, nodes, 1e9, 0, false});
    COMPARE_WITHIN(s.ring.channels * (nodes > 1 ? s.ring.bwInter : s.ring.bwIntra), expectedGBps,
                   1e-9); // sums of list speeds: exact
}

void tst_NcclTuning::fabricCapsChannels() {
    // A fabric that carries 280 GB/s per node (RoCE, 8 x 400G at 70%) leaves each of the
    // 8 channels 35 GB/s, not the 48 the NICs' line rate would allow.
    NodeHardware h;
    const System s = searchGraphs(Communicator{h, 4, 280, 0, false});
    QCOMPARE(s.ring.channels, 8);
    COMPARE_WITHIN(s.ring.bwInter, 35.0, 1e-12);
    const System fast = searchGraphs(Communicator{h, 4, 1000, 0, false});
    COMPARE_WITHIN(fast.ring.bwInter, 48.0, 1e-12); // the NICs bound it, not the fabric
}

QTEST_APPLESS_MAIN(tst_NcclTuning)
#include "tst_NcclTuning.moc"
