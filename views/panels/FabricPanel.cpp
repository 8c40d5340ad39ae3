// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/FabricPanel.hpp"

#include "model/analysis/Oversubscription.hpp"
#include "model/fabric/Generators.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/panels/DesignRegeneration.hpp"
#include "views/sim/DesignFacts.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fabriclab::views {
namespace {

// Long enough for a few arrow presses to land as one step, short enough to feel applied.
constexpr int kKeyboardCommitMs = 500;

/// The ratio a leaf gives, as the panel shows it ("—" without leaves with uplinks).
QString builtText(const std::optional<model::LeafRatio>& leaf) {
    return leaf ? ratioText(leaf->ratio) : QStringLiteral("—");
}

/// Why a generated fabric's leaves are not at the ratio asked, from the leaf that sets it.
QString builtWhy(const model::Topology& topology, const model::LeafRatio& leaf, double asked) {
    // Both sides in one unit, so the two read against each other.
    const AxisUnit unit = bandwidthAxis(std::max(leaf.downGbps, leaf.upGbps));
    const auto rate = [&](double gbps) {
        return numberText(gbps / unit.divisor, 1) + QLatin1Char(' ') + unit.unit;
    };
    return FabricPanel::tr("Built at %1, not the %2 asked: %3 has %4 cables (%5) down to its "
                           "servers and %6 (%7) up. Uplinks come in whole cables spread evenly "
                           "over the spines, so the generator builds the nearest ratio it can.")
        .arg(ratioText(leaf.ratio), ratioText(asked),
             QString::fromStdString(topology.node(leaf.leaf).name), numberText(leaf.downCables),
             rate(leaf.downGbps), numberText(leaf.upCables), rate(leaf.upGbps));
}

/// Switch and cable counts now and at the candidate ratio, side by side; changed values bold.
QString comparison(const TopologySummary& now, const TopologySummary& next, double ratio,
                   const QString& ratioNow, const QString& ratioNext) {
    QString rows;
    const auto row = [&](const QString& what, long long a, long long b) {
        const QString after = numberText(static_cast<double>(b));
        rows += QStringLiteral("<tr><td>%1</td><td align=right style='padding-left:14px'>%2</td>"
                               "<td align=right style='padding-left:14px'>%3</td></tr>")
                    .arg(what, numberText(static_cast<double>(a)),
                         a == b ? after : QStringLiteral("<b>%1</b>").arg(after));
    };
    row(FabricPanel::tr("Leaves"), now.switches.leaf, next.switches.leaf);
    row(FabricPanel::tr("Spines"), now.switches.spine, next.switches.spine);
    if (now.switches.core > 0 || next.switches.core > 0)
        row(FabricPanel::tr("Cores"), now.switches.core, next.switches.core);
    row(FabricPanel::tr("Switch cables"), now.cables.switchToSwitch(),
        next.cables.switchToSwitch());
    rows +=
        QStringLiteral("<tr><td>%1</td><td align=right style='padding-left:14px'>%2</td>"
                       "<td align=right style='padding-left:14px'>%3</td></tr>")
            .arg(FabricPanel::tr("Ratio built"), ratioNow,
                 ratioNow == ratioNext ? ratioNext : QStringLiteral("<b>%1</b>").arg(ratioNext));
    return QStringLiteral("<table cellspacing=0 cellpadding=1><tr><td></td><td align=right "
                          "style='padding-left:14px'>%1</td>"
                          "<td align=right style='padding-left:14px'>%2</td></tr>%3</table>")
        .arg(FabricPanel::tr("now"), FabricPanel::tr("at %1").arg(ratioText(ratio)), rows);
}

} // namespace

