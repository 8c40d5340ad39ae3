// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// What the canvas draws for a set of collapsed groups, derived by hand for small
// generated fabrics. Sizing (model/fabric/LeafTier.cpp), for 8 servers with 4 GPUs and
// 2 NICs of 400G, radix-8 leaves and spines, 1:1:
//   downlinks per leaf d = 8 / 2 = 4
//   top-of-rack:    d / nics = 2 servers per leaf, 4 units of (2 servers + 1 leaf); each
//                   server has one link of count 2 to its leaf (800G)
//   rail-optimized: units of 4 servers + 2 leaves (rails 0 and 1), 2 units; each server
//                   has one 400G link to each leaf of its unit
//   either way: 4 leaves, 4 uplinks each, 2 spines, one link of count 2 per leaf-spine
//   pair (800G). Layout: servers at x = 40 i + 20, y = 480; leaves at x = 80 i + 40, y = 320.
#include <QTest>

#include "model/fabric/Generators.hpp"
#include "model/layout/LevelOfDetail.hpp"

#include <algorithm>
#include <set>

using namespace fabriclab::model;

namespace {

Topology smallFabric(bool railOptimized) {
    GeneratorParams p;
    p.kind = "leaf-spine";
    p.servers = 8;
    p.gpusPerServer = 4;
    p.nicsPerServer = 2;
    p.railOptimized = railOptimized;
    p.leafRadix = 8;
    p.spineRadix = 8;
    return generate(p);
}

/// The racks and scalable units only, without the switch tiers' groups.
std::set<GroupKey> unitsOf(const Topology& t) {
    std::set<GroupKey> units;
    for (const GroupKey& key : groupsOf(t))
        if (key.tier == GroupTier::Unit)
            units.insert(key);
    return units;
}

bool isNode(const Endpoint& e, const Topology& t, NodeKind kind) {
    const auto* id = std::get_if<NodeId>(&e);
    return id && t.node(*id).kind == kind;
}

} // namespace

class tst_LevelOfDetail : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nothingCollapsedIsTheTopology();
    void everyRackCollapsed();
    void oneRackCollapsed();
    void railUnitsBundleTheirUplinks();
    void handDrawnNodesNeverGroup();
    void unknownKeysAreIgnored();
    void largeDesignsOpenCollapsed();
    void podsFoldBeforeTheirRows();
    void switchTiersFoldIntoRows();
    void planesFoldSideBySide();
};

void tst_LevelOfDetail::nothingCollapsedIsTheTopology() {
    const Topology t = smallFabric(false);
    const VisibleGraph g = levelOfDetail(t, {});
    QVERIFY(g.blocks.empty());
    QCOMPARE(g.nodes.size(), t.nodes().size()); // 8 + 4 + 2 = 14
    QCOMPARE(g.nodes.size(), std::size_t{14});
    // Every link is its own edge: 8 server links and 8 leaf-spine links.
    QCOMPARE(g.edges.size(), std::size_t{16});
    for (const Edge& e : g.edges) {
        QCOMPARE(e.links.size(), std::size_t{1});
        QCOMPARE(e.cables, 2);
        QCOMPARE(e.capacity.value, 800.0);
        QVERIFY(e.a < e.b);
        QCOMPARE(e.serverLinks,
                 isNode(e.a, t, NodeKind::Server) || isNode(e.b, t, NodeKind::Server));
        QCOMPARE(e.rail, -1); // top-of-rack leaves have no rail
    }
}

