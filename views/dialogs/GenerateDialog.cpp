// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/dialogs/GenerateDialog.hpp"

#include "model/catalog/PartChoice.hpp"

#include "model/fabric/Generators.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/panels/TopologySummary.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace fabriclab::views {
namespace {

// Short enough to feel live, long enough that typing "2048" builds one preview, not four.
constexpr int kPreviewDelayMs = 100;

// The widgets are deliberately wider than the generator's limits, so that the generator,
// not a silently clamping spin box, says what the limit is.
constexpr int kMaxCount = 10'000'000;

QString kindTitle(std::string_view kind) {
    if (kind == "leaf-spine")
        return GenerateDialog::tr("Leaf–spine (two tiers)");
    if (kind == "fat-tree")
        return GenerateDialog::tr("Fat tree (three tiers)");
    if (kind == "rail-only")
        return GenerateDialog::tr("Rail-only (one tier, no spine)");
    return QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size()));
}

QSpinBox* countBox(QWidget* parent, const char* field, int minimum) {
    auto* box = new QSpinBox(parent);
    box->setObjectName(QLatin1String(field));
    box->setRange(minimum, kMaxCount);
    box->setGroupSeparatorShown(true);
    box->setAccelerated(true);
    return box;
}

QDoubleSpinBox* ratioBox(QWidget* parent, const char* field) {
    auto* box = new QDoubleSpinBox(parent);
    box->setObjectName(QLatin1String(field));
    box->setRange(0.01, 1000);
    box->setDecimals(2);
    box->setSingleStep(0.5);
    box->setSuffix(QStringLiteral(":1"));
    return box;
}

} // namespace

GenerateDialog::GenerateDialog(const TopologyDocument& document, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Generate Fabric"));
    buildForm();
    buildPreview();

    m_previewDelay.setSingleShot(true);
    m_previewDelay.setInterval(kPreviewDelayMs);
    connect(&m_previewDelay, &QTimer::timeout, this, [this] { m_preview.request(request()); });
    connect(&m_preview, &GeneratorPreview::ready, this, &GenerateDialog::showOutcome);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &GenerateDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &GenerateDialog::reject);

    const model::Design& design = document.design();
    model::GeneratorParams initial;
    if (design.generator) {
        initial = *design.generator;
    } else {
        // A hand-drawn design: start from what its fabric's switches and NICs offer.
        initial.nicSpeed = design.fabric.spec.portSpeed;
        initial.leafRadix = initial.spineRadix = initial.coreRadix = design.fabric.spec.switchRadix;
    }
    setRequest(initial);
    m_previewDelay.stop(); // no need to wait on opening: preview at once
    m_preview.request(request());
    // OK waits for the first verdict (accept() would judge the request itself anyway).
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);

    // Connected after the prefill, so that filling the form asks for one preview, not twelve.
    for (QSpinBox* box :
         {m_servers, m_gpus, m_nics, m_leafRadix, m_spineRadix, m_coreRadix, m_serversPerPod})
        connect(box, &QSpinBox::valueChanged, this, &GenerateDialog::schedulePreview);
    for (QDoubleSpinBox* box : {m_nicSpeed, m_ratio, m_spineRatio})
        connect(box, &QDoubleSpinBox::valueChanged, this, &GenerateDialog::schedulePreview);
    connect(m_rail, &QCheckBox::toggled, this, &GenerateDialog::schedulePreview);
    // A radix still at what its switch offers at the old NIC speed follows the new speed
    // (an SN5600 is 128 x 400G or 64 x 800G); one the user typed stays.
    connect(m_nicSpeed, &QDoubleSpinBox::valueChanged, this,
            [this, fabric = design.fabric.spec, prices = document.catalog().prices(),
             last = initial.nicSpeed](double gbps) mutable {
                const std::pair<QSpinBox*, const std::string*> tiers[] = {
                    {m_leafRadix, &fabric.hardware.switchId},
                    {m_spineRadix, &fabric.hardware.spineSwitch()},
                    {m_coreRadix, &fabric.hardware.coreSwitch()}};
                for (const auto& [box, part] : tiers)
                    if (box->value() == model::switchRadixAt(fabric, prices, *part, last))
                        box->setValue(
                            model::switchRadixAt(fabric, prices, *part, model::Gbps(gbps)));
                last = model::Gbps(gbps);
            });
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        updateKindFields();
        schedulePreview();
    });
}

