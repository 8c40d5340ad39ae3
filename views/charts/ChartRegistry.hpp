// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <QFlags>
#include <QString>
#include <QStringList>

#include <span>

class QWidget;

namespace fabriclab::views {

class ChartPanel;

/// Where a kind of chart appears.
enum class ChartPlace {
    Dashboard = 0x1,          ///< one of the results dashboard's charts, in registry order
    FollowsRun = 0x2,         ///< fed each run's report (ChartPanel::showRunReport)
    Exported = 0x4,           ///< written by --export-charts and drawn in the report
    PresentedByDefault = 0x8, ///< on screen when a presentation starts without a story
    /// Only where the design gives it figures (training across sites): the dashboard and the
    /// report leave it out otherwise, rather than show a placeholder every design has.
    OnlyWithData = 0x10,
};
Q_DECLARE_FLAGS(ChartPlaces, ChartPlace)

/// A kind of chart, as everything that lists charts finds it: the dashboard, the story
/// steps' pickers, presentation, the exports and the report. A chart is its own file
/// (a ChartPanel with kId, displayTitle and shortLabel) plus one line in ChartRegistry.cpp.
struct ChartKind {
    const char* id;     ///< ChartPanel::name(): object name, export stem, a story step's word
    QString (*title)(); ///< shown above the chart
    QString (*label)(); ///< short, for pickers and story lists
    ChartPanel* (*create)(QWidget* parent);
    ChartPlaces places;
};

/// Every kind, in the dashboard's order.
std::span<const ChartKind> chartKinds();
/// nullptr when no kind has that id.
const ChartKind* findChartKind(QStringView id);
/// Whether the kind called `id` is shown only with figures (ChartPlace::OnlyWithData).
bool onlyWithData(QStringView id);
/// The ids of the kinds in a place, in registry order.
QStringList chartIds(ChartPlace place);

} // namespace fabriclab::views

Q_DECLARE_OPERATORS_FOR_FLAGS(fabriclab::views::ChartPlaces)