void tst_LevelOfDetail::everyRackCollapsed() {
    const Topology t = smallFabric(false);
    // 4 units, and the spines' group (no pods: one for the whole fabric).
    QCOMPARE(groupsOf(t).size(), std::size_t{4 + 1});
    QCOMPARE(unitsOf(t).size(), std::size_t{4});
    const VisibleGraph g = levelOfDetail(t, unitsOf(t));
    // 4 blocks of 2 servers + 1 leaf; only the 2 spines stay nodes.
    QCOMPARE(g.blocks.size(), std::size_t{4});
    QCOMPARE(g.nodes.size(), std::size_t{2});
    for (const NodeId id : g.nodes)
        QVERIFY(t.node(id).kind == NodeKind::Spine);
    for (const Block& b : g.blocks) {
        QCOMPARE(b.members.size(), std::size_t{3});
        QCOMPARE(b.servers, 2);
        QCOMPARE(b.leaves, 1);
        QCOMPARE(b.gpus, 8);
        QVERIFY(b.rails.empty());
        QCOMPARE(b.internalCables, 4); // 2 servers x count 2, not drawn
    }
    // The 4 leaves at 112 apart (kSwitchSpacing) are wider than the 8 servers at 40: the
    // rows span 448. Unit 0: srv-1 (28, 480), srv-2 (84, 480), leaf-1 (56, 320): mean
    // (56, 426.67).
    QVERIFY((g.blocks[0].key == GroupKey{-1, 0}));
    QCOMPARE(g.blocks[0].x, 56.0);
    QCOMPARE(g.blocks[0].y, (480.0 + 480.0 + 320.0) / 3);
    // Each block reaches each spine through its leaf's one 800G link: 4 x 2 edges.
    QCOMPARE(g.edges.size(), std::size_t{8});
    for (const Edge& e : g.edges) {
        QVERIFY(isNode(e.a, t, NodeKind::Spine)); // node ids order before blocks
        QVERIFY(std::holds_alternative<GroupKey>(e.b));
        QCOMPARE(e.links.size(), std::size_t{1});
        QCOMPARE(e.capacity.value, 800.0);
        QVERIFY(!e.serverLinks);
    }
}

void tst_LevelOfDetail::oneRackCollapsed() {
    const Topology t = smallFabric(false);
    const VisibleGraph g = levelOfDetail(t, {GroupKey{-1, 0}});
    QCOMPARE(g.blocks.size(), std::size_t{1});
    QCOMPARE(g.nodes.size(), std::size_t{14 - 3});
    // The block's 2 uplinks, plus the 6 server links and 6 leaf-spine links outside it.
    QCOMPARE(g.edges.size(), std::size_t{2 + 6 + 6});
    const auto toBlock = std::count_if(g.edges.begin(), g.edges.end(), [](const Edge& e) {
        return std::holds_alternative<GroupKey>(e.a) || std::holds_alternative<GroupKey>(e.b);
    });
    QCOMPARE(static_cast<int>(toBlock), 2);
}

void tst_LevelOfDetail::railUnitsBundleTheirUplinks() {
    const Topology t = smallFabric(true);
    const VisibleGraph expanded = levelOfDetail(t, {});
    // 8 servers x 2 rails of 400G server links, each tinted by its leaf's rail.
    int perRail[2] = {0, 0};
    for (const Edge& e : expanded.edges)
        if (e.serverLinks) {
            QVERIFY(e.rail == 0 || e.rail == 1);
            ++perRail[e.rail];
            QCOMPARE(e.capacity.value, 400.0);
        }
    QCOMPARE(perRail[0], 8);
    QCOMPARE(perRail[1], 8);

    const VisibleGraph g = levelOfDetail(t, unitsOf(t));
    QCOMPARE(g.blocks.size(), std::size_t{2});
    QVERIFY((g.blocks[0].rails == std::vector<int>{0, 1}));
    QCOMPARE(g.blocks[0].gpus, 16);
    QCOMPARE(g.blocks[0].internalCables, 8);
    // Both leaves of a unit reach each spine: one edge bundling 2 links of count 2.
    QCOMPARE(g.edges.size(), std::size_t{2 * 2});
    for (const Edge& e : g.edges) {
        QCOMPARE(e.links.size(), std::size_t{2});
        QCOMPARE(e.cables, 4);
        QCOMPARE(e.capacity.value, 1600.0);
        QCOMPARE(e.rail, -1);
        QVERIFY(std::is_sorted(e.links.begin(), e.links.end()));
    }
}

