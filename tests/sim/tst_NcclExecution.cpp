// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// How FabricLab times NCCL's pick: the execution costs against numbers worked out by hand
// from the formulas in model/sim/NcclExecution.hpp.
#include "model/sim/NcclExecution.hpp"

#include <QtTest>

using namespace fabriclab::sim::nccl;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

/// A pick as the tuning table returns it: latency, bandwidth and NCCL's own time.
Cost pick(Algorithm algorithm, Protocol protocol, double latencyUs, double algBwGBps,
          double bytes) {
    return Cost{algorithm, protocol, latencyUs, algBwGBps,
                latencyUs + bytes / (1000.0 * algBwGBps)};
}

} // namespace

class tst_NcclExecution : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nvlsTreeRampsUpThenStreams_data();
    void nvlsTreeRampsUpThenStreams();
    void ringLl128PaysPerNetworkStep_data();
    void ringLl128PaysPerNetworkStep();
    void treeLl128MovesDataAtHalfRate();
    void hopperAllGatherRingLevelsOff_data();
    void hopperAllGatherRingLevelsOff();
    void nvlsStreamsAtTheSwitchesShare_data();
    void nvlsStreamsAtTheSwitchesShare();
    void nvlsFillGrowsWithTheDomain_data();
    void nvlsFillGrowsWithTheDomain();
    void nvlsTreePaysTheLargerFill();
    void treeNetworkLoadFollowsTheDoubleBinaryTree_data();
    void treeNetworkLoadFollowsTheDoubleBinaryTree();
    void treeSimpleStreamsAtTheNicsFromThreeServers_data();
    void treeSimpleStreamsAtTheNicsFromThreeServers();
    void otherPicksRunAsModelled_data();
    void otherPicksRunAsModelled();
    void p2pChunkFollowsNccl_data();
    void p2pChunkFollowsNccl();
    void p2pSoftwareTimeAddsUp();
};

void tst_NcclExecution::nvlsTreeRampsUpThenStreams_data() {
    QTest::addColumn<double>("algBwGBps");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("expectedUs");
    // Latency 66.8 us, 250 GB/s in the model: streaming at 0.92 x 250 = 230 GB/s = 230,000
    // bytes/us. The first 48 MiB (50,331,648 B) pay 1.07 x their time on 384 GB/s of NICs
    // again: 1.07 / 384,000 us per byte.
    // 16 MiB: 66.8 + 16,777,216 / 230,000 + 1.07 x 16,777,216 / 384,000
    //       = 66.8 + 72.944 + 46.749 = 186.49 us.
    QTest::addRow("16 MiB, filling")
        << 250.0 << 16 * kMiB << 66.8 + 16 * kMiB / 230000 + 1.07 * 16 * kMiB / 384000;
    // 48 MiB: the fill just completes: 66.8 + 218.83 + 140.25 = 425.88 us.
    QTest::addRow("48 MiB, full") << 250.0 << 48 * kMiB
                                  << 66.8 + 48 * kMiB / 230000 + 1.07 * 48 * kMiB / 384000;
    // 1 GiB: 66.8 + 1,073,741,824 / 230,000 + 140.25 = 4,875.5 us.
    QTest::addRow("1 GiB, streaming")
        << 250.0 << 1024 * kMiB << 66.8 + 1024 * kMiB / 230000 + 1.07 * 48 * kMiB / 384000;
    // Faster NVLink (B200: 410 GB/s in the model) on the same NICs streams faster but fills
    // just as slowly: 66.8 + 16,777,216 / 377,200 + 46.749 = 158.03 us.
    QTest::addRow("16 MiB, faster NVLink, same NICs")
        << 410.0 << 16 * kMiB << 66.8 + 16 * kMiB / 377200 + 1.07 * 16 * kMiB / 384000;
}

void tst_NcclExecution::nvlsTreeRampsUpThenStreams() {
    QFETCH(double, algBwGBps);
    QFETCH(double, bytes);
    QFETCH(double, expectedUs);
    const Cost chosen = pick(Algorithm::NvlsTree, Protocol::Simple, 66.8, algBwGBps, bytes);
    const double time = executionTimeUs(chosen, Function::AllReduce, bytes, 2, 16, 384);
    QVERIFY2(std::abs(time - expectedUs) <= 1e-9 * expectedUs, qPrintable(QString::number(time)));
    // Never faster than NCCL's own estimate: the measured curve lies below the model's.
    QVERIFY(time > chosen.timeUs);
}

