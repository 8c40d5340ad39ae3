// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/cli/TextReport.hpp"

#include "model/core/TextFormat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace fabriclab::app {

using namespace fabriclab::model;

std::string formatReport(const RunReport& r) {
    std::ostringstream out;
    const auto& b = r.bisection;
    const auto& c = r.cost;
    out << r.designName << "\n"
        << "  fabric        " << r.fabric.id << "  (" << r.fabric.name << ")\n"
        << "  GPUs          " << grouped(r.gpus) << " on " << grouped(r.servers) << " servers\n"
        << "  switches      " << r.switches.leaf << " leaf, " << r.switches.spine << " spine, "
        << r.switches.core << " core"
        << (r.switchPlanes <= 1
                ? std::string()
                : " in " + std::to_string(r.switchPlanes) + " planes " +
                      (r.portsPerNic > 1 ? "(each NIC's " + std::to_string(r.portsPerNic) +
                                               " ports, every flow sprayed over them)"
                                         : std::string("(their rails meet over NVLink only)")))
        << "\n"
        << "  bisection     " << grouped(b.minCut.value) << " Gb/s of "
        << grouped(b.halfInjection.value) << " Gb/s half-injection, ratio " << fixed(b.ratio, 2)
        << " (" << b.split << ")\n"
        << "  effective     " << grouped(r.effective.gbps) << " Gb/s under "
        << describe(r.fabric.routing) << ", " << fixed(100 * r.effective.ratio, 1)
        << "% of the min cut (mean of " << r.effective.seeds << " draws; "
        << grouped(r.effective.minGbps) << " to " << grouped(r.effective.maxGbps) << ", std "
        << grouped(r.effective.stddevGbps) << ")\n"
        << "                = line efficiency " << fixed(100 * r.effective.lineEfficiency, 1)
        << "% x routing efficiency " << fixed(100 * r.effective.routingEfficiency, 1) << "%\n"
        << "  collective    " << toString(r.collective.op) << " of " << grouped(r.collective.bytes)
        << " bytes over " << r.collective.ranks << " GPUs (" << toString(r.collective.algorithm)
        << ", " << toString(r.collective.protocol)
        << (r.collective.chosenBy == "nccl" ? "" : ", chosen by " + r.collective.chosenBy)
        << "): " << fixed(r.collective.seconds * 1e3, 3) << " ms, algbw "
        << fixed(r.collective.algBwGBps, 1) << " GB/s, busbw " << fixed(r.collective.busBwGBps, 1)
        << " GB/s"
        << (r.collective.ecmpDraws > 1 ? " (mean of " + std::to_string(r.collective.ecmpDraws) +
                                             " ECMP draws; " + fixed(r.collective.busBwMinGBps, 1) +
                                             " to " + fixed(r.collective.busBwMaxGBps, 1) + ")"
                                       : std::string())
        << "\n"
        << "  fabric capex  $" << grouped(c.capex.value) << "  (switches $"
        << grouped(c.switches.value) << ", NICs $" << grouped(c.nics.value)
        << ", cables and optics $" << grouped(c.cables.value) << ")\n"
        << "  per GPU       $" << grouped(c.perGpu) << " (per NIC port $" << grouped(c.perEndpoint)
        << ")\n"
        << "  per GPU-hour  $" << fixed(c.perGpuHour, 3) << " over "
        << fixed(c.amortizationMonths, 0) << " months\n"
        << "  fabric power  " << grouped(c.power.value) << " W\n";
    if (r.step) {
        const auto& s = *r.step;
        out << "  step          " << fixed(s.stepSeconds, 3) << " s = ";
        if (s.communicationBound)
            out << "communication on an ideal fabric " << fixed(s.busySeconds, 3)
                << " s (longer than compute " << fixed(s.computeSeconds, 3) << " s at MFU "
                << fixed(s.mfu, 2) << ")";
        else
            out << "compute " << fixed(s.computeSeconds, 3) << " s at MFU " << fixed(s.mfu, 2)
                << (s.mfuPredicted() ? " (predicted from the hardware)" : " (as given)");
        out << " + exposed communication beyond an ideal fabric " << fixed(s.exposedCommSeconds, 3)
            << " s\n"
            << "  communication " << fixed(s.commSeconds, 3) << " s (ideal fabric "
            << fixed(s.idealCommSeconds, 3) << " s, inside MFU): data-parallel "
            << fixed(s.dpSeconds, 3) << ", tensor " << fixed(s.tpSeconds, 3) << ", pipeline "
            << fixed(s.ppSeconds, 3) << ", expert " << fixed(s.epSeconds, 3) << ", context "
            << fixed(s.cpSeconds, 3) << "; comm/compute " << fixed(100 * s.commToCompute, 1)
            << "%\n"
            << "  throughput    " << grouped(s.tokensPerSecond) << " tokens/s\n";
        if (s.compute) {
            const auto& c = *s.compute;
            out << "  compute       matrix products " << fixed(c.gemmSeconds, 3) << " s, attention "
                << fixed(c.attentionSeconds, 3) << " s, memory-bound "
                << fixed(c.elementwiseSeconds, 3) << " s, recomputation "
                << fixed(c.recomputeSeconds, 3) << " s, tensor parallel "
                << fixed(c.tensorParallelSeconds, 3) << " s, bubble " << fixed(c.bubbleSeconds, 3)
                << " s, optimizer " << fixed(c.optimizerSeconds, 3) << " s\n";
        }
        for (const auto& assumption : s.assumptions)
            out << "  assumed       " << assumption << "\n";
    }
    if (r.memory) {
        const auto& m = *r.memory;
        const auto gb = [](double bytes) { return fixed(bytes / 1e9, 1); };
        out << "  memory/GPU    " << gb(m.total) << " of " << gb(m.hbm) << " GB"
            << (m.fits ? "" : " (does not fit)") << ": weights " << gb(m.weights) << ", gradients "
            << gb(m.gradients) << ", optimizer " << gb(m.optimizer) << ", activations "
            << gb(m.activations + m.logits) << "\n";
        for (const auto& assumption : m.assumptions)
            out << "  assumed       " << assumption << "\n";
    }
    if (r.serving) {
        const auto& v = *r.serving;
        const auto& c = v.compute;
        const auto ms = [](double seconds) { return fixed(seconds * 1e3, 1) + " ms"; };
        out << "  serving       first token " << ms(v.ttftSeconds) << ", " << ms(v.tpotSeconds)
            << " a token, " << grouped(v.outputTokensPerSecondPerGpu) << " tokens/s a GPU ("
            << grouped(v.servedRequestsPerSecond) << " requests/s, batch " << c.batch
            << (c.batchFromMemory ? " as memory holds" : "") << ")\n"
            << "  prefill       " << ms(c.prefillSeconds) << " a prompt; decode step "
            << ms(c.decodeStepSeconds) << ": weights " << ms(c.decodeWeightSeconds) << ", KV cache "
            << ms(c.decodeKvSeconds) << ", math " << ms(c.decodeMathSeconds) << ", tensor parallel "
            << ms(c.decodeTensorParallelSeconds) << "\n";
        if (v.prefillReplicas > 0)
            out << "  KV hand-over  " << ms(v.kvTransferSeconds) << " on the fabric (line rate "
                << ms(v.kvTransferIdealSeconds) << "), " << v.prefillReplicas << " prefill and "
                << v.decodeReplicas << " decode replicas\n";
        out << "  memory/GPU    " << fixed(c.memoryPerGpu / 1e9, 1) << " of "
            << fixed(c.hbm / 1e9, 1) << " GB serving" << (c.fits ? "" : " (does not fit)")
            << ": weights " << fixed(c.weightBytesPerGpu / 1e9, 1) << ", KV cache "
            << fixed(c.kvBytesPerGpu / 1e9, 1) << "\n";
        for (const auto& assumption : v.assumptions)
            out << "  assumed       " << assumption << "\n";
    }
    if (r.training)
        out << "  to train      " << grouped(r.training->tokens)
            << " tokens: " << fixed(r.training->seconds / 86400, 1) << " days, "
            << grouped(r.training->gpuHours) << " GPU-hours, $" << grouped(r.training->costUsd)
            << " rented\n";
    if (r.sites)
        for (const AcrossSitesLine& line : describeAcrossSites(*r.sites)) {
            char label[32];
            std::snprintf(label, sizeof label, "  %-13s ", line.label.c_str());
            out << label << line.text << "\n";
        }
    if (r.sites)
        for (const auto& assumption : r.sites->assumptions)
            out << "  assumed       " << assumption << "\n";
    const OwnershipCost& own = r.ownership;
    if (own.priced) {
        out << "  cluster cost  " << usd(own.totalUsd) << " " << toString(own.mode) << " over "
            << fixed(own.months, 0) << " months: ";
        if (own.mode == OwnershipMode::Owned)
            out << "GPU servers " << usd(own.serversUsd) << ", fabric " << usd(own.fabricUsd)
                << ", energy " << usd(own.energyUsd);
        else
            out << own.rentalOffer;
        out << "; " << usdCents(own.perGpuHourUsd) << " per GPU-hour";
        if (own.perMillionTokensUsd > 0)
            out << ", " << usdCents(own.perMillionTokensUsd) << " per million tokens";
        out << "\n";
        for (const PriceUsed& price : own.prices)
            out << "  priced with   " << price.what << ": " << price.value << " " << price.unit
                << " (" << price.source << ")\n";
    }
    out << "  bill of materials\n";
    for (const auto& line : c.bom)
        out << "    " << grouped(static_cast<double>(line.quantity)) << " x " << line.item << " @ $"
            << grouped(line.unitPrice.value) << " = $" << grouped(line.total().value) << "\n";
    for (const auto& failure : r.failures)
        out << "  what-if       " << failure << "\n";
    for (const auto& warning : r.warnings)
        out << "  warning: " << warning << "\n";
    return out.str();
}

