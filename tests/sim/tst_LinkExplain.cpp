// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Explain: who loads a link, worked out by hand on fabrics small enough to count flows;
// ECMP collisions against the hashes the router actually picked, over several seeds; and
// "why is this slower?" naming the causes a design has (NIC bound, oversubscription,
// failures) with the elements to point at.
#include <QTest>

#ifndef Q_MOC_RUN
#include "model/catalog/Catalog.hpp"
#include "model/design/Failures.hpp"
#include "model/io/DesignFile.hpp"
#include "model/report/RunReport.hpp"
#include "model/report/Slowdown.hpp"
#include "model/sim/LinkExplain.hpp"
#include "support/BuiltinCatalog.hpp"

#include <algorithm>
#include <set>
#endif

using namespace fabriclab;
using model::LinkId;
using model::NodeId;

namespace {

model::Node node(model::NodeKind kind, const std::string& name, int nics = 1) {
    model::Node n;
    n.kind = kind;
    n.name = name;
    n.server.gpus = 1;
    n.server.nics = nics;
    return n;
}

/// Four 1-NIC servers, two per leaf, each leaf one cable to each of two spines.
struct SmallFabric {
    model::Topology topology;
    std::vector<NodeId> servers;
    std::vector<NodeId> leaves;
    std::vector<LinkId> serverLinks;
};

SmallFabric smallFabric() {
    SmallFabric f;
    for (int l = 0; l < 2; ++l)
        f.leaves.push_back(
            f.topology.addNode(node(model::NodeKind::Leaf, "leaf-" + std::to_string(l))));
    std::vector<NodeId> spines;
    for (int s = 0; s < 2; ++s)
        spines.push_back(
            f.topology.addNode(node(model::NodeKind::Spine, "spine-" + std::to_string(s))));
    for (int i = 0; i < 4; ++i) {
        f.servers.push_back(
            f.topology.addNode(node(model::NodeKind::Server, "srv-" + std::to_string(i))));
        f.serverLinks.push_back(f.topology.addLink({f.servers.back(), f.leaves[i / 2]}));
    }
    for (const NodeId leaf : f.leaves)
        for (const NodeId spine : spines)
            f.topology.addLink({leaf, spine});
    return f;
}

sim::Transfer transfer(NodeId from, NodeId to) {
    return sim::Transfer{{from, 0}, {to, 0}, 1.0, {}, 0, 0};
}

} // namespace

class tst_LinkExplain : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void serverLinkCarriesItsRingNeighbours();
    void collisionsAreTheHashesTheRouterPicked();
    void ringPhaseIsOneStepOnEveryRail();
    void slowdownNamesTheNicBound();
    void slowdownNamesOversubscriptionAndFailures();
    void slowdownNamesTheTierItWaitsOn();
    void slowdownWeighsValiantOnADragonfly();
    void slowdownWeighsTheGroupShift();
    void manyLinksFromOneSolveMatchOneByOne();
};

void tst_LinkExplain::serverLinkCarriesItsRingNeighbours() {
    // Ring 0 -> 1 -> 2 -> 3 -> 0: srv-0's cable carries 0 -> 1 out and 3 -> 0 in. No link
    // is shared by two flows in one direction, so each runs at the NIC's goodput,
    // 400 Gb/s x 0.96 (roce-v2-cx7 line efficiency), and the cable is full both ways.
    const SmallFabric f = smallFabric();
    const sim::FabricNetwork network(f.topology, testing::builtinFabric("roce-v2-cx7"));
    std::vector<sim::Transfer> ring;
    for (int i = 0; i < 4; ++i)
        ring.push_back(transfer(f.servers[static_cast<std::size_t>(i)],
                                f.servers[static_cast<std::size_t>((i + 1) % 4)]));
    const sim::LinkExplanation e = sim::explainLink(network, ring, f.serverLinks[0]);
    QCOMPARE(int(e.flows.size()), 2);
    QCOMPARE(e.capacityGbps, 384.0);
    std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (const auto& flow : e.flows) {
        QCOMPARE(flow.rateGbps, 384.0);
        pairs.insert({flow.from.server.value, flow.to.server.value});
        // The link runs srv-0 (a) to leaf-0 (b): srv-0's own flow leaves from side a.
        QCOMPARE(flow.fromSideA, flow.from.server == f.servers[0]);
    }
    QVERIFY(pairs.count({f.servers[0].value, f.servers[1].value}));
    QVERIFY(pairs.count({f.servers[3].value, f.servers[0].value}));
    QCOMPARE(e.loadAtoB, 1.0);
    QCOMPARE(e.loadBtoA, 1.0);
    QCOMPARE(e.collisions, 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sim::explainLink(network, ring, LinkId{9999}));
}

