// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "bench/Report.hpp"

#include <cmath>
#include <string>

namespace fabriclab::bench {
namespace {

std::string number(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string grouped(std::size_t n) {
    // Appending, not inserting: GCC 12 flags string::insert with a bogus -Wrestrict.
    const std::string digits = std::to_string(n);
    std::string text;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            text += ',';
        text += digits[i];
    }
    return text;
}

std::string milliseconds(const SideResult& side, const std::string& skipped = {}) {
    if (!skipped.empty())
        return "skipped";
    if (!side.ran)
        return "failed";
    const double ms = side.median.seconds * 1e3;
    return number(ms, ms < 10 ? 2 : ms < 1000 ? 1 : 0);
}

std::string megabytes(const SideResult& side) {
    return side.ran ? number(side.peakMb, 0) : "-";
}

std::string ratio(const CaseResult& row) {
    if (!row.fabriclab.ran || !row.simgrid.ran || row.fabriclab.median.seconds <= 0)
        return "-";
    const double r = row.simgrid.median.seconds / row.fabriclab.median.seconds;
    return number(r, r < 10 ? 1 : 0) + "x";
}

std::string agreement(const CaseResult& row) {
    if (row.agreement < 0)
        return "-";
    char text[64];
    std::snprintf(text, sizeof text, "%.1e", row.agreement);
    return text;
}

std::string verdict(const CaseResult& row) {
    if (row.targetMs <= 0 || !row.fabriclab.ran)
        return "";
    std::string text = "<= " + number(row.targetMs, 0) + " ms";
    bool met = row.fabriclab.median.seconds * 1e3 <= row.targetMs;
    if (row.targetMb > 0) {
        text += ", <= " + number(row.targetMb, 0) + " MB";
        met = met && row.fabriclab.peakMb <= row.targetMb;
    }
    return text + (met ? ": met" : ": MISSED");
}

} // namespace

void printProgress(std::FILE* out, const CaseResult& row) {
    const auto side = [](const SideResult& result, const std::string& skipped) {
        const std::string text = milliseconds(result, skipped);
        return result.ran ? text + " ms" : text;
    };
    std::fprintf(out, "  [%s] %s: FabricLab %s, SimGrid %s\n", row.id.c_str(), row.title.c_str(),
                 side(row.fabriclab, {}).c_str(), side(row.simgrid, row.simgridSkipped).c_str());
    std::fflush(out);
}

void printReport(std::FILE* out, const std::vector<CaseResult>& rows, const BenchOptions& options,
                 double baselineMb) {
    std::fprintf(out,
                 "\nFabricLab vs SimGrid (CM02, cross-traffic off, TCP-gamma 0, zero latency, "
                 "bandwidth factor 1:\n"
                 "pure max-min; precision 1e-13), roce-v2 static ECMP, one thread%s\n\n",
                 options.quick ? ", --quick sizes" : "");
    std::fprintf(out, "%-4s %-44s %10s %13s %11s %9s %13s %11s %10s %-26s\n", "case", "", "flows",
                 "FabricLab ms", "SimGrid ms", "SG/FL", "FabricLab MB", "SimGrid MB", "max rel",
                 "FabricLab target");
    for (const CaseResult& row : rows) {
        if (row.curve)
            continue;
        std::fprintf(out, "%-4s %-44s %10s %13s %11s %9s %13s %11s %10s %-26s\n", row.id.c_str(),
                     row.title.c_str(), grouped(row.flows).c_str(),
                     milliseconds(row.fabriclab).c_str(),
                     milliseconds(row.simgrid, row.simgridSkipped).c_str(), ratio(row).c_str(),
                     megabytes(row.fabriclab).c_str(), megabytes(row.simgrid).c_str(),
                     agreement(row).c_str(), verdict(row).c_str());
    }

    bool curve = false;
    for (const CaseResult& row : rows)
        curve = curve || row.curve;
    if (curve) {
        std::fprintf(
            out,
            "\nd: solve time against flows (random pairs on the case-a fabric; timed as in a:\n"
            "   solver load + solve, routes given; solve() alone and per flow alongside)\n");
        std::fprintf(out, "%10s %13s %10s %14s %11s %9s %10s\n", "flows", "FabricLab ms",
                     "solve() ms", "ns/flow (all)", "SimGrid ms", "SG/FL", "max rel");
        for (const CaseResult& row : rows) {
            if (!row.curve)
                continue;
            const bool ran = row.fabriclab.ran && row.flows > 0;
            const std::string solve =
                ran ? number(row.fabriclab.median.solveSeconds * 1e3, 2) : "-";
            const std::string perFlow =
                ran ? number(row.fabriclab.median.seconds * 1e9 / static_cast<double>(row.flows), 0)
                    : "-";
            std::string skipped;
            if (!row.simgridSkipped.empty()) {
                skipped = "  SimGrid skipped: ";
                skipped += row.simgridSkipped;
            }
            std::fprintf(out, "%10s %13s %10s %14s %11s %9s %10s%s\n", grouped(row.flows).c_str(),
                         milliseconds(row.fabriclab).c_str(), solve.c_str(), perFlow.c_str(),
                         milliseconds(row.simgrid, row.simgridSkipped).c_str(), ratio(row).c_str(),
                         agreement(row).c_str(), skipped.c_str());
        }
    }

    std::fprintf(out, "\nNotes\n");
    std::fprintf(
        out,
        "- Each side runs in a fresh forked child; times are the median of the runs, memory is "
        "the\n"
        "  child's peak resident set (wait4 ru_maxrss), including the topology, the flow list and\n"
        "  %.0f MB a child that does nothing already has.\n",
        baselineMb);
    std::fprintf(
        out,
        "- 'max rel' is the largest relative difference over the flows between FabricLab's and\n"
        "  SimGrid's rates (a, b, d) or bytes-drained finish times (c).\n");
    for (const CaseResult& row : rows) {
        if (row.curve)
            continue;
        std::fprintf(out, "- %s timed: %s.\n", row.id.c_str(), row.timed.c_str());
        if (row.pairs != row.flows)
            std::fprintf(
                out, "  %s: %s pairs, %s inside one server (no fabric: given to neither solver).\n",
                row.id.c_str(), grouped(row.pairs).c_str(), grouped(row.pairs - row.flows).c_str());
        if (row.id.front() == 'e' && row.fabriclab.ran) {
            // A full run's parts are not separable from outside; one permutation on the same
            // fabric, routed then solved, shows their proportions.
            std::fprintf(out,
                         "  %s: one permutation of %s flows on this fabric: routing %.1f ms, "
                         "solving %.1f ms (outside the run's time).\n",
                         row.id.c_str(), grouped(row.fabriclab.median.flows).c_str(),
                         row.fabriclab.median.setupSeconds * 1e3,
                         row.fabriclab.median.solveSeconds * 1e3);
        } else if (row.fabriclab.ran && row.fabriclab.median.solveSeconds > 0)
            std::fprintf(out, "  %s: FabricLab solve() alone %.1f ms of its %.1f ms.\n",
                         row.id.c_str(), row.fabriclab.median.solveSeconds * 1e3,
                         row.fabriclab.median.seconds * 1e3);
        if (row.id.front() != 'e' && row.fabriclab.ran && row.fabriclab.median.setupSeconds > 0)
            std::fprintf(out, "  %s: FabricLab routing the flows (untimed) %.1f ms.\n",
                         row.id.c_str(), row.fabriclab.median.setupSeconds * 1e3);
        if (row.simgrid.ran)
            std::fprintf(out, "  %s: SimGrid platform (hosts, links, route table) %.1f ms%s.\n",
                         row.id.c_str(), row.simgrid.median.setupSeconds * 1e3,
                         row.id == "a" ? ", untimed" : ", inside its time");
        if (row.id == "c" && row.fabriclab.ran)
            std::fprintf(
                out,
                "  c: makespan FabricLab %.9f s (bytes; %.9f s with start-up latency, %.0f solves),"
                " SimGrid %.9f s.\n",
                row.fabriclab.median.makespan, row.fabriclab.median.makespanWithLatency,
                row.fabriclab.median.events, row.simgrid.median.makespan);
        if (!row.fabriclab.error.empty())
            std::fprintf(out, "  %s: FabricLab failed: %s\n", row.id.c_str(),
                         row.fabriclab.error.c_str());
        if (!row.simgrid.error.empty())
            std::fprintf(out, "  %s: SimGrid failed: %s\n", row.id.c_str(),
                         row.simgrid.error.c_str());
    }
    if (curve)
        std::fprintf(out, "- d: FabricLab's solver is given every channel of the fabric as a "
                          "constraint, as FlowSimulator\n"
                          "  loads it (a solve then visits only those the flows use); SimGrid's "
                          "platform holds only the\n"
                          "  links the flows use. Loading the channels dominates FabricLab's time "
                          "at the smallest sizes.\n");
    for (const CaseResult& row : rows) {
        if (!row.curve)
            continue;
        if (!row.fabriclab.error.empty())
            std::fprintf(out, "- %s: FabricLab failed: %s\n", row.id.c_str(),
                         row.fabriclab.error.c_str());
        if (!row.simgrid.error.empty())
            std::fprintf(out, "- %s: SimGrid failed: %s\n", row.id.c_str(),
                         row.simgrid.error.c_str());
    }
}

} // namespace fabriclab::bench