FabricPanel::FabricPanel(TopologyDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document), m_fabric(new QComboBox(this)),
      m_fabricInfo(new QLabel(this)),
      m_sharp(new QCheckBox(tr("In-network reduction (SHARP)"), this)),
      m_slider(new QSlider(Qt::Horizontal, this)), m_ratio(new QLabel(this)),
      m_builtNote(new QLabel(this)), m_preview(new QLabel(this)), m_refusal(new QLabel(this)) {
    m_fabric->setObjectName(QStringLiteral("fabricPicker"));
    // Catalog names are long ("NVIDIA Spectrum-X (SN5600 Spectrum-4, ConnectX-7)"); let the
    // dock decide the width and show the whole name in the popup and the tooltip.
    m_fabric->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_fabric->setMinimumContentsLength(18);
    m_fabric->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);

    m_fabricInfo->setObjectName(QStringLiteral("fabricInfo"));
    m_fabricInfo->setForegroundRole(QPalette::PlaceholderText);
    m_fabricInfo->setWordWrap(true);

    m_sharp->setObjectName(QStringLiteral("sharpToggle"));

    m_slider->setObjectName(QStringLiteral("oversubscriptionSlider"));
    m_slider->setRange(positionOf(kMinRatio), positionOf(kMaxRatio));
    m_slider->setSingleStep(1);
    m_slider->setPageStep(2);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setTickInterval(2); // a tick at every whole ratio
    m_slider->setTracking(true);

    m_ratio->setObjectName(QStringLiteral("ratioLabel"));
    m_ratio->setMinimumWidth(m_ratio->fontMetrics().horizontalAdvance(QStringLiteral("88.8:1")));
    m_ratio->setAlignment(Qt::AlignRight | Qt::AlignVCenter);

    m_builtNote->setObjectName(QStringLiteral("builtRatioNote"));
    m_builtNote->setWordWrap(true);
    m_builtNote->hide();

    m_preview->setObjectName(QStringLiteral("previewLabel"));
    m_preview->setWordWrap(true);
    m_preview->setTextFormat(Qt::RichText);

    m_refusal->setObjectName(QStringLiteral("refusalLabel"));
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_refusal->hide();

    auto* fabricCaption = new QLabel(tr("Fabric"), this);
    auto* ratioCaption = new QLabel(tr("Leaf oversubscription"), this);
    QFont bold = font();
    bold.setBold(true);
    for (QLabel* caption : {fabricCaption, ratioCaption, m_ratio})
        caption->setFont(bold);
    fabricCaption->setBuddy(m_fabric);
    ratioCaption->setBuddy(m_slider);

    // Captions above their fields: a dock is narrow, and a form's label column would
    // take half of it.
    auto* ratioRow = new QHBoxLayout;
    ratioRow->addWidget(ratioCaption, 1);
    ratioRow->addWidget(m_ratio);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(4);
    layout->addWidget(fabricCaption);
    layout->addWidget(m_fabric);
    layout->addWidget(m_fabricInfo);
    layout->addWidget(m_sharp);
    layout->addSpacing(10);
    layout->addLayout(ratioRow);
    layout->addWidget(m_slider);
    layout->addWidget(m_builtNote);
    layout->addWidget(m_preview);
    layout->addWidget(m_refusal);
    layout->addStretch(1);

    m_commit.setSingleShot(true);
    m_commit.setInterval(kKeyboardCommitMs);
    connect(&m_commit, &QTimer::timeout, this, &FabricPanel::commitRatio);
    // activated is the user's pick only; the programmatic selection in sync does not emit it.
    connect(m_fabric, &QComboBox::activated, this, &FabricPanel::fabricPicked);
    connect(m_sharp, &QCheckBox::toggled, this, &FabricPanel::sharpToggled);
    connect(m_slider, &QSlider::valueChanged, this, &FabricPanel::sliderMoved);
    connect(m_slider, &QSlider::sliderReleased, this, &FabricPanel::commitRatio);
    connect(&m_candidates, &GeneratorPreview::ready, this, &FabricPanel::showPreview);
    connect(&m_document, &TopologyDocument::designReset, this, &FabricPanel::syncFromDocument);
    connect(&m_document, &TopologyDocument::designBuildRefused, this, &FabricPanel::buildRefused);
    // The worst leaf is measured off the GUI thread, once per change (a pass over every
    // cable): a drawn design's ratio follows its cabling, so every edit can move it; so can
    // an edit of a generated design's cables.
    connect(&DesignFacts::of(m_document), &DesignFacts::ready, this, [this] {
        if (!rebuildsAtARatio())
            showMeasuredRatio();
        else if (!m_slider->isSliderDown() && !m_commit.isActive())
            showBuiltRatio();
    });
    connect(&m_document, &TopologyDocument::changed, this, [this] { m_now.reset(); });
    syncFromDocument();
}