void tst_LinkExplain::collisionsAreTheHashesTheRouterPicked() {
    // srv-0 and srv-1 (leaf-0) both send to leaf-1's servers: two flows leave leaf-0 over
    // its two uplinks. Under static ECMP each hashes onto one; when both pick the same
    // one, that uplink carries two flows at half rate each while the other idles: a
    // collision. Over 16 seeds both outcomes occur; each must be reported as it fell.
    const SmallFabric f = smallFabric();
    int collided = 0;
    int spread = 0;
    for (std::uint64_t seed = 1; seed <= 16; ++seed) {
        const sim::FabricNetwork network(f.topology, testing::builtinFabric("roce-v2-cx7"), seed);
        const std::vector<sim::Transfer> flows{transfer(f.servers[0], f.servers[2]),
                                               transfer(f.servers[1], f.servers[3])};
        int withTwo = 0;
        for (const LinkId up : f.topology.linksOf(f.leaves[0])) {
            const model::Link& link = f.topology.link(up);
            if (link.a != f.leaves[0] && link.b != f.leaves[0])
                continue;
            if (f.topology.node(link.a).kind == model::NodeKind::Server ||
                f.topology.node(link.b).kind == model::NodeKind::Server)
                continue;
            const sim::LinkExplanation e = sim::explainLink(network, flows, up);
            if (e.flows.size() == 2) {
                ++withTwo;
                QCOMPARE(e.collisions, 1);
                QCOMPARE(e.flowsOnBusiestCable, 2);
                QCOMPARE(e.idleSiblings, 1);
                QCOMPARE(e.flows[0].rateGbps, 192.0); // 384 shared by two
            } else {
                QCOMPARE(e.collisions, 0);
            }
        }
        (withTwo == 1 ? collided : spread) += 1;
    }
    QVERIFY(collided > 0);
    QVERIFY(spread > 0);
}

void tst_LinkExplain::ringPhaseIsOneStepOnEveryRail() {
    const model::Design design =
        model::loadDesign(FABRICLAB_SOURCE_DIR "/samples/workshop-64gpu-rail-2to1.fabric.json",
                          model::Catalog::builtin());
    const sim::FabricNetwork network(design.topology, design.fabric.spec);
    const sim::CollectiveGroup group = sim::groupOfServers(network, design.workload->gpu.spec);
    sim::CollectiveResult ring;
    ring.algorithm = model::CollectiveAlgorithm::Ring;
    QCOMPARE(int(sim::phaseTransfers(network, group, ring).size()), 8 * 8); // servers x rails
    sim::CollectiveResult pxn;
    pxn.algorithm = model::CollectiveAlgorithm::Pxn;
    QCOMPARE(int(sim::phaseTransfers(network, group, pxn).size()), 8 * 7 * 8);
}

void tst_LinkExplain::slowdownNamesTheNicBound() {
    // 8 servers with 2 x 400G NDR NICs: 2 x 400 x 0.96 / 8 = 96 GB/s per server.
    const model::Design design =
        model::loadDesign(FABRICLAB_SOURCE_DIR "/samples/workshop-16gpu-leaf-spine.fabric.json",
                          model::Catalog::builtin());
    model::RunOptions options;
    options.detail = true;
    const model::RunReport report = model::runDesign(design, model::Catalog::builtin(), options);
    const auto reasons = model::explainSlowdown(design, report);
    QVERIFY(!reasons.empty());
    QVERIFY2(reasons.front().text.find("of the 96.0 GB/s each server's NICs carry") !=
                 std::string::npos,
             reasons.front().text.c_str());
    // Non-blocking and whole: no oversubscription or failure reason.
    for (const auto& reason : reasons) {
        QVERIFY(reason.text.find("oversubscribed") == std::string::npos);
        QVERIFY(reason.text.find("failure") == std::string::npos);
    }
}

void tst_LinkExplain::slowdownNamesOversubscriptionAndFailures() {
    model::Design design =
        model::loadDesign(FABRICLAB_SOURCE_DIR "/samples/workshop-64gpu-rail-2to1.fabric.json",
                          model::Catalog::builtin());
    design.failures = model::loseOneSpine(design.topology);
    model::RunOptions options;
    options.detail = true;
    const model::RunReport report = model::runDesign(design, model::Catalog::builtin(), options);
    const auto reasons = model::explainSlowdown(design, report);
    const auto find = [&](const char* words) {
        return std::find_if(reasons.begin(), reasons.end(),
                            [&](const auto& r) { return r.text.find(words) != std::string::npos; });
    };
    const auto over = find("2:1 oversubscribed");
    QVERIFY(over != reasons.end());
    QCOMPARE(int(over->nodes.size()), 8); // the eight rail leaves
    // Rail traffic stays under the rail leaves: the 2:1 is named, and so is its cost here.
    QVERIFY(over->text.find("never fills them") != std::string::npos);
    const auto failed = find("1 failure applied");
    QVERIFY(failed != reasons.end());
    QCOMPARE(int(failed->nodes.size()), 1);
    QCOMPARE(design.topology.node(failed->nodes.front()).name, std::string("spine-1"));
}

