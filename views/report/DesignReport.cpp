// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/report/DesignReport.hpp"

#include "views/canvas/CanvasView.hpp"
#include "views/charts/ChartPanel.hpp"
#include "views/charts/ChartRegistry.hpp"
#include "views/models/CompareTableModel.hpp"
#include "views/models/NumberFormat.hpp"
#include "views/report/PagedReport.hpp"

#include <QCoreApplication>
#include <QLocale>

namespace fabriclab::views {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("DesignReport", text);
}

QString str(const std::string& text) {
    return QString::fromStdString(text);
}

/// A catalog number as written: up to six significant digits, grouped.
QString catalogNumber(double value) {
    QLocale locale = numberLocale();
    QString text = locale.toString(value, 'g', 6);
    // 'g' writes 1e+06 for a million: a price reads better in full.
    if (text.contains(QLatin1Char('e')) && std::abs(value) < 1e12)
        text = locale.toString(value, 'f', 0);
    return text;
}

/// A small amount in dollars and cents: "$0.17" (usdText rounds to whole dollars).
QString centsText(double usd) {
    return QStringLiteral("$") + numberLocale().toString(usd, 'f', 2);
}

/// The effective bisection, with its spread over the draws when there is one.
QString effectiveText(const model::RunReport& r) {
    const bool spread = r.effective.stddevGbps > 0.0005 * r.effective.gbps;
    return spread ? bandwidthSpreadText(r.effective.gbps, r.effective.stddevGbps)
                  : bandwidthText(r.effective.gbps);
}

QString partName(const model::Catalog& catalog, const std::string& id) {
    const model::PricedPart* part = catalog.prices().findPart(id);
    return str(part ? part->name : id);
}

/// The paragraph under the title: the verdict, then what the design delivers and costs.
QString summaryText(const model::RunReport& r, const CompareResultPtr& comparison) {
    QStringList sentences;
    if (comparison && !comparison->verdict.headline.empty())
        sentences << str(comparison->verdict.headline);
    sentences << tr("On %1, the %2 GPUs in %3 servers see an effective bisection of %4 of the "
                    "%5 the cables allow (%6).")
                     .arg(str(r.fabric.name), numberText(r.gpus), numberText(r.servers),
                          bandwidthText(r.effective.gbps), bandwidthText(r.bisection.minCut.value),
                          percentText(r.effective.ratio));
    if (r.collectiveRefusal.empty() && r.collective.seconds > 0)
        sentences << tr("Its %1 of %2 takes %3 at %4 of bus bandwidth.")
                         .arg(engineText(model::toString(r.collective.op)),
                              bytesText(r.collective.bytes), durationText(r.collective.seconds),
                              busBandwidthText(r.collective.busBwGBps));
    if (r.step)
        sentences << tr("A training step takes %1, %2 of it waiting on the fabric, for %3 tokens "
                        "per second.")
                         .arg(durationText(r.step->stepSeconds),
                              durationText(r.step->exposedCommSeconds),
                              numberText(r.step->tokensPerSecond, 0));
    sentences << tr("The fabric costs %1 (%2 per GPU-hour over %3 months) and draws %4 W.")
                     .arg(usdText(r.cost.capex.value), centsText(r.cost.perGpuHour),
                          numberText(r.cost.amortizationMonths), numberText(r.cost.power.value, 0));
    return sentences.join(QLatin1Char(' '));
}

