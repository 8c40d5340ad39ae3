// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/PropertyTableModel.hpp"

#include "model/design/DesignLimits.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/models/PropertyRows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace fabriclab::views {
namespace {

std::optional<double> numberFrom(const QVariant& value) {
    bool ok = false;
    const double number = value.toDouble(&ok);
    if (!ok || !std::isfinite(number))
        return std::nullopt;
    return number;
}

/// A whole number from an editor or a script; 2.5 ports is not a number of ports.
std::optional<int> wholeFrom(const QVariant& value) {
    const auto number = numberFrom(value);
    if (!number || std::floor(*number) != *number ||
        std::abs(*number) > std::numeric_limits<int>::max())
        return std::nullopt;
    return static_cast<int>(*number);
}

/// The value as the user typed it, numbers written as the app writes them ("99,999").
QString valueText(const QVariant& value) {
    bool ok = false;
    const double number = value.toDouble(&ok);
    return ok && std::isfinite(number) ? numberText(number, 6)
                                       : QStringLiteral("“%1”").arg(value.toString());
}

/// What a field takes.
struct Range {
    double low = 1;
    double high = 1;
    QString unit;          ///< after the high end: "from 1 to 3,200 Gb/s"
    bool whole = false;    ///< a count
    bool lowAbove = false; ///< the low end itself is refused: "above 0 and at most 100,000 m"
    QString why;           ///< what narrows it: " (leaf-1 has 128 cables attached)"
};

Range wholeRange(double low, double high, const QString& why = {}) {
    Range range;
    range.low = low;
    range.high = high;
    range.whole = true;
    range.why = why;
    return range;
}

Range numberRange(double low, double high, const QString& unit, bool lowAbove = false) {
    Range range;
    range.low = low;
    range.high = high;
    range.unit = unit;
    range.lowAbove = lowAbove;
    return range;
}

/// The sentence a refused number gets: the field, the value refused, the range it takes and
/// that nothing changed.
QString outOfRange(const QString& field, const QVariant& value, const Range& r) {
    const QString top =
        r.unit.isEmpty() ? numberText(r.high) : numberText(r.high) + QLatin1Char(' ') + r.unit;
    const QString range =
        r.lowAbove ? PropertyTableModel::tr("above %1 and at most %2").arg(numberText(r.low), top)
                   : PropertyTableModel::tr("from %1 to %2").arg(numberText(r.low), top);
    return (r.whole ? PropertyTableModel::tr("%1: %2 is refused; it takes a whole number %3%4. "
                                             "The design is unchanged.")
                    : PropertyTableModel::tr("%1: %2 is refused; it takes a number %3%4. "
                                             "The design is unchanged."))
        .arg(field, valueText(value), range, r.why);
}

} // namespace

PropertyTableModel::PropertyTableModel(TopologyDocument& document, QObject* parent)
    : QAbstractTableModel(parent), m_document(document) {
    // Each handler refreshes only when the change touches what is shown, so deleting a
    // thousand unrelated nodes does not rebuild the table a thousand times.
    connect(&m_document, &TopologyDocument::nodeChanged, this, [this](model::NodeId id) {
        const bool endpoint = std::any_of(m_links.begin(), m_links.end(), [&](model::LinkId link) {
            const auto& l = m_document.topology().link(link);
            return l.a == id || l.b == id;
        });
        if (m_nodes.contains(id) || endpoint)
            refresh();
    });
    connect(&m_document, &TopologyDocument::nodeRemoved, this, [this](model::NodeId id) {
        if (m_nodes.removeAll(id) > 0)
            refresh();
    });
    connect(&m_document, &TopologyDocument::linkAdded, this, [this](model::LinkId id) {
        if (m_nodes.size() == 1 && involvesSelection(id))
            refresh();
    });
    connect(&m_document, &TopologyDocument::linkChanged, this, [this](model::LinkId id) {
        if (m_links.contains(id) || m_attached.count(id))
            refresh();
    });
    connect(&m_document, &TopologyDocument::linkRemoved, this, [this](model::LinkId id) {
        const bool selected = m_links.removeAll(id) > 0;
        if (selected || m_attached.count(id))
            refresh();
    });
    connect(&m_document, &TopologyDocument::designReset, this, [this] {
        pruneMissing();
        refresh();
    });
}

void PropertyTableModel::setSelection(const QList<model::NodeId>& nodes,
                                      const QList<model::LinkId>& links) {
    m_nodes = nodes;
    m_links = links;
    pruneMissing();
    refresh(true);
}

void PropertyTableModel::pruneMissing() {
    const auto& topology = m_document.topology();
    m_nodes.removeIf([&](model::NodeId id) { return !topology.contains(id); });
    m_links.removeIf([&](model::LinkId id) { return topology.links().count(id) == 0; });
}

bool PropertyTableModel::involvesSelection(model::LinkId id) const {
    const auto& link = m_document.topology().link(id);
    return m_nodes.contains(link.a) || m_nodes.contains(link.b);
}

