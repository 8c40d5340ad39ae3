// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// How the app writes numbers: one unit per figure (a spread or a range in the unit of the
// value), thousands grouped, in the panels, the captions and on the canvas alike.
#include "model/layout/LevelOfDetail.hpp"
#include "views/canvas/CanvasText.hpp"
#include "views/models/NumberFormat.hpp"

#include <QtTest>

using namespace fabriclab;
using views::CanvasText;

class tst_NumberFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The C locale omits separators unless asked: the app asks, whatever the session's.
    void initTestCase() { QLocale::setDefault(QLocale::c()); }
    void spreadAndRangeKeepOneUnit();
    void countsAreGroupedOnTheCanvas();
};

void tst_NumberFormat::spreadAndRangeKeepOneUnit() {
    QCOMPARE(views::bandwidthSpreadText(42800, 639.9), QStringLiteral("42.8 ± 0.6 Tb/s"));
    QCOMPARE(views::bandwidthSpreadText(3145728, 0), QStringLiteral("3,145.7 ± 0 Tb/s"));
    QCOMPARE(views::bandwidthSpreadText(800, 12.5), QStringLiteral("800 ± 12.5 Gb/s"));
    // A range in the unit of its larger end, even where the smaller would read in Gb/s.
    QCOMPARE(views::bandwidthRangeText(9800, 10200), QStringLiteral("9.8 to 10.2 Tb/s"));
    QCOMPARE(views::bandwidthRangeText(384, 640), QStringLiteral("384 to 640 Gb/s"));
    QCOMPARE(views::busBandwidthRangeText(47.504, 94.038), QStringLiteral("47.5 to 94 GB/s"));
    QCOMPARE(views::bandwidthText(12288), QStringLiteral("12.3 Tb/s"));
    QCOMPARE(views::numberText(16384), QStringLiteral("16,384"));
    QCOMPARE(views::numberLocale().toString(8000.0, 'f', 0), QStringLiteral("8,000"));
}

void tst_NumberFormat::countsAreGroupedOnTheCanvas() {
    // A block the size of the 16K-GPU sample: every count in the thousands.
    model::Block pod;
    pod.key.tier = model::GroupTier::Pod;
    pod.key.pod = 0;
    pod.servers = 2048;
    pod.leaves = 512;
    pod.spines = 512;
    pod.gpus = 16384;
    pod.internalCables = 24576;
    QVERIFY2(CanvasText::blockCounts(pod).contains(QStringLiteral("2,048 servers")),
             qPrintable(CanvasText::blockCounts(pod)));
    QVERIFY2(CanvasText::blockGpus(pod).contains(QStringLiteral("16,384 GPUs")),
             qPrintable(CanvasText::blockGpus(pod)));
    QVERIFY2(CanvasText::blockToolTip(pod).contains(QStringLiteral("24,576 cables inside")),
             qPrintable(CanvasText::blockToolTip(pod)));

    model::Topology topology;
    model::Node spine;
    spine.name = "spine-1";
    spine.kind = model::NodeKind::Spine;
    spine.sw = model::SwitchProps{2048, model::Gbps(400)};
    const model::NodeId id = topology.addNode(spine);
    QVERIFY2(CanvasText::nodeToolTip(topology, id).contains(QStringLiteral("2,048 × 400 Gb/s")),
             qPrintable(CanvasText::nodeToolTip(topology, id)));
}

QTEST_MAIN(tst_NumberFormat)
#include "tst_NumberFormat.moc"
