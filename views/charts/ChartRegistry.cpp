// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/ChartRegistry.hpp"

#include "views/charts/AcrossSitesChart.hpp"
#include "views/charts/BisectionChart.hpp"
#include "views/charts/BusBandwidthChart.hpp"
#include "views/charts/CompareChart.hpp"
#include "views/charts/CostChart.hpp"
#include "views/charts/LinkUtilizationChart.hpp"
#include "views/charts/MeasuredChart.hpp"
#include "views/charts/ScalingChart.hpp"
#include "views/charts/StepTimeChart.hpp"
#include "views/charts/ThroughputChart.hpp"

#include <array>

namespace fabriclab::views {
namespace {

template <class Chart> ChartKind kind(ChartPlaces places) {
    return {Chart::kId, &Chart::displayTitle, &Chart::shortLabel,
            [](QWidget* parent) -> ChartPanel* { return new Chart(parent); }, places};
}

using enum ChartPlace;

} // namespace

std::span<const ChartKind> chartKinds() {
    // One line per chart. The dashboard lays its charts out in this order.
    static const std::array kinds{
        kind<BisectionChart>(Dashboard | FollowsRun | Exported),
        kind<ThroughputChart>(Dashboard | FollowsRun | Exported),
        kind<BusBandwidthChart>(Dashboard | FollowsRun | Exported | PresentedByDefault),
        kind<StepTimeChart>(Dashboard | FollowsRun | Exported | PresentedByDefault),
        kind<CostChart>(Dashboard | FollowsRun | Exported),
        kind<ScalingChart>(Dashboard | Exported), // fed by the scaling study
        kind<AcrossSitesChart>(Dashboard | FollowsRun | Exported | OnlyWithData),
        kind<CompareChart>(Exported),   // the Compare panel's
        kind<MeasuredChart>({}),        // the accuracy dialog's
        kind<LinkUtilizationChart>({}), // the Explain panel's
    };
    return kinds;
}

const ChartKind* findChartKind(QStringView id) {
    for (const ChartKind& kind : chartKinds())
        if (id == QLatin1String(kind.id))
            return &kind;
    return nullptr;
}

bool onlyWithData(QStringView id) {
    const ChartKind* kind = findChartKind(id);
    return kind && kind->places.testFlag(ChartPlace::OnlyWithData);
}

QStringList chartIds(ChartPlace place) {
    QStringList ids;
    for (const ChartKind& kind : chartKinds())
        if (kind.places.testFlag(place))
            ids << QString::fromLatin1(kind.id);
    return ids;
}

} // namespace fabriclab::views