void tst_NcclExecution::ringLl128PaysPerNetworkStep_data() {
    QTest::addColumn<int>("function");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("extraUs");
    // 45 us per network step, one per server boundary a piece crosses in a pass, while each
    // of the 8 x nodes ranks holds at most 1 MiB; above, 45 us x 1 MiB / piece.
    QTest::addRow("all-gather, 2 servers, 512 KiB pieces: 1 step")
        << int(Function::AllGather) << 2 << 8 * kMiB << 45.0;
    QTest::addRow("all-gather, 32 servers, 128 KiB pieces: 31 steps")
        << int(Function::AllGather) << 32 << 32 * kMiB << 1395.0;
    QTest::addRow("all-reduce, 4 servers, 1 MiB pieces: 2 x 3 steps")
        << int(Function::AllReduce) << 4 << 32 * kMiB << 270.0;
    // 1 GiB over 256 ranks: 4 MiB pieces, a quarter of the cost: 31 x 11.25 us.
    QTest::addRow("all-gather, 32 servers, 4 MiB pieces: hidden to a quarter")
        << int(Function::AllGather) << 32 << 1024 * kMiB << 348.75;
    QTest::addRow("one server: no network") << int(Function::AllGather) << 1 << 8 * kMiB << 0.0;
}

void tst_NcclExecution::ringLl128PaysPerNetworkStep() {
    QFETCH(int, function);
    QFETCH(int, nodes);
    QFETCH(double, bytes);
    QFETCH(double, extraUs);
    const Cost chosen = pick(Algorithm::Ring, Protocol::LL128, 100, 200, bytes);
    ExecutionCosts efa;
    efa.ringLl128NetworkStepUs = 45; // EFA's step (fabrics.json)
    const double time =
        executionTimeUs(chosen, Function(function), bytes, nodes, 8 * nodes, 384, efa);
    QVERIFY2(
        std::abs(time - (chosen.timeUs + extraUs)) <= 1e-9 * time,
        qPrintable(QStringLiteral("%1 us, expected %2").arg(time).arg(chosen.timeUs + extraUs)));
}

void tst_NcclExecution::treeLl128MovesDataAtHalfRate() {
    // Latency 65.5 us, 100 GB/s: NCCL's 4 MiB takes 65.5 + 4,194,304 / 100,000 = 107.44 us;
    // at 0.53 of the rate the data takes 41.94 / 0.53 = 79.14 us, so 144.64 us in all.
    const double bytes = 4 * kMiB;
    const Cost chosen = pick(Algorithm::Tree, Protocol::LL128, 65.5, 100, bytes);
    const double expected = 65.5 + bytes / 100000 / 0.53;
    const double time = executionTimeUs(chosen, Function::AllReduce, bytes, 4, 32, 384);
    QVERIFY2(std::abs(time - expected) <= 1e-9 * expected, qPrintable(QString::number(time)));
}

void tst_NcclExecution::hopperAllGatherRingLevelsOff_data() {
    QTest::addColumn<int>("architecture");
    QTest::addColumn<int>("function");
    QTest::addColumn<double>("share");
    // Only Hopper's all-gather: A100 and B200 runs reach the full ring rate, and all-reduce
    // rings on Hopper do too (fit case ndr-400g-per-nic).
    QTest::addRow("Hopper all-gather")
        << int(fabriclab::model::GpuArchitecture::Hopper) << int(Function::AllGather) << 0.85;
    QTest::addRow("Hopper all-reduce")
        << int(fabriclab::model::GpuArchitecture::Hopper) << int(Function::AllReduce) << 1.0;
    QTest::addRow("Hopper reduce-scatter (no published run)")
        << int(fabriclab::model::GpuArchitecture::Hopper) << int(Function::ReduceScatter) << 1.0;
    QTest::addRow("Ampere all-gather")
        << int(fabriclab::model::GpuArchitecture::Ampere) << int(Function::AllGather) << 1.0;
    QTest::addRow("Blackwell all-gather")
        << int(fabriclab::model::GpuArchitecture::Blackwell) << int(Function::AllGather) << 1.0;
}

