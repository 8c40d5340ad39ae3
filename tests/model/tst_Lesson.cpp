// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Teaching lessons: each schedule is replayed on paper (who holds which partial sums after
// every step) and must end with the collective's result; step counts follow the algorithm;
// step times are held to the NICs' speed worked out by hand, every lesson ends on the bus
// bandwidth fabriclab-cli nccl-tests reports for the same design, size and algorithm, and
// refusals name the reason.
#include <QTest>

#ifndef Q_MOC_RUN
#include "model/analysis/Connectivity.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/design/Failures.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/NcclTests.hpp"
#include "model/teach/Lesson.hpp"
#include "support/DesignText.hpp"
#include "support/GeneratorRequests.hpp"

#include <bitset>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#endif

using namespace fabriclab;
using teach::Lesson;

Q_DECLARE_METATYPE(fabriclab::teach::Lesson)
Q_DECLARE_METATYPE(fabriclab::model::Design)

namespace {

/// 8 servers of 2 GPUs and 2 x 400G NDR NICs, 4 leaves, 2 spines, 1:1.
constexpr const char* kSixteen =
    FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json";
/// 8 servers of 8 GPUs and 8 x 400G RoCE NICs, rail-optimized, 2:1, static ECMP.
constexpr const char* kSixtyFour =
    FABRICLAB_SOURCE_DIR "/samples/workshop-64gpu-rail-2to1.fabric.json";
constexpr double kBuffer = 256.0 * 1024 * 1024;

model::Design sample(const char* path) {
    return model::loadDesign(path, model::Catalog::builtin());
}

/// Which servers' data each holder has summed into each chunk, replayed move by move.
/// Moves in one step read what the holders had before the step, as they run at once.
using Contributions = std::map<std::uint32_t, std::vector<std::bitset<64>>>;

Contributions replay(const teach::LessonRun& run) {
    Contributions held;
    for (std::size_t i = 0; i < run.order.size(); ++i) {
        auto& chunks = held[run.order[i].value];
        chunks.assign(static_cast<std::size_t>(run.chunks), {});
        for (auto& chunk : chunks)
            chunk.set(i);
    }
    for (const teach::LessonStep& step : run.steps) {
        const Contributions before = held;
        for (const teach::ChunkMove& move : step.moves) {
            auto& to = held[move.to.value];
            to.resize(static_cast<std::size_t>(run.chunks)); // a switch starts empty
            const auto from = before.find(move.from.value);
            const std::bitset<64> sent = from == before.end()
                                             ? std::bitset<64>{}
                                             : from->second[static_cast<std::size_t>(move.chunk)];
            auto& chunk = to[static_cast<std::size_t>(move.chunk)];
            chunk = move.reduce ? (chunk | sent) : sent;
        }
    }
    return held;
}

} // namespace

class tst_Lesson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void allReduceLeavesEveryServerTheFullSum_data();
    void allReduceLeavesEveryServerTheFullSum();
    void allToAllSendsEveryPairOnce();
    void ringKeepsEveryLinkOfTheRingBusy();
    void ringRunsAtTheNicsSpeedOnANonBlockingFabric();
    void stepsNeverBeatTheNics();
    void linksAreLabelledWithTheirChunks();
    void refusals_data();
    void refusals();
    void aFailedSpineStillTeaches();
    void railOptimizedAllToAllStaysUnderTheLeaves();
    void sharpClimbsEveryRailPlane();
    void endsOnTheEnginesBusBandwidth_data();
    void endsOnTheEnginesBusBandwidth();
};

void tst_Lesson::allReduceLeavesEveryServerTheFullSum_data() {
    QTest::addColumn<Lesson>("lesson");
    QTest::addColumn<int>("steps");
    // 8 servers: a ring takes 2 x 7 steps; a binary tree over 8 is 3 levels deep, so 4
    // pipelined chunks take 4 + 3 - 1 = 6 steps up and 6 down; SHARP sends 4 chunks up and
    // the last one down: 5 steps.
    QTest::newRow("ring") << Lesson::RingAllReduce << 14;
    QTest::newRow("tree") << Lesson::TreeAllReduce << 12;
    QTest::newRow("sharp") << Lesson::SharpAllReduce << 5;
}

