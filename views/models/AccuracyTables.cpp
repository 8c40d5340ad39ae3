// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/AccuracyTables.hpp"

#include "views/models/NumberFormat.hpp"

#include <QBrush>
#include <QColor>
#include <QStandardItemModel>
#include <QStringList>

#include <cmath>

namespace fabriclab::views {

namespace {

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

/// Sorts ids as a person reads them: "h100-sheet-128-servers" before "-1024-", numbers
/// compared by value (each run of digits padded to the same width).
QString naturalKey(const QString& text) {
    QString key;
    QString digits;
    const auto flush = [&] {
        key += digits.rightJustified(12, QLatin1Char('0'));
        digits.clear();
    };
    for (const QChar c : text) {
        if (c.isDigit()) {
            digits += c;
            continue;
        }
        if (!digits.isEmpty())
            flush();
        key += c;
    }
    if (!digits.isEmpty())
        flush();
    return key;
}

/// Adds `row` with `tip` on every cell, coloured by its verdict.
void appendRow(QStandardItemModel& table, const QList<QStandardItem*>& row, const QString& tip,
               model::Verdict verdict) {
    const QVariant brush = verdictBrush(verdict);
    for (QStandardItem* item : row) {
        item->setToolTip(tip);
        if (brush.isValid())
            item->setForeground(brush.value<QBrush>());
    }
    table.appendRow(row);
}

} // namespace

QString verdictText(model::Verdict verdict, double tolerance) {
    switch (verdict) {
    case model::Verdict::Within:
        return QObject::tr("within %1").arg(percentText(tolerance));
    case model::Verdict::KnownMissMet:
        return QObject::tr("within %1 (a known miss, now met)").arg(percentText(tolerance));
    case model::Verdict::KnownMiss:
        return QObject::tr("known miss");
    case model::Verdict::Miss:
        break;
    }
    return QObject::tr("outside %1").arg(percentText(tolerance));
}

QVariant verdictBrush(model::Verdict verdict) {
    switch (verdict) {
    case model::Verdict::KnownMiss:
        return QBrush(QColor(0x80, 0x80, 0x80));
    case model::Verdict::Miss:
        return QBrush(QColor(0xc6, 0x28, 0x28));
    case model::Verdict::Within:
    case model::Verdict::KnownMissMet:
        break;
    }
    return {};
}

int verdictRank(model::Verdict verdict) {
    switch (verdict) {
    case model::Verdict::KnownMiss:
        return 1;
    case model::Verdict::Miss:
        return 2;
    case model::Verdict::Within:
    case model::Verdict::KnownMissMet:
        break;
    }
    return 0;
}

void fillStepTable(QStandardItemModel& table, const model::ValidationReport& report) {
    table.clear();
    table.setHorizontalHeaderLabels({QObject::tr("Training step"), QObject::tr("Published"),
                                     QObject::tr("FabricLab"), QObject::tr("Compute"),
                                     QObject::tr("Exposed fabric"), QObject::tr("Error"),
                                     QObject::tr("Verdict")});
    for (std::size_t i = 0; i < report.stepChecks.size(); ++i) {
        const model::StepFigure& f = report.steps[i];
        const model::StepCheck& c = report.stepChecks[i];
        const model::Verdict verdict = model::verdictOf(c.withinTolerance, f.knownMiss());
        QList<QStandardItem*> row{cell(QString::fromStdString(f.id)),
                                  number(seconds(f.publishedSeconds), f.publishedSeconds),
                                  number(seconds(c.stepSeconds), c.stepSeconds),
                                  number(seconds(c.computeSeconds), c.computeSeconds),
                                  number(seconds(c.exposedSeconds), c.exposedSeconds),
                                  number(signedPercentText(c.error), c.error),
                                  cell(verdictText(verdict, f.tolerance), verdictRank(verdict))};
        QString tip =
            QObject::tr("<b>%1</b><br>%2<br>Workload: %3")
                .arg(QString::fromStdString(f.id), QString::fromStdString(f.source).toHtmlEscaped(),
                     QString::fromStdString(f.workload.dump()).toHtmlEscaped());
        if (f.knownMiss())
            tip += QStringLiteral("<br><i>%1</i>")
                       .arg(QString::fromStdString(f.finding).toHtmlEscaped());
        appendRow(table, row, tip, verdict);
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
        const model::Verdict verdict = model::verdictOf(c.exact, false);
        QList<QStandardItem*> row{
            cell(QString::fromStdString(f.id)), cell(counts(f.switches, f.cables)),
            cell(counts(c.switches, c.cables)),
            cell(c.exact ? QObject::tr("exact") : QObject::tr("differs"), verdictRank(verdict))};
        QString tip = QObject::tr("<b>%1</b><br>%2")
                          .arg(QString::fromStdString(f.id),
                               QString::fromStdString(f.source).toHtmlEscaped());
        if (!f.note.empty())
            tip +=
                QStringLiteral("<br><i>%1</i>").arg(QString::fromStdString(f.note).toHtmlEscaped());
        appendRow(table, row, tip, verdict);
    }
}

void fillCostTable(QStandardItemModel& table, const model::ValidationReport& report) {
    table.clear();
    table.setHorizontalHeaderLabels(
        {QObject::tr("Build-out"), QObject::tr("Set"), QObject::tr("Counts"),
         QObject::tr("Published per GPU"), QObject::tr("FabricLab per GPU"), QObject::tr("Error"),
         QObject::tr("Switches (published / FabricLab)"), QObject::tr("Verdict")});
    for (std::size_t i = 0; i < report.buildOutChecks.size(); ++i) {
        const model::BuildOutFigure& f = report.buildOuts[i];
        const model::BuildOutCheck& c = report.buildOutChecks[i];
        QStringList parts;
        if (f.parts.switches)
            parts << QObject::tr("switches");
        if (f.parts.nics)
            parts << QObject::tr("NICs");
        if (f.parts.cables)
            parts << QObject::tr("cables");
        const QString published =
            f.publishedSwitches < 0 ? QStringLiteral("—") : numberText(f.publishedSwitches);
        // A fit row is the calibration on show, not a verdict.
        const model::Verdict verdict = model::verdictOf(c.withinTolerance, f.knownMiss());
        const QString id = QString::fromStdString(f.id);
        QList<QStandardItem*> row{
            cell(id, naturalKey(id)),
            cell(QString::fromStdString(f.set)),
            cell(parts.join(QStringLiteral(" + "))),
            number(QStringLiteral("$") + numberText(std::round(f.publishedUsdPerGpu)),
                   f.publishedUsdPerGpu),
            number(QStringLiteral("$") + numberText(std::round(c.usdPerGpu)), c.usdPerGpu),
            number(signedPercentText(c.error), c.error),
            cell(QStringLiteral("%1 / %2").arg(published, numberText(c.switches))),
            f.isCheck() ? cell(verdictText(verdict, f.tolerance), verdictRank(verdict))
                        : cell(QObject::tr("fit (calibration)"), -1)};
        QString tip = QObject::tr("<b>%1</b><br>%2")
                          .arg(QString::fromStdString(f.id),
                               QString::fromStdString(f.source).toHtmlEscaped());
        for (const std::string* text : {&f.note, &f.finding})
            if (!text->empty())
                tip += QStringLiteral("<br><i>%1</i>")
                           .arg(QString::fromStdString(*text).toHtmlEscaped());
        appendRow(table, row, tip, f.isCheck() ? verdict : model::Verdict::Within);
    }
}

void fillMeasuredTable(QStandardItemModel& table, const model::MeasuredComparison& c) {
    table.clear();
    table.setHorizontalHeaderLabels({QObject::tr("Collective"), QObject::tr("Line"),
                                     QObject::tr("Size"), QObject::tr("Measured busbw"),
                                     QObject::tr("FabricLab busbw"), QObject::tr("Measured time"),
                                     QObject::tr("FabricLab time"), QObject::tr("Error"),
                                     QObject::tr("Verdict"), QObject::tr("Algorithm")});
    for (const model::MeasuredRun& run : c.runs)
        for (const model::MeasuredPoint& p : run.points) {
            const QString collective = QString::fromStdString(run.binary);
            if (!p.compared) {
                QList<QStandardItem*> row{
                    cell(collective),
                    number(QString::number(p.line), p.line),
                    number(bytesText(p.bytes), p.bytes),
                    number(busBandwidthText(p.measuredBusBwGBps), p.measuredBusBwGBps),
                    cell(QStringLiteral("—")),
                    number(durationText(p.measuredTimeUs * 1e-6), p.measuredTimeUs),
                    cell(QStringLiteral("—")),
                    cell(QStringLiteral("—")),
                    cell(QObject::tr("not compared"), 3),
                    cell(QString())};
                appendRow(table, row, QObject::tr("Size 0 or no time: nothing to compare."),
                          model::Verdict::KnownMiss);
                continue;
            }
            const model::Verdict verdict = model::verdictOf(p.within, false);
            QList<QStandardItem*> row{
                cell(collective),
                number(QString::number(p.line), p.line),
                number(bytesText(p.bytes), p.bytes),
                number(busBandwidthText(p.measuredBusBwGBps), p.measuredBusBwGBps),
                number(busBandwidthText(p.predictedBusBwGBps), p.predictedBusBwGBps),
                number(durationText(p.measuredTimeUs * 1e-6), p.measuredTimeUs),
                number(durationText(p.predictedTimeUs * 1e-6), p.predictedTimeUs),
                number(signedPercentText(p.error) +
                           (p.byTime ? QObject::tr(" (time)") : QObject::tr(" (busbw)")),
                       std::abs(p.error)),
                cell(verdictText(verdict, p.tolerance), verdictRank(verdict)),
                cell(engineText(model::toString(p.algorithm)) + QStringLiteral(" / ") +
                     engineText(model::toString(p.protocol)))};
            const QString tip =
                QObject::tr("%1, line %2 of %3: %4 ranks on %5 server(s) x %6 GPUs%7")
                    .arg(collective)
                    .arg(p.line)
                    .arg(QString::fromStdString(c.logName))
                    .arg(run.ranks)
                    .arg(run.servers)
                    .arg(run.gpusPerServer)
                    .arg(run.measuredGpu.empty()
                             ? QString()
                             : QStringLiteral(", ") + QString::fromStdString(run.measuredGpu));
            appendRow(table, row, tip, verdict);
        }
}

} // namespace fabriclab::views
