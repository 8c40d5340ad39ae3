// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/TopologySummary.hpp"

#include "views/models/NumberFormat.hpp"

#include <QCoreApplication>
#include <QStringList>

namespace fabriclab::views {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("fabriclab::views::TopologySummary", text);
}

QString counted(long long n, const char* one, const char* many) {
    // Not tr()'s %n: it would print 16384 without the grouping numberText gives.
    return tr(n == 1 ? one : many).arg(numberText(static_cast<double>(n)));
}

} // namespace

TopologySummary TopologySummary::of(const model::Topology& topology) {
    TopologySummary s;
    s.gpus = topology.gpuCount();
    s.servers = topology.serverCount();
    const auto tiers = topology.switchCounts();
    s.leaves = tiers.leaf;
    s.spines = tiers.spine;
    s.cores = tiers.core;
    const model::CableCounts cables = topology.cableCounts();
    s.serverCables = cables.server;
    s.leafSpineCables = cables.leafSpine;
    s.spineCoreCables = cables.spineCore;
    s.otherCables = cables.other;
    return s;
}

QString TopologySummary::countsText() const {
    QStringList parts;
    parts << counted(gpus, "%1 GPU", "%1 GPUs") << counted(servers, "%1 server", "%1 servers")
          << counted(leaves, "%1 leaf", "%1 leaves") << counted(spines, "%1 spine", "%1 spines");
    if (cores > 0)
        parts << counted(cores, "%1 core", "%1 cores");
    return parts.join(QStringLiteral(" · "));
}

QString TopologySummary::cablesText() const {
    QStringList parts;
    if (serverCables > 0)
        parts << tr("%1 server").arg(numberText(static_cast<double>(serverCables)));
    if (leafSpineCables > 0)
        parts << tr("%1 leaf–spine").arg(numberText(static_cast<double>(leafSpineCables)));
    if (spineCoreCables > 0)
        parts << tr("%1 spine–core").arg(numberText(static_cast<double>(spineCoreCables)));
    if (otherCables > 0)
        parts << tr("%1 other").arg(numberText(static_cast<double>(otherCables)));
    if (parts.isEmpty())
        return tr("no cables");
    return tr("%1 cables").arg(parts.join(QStringLiteral(" · ")));
}

} // namespace fabriclab::views
