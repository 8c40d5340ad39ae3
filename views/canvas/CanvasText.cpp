// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/canvas/CanvasText.hpp"

#include "views/document/RackScale.hpp"

#include "model/sim/routing/ValiantRouting.hpp"
#include "views/models/NumberFormat.hpp"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <cmath>
#include <map>
#include <tuple>

namespace fabriclab::views {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("fabriclab::views::CanvasText", text);
}

// English plurals without a translation file: "%n" forms need one to pluralise.
QString plural(int n, const char* one, const char* many) {
    return (n == 1 ? tr(one) : tr(many)).arg(CanvasText::count(n));
}

QString mediumName(model::LinkMedium medium) {
    switch (medium) {
    case model::LinkMedium::Dac:
        return tr("DAC copper");
    case model::LinkMedium::Aoc:
        return tr("AOC");
    case model::LinkMedium::Optics:
        return tr("optics");
    }
    return {};
}

QString kindName(model::NodeKind kind) {
    switch (kind) {
    case model::NodeKind::Server:
        return tr("server");
    case model::NodeKind::Leaf:
        return tr("leaf switch");
    case model::NodeKind::Spine:
        return tr("spine switch");
    case model::NodeKind::Core:
        return tr("core switch");
    }
    return {};
}

QString podName(int pod, CanvasText::Nouns nouns) {
    return nouns.podsAreGroups ? tr("group %1").arg(pod + 1) : tr("pod %1").arg(pod + 1);
}

QString placementLine(const model::Node& node, CanvasText::Nouns nouns) {
    const model::Placement& placement = node.placement;
    QStringList parts;
    if (placement.rail >= 0)
        parts << tr("rail %1").arg(placement.rail + 1);
    if (placement.plane >= 0)
        parts << tr("plane %1").arg(placement.plane + 1); // a NIC-port plane
    if (placement.group >= 0 && node.kind == model::NodeKind::Spine && placement.plane < 0)
        parts << tr("plane %1").arg(placement.group + 1);
    else if (placement.group >= 0 && node.kind != model::NodeKind::Spine)
        parts << tr("unit %1").arg(placement.group + 1);
    if (placement.pod >= 0)
        parts << podName(placement.pod, nouns);
    return parts.join(QStringLiteral(" · "));
}

} // namespace

CanvasText::Nouns CanvasText::nounsOf(const model::Topology& topology) {
    Nouns nouns;
    nouns.podsAreGroups = sim::routing::dragonflyGroups(topology) > 0;
    int servers = 0;
    int racks = 0;
    for (const auto& [id, node] : topology.nodes()) {
        if (node.kind == model::NodeKind::Spine && node.placement.rail >= 0)
            nouns.spinesServeRails = true;
        if (node.kind == model::NodeKind::Server) {
            ++servers;
            racks += node.server.gpus >= kRackScaleGpus;
        }
    }
    nouns.serversAreRacks = servers > 0 && racks == servers;
    return nouns;
}

QString CanvasText::groupTitle(model::GroupKey key, Nouns nouns) {
    switch (key.tier) {
    case model::GroupTier::Spines:
        if (key.group >= 0)
            return (nouns.spinesServeRails ? tr("rail %1 spines") : tr("plane %1 spines"))
                .arg(key.group + 1);
        return key.pod >= 0 ? tr("%1 spines").arg(podName(key.pod, nouns)) : tr("spines");
    case model::GroupTier::Cores:
        return tr("cores");
    case model::GroupTier::Pod:
        return podName(key.pod, nouns);
    case model::GroupTier::Unit:
        break;
    }
    return tr("unit %1").arg(key.group + 1);
}

QString CanvasText::tierLabel(model::NodeKind kind, int count, Nouns nouns) {
    const QString n = QLocale(QLocale::English).toString(count);
    switch (kind) {
    case model::NodeKind::Core:
        return tr("Cores · %1").arg(n);
    case model::NodeKind::Spine:
        return tr("Spines · %1").arg(n);
    case model::NodeKind::Leaf:
        return tr("Leaves · %1").arg(n);
    case model::NodeKind::Server:
        break;
    }
    return (nouns.serversAreRacks ? tr("Racks · %1") : tr("Servers · %1")).arg(n);
}