void tst_NcclExecution::hopperAllGatherRingLevelsOff() {
    QFETCH(int, architecture);
    QFETCH(int, function);
    QFETCH(double, share);
    // Latency 40 us, 400 GB/s: NCCL's 1 GiB takes 40 + 1,073,741,824 / 400,000 = 2,724.4 us;
    // at 0.85 of the rate the data takes 2,684.4 / 0.85 = 3,158.1 us, so 3,198.1 us in all.
    const double bytes = 1024 * kMiB;
    const Cost chosen = pick(Algorithm::Ring, Protocol::Simple, 40, 400, bytes);
    const double expected = 40 + bytes / 400000 / share;
    const double time =
        executionTimeUs(chosen, Function(function), bytes, 4, 32, 384,
                        executionCostsFor(fabriclab::model::GpuArchitecture(architecture), {}));
    QVERIFY2(std::abs(time - expected) <= 1e-9 * expected, qPrintable(QString::number(time)));
}

void tst_NcclExecution::nvlsStreamsAtTheSwitchesShare_data() {
    QTest::addColumn<int>("nodes");
    QTest::addRow("one server") << 1;
    QTest::addRow("two servers with SHARP") << 2;
}

void tst_NcclExecution::nvlsStreamsAtTheSwitchesShare() {
    QFETCH(int, nodes);
    // Latency 30 us, 300 GB/s: NCCL's 64 MiB takes 30 + 67,108,864 / 300,000 = 253.7 us. At a
    // share of one half (a round number, not the fit) the data takes 223.7 / 0.5 = 447.4 us,
    // and the whole 477.4 us, with or without servers after the switches.
    const double bytes = 64 * kMiB;
    const Cost chosen = pick(Algorithm::Nvls, Protocol::Simple, 30, 300, bytes);
    ExecutionCosts costs;
    costs.nvlsPlateau = 0.5;
    costs.nvlsFillUsPerRank = 0; // the fill has its own test
    const double expected = 30 + bytes / 300000 / 0.5;
    const double time =
        executionTimeUs(chosen, Function::AllReduce, bytes, nodes, 8 * nodes, 384, costs);
    QVERIFY2(std::abs(time - expected) <= 1e-9 * expected, qPrintable(QString::number(time)));
}

void tst_NcclExecution::nvlsFillGrowsWithTheDomain_data() {
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("fillUs");
    // Round constants, not the fit: 5 us per GPU, reached as each GPU's shard passes 1 MB.
    // fill = 5 x G x S / (S + 1e6 x G).
    QTest::addRow("8 GPUs, 8 MB: half way") << 8 << 8e6 << 20.0;                   // 40 x 1/2
    QTest::addRow("8 GPUs, 1 GB: nearly all") << 8 << 1e9 << 40.0 * 1e9 / 1.008e9; // 39.68
    QTest::addRow("64 GPUs, 64 MB: half of eight times more") << 64 << 64e6 << 160.0;
}

void tst_NcclExecution::nvlsFillGrowsWithTheDomain() {
    QFETCH(int, gpus);
    QFETCH(double, bytes);
    QFETCH(double, fillUs);
    const Cost chosen = pick(Algorithm::Nvls, Protocol::Simple, 30, 300, bytes);
    ExecutionCosts costs;
    costs.nvlsPlateau = 1; // NCCL's own stream, so what is left is the fill
    costs.nvlsFillUsPerRank = 5;
    costs.nvlsFillBytesPerRank = 1e6;
    const double time = executionTimeUs(chosen, Function::AllReduce, bytes, 1, gpus, 384, costs);
    QVERIFY2(std::abs(time - chosen.timeUs - fillUs) <= 1e-9 * time,
             qPrintable(QString::number(time - chosen.timeUs)));
}

