// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/CompareTableModel.hpp"

#include "views/models/NumberFormat.hpp"

#include <QFont>

namespace fabriclab::views {
namespace {

const QString kNone = QStringLiteral("—");

/// Exact enough to check by hand against the CLI, without float noise.
QString exact(double value) {
    return numberText(value, 6);
}

QString usdRate(double usd) {
    return QStringLiteral("$") + numberText(usd, 3);
}

} // namespace

CompareTableModel::CompareTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareTableModel::setResult(CompareResultPtr result) {
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int CompareTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->rows.size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool CompareTableModel::isRecommended(const CompareRow& row) const {
    return row.ok() && !m_result->verdict.recommendedId.empty() &&
           row.fabricId.toStdString() == m_result->verdict.recommendedId;
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CompareRow& row = m_result->rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        return toolTip(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case FabricIdRole:
        return row.fabricId;
    case Qt::FontRole:
        if (isRecommended(row)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == FabricColumn || index.column() == NoteColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

QString CompareTableModel::display(const CompareRow& row, int column) const {
    if (column == FabricColumn)
        return row.fabricName;
    if (column == NoteColumn) {
        if (!row.ok())
            return tr("Cannot run: %1").arg(row.error);
        // How the design was built on this fabric comes first: it says whether the
        // figures are the fabric's own build or the drawing priced with its parts.
        QStringList notes;
        if (isRecommended(row))
            notes << tr("Recommended");
        if (!row.basis.isEmpty())
            notes << row.basis;
        if (!row.warnings.isEmpty())
            notes << row.warnings.first();
        return notes.join(QStringLiteral("; "));
    }
    if (!row.ok())
        return kNone;
    const model::FabricOutcome& o = row.outcome;
    switch (column) {
    case BisectionColumn:
        return bandwidthText(row.effectiveBisectionGbps);
    case BusBwColumn:
        return busBandwidthText(o.busBwGBps);
    case StepColumn:
        return row.hasWorkload ? durationText(o.stepSeconds) : kNone;
    case FirstTokenColumn:
        return o.serving ? durationText(o.ttftSeconds) : kNone;
    case ServedColumn:
        return o.serving ? numberText(o.servedTokensPerSecondPerGpu, 0) : kNone;
    case CapexColumn:
        return usdText(o.capexUsd);
    case PerGpuHourColumn:
        return row.ownership.priced ? usdRate(row.ownership.perGpuHourUsd) : kNone;
    case PerTokenColumn:
        return row.hasWorkload && o.perMillionTokensUsd > 0 ? usdRate(o.perMillionTokensUsd)
                                                            : kNone;
    default:
        return {};
    }
}

QString CompareTableModel::toolTip(const CompareRow& row, int column) const {
    if (!row.ok())
        return tr("%1 cannot run this design: %2").arg(row.fabricName, row.error);
    const model::FabricOutcome& o = row.outcome;
    const QString noWorkload = tr("The design has no workload, so there is no step to time.");
    switch (column) {
    case FabricColumn:
        return tr("%1 (catalog id %2)").arg(row.fabricName, row.fabricId);
    case BisectionColumn:
        return tr("Effective bisection %1 Gb/s: what permutation traffic across the worst "
                  "halving gets under this fabric's routing, of a %2 Gb/s min cut.")
            .arg(exact(row.effectiveBisectionGbps), exact(row.theoreticalBisectionGbps));
    case BusBwColumn:
        return tr("Bus bandwidth %1 GB/s (gigabytes per second, as nccl-tests reports busbw) "
                  "of the design's collective, which takes %2 s.")
            .arg(exact(o.busBwGBps), exact(row.collectiveSeconds));
    case StepColumn:
        if (!row.hasWorkload)
            return noWorkload;
        return tr("Step time %1 s; communication on the fabric is %2 of compute.")
            .arg(exact(o.stepSeconds), percentText(o.commToCompute));
    case FirstTokenColumn:
        if (!o.serving)
            return tr("The design serves no model.");
        return tr("Time to first token %1 s (a token every %2 s after it)%3.")
            .arg(exact(o.ttftSeconds), exact(o.tpotSeconds),
                 o.servingUsesFabric ? tr(", the KV hand-over crossing this fabric")
                                     : tr("; serving stays inside each server"));
    case ServedColumn:
        if (!o.serving)
            return tr("The design serves no model.");
        return tr("%1 output tokens per second per GPU, the whole cluster serving.")
            .arg(exact(o.servedTokensPerSecondPerGpu));
    case CapexColumn:
        return tr("Fabric capex $%1 in US dollars: switches, NICs, cables and optics, not "
                  "the GPUs.")
            .arg(numberText(o.capexUsd, 2));
    case PerGpuHourColumn:
        if (!row.ownership.priced)
            return tr("Not priced: %1.").arg(QString::fromStdString(row.ownership.unpriced));
        return row.ownership.mode == model::OwnershipMode::Owned
                   ? tr("$%1 per GPU-hour: GPU servers $%2, fabric $%3 and energy $%4 over %5 "
                        "months, spread over every GPU-hour.")
                         .arg(exact(row.ownership.perGpuHourUsd),
                              numberText(row.ownership.serversUsd, 0),
                              numberText(row.ownership.fabricUsd, 0),
                              numberText(row.ownership.energyUsd, 0),
                              numberText(row.ownership.months))
                   : tr("$%1 per GPU-hour, rented: %2.")
                         .arg(exact(row.ownership.perGpuHourUsd),
                              QString::fromStdString(row.ownership.rentalOffer));
    case PerTokenColumn:
        if (!row.hasWorkload)
            return noWorkload;
        if (o.perMillionTokensUsd <= 0)
            return tr("Not priced: %1.").arg(QString::fromStdString(row.ownership.unpriced));
        return tr("$%1 per million tokens: the cluster's cost over %2 months against the %3 "
                  "tokens it trains at %4 tokens/s.")
            .arg(exact(o.perMillionTokensUsd), numberText(row.ownership.months),
                 numberText(row.ownership.lifetimeTokens), numberText(o.tokensPerSecond));
    case NoteColumn: {
        QStringList lines;
        if (isRecommended(row))
            lines << QString::fromStdString(m_result->verdict.headline);
        if (!row.basis.isEmpty())
            lines << tr("Built as: %1").arg(row.basis);
        return (lines + row.warnings).join(QLatin1Char('\n'));
    }
    default:
        return {};
    }
}

QVariant CompareTableModel::sortValue(const CompareRow& row, int column) const {
    if (column == FabricColumn)
        return row.fabricName;
    if (column == NoteColumn)
        return display(row, column);
    if (!row.ok())
        return {}; // a fabric that did not run has no figure to rank
    const model::FabricOutcome& o = row.outcome;
    switch (column) {
    case BisectionColumn:
        return row.effectiveBisectionGbps;
    case BusBwColumn:
        return o.busBwGBps;
    case StepColumn:
        return row.hasWorkload ? QVariant(o.stepSeconds) : QVariant();
    case FirstTokenColumn:
        return o.serving ? QVariant(o.ttftSeconds) : QVariant();
    case ServedColumn:
        return o.serving ? QVariant(o.servedTokensPerSecondPerGpu) : QVariant();
    case CapexColumn:
        return o.capexUsd;
    case PerGpuHourColumn:
        return row.ownership.priced ? QVariant(row.ownership.perGpuHourUsd) : QVariant();
    case PerTokenColumn:
        return row.hasWorkload && o.perMillionTokensUsd > 0 ? QVariant(o.perMillionTokensUsd)
                                                            : QVariant();
    default:
        return {};
    }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case FabricColumn:
            return tr("Fabric");
        case BisectionColumn:
            return tr("Bisection delivered"); // cells carry their unit (Gb/s or Tb/s)
        case BusBwColumn:
            return tr("Bus bw (GB/s)");
        case StepColumn:
            return tr("Step time");
        case FirstTokenColumn:
            return tr("First token");
        case ServedColumn:
            return tr("Tokens/s/GPU");
        case CapexColumn:
            return tr("Fabric capex");
        case PerGpuHourColumn:
            return tr("$/GPU-h");
        case PerTokenColumn:
            return tr("$/M tokens");
        case NoteColumn:
            return tr("Note");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case BisectionColumn:
            return tr("Effective bisection in gigabits per second, simulated under each "
                      "fabric's routing");
        case BusBwColumn:
            return tr("Bus bandwidth of the design's collective in gigabytes per second, as "
                      "nccl-tests defines busbw");
        case StepColumn:
            return tr("Time of one training step of the design's workload");
        case FirstTokenColumn:
            return tr("Serving: time to first token of the design's serving workload");
        case ServedColumn:
            return tr("Serving: output tokens per second per GPU");
        case CapexColumn:
            return tr("Capital cost of the fabric (not the GPUs), US dollars");
        case PerGpuHourColumn:
            return tr("The whole cluster's cost per GPU-hour over its life, owned (servers, "
                      "fabric, energy) or rented, US dollars");
        case PerTokenColumn:
            return tr("The cluster's lifetime cost per million tokens it trains, US dollars: "
                      "what the verdict ranks by");
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && section != FabricColumn && section != NoteColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace fabriclab::views
