// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/ResultsPanel.hpp"

#include "views/models/NumberFormat.hpp"

#include <QLabel>
#include <QVBoxLayout>

namespace fabriclab::views {

ResultsPanel::ResultsPanel(QWidget* parent) : QWidget(parent), m_text(new QLabel(this)) {
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_text->setText(tr("Analysing the design…"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addStretch();
}

void ResultsPanel::show(const DesignFigures& f) {
    const TopologySummary& counts = f.counts;
    QString text =
        tr("<b>%1 GPUs</b> on %2 servers; %3 leaf, %4 spine and %5 core switches.<br>"
           "Bisection %6, %7% of half the injection bandwidth (worst leaf %8).<br>"
           "Fabric capex %9, adding $%10 to every GPU-hour over the amortization period.")
            .arg(numberText(counts.gpus), numberText(counts.servers),
                 numberText(counts.switches.leaf), numberText(counts.switches.spine),
                 numberText(counts.switches.core), bandwidthText(f.bisectionGbps),
                 numberText(100 * f.bisectionRatio, 0), ratioText(f.oversubscription),
                 usdText(f.capexUsd))
            .arg(numberText(f.perGpuHourUsd, 3));
    if (f.problems > 0) {
        const QString problems =
            f.problems == 1 ? tr("1 problem") : tr("%1 problems").arg(numberText(f.problems));
        text += tr("<br><font color='#d04040'>%1: %2</font>")
                    .arg(problems, f.firstProblem.toHtmlEscaped());
    }
    m_text->setText(text);
}

} // namespace fabriclab::views
