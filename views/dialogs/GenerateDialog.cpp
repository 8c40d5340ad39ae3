// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/dialogs/GenerateDialog.hpp"

#include "model/catalog/PartChoice.hpp"

#include "model/fabric/Generators.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/models/TopologySummary.hpp"

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

QString text(std::string_view utf8) {
    return QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size()));
}

/// The widget a field's type asks for, named after the field's key (as GeneratorError's
/// field() is), with its help as tooltip.
QWidget* makeFieldWidget(QWidget* parent, const model::GeneratorField& field) {
    using Type = model::GeneratorField::Type;
    QWidget* widget = nullptr;
    switch (field.type) {
    case Type::Count: {
        auto* box = new QSpinBox(parent);
        const bool optional = !field.whenAbsent.empty();
        box->setRange(optional ? 0 : static_cast<int>(field.minimum), kMaxCount);
        box->setGroupSeparatorShown(true);
        box->setAccelerated(true);
        if (optional)
            box->setSpecialValueText(text(field.whenAbsent)); // 0: left to the generator
        widget = box;
        break;
    }
    case Type::Speed: {
        auto* box = new QDoubleSpinBox(parent);
        box->setRange(field.minimum, 100'000);
        box->setDecimals(1);
        box->setSingleStep(100);
        box->setSuffix(GenerateDialog::tr(" Gb/s"));
        widget = box;
        break;
    }
    case Type::Ratio: {
        auto* box = new QDoubleSpinBox(parent);
        box->setRange(field.minimum, 1000);
        box->setDecimals(2);
        box->setSingleStep(0.5);
        box->setSuffix(QStringLiteral(":1"));
        widget = box;
        break;
    }
    case Type::Flag:
        // A checkbox says what "on" means; its row label names the field.
        widget = new QCheckBox(text(field.help), parent);
        break;
    }
    widget->setObjectName(text(field.key));
    if (field.type != Type::Flag)
        widget->setToolTip(text(field.help));
    return widget;
}

double widgetValue(const QWidget* widget) {
    if (const auto* box = qobject_cast<const QSpinBox*>(widget))
        return box->value();
    if (const auto* box = qobject_cast<const QDoubleSpinBox*>(widget))
        return box->value();
    return qobject_cast<const QCheckBox*>(widget)->isChecked() ? 1 : 0;
}

void setWidgetValue(QWidget* widget, const model::GeneratorField& field,
                    std::optional<double> value) {
    if (auto* box = qobject_cast<QSpinBox*>(widget)) {
        box->setValue(static_cast<int>(value.value_or(0)));
    } else if (auto* box = qobject_cast<QDoubleSpinBox*>(widget)) {
        // "400 Gb/s", not "400.0 Gb/s"; a fractional speed from a file keeps its decimal.
        if (field.type == model::GeneratorField::Type::Speed)
            box->setDecimals(std::floor(value.value_or(0)) == value.value_or(0) ? 0 : 1);
        box->setValue(value.value_or(0));
    } else {
        qobject_cast<QCheckBox*>(widget)->setChecked(value.value_or(0) != 0);
    }
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
    for (const auto& [field, widget] : m_fields) {
        if (auto* box = qobject_cast<QSpinBox*>(widget))
            connect(box, &QSpinBox::valueChanged, this, &GenerateDialog::schedulePreview);
        else if (auto* box = qobject_cast<QDoubleSpinBox*>(widget))
            connect(box, &QDoubleSpinBox::valueChanged, this, &GenerateDialog::schedulePreview);
        else if (auto* box = qobject_cast<QCheckBox*>(widget))
            connect(box, &QCheckBox::toggled, this, &GenerateDialog::schedulePreview);
    }
    // A radix still at what its switch offers at the old NIC speed follows the new speed
    // (an SN5600 is 128 x 400G or 64 x 800G); one the user typed stays.
    connect(fieldBox<QDoubleSpinBox>("nicGbps"), &QDoubleSpinBox::valueChanged, this,
            [this, fabric = design.fabric.spec, prices = document.catalog().prices(),
             last = initial.nicSpeed](double gbps) mutable {
                const std::pair<QSpinBox*, const std::string*> tiers[] = {
                    {fieldBox<QSpinBox>("leafRadix"), &fabric.hardware.switchId},
                    {fieldBox<QSpinBox>("spineRadix"), &fabric.hardware.spineSwitch()},
                    {fieldBox<QSpinBox>("coreRadix"), &fabric.hardware.coreSwitch()}};
                for (const auto& [box, part] : tiers)
                    if (box && box->value() == model::switchRadixAt(fabric, prices, *part, last))
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
    for (const model::GeneratorEntry* entry : model::generators()) {
        m_kind->addItem(text(entry->title), text(entry->kind));
        m_kind->setItemData(m_kind->count() - 1, text(entry->description), Qt::ToolTipRole);
    }
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->addRow(tr("Topology"), m_kind);
    // Every field any kind reads, once; updateKindFields() enables the chosen kind's.
    for (const model::GeneratorField* field : model::allGeneratorFields()) {
        QWidget* widget = makeFieldWidget(this, *field);
        m_fields.emplace_back(field, widget);
        m_form->addRow(text(field->label), widget);
    }
}

QWidget* GenerateDialog::fieldWidget(std::string_view key) const {
    for (const auto& [field, widget] : m_fields)
        if (field->key == key)
            return widget;
    return nullptr;
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
    for (const auto& [field, widget] : m_fields) {
        const double value = widgetValue(widget);
        // An optional field at 0 shows its "left to the generator" text: absent.
        field->set(p,
                   !field->whenAbsent.empty() && value == 0 ? std::nullopt : std::optional(value));
    }
    // Every field has a widget; the kind keeps its own and the shared ones.
    const std::string kind = p.kind;
    return model::asKind(std::move(p), kind);
}

void GenerateDialog::setRequest(const model::GeneratorParams& p) {
    const int kind = m_kind->findData(QString::fromStdString(p.kind));
    m_kind->setCurrentIndex(kind >= 0 ? kind : 0);
    for (const auto& [field, widget] : m_fields)
        setWidgetValue(widget, *field, field->get(p));
    updateKindFields();
    schedulePreview();
}

void GenerateDialog::updateKindFields() {
    const model::GeneratorEntry* entry =
        model::findGenerator(m_kind->currentData().toString().toStdString());
    const bool alwaysRails = entry && entry->alwaysRails;
    const auto enable = [this](QWidget* field, bool on) {
        field->setEnabled(on);
        if (QWidget* label = m_form->labelForField(field))
            label->setEnabled(on);
    };
    for (const auto& [field, widget] : m_fields) {
        const bool read = entry && entry->reads(field->key);
        enable(widget, read);
        // Another kind's own parameters are hidden, not greyed: they mean nothing here.
        if (field->ownedByKind())
            m_form->setRowVisible(widget, read);
        // A kind may name a shared field its own way ("Racks" for servers).
        const model::GeneratorField* named = field;
        if (entry)
            for (const model::GeneratorField* own : entry->fields)
                if (own->key == field->key)
                    named = own;
        if (auto* label = qobject_cast<QLabel*>(m_form->labelForField(widget)))
            label->setText(text(named->label));
        widget->setToolTip(text(named->help));
    }
    // A rail-only fabric is its rails: the checkbox shows them on without offering to take
    // them away, and gives back the user's own choice when another kind is picked.
    auto* rail = fieldBox<QCheckBox>("railOptimized");
    if (!rail)
        return;
    if (alwaysRails)
        enable(rail, false);
    if (alwaysRails && !m_railChoice) {
        m_railChoice = rail->isChecked();
        const QSignalBlocker quiet(rail);
        rail->setChecked(true);
    } else if (!alwaysRails && m_railChoice) {
        const QSignalBlocker quiet(rail);
        rail->setChecked(*m_railChoice);
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
            s.portsPerNic > 1
                ? tr("Each NIC's %1 ports go to %2 planes of their own, every plane holding "
                     "every rail: a flow is sprayed evenly over the planes.")
                      .arg(s.portsPerNic)
                      .arg(s.switchPlanes)
            : s.switches.spine == 0
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