void tst_Lesson::allReduceLeavesEveryServerTheFullSum() {
    QFETCH(Lesson, lesson);
    QFETCH(int, steps);
    const teach::LessonRun run = teach::teach(sample(kSixteen), lesson, kBuffer);
    QCOMPARE(run.servers, 8);
    QCOMPARE(int(run.steps.size()), steps);
    const Contributions held = replay(run);
    std::bitset<64> everyone;
    for (int i = 0; i < run.servers; ++i)
        everyone.set(static_cast<std::size_t>(i));
    for (const model::NodeId server : run.order)
        for (int c = 0; c < run.chunks; ++c)
            QVERIFY2(held.at(server.value)[static_cast<std::size_t>(c)] == everyone,
                     qPrintable(QStringLiteral("server %1 chunk %2 misses a contribution")
                                    .arg(server.value)
                                    .arg(c)));
}

void tst_Lesson::allToAllSendsEveryPairOnce() {
    const teach::LessonRun run = teach::teach(sample(kSixtyFour), Lesson::AllToAll, kBuffer);
    QCOMPARE(int(run.steps.size()), run.servers - 1);
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> sent;
    for (const auto& step : run.steps)
        for (const auto& move : step.moves) {
            ++sent[{move.from.value, move.to.value}];
            // The chunk is the one meant for the receiver: its rank in the order.
            QCOMPARE(run.order[static_cast<std::size_t>(move.chunk)], move.to);
        }
    QCOMPARE(int(sent.size()), run.servers * (run.servers - 1));
    for (const auto& [pair, count] : sent) {
        QVERIFY(pair.first != pair.second);
        QCOMPARE(count, 1);
    }
}

void tst_Lesson::ringKeepsEveryLinkOfTheRingBusy() {
    const teach::LessonRun run = teach::teach(sample(kSixteen), Lesson::RingAllReduce, kBuffer);
    for (const auto& step : run.steps) {
        QCOMPARE(int(step.moves.size()), run.servers);
        std::set<std::uint32_t> senders;
        for (const auto& move : step.moves)
            senders.insert(move.from.value);
        QCOMPARE(int(senders.size()), run.servers);
    }
}

void tst_Lesson::ringRunsAtTheNicsSpeedOnANonBlockingFabric() {
    // Each step moves 1/8 of 256 MiB per server over its 2 NICs: 16 MiB per NIC at
    // 400 Gb/s x 0.96 (ib-ndr line efficiency) = 349.5 us on the wire. On a non-blocking
    // fabric every step of the ring is alike, so each takes 1/14 of NCCL's ring time, which
    // cannot beat the wire: NCCL's ring over 16 GPUs sends 2 x 15/16 of the buffer out of
    // every server, the drawn one over 8 servers 2 x 7/8. Tolerance 1e-9: rounding.
    const teach::LessonRun run = teach::teach(sample(kSixteen), Lesson::RingAllReduce, kBuffer);
    const double wire = 16.0 * 1024 * 1024 * 8 / (400e9 * 0.96);
    for (const auto& step : run.steps) {
        QVERIFY2(step.seconds >= wire, "a step cannot beat the NICs");
        QVERIFY2(std::abs(step.seconds / run.steps.front().seconds - 1) < 1e-9,
                 qPrintable(QString::number(step.seconds * 1e6)));
    }
    // Bus bandwidth at the end reads near the servers' NIC goodput, 2 x 48 GB/s: NCCL's
    // ring keeps every NIC busy, less what its protocol costs (within 10%; the engine's
    // ring, calibrated on published runs, reads 89 GB/s here).
    QVERIFY2(run.steps.back().busBwGBps <= 96.0 && run.steps.back().busBwGBps >= 0.9 * 96.0,
             qPrintable(QString::number(run.steps.back().busBwGBps)));
    QCOMPARE(run.steps.back().elapsedSeconds, [&] {
        double sum = 0;
        for (const auto& step : run.steps)
            sum += step.seconds;
        return sum;
    }());
}

