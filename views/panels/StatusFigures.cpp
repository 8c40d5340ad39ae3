// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/StatusFigures.hpp"

#include "views/models/NumberFormat.hpp"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>

namespace fabriclab::views {
namespace {

QFrame* separator(QWidget* parent) {
    auto* line = new QFrame(parent);
    line->setFrameShape(QFrame::VLine);
    line->setFrameShadow(QFrame::Sunken);
    return line;
}

} // namespace

StatusFigures::StatusFigures(QWidget* parent)
    : QWidget(parent), m_gpus(new QLabel(this)), m_switches(new QLabel(this)),
      m_ratio(new QLabel(this)), m_bisection(new QLabel(this)), m_capex(new QLabel(this)),
      m_warning(new QLabel(this)), m_problems(new QLabel(this)) {
    m_gpus->setObjectName(QStringLiteral("gpus"));
    m_switches->setObjectName(QStringLiteral("switches"));
    m_ratio->setObjectName(QStringLiteral("oversubscription"));
    m_bisection->setObjectName(QStringLiteral("bisection"));
    m_capex->setObjectName(QStringLiteral("capex"));
    m_warning->setObjectName(QStringLiteral("warning"));
    m_problems->setObjectName(QStringLiteral("problems"));

    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_warning->setPixmap(style()
                             ->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this)
                             .pixmap(QSize(iconSize, iconSize), devicePixelRatioF()));
    m_warning->hide();
    m_problems->hide();

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);
    layout->addWidget(m_warning);
    layout->addWidget(m_problems);
    layout->addWidget(m_gpus);
    for (QLabel* label : {m_switches, m_ratio, m_bisection, m_capex}) {
        layout->addWidget(separator(this));
        layout->addWidget(label);
    }
    show(DesignFigures{});
}

void StatusFigures::show(const DesignFigures& f) {
    const TopologySummary& counts = f.counts;
    m_gpus->setText(tr("%1 GPUs").arg(numberText(counts.gpus)));
    m_gpus->setToolTip(
        tr("%1 GPUs in %2 servers").arg(numberText(counts.gpus), numberText(counts.servers)));

    const model::TierCounts& tiers = counts.switches;
    QString switches =
        tr("%1 leaf · %2 spine").arg(numberText(tiers.leaf), numberText(tiers.spine));
    if (tiers.core > 0)
        switches += tr(" · %1 core").arg(numberText(tiers.core));
    m_switches->setText(switches);
    m_switches->setToolTip(tr("Switches by tier: %1 in all").arg(numberText(tiers.total())));

    m_ratio->setText(tr("%1 oversub.").arg(ratioText(f.oversubscription)));
    m_ratio->setToolTip(tr("Leaf oversubscription (worst leaf): downlink to uplink bandwidth"));

    const QString percent = numberText(f.bisectionRatio * 100, 0) + QStringLiteral("%");
    m_bisection->setText(tr("Bisection %1 (%2)").arg(bandwidthText(f.bisectionGbps), percent));
    m_bisection->setToolTip(tr("Theoretical bisection bandwidth (minimum cut): %1 Gb/s, %2 of half "
                               "the servers' injection bandwidth")
                                .arg(numberText(f.bisectionGbps), percent));

    m_capex->setText(tr("Capex %1").arg(usdText(f.capexUsd)));
    m_capex->setToolTip(
        tr("Fabric capital cost (switches, NICs, cables, optics); adds %1 per GPU-hour")
            .arg(QStringLiteral("$") + numberText(f.perGpuHourUsd, 3)));

    m_warning->setVisible(f.problems > 0);
    m_problems->setVisible(f.problems > 0);
    m_problems->setText(f.problems == 1 ? tr("1 problem")
                                        : tr("%1 problems").arg(numberText(f.problems)));
    const QString problems =
        f.problems == 1 ? tr("1 problem makes this design unusable")
                        : tr("%1 problems make this design unusable").arg(numberText(f.problems));
    m_warning->setToolTip(f.problems > 0 ? tr("%1. First: %2").arg(problems, f.firstProblem)
                                         : QString());
    m_problems->setToolTip(m_warning->toolTip());
}

} // namespace fabriclab::views
