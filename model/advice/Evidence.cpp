// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/advice/Evidence.hpp"

#include <cmath>
#include <limits>
#include <tuple>

namespace fabriclab::model {
namespace {

/// How many times apart two positive sizes are, as a log: 0 for equal, ln 4 for 4x
/// either way.
double apart(double a, double b) {
    if (a <= 0 || b <= 0)
        return std::numeric_limits<double>::infinity();
    return std::abs(std::log(a / b));
}

} // namespace

std::optional<Evidence> nearestEvidence(const std::vector<PublishedFigure>& figures,
                                        const std::string& fabricId, const std::string& gpu,
                                        int servers, double bytes) {
    const PublishedFigure* best = nullptr;
    // Ordered key: a figure within reach first, of the same GPU first, then the fewest
    // times the scale away, then the nearest message size.
    const double reach = std::log(kEvidenceReach) + 1e-12;
    const auto key = [&](const PublishedFigure& f) {
        const double scale = apart(servers, f.servers);
        return std::tuple(scale > reach ? 1 : 0, f.gpu == gpu ? 0 : 1, scale,
                          apart(bytes, f.bytes));
    };
    for (const PublishedFigure& f : figures)
        if (f.fabric == fabricId && f.servers > 0 && (!best || key(f) < key(*best)))
            best = &f;
    if (!best)
        return std::nullopt;
    Evidence e;
    e.figureId = best->id;
    e.source = best->source;
    e.gpu = best->gpu;
    e.servers = best->servers;
    e.bytes = best->bytes;
    e.sameGpu = best->gpu == gpu;
    e.scale = servers > 0 ? static_cast<double>(servers) / best->servers : 0;
    e.extrapolation = apart(servers, best->servers) > reach;
    return e;
}

} // namespace fabriclab::model
