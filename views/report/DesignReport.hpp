// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/cost/CostModel.hpp"
#include "model/report/Assumptions.hpp"
#include "model/report/CablingPlan.hpp"
#include "views/models/CompareResult.hpp"
#include "views/sim/RunResult.hpp"

#include <QDateTime>
#include <QList>
#include <QString>

#include <functional>
#include <string>
#include <vector>

namespace fabriclab::views {

class CanvasView;
class ChartPanel;

/// What the report works out from the model before anything is drawn: the cables counted
/// by kind and the catalog values behind the figures (the bill is the run's own). Seconds
/// at 131K GPUs: made on a worker thread.
struct ReportFacts {
    std::vector<model::CableCount> cables;
    long long cableCount = 0;
    std::vector<std::string> cablingNotes;
    std::vector<model::AssumptionGroup> assumptions;
    QString error; ///< why the design could not be cabled; the rest is empty then
};

/// The cabling summary and the assumptions of `design`, priced as `cost` (the run's bill),
/// run on its own fabric and compared on `comparedFabricIds`. Any thread.
ReportFacts reportFacts(const model::Design& design, const model::Catalog& catalog,
                        const std::vector<std::string>& comparedFabricIds,
                        const model::CostReport& cost);

/// Everything a design report shows, as the app shows it: the run and comparison the
/// window holds, its own charts and canvas. Pointers are the caller's and outlive the call.
struct DesignReportInputs {
    RunResultPtr result;         ///< a finished run of the design (ok())
    CompareResultPtr comparison; ///< null when the design was not compared
    QList<ChartPanel*> charts;   ///< the results charts, in the order the app lays them out
    ChartPanel* compareChart = nullptr;
    const CanvasView* canvas = nullptr;
    const model::Catalog* catalog = nullptr;
    QString version;   ///< FabricLab's
    QDateTime created; ///< printed on the title page
};

/// Writes the design report as a PDF to `path` (atomically): a title page with the verdict
/// in a paragraph and the key figures; the topology as drawn; every results chart with its
/// caption; the fabric comparison's table, verdict and chart; the bill of materials; the
/// cabling summary; the what-if failures and story steps when the design has them; and
/// every catalog value used, with its source. Charts and canvas are drawn by their own
/// widgets as vectors. GUI thread (the widgets paint). `progress(page, pages)` as pages
/// are written. Returns the number of pages, or 0 with `error` set.
int writeDesignReport(const DesignReportInputs& inputs, const ReportFacts& facts,
                      const QString& path, QString* error,
                      const std::function<void(int, int)>& progress = {});

} // namespace fabriclab::views