std::string formatTable(const std::vector<RunReport>& reports) {
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%-18s %8s %8s %7s %7s %7s %14s %7s %14s %10s\n", "fabric",
                  "servers", "GPUs", "leaf", "spine", "core", "bisect Gb/s", "ratio", "capex $",
                  "$/GPU-h");
    out << line;
    for (const auto& r : reports) {
        std::snprintf(line, sizeof line, "%-18s %8d %8d %7d %7d %7d %14s %7.2f %14s %10.3f\n",
                      r.fabric.id.c_str(), r.servers, r.gpus, r.switches.leaf, r.switches.spine,
                      r.switches.core, grouped(r.bisection.minCut.value).c_str(), r.bisection.ratio,
                      grouped(r.cost.capex.value).c_str(), r.cost.perGpuHour);
        out << line;
    }
    return out.str();
}

std::string formatComparison(const std::vector<ComparedFabric>& rows,
                             const FabricVerdict& verdict) {
    std::ostringstream out;
    char line[512];
    // As wide as the longest row id ("spectrum-x@dragonfly"), at least the 16 of a fabric's.
    int idWidth = 16;
    for (const ComparedFabric& row : rows)
        idWidth =
            std::max(idWidth, static_cast<int>(std::min<std::size_t>(row.fabricId.size(), 64)));
    std::snprintf(line, sizeof line, "%-*s %6s %6s %6s %14s %14s %10s %10s %10s %11s\n", idWidth,
                  "fabric", "leaf", "spine", "core", "bisection Gb/s", "fabric capex $",
                  "busbw GB/s", "step s", "$/GPU-h", "$/M tokens");
    out << line;
    for (const ComparedFabric& row : rows) {
        if (!row.ok()) {
            out << row.fabricId << ": cannot run this design: " << row.error << "\n";
            continue;
        }
        const RunReport& r = *row.report;
        const FabricOutcome& o = row.outcome;
        // The bisection as delivered under the fabric's routing, where routings differ.
        std::snprintf(line, sizeof line, "%-*s %6d %6d %6d %14s %14s %10.1f %10.3f %10s %11s %s\n",
                      idWidth, row.fabricId.c_str(), r.switches.leaf, r.switches.spine,
                      r.switches.core, grouped(r.effective.gbps).c_str(),
                      grouped(r.cost.capex.value).c_str(), r.collective.busBwGBps,
                      r.step ? r.step->stepSeconds : 0.0,
                      row.ownership.priced ? usdCents(row.ownership.perGpuHourUsd).c_str() : "-",
                      o.perMillionTokensUsd > 0 ? usdCents(o.perMillionTokensUsd).c_str() : "-",
                      row.fabricId == verdict.recommendedId ? "<- recommended" : "");
        out << line;
    }
    out << "\nhow each fabric was built:\n";
    for (const ComparedFabric& row : rows)
        if (!row.basis.empty())
            out << "  " << row.fabricId << ": " << row.basis << "\n";
    out << "\n" << verdict.headline << "\n";
    for (const std::string& reason : verdict.reasons)
        out << "  - " << reason << "\n";
    return out.str();
}