QString CanvasText::groupShortTitle(model::GroupKey key, Nouns nouns) {
    switch (key.tier) {
    case model::GroupTier::Spines:
        if (key.group >= 0)
            return (nouns.spinesServeRails ? tr("R%1") : tr("PL%1")).arg(key.group + 1);
        return key.pod >= 0 ? tr("S%1").arg(key.pod + 1) : tr("S");
    case model::GroupTier::Cores:
        return tr("C");
    case model::GroupTier::Pod:
        return (nouns.podsAreGroups ? tr("G%1") : tr("P%1")).arg(key.pod + 1);
    case model::GroupTier::Unit:
        break;
    }
    return tr("U%1").arg(key.group + 1);
}

QString CanvasText::count(long long n) {
    return numberText(static_cast<double>(n));
}

QString CanvasText::rate(model::Gbps rate) {
    const double gbps = rate.value;
    if (gbps >= 1e6)
        return tr("%1 Pb/s").arg(gbps / 1e6, 0, 'g', 3);
    if (gbps >= 1e3)
        return tr("%1 Tb/s").arg(gbps / 1e3, 0, 'g', 3);
    return tr("%1 Gb/s").arg(gbps, 0, 'g', 4);
}

QString CanvasText::blockCounts(const model::Block& block) {
    switch (block.key.tier) {
    case model::GroupTier::Spines:
        return plural(block.spines, "%1 spine switch", "%1 spine switches");
    case model::GroupTier::Cores:
        return plural(block.cores, "%1 core switch", "%1 core switches");
    case model::GroupTier::Pod:
        return plural(block.servers, "%1 server", "%1 servers") + QStringLiteral(", ") +
               plural(block.leaves, "%1 leaf", "%1 leaves") + QStringLiteral(", ") +
               plural(block.spines, "%1 spine", "%1 spines");
    case model::GroupTier::Unit:
        break;
    }
    return plural(block.servers, "%1 server", "%1 servers") + QStringLiteral(", ") +
           plural(block.leaves, "%1 leaf", "%1 leaves");
}

QString CanvasText::blockGpus(const model::Block& block) {
    // A block of switches has no GPUs to count.
    return block.gpus > 0 ? plural(block.gpus, "%1 GPU", "%1 GPUs") : QString();
}

QString CanvasText::blockGpusShort(const model::Block& block) {
    if (block.gpus <= 0)
        return {};
    if (block.gpus < 10000)
        return QLocale(QLocale::English).toString(block.gpus);
    return tr("%1K").arg(std::lround(block.gpus / 1000.0));
}

QString CanvasText::endpointName(const model::Topology& topology, const model::Endpoint& endpoint) {
    if (const auto* id = std::get_if<model::NodeId>(&endpoint))
        return topology.contains(*id) ? QString::fromStdString(topology.node(*id).name) : QString();
    return groupTitle(std::get<model::GroupKey>(endpoint), nounsOf(topology));
}

QString CanvasText::nodeToolTip(const model::Topology& topology, model::NodeId id) {
    if (!topology.contains(id))
        return {};
    const model::Node& node = topology.node(id);
    QStringList lines;
    lines << QStringLiteral("<b>%1</b> — %2")
                 .arg(QString::fromStdString(node.name).toHtmlEscaped(), kindName(node.kind));
    const int used = topology.portsUsed(id);
    if (node.kind == model::NodeKind::Server) {
        lines << plural(node.server.gpus, "%1 GPU", "%1 GPUs");
        lines << (node.server.portsPerNic > 1
                      ? tr("%1 × %2 NICs of %3 ports (one per plane), %4 cabled")
                            .arg(count(node.server.nics), rate(node.server.nicSpeed),
                                 count(node.server.portsPerNic), count(used))
                      : tr("%1 × %2 NICs, %3 cabled")
                            .arg(count(node.server.nics), rate(node.server.nicSpeed), count(used)));
    } else {
        lines << tr("%1 × %2 ports, %3 in use")
                     .arg(count(node.sw.radix), rate(node.sw.portSpeed), count(used));
    }
    if (const QString placement = placementLine(node, nounsOf(topology)); !placement.isEmpty())
        lines << placement;
    return lines.join(QStringLiteral("<br>"));
}