double FabricPanel::ratioAt(int position) {
    return position * kRatioStep;
}

int FabricPanel::positionOf(double ratio) {
    return static_cast<int>(std::lround(ratio / kRatioStep));
}

void FabricPanel::syncFromDocument() {
    // A pending keyboard commit belongs to the design that was just replaced.
    m_commit.stop();
    const model::Design& design = m_document.design();
    {
        const QSignalBlocker blockCombo(m_fabric);
        m_fabric->clear();
        const auto& fabrics = m_document.catalog().fabrics();
        const bool fromCatalog =
            !design.fabric.isInline && fabrics.count(design.fabric.spec.id) != 0;
        if (!fromCatalog) // a fabric spelled out in the file: shown, but not pickable again
            m_fabric->addItem(
                tr("%1 (defined in the file)").arg(QString::fromStdString(design.fabric.spec.name)),
                QString());
        for (const auto& [id, fabric] : fabrics) {
            m_fabric->addItem(QString::fromStdString(fabric.name), QString::fromStdString(id));
            m_fabric->setItemData(m_fabric->count() - 1, QString::fromStdString(fabric.name),
                                  Qt::ToolTipRole);
        }
        m_fabric->setCurrentIndex(
            fromCatalog ? m_fabric->findData(QString::fromStdString(design.fabric.spec.id)) : 0);
        m_fabric->setToolTip(QString::fromStdString(design.fabric.spec.name));
    }
    const bool generated = rebuildsAtARatio();
    m_slider->setEnabled(generated);
    m_ratio->setEnabled(generated);
    if (generated) {
        const QSignalBlocker blockSlider(m_slider);
        if (!m_slider->isSliderDown())
            m_slider->setValue(positionOf(design.generator->oversubscription));
        showBuiltRatio();
    } else {
        showMeasuredRatio();
    }
    showIdle();
    m_refusal->hide();
    describeFabric();
}

void FabricPanel::showBuiltRatio() {
    const double asked = m_document.design().generator->oversubscription;
    // Until the design's facts are in, the ratio asked: the generator builds it or the
    // nearest it can, and the note follows a moment later if they differ.
    const DesignFactsResult* facts = DesignFacts::of(m_document).current();
    const std::optional<model::LeafRatio> built =
        facts ? facts->worstLeaf : std::optional<model::LeafRatio>();
    const QString how = tr("Leaf downlink : uplink bandwidth. Release to rebuild the fabric.");
    // Compared as shown: 2.666… and 2.67 are the same ratio to the reader.
    if (!built || ratioText(built->ratio) == ratioText(asked)) {
        m_ratio->setText(ratioText(asked));
        m_builtNote->hide();
        m_slider->setToolTip(how);
    } else {
        const QString why = builtWhy(m_document.topology(), *built, asked);
        m_ratio->setText(ratioText(built->ratio));
        m_builtNote->setText(why);
        m_builtNote->show();
        m_slider->setToolTip(why + QLatin1Char('\n') + how);
    }
    m_ratio->setToolTip(m_slider->toolTip());
}

