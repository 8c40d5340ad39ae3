// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/cli/CliCommands.hpp"

#include "app/cli/SweepShards.hpp"
#include "app/cli/TextReport.hpp"
#include "model/core/JsonCursor.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/FabricImport.hpp"
#include "model/io/JsonTable.hpp"
#include "model/io/NcclTestsLog.hpp"
#include "model/io/OutputContract.hpp"
#include "model/io/TextFile.hpp"
#include "model/report/BillOfMaterials.hpp"
#include "model/report/CablingPlan.hpp"
#include "model/report/FabricComparison.hpp"
#include "model/report/FabricExport.hpp"
#include "model/report/NcclTests.hpp"
#include "model/validation/MeasuredLog.hpp"
#include "model/validation/PublishedFigures.hpp"
#include "model/validation/ValidationReport.hpp"
#include "model/workload/LayoutPlan.hpp"

#include <cstdio>
#include <ctime>
#include <filesystem>

namespace fabriclab::app {
namespace {

using namespace fabriclab::model;

/// A price list is tens of kilobytes; anything past this is not one.
constexpr std::uintmax_t kMaxPriceFileBytes = 16u << 20;
/// nccl-tests logs with NCCL_DEBUG=INFO run to megabytes; past this a file is not one.
constexpr std::uintmax_t kMaxFiguresFileBytes = 64u << 20;

Catalog loadCatalog(const CliArguments& args) {
    Catalog catalog = Catalog::builtin();
    if (args.pricesFile)
        catalog.loadPrices(readTextFile(*args.pricesFile, kMaxPriceFileBytes, "price"),
                           *args.pricesFile);
    return catalog;
}

std::vector<std::string> fabricsOrDesign(const CliArguments& args, const Design& design) {
    return args.fabrics.empty() ? std::vector<std::string>{design.fabric.spec.id} : args.fabrics;
}

/// What every JSON output of this command opens with (model/io/OutputContract.hpp).
/// `design`, when given, was loaded from `designFile`, whose bytes it is fingerprinted by.
nlohmann::ordered_json head(std::string_view kind, const std::string& designFile,
                            const Design* design, std::string fabric,
                            std::optional<std::uint64_t> seed, const Catalog& catalog) {
    OutputSource source{design, std::move(fabric), seed, &catalog.prices(), {}};
    if (design)
        source.designHash = designFileHash(designFile);
    return outputHead(kind, FABRICLAB_VERSION, source);
}

std::string printed(const nlohmann::ordered_json& document) {
    return document.dump(2) + "\n";
}

/// A table's JSON: the head, then its rows under "rows".
std::string printedRows(nlohmann::ordered_json head,
                        const std::vector<nlohmann::ordered_json>& rows) {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const auto& row : rows)
        array.push_back(row);
    head["rows"] = std::move(array);
    return printed(head);
}

/// What makes a sweep the sweep it is: shards of one sweep carry the same identity, and
/// `--merge` refuses a shard whose identity differs, naming what differs.
nlohmann::ordered_json sweepIdentity(const CliArguments& args, const Design& design,
                                     const Catalog& catalog, const RunOptions& options) {
    nlohmann::ordered_json identity =
        head("fabriclab-sweep", args.design, &design, design.fabric.spec.id, options.seed, catalog);
    identity["fabrics"] = fabricsOrDesign(args, design);
    identity["servers"] = args.servers;
    identity["amortizationMonths"] = options.amortizationMonths
                                         ? nlohmann::ordered_json(*options.amortizationMonths)
                                         : nlohmann::ordered_json();
    identity["ownership"] = toString(options.ownership);
    identity["trainTokens"] = options.trainTokens;
    identity.erase("schemaVersion");
    identity.erase("kind");
    return identity;
}

std::string render(const CliArguments& args, const std::vector<RunReport>& reports,
                   const std::vector<nlohmann::ordered_json>& rows,
                   const nlohmann::ordered_json& sweepHead) {
    if (args.csv)
        return jsonRowsToCsv(rows, {"servers", "fabric"});
    return args.json ? printedRows(sweepHead, rows) : formatTable(reports);
}

/// `sweep --merge`: the shards' rows in point order, as the unsharded sweep prints them.
std::string executeMerge(const CliArguments& args) {
    const MergedSweep merged = mergeShards(args.files);
    if (args.csv)
        return jsonRowsToCsv(merged.rows, {"servers", "fabric"});
    if (!args.json)
        return formatSweepRows(merged.rows);
    nlohmann::ordered_json sweepHead;
    sweepHead["schemaVersion"] = kOutputSchemaVersion;
    sweepHead["kind"] = "fabriclab-sweep";
    for (const auto& [key, value] : merged.identity.items())
        sweepHead[key] = value;
    return printedRows(sweepHead, merged.rows);
}

/// `compare`: the design built on each fabric with that fabric's own switches (or, drawn
/// by hand, priced with its parts), run, and weighed by model::fabricVerdict.
std::string executeCompare(const CliArguments& args, const Design& design, const Catalog& catalog,
                           const RunOptions& run) {
    ComparisonOptions options;
    options.run = run;
    options.run.simulate = true; // the verdict weighs the step and the collective
    options.evidence = &builtinPublishedFigures();
    if (args.ownership)
        options.ownership.mode = *ownershipModeFromString(*args.ownership);
    options.ownership.amortizationMonths = args.months;
    for (const std::string& row : args.fabrics) {
        const ComparisonCandidate candidate = comparisonCandidate(row);
        if (!catalog.findFabric(candidate.fabricId))
            throw std::invalid_argument(catalog.unknownFabric(candidate.fabricId));
        if (!candidate.kind.empty() && !findGenerator(candidate.kind))
            throw std::invalid_argument("--fabrics " + row + ": unknown generator kind '" +
                                        candidate.kind + "' (expected " + generatorKindList() +
                                        ")");
    }
    std::vector<ComparedFabric> rows;
    for (const std::string& fabric : args.fabrics)
        rows.push_back(compareOnFabric(design, catalog, fabric, options));
    const FabricVerdict verdict = comparisonVerdict(rows, design);
    if (!args.json && !args.csv)
        return formatComparison(rows, verdict);
    std::vector<nlohmann::ordered_json> table;
    for (const ComparedFabric& row : rows) {
        nlohmann::ordered_json json =
            row.ok() ? reportToJson(*row.report) : nlohmann::ordered_json::object();
        json["fabric"] = row.fabricId;
        json["basis"] = row.basis;
        if (!row.ok())
            json["refusal"] = row.error;
        json["recommended"] = row.ok() && row.fabricId == verdict.recommendedId;
        if (row.outcome.evidence) {
            const Evidence& e = *row.outcome.evidence;
            json["evidence"] = {{"figure", e.figureId},
                                {"servers", e.servers},
                                {"gpu", e.gpu},
                                {"scale", e.scale},
                                {"extrapolation", e.extrapolation}};
        } else if (row.ok()) {
            json["evidence"] = nullptr;
        }
        table.push_back(std::move(json));
    }
    if (args.csv)
        return jsonRowsToCsv(table, {"fabric", "recommended", "basis", "refusal"});
    return printedRows(
        head("fabriclab-compare", args.design, &design, design.fabric.spec.id, run.seed, catalog),
        table);
}

/// `run` and `sweep` on the design named in the arguments.
std::string executeOnDesign(const CliArguments& args, const Catalog& catalog) {
    const Design design = loadDesign(args.design, catalog);
    RunOptions options;
    options.amortizationMonths = args.months;
    options.seed = args.seed.value_or(options.seed);
    options.trainTokens = args.trainTokens.value_or(options.trainTokens);
    if (args.ownership)
        options.ownership = *ownershipModeFromString(*args.ownership);

    if (args.command == "run") {
        options.fabricId = args.fabric;
        const RunReport report = runDesign(design, catalog, options);
        if (args.csv) {
            nlohmann::ordered_json row = reportToJson(report);
            row["fabric"] = report.fabric.id; // in the head of --json, a column here
            return jsonRowsToCsv({row});
        }
        if (!args.json)
            return formatReport(report);
        return printed(withHead(
            head("fabriclab-run", args.design, &design, report.fabric.id, options.seed, catalog),
            reportToJson(report)));
    }

    if (args.command == "compare")
        return executeCompare(args, design, catalog, options);
    // The sweep's text table shows topology, bisection and cost only: skip the simulations.
    // A shard writes JSON lines, so it simulates as --json does.
    const bool rows = args.json || args.csv || args.shard;
    options.simulate = rows;
    std::vector<RunReport> reports;
    std::vector<nlohmann::ordered_json> table;
    const auto evaluate = [&](const Design& sized, const std::string& fabric, bool withServers) {
        options.fabricId = fabric;
        reports.push_back(runDesign(sized, catalog, options));
        if (!rows)
            return;
        auto row = reportToJson(reports.back());
        row["fabric"] = fabric;
        if (withServers)
            row["servers"] = reports.back().servers;
        table.push_back(std::move(row));
    };
    if (args.shard) {
        // Points in the order the whole sweep runs them, numbered; this shard's only.
        const Shard shard = parseShard(*args.shard);
        const auto fabrics = fabricsOrDesign(args, design);
        const std::size_t total = args.servers.size() * fabrics.size();
        const nlohmann::ordered_json identity = sweepIdentity(args, design, catalog, options);
        std::string lines;
        std::size_t point = 0;
        for (const int servers : args.servers) {
            std::optional<Design> sized;
            for (const auto& fabric : fabrics) {
                if (shard.takes(point)) {
                    if (!sized)
                        sized = withServers(design, servers);
                    evaluate(*sized, fabric, true);
                    lines += shardLine(point, total, identity, table.back());
                    reports.clear(); // a shard keeps its lines, not every report
                }
                ++point;
            }
        }
        return lines;
    }
    for (const int servers : args.servers) {
        const Design sized = withServers(design, servers);
        for (const auto& fabric : fabricsOrDesign(args, design))
            evaluate(sized, fabric, true);
    }
    nlohmann::ordered_json sweepHead;
    if (args.json) {
        sweepHead["schemaVersion"] = kOutputSchemaVersion;
        sweepHead["kind"] = "fabriclab-sweep";
        const nlohmann::ordered_json identity = sweepIdentity(args, design, catalog, options);
        for (const auto& [key, value] : identity.items())
            sweepHead[key] = value;
    }
    return render(args, reports, table, sweepHead);
}

/// `validate DESIGN --figures LOG`: every row of a team's nccl-tests output against what
/// FabricLab predicts for the design it ran on.
std::string executeMeasured(const CliArguments& args, const Catalog& catalog,
                            const std::string& text) {
    const std::string& file = *args.figuresFile;
    const NcclTestsLog log = readNcclTestsLog(text, file);
    if (args.design.empty())
        throw std::invalid_argument(file +
                                    ": nccl-tests output is set against the design it "
                                    "was measured on: fabriclab-cli validate DESIGN "
                                    "--figures " +
                                    file);
    const Design design = loadDesign(args.design, catalog);
    MeasuredOptions options;
    if (args.collectiveNamed)
        options.op = collectiveOpFromString(args.collective);
    options.fabricId = args.fabric;
    options.seed = args.seed.value_or(options.seed);
    MeasuredComparison comparison;
    try {
        comparison = compareMeasured(design, catalog, log, file, options);
    } catch (const UnknownCollective& e) {
        throw std::invalid_argument(std::string(e.what()) +
                                    "; name it with --op (all_reduce, all_gather, "
                                    "reduce_scatter, alltoall, broadcast or sendrecv)");
    }
    if (args.csv)
        return measuredCsv(comparison);
    if (!args.json)
        return formatMeasured(comparison);
    return printed(withHead(head("fabriclab-measured", args.design, &design, comparison.fabricId,
                                 options.seed, catalog),
                            nlohmann::ordered_json::parse(measuredJson(comparison))));
}

/// `bom`: the design's bill of materials, priced as `run` prices it.
std::string executeBom(const CliArguments& args, const Catalog& catalog) {
    const Design design = loadDesign(args.design, catalog);
    const CostReport cost = estimateCost(design.topology, design.fabric.spec, catalog.prices(),
                                         CostOptions{args.months});
    if (args.csv)
        return bomCsv(cost);
    if (args.json)
        return printed(withHead(head("fabriclab-bom", args.design, &design, design.fabric.spec.id,
                                     std::nullopt, catalog),
                                bomJson(cost)));
    return formatBom(cost);
}

/// `plan`: the design's training job split every way that fits, ranked on its fabric.
std::string executePlan(const CliArguments& args, const Catalog& catalog) {
    const Design design = loadDesign(args.design, catalog);
    if (!design.workload)
        throw std::invalid_argument(
            "plan needs the design's training workload (model, GPU, batch)");
    const sim::FabricNetwork network(design.topology, design.fabric.spec);
    const model::LayoutPlan plan = model::planLayouts(network, *design.workload, args.top);
    std::vector<nlohmann::ordered_json> rows;
    for (std::size_t i = 0; i < plan.ranked.size(); ++i) {
        const model::PlannedLayout& l = plan.ranked[i];
        const Workload& w = l.workload;
        rows.push_back({{"rank", i + 1},
                        {"tp", w.tp},
                        {"cp", w.cp},
                        {"pp", w.pp},
                        {"vpp", w.vpp},
                        {"dp", w.dp},
                        {"ep", w.ep},
                        {"stepSeconds", l.step.stepSeconds},
                        {"computeSeconds", l.step.computeSeconds},
                        {"exposedCommSeconds", l.step.exposedCommSeconds},
                        {"mfu", l.step.mfu},
                        {"bubbleFraction", l.step.bubbleFraction},
                        {"tokensPerSecond", l.step.tokensPerSecond},
                        {"memoryGB", l.memory.total / 1e9},
                        {"hbmGB", l.memory.hbm / 1e9}});
    }
    if (args.json) {
        nlohmann::ordered_json document = head("fabriclab-plan", args.design, &design,
                                               design.fabric.spec.id, std::nullopt, catalog);
        document["considered"] = plan.considered;
        document["fitting"] = plan.fitting;
        return printedRows(std::move(document), rows);
    }
    const Workload& job = *design.workload;
    std::string out = job.model.spec.name + " on " + std::to_string(job.gpus()) + " " +
                      job.gpu.spec.name + ", " + design.fabric.spec.name + ": " +
                      std::to_string(plan.considered) + " splits use every GPU, " +
                      std::to_string(plan.fitting) +
                      " fit in memory; fastest first, step time predicted from the hardware "
                      "(no MFU) on this fabric\n"
                      "rank  tp  cp  pp vpp     dp  ep   step (s)   MFU  exposed comm (s)  "
                      "memory (GB)\n";
    for (const auto& row : rows) {
        char line[160];
        std::snprintf(line, sizeof line,
                      "%4d %3d %3d %3d %3d %6d %3d %10.3f %5.3f %17.3f %7.1f of %.0f\n",
                      row["rank"].get<int>(), row["tp"].get<int>(), row["cp"].get<int>(),
                      row["pp"].get<int>(), row["vpp"].get<int>(), row["dp"].get<int>(),
                      row["ep"].get<int>(), row["stepSeconds"].get<double>(),
                      row["mfu"].get<double>(), row["exposedCommSeconds"].get<double>(),
                      row["memoryGB"].get<double>(), row["hbmGB"].get<double>());
        out += line;
    }
    if (rows.empty())
        out += "no split fits in memory: add GPUs, take a larger GPU, shard more (a higher ZeRO "
               "stage) or recompute\n";
    return out;
}

/// `cabling`: every cable of the design, ends and ports, as the bill counts them.
std::string executeCabling(const CliArguments& args, const Catalog& catalog) {
    const Design design = loadDesign(args.design, catalog);
    const CablingPlan plan = cablingPlan(design.topology, design.fabric.spec, catalog.prices());
    if (args.csv)
        return cablingCsv(plan);
    if (args.json)
        return printed(withHead(head("fabriclab-cabling", args.design, &design,
                                     design.fabric.spec.id, std::nullopt, catalog),
                                cablingJson(plan)));
    return formatCabling(plan);
}

/// `export`: the fabric in a format another tool reads, printed or written all or nothing.
std::string executeExport(const CliArguments& args, const Catalog& catalog) {
    const Design design = loadDesign(args.design, catalog);
    // --format was checked by parseArguments.
    const std::string text =
        exportFabric(design, catalog.prices(), *exportFormatFromString(*args.format));
    if (!args.out)
        return text;
    writeTextFileAtomically(*args.out, text);
    return {};
}

/// `import`: a real fabric's file as a design file, written all or nothing.
std::string executeImport(const CliArguments& args, const Catalog& catalog) {
    constexpr std::uintmax_t kMostBytes = 256ull << 20; // a 131K-GPU subnet is ~60 MiB
    const std::string text = readTextFile(args.design, kMostBytes, *args.format);
    ImportOptions options;
    options.name = args.name.value_or("");
    options.fabricId = args.fabric;
    if (args.gpu)
        options.gpuId = *args.gpu;
    if (args.gpusPerServer)
        options.gpusPerServer = *args.gpusPerServer;
    if (args.nicsPerServer)
        options.nicsPerServer = *args.nicsPerServer;
    const Design design = *args.format == "slurm"
                              ? importSlurmTopology(text, args.design, options, catalog)
                              : importIbnetdiscover(text, args.design, options, catalog);
    saveDesign(design, *args.out);
    return {};
}

/// Now, as nccl-tests stamps its JSON file: "2026-11-28 12:00:00", local time.
std::string localTimeText() {
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
    return text;
}

/// `nccl-tests`: the sizes table of all_reduce_perf and its siblings for the design.
std::string executeNcclTests(const CliArguments& args, const Catalog& catalog) {
    const Design design = loadDesign(args.design, catalog);
    NcclTestsOptions options = args.ncclTests; // -d -o -r and the flags echoed in the header
    options.op = *collectiveOpFromString(args.collective); // checked by parseArguments
    options.minBytes = args.minBytes;
    options.maxBytes = args.maxBytes;
    if (args.stepFactor) {
        options.factor = *args.stepFactor;
    } else {
        // As nccl-tests: without -f, sizes step by -i bytes, 1 MiB unless given.
        constexpr std::size_t kMostSizes = 16384;
        options.stepBytes = args.stepBytes.value_or(1 << 20);
        for (double size = args.minBytes; size <= args.maxBytes; size += *options.stepBytes)
            if (options.sizes.push_back(size); options.sizes.size() > kMostSizes)
                throw UsageError(std::string("-i ") +
                                 std::to_string(std::llround(*options.stepBytes)) +
                                 ": more than 16,384 sizes between -b and -e (step them with -f)");
    }
    options.roundSizesAsNcclTests = true;

    if (!args.servers.empty())
        options.servers = args.servers.front();
    options.fabricId = args.fabric;
    options.seed = args.seed.value_or(options.seed);
    if (args.algorithm) {
        const auto algorithm = collectiveAlgorithmFromString(*args.algorithm);
        if (!algorithm)
            throw UsageError("--algo: unknown algorithm \"" + *args.algorithm +
                             "\" (known: ring, tree, nvls, nvls-tree, collnet-direct, "
                             "collnet-chain, pat, sharp)");
        options.algorithm = *algorithm;
    }
    if (args.protocol) {
        const auto protocol = collectiveProtocolFromString(*args.protocol);
        if (!protocol)
            throw UsageError("--proto: unknown protocol \"" + *args.protocol +
                             "\" (expected LL, LL128 or Simple)");
        options.protocol = *protocol;
    }
    const NcclTestsReport report = runNcclTests(design, catalog, options);
    std::string written;
    if (args.outputFile) {
        // As nccl-tests: never over an existing file, but beside it as FILE.0, FILE.1, ...
        std::string path = *args.outputFile;
        for (int i = 0; std::filesystem::exists(path); ++i) {
            if (i == 1000)
                throw std::invalid_argument(*args.outputFile + ": 1,000 files of that name exist");
            path = *args.outputFile + "." + std::to_string(i);
        }
        writeTextFileAtomically(
            path, ncclTestsOutputFileJson(report, localTimeText(),
                                          head("fabriclab-nccl-tests-file", args.design, &design,
                                               report.fabricId, options.seed, catalog)));
        written = "# Writing JSON output to " + path + "\n";
    }
    if (!args.json)
        return written + formatNcclTests(report, args.explain);
    nlohmann::ordered_json document =
        head("fabriclab-nccl-tests", args.design, &design, report.fabricId, options.seed, catalog);
    document["binary"] = ncclTestsBinary(options.op);
    document["rows"] = nlohmann::ordered_json::parse(ncclTestsJson(report));
    return printed(document);
}

/// `validate --json`: FabricLab's score against published figures, on their own clusters.
std::string printedValidation(const ValidationReport& report, const Catalog& catalog) {
    return printed(
        withHead(head("fabriclab-validation", std::string(), nullptr, "", std::nullopt, catalog),
                 nlohmann::ordered_json::parse(validationJson(report))));
}

} // namespace

