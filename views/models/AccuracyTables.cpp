// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/AccuracyTables.hpp"

#include "views/models/NumberFormat.hpp"

#include <QBrush>
#include <QColor>
#include <QStandardItemModel>

#include <cmath>

namespace fabriclab::views {

namespace {

const QColor kMiss(0xc6, 0x28, 0x28);
const QColor kKnownMiss(0x80, 0x80, 0x80);

QStandardItem* cell(const QString& text, const QVariant& sortValue = {}) {
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortValue.isValid() ? sortValue : QVariant(text), Qt::UserRole);
    return item;
}

QStandardItem* number(const QString& text, double value) {
    QStandardItem* item = cell(text, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString seconds(double value) {
    return QStringLiteral("%1 s").arg(value, 0, 'f', 2);
}

QString counts(const model::TierCounts& s, const model::CableCounts& c) {
    return QObject::tr("%1 / %2 / %3 switches, %4 / %5 / %6 cables")
        .arg(numberText(s.leaf), numberText(s.spine), numberText(s.core),
             numberText(static_cast<double>(c.server)),
             numberText(static_cast<double>(c.leafSpine)),
             numberText(static_cast<double>(c.spineCore)));
}

} // namespace

void fillStepTable(QStandardItemModel& table, const model::ValidationReport& report) {
    table.clear();
    table.setHorizontalHeaderLabels({QObject::tr("Training step"), QObject::tr("Published"),
                                     QObject::tr("FabricLab"), QObject::tr("Compute"),
                                     QObject::tr("Exposed fabric"), QObject::tr("Error"),
                                     QObject::tr("Verdict")});
    for (std::size_t i = 0; i < report.stepChecks.size(); ++i) {
        const model::StepFigure& f = report.steps[i];
        const model::StepCheck& c = report.stepChecks[i];
        const QString verdict =
            c.withinTolerance ? QObject::tr("within %1").arg(percentText(f.tolerance))
            : f.knownMiss()   ? QObject::tr("known miss")
                              : QObject::tr("outside %1").arg(percentText(f.tolerance));
        QList<QStandardItem*> row{
            cell(QString::fromStdString(f.id)),
            number(seconds(f.publishedSeconds), f.publishedSeconds),
            number(seconds(c.stepSeconds), c.stepSeconds),
            number(seconds(c.computeSeconds), c.computeSeconds),
            number(seconds(c.exposedSeconds), c.exposedSeconds),
            number(QStringLiteral("%1%2%")
                       .arg(c.error < 0 ? QStringLiteral("−") : QStringLiteral("+"))
                       .arg(std::abs(100 * c.error), 0, 'f', 1),
                   c.error),
            cell(verdict, c.withinTolerance ? 0
                          : f.knownMiss()   ? 1
                                            : 2)};
        QString tip =
            QObject::tr("<b>%1</b><br>%2<br>Workload: %3")
                .arg(QString::fromStdString(f.id), QString::fromStdString(f.source).toHtmlEscaped(),
                     QString::fromStdString(f.workload.dump()).toHtmlEscaped());
        if (f.knownMiss())
            tip += QStringLiteral("<br><i>%1</i>")
                       .arg(QString::fromStdString(f.finding).toHtmlEscaped());
        for (QStandardItem* item : row) {
            item->setToolTip(tip);
            if (!c.withinTolerance)
                item->setForeground(QBrush(f.knownMiss() ? kKnownMiss : kMiss));
        }
        table.appendRow(row);
    }
}

void fillSizingTable(QStandardItemModel& table, const model::ValidationReport& report) {
    table.clear();
    table.setHorizontalHeaderLabels({QObject::tr("Reference architecture"),
                                     QObject::tr("Published (leaf / spine / core)"),
                                     QObject::tr("FabricLab"), QObject::tr("Verdict")});
    for (std::size_t i = 0; i < report.architectureChecks.size(); ++i) {
        const model::ArchitectureFigure& f = report.architectures[i];
        const model::ArchitectureCheck& c = report.architectureChecks[i];
        QList<QStandardItem*> row{
            cell(QString::fromStdString(f.id)), cell(counts(f.switches, f.cables)),
            cell(counts(c.switches, c.cables)),
            cell(c.exact ? QObject::tr("exact") : QObject::tr("differs"), c.exact ? 0 : 2)};
        QString tip = QObject::tr("<b>%1</b><br>%2")
                          .arg(QString::fromStdString(f.id),
                               QString::fromStdString(f.source).toHtmlEscaped());
        if (!f.note.empty())
            tip +=
                QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(f.note).toHtmlEscaped());
        for (QStandardItem* item : row) {
            item->setToolTip(tip);
            if (!c.exact)
                item->setForeground(QBrush(kMiss));
        }
        table.appendRow(row);
    }
}

} // namespace fabriclab::views