void tst_NcclExecution::nvlsTreePaysTheLargerFill() {
    // Two 72-GPU racks, 512 MiB, 3,072 GB/s of NICs per rack: the network fill is
    // 1.07 x 48 MiB / 3,072,000 = 17.5 us, NVLink SHARP's (5 us per GPU, 1 MB per GPU)
    // 5 x 72 x 536,870,912 / (536,870,912 + 72e6) = 317.4 us, so the rack pays the larger.
    const double bytes = 512 * kMiB;
    const Cost chosen = pick(Algorithm::NvlsTree, Protocol::Simple, 70, 400, bytes);
    ExecutionCosts costs;
    costs.nvlsPlateau = 1;
    costs.nvlsFillUsPerRank = 5;
    costs.nvlsFillBytesPerRank = 1e6;
    const double expected = 70 + bytes / 400000 + 5 * 72 * bytes / (bytes + 72e6);
    const double time = executionTimeUs(chosen, Function::AllReduce, bytes, 2, 144, 3072, costs);
    QVERIFY2(std::abs(time - expected) <= 1e-9 * expected, qPrintable(QString::number(time)));
}

void tst_NcclExecution::treeNetworkLoadFollowsTheDoubleBinaryTree_data() {
    QTest::addColumn<int>("nodes");
    QTest::addColumn<double>("load");
    // Worked from ncclGetBtree / ncclGetDtree (src/graph/trees.cc). A server moves half the
    // data each way per neighbour it has in each tree.
    QTest::addRow("one server: no network") << 1 << 0.0;
    // 0 - 1 in both trees (mirrored): one neighbour each, twice: (1 + 1) / 2.
    QTest::addRow("two servers") << 2 << 1.0;
    // Tree 0 is the chain 0 - 2 - 1; tree 1, shifted by one, is 1 - 0 - 2: servers 0 and 2
    // have two neighbours in one tree and one in the other: (2 + 1) / 2.
    QTest::addRow("three servers") << 3 << 1.5;
    // Tree 0: 0 - 2, 2 - 1, 2 - 3; tree 1 mirrors it, so 1 sits where 2 was: server 2 has
    // three neighbours in tree 0 and one in tree 1: (3 + 1) / 2.
    QTest::addRow("four servers") << 4 << 2.0;
    // From four on some server has a parent and two children in one tree and is a leaf in
    // the other: (3 + 1) / 2.
    QTest::addRow("five servers") << 5 << 2.0;
    QTest::addRow("sixteen servers") << 16 << 2.0;
    QTest::addRow("131,072 servers") << 131072 << 2.0;
}

void tst_NcclExecution::treeNetworkLoadFollowsTheDoubleBinaryTree() {
    QFETCH(int, nodes);
    QFETCH(double, load);
    QCOMPARE(treeNetworkLoad(nodes), load);
}

void tst_NcclExecution::treeSimpleStreamsAtTheNicsFromThreeServers_data() {
    QTest::addColumn<int>("nodes");
    QTest::addColumn<double>("modelGBps");
    QTest::addColumn<double>("expectedGBps");
    // Three GB200 trays, 4 x 400G each: 192 GB/s of NICs per server. NCCL's model caps the
    // tree at 4 channels x 24 GB/s x 0.5 = 48 GB/s; the NICs carry 0.92 x 192 / 1.5 =
    // 117.76 GB/s of all-reduce.
    QTest::addRow("three servers, model capped") << 3 << 48.0 << 0.92 * 192 / 1.5;
    // From four servers the busiest carries the data twice: 0.92 x 192 / 2 = 88.32 GB/s.
    QTest::addRow("eight servers, model capped") << 8 << 48.0 << 0.92 * 192 / 2;
    // Where the model is already faster than the NICs' share, its figure stands.
    QTest::addRow("eight servers, model faster") << 8 << 100.0 << 100.0;
    // Two servers: NCCL's model already counts the NICs once (bwIntra raised), unchanged.
    QTest::addRow("two servers") << 2 << 48.0 << 48.0;
}