void FabricPanel::showMeasuredRatio() {
    m_builtNote->hide();
    const DesignFactsResult* facts = DesignFacts::of(m_document).current();
    if (!facts)
        return; // being measured: ready() comes back here
    // What the design has, not what the slider last showed for another design.
    const bool measured = facts->worstLeaf.has_value();
    const double ratio = measured ? facts->worstLeaf->ratio : kMinRatio;
    const QSignalBlocker blockSlider(m_slider);
    m_slider->setValue(positionOf(std::clamp(ratio, kMinRatio, kMaxRatio)));
    m_ratio->setText(measured ? ratioText(ratio) : QStringLiteral("—"));
    const QString why =
        m_document.design().generator
            ? tr("A rail-only fabric has no uplinks, so there is no oversubscription to "
                 "rebuild it at. Use Generate… to give it a spine tier.")
            : tr("This design was drawn by hand: there is no generator to rebuild it at another "
                 "oversubscription. Use Generate… to replace it with a generated one.");
    m_slider->setToolTip(
        measured ? tr("%1 is the worst leaf's downlink : uplink bandwidth, as cabled. %2")
                       .arg(ratioText(ratio), why)
                 : tr("No leaf with uplinks to measure. %1").arg(why));
    m_ratio->setToolTip(m_slider->toolTip());
}

bool FabricPanel::rebuildsAtARatio() const {
    const auto& generator = m_document.design().generator;
    const model::GeneratorEntry* entry =
        generator ? model::findGenerator(generator->kind) : nullptr;
    return entry && entry->hasUplinks;
}

void FabricPanel::showIdle() {
    m_preview->setText(rebuildsAtARatio()
                           ? tr("Drag to preview; release to apply as one undo step.")
                       : m_document.design().generator
                           ? tr("Rail-only: no spine tier, so no oversubscription to set.")
                           : tr("Drawn by hand: its oversubscription follows its cabling."));
    m_preview->setStyleSheet(QString());
    m_preview->setForegroundRole(QPalette::PlaceholderText); // a hint, not a figure
}

void FabricPanel::describeFabric() {
    const model::Fabric& fabric = m_document.design().fabric.spec;
    const QString transport = fabric.transport == "infiniband" ? tr("InfiniBand") : tr("Ethernet");
    const QString routing = QString::fromUtf8(model::describe(fabric.routing));
    m_fabricInfo->setText(tr("%1 ports · radix %2 · %3 · %4")
                              .arg(bandwidthText(fabric.portSpeed.value))
                              .arg(fabric.switchRadix)
                              .arg(transport, routing));
    const QSignalBlocker blockSharp(m_sharp);
    m_sharp->setChecked(m_document.design().sharp);
    m_sharp->setEnabled(fabric.inNetworkReduction);
    m_sharp->setToolTip(
        fabric.inNetworkReduction
            ? tr("Let NCCL reduce in the switches (NCCL_COLLNET_ENABLE=1 with the SHARP "
                 "plugin). Off by default, as in NCCL.")
            : tr("This fabric's switches cannot reduce; the setting is kept for fabrics that "
                 "can."));
}

void FabricPanel::sharpToggled(bool on) {
    if (m_document.design().sharp == on)
        return;
    // Copied on the builder's thread: a 16K-GPU design is milliseconds to copy.
    m_document.replaceDesignLater(
        [on](const model::Design& current) {
            model::Design design = current;
            design.sharp = on;
            return design;
        },
        on ? tr("Turn SHARP on") : tr("Turn SHARP off"));
}

void FabricPanel::showRefusal(const QString& text) {
    m_refusal->setText(text);
    m_refusal->show();
}

void FabricPanel::fabricPicked(int index) {
    const model::Design& design = m_document.design();
    const model::Fabric* fabric =
        m_document.catalog().findFabric(m_fabric->itemData(index).toString().toStdString());
    if (!fabric || (!design.fabric.isInline && design.fabric.spec.id == fabric->id)) {
        syncFromDocument();
        return;
    }
    const QString name = QString::fromStdString(fabric->name);
    rebuildLater(
        [chosen = *fabric](const model::Design& current) {
            return DesignRegeneration::withFabric(current, chosen);
        },
        tr("Change fabric to %1").arg(name), tr("Cannot rebuild this design on %1").arg(name));
}

