// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/topology/Link.hpp"
#include "model/topology/Node.hpp"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>
#include <vector>

namespace fabriclab::views {

class TopologyDocument;

/// What a row of the inspector shows; edits dispatch on it.
enum class PropertyKey {
    Name,
    Kind,
    Radix,
    PortSpeed,
    Gpus,
    Nics,
    NicSpeed,
    PortsPerNic,
    Injection,
    ScaleUp,
    PortsUsed,
    PortsFree,
    Placement,
    Endpoints,
    LinkSpeed,
    Cables,
    Medium,
    Length,
    Capacity,
    Summary,
};

/// One row of the inspector: a label and a value as shown, and, for an editable row, the
/// value an editor starts from.
struct PropertyRow {
    PropertyKey key = PropertyKey::Summary;
    QString label;
    QString text;        ///< what the value column shows
    QVariant edit;       ///< invalid for a read-only row
    QStringList choices; ///< the values a combo box offers; empty otherwise
    QString toolTip{};   ///< what the value means; empty for the table's default
};

/// The rows PropertyTableModel shows, read from the document: a node's or a link's
/// properties, or a read-only summary of several items. Every id must exist.
class PropertyRows {
    Q_DECLARE_TR_FUNCTIONS(fabriclab::views::PropertyRows)

public:
    static std::vector<PropertyRow> forNode(const TopologyDocument& document, model::NodeId id);
    static std::vector<PropertyRow> forLink(const TopologyDocument& document, model::LinkId id);
    /// Counts by kind, GPUs, links, cables and capacity; read-only.
    static std::vector<PropertyRow> summary(const TopologyDocument& document,
                                            const QList<model::NodeId>& nodes,
                                            const QList<model::LinkId>& links);
    /// "leaf-3 (leaf switch)", "Link srv-1 – leaf-1", "12 nodes, 3 links"; empty for nothing.
    static QString title(const TopologyDocument& document, const QList<model::NodeId>& nodes,
                         const QList<model::LinkId>& links);

    /// "DAC", "AOC", "Optics": the medium as the inspector shows and offers it.
    static QString mediumText(model::LinkMedium medium);
    /// From a shown name or the file's spelling ("optics"); nullopt for anything else.
    static std::optional<model::LinkMedium> mediumFrom(const QString& text);
};

} // namespace fabriclab::views