void tst_NcclExecution::treeSimpleStreamsAtTheNicsFromThreeServers() {
    QFETCH(int, nodes);
    QFETCH(double, modelGBps);
    QFETCH(double, expectedGBps);
    const double bytes = 16 * 1024 * kMiB;
    const Cost chosen = pick(Algorithm::Tree, Protocol::Simple, 40, modelGBps, bytes);
    const double time = executionTimeUs(chosen, Function::AllReduce, bytes, nodes, 4 * nodes, 192);
    const double expected = 40 + bytes / (1000 * expectedGBps);
    QVERIFY2(std::abs(time - expected) <= 1e-9 * expected, qPrintable(QString::number(time)));
}

void tst_NcclExecution::otherPicksRunAsModelled_data() {
    QTest::addColumn<int>("algorithm");
    QTest::addColumn<int>("protocol");
    QTest::addColumn<int>("nodes");
    QTest::addRow("ring Simple") << int(Algorithm::Ring) << int(Protocol::Simple) << 8;
    QTest::addRow("ring LL") << int(Algorithm::Ring) << int(Protocol::LL) << 8;
    QTest::addRow("tree Simple") << int(Algorithm::Tree) << int(Protocol::Simple) << 8;
    QTest::addRow("tree LL128 on one server") << int(Algorithm::Tree) << int(Protocol::LL128) << 1;
    QTest::addRow("NVLS-tree on one server")
        << int(Algorithm::NvlsTree) << int(Protocol::Simple) << 1;
}

void tst_NcclExecution::otherPicksRunAsModelled() {
    QFETCH(int, algorithm);
    QFETCH(int, protocol);
    QFETCH(int, nodes);
    const double bytes = 64 * kMiB;
    const Cost chosen = pick(Algorithm(algorithm), Protocol(protocol), 30, 300, bytes);
    QCOMPARE(executionTimeUs(chosen, Function::AllReduce, bytes, nodes, 8 * nodes, 384),
             chosen.timeUs);
}

void tst_NcclExecution::p2pChunkFollowsNccl_data() {
    QTest::addColumn<double>("piece");
    QTest::addColumn<double>("chunk");
    // NCCL 2.27 src/enqueue.cc with NCCL_P2P_NET_CHUNKSIZE = 512 KiB: a quarter below one
    // setting, half below eight, the whole setting from eight up.
    QTest::addRow("128 KiB piece") << 128 * 1024.0 << 128 * 1024.0;
    QTest::addRow("just under 512 KiB") << 512 * 1024.0 - 1 << 128 * 1024.0;
    QTest::addRow("512 KiB") << 512 * 1024.0 << 256 * 1024.0;
    QTest::addRow("just under 4 MiB") << 4 * kMiB - 1 << 256 * 1024.0;
    QTest::addRow("4 MiB") << 4 * kMiB << 512 * 1024.0;
    QTest::addRow("1 GiB") << 1024 * kMiB << 512 * 1024.0;
}

void tst_NcclExecution::p2pChunkFollowsNccl() {
    QFETCH(double, piece);
    QFETCH(double, chunk);
    QCOMPARE(p2pChunkBytes(512 * 1024.0, piece), chunk);
}

void tst_NcclExecution::p2pSoftwareTimeAddsUp() {
    fabriclab::model::P2pExecution p2p;
    p2p.chunkBytes = 512 * 1024.0;
    p2p.startUs = 100;
    p2p.peerUs = 5;
    p2p.chunkUs = 1;
    // 1 MiB pieces go in 256 KiB chunks, 4 per peer: 100 + 56 x (5 + 4 x 1) = 604 us.
    QCOMPARE(p2pOverheadSeconds(p2p, kMiB, 56), 604e-6);
    // A piece smaller than its chunk still costs one: 100 + 56 x (5 + 1) = 436 us.
    QCOMPARE(p2pOverheadSeconds(p2p, 1024.0, 56), 436e-6);
    // Inside one server nothing goes through the plugin.
    QCOMPARE(p2pOverheadSeconds(p2p, kMiB, 0), 0.0);
    // NCCL's own plugins: no software time on top of the transfers.
    QCOMPARE(p2pOverheadSeconds(fabriclab::model::P2pExecution{}, kMiB, 56), 0.0);
}

QTEST_APPLESS_MAIN(tst_NcclExecution)
#include "tst_NcclExecution.moc"