GenerateDialog::~GenerateDialog() = default;

void GenerateDialog::buildForm() {
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("kind"));
    for (const model::GeneratorEntry& entry : model::generators()) {
        m_kind->addItem(
            kindTitle(entry.kind),
            QString::fromUtf8(entry.kind.data(), static_cast<qsizetype>(entry.kind.size())));
        m_kind->setItemData(m_kind->count() - 1,
                            QString::fromUtf8(entry.description.data(),
                                              static_cast<qsizetype>(entry.description.size())),
                            Qt::ToolTipRole);
    }
    m_servers = countBox(this, "servers", 1);
    m_gpus = countBox(this, "gpusPerServer", 1);
    m_nics = countBox(this, "nicsPerServer", 1);
    m_nicSpeed = new QDoubleSpinBox(this);
    m_nicSpeed->setObjectName(QStringLiteral("nicGbps"));
    m_nicSpeed->setRange(1, 100'000);
    m_nicSpeed->setDecimals(1);
    m_nicSpeed->setSingleStep(100);
    m_nicSpeed->setSuffix(tr(" Gb/s"));
    m_rail = new QCheckBox(tr("NIC r of every server on rail leaf r"), this);
    m_rail->setObjectName(QStringLiteral("railOptimized"));
    m_leafRadix = countBox(this, "leafRadix", 1);
    m_spineRadix = countBox(this, "spineRadix", 1);
    m_coreRadix = countBox(this, "coreRadix", 1);
    m_ratio = ratioBox(this, "oversubscription");
    m_spineRatio = ratioBox(this, "spineOversubscription");
    m_serversPerPod = countBox(this, "serversPerPod", 0);
    m_serversPerPod->setSpecialValueText(tr("Largest that fits"));

    m_ratio->setToolTip(tr("Leaf downlink : uplink bandwidth; 2:1 halves the spine tier."));
    m_spineRatio->setToolTip(tr("Fat tree only: spine downlink : uplink bandwidth."));
    m_serversPerPod->setToolTip(tr("Fat tree only: servers under one pod's spines."));

    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->addRow(tr("Topology"), m_kind);
    m_form->addRow(tr("Servers"), m_servers);
    m_form->addRow(tr("GPUs per server"), m_gpus);
    m_form->addRow(tr("NICs per server"), m_nics);
    m_form->addRow(tr("NIC speed"), m_nicSpeed);
    m_form->addRow(tr("Rail-optimized"), m_rail);
    m_form->addRow(tr("Leaf radix"), m_leafRadix);
    m_form->addRow(tr("Spine radix"), m_spineRadix);
    m_form->addRow(tr("Core radix"), m_coreRadix);
    m_form->addRow(tr("Oversubscription"), m_ratio);
    m_form->addRow(tr("Spine oversubscription"), m_spineRatio);
    m_form->addRow(tr("Servers per pod"), m_serversPerPod);
}