std::string executeCommand(const CliArguments& args) {
    const Catalog catalog = loadCatalog(args);
    if (args.command == "catalog") {
        if (!args.json)
            return formatCatalog(catalog);
        nlohmann::ordered_json ids =
            head("fabriclab-catalog", std::string(), nullptr, "", std::nullopt, catalog);
        ids["fabrics"] = nlohmann::ordered_json::array();
        ids["gpus"] = nlohmann::ordered_json::array();
        ids["models"] = nlohmann::ordered_json::array();
        for (const auto& [id, unused] : catalog.fabrics())
            ids["fabrics"].push_back(id);
        for (const auto& [id, unused] : catalog.gpus())
            ids["gpus"].push_back(id);
        for (const auto& [id, unused] : catalog.models())
            ids["models"].push_back(id);
        return ids.dump(2) + "\n";
    }
    if (args.merge)
        return executeMerge(args);
    if (args.command == "validate") {
        const FigureSet set = args.figureSet == "fit"     ? FigureSet::Fit
                              : args.figureSet == "check" ? FigureSet::Check
                                                          : FigureSet::All;
        if (!args.figuresFile) {
            const ValidationReport report = runValidation(catalog, set);
            return args.json ? printedValidation(report, catalog) : formatValidation(report);
        }
        const std::string& file = *args.figuresFile;
        const std::string text = readTextFile(file, kMaxFiguresFileBytes, "figures");
        if (!isPublishedFigureFile(text))
            return executeMeasured(args, catalog, text);
        if (!args.design.empty() || args.fabric || args.collectiveNamed || args.seed || args.csv)
            throw std::invalid_argument(file + ": FabricLab's figures name their own clusters; "
                                               "a DESIGN, --op, --fabric, --seed and --csv are "
                                               "for nccl-tests output");
        const std::vector<PublishedFigure> own = readPublishedFigures(text, file);
        try {
            const ValidationReport report = runValidation(catalog, set, {}, {}, &own);
            return args.json ? printedValidation(report, catalog) : formatValidation(report);
        } catch (const std::invalid_argument& e) {
            // A figure the engine cannot run (a fabric or GPU it does not know, a cluster its
            // generator refuses) is named with the file it came from.
            throw std::invalid_argument(*args.figuresFile + ": figure " + e.what());
        }
    }

    try {
        if (args.command == "nccl-tests")
            return executeNcclTests(args, catalog);
        if (args.command == "bom")
            return executeBom(args, catalog);
        if (args.command == "cabling")
            return executeCabling(args, catalog);
        if (args.command == "plan")
            return executePlan(args, catalog);
        if (args.command == "export")
            return executeExport(args, catalog);
        if (args.command == "import")
            return executeImport(args, catalog);
        return executeOnDesign(args, catalog);
    } catch (const JsonError&) {
        throw; // already names the file and the JSON path
    } catch (const ImportError&) {
        throw; // already names the file and the line
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(args.design + ": " + e.what());
    }
}

} // namespace fabriclab::app
