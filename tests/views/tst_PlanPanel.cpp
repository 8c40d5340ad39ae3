// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The Plan tab as a user drives it: press Plan on a sample, read the ranked splits; an edit
// clears them; a design without a training job says why nothing can be planned.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/PlanTableModel.hpp"
#include "views/sim/PlanPanel.hpp"
#endif

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>

using namespace fabriclab;
using namespace fabriclab::views;

class tst_PlanPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void plansTheSample();
    void anEditClearsThePlan();
    void noTrainingJobIsSaid();
};

namespace {

constexpr int kPlanTimeoutMs = 60000; // an engine thread under a sanitizer on a busy machine

QString summaryOf(const PlanPanel& panel) {
    return panel.findChild<QLabel*>(QStringLiteral("planSummary"))->text();
}

} // namespace

void tst_PlanPanel::plansTheSample() {
    TopologyDocument document(model::Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json"));
    PlanPanel panel(document);
    panel.resize(1000, 400);
    panel.show();
    QSignalSpy planned(&panel, &PlanPanel::planned);
    QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("planRun")), Qt::LeftButton);
    QVERIFY(planned.wait(kPlanTimeoutMs));
    const auto& rows = panel.table()->layouts();
    QVERIFY(!rows.empty());
    QVERIFY(static_cast<int>(rows.size()) <= PlanPanel::kListed);
    for (std::size_t i = 1; i < rows.size(); ++i)
        QVERIFY(rows[i - 1].step.stepSeconds <= rows[i].step.stepSeconds);
    for (const auto& row : rows) {
        QCOMPARE(row.workload.gpus(), 16LL);
        QVERIFY(row.memory.fits);
    }
    // The table shows the engine's split and figures, the summary the counts.
    QCOMPARE(panel.table()->rowCount(), static_cast<int>(rows.size()));
    QVERIFY(panel.table()
                ->data(panel.table()->index(0, PlanTableModel::Split))
                .toString()
                .startsWith(QStringLiteral("tp %1").arg(rows.front().workload.tp)));
    QVERIFY2(summaryOf(panel).contains(QStringLiteral("fit in memory")),
             qPrintable(summaryOf(panel)));
    QVERIFY(!panel.isPlanning());
}

void tst_PlanPanel::anEditClearsThePlan() {
    TopologyDocument document(model::Catalog::builtin());
    document.load(
        QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json"));
    PlanPanel panel(document);
    QSignalSpy planned(&panel, &PlanPanel::planned);
    panel.plan();
    QVERIFY(planned.wait(kPlanTimeoutMs));
    QVERIFY(panel.table()->rowCount() > 0);
    model::Design design = document.design();
    design.name = "renamed";
    document.replaceDesign(std::move(design), QStringLiteral("rename"));
    QCOMPARE(panel.table()->rowCount(), 0);
    QVERIFY(summaryOf(panel).contains(QStringLiteral("plan again")));
}

void tst_PlanPanel::noTrainingJobIsSaid() {
    TopologyDocument document(model::Catalog::builtin());
    document.load(QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json"));
    model::Design design = document.design();
    design.workload.reset();
    document.replaceDesign(std::move(design), QStringLiteral("no job"));
    PlanPanel panel(document);
    panel.plan();
    QVERIFY(!panel.isPlanning());
    QVERIFY(summaryOf(panel).contains(QStringLiteral("no training job")));
    QCOMPARE(panel.table()->rowCount(), 0);
}

QTEST_MAIN(tst_PlanPanel)
#include "tst_PlanPanel.moc"