void GenerateDialog::buildPreview() {
    auto* preview = new QGroupBox(tr("Preview"), this);
    auto* grid = new QGridLayout(preview);
    grid->setHorizontalSpacing(12);
    const auto addFigure = [&](const QString& name, const QString& label, int row) {
        auto* value = new QLabel(preview);
        value->setObjectName(QStringLiteral("preview_") + name);
        value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        QFont bold = value->font();
        bold.setBold(true);
        value->setFont(bold);
        grid->addWidget(new QLabel(label, preview), row, 0);
        grid->addWidget(value, row, 1);
        m_figures.emplace(name, value);
    };
    addFigure(QStringLiteral("gpus"), tr("GPUs"), 0);
    addFigure(QStringLiteral("servers"), tr("Servers"), 1);
    addFigure(QStringLiteral("leaves"), tr("Leaf switches"), 2);
    addFigure(QStringLiteral("spines"), tr("Spine switches"), 3);
    addFigure(QStringLiteral("cores"), tr("Core switches"), 4);
    auto* cables = new QLabel(tr("Cables"), preview);
    QFont bold = cables->font();
    bold.setBold(true);
    cables->setFont(bold);
    grid->addWidget(cables, 5, 0, 1, 2);
    addFigure(QStringLiteral("serverCables"), tr("Server – leaf"), 6);
    addFigure(QStringLiteral("leafSpineCables"), tr("Leaf – spine"), 7);
    addFigure(QStringLiteral("spineCoreCables"), tr("Spine – core"), 8);
    grid->setRowStretch(9, 1);
    grid->setColumnMinimumWidth(1, fontMetrics().horizontalAdvance(QStringLiteral("1,000,000")));

    m_refusal = new QLabel(this);
    m_refusal->setObjectName(QStringLiteral("refusalLabel"));
    m_refusal->setWordWrap(true);
    m_refusal->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_refusal->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refusal->hide();

    m_planes = new QLabel(this);
    m_planes->setObjectName(QStringLiteral("planesNote"));
    m_planes->setWordWrap(true);
    m_planes->hide();

    auto* note =
        new QLabel(tr("Replaces the current design's topology; Undo brings it back."), this);
    note->setForegroundRole(QPalette::PlaceholderText);
    note->setWordWrap(true);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Generate"));

    auto* columns = new QHBoxLayout;
    columns->addLayout(m_form, 3);
    columns->addSpacing(12);
    columns->addWidget(preview, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(m_refusal);
    layout->addWidget(m_planes);
    layout->addWidget(note);
    layout->addWidget(m_buttons);
}

model::GeneratorParams GenerateDialog::request() const {
    model::GeneratorParams p;
    p.kind = m_kind->currentData().toString().toStdString();
    p.servers = m_servers->value();
    p.gpusPerServer = m_gpus->value();
    p.nicsPerServer = m_nics->value();
    p.nicSpeed = model::Gbps(m_nicSpeed->value());
    p.railOptimized = m_rail->isChecked();
    p.leafRadix = m_leafRadix->value();
    p.spineRadix = m_spineRadix->value();
    p.coreRadix = m_coreRadix->value();
    p.oversubscription = m_ratio->value();
    p.spineOversubscription = m_spineRatio->value();
    if (m_serversPerPod->value() > 0)
        p.serversPerPod = m_serversPerPod->value();
    return p;
}

void GenerateDialog::setRequest(const model::GeneratorParams& p) {
    const int kind = m_kind->findData(QString::fromStdString(p.kind));
    m_kind->setCurrentIndex(kind >= 0 ? kind : 0);
    m_servers->setValue(p.servers);
    m_gpus->setValue(p.gpusPerServer);
    m_nics->setValue(p.nicsPerServer);
    // "400 Gb/s", not "400.0 Gb/s"; a fractional speed from a file keeps its decimal.
    m_nicSpeed->setDecimals(std::floor(p.nicSpeed.value) == p.nicSpeed.value ? 0 : 1);
    m_nicSpeed->setValue(p.nicSpeed.value);
    m_rail->setChecked(p.railOptimized);
    m_leafRadix->setValue(p.leafRadix);
    m_spineRadix->setValue(p.spineRadix);
    m_coreRadix->setValue(p.coreRadix);
    m_ratio->setValue(p.oversubscription);
    m_spineRatio->setValue(p.spineOversubscription);
    m_serversPerPod->setValue(p.serversPerPod.value_or(0));
    updateKindFields();
    schedulePreview();
}

void GenerateDialog::updateKindFields() {
    const model::GeneratorEntry* entry =
        model::findGenerator(m_kind->currentData().toString().toStdString());
    const bool core = entry && entry->hasCore;
    const bool uplinks = !entry || entry->hasUplinks;
    const bool alwaysRails = entry && entry->alwaysRails;
    const auto enable = [this](QWidget* field, bool on) {
        field->setEnabled(on);
        if (QWidget* label = m_form->labelForField(field))
            label->setEnabled(on);
    };
    for (QWidget* field : {static_cast<QWidget*>(m_coreRadix), static_cast<QWidget*>(m_spineRatio),
                           static_cast<QWidget*>(m_serversPerPod)})
        enable(field, core);
    for (QWidget* field : {static_cast<QWidget*>(m_spineRadix), static_cast<QWidget*>(m_ratio)})
        enable(field, uplinks);
    // A rail-only fabric is its rails: the checkbox shows them on without offering to take
    // them away, and gives back the user's own choice when another kind is picked.
    enable(m_rail, !alwaysRails);
    if (alwaysRails && !m_railChoice) {
        m_railChoice = m_rail->isChecked();
        const QSignalBlocker quiet(m_rail);
        m_rail->setChecked(true);
    } else if (!alwaysRails && m_railChoice) {
        const QSignalBlocker quiet(m_rail);
        m_rail->setChecked(*m_railChoice);
        m_railChoice.reset();
    }
}

void GenerateDialog::schedulePreview() {
    // Until the preview catches up, OK re-checks the request itself (see accept()).
    m_previewDelay.start();
}

void GenerateDialog::markField(const QString& field) {
    // Field widgets are named after GeneratorParams' file names, as GeneratorError::field() is.
    for (int row = 0; row < m_form->rowCount(); ++row) {
        QLayoutItem* item = m_form->itemAt(row, QFormLayout::FieldRole);
        QWidget* widget = item ? item->widget() : nullptr;
        QWidget* label = widget ? m_form->labelForField(widget) : nullptr;
        if (!label)
            continue;
        const bool atFault = !field.isEmpty() && widget->objectName() == field;
        label->setStyleSheet(atFault ? QStringLiteral("color: #c62828; font-weight: bold;")
                                     : QString());
    }
}

void GenerateDialog::showOutcome(const GeneratorPreview::Outcome& outcome) {
    if (outcome.params != request())
        return; // the form changed meanwhile; a newer preview is on its way
    if (outcome.summary) {
        const TopologySummary& s = *outcome.summary;
        const auto figure = [this](const char* name, double value) {
            m_figures.at(QLatin1String(name))->setText(numberText(value));
        };
        figure("gpus", s.gpus);
        figure("servers", s.servers);
        figure("leaves", s.switches.leaf);
        figure("spines", s.switches.spine);
        figure("cores", s.switches.core);
        figure("serverCables", static_cast<double>(s.cables.server));
        figure("leafSpineCables", static_cast<double>(s.cables.leafSpine));
        figure("spineCoreCables", static_cast<double>(s.cables.spineCore));
        m_planes->setText(
            s.switches.spine == 0
                ? tr("No spine: each of the %1 rail switches is a plane of its own, so traffic "
                     "between rails crosses NVLink first (PXN).")
                      .arg(s.switchPlanes)
                : tr("No spine reaches every leaf, so the spines form %1 rail planes, "
                     "each serving its own rails: traffic between rails of different "
                     "planes crosses NVLink first (PXN).")
                      .arg(s.switchPlanes));
        m_planes->setVisible(s.switchPlanes > 1);
        m_refusal->hide();
        m_accepted = outcome.params;
    } else {
        for (auto& [name, label] : m_figures)
            label->setText(QStringLiteral("—"));
        m_planes->hide();
        m_refusal->setText(tr("Cannot generate this: %1").arg(outcome.refusal));
        m_refusal->show();
        m_accepted.reset();
    }
    markField(outcome.field);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_accepted.has_value());
}

std::optional<model::GeneratorParams> GenerateDialog::params() const {
    const model::GeneratorParams p = request();
    if (m_accepted && *m_accepted == p)
        return p;
    if (GeneratorPreview::compute(p).summary)
        return p;
    return std::nullopt;
}

void GenerateDialog::accept() {
    // OK (or Enter) before the preview caught up: judge the request now, on this thread.
    const model::GeneratorParams p = request();
    if (!m_accepted || *m_accepted != p) {
        m_previewDelay.stop();
        showOutcome(GeneratorPreview::compute(p));
    }
    if (m_accepted && *m_accepted == p)
        QDialog::accept();
}

std::optional<model::GeneratorParams> GenerateDialog::ask(QWidget* parent,
                                                          const TopologyDocument& document) {
    GenerateDialog dialog(document, parent);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return dialog.params();
}

} // namespace fabriclab::views