void PropertyTableModel::refresh(bool reset) {
    std::vector<PropertyRow> rows;
    m_attached.clear();
    if (m_nodes.size() == 1 && m_links.isEmpty()) {
        rows = PropertyRows::forNode(m_document, m_nodes.front());
        const auto attached = m_document.topology().linksOf(m_nodes.front());
        m_attached.insert(attached.begin(), attached.end());
    } else if (m_nodes.isEmpty() && m_links.size() == 1) {
        rows = PropertyRows::forLink(m_document, m_links.front());
    } else if (!m_nodes.isEmpty() || !m_links.isEmpty()) {
        rows = PropertyRows::summary(m_document, m_nodes, m_links);
    }
    m_title = PropertyRows::title(m_document, m_nodes, m_links);

    // Same rows as before (the usual case: a value edited): update in place, so an open
    // editor and the current cell survive. Different rows: reset.
    const bool sameShape = !reset && rows.size() == m_rows.size() &&
                           std::equal(rows.begin(), rows.end(), m_rows.begin(),
                                      [](const PropertyRow& a, const PropertyRow& b) {
                                          return a.key == b.key && a.label == b.label;
                                      });
    if (sameShape) {
        m_rows = std::move(rows);
        if (!m_rows.empty())
            Q_EMIT dataChanged(index(0, PropertyColumn), index(rowCount() - 1, ValueColumn));
    } else {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
}

int PropertyTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PropertyTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PropertyTableModel::data(const QModelIndex& index, int role) const {
    // Views ask about the root index too; only a malformed cell index deserves checkIndex's
    // warning.
    if (!index.isValid() ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PropertyRow& row = m_rows[static_cast<std::size_t>(index.row())];
    if (index.column() == PropertyColumn) {
        if (role == Qt::ToolTipRole && !row.toolTip.isEmpty())
            return row.toolTip;
        return role == Qt::DisplayRole ? QVariant(row.label) : QVariant();
    }
    switch (role) {
    case Qt::DisplayRole:
        return row.text;
    case Qt::EditRole:
        return row.edit.isValid() ? row.edit : QVariant(row.text);
    case Qt::ToolTipRole:
        if (!row.toolTip.isEmpty())
            return row.toolTip;
        return row.edit.isValid() ? QVariant()
                                  : QVariant(tr("Follows from the design; not editable here."));
    case ChoicesRole:
        return row.choices.isEmpty() ? QVariant() : QVariant(row.choices);
    default:
        return {};
    }
}

QVariant PropertyTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return section == PropertyColumn ? tr("Property") : tr("Value");
}

Qt::ItemFlags PropertyTableModel::flags(const QModelIndex& index) const {
    if (!index.isValid() ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == ValueColumn &&
        m_rows[static_cast<std::size_t>(index.row())].edit.isValid())
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool PropertyTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !(flags(index) & Qt::ItemIsEditable))
        return false;
    const PropertyKey property = m_rows[static_cast<std::size_t>(index.row())].key;
    try {
        return m_nodes.size() == 1 ? editNode(property, value) : editLink(property, value);
    } catch (const std::exception& e) {
        // The document refuses what it cannot record (a name taken meanwhile).
        return refuse(QString::fromStdString(e.what()));
    }
}

bool PropertyTableModel::refuse(const QString& reason) {
    Q_EMIT refused(reason);
    return false;
}

