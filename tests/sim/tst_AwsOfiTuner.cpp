// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// aws-ofi-nccl's region tuner as FabricLab follows it: the plugin's geometry on polygons
// drawn by hand, and its p5 all-reduce table at points read off the corners in
// src/tuner/nccl_ofi_regions.cpp (aws/aws-ofi-nccl).
#include "model/sim/AwsOfiTuner.hpp"

#include <QtTest>

using namespace fabriclab::sim::nccl;
using namespace fabriclab::sim::nccl::aws;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

bool anyPair(Algorithm, Protocol) {
    return true;
}

} // namespace

Q_DECLARE_METATYPE(Algorithm)
Q_DECLARE_METATYPE(Protocol)

class tst_AwsOfiTuner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void insideEdgeAndOutside_data();
    void insideEdgeAndOutside();
    void p5AllReduceRegions_data();
    void p5AllReduceRegions();
    void twoServersAreLeftToNccl();
    void pairsNcclCannotRunAreSkipped();
    void platformsFromTheServer();
};

void tst_AwsOfiTuner::insideEdgeAndOutside_data() {
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("ranks");
    QTest::addColumn<bool>("inside");
    // The square 1 MiB-16 MiB x 16-256 ranks; the plugin tests on log2 coordinates, so
    // 4 MiB x 64 ranks is its centre.
    QTest::addRow("centre") << 4 * kMiB << 64.0 << true;
    QTest::addRow("on an edge counts as inside") << 16 * kMiB << 64.0 << true;
    QTest::addRow("a corner") << 1 * kMiB << 16.0 << true;
    QTest::addRow("too large") << 32 * kMiB << 64.0 << false;
    QTest::addRow("too few ranks") << 4 * kMiB << 8.0 << false;
}

void tst_AwsOfiTuner::insideEdgeAndOutside() {
    QFETCH(double, bytes);
    QFETCH(double, ranks);
    QFETCH(bool, inside);
    const Region square{
        Platform::P5,        8,
        Function::AllReduce, Algorithm::Ring,
        Protocol::Simple,    {{1 * kMiB, 16}, {16 * kMiB, 16}, {16 * kMiB, 256}, {1 * kMiB, 256}}};
    QCOMPARE(contains(square, bytes, ranks), inside);
}

void tst_AwsOfiTuner::p5AllReduceRegions_data() {
    QTest::addColumn<double>("bytes");
    QTest::addColumn<int>("servers");
    QTest::addColumn<Algorithm>("algorithm");
    QTest::addColumn<Protocol>("protocol");
    // p5, 8 GPUs per server, all-reduce. Tree LL128 holds everything left of
    // (30 MiB, 16) - (36 MiB, 32) - (112 MiB, 64) - (288 MiB, 128) ...
    QTest::addRow("4 MiB on 4 servers") << 4 * kMiB << 4 << Algorithm::Tree << Protocol::LL128;
    QTest::addRow("64 MiB on 16 servers") << 64 * kMiB << 16 << Algorithm::Tree << Protocol::LL128;
    // ... ring LL128 the band from there to (1 GiB, 17) - (2 GiB, 64) - (2 GiB, 128) ...
    QTest::addRow("1 GiB on 8 servers") << 1 * kGiB << 8 << Algorithm::Ring << Protocol::LL128;
    // ... ring Simple right of (1.5 GiB, 32) - (2.5 GiB, 64) - (7.5 GiB, 160) ...
    QTest::addRow("8 GiB on 4 servers") << 8 * kGiB << 4 << Algorithm::Ring << Protocol::Simple;
    QTest::addRow("8 GiB on 16 servers") << 8 * kGiB << 16 << Algorithm::Ring << Protocol::Simple;
    // ... and NVLS-tree above that line: at 256 ranks it passes 12.9 GB.
    QTest::addRow("8 GiB on 32 servers")
        << 8 * kGiB << 32 << Algorithm::NvlsTree << Protocol::Simple;
}

void tst_AwsOfiTuner::p5AllReduceRegions() {
    QFETCH(double, bytes);
    QFETCH(int, servers);
    QFETCH(Algorithm, algorithm);
    QFETCH(Protocol, protocol);
    const auto picked = pick(Platform::P5, Function::AllReduce, bytes, servers, 8, anyPair);
    QVERIFY(picked.has_value());
    QCOMPARE(toString(picked->first), toString(algorithm));
    QCOMPARE(toString(picked->second), toString(protocol));
}

void tst_AwsOfiTuner::twoServersAreLeftToNccl() {
    // 4 MiB on 16 ranks lies in p5's tree LL128 polygon, and so does 4 MiB on 24 ranks:
    // the point is covered, but the plugin leaves two servers to NCCL.
    QVERIFY(pick(Platform::P5, Function::AllReduce, 4 * kMiB, 3, 8, anyPair).has_value());
    QVERIFY(!pick(Platform::P5, Function::AllReduce, 4 * kMiB, 2, 8, anyPair));
    // p5 has no all-gather polygons for 8 GPUs per server: NCCL chooses.
    QVERIFY(!pick(Platform::P5, Function::AllGather, 64 * kMiB, 8, 8, anyPair));
}

void tst_AwsOfiTuner::pairsNcclCannotRunAreSkipped() {
    // Without NVLink SHARP the NVLS-tree polygon is passed over, as the plugin skips pairs
    // NCCL marks as unavailable; the point then falls in no other polygon.
    const auto noNvls = [](Algorithm a, Protocol) { return a != Algorithm::NvlsTree; };
    QVERIFY(!pick(Platform::P5, Function::AllReduce, 8 * kGiB, 32, 8, noNvls));
}

void tst_AwsOfiTuner::platformsFromTheServer() {
    QVERIFY(platformOf("h100-sxm", 32, 100) == Platform::P5);
    QVERIFY(platformOf("h200", 32, 100) == Platform::P5); // p5e
    QVERIFY(platformOf("h200", 16, 200) == Platform::P5en);
    QVERIFY(platformOf("b200", 8, 400) == Platform::P6);
    QVERIFY(platformOf("b300", 16, 400) == Platform::P6B300); // 6,400 Gb/s of EFA
    QVERIFY(platformOf("b300", 8, 800) == Platform::P6B300);
    QVERIFY(!platformOf("b300", 8, 400)); // half the instance's EFA: not a p6-b300
    QVERIFY(!platformOf("a100", 4, 100)); // p4d/p4de: no polygons
    // The instance is the GPU and its EFA in all, however the design draws the NICs.
    QVERIFY(platformOf("h100-sxm", 8, 400) == Platform::P5);
    QVERIFY(platformOf("h200", 8, 400) == Platform::P5en);
    QVERIFY(platformOf("b200", 32, 100) == Platform::P6);
    QVERIFY(!platformOf("h100-sxm", 8, 200)); // half p5's EFA: no instance
    QVERIFY(!platformOf("h100-sxm", 4, 100));
}

QTEST_APPLESS_MAIN(tst_AwsOfiTuner)
#include "tst_AwsOfiTuner.moc"