std::string formatSweepRows(const std::vector<nlohmann::ordered_json>& rows) {
    std::ostringstream out;
    char line[320];
    std::snprintf(line, sizeof line, "%-18s %8s %8s %7s %7s %7s %14s %14s %10s %10s %14s\n",
                  "fabric", "servers", "GPUs", "leaf", "spine", "core", "bisect Gb/s", "delivered",
                  "busbw GB/s", "step s", "capex $");
    out << line;
    const auto number = [](const nlohmann::ordered_json& j, const char* a, const char* b) {
        return j.contains(a) && j[a].is_object() && j[a].contains(b) && j[a][b].is_number()
                   ? j[a][b].get<double>()
                   : 0.0;
    };
    for (const auto& r : rows) {
        const auto& sw = r.value("switches", nlohmann::ordered_json::object());
        std::snprintf(line, sizeof line, "%-18s %8d %8d %7d %7d %7d %14s %14s %10.1f %10.3f %14s\n",
                      r.value("fabric", std::string("?")).c_str(), r.value("servers", 0),
                      r.value("gpus", 0), sw.value("leaf", 0), sw.value("spine", 0),
                      sw.value("core", 0),
                      grouped(number(r, "bisection", "theoreticalGbps")).c_str(),
                      grouped(number(r, "bisection", "effectiveGbps")).c_str(),
                      number(r, "collective", "busBwGBps"), number(r, "step", "stepSeconds"),
                      grouped(number(r, "cost", "fabricCapexUsd")).c_str());
        out << line;
    }
    return out.str();
}