QList<QPair<QString, QString>> keyFigures(const model::RunReport& r, const model::Design& design) {
    QList<QPair<QString, QString>> facts;
    facts.append({tr("Fabric"), str(r.fabric.name)});
    facts.append({tr("GPUs and servers"),
                  tr("%1 GPUs in %2 servers").arg(numberText(r.gpus), numberText(r.servers))});
    facts.append(
        {tr("Switches"), tr("%1 leaf, %2 spine, %3 core")
                             .arg(numberText(r.switches.leaf), numberText(r.switches.spine),
                                  numberText(r.switches.core))});
    facts.append({tr("Bisection (cables)"), bandwidthText(r.bisection.minCut.value)});
    facts.append(
        {tr("Bisection (effective)"),
         tr("%1, %2 of the cables'").arg(effectiveText(r), percentText(r.effective.ratio))});
    if (r.collectiveRefusal.empty())
        facts.append(
            {tr("Collective"),
             tr("%1 of %2 over %3 ranks: %4, bus bandwidth %5")
                 .arg(engineText(model::toString(r.collective.op)), bytesText(r.collective.bytes),
                      numberText(r.collective.ranks), durationText(r.collective.seconds),
                      busBandwidthText(r.collective.busBwGBps))});
    else
        facts.append({tr("Collective"), str(r.collectiveRefusal)});
    if (r.step && design.workload)
        facts.append(
            {tr("Training step"),
             tr("%1 (%2): %3, of it %4 waiting on the fabric; %5 tokens/s")
                 .arg(str(design.workload->model.spec.name), str(design.workload->gpu.spec.name),
                      durationText(r.step->stepSeconds), durationText(r.step->exposedCommSeconds),
                      numberText(r.step->tokensPerSecond, 0))});
    else if (!r.stepRefusal.empty())
        facts.append({tr("Training step"), str(r.stepRefusal)});
    if (r.memory) {
        const model::MemoryPerGpu& m = *r.memory;
        const auto gb = [](double bytes) { return numberText(bytes / 1e9, 1); };
        facts.append({tr("Memory per GPU"),
                      tr("%1 of %2 GB%3: weights %4, gradients %5, optimizer %6, activations %7 GB")
                          .arg(gb(m.total), numberText(m.hbm / 1e9, 0),
                               m.fits ? QString() : tr(", does not fit"), gb(m.weights),
                               gb(m.gradients), gb(m.optimizer), gb(m.activations + m.logits))});
    }
    facts.append({tr("Fabric capex"), usdText(r.cost.capex.value)});
    facts.append({tr("Per GPU-hour"), tr("%1 over %2 months")
                                          .arg(centsText(r.cost.perGpuHour))
                                          .arg(numberText(r.cost.amortizationMonths))});
    facts.append({tr("Fabric power"), tr("%1 W").arg(numberText(r.cost.power.value, 0))});
    return facts;
}

void addTopology(PagedReport& report, const DesignReportInputs& in, const model::RunReport& r) {
    report.addHeading(tr("Topology"), true);
    report.addParagraph(tr("The fabric as the canvas draws it: each row is a tier, blocks are "
                           "groups of switches or servers drawn as one, and a bundle's label "
                           "gives its cables, their speed and the bandwidth they carry."));
    if (in.canvas && in.canvas->designAspect() > 0) {
        const CanvasView* canvas = in.canvas;
        report.addFigure(canvas->designAspect(), [canvas](QPainter& p, const QRectF& target) {
            canvas->renderDesign(p, target);
        });
    }
    QList<QPair<QString, QString>> tiers;
    tiers.append({tr("Servers"), numberText(r.servers)});
    tiers.append({tr("Leaf switches"), numberText(r.switches.leaf)});
    if (r.switches.spine > 0)
        tiers.append({tr("Spine switches"), numberText(r.switches.spine)});
    if (r.switches.core > 0)
        tiers.append({tr("Core switches"), numberText(r.switches.core)});
    if (r.switchPlanes > 1)
        tiers.append({tr("Switch planes"), numberText(r.switchPlanes)});
    report.addFacts(tiers);
}

void addCharts(PagedReport& report, const DesignReportInputs& in) {
    report.addHeading(tr("Results"), true);
    report.addParagraph(tr("Each chart below is the one the app shows for this design, drawn by "
                           "the same chart from the same simulation."));
    for (ChartPanel* chart : in.charts) {
        if (!chart->hasData() && onlyWithData(chart->name()))
            continue; // a chart only some designs have (training across sites)
        report.addSubheading(chart->title());
        if (!chart->hasData()) {
            report.addNote(tr("Not computed for this design."));
            continue;
        }
        report.addFigure(
            chart->aspect(),
            [chart](QPainter& p, const QRectF& target) { chart->render(p, target); }, 0.42);
        if (!chart->caption().isEmpty())
            report.addNote(chart->caption());
    }
}

