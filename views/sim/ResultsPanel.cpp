// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/ResultsPanel.hpp"

#include <QLabel>
#include <QLocale>
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
    const QLocale locale;
    QString text =
        tr("<b>%1 GPUs</b> on %2 servers; %3 leaf, %4 spine and %5 core switches.<br>"
           "Bisection %6 Gb/s, %7% of half the injection bandwidth (worst leaf %8:1).<br>"
           "Fabric capex $%9, adding $%10 to every GPU-hour over the amortization period.")
            .arg(locale.toString(f.gpus), locale.toString(f.servers), locale.toString(f.leaves),
                 locale.toString(f.spines), locale.toString(f.cores),
                 locale.toString(f.bisectionGbps, 'f', 0),
                 locale.toString(100 * f.bisectionRatio, 'f', 0),
                 locale.toString(f.oversubscription, 'g', 3), locale.toString(f.capexUsd, 'f', 0))
            .arg(locale.toString(f.perGpuHourUsd, 'f', 3));
    if (f.problems > 0)
        text += tr("<br><font color='#d04040'>%n problem(s): %1</font>", nullptr, f.problems)
                    .arg(f.firstProblem.toHtmlEscaped());
    m_text->setText(text);
}

} // namespace fabriclab::views
