// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/SitesPanel.hpp"

#include "views/document/TopologyDocument.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>

namespace fabriclab::views {
namespace {

// The design file's bounds (docs/reference/design-format.md, `sites`), so the panel never
// makes a design the reader would refuse.
constexpr int kMaxSites = 64;
constexpr int kMaxCircuits = 4096;
constexpr int kMaxInnerSteps = 1'000'000;
constexpr int kBits[] = {4, 8, 16, 32};
constexpr double kUnpriced = -1;

} // namespace

SitesPanel::SitesPanel(TopologyDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document), m_count(new QSpinBox(this)),
      m_gbps(new QDoubleSpinBox(this)), m_links(new QSpinBox(this)),
      m_latency(new QDoubleSpinBox(this)), m_lease(new QDoubleSpinBox(this)),
      m_innerSteps(new QSpinBox(this)), m_bits(new QComboBox(this)), m_overlap(new QSpinBox(this)),
      m_note(new QLabel(this)), m_commit(new QTimer(this)) {
    m_count->setObjectName(QStringLiteral("siteCount"));
    m_count->setRange(1, kMaxSites);
    m_count->setSpecialValueText(tr("one site"));
    m_count->setToolTip(tr("Identical copies of this design, each training one replica of the "
                           "workload, joined by the WAN below"));
    m_gbps->setObjectName(QStringLiteral("wanGbps"));
    m_gbps->setRange(0.001, 1e6);
    m_gbps->setDecimals(3);
    m_gbps->setSuffix(tr(" Gb/s"));
    m_links->setObjectName(QStringLiteral("wanLinks"));
    m_links->setRange(1, kMaxCircuits);
    m_links->setToolTip(
        tr("Circuits on each span of the ring of sites (two sites share one span)"));
    m_latency->setObjectName(QStringLiteral("wanLatency"));
    m_latency->setRange(0, 1000);
    m_latency->setDecimals(3); // what a file may hold survives an edit of another field
    m_latency->setSuffix(tr(" ms"));
    m_lease->setObjectName(QStringLiteral("wanLease"));
    // The minimum, one below $0, stands for "not priced": a lease of $0 is a price.
    m_lease->setRange(kUnpriced, 1e9);
    m_lease->setDecimals(2);
    m_lease->setGroupSeparatorShown(true);
    m_lease->setPrefix(QStringLiteral("$"));
    m_lease->setSpecialValueText(tr("not priced"));
    m_lease->setToolTip(tr("What one circuit is leased for a month: your carrier's quote"));
    m_innerSteps->setObjectName(QStringLiteral("innerSteps"));
    m_innerSteps->setRange(1, kMaxInnerSteps);
    m_innerSteps->setToolTip(tr("H: steps each site takes alone between outer synchronisations"));
    m_bits->setObjectName(QStringLiteral("payloadBits"));
    for (const int bits : kBits)
        m_bits->addItem(tr("%1 bits").arg(bits), bits);
    m_overlap->setObjectName(QStringLiteral("overlapSteps"));
    m_overlap->setToolTip(tr("Inner steps the outer all-reduce may run behind (Streaming "
                             "DiLoCo's tau)"));
    m_note->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("sitesNote"));

    auto* form = new QFormLayout(this);
    form->addRow(tr("Sites"), m_count);
    form->addRow(tr("WAN circuit"), m_gbps);
    form->addRow(tr("Circuits a span"), m_links);
    form->addRow(tr("Latency, one way"), m_latency);
    form->addRow(tr("Lease a circuit, month"), m_lease);
    form->addRow(tr("DiLoCo H"), m_innerSteps);
    form->addRow(tr("Outer gradients"), m_bits);
    form->addRow(tr("Overlap steps"), m_overlap);
    form->addRow(m_note);