void tst_Lesson::stepsNeverBeatTheNics() {
    // Physical bound: no server sends faster than its NICs (8 x 400G x 0.96 on
    // roce-v2-cx7: 384 GB/s). A ring or all-to-all step moves at least the chunk drawn
    // through each NIC, so none is shorter than that at the NICs' rate. The tree drawn is
    // slower than NCCL's (one tree of 4 large chunks where NCCL pipelines many small ones
    // over two), so its steps, sharing NCCL's time, may beat the chunk drawn; the whole
    // collective may not: an all-reduce without the switches reducing sends 2 x 7/8 of the
    // buffer out of each of the 8 servers, and an all-to-all each of a server's 8 GPUs'
    // buffers but the 8/64 that stays home. The bus bandwidth never reads above 384 GB/s.
    const model::Design design = sample(kSixtyFour);
    const double serverBytesPerSecond = 8 * 400e9 * 0.96 / 8;
    for (const Lesson lesson : {Lesson::RingAllReduce, Lesson::TreeAllReduce, Lesson::AllToAll}) {
        const teach::LessonRun run = teach::teach(design, lesson, kBuffer);
        const double perNic = kBuffer / run.chunks / 8;
        for (const auto& step : run.steps) {
            if (lesson != Lesson::TreeAllReduce)
                QVERIFY(step.seconds >= perNic * 8 / (400e9 * 0.96));
            QVERIFY(step.busBwGBps <= 8 * 48.0 * 1.0001);
            QVERIFY(!step.caption.empty());
            for (const auto& [link, load] : step.linkLoad)
                QVERIFY(load > 0 && load <= 1.0001f);
        }
        const double leavingServer =
            lesson == Lesson::AllToAll ? 8 * (56.0 / 64) * kBuffer : 2 * (7.0 / 8) * kBuffer;
        QVERIFY(run.steps.back().elapsedSeconds >= leavingServer / serverBytesPerSecond);
    }
}

void tst_Lesson::linksAreLabelledWithTheirChunks() {
    const model::Design design = sample(kSixteen);
    const teach::LessonRun run = teach::teach(design, Lesson::RingAllReduce, kBuffer);
    // Step 1 of the reduce-scatter: the first server sends chunk 0 and receives chunk 7
    // from the last server (which sends its own index), so its NIC cables (one link of two
    // cables to its leaf) carry c0 one way and c7 the other, and they are loaded.
    const auto& first = run.steps.front();
    const auto cables = design.topology.linksOf(run.order.front());
    QCOMPARE(int(cables.size()), 1);
    QCOMPARE(design.topology.link(cables.front()).count, 2);
    for (const model::LinkId cable : cables) {
        QVERIFY(first.linkChunks.count(cable.value));
        QVERIFY((first.linkChunks.at(cable.value) == std::vector<int>{0, 7}));
        QVERIFY(first.linkLoad.at(cable.value) > 0.9f);
    }
}

void tst_Lesson::refusals_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<Lesson>("lesson");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("too many GPUs")
        << QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json")
        << Lesson::RingAllReduce << kBuffer << QStringLiteral("64 GPUs");
    QTest::newRow("SHARP on RoCE") << QString::fromUtf8(kSixtyFour) << Lesson::SharpAllReduce
                                   << kBuffer << QStringLiteral("in-network reduction");
    QTest::newRow("no bytes") << QString::fromUtf8(kSixteen) << Lesson::RingAllReduce << 0.0
                              << QStringLiteral("positive");
    QTest::newRow("negative") << QString::fromUtf8(kSixteen) << Lesson::AllToAll << -1.0
                              << QStringLiteral("positive");
    QTest::newRow("not a number") << QString::fromUtf8(kSixteen) << Lesson::TreeAllReduce
                                  << std::nan("") << QStringLiteral("positive");
}

void tst_Lesson::refusals() {
    QFETCH(QString, path);
    QFETCH(Lesson, lesson);
    QFETCH(double, bytes);
    QFETCH(QString, mentions);
    const model::Design design = sample(qPrintable(path));
    try {
        teach::teach(design, lesson, bytes);
        QFAIL("the lesson should have been refused");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(mentions), e.what());
    }
}

void tst_Lesson::aFailedSpineStillTeaches() {
    model::Design design = sample(kSixteen);
    design.failures = model::loseOneSpine(design.topology);
    QVERIFY(!design.failures.empty());
    const teach::LessonRun run = teach::teach(design, Lesson::AllToAll, kBuffer);
    // The failed spine's links carry nothing in any step.
    const auto failed = model::failedElements(design.topology, design.failures);
    QCOMPARE(int(failed.nodesDown.size()), 1);
    const auto spineLinks = design.topology.linksOf(*failed.nodesDown.begin());
    QVERIFY(!spineLinks.empty());
    for (const auto& step : run.steps)
        for (const model::LinkId link : spineLinks)
            QVERIFY(!step.linkLoad.count(link.value));
    QVERIFY(replay(run).size() >= std::size_t(run.servers));
}

