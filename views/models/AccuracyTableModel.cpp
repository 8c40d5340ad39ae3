// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/AccuracyTableModel.hpp"

#include "views/models/AccuracyTables.hpp"
#include "views/models/NumberFormat.hpp"

namespace fabriclab::views {

namespace {

QString valueText(const model::PublishedFigure& f, double value) {
    return f.timeUs ? numberText(value, 1) + QStringLiteral(" µs") : busBandwidthText(value);
}

} // namespace

AccuracyTableModel::AccuracyTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void AccuracyTableModel::setReport(ValidationReportPtr report) {
    beginResetModel();
    m_report = std::move(report);
    endResetModel();
}

int AccuracyTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_report ? 0 : static_cast<int>(m_report->checks.size());
}

int AccuracyTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString AccuracyTableModel::display(std::size_t row, int column) const {
    const model::PublishedFigure& f = m_report->figures[row];
    const model::FigureCheck& c = m_report->checks[row];
    switch (column) {
    case FigureColumn:
        return QString::fromStdString(f.id);
    case SetColumn:
        return QString::fromStdString(f.set);
    case ClusterColumn:
        return tr("%1 × %2 %3 · %4 × %5G · %6")
            .arg(f.servers)
            .arg(f.gpusPerServer)
            .arg(QString::fromStdString(f.gpu))
            .arg(f.nicsPerServer)
            .arg(f.nicGbps)
            .arg(QString::fromStdString(f.fabric));
    case TestColumn: {
        QString text = engineText(model::toString(f.op)) + QLatin1Char(' ') + bytesText(f.bytes);
        if (f.algorithm != model::CollectiveAlgorithm::Auto)
            text += tr(" (%1 forced)").arg(engineText(model::toString(f.algorithm)));
        return text;
    }
    case PublishedColumn:
        return f.low == f.high ? valueText(f, f.low)
                               : tr("%1 to %2").arg(valueText(f, f.low), valueText(f, f.high));
    case FabricLabColumn:
        return valueText(f, c.measured);
    case PickColumn:
        return engineText(model::toString(c.algorithm)) + QLatin1Char(' ') +
               engineText(model::toString(c.protocol));
    case ErrorColumn:
        return signedPercentText(c.errorVsMiddle);
    case VerdictColumn:
        return verdictText(model::verdictOf(c.withinTolerance, f.knownMiss()), f.tolerance);
    default:
        return {};
    }
}

QVariant AccuracyTableModel::sortValue(std::size_t row, int column) const {
    const model::PublishedFigure& f = m_report->figures[row];
    const model::FigureCheck& c = m_report->checks[row];
    switch (column) {
    case TestColumn:
        return f.bytes;
    case PublishedColumn:
        return (f.low + f.high) / 2;
    case FabricLabColumn:
        return c.measured;
    case ErrorColumn:
        return c.errorVsMiddle;
    case VerdictColumn:
        return verdictRank(model::verdictOf(c.withinTolerance, f.knownMiss()));
    default:
        return display(row, column);
    }
}

QVariant AccuracyTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_report)
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    if (row >= m_report->checks.size())
        return {};
    const model::PublishedFigure& f = m_report->figures[row];
    const model::FigureCheck& c = m_report->checks[row];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case IsCheckRole:
        return f.isCheck();
    case Qt::ToolTipRole: {
        QString tip =
            tr("<b>%1</b> (%2 set, reliability %3)<br>%4")
                .arg(QString::fromStdString(f.id), QString::fromStdString(f.set),
                     QString::fromStdString(f.reliability.empty() ? "not stated" : f.reliability),
                     QString::fromStdString(f.source).toHtmlEscaped());
        if (!f.isCheck())
            tip += tr("<br><i>Calibrates %1: meeting it proves nothing.</i>")
                       .arg(QString::fromStdString(f.calibrates).toHtmlEscaped());
        if (f.knownMiss())
            tip += QStringLiteral("<br><i>%1</i>")
                       .arg(QString::fromStdString(f.finding).toHtmlEscaped());
        tip += tr("<br>Tolerance: %1 (%2)")
                   .arg(percentText(f.tolerance), QString::fromStdString(f.why).toHtmlEscaped());
        return tip;
    }
    case Qt::ForegroundRole:
        return verdictBrush(model::verdictOf(c.withinTolerance, f.knownMiss()));
    case Qt::TextAlignmentRole:
        return index.column() >= PublishedColumn && index.column() <= ErrorColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant AccuracyTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FigureColumn:
        return tr("Figure");
    case SetColumn:
        return tr("Set");
    case ClusterColumn:
        return tr("Cluster");
    case TestColumn:
        return tr("Test");
    case PublishedColumn:
        return tr("Published");
    case FabricLabColumn:
        return tr("FabricLab");
    case ErrorColumn:
        return tr("Error");
    case VerdictColumn:
        return tr("Verdict");
    case PickColumn:
        return tr("Algorithm, protocol");
    default:
        return {};
    }
}

} // namespace fabriclab::views