std::string formatBom(const CostReport& cost) {
    std::ostringstream out;
    std::string tier;
    for (const BomLine& line : cost.bom) {
        if (const std::string now(toString(line.tier)); now != tier) {
            tier = now;
            out << tier << "\n";
        }
        out << "  " << grouped(static_cast<double>(line.quantity)) << " x " << line.role << ": "
            << line.partName << " (" << line.partClass << ", " << line.partId << ") @ "
            << usd(line.unitPrice.value) << " = " << usd(line.total().value) << ", "
            << grouped(line.power().value) << " W\n";
    }
    out << "total " << usd(cost.capex.value) << ", " << grouped(cost.power.value) << " W\n";
    for (const std::string& note : cost.notes)
        out << "note: " << note << "\n";
    return out.str();
}

std::string formatCabling(const CablingPlan& plan) {
    // The crew's summary first (how many of each cable to bring), then every cable.
    std::ostringstream out;
    out << grouped(static_cast<double>(plan.cables.size())) << " cables\n";
    for (const CableCount& kind : cablingSummary(plan))
        out << "  " << grouped(static_cast<double>(kind.count)) << " x " << kind.tier << ", "
            << kind.medium << ", " << kind.lengthClass << " length: " << kind.partId << "\n";
    for (const std::string& note : plan.notes)
        out << "note: " << note << "\n";
    out << "\n";
    char line[512];
    for (const PlannedCable& c : plan.cables) {
        std::snprintf(line, sizeof line, "%6lld  %-14s %-8s -> %-14s %-8s %5.0fG  %s, %.1f m\n",
                      c.number, c.a.device.c_str(), c.a.port.c_str(), c.b.device.c_str(),
                      c.b.port.c_str(), c.gbps, std::string(c.medium).c_str(), c.lengthMeters);
        out << line;
    }
    return out.str();
}

std::string formatCatalog(const Catalog& catalog) {
    std::ostringstream out;
    out << "fabrics\n";
    for (const auto& [id, f] : catalog.fabrics())
        out << "  " << id << std::string(id.size() < 18 ? 18 - id.size() : 1, ' ') << f.name
            << "\n";
    out << "gpus\n";
    for (const auto& [id, g] : catalog.gpus())
        out << "  " << id << std::string(id.size() < 18 ? 18 - id.size() : 1, ' ') << g.name
            << "\n";
    out << "models\n";
    for (const auto& [id, m] : catalog.models())
        out << "  " << id << std::string(id.size() < 18 ? 18 - id.size() : 1, ' ') << m.name
            << "\n";
    return out.str();
}

} // namespace fabriclab::app
