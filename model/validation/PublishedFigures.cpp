// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/validation/PublishedFigures.hpp"

#include "model/catalog/EmbeddedCatalogs.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/TextFile.hpp"
#include "model/report/NcclTests.hpp"
#include "model/validation/FigureFile.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fabriclab::model {

namespace {

/// A figures file is a few hundred kilobytes; this is room for thousands of figures.
constexpr std::uintmax_t kMaxFiguresFileBytes = 16u << 20;
/// Published nccl-tests runs reach a few thousand GPUs; a figure is timed while the user
/// waits, so a cluster past these (a typo'd exponent, a hostile file) is refused, not run.
constexpr long long kMaxServers = 4096;
constexpr long long kMaxRanks = 16384;
constexpr double kMaxBytes = 1e15;

std::string optionalText(const JsonCursor& c, std::string_view key) {
    return c.has(key) ? c[key].string() : std::string();
}

PublishedFigure readFigure(const JsonCursor& c) {
    c.allowOnly({"id",       "set",       "source",     "reliability",   "calibrates",
                 "why",      "finding",   "servers",    "gpusPerServer", "nicsPerServer",
                 "nicGbps",  "leafRadix", "spineRadix", "fabric",        "gpu",
                 "op",       "algorithm", "bytes",      "measure",       "published",
                 "tolerance"});
    PublishedFigure f;
    f.id = c["id"].string();
    f.set = c["set"].string();
    if (f.set != "fit" && f.set != "check")
        c["set"].fail("expected \"fit\" or \"check\", got \"" + f.set + "\"");
    f.source = figures::requiredSource(c);
    f.reliability = optionalText(c, "reliability");
    f.calibrates = optionalText(c, "calibrates");
    if (f.set == "fit" && f.calibrates.empty())
        c.fail("a fit figure names the constant it calibrated (\"calibrates\")");
    f.why = c["why"].string();
    f.finding = optionalText(c, "finding");
    f.servers = static_cast<int>(c["servers"].integer(1, kMaxServers));
    f.gpusPerServer = static_cast<int>(c["gpusPerServer"].integer(1, 1024));
    f.nicsPerServer = static_cast<int>(c["nicsPerServer"].integer(1, 1024));
    f.nicGbps = c["nicGbps"].number(1, 1e5);
    if (static_cast<long long>(f.servers) * f.gpusPerServer > kMaxRanks)
        c["servers"].fail(std::to_string(f.servers) + " servers of " +
                          std::to_string(f.gpusPerServer) + " GPUs is past the " +
                          std::to_string(kMaxRanks) + " GPUs a figure may run on");
    if (c.has("leafRadix"))
        f.leafRadix = static_cast<int>(c["leafRadix"].integer(2, 4096));
    if (c.has("spineRadix"))
        f.spineRadix = static_cast<int>(c["spineRadix"].integer(2, 4096));
    f.fabric = c["fabric"].string();
    f.gpu = c["gpu"].string();
    const std::string op = c["op"].string();
    const auto parsedOp = collectiveOpFromString(op);
    if (!parsedOp)
        c["op"].fail("unknown operation \"" + op + "\"");
    f.op = *parsedOp;
    const std::string algorithm = c["algorithm"].string();
    const auto parsedAlgorithm = collectiveAlgorithmFromString(algorithm);
    if (!parsedAlgorithm)
        c["algorithm"].fail("unknown algorithm \"" + algorithm + "\"");
    f.algorithm = *parsedAlgorithm;
    f.bytes = c["bytes"].number(1, kMaxBytes);
    if (c.has("measure")) {
        const std::string measure = c["measure"].string();
        if (measure != "timeUs" && measure != "busbw")
            c["measure"].fail("expected \"timeUs\" or \"busbw\", got \"" + measure + "\"");
        f.timeUs = measure == "timeUs";
    }
    const JsonCursor published = c["published"];
    if (published.size() != 2)
        published.fail("expected [low, high]");
    f.low = published.at(0).number(1e-9, 1e9);
    f.high = published.at(1).number(f.low, 1e9);
    f.tolerance = c["tolerance"].number(0, 10);
    return f;
}

} // namespace