bool PropertyTableModel::editNode(PropertyKey property, const QVariant& value) {
    const model::NodeId id = m_nodes.front();
    const auto& topology = m_document.topology();
    const model::Node& before = topology.node(id);
    model::Node after = before;
    const int used = topology.portsUsed(id);
    // The ranges are the design file's (model::limits), so what is accepted here reopens.
    const auto whole = [&](const QString& field, int low, int high,
                           const QString& why = {}) -> std::optional<int> {
        const auto number = wholeFrom(value);
        if (!number || *number < low || *number > high) {
            refuse(outOfRange(field, value, wholeRange(low, high, why)));
            return std::nullopt;
        }
        return number;
    };
    const auto number = [&](const QString& field, double high,
                            const QString& unit) -> std::optional<double> {
        const auto n = numberFrom(value);
        if (!n || *n < 1 || *n > high) {
            refuse(outOfRange(field, value, numberRange(1, high, unit)));
            return std::nullopt;
        }
        return n;
    };
    // A node cannot have fewer ports than its cables use.
    const QString inUse = used > 1 ? tr(" (%1 has %2 cables attached)")
                                         .arg(QString::fromStdString(before.name), numberText(used))
                                   : QString();
    switch (property) {
    case PropertyKey::Name: {
        const QString name = value.toString().trimmed();
        if (name.isEmpty())
            return refuse(tr("A node needs a name."));
        if (name.toStdString() != before.name && topology.findNode(name.toStdString()))
            return refuse(tr("Another node is already called %1.").arg(name));
        after.name = name.toStdString();
        break;
    }
    case PropertyKey::Radix: {
        const auto radix = whole(tr("Radix"), std::max(1, used), model::limits::kMaxRadix, inUse);
        if (!radix)
            return false;
        after.sw.radix = *radix;
        break;
    }
    case PropertyKey::Nics: {
        // Each NIC takes a cable per port.
        const int ports = before.server.portsPerNic;
        const auto nics = whole(tr("NICs"), std::max(1, (used + ports - 1) / ports),
                                model::limits::kMaxPerServer, inUse);
        if (!nics)
            return false;
        after.server.nics = *nics;
        break;
    }
    case PropertyKey::PortsPerNic: {
        const int nics = before.server.nics;
        const auto ports = whole(tr("Ports per NIC"), std::max(1, (used + nics - 1) / nics),
                                 model::limits::kMaxPortsPerNic, inUse);
        if (!ports)
            return false;
        after.server.portsPerNic = *ports;
        break;
    }
    case PropertyKey::Gpus: {
        const auto gpus = whole(tr("GPUs"), 1, model::limits::kMaxPerServer);
        if (!gpus)
            return false;
        after.server.gpus = *gpus;
        break;
    }
    case PropertyKey::PortSpeed:
    case PropertyKey::NicSpeed:
    case PropertyKey::ScaleUp: {
        const bool scaleUp = property == PropertyKey::ScaleUp;
        const auto speed =
            number(scaleUp                              ? tr("Scale-up bandwidth")
                   : property == PropertyKey::PortSpeed ? tr("Port speed")
                                                        : tr("NIC speed"),
                   scaleUp ? model::limits::kMaxScaleUpGBps : model::limits::kMaxGbps,
                   scaleUp ? tr("GB/s per GPU") : tr("Gb/s"));
        if (!speed)
            return false;
        if (property == PropertyKey::PortSpeed)
            after.sw.portSpeed = model::Gbps(*speed);
        else if (property == PropertyKey::NicSpeed)
            after.server.nicSpeed = model::Gbps(*speed);
        else
            after.server.scaleUpGBps = *speed;
        break;
    }
    default:
        return false;
    }
    if (after.name == before.name && after.server.gpus == before.server.gpus &&
        after.server.nics == before.server.nics &&
        after.server.portsPerNic == before.server.portsPerNic &&
        after.server.nicSpeed == before.server.nicSpeed &&
        after.server.scaleUpGBps == before.server.scaleUpGBps &&
        after.sw.radix == before.sw.radix && after.sw.portSpeed == before.sw.portSpeed)
        return true; // an editor closed without a change: no empty undo step
    m_document.editNode(id, after);
    return true;
}

bool PropertyTableModel::editLink(PropertyKey property, const QVariant& value) {
    const model::LinkId id = m_links.front();
    const auto& topology = m_document.topology();
    const model::Link& before = topology.link(id);
    model::Link after = before;
    switch (property) {
    case PropertyKey::LinkSpeed: {
        const auto number = numberFrom(value);
        if (!number || *number < 1 || *number > model::limits::kMaxGbps)
            return refuse(outOfRange(tr("Link speed"), value,
                                     numberRange(1, model::limits::kMaxGbps, tr("Gb/s"))));
        after.speed = model::Gbps(*number);
        break;
    }
    case PropertyKey::Length: {
        const auto number = numberFrom(value);
        if (!number || *number <= 0 || *number > model::limits::kMaxLengthMeters)
            return refuse(
                outOfRange(tr("Length"), value,
                           numberRange(0, model::limits::kMaxLengthMeters, tr("m"), true)));
        after.lengthMeters = *number;
        break;
    }
    case PropertyKey::Cables: {
        // As many more cables as both ends have free ports, within the file's limit.
        int most = model::limits::kMaxParallel;
        QString tightest;
        for (const model::NodeId end : {before.a, before.b}) {
            const int fits = before.count + m_document.freePorts(end);
            if (fits < most) {
                most = fits;
                tightest = tr(" (%1 has %2 free port(s))")
                               .arg(QString::fromStdString(topology.node(end).name),
                                    numberText(m_document.freePorts(end)));
            }
        }
        const auto count = wholeFrom(value);
        if (!count || *count < 1 || *count > std::max(1, most))
            return refuse(
                outOfRange(tr("Cables"), value, wholeRange(1, std::max(1, most), tightest)));
        after.count = *count;
        break;
    }
    case PropertyKey::Medium: {
        const auto medium = PropertyRows::mediumFrom(value.toString());
        if (!medium)
            return refuse(
                tr("%1 is not a medium; choose DAC, AOC or Optics.").arg(value.toString()));
        after.medium = *medium;
        break;
    }
    default:
        return false;
    }
    if (after.speed == before.speed && after.count == before.count &&
        after.medium == before.medium && after.lengthMeters == before.lengthMeters)
        return true;
    m_document.editLink(id, after);
    return true;
}

} // namespace fabriclab::views