    m_commit->setSingleShot(true);
    m_commit->setInterval(400);
    connect(m_commit, &QTimer::timeout, this, &SitesPanel::commit);
    for (QSpinBox* box : {m_count, m_links, m_innerSteps, m_overlap})
        connect(box, &QSpinBox::valueChanged, this, &SitesPanel::fieldsEdited);
    for (QDoubleSpinBox* box : {m_gbps, m_latency, m_lease})
        connect(box, &QDoubleSpinBox::valueChanged, this, &SitesPanel::fieldsEdited);
    connect(m_bits, &QComboBox::currentIndexChanged, this, &SitesPanel::fieldsEdited);
    connect(&m_document, &TopologyDocument::changed, this, &SitesPanel::syncFromDocument);
    // Another design opened: an edit still settling belongs to the one before, and is
    // dropped rather than written onto this one. (A replaced design is this one, perhaps
    // with the panel's own previous edit landing: the edit in progress still counts.)
    connect(&m_document, &TopologyDocument::designReset, this, [this](DesignReset how) {
        if (how != DesignReset::Opened)
            return;
        m_commit->stop();
        syncFromDocument();
    });
    syncFromDocument();
}

std::optional<model::Sites> SitesPanel::sitesShown() const {
    if (m_count->value() < 2)
        return std::nullopt;
    model::Sites sites;
    sites.count = m_count->value();
    sites.wan.gbps = m_gbps->value();
    sites.wan.links = m_links->value();
    sites.wan.latencyMs = m_latency->value();
    if (m_lease->value() > kUnpriced)
        sites.wan.usdPerLinkMonth = std::max(0.0, m_lease->value());
    sites.outer.innerSteps = m_innerSteps->value();
    sites.outer.payloadBits = m_bits->currentData().toInt();
    sites.outer.overlapSteps = std::min(m_overlap->value(), sites.outer.innerSteps - 1);
    return sites;
}

void SitesPanel::syncFromDocument() {
    if (m_commit->isActive())
        return; // the user's edit in progress wins; it commits shortly
    const model::Design& design = m_document.design();
    const model::Sites sites = design.sites.value_or(model::Sites{});
    m_syncing = true;
    {
        const QSignalBlocker blocks[] = {QSignalBlocker(m_count), QSignalBlocker(m_gbps),
                                         QSignalBlocker(m_links), QSignalBlocker(m_latency),
                                         QSignalBlocker(m_lease), QSignalBlocker(m_innerSteps),
                                         QSignalBlocker(m_bits),  QSignalBlocker(m_overlap)};
        m_count->setValue(design.sites ? sites.count : 1);
        m_gbps->setValue(sites.wan.gbps);
        m_links->setValue(sites.wan.links);
        m_latency->setValue(sites.wan.latencyMs);
        m_lease->setValue(sites.wan.usdPerLinkMonth.value_or(kUnpriced));
        m_innerSteps->setValue(sites.outer.innerSteps);
        m_bits->setCurrentIndex(m_bits->findData(sites.outer.payloadBits));
        m_overlap->setRange(0, sites.outer.innerSteps - 1);
        m_overlap->setValue(sites.outer.overlapSteps);
    }
    m_syncing = false;
    const bool hasWorkload = design.workload.has_value();
    m_count->setEnabled(hasWorkload);
    const bool several = hasWorkload && design.sites.has_value();
    enableSiteFields(several);
    m_note->setText(!hasWorkload ? tr("Sites train the design's workload, and this design has "
                                      "none: add one to its file to train across sites.")
                    : several    ? tr("The canvas draws the other sites and the WAN; the "
                                         "Across sites chart sets DiLoCo against synchronous "
                                         "training over it.")
                                 : tr("Two or more sites train copies of this design together "
                                         "over a WAN."));
}

void SitesPanel::fieldsEdited() {
    if (m_syncing)
        return;
    m_overlap->setMaximum(m_innerSteps->value() - 1);
    enableSiteFields(m_count->value() >= 2);
    m_commit->start();
}

void SitesPanel::enableSiteFields(bool several) {
    for (QWidget* field : std::initializer_list<QWidget*>{m_gbps, m_links, m_latency, m_lease,
                                                          m_innerSteps, m_bits, m_overlap})
        field->setEnabled(several);
}

void SitesPanel::commit() {
    const std::optional<model::Sites> sites = sitesShown();
    if (sites == m_document.design().sites)
        return;
    const QString text = !sites ? tr("Train on one site")
                         : !m_document.design().sites
                             ? tr("Train across %1 sites").arg(sites->count)
                             : tr("Edit the sites");
    // Copied on the builder's thread: a 16K-GPU design is milliseconds to copy.
    m_document.replaceDesignLater(
        [sites](const model::Design& current) {
            model::Design design = current;
            design.sites = sites;
            return design;
        },
        text);
}

} // namespace fabriclab::views