void tst_LinkExplain::slowdownNamesTheTierItWaitsOn() {
    // The hand-drawn teaching fabric: 4 servers, 2 leaves, 1 spine, each leaf 1.6 Tb/s
    // down and 0.8 Tb/s up. Its ring crosses the spine, whose links run full the whole
    // collective, and static ECMP is named beside the 2:1.
    const model::Design design = model::loadDesign(
        FABRICLAB_SOURCE_DIR "/samples/teaching-4-servers.fabric.json", model::Catalog::builtin());
    model::RunOptions options;
    options.detail = true;
    const model::RunReport report = model::runDesign(design, model::Catalog::builtin(), options);
    const auto reasons = model::explainSlowdown(design, report);
    const auto spine = std::find_if(reasons.begin(), reasons.end(), [](const auto& r) {
        return r.text.rfind("Leaf-spine links run full for 100%", 0) == 0;
    });
    QVERIFY(spine != reasons.end());
    QCOMPARE(int(spine->links.size()), 2); // both leaf-spine links
    for (const LinkId link : spine->links)
        QVERIFY(design.topology.tierOf(design.topology.link(link)) == model::LinkTier::LeafSpine);
    const auto over = std::find_if(reasons.begin(), reasons.end(), [](const auto& r) {
        return r.text.find("2:1 oversubscribed") != std::string::npos;
    });
    QVERIFY(over != reasons.end());
    QVERIFY(over->text.find("never fills") == std::string::npos);
}

void tst_LinkExplain::slowdownWeighsValiantOnADragonfly() {
    // The dragonfly+ sample has four groups: Explain sets Valiant's share of the min cut
    // beside the fabric's own routing; a fat-tree has no groups and no such reason.
    const auto valiantReason = [](const char* sample) {
        const model::Design design = model::loadDesign(
            std::string(FABRICLAB_SOURCE_DIR "/samples/") + sample, model::Catalog::builtin());
        model::RunOptions options;
        options.detail = true;
        const model::RunReport report =
            model::runDesign(design, model::Catalog::builtin(), options);
        for (const auto& reason : model::explainSlowdown(design, report))
            if (reason.text.rfind("Valiant routing", 0) == 0)
                return reason.text;
        return std::string();
    };
    const std::string text = valiantReason("dragonfly-plus-4096gpu-ib-ndr.fabric.json");
    QVERIFY2(text.find("where adaptive routing keeps") != std::string::npos, text.c_str());
    QVERIFY(valiantReason("workshop-16gpu-leaf-spine.fabric.json").empty());
}

void tst_LinkExplain::slowdownWeighsTheGroupShift() {
    // The dragonfly+ sample: Explain names what each routing delivers when every group sends
    // to the next, the report's own figures, UGAL's among them.
    const model::Design design =
        model::loadDesign(FABRICLAB_SOURCE_DIR "/samples/dragonfly-plus-4096gpu-ib-ndr.fabric.json",
                          model::Catalog::builtin());
    model::RunOptions options;
    options.detail = true;
    const model::RunReport report = model::runDesign(design, model::Catalog::builtin(), options);
    QCOMPARE(report.groupShift.size(), std::size_t{5}); // own routing and four others
    std::string text;
    for (const auto& reason : model::explainSlowdown(design, report))
        if (reason.text.rfind("Sending every group's traffic", 0) == 0)
            text = reason.text;
    QVERIFY2(text.find("UGAL routing") != std::string::npos, text.c_str());
    QVERIFY2(text.find("Valiant routing") != std::string::npos, text.c_str());
    // No routing delivers more than the global links carry.
    for (const auto& s : report.groupShift)
        QVERIFY(s.shift.deliveredGbps <= s.shift.capacityGbps * (1 + 1e-9));
}

void tst_LinkExplain::manyLinksFromOneSolveMatchOneByOne() {
    const SmallFabric f = smallFabric();
    const sim::FabricNetwork network(f.topology, testing::builtinFabric("roce-v2-cx7"), 3);
    std::vector<sim::Transfer> all;
    for (const NodeId a : f.servers)
        for (const NodeId b : f.servers)
            if (a != b)
                all.push_back(transfer(a, b));
    std::vector<LinkId> ids;
    for (const auto& [id, link] : f.topology.links())
        ids.push_back(id);
    const auto together = sim::explainLinks(network, all, ids);
    QCOMPARE(together.size(), ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const auto alone = sim::explainLink(network, all, ids[i]);
        QCOMPARE(together[i].flows.size(), alone.flows.size());
        QCOMPARE(together[i].loadAtoB, alone.loadAtoB);
        QCOMPARE(together[i].collisions, alone.collisions);
        // Physical bound: no direction of a link carries more than its capacity.
        QVERIFY(alone.loadAtoB <= 1 + 1e-9 && alone.loadBtoA <= 1 + 1e-9);
    }
}

QTEST_APPLESS_MAIN(tst_LinkExplain)
#include "tst_LinkExplain.moc"