void addComparison(PagedReport& report, const DesignReportInputs& in) {
    report.addHeading(tr("Fabric comparison"), true);
    const CompareResultPtr& comparison = in.comparison;
    if (!comparison || comparison->rows.isEmpty()) {
        report.addParagraph(tr("The design was not compared on other fabrics."));
        return;
    }
    report.addParagraph(
        tr("The same design built on each fabric, like for like: regenerated with the fabric's "
           "own switches where it was generated, priced with the fabric's parts where it was "
           "drawn. The cluster's cost is %1.")
            .arg(comparison->mode == model::OwnershipMode::Owned
                     ? tr("owned: servers, fabric and energy over the period")
                     : tr("rented by the GPU-hour")));
    CompareTableModel model;
    model.setResult(comparison);
    QList<PagedReport::Column> columns;
    for (int c = 0; c < model.columnCount(); ++c) {
        const bool text =
            c == CompareTableModel::FabricColumn || c == CompareTableModel::NoteColumn;
        const double weight = c == CompareTableModel::FabricColumn ? 1.6
                              : c == CompareTableModel::NoteColumn ? 2.2
                                                                   : 1;
        columns.append({model.headerData(c, Qt::Horizontal).toString(), weight, !text});
    }
    QList<QStringList> rows;
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c)
            cells << model.data(model.index(r, c)).toString();
        rows.append(cells);
    }
    report.addTable(columns, rows);
    report.addSubheading(tr("Verdict"));
    if (!comparison->verdict.headline.empty())
        report.addParagraph(str(comparison->verdict.headline));
    QStringList reasons;
    for (const std::string& reason : comparison->verdict.reasons)
        reasons << str(reason);
    report.addBullets(reasons);
    if (in.compareChart && in.compareChart->hasData()) {
        ChartPanel* chart = in.compareChart;
        report.addSubheading(chart->title());
        report.addFigure(
            chart->aspect(),
            [chart](QPainter& p, const QRectF& target) { chart->render(p, target); }, 0.42);
        if (!chart->caption().isEmpty())
            report.addNote(chart->caption());
    }
}

void addBill(PagedReport& report, const model::CostReport& cost) {
    report.addHeading(tr("Bill of materials"), true);
    report.addParagraph(tr("Every part the fabric is built from, as the cost model buys it. The "
                           "total is the fabric capex every other figure uses; where each price "
                           "and power figure comes from is listed under Assumptions."));
    QList<QStringList> table;
    for (const model::BomLine& line : cost.bom)
        table.append({engineText(model::toString(line.tier)), str(line.role), str(line.partName),
                      str(line.partClass), numberText(static_cast<double>(line.quantity)),
                      usdText(line.unitPrice.value), usdText(line.total().value),
                      numberText(line.power().value, 0)});
    table.append({tr("Total"), QString(), QString(), QString(), QString(), QString(),
                  usdText(cost.capex.value), numberText(cost.power.value, 0)});
    report.addTable({{tr("Tier"), 0.8},
                     {tr("Role"), 1.1},
                     {tr("Part"), 2.6},
                     {tr("Class"), 0.8},
                     {tr("Quantity"), 0.8, true},
                     {tr("Unit price"), 0.9, true},
                     {tr("Extended"), 1.1, true},
                     {tr("Watts"), 0.8, true}},
                    table, true);
    for (const std::string& note : cost.notes)
        report.addNote(str(note));
}

void addCabling(PagedReport& report, const ReportFacts& facts, const model::Catalog& catalog) {
    report.addHeading(tr("Cabling summary"));
    report.addParagraph(
        tr("%1 cables, counted by kind. The full plan, every cable with both ends' device and "
           "port, is File > Export > Cabling plan (or fabriclab-cli cabling).")
            .arg(numberText(static_cast<double>(facts.cableCount))));
    QList<QStringList> rows;
    for (const model::CableCount& count : facts.cables)
        rows.append({engineText(count.tier), bandwidthText(count.gbps), engineText(count.medium),
                     engineText(count.lengthClass), partName(catalog, count.partId),
                     numberText(static_cast<double>(count.count))});
    report.addTable({{tr("Tier"), 1},
                     {tr("Speed"), 0.8},
                     {tr("Medium"), 1.2},
                     {tr("Length"), 0.7},
                     {tr("Part"), 3},
                     {tr("Cables"), 0.8, true}},
                    rows);
    QStringList notes;
    for (const std::string& note : facts.cablingNotes)
        notes << str(note);
    report.addBullets(notes);
}

