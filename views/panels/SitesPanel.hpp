// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Sites.hpp"

#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTimer;

namespace fabriclab::views {

class TopologyDocument;

/// Training across sites: how many copies of the design train together, the WAN that joins
/// them (circuits, bandwidth, latency, lease) and DiLoCo's outer loop (H, the outer
/// gradients' bits, the steps the outer all-reduce may run behind). One site turns it off.
/// An edit is one undo step on the document, made once the user pauses, and the canvas and
/// the "Across sites" chart follow as for any edit. Sites train the design's workload, so
/// the panel is off, and says why, for a design without one.
class SitesPanel : public QWidget {
    Q_OBJECT

public:
    explicit SitesPanel(TopologyDocument& document, QWidget* parent = nullptr);

    /// The sites the fields describe; nothing for one site.
    std::optional<model::Sites> sitesShown() const;

private:
    void syncFromDocument();
    void fieldsEdited();
    void commit();
    /// The WAN's and the outer loop's fields, which mean something only for several sites.
    void enableSiteFields(bool several);

    TopologyDocument& m_document;
    QSpinBox* m_count;
    QDoubleSpinBox* m_gbps;
    QSpinBox* m_links;
    QDoubleSpinBox* m_latency;
    QDoubleSpinBox* m_lease;
    QSpinBox* m_innerSteps;
    QComboBox* m_bits;
    QSpinBox* m_overlap;
    QLabel* m_note;
    QTimer* m_commit; ///< an edit settles before it becomes an undo step
    bool m_syncing = false;
};

} // namespace fabriclab::views