void tst_LevelOfDetail::handDrawnNodesNeverGroup() {
    Topology t;
    Node server;
    server.name = "srv-1";
    const NodeId s = t.addNode(server);
    Node leaf;
    leaf.name = "leaf-1";
    leaf.kind = NodeKind::Leaf;
    const NodeId l = t.addNode(leaf);
    t.addLink(Link{s, l, Gbps(400), 3, LinkMedium::Dac, 2});
    QVERIFY(groupsOf(t).empty());
    const VisibleGraph g = levelOfDetail(t, {});
    QVERIFY((g.nodes == std::vector<NodeId>{s, l}));
    QCOMPARE(g.edges.size(), std::size_t{1});
    QCOMPARE(g.edges[0].capacity.value, 1200.0);
    QCOMPARE(g.edges[0].cables, 3);
}

void tst_LevelOfDetail::unknownKeysAreIgnored() {
    const Topology t = smallFabric(false);
    const VisibleGraph g = levelOfDetail(t, {GroupKey{7, 99}});
    QVERIFY(g.blocks.empty());
    QCOMPARE(g.nodes.size(), std::size_t{14});
}

void tst_LevelOfDetail::largeDesignsOpenCollapsed() {
    QVERIFY(initiallyCollapsed(smallFabric(false)).empty()); // 14 nodes
    // 320 servers as a fat-tree: 320 + 80 leaves + spines + cores > kCollapseAbove.
    GeneratorParams p;
    p.kind = "fat-tree";
    p.servers = 320;
    const Topology t = generate(p);
    QVERIFY(t.nodes().size() > kCollapseAbove);
    // Units of 32 servers, the spines of each of the 3 pods, and the cores.
    QCOMPARE(groupsOf(t).size(), std::size_t{10 + 3 + 1});
    // Three pods: it opens as its overview, the pods and the 64-wide core row folded.
    std::set<GroupKey> overview = podsOf(t);
    QCOMPARE(overview.size(), std::size_t{3});
    overview.insert(GroupKey{-1, -1, GroupTier::Cores});
    QVERIFY(initiallyCollapsed(t) == overview);

    // A single-pod fabric with many links but few nodes (the 1,024-GPU leaf-spine: 152
    // nodes, 1,152 link records) folds its units and keeps its 8 spines one by one.
    GeneratorParams rail;
    rail.servers = 128;
    rail.leafRadix = 128;
    rail.spineRadix = 128;
    const Topology r = generate(rail);
    QVERIFY(r.nodes().size() <= kCollapseAbove);
    QVERIFY(r.links().size() > kBundleAbove);
    const std::set<GroupKey> folded = initiallyCollapsed(r);
    QVERIFY(!folded.empty());
    for (const GroupKey& key : folded)
        QCOMPARE(key.tier, GroupTier::Unit);
    const VisibleGraph g = levelOfDetail(r, folded);
    QCOMPARE(g.nodes.size(), std::size_t(r.switchCounts().spine));
    QCOMPARE(g.edges.size(), g.blocks.size() * g.nodes.size()); // a bundle per unit and spine
}

void tst_LevelOfDetail::podsFoldBeforeTheirRows() {
    // The 320-server fat-tree with pod 1 and its own spine row both collapsed: the pod takes
    // its members (the spine row's key is then carried by no node and draws nothing), and
    // the block spans the ground of its servers, leaves and spines.
    GeneratorParams p;
    p.kind = "fat-tree";
    p.servers = 320;
    const Topology t = generate(p);
    const GroupKey pod{0, -1, GroupTier::Pod};
    const VisibleGraph g = levelOfDetail(t, {pod, GroupKey{0, -1, GroupTier::Spines}});
    QCOMPARE(g.blocks.size(), std::size_t{1});
    const Block& b = g.blocks.front();
    QCOMPARE(b.key, pod);
    QCOMPARE(b.spines, 32);
    QCOMPARE(b.servers + b.leaves + b.spines, static_cast<int>(b.members.size()));
    int gpus = 0;
    double left = 1e300;
    double right = -1e300;
    for (const NodeId id : b.members) {
        const Node& n = t.node(id);
        QCOMPARE(n.placement.pod, 0);
        gpus += n.kind == NodeKind::Server ? n.server.gpus : 0;
        left = std::min(left, n.x);
        right = std::max(right, n.x);
    }
    QCOMPARE(b.gpus, gpus);
    QCOMPARE(b.left, left);
    QCOMPARE(b.right, right);
    QVERIFY(b.top < b.bottom); // spines above servers
}