void addFailuresAndStory(PagedReport& report, const model::Design& design,
                         const model::RunReport& r) {
    if (!design.failures.empty()) {
        report.addHeading(tr("What-if failures"));
        report.addParagraph(tr("The results are for the fabric with these elements failed; the "
                               "bill and cabling are for the fabric as built."));
        QStringList failures;
        for (const std::string& failure : r.failures)
            failures << str(failure);
        report.addBullets(failures);
    }
    if (!design.story.empty()) {
        report.addHeading(tr("Story"));
        report.addParagraph(tr("The steps saved for presenting this design, in order."));
        QList<QStringList> rows;
        int number = 0;
        for (const model::StoryStep& step : design.story) {
            QStringList charts;
            for (const std::string& chart : step.charts)
                charts << str(chart);
            rows.append({QString::number(++number), str(step.title), str(step.fabric),
                         step.oversubscription ? ratioText(*step.oversubscription) : QString(),
                         numberText(static_cast<double>(step.failures.size())),
                         charts.join(QStringLiteral(", "))});
        }
        report.addTable({{tr("Step"), 0.5, true},
                         {tr("Title"), 3},
                         {tr("Fabric"), 1},
                         {tr("Oversubscription"), 1.2},
                         {tr("Failures"), 0.8, true},
                         {tr("Charts"), 2}},
                        rows);
    }
}

void addAssumptions(PagedReport& report, const ReportFacts& facts) {
    report.addHeading(tr("Assumptions"), true);
    report.addParagraph(tr("Every catalog value behind the figures in this report, with where it "
                           "comes from. Values marked \"estimate\" or \"low reliability\" in "
                           "their source are the first to question; each can be changed in the "
                           "catalog and the report made again."));
    for (const model::AssumptionGroup& group : facts.assumptions) {
        report.addSubheading(str(group.title));
        if (!group.note.empty()) {
            report.addNote(str(group.note));
            continue;
        }
        QList<QStringList> rows;
        for (const model::CatalogValue& value : group.values)
            rows.append({str(model::assumptionLabel(value.field)), catalogNumber(value.value),
                         value.source.empty() ? tr("no source given") : str(value.source)});
        report.addTable({{tr("Value"), 1.4}, {tr("Figure"), 0.7, true}, {tr("Source"), 3.6}}, rows);
    }
}

} // namespace

ReportFacts reportFacts(const model::Design& design, const model::Catalog& catalog,
                        const std::vector<std::string>& comparedFabricIds,
                        const model::CostReport& cost) {
    ReportFacts facts;
    try {
        const model::CablingPlan plan =
            model::cablingPlan(design.topology, design.fabric.spec, catalog.prices());
        facts.cables = model::cablingSummary(plan);
        facts.cableCount = static_cast<long long>(plan.cables.size());
        facts.cablingNotes = plan.notes;
        facts.assumptions = model::assumptionsFor(design, catalog, comparedFabricIds, cost);
    } catch (const std::exception& e) {
        facts = {};
        facts.error = str(e.what());
    }
    return facts;
}

int writeDesignReport(const DesignReportInputs& in, const ReportFacts& facts, const QString& path,
                      QString* error, const std::function<void(int, int)>& progress) {
    const auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return 0;
    };
    if (!in.result || !in.result->ok() || !in.result->design || !in.catalog)
        return fail(tr("the design has no results to report"));
    if (!facts.error.isEmpty())
        return fail(facts.error);
    const model::Design& design = *in.result->design;
    const model::RunReport& r = in.result->report;
    const QString name =
        design.name.empty() ? tr("Untitled design") : QString::fromStdString(design.name);
    const QString date = QLocale(QLocale::English).toString(in.created.date(), QLocale::LongFormat);

    PagedReport report(tr("%1 · design report").arg(name),
                       tr("FabricLab %1 · %2").arg(in.version, date));
    report.addTitle(name, {tr("Design report"),
                           tr("%1 · %2 GPUs in %3 servers")
                               .arg(str(r.fabric.name), numberText(r.gpus), numberText(r.servers)),
                           tr("Prepared %1 with FabricLab %2").arg(date, in.version)});
    report.addHeading(tr("Summary"));
    report.addParagraph(summaryText(r, in.comparison));
    if (!design.description.empty())
        report.addParagraph(str(design.description));
    report.addFacts(keyFigures(r, design));
    if (!r.warnings.empty()) {
        report.addSubheading(tr("What the figures leave out"));
        QStringList warnings;
        for (const std::string& warning : r.warnings)
            warnings << str(warning);
        report.addBullets(warnings);
    }

    addTopology(report, in, r);
    addCharts(report, in);
    addComparison(report, in);
    addBill(report, r.cost);
    addCabling(report, facts, *in.catalog);
    addFailuresAndStory(report, design, r);
    addAssumptions(report, facts);

    QString why;
    if (!report.write(path, tr("%1 - FabricLab design report").arg(name),
                      tr("FabricLab %1").arg(in.version), &why, progress))
        return fail(why);
    return report.pageCount();
}

} // namespace fabriclab::views
