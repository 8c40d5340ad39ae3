// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/sim/AwsOfiTuner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fabriclab::sim::nccl::aws {
namespace {

/// The plugin's bounds: beyond them its far point for ray casting lies (TUNER_MAX_*).
constexpr double kMaxRanks = 1024.0 * 1024;
constexpr double kMaxBytes = 100.0 * 1024 * 1024 * 1024;
constexpr double kEps = 1e-10;

struct Point {
    double x = 0;
    double y = 0;
};

/// log2 of both coordinates, zero taken as 1e-6 as the plugin does.
Point log2Of(double bytes, double ranks) {
    const auto safe = [](double v) { return std::log2(v == 0 ? 1e-6 : v); };
    return {safe(bytes), safe(ranks)};
}

Point sub(Point a, Point b) {
    return {a.x - b.x, a.y - b.y};
}
double dot(Point a, Point b) {
    return a.x * b.x + a.y * b.y;
}
double cross(Point a, Point b) {
    return a.x * b.y - a.y * b.x;
}

/// Whether segment x0-x1 crosses segment y0-y1: 1 yes, -1 no, 0 at an end of y0-y1
/// (nccl_ofi_regions.cpp, intersect). `at` receives the crossing on the y line.
int intersect(Point x0, Point x1, Point y0, Point y1, Point* at) {
    const Point dx = sub(x1, x0);
    const Point dy = sub(y1, y0);
    const double d = cross(dy, dx);
    if (std::fabs(d) < kEps)
        return 0; // parallel
    long double a = static_cast<long double>(cross(x0, dx) - cross(y0, dx)) / d;
    if (at)
        *at = {static_cast<double>(y0.x + a * dy.x), static_cast<double>(y0.y + a * dy.y)};
    if (a < -kEps || a > 1 + kEps)
        return -1;
    if (a < kEps || a > 1 - kEps)
        return 0;
    a = (cross(x0, dy) - cross(y0, dy)) / d;
    if (a < 0 || a > 1)
        return -1;
    return 1;
}

/// Distance from p to segment y0-y1, infinite when the foot lies outside it.
double distance(Point p, Point y0, Point y1) {
    const Point dy = sub(y1, y0);
    const Point p1{p.x + dy.y, p.y - dy.x};
    Point foot;
    if (intersect(p, p1, y0, y1, &foot) == -1)
        return std::numeric_limits<double>::infinity();
    const Point s = sub(foot, p);
    return std::sqrt(dot(s, s));
}

} // namespace

std::optional<Platform> platformOf(std::string_view gpuId, int nicsPerServer, double nicGbps) {
    // EFA exists only on AWS, where a GPU and its amount of EFA name the instance (AWS's
    // instance listing; H200 at 3,200 Gb/s is the one pair with two), so a server is read
    // by its GPU and its EFA in all, however a design draws it: instance logs show p5's
    // 3,200 Gb/s as 32 devices, a planner may draw 8 x 400G.
    const double totalGbps = nicsPerServer * nicGbps;
    if (gpuId == "h100-sxm" && totalGbps == 3200)
        return Platform::P5;
    if (gpuId == "h200" && totalGbps == 3200) {
        // p5e draws its EFA as 32 x 100G, p5en as 16 x 200G; any other drawing is taken
        // as p5en, the H200 instance AWS sells outside capacity blocks.
        if (nicsPerServer == 32)
            return Platform::P5;
        return Platform::P5en;
    }
    if (gpuId == "b200" && totalGbps == 3200)
        return Platform::P6;
    if (gpuId == "b300" && totalGbps == 6400)
        return Platform::P6B300;
    return std::nullopt;
}

bool contains(const Region& region, double bytes, double ranks) {
    std::vector<Point> v;
    v.reserve(region.corners.size());
    for (const Corner& c : region.corners)
        v.push_back(log2Of(c.bytes, c.ranks));
    const Point p = log2Of(bytes, ranks);
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; ++i)
        if (distance(p, v[i], v[(i + 1) % n]) < kEps)
            return true; // on an edge
    double minX = v[0].x, maxX = v[0].x, minY = v[1].y, maxY = v[1].y;
    for (const Point& c : v) {
        minX = std::min(minX, c.x);
        maxX = std::max(maxX, c.x);
        minY = std::min(minY, c.y);
        maxY = std::max(maxY, c.y);
    }
    if (p.x < minX || p.x > maxX || p.y < minY || p.y > maxY)
        return false;
    const Point far = log2Of(2.0 * kMaxBytes, 2.0 * kMaxRanks);
    int crossings = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (intersect(p, far, v[i], v[(i + 1) % n], nullptr) == 1)
            ++crossings;
    return crossings % 2 == 1;
}

std::optional<std::pair<Algorithm, Protocol>>
pick(Platform platform, Function function, double bytes, int nodes, int ranksPerNode,
     const std::function<bool(Algorithm, Protocol)>& runnable) {
    // The plugin leaves two servers or fewer to NCCL: its polygons are not drawn there.
    if (nodes <= 2)
        return std::nullopt;
    const double ranks = static_cast<double>(nodes) * ranksPerNode;
    for (const Region& region : regions()) {
        if (region.platform != platform || region.ranksPerNode != ranksPerNode ||
            region.function != function || !runnable(region.algorithm, region.protocol))
            continue;
        if (contains(region, bytes, ranks))
            return std::pair{region.algorithm, region.protocol};
    }
    return std::nullopt;
}

} // namespace fabriclab::sim::nccl::aws