void tst_LevelOfDetail::switchTiersFoldIntoRows() {
    // The same 320-server fat-tree (3 pods of 32 spines, 64 cores, 10 units) with every
    // group folded reads as three rows: 10 unit blocks, 3 spine blocks, 1 core block.
    // A unit reaches only its own pod's spines and every pod reaches the cores, so
    // 10 + 3 edges carry every cable above the leaves.
    GeneratorParams p;
    p.kind = "fat-tree";
    p.servers = 320;
    const Topology t = generate(p);
    const VisibleGraph g = levelOfDetail(t, groupsOf(t));
    QVERIFY(g.nodes.empty());
    QCOMPARE(g.blocks.size(), std::size_t{10 + 3 + 1});
    int spines = 0;
    int cores = 0;
    for (const Block& b : g.blocks) {
        if (b.key.tier == GroupTier::Spines) {
            QCOMPARE(b.spines, 32);
            QVERIFY(b.key.pod >= 0 && b.key.pod < 3);
        }
        spines += b.spines;
        cores += b.cores;
    }
    QCOMPARE(spines, t.switchCounts().spine);
    QCOMPARE(cores, t.switchCounts().core);
    QCOMPARE(g.blocks.front().key.tier, GroupTier::Cores); // pod -1 orders first
    QCOMPARE(g.edges.size(), std::size_t{10 + 3});

    // Bundles add up: every cable between two tiers is in exactly one edge.
    double spineCore = 0;
    int upperCables = 0;
    for (const auto& [id, link] : t.links()) {
        const NodeKind a = t.node(link.a).kind;
        const NodeKind b = t.node(link.b).kind;
        if (a != NodeKind::Server && b != NodeKind::Server)
            upperCables += link.count;
        if ((a == NodeKind::Spine && b == NodeKind::Core) ||
            (a == NodeKind::Core && b == NodeKind::Spine))
            spineCore += link.capacity().value;
    }
    double drawnSpineCore = 0;
    int drawnCables = 0;
    for (const Edge& e : g.edges) {
        drawnCables += e.cables;
        const auto tierOf = [](const Endpoint& end) { return std::get<GroupKey>(end).tier; };
        const std::set<GroupTier> ends{tierOf(e.a), tierOf(e.b)};
        if (ends == std::set<GroupTier>{GroupTier::Spines, GroupTier::Cores})
            drawnSpineCore += e.capacity.value;
    }
    QCOMPARE(drawnSpineCore, spineCore);
    QCOMPARE(drawnCables, upperCables);
}

void tst_LevelOfDetail::planesFoldSideBySide() {
    // 128 servers x 8 NICs on radix-64 switches in 8 planes (tst_LeafSpineGenerator): 4
    // units of 32 servers and 8 rail leaves, 2 spines per plane. Opened, the design shows
    // its 4 units and one block of spines per plane (the 16 spines fold together as a row
    // would not, but each plane is its own block), and each plane reaches every unit: the
    // unit's leaf of the plane's rail.
    GeneratorParams p;
    p.kind = "leaf-spine";
    p.servers = 128;
    p.leafRadix = 64;
    p.spineRadix = 64;
    p.planes = 8;
    const Topology t = generate(p);
    std::set<GroupKey> collapsed = groupsOf(t);
    const VisibleGraph g = levelOfDetail(t, collapsed);
    QVERIFY(g.nodes.empty());
    std::set<int> planes;
    for (const Block& b : g.blocks)
        if (b.key.tier == GroupTier::Spines) {
            QCOMPARE(b.spines, 2);
            planes.insert(b.key.group);
        }
    QCOMPARE(planes, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    QCOMPARE(g.blocks.size(), std::size_t{4 + 8});
    QCOMPARE(g.edges.size(), std::size_t{4 * 8});
    // Spine blocks come in plane order, so the layout puts plane 1 leftmost.
    std::vector<int> order;
    for (const Block& b : g.blocks)
        if (b.key.tier == GroupTier::Spines)
            order.push_back(b.key.group);
    QVERIFY(std::is_sorted(order.begin(), order.end()));
}

QTEST_APPLESS_MAIN(tst_LevelOfDetail)
#include "tst_LevelOfDetail.moc"