std::vector<PublishedFigure> readPublishedFigures(std::string_view json,
                                                  const std::string& origin) {
    std::vector<PublishedFigure> all =
        figures::readCases<PublishedFigure>(json, origin, readFigure);
    // Ids name figures in reports and tests: two figures under one id would blur both.
    for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (all[i].id == all[j].id)
                throw JsonError(origin, "/cases/" + std::to_string(i) + "/id",
                                "\"" + all[i].id + "\" names two figures");
    return all;
}

bool isPublishedFigureFile(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || text[first] != '{')
        return false;
    const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
    return document.is_object() && document.contains("cases");
}

std::vector<PublishedFigure> loadPublishedFigures(const std::filesystem::path& path) {
    return readPublishedFigures(readTextFile(path, kMaxFiguresFileBytes, "figures"), path.string());
}

const std::vector<PublishedFigure>& builtinPublishedFigures() {
    static const std::vector<PublishedFigure> figures =
        readPublishedFigures(embedded::publishedNcclTestsJson());
    return figures;
}

std::string publishedFigureDesign(const PublishedFigure& f) {
    // The workload only names the GPU: runNcclTests takes the GPU from it.
    const nlohmann::json design = {{"format", "fabriclab-design"},
                                   {"version", 1},
                                   {"name", f.id},
                                   {"fabric", f.fabric},
                                   {"generator",
                                    {{"kind", "leaf-spine"},
                                     {"servers", f.servers},
                                     {"gpusPerServer", f.gpusPerServer},
                                     {"nicsPerServer", f.nicsPerServer},
                                     {"nicGbps", f.nicGbps},
                                     {"railOptimized", true},
                                     {"leafRadix", f.leafRadix},
                                     {"spineRadix", f.spineRadix},
                                     {"oversubscription", 1.0}}},
                                   {"workload",
                                    {{"model", "llama3-8b"},
                                     {"gpu", f.gpu},
                                     {"globalBatchTokens", 4194304},
                                     {"tp", f.gpusPerServer},
                                     {"pp", 1},
                                     {"dp", f.servers}}}};
    return design.dump();
}

FigureCheck checkPublishedFigure(const PublishedFigure& f, const Catalog& catalog,
                                 std::stop_token stop) {
    const Design design = parseDesign(publishedFigureDesign(f), f.id, catalog);
    NcclTestsOptions options;
    options.op = f.op;
    options.algorithm = f.algorithm;
    options.minBytes = options.maxBytes = f.bytes;
    options.stop = std::move(stop);
    const NcclTestsReport report = runNcclTests(design, catalog, options);
    if (report.rows.size() != 1)
        throw std::logic_error("one size gives one nccl-tests row");
    const NcclTestsRow& row = report.rows.front();
    FigureCheck check;
    check.measured = f.timeUs ? row.timeUs : row.busBwGBps;
    check.algorithm = row.algorithm;
    check.protocol = row.protocol;
    const double middle = (f.low + f.high) / 2;
    check.errorVsMiddle = (check.measured - middle) / middle;
    const double nearest = std::clamp(check.measured, f.low, f.high);
    check.errorVsRange = (check.measured - nearest) / nearest;
    // The last bit of a double must not turn a figure met exactly at its tolerance into a miss.
    check.withinTolerance = std::abs(check.errorVsRange) <= f.tolerance + 1e-12;
    return check;
}

Verdict verdictOf(bool withinTolerance, bool knownMiss) {
    if (withinTolerance)
        return knownMiss ? Verdict::KnownMissMet : Verdict::Within;
    return knownMiss ? Verdict::KnownMiss : Verdict::Miss;
}

ValidationScore scoreFigures(const std::vector<PublishedFigure>& figures,
                             const std::vector<FigureCheck>& checks) {
    if (figures.size() != checks.size())
        throw std::invalid_argument("one check per figure");
    ValidationScore score;
    std::vector<double> errors;
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const bool within = checks[i].withinTolerance;
        if (figures[i].isCheck()) {
            ++score.checkCount;
            score.checkWithin += within;
            errors.push_back(std::abs(checks[i].errorVsMiddle));
        } else {
            ++score.fitCount;
            score.fitWithin += within;
        }
    }
    if (!errors.empty()) {
        double total = 0;
        for (const double e : errors)
            total += e;
        score.meanAbsCheckError = total / static_cast<double>(errors.size());
        std::sort(errors.begin(), errors.end());
        const std::size_t n = errors.size();
        score.medianAbsCheckError = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    }
    return score;
}

} // namespace fabriclab::model