QString CanvasText::blockToolTip(const model::Block& block, Nouns nouns) {
    QStringList lines;
    QString title = QStringLiteral("<b>%1</b>").arg(groupTitle(block.key, nouns));
    if (block.key.pod >= 0 && block.key.tier != model::GroupTier::Pod)
        title += QStringLiteral(" · ") + podName(block.key.pod, nouns);
    lines << title;
    lines << blockCounts(block) + QStringLiteral(", ") + blockGpus(block);
    if (!block.rails.empty())
        lines << tr("rails %1–%2").arg(block.rails.front() + 1).arg(block.rails.back() + 1);
    lines << plural(block.internalCables, "%1 cable inside", "%1 cables inside");
    lines << tr("Double-click to expand");
    return lines.join(QStringLiteral("<br>"));
}

QString CanvasText::edgeToolTip(const model::Topology& topology, const model::Edge& edge) {
    // Cables grouped by what they are, so a bundle reads "256 × 400 Gb/s, AOC".
    std::map<std::tuple<double, model::LinkMedium>, int> kinds;
    for (const model::LinkId id : edge.links) {
        if (!topology.links().count(id))
            continue;
        const model::Link& link = topology.link(id);
        kinds[{link.speed.value, link.medium}] += link.count;
    }
    QStringList lines;
    lines << QStringLiteral("<b>%1 ↔ %2</b>")
                 .arg(endpointName(topology, edge.a).toHtmlEscaped(),
                      endpointName(topology, edge.b).toHtmlEscaped());
    for (const auto& [kind, count] : kinds)
        lines << tr("%1 × %2, %3")
                     .arg(CanvasText::count(count), rate(model::Gbps(std::get<0>(kind))),
                          mediumName(std::get<1>(kind)));
    if (edge.links.size() > 1)
        lines << plural(static_cast<int>(edge.links.size()), "%1 link bundled", "%1 links bundled");
    lines << tr("capacity %1 each way").arg(rate(edge.capacity));
    if (edge.rail >= 0)
        lines << tr("rail %1").arg(edge.rail + 1);
    return lines.join(QStringLiteral("<br>"));
}

QString CanvasText::toolHint(CanvasTool tool) {
    switch (tool) {
    case CanvasTool::Select:
        return tr("Select: click or drag a box; drag nodes to move them (Alt: no snap); "
                  "double-click a unit to "
                  "expand it.");
    case CanvasTool::Server:
        return tr("Server: click to place a server (Alt: no snap). V or Esc returns to Select.");
    case CanvasTool::Rack:
        return tr("Rack: click to place an NVLink rack, one scale-up domain of 72 GPUs (the "
                  "workload's rack-scale GPU, else GB200 NVL72; Alt: no snap). V or Esc returns "
                  "to Select.");
    case CanvasTool::Leaf:
        return tr("Leaf: click to place a leaf switch (Alt: no snap). V or Esc returns to Select.");
    case CanvasTool::Spine:
        return tr(
            "Spine: click to place a spine switch (Alt: no snap). V or Esc returns to Select.");
    case CanvasTool::Core:
        return tr("Core: click to place a core switch (Alt: no snap). V or Esc returns to Select.");
    case CanvasTool::Link:
        return tr("Link: drag from one node to another to cable them; again for a parallel cable.");
    }
    return {};
}

QString CanvasText::placed(const model::Topology& topology, model::NodeId id) {
    const model::Node& node = topology.node(id);
    const QString name = QString::fromStdString(node.name);
    // Sizes come from the generator or the catalog, not from the user: say which, so a
    // server with the wrong NIC count does not go unnoticed.
    if (node.kind == model::NodeKind::Server)
        return tr("%1 placed: %2, %3 × %4 NICs — edit in the Inspector")
            .arg(name, plural(node.server.gpus, "%1 GPU", "%1 GPUs"), count(node.server.nics),
                 rate(node.server.nicSpeed));
    return tr("%1 placed: %2 ports × %3 — edit in the Inspector")
        .arg(name, count(node.sw.radix), rate(node.sw.portSpeed));
}

} // namespace fabriclab::views