void tst_Lesson::railOptimizedAllToAllStaysUnderTheLeaves() {
    // Rail-optimized: NIC r of every server is on rail leaf r, and the lesson's flows go
    // rail to rail, so no step loads a spine uplink and the captions say so. On the
    // 16-GPU fabric servers sit under different leaves: flows do climb, and are told to.
    const auto switchLinkLoaded = [](const model::Design& design, const teach::LessonStep& step) {
        for (const auto& [id, load] : step.linkLoad) {
            const model::Link& link = design.topology.link(model::LinkId{id});
            if (model::isSwitch(design.topology.node(link.a).kind) &&
                model::isSwitch(design.topology.node(link.b).kind))
                return true;
        }
        return false;
    };
    const model::Design rail = sample(kSixtyFour);
    for (const auto& step : teach::teach(rail, Lesson::AllToAll, kBuffer).steps) {
        QVERIFY(!switchLinkLoaded(rail, step));
        QVERIFY(step.caption.find("spines stay idle") != std::string::npos);
    }
    const model::Design leafSpine = sample(kSixteen);
    for (const auto& step : teach::teach(leafSpine, Lesson::AllToAll, kBuffer).steps) {
        QVERIFY(switchLinkLoaded(leafSpine, step));
        QVERIFY(step.caption.find("cross the spines") != std::string::npos);
    }
}

void tst_Lesson::sharpClimbsEveryRailPlane() {
    // The 16-GPU workshop servers (2 GPUs, 2 NDR NICs) rail-optimized on radix-4 switches:
    // 2 servers per unit, 4 units x 2 rail leaves = 8 leaves, more than a spine's 4 ports,
    // so each rail has spines of its own. SHARP sums up to the top of each plane: every
    // leaf's uplinks carry the summed stream, not only the first plane's.
    model::Design design = sample(kSixteen);
    model::GeneratorParams p = testing::generatorRequest("leaf-spine", 8, 2, true, 4, 4, 4, 1, 1);
    p.gpusPerServer = 2;
    design.topology = model::generateLeafSpine(p);
    design.generator.reset();
    QCOMPARE(model::switchPlanes(design.topology), 2);
    const teach::LessonRun run = teach::teach(design, Lesson::SharpAllReduce, kBuffer);
    std::set<std::uint32_t> leavesClimbing;
    for (const auto& [id, load] : run.steps.front().linkLoad) {
        const model::Link& link = design.topology.link(model::LinkId{id});
        if (design.topology.node(link.a).kind == model::NodeKind::Leaf &&
            design.topology.node(link.b).kind == model::NodeKind::Spine && load > 0)
            leavesClimbing.insert(link.a.value);
    }
    QCOMPARE(int(leavesClimbing.size()), design.topology.switchCounts().leaf);
}

