// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/models/PropertyRows.hpp"

#include "views/document/TopologyDocument.hpp"
#include "views/models/NumberFormat.hpp"

#include <array>

namespace fabriclab::views {
namespace {

constexpr std::array<std::pair<model::LinkMedium, const char*>, 3> kMediumNames{{
    {model::LinkMedium::Dac, "DAC"},
    {model::LinkMedium::Aoc, "AOC"},
    {model::LinkMedium::Optics, "Optics"},
}};

QString kindText(model::NodeKind kind) {
    switch (kind) {
    case model::NodeKind::Server:
        return PropertyRows::tr("Server");
    case model::NodeKind::Leaf:
        return PropertyRows::tr("Leaf switch");
    case model::NodeKind::Spine:
        return PropertyRows::tr("Spine switch");
    case model::NodeKind::Core:
        return PropertyRows::tr("Core switch");
    }
    return {};
}

QString nameOf(const model::Topology& topology, model::NodeId id) {
    return QString::fromStdString(topology.node(id).name);
}

} // namespace

QString PropertyRows::mediumText(model::LinkMedium medium) {
    for (const auto& [value, name] : kMediumNames)
        if (value == medium)
            return QString::fromLatin1(name);
    return {};
}

std::optional<model::LinkMedium> PropertyRows::mediumFrom(const QString& text) {
    for (const auto& [value, name] : kMediumNames)
        if (text.compare(QLatin1String(name), Qt::CaseInsensitive) == 0)
            return value;
    // The file's spelling ("optics") is accepted too, for scripted edits.
    return model::linkMediumFromString(text.trimmed().toLower().toStdString());
}

std::vector<PropertyRow> PropertyRows::forNode(const TopologyDocument& document, model::NodeId id) {
    const auto& topology = document.topology();
    const model::Node& node = topology.node(id);
    std::vector<PropertyRow> rows;
    rows.push_back({PropertyKey::Name,
                    tr("Name"),
                    QString::fromStdString(node.name),
                    QString::fromStdString(node.name),
                    {}});
    rows.push_back({PropertyKey::Kind, tr("Kind"), kindText(node.kind), {}, {}});
    if (node.kind == model::NodeKind::Server) {
        // A placed server's sizes come from the generator or the catalog; a new user must
        // see at a glance what it got, so NICs and their speed say what they mean.
        rows.push_back({PropertyKey::Gpus,
                        tr("GPUs"),
                        numberText(node.server.gpus),
                        node.server.gpus,
                        {},
                        tr("GPUs in this server's scale-up domain (NVLink or similar)")});
        rows.push_back(
            {PropertyKey::Nics,
             tr("NICs"),
             numberText(node.server.nics),
             node.server.nics,
             {},
             tr("Fabric NICs (rails) in this server: each takes a cable to a switch per "
                "port. %1 of %2 cabled.")
                 .arg(numberText(topology.portsUsed(id)), numberText(node.server.cablePorts()))});
        rows.push_back({PropertyKey::NicSpeed,
                        tr("NIC speed (Gb/s)"),
                        numberText(node.server.nicSpeed.value),
                        node.server.nicSpeed.value,
                        {},
                        tr("Line rate of each NIC, in Gb/s")});
        rows.push_back(
            {PropertyKey::PortsPerNic,
             tr("Ports per NIC"),
             numberText(node.server.portsPerNic),
             node.server.portsPerNic,
             {},
             tr("Ports of each NIC, each cabled into a plane of its own at the NIC speed over "
                "the ports (an 800G ConnectX-8 as 4 planes of 200G); a flow is split evenly "
                "over them. Port p of NIC i is cable p × NICs + i.")});
        rows.push_back(
            {PropertyKey::Injection,
             tr("Fabric bandwidth"),
             tr("%1 × %2 = %3")
                 .arg(numberText(node.server.nics), bandwidthText(node.server.nicSpeed.value),
                      bandwidthText(node.server.nics * node.server.nicSpeed.value)),
             {},
             {},
             tr("NICs × NIC speed: what this server can send into the fabric, per "
                "direction. Edit NICs and NIC speed above.")});
        rows.push_back({PropertyKey::ScaleUp,
                        tr("Scale-up (GB/s per GPU)"),
                        numberText(node.server.scaleUpGBps),
                        node.server.scaleUpGBps,
                        {}});
    } else {
        rows.push_back({PropertyKey::Radix,
                        tr("Radix (ports)"),
                        numberText(node.sw.radix),
                        node.sw.radix,
                        {}});
        rows.push_back({PropertyKey::PortSpeed,
                        tr("Port speed (Gb/s)"),
                        numberText(node.sw.portSpeed.value),
                        node.sw.portSpeed.value,
                        {}});
    }
    rows.push_back(
        {PropertyKey::PortsUsed, tr("Ports used"), numberText(topology.portsUsed(id)), {}, {}});
    rows.push_back(
        {PropertyKey::PortsFree, tr("Ports free"), numberText(document.freePorts(id)), {}, {}});
    const auto& place = node.placement;
    if (place.pod >= 0 || place.group >= 0 || place.rail >= 0 || place.plane >= 0) {
        QStringList parts;
        if (place.pod >= 0)
            parts << tr("pod %1").arg(place.pod);
        if (place.group >= 0)
            parts << tr("group %1").arg(place.group);
        if (place.rail >= 0)
            parts << tr("rail %1").arg(place.rail);
        if (place.plane >= 0)
            parts << tr("NIC-port plane %1").arg(place.plane);
        rows.push_back(
            {PropertyKey::Placement, tr("Placement"), parts.join(QStringLiteral(", ")), {}, {}});
    }
    return rows;
}

std::vector<PropertyRow> PropertyRows::forLink(const TopologyDocument& document, model::LinkId id) {
    const auto& topology = document.topology();
    const model::Link& link = topology.link(id);
    QStringList media;
    for (const auto& entry : kMediumNames)
        media << QString::fromLatin1(entry.second);
    std::vector<PropertyRow> rows;
    rows.push_back({PropertyKey::Endpoints,
                    tr("Endpoints"),
                    nameOf(topology, link.a) + QStringLiteral(" – ") + nameOf(topology, link.b),
                    {},
                    {}});
    rows.push_back({PropertyKey::LinkSpeed,
                    tr("Speed (Gb/s)"),
                    numberText(link.speed.value),
                    link.speed.value,
                    {}});
    rows.push_back({PropertyKey::Cables, tr("Cables"), numberText(link.count), link.count, {}});
    rows.push_back({PropertyKey::Medium, tr("Medium"), mediumText(link.medium),
                    mediumText(link.medium), media});
    rows.push_back({PropertyKey::Length,
                    tr("Length (m)"),
                    numberText(link.lengthMeters),
                    link.lengthMeters,
                    {}});
    rows.push_back({PropertyKey::Capacity,
                    tr("Capacity"),
                    tr("%1 per direction").arg(bandwidthText(link.capacity().value)),
                    {},
                    {}});
    return rows;
}

std::vector<PropertyRow> PropertyRows::summary(const TopologyDocument& document,
                                               const QList<model::NodeId>& nodes,
                                               const QList<model::LinkId>& links) {
    const auto& topology = document.topology();
    std::array<int, 4> byKind{};
    long long gpus = 0;
    for (const model::NodeId id : nodes) {
        const auto& node = topology.node(id);
        ++byKind[static_cast<std::size_t>(node.kind)];
        if (node.kind == model::NodeKind::Server)
            gpus += node.server.gpus;
    }
    long long cables = 0;
    double capacity = 0;
    for (const model::LinkId id : links) {
        cables += topology.link(id).count;
        capacity += topology.link(id).capacity().value;
    }
    const std::array<QString, 4> labels{tr("Servers"), tr("Leaves"), tr("Spines"), tr("Cores")};
    std::vector<PropertyRow> rows;
    for (std::size_t kind = 0; kind < byKind.size(); ++kind)
        if (byKind[kind] > 0)
            rows.push_back({PropertyKey::Summary, labels[kind], numberText(byKind[kind]), {}, {}});
    if (byKind[0] > 0)
        rows.push_back(
            {PropertyKey::Summary, tr("GPUs"), numberText(static_cast<double>(gpus)), {}, {}});
    if (!links.isEmpty()) {
        rows.push_back({PropertyKey::Summary, tr("Links"), numberText(links.size()), {}, {}});
        rows.push_back(
            {PropertyKey::Summary, tr("Cables"), numberText(static_cast<double>(cables)), {}, {}});
        rows.push_back({PropertyKey::Summary,
                        tr("Capacity"),
                        tr("%1 per direction").arg(bandwidthText(capacity)),
                        {},
                        {}});
    }
    return rows;
}

QString PropertyRows::title(const TopologyDocument& document, const QList<model::NodeId>& nodes,
                            const QList<model::LinkId>& links) {
    const auto& topology = document.topology();
    if (nodes.size() == 1 && links.isEmpty()) {
        const auto& node = topology.node(nodes.front());
        return tr("%1 (%2)").arg(QString::fromStdString(node.name), kindText(node.kind).toLower());
    }
    if (nodes.isEmpty() && links.size() == 1) {
        const auto& link = topology.link(links.front());
        return tr("Link %1 – %2").arg(nameOf(topology, link.a), nameOf(topology, link.b));
    }
    QStringList parts;
    if (!nodes.isEmpty())
        parts << (nodes.size() == 1 ? tr("1 node") : tr("%1 nodes").arg(numberText(nodes.size())));
    if (!links.isEmpty())
        parts << (links.size() == 1 ? tr("1 link") : tr("%1 links").arg(numberText(links.size())));
    return parts.join(QStringLiteral(", "));
}

} // namespace fabriclab::views
