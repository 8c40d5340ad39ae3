// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/StatusFigures.hpp"

#include "views/models/NumberFormat.hpp"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>

#include <map>

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
    : QWidget(parent), m_analysing(new QLabel(tr("Analysing…"), this)),
      m_figures(new QWidget(this)), m_gpus(new QLabel(m_figures)),
      m_switches(new QLabel(m_figures)), m_ratio(new QLabel(m_figures)),
      m_bisection(new QLabel(m_figures)), m_capex(new QLabel(m_figures)),
      m_warning(new QLabel(m_figures)), m_problems(new QLabel(m_figures)) {
    m_analysing->setObjectName(QStringLiteral("analysing"));
    m_analysing->setToolTip(tr("Counting the design and computing its bisection and cost"));
    m_figures->setObjectName(QStringLiteral("figures"));
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

    auto* figures = new QHBoxLayout(m_figures);
    figures->setContentsMargins(0, 0, 0, 0);
    figures->setSpacing(8);
    figures->addWidget(m_warning);
    figures->addWidget(m_problems);
    figures->addWidget(m_gpus);
    std::map<QLabel*, QFrame*> lineBefore;
    for (QLabel* label : {m_switches, m_ratio, m_bisection, m_capex}) {
        lineBefore[label] = separator(m_figures);
        figures->addWidget(lineBefore[label]);
        figures->addWidget(label);
    }
    // In a narrow window the least telling figures give way, with their separators,
    // rather than the bar cutting off whatever comes last.
    for (QLabel* label : {m_switches, m_capex, m_ratio})
        m_giveWay.emplace_back(label, lineBefore[label]);
    // Each figure keeps the width of its text: the status bar may offer less, and a
    // squeezed label draws over its neighbour.
    for (QLabel* label : m_figures->findChildren<QLabel*>())
        label->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    m_figures->hide();

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_analysing);
    layout->addWidget(m_figures);
    // Natural width, not the stretch addPermanentWidget may ask for: spread over the whole
    // bar the figures would leave temporary messages (hints, refusals) no room at all.
    setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Preferred);
    if (parent)
        parent->installEventFilter(this);
}

void StatusFigures::show(const DesignFigures& f) {
    m_analysing->hide();
    m_figures->setVisible(true);

    const TopologySummary& counts = f.counts;
    m_gpus->setText(tr("%1 GPUs").arg(numberText(counts.gpus)));
    m_gpus->setToolTip(
        tr("%1 GPUs in %2 servers").arg(numberText(counts.gpus), numberText(counts.servers)));

    const model::TierCounts& tiers = counts.switches;
    QString switches =
        tr("%1 leaf · %2 spine").arg(numberText(tiers.leaf), numberText(tiers.spine));
    if (tiers.core > 0)
        switches += tr(" · %1 core").arg(numberText(tiers.core));
    QString tip = tr("Switches by tier: %1 in all").arg(numberText(tiers.total()));
    if (counts.switchPlanes > 1) {
        switches += tr(" · %1 planes").arg(numberText(counts.switchPlanes));
        tip += counts.portsPerNic > 1
                   ? tr("\nThe switches form %1 separate planes, one per port of each NIC "
                        "(%2 ports), every plane holding every rail: a flow is sprayed "
                        "evenly over them.")
                         .arg(numberText(counts.switchPlanes))
                         .arg(counts.portsPerNic)
                   : tr("\nThe switches form %1 separate planes, each serving its own rails: "
                        "traffic between rails of different planes crosses NVLink first (PXN).")
                         .arg(numberText(counts.switchPlanes));
    }
    m_switches->setText(switches);
    m_switches->setToolTip(tip);

    if (f.oversubscriptionMeasured) {
        m_ratio->setText(tr("%1 oversub.").arg(ratioText(f.oversubscription)));
        m_ratio->setToolTip(tr("Leaf oversubscription (worst leaf): downlink to uplink bandwidth"));
    } else {
        // An empty design or a lone switch has no ratio; "1:1" would claim a measurement.
        m_ratio->setText(tr("— oversub."));
        m_ratio->setToolTip(tr("Leaf oversubscription: no leaf with uplinks to measure"));
    }

    if (f.bisectionSplit.isEmpty()) {
        m_bisection->setText(tr("Bisection —"));
        m_bisection->setToolTip(tr("Theoretical bisection bandwidth: fewer than two servers "
                                   "connected to the fabric, so no halving to measure"));
    } else {
        const QString percent = numberText(f.bisectionRatio * 100, 0) + QStringLiteral("%");
        m_bisection->setText(tr("Bisection %1 (%2)").arg(bandwidthText(f.bisectionGbps), percent));
        // "50%" alone does not say of what; the worst halving is what the cut runs through.
        m_bisection->setToolTip(
            tr("Theoretical bisection bandwidth (minimum cut): %1 Gb/s.\n%2 is its percentage "
               "of half the servers' injection bandwidth, for the worst halving: %3")
                .arg(numberText(f.bisectionGbps), percent, f.bisectionSplit));
    }

    m_capex->setText(tr("Capex %1").arg(usdText(f.capexUsd)));
    m_capex->setToolTip(
        tr("Fabric capital cost (switches, NICs, cables, optics); adds %1 per GPU-hour")
            .arg(QStringLiteral("$") + numberText(f.perGpuHourUsd, 3)));

    m_warning->setVisible(f.problems > 0);
    m_problems->setVisible(f.problems > 0);
    m_problems->setText(f.problems == 1 ? tr("1 problem")
                                        : tr("%1 problems").arg(numberText(f.problems)));
    const QString problems =
        f.problems == 1 ? tr("1 problem to fix in this design")
                        : tr("%1 problems to fix in this design").arg(numberText(f.problems));
    m_warning->setToolTip(f.problems > 0 ? tr("%1. First: %2").arg(problems, f.firstProblem)
                                         : QString());
    m_problems->setToolTip(m_warning->toolTip());
    fitToStatusBar();
}

void StatusFigures::fitToStatusBar() {
    if (!m_figures->isVisibleTo(this) || !parentWidget())
        return;
    for (const auto& [label, line] : m_giveWay) {
        label->setVisible(true);
        line->setVisible(true);
    }
    // Room for the size grip and the bar's margins.
    const int available = parentWidget()->contentsRect().width() - 24;
    for (const auto& [label, line] : m_giveWay) {
        if (m_figures->sizeHint().width() <= available)
            break;
        label->setVisible(false);
        line->setVisible(false);
    }
}

bool StatusFigures::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        fitToStatusBar();
    return QWidget::eventFilter(watched, event);
}

bool StatusFigures::event(QEvent* event) {
    // addPermanentWidget moves the figures into the status bar: watch the bar's width.
    if (event->type() == QEvent::ParentAboutToChange && parentWidget())
        parentWidget()->removeEventFilter(this);
    if (event->type() == QEvent::ParentChange && parentWidget())
        parentWidget()->installEventFilter(this);
    return QWidget::event(event);
}

} // namespace fabriclab::views