void FabricPanel::sliderMoved(int position) {
    const model::Design& design = m_document.design();
    if (!rebuildsAtARatio())
        return;
    const double ratio = ratioAt(position);
    m_ratio->setText(ratioText(ratio));
    m_refusal->hide();
    if (position == positionOf(design.generator->oversubscription)) {
        showIdle(); // back where it started: nothing to preview or commit
        m_commit.stop();
        return;
    }
    // The preview runs what a release would apply: the same parameters, not an estimate.
    model::GeneratorParams candidate = *design.generator;
    candidate.oversubscription = ratio;
    m_candidates.request(candidate);
    if (!m_slider->isSliderDown())
        m_commit.start();
}

void FabricPanel::showPreview(const GeneratorPreview::Outcome& outcome) {
    const model::Design& design = m_document.design();
    const double ratio = ratioAt(m_slider->value());
    // Late results are dropped: the slider moved on, or the ratio was committed meanwhile.
    if (!design.generator || outcome.params.oversubscription != ratio ||
        positionOf(design.generator->oversubscription) == m_slider->value())
        return;
    if (outcome.summary) {
        if (!m_now) {
            m_now = TopologySummary::of(design.topology);
            // Not waited for on the GUI thread: until the design's facts are in (a moment
            // after an edit), the ratio it was asked at stands for the one built.
            const DesignFactsResult* facts = DesignFacts::of(m_document).current();
            m_nowRatio =
                facts ? builtText(facts->worstLeaf) : ratioText(design.generator->oversubscription);
        }
        // What the candidate builds, which whole cables can leave off the ratio asked.
        const QString next = builtText(outcome.leafRatio);
        m_ratio->setText(outcome.leafRatio ? next : ratioText(ratio));
        m_preview->setText(comparison(*m_now, *outcome.summary, ratio, m_nowRatio, next));
        m_preview->setStyleSheet(QString());
        m_preview->setForegroundRole(QPalette::WindowText);
    } else {
        m_preview->setText(tr("At %1 the generator refuses: %2")
                               .arg(ratioText(ratio), outcome.refusal.toHtmlEscaped()));
        m_preview->setStyleSheet(QStringLiteral("color: #c62828;"));
    }
}

void FabricPanel::commitRatio() {
    m_commit.stop();
    const model::Design& design = m_document.design();
    if (!rebuildsAtARatio())
        return;
    const double ratio = ratioAt(m_slider->value());
    if (positionOf(design.generator->oversubscription) == m_slider->value()) {
        syncFromDocument(); // back where it started: nothing to undo
        return;
    }
    rebuildLater(
        [ratio](const model::Design& current) {
            return DesignRegeneration::withOversubscription(current, ratio);
        },
        tr("Oversubscription %1").arg(ratioText(ratio)),
        tr("Cannot rebuild at %1").arg(ratioText(ratio)));
}

void FabricPanel::rebuildLater(std::function<DesignRegeneration(const model::Design&)> rebuild,
                               const QString& step, const QString& refusal) {
    m_refusalOf.insert(step, refusal);
    m_document.replaceDesignLater(
        [rebuild = std::move(rebuild)](const model::Design& current) {
            DesignRegeneration regenerated = rebuild(current);
            if (!regenerated.accepted())
                throw std::invalid_argument(regenerated.refusal.toStdString());
            return std::move(*regenerated.design);
        },
        step);
}

void FabricPanel::buildRefused(const QString& step, const QString& why) {
    if (!m_refusalOf.contains(step))
        return; // another panel's step
    const QString refusal = m_refusalOf.take(step);
    syncFromDocument();
    showRefusal(QStringLiteral("%1: %2").arg(refusal, why));
}

} // namespace fabriclab::views