void tst_Lesson::endsOnTheEnginesBusBandwidth_data() {
    // Every lesson on every workshop sample and a few small generated designs (one leaf,
    // a 2:1 leaf-spine on static ECMP, a three-tier fat-tree, rail-only), at a size where
    // start-up latency counts and one where bandwidth does. The lesson's last bus
    // bandwidth must be what nccl-tests reports for that design, size and algorithm: the
    // ring lesson with --algo ring, the tree with --algo tree, SHARP with --algo sharp
    // (CollNet, or NVLS reducing in the switches) on a fabric that has it and the design's
    // "sharp" switch on, and the all-to-all as NCCL runs it by default.
    QTest::addColumn<model::Design>("design");
    QTest::addColumn<Lesson>("lesson");
    QTest::addColumn<double>("bytes");
    const model::Catalog& catalog = model::Catalog::builtin();
    const auto generated = [&](const char* name, const char* fabric, nlohmann::json generator) {
        return model::parseDesign(testing::generatedDesign(name, fabric, generator).dump(), name,
                                  catalog);
    };
    nlohmann::json twoToOne = testing::railGenerator(8);
    twoToOne.update({{"gpusPerServer", 4},
                     {"nicsPerServer", 2},
                     {"railOptimized", false},
                     {"leafRadix", 6},
                     {"spineRadix", 8},
                     {"oversubscription", 2.0}});
    nlohmann::json fatTree = testing::railGenerator(8, "fat-tree");
    fatTree.update({{"gpusPerServer", 4},
                    {"nicsPerServer", 2},
                    {"railOptimized", false},
                    {"leafRadix", 4},
                    {"spineRadix", 4},
                    {"coreRadix", 4},
                    {"spineOversubscription", 1.0}});
    const std::vector<std::pair<std::string, model::Design>> designs{
        {"workshop-16", sample(kSixteen)},
        {"workshop-64", sample(kSixtyFour)},
        {"teaching-4", sample(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json")},
        {"one-leaf", model::parseDesign(testing::generatorDesign().dump(), "one leaf", catalog)},
        {"roce-2to1", generated("8 x 4 GPUs, 2:1, RoCE", "roce-v2", twoToOne)},
        {"fat-tree", generated("8 x 4 GPUs, fat-tree", "spectrum-x", fatTree)},
        {"rail-only",
         generated("4 x 8 GPUs, rail-only", "ib-ndr", testing::railGenerator(4, "rail-only"))},
    };
    for (const auto& [name, design] : designs)
        for (const Lesson lesson : {Lesson::RingAllReduce, Lesson::TreeAllReduce,
                                    Lesson::SharpAllReduce, Lesson::AllToAll})
            for (const double mib : {4.0, 256.0}) {
                model::Design taught = design;
                if (lesson == Lesson::SharpAllReduce) {
                    // SHARP needs switches that reduce: InfiniBand NDR where the design
                    // has another fabric, and the job's SHARP switch on.
                    if (!taught.fabric.spec.inNetworkReduction)
                        taught.fabric.spec = *catalog.findFabric("ib-ndr");
                    taught.sharp = true;
                }
                QTest::addRow("%s %s %g MiB", name.c_str(), teach::toString(lesson).data(), mib)
                    << taught << lesson << mib * 1024 * 1024;
            }
}

void tst_Lesson::endsOnTheEnginesBusBandwidth() {
    QFETCH(model::Design, design);
    QFETCH(Lesson, lesson);
    QFETCH(double, bytes);
    model::NcclTestsOptions options;
    options.minBytes = options.maxBytes = bytes;
    switch (lesson) {
    case Lesson::RingAllReduce:
        options.algorithm = model::CollectiveAlgorithm::Ring;
        break;
    case Lesson::TreeAllReduce:
        options.algorithm = model::CollectiveAlgorithm::Tree;
        break;
    case Lesson::SharpAllReduce:
        options.algorithm = model::CollectiveAlgorithm::Sharp;
        break;
    case Lesson::AllToAll:
        options.op = model::CollectiveOp::AllToAll;
        break;
    }
    const model::NcclTestsReport engine =
        model::runNcclTests(design, model::Catalog::builtin(), options);
    QCOMPARE(int(engine.rows.size()), 1);
    const double expected = engine.rows.front().busBwGBps;
    const teach::LessonRun run = teach::teach(design, lesson, bytes);
    QVERIFY(!run.steps.empty());
    const double taught = run.steps.back().busBwGBps;
    const double seconds = engine.rows.front().timeUs * 1e-6;
    // Within 5%: issue 31's bound for a lesson agreeing with the engine. A lesson reports
    // the engine's own figure, so the two meet to rounding; 5% is not slack for a lesson to
    // time its drawn schedule instead (a few large chunks, one tree, servers for GPUs):
    // that misses by 6% (the ring) to several times (SHARP, whose hand-made step time
    // once divided bytes by bits per second).
    QVERIFY2(std::abs(taught / expected - 1) <= 0.05,
             qPrintable(QStringLiteral("lesson %1 GB/s, nccl-tests %2 GB/s (%3, %4 ranks)")
                            .arg(taught, 0, 'f', 1)
                            .arg(expected, 0, 'f', 1)
                            .arg(QString::fromStdString(
                                std::string(model::toString(engine.rows.front().algorithm))))
                            .arg(engine.ranks)));
    // The steps' times add up to the engine's time for the collective, within the same bound.
    QVERIFY2(std::abs(run.steps.back().elapsedSeconds / seconds - 1) <= 0.05,
             qPrintable(QStringLiteral("lesson %1 us, nccl-tests %2 us")
                            .arg(run.steps.back().elapsedSeconds * 1e6)
                            .arg(seconds * 1e6)));
}

QTEST_APPLESS_MAIN(tst_Lesson)
#include "tst_Lesson.moc"
