// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The canvas follows the document: every document signal shows up as the item counts a
// hand count of the design predicts, collapsing and expanding a unit swaps its members
// for one block and back, and canvas gestures end in exactly one undo step each.
// The generated design is a 16-server rail-optimized leaf/spine with 8 NICs per server
// and radix-64 switches (model/fabric/LeafTier.cpp): one unit of 16 servers and 8 rail
// leaves; 16 uplinks per leaf spread over 2 spines as one link of count 8 per pair.
// So 26 nodes, 16 x 8 = 128 server links and 8 x 2 = 16 leaf-spine links.
#include "model/catalog/Catalog.hpp"
#include "model/fabric/Generators.hpp"
#include "model/io/DesignFile.hpp"
#include "views/canvas/BlockItem.hpp"
#include "views/canvas/CanvasGestures.hpp"
#include "views/canvas/CanvasText.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/LinkItem.hpp"
#include "views/canvas/NodeItem.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QStyleOptionGraphicsItem>
#include <QUndoStack>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::model::GroupKey;
using fabriclab::model::groupsOf;
using fabriclab::model::GroupTier;
using fabriclab::model::LinkId;
using fabriclab::model::NodeId;
using fabriclab::model::NodeKind;
using fabriclab::views::BlockItem;
using fabriclab::views::CanvasGestures;
using fabriclab::views::CanvasText;
using fabriclab::views::CanvasTool;
using fabriclab::views::CanvasView;
using fabriclab::views::LinkItem;
using fabriclab::views::TopologyDocument;
using fabriclab::views::TopologyScene;

namespace {

constexpr GroupKey kUnit{-1, 0}; // the leaf-spine generator's only unit

fabriclab::model::Design generated(const TopologyDocument& document, const std::string& kind,
                                   int servers) {
    fabriclab::model::Design design = document.design();
    fabriclab::model::GeneratorParams params;
    params.kind = kind;
    params.servers = servers;
    design.generator = params;
    design.topology = fabriclab::model::generate(params);
    return design;
}

struct Counts {
    std::size_t nodes, blocks, links, frames;
    friend bool operator==(const Counts&, const Counts&) = default;
};

Counts countsOf(const TopologyScene& scene) {
    return {scene.nodeItemCount(), scene.blockItemCount(), scene.linkItemCount(),
            scene.frameItemCount()};
}

NodeId named(const TopologyDocument& document, const char* name) {
    return *document.topology().findNode(name);
}

QPointF positionOf(const TopologyDocument& document, NodeId id) {
    const auto& node = document.topology().node(id);
    return {node.x, node.y};
}

} // namespace

namespace QTest {
template <> char* toString(const Counts& c) {
    return qstrdup(QStringLiteral("nodes %1 blocks %2 links %3 frames %4")
                       .arg(c.nodes)
                       .arg(c.blocks)
                       .arg(c.links)
                       .arg(c.frames)
                       .toUtf8()
                       .constData());
}
} // namespace QTest

class tst_TopologyScene : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void addedNodeGetsAnItemUndoRemovesIt();
    void connectAddsOneLinkItem();
    void designResetBuildsEveryItem();
    void sitesAreDrawnAroundTheFabric();
    void dragonflyPodsAreGroups();
    void fatTreePlanesAreSpineBlocks();
    void portPlanesAreSpineBlocks();
    void superPodSpinesServeRails();
    void switchesOfARowNeverOverlap();
    void collapseAndExpandAUnit();
    void replacedDesignKeepsViewStateAndItems();
    void denseLinksPaintOpaque_data();
    void denseLinksPaintOpaque();
    void largeDesignsOpenCollapsed();
    void failuresAreDrawnAndUndone();
    void selectedBlockStandsForItsMembers();
    void movedNodeUpdatesInPlace();
    void dragIsOneUndoStep();
    void linkDragConnectsOrSaysWhyNot();
    void deleteAndDuplicateSelection();
    void placingANodeSaysWhatItGot_data();
    void placingANodeSaysWhatItGot();
};

void tst_TopologyScene::addedNodeGetsAnItemUndoRemovesIt() {
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    QCOMPARE(scene.nodeItemCount(), std::size_t{0});

    const NodeId id = document.addNode(NodeKind::Server, QPointF(40, 80));
    QCOMPARE(scene.nodeItemCount(), std::size_t{1});
    QVERIFY(scene.nodeItem(id));
    QCOMPARE(scene.nodeItem(id)->pos(), QPointF(40, 80));

    document.undoStack()->undo();
    QCOMPARE(scene.nodeItemCount(), std::size_t{0});
    QVERIFY(!scene.nodeItem(id));
    document.undoStack()->redo();
    QCOMPARE(scene.nodeItemCount(), std::size_t{1});
}

void tst_TopologyScene::connectAddsOneLinkItem() {
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    const NodeId leaf = document.addNode(NodeKind::Leaf, QPointF(0, 0));
    const NodeId a = document.addNode(NodeKind::Server, QPointF(-40, 160));
    const NodeId b = document.addNode(NodeKind::Server, QPointF(40, 160));

    QVERIFY(document.connect(a, leaf));
    QCOMPARE(scene.linkItemCount(), std::size_t{1});
    QVERIFY(scene.linkItem({leaf, a})); // edges are keyed low id first: the leaf came first
    // A second cable between the same pair widens the link: still one item.
    QVERIFY(document.connect(leaf, a));
    QCOMPARE(scene.linkItemCount(), std::size_t{1});
    QVERIFY(!document.connect(a, b)); // server to server is refused
    QCOMPARE(scene.linkItemCount(), std::size_t{1});

    document.undoStack()->undo(); // the parallel cable
    QCOMPARE(scene.linkItemCount(), std::size_t{1});
    document.undoStack()->undo(); // the link
    QCOMPARE(scene.linkItemCount(), std::size_t{0});
}

void tst_TopologyScene::designResetBuildsEveryItem() {
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    QSignalSpy rebuilt(&scene, &TopologyScene::rebuilt);
    document.adopt(generated(document, "leaf-spine", 16), QString());
    QCOMPARE(rebuilt.count(), 1);
    // 26 nodes, under 300: expanded, with the unit's frame drawn around its members.
    QCOMPARE(countsOf(scene), (Counts{26, 0, 128 + 16, 1}));

    document.newDesign();
    QCOMPARE(countsOf(scene), (Counts{0, 0, 0, 0}));
}

void tst_TopologyScene::sitesAreDrawnAroundTheFabric() {
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    const QString path = QStringLiteral(FABRICLAB_SOURCE_DIR
                                        "/samples/two-sites-diloco-2x1024gpu-ib-ndr.fabric.json");
    document.adopt(fabriclab::model::loadDesign(path.toStdString(), Catalog::builtin()), path);
    // A frame for this site, one card for the other, the WAN and four notes.
    QCOMPARE(scene.sitesOverlay().itemCount(), std::size_t{1 + 1 + 1 + 4});
    const QRectF sites = scene.sitesOverlay().rect();
    QVERIFY(sites.isValid());
    // The fabric sits inside site 1's frame, and fitting the canvas shows the other site too.
    QRectF fabric;
    for (QGraphicsItem* item : scene.items())
        if (item->type() == fabriclab::views::NodeItem::Type || item->type() == BlockItem::Type)
            fabric |= item->sceneBoundingRect();
    QVERIFY(sites.contains(fabric));
    QVERIFY(sites.width() > 1.3 * fabric.width());
    QCOMPARE(scene.contentRect(), fabric | sites);

    document.newDesign();
    QCOMPARE(scene.sitesOverlay().itemCount(), std::size_t{0});
    QVERIFY(scene.sitesOverlay().rect().isEmpty());
}

void tst_TopologyScene::dragonflyPodsAreGroups() {
    // A dragonfly's pods are its groups, and the canvas calls them so; a fat-tree's stay pods.
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    document.adopt(generated(document, "dragonfly", 512), QString());
    QVERIFY(scene.nouns().podsAreGroups);
    QStringList titles;
    for (QGraphicsItem* item : scene.items())
        if (const auto* block = qgraphicsitem_cast<const BlockItem*>(item))
            titles << block->look().title;
    QVERIFY2(titles.contains(QStringLiteral("group 1")), qPrintable(titles.join(u',')));
    QVERIFY(!titles.join(u',').contains(QStringLiteral("pod")));

    document.adopt(generated(document, "fat-tree", 320), QString());
    QVERIFY(!scene.nouns().podsAreGroups);
}

void tst_TopologyScene::fatTreePlanesAreSpineBlocks() {
    // A fat-tree in 2 planes: with its first pod open and the rest folded, the pod's spines
    // are two blocks, one a plane, as a planed leaf-spine's are.
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    auto design = generated(document, "fat-tree", 1024);
    design.generator->planes = 2;
    design.topology = fabriclab::model::generate(*design.generator);
    document.adopt(std::move(design), QString());
    scene.collapseAll();
    scene.setCollapsed(GroupKey{0, -1, fabriclab::model::GroupTier::Pod}, false);
    for (const int plane : {0, 1}) {
        const GroupKey spines{0, plane, fabriclab::model::GroupTier::Spines};
        scene.setCollapsed(spines, true);
        const BlockItem* block = scene.blockItem(spines);
        QVERIFY2(block, qPrintable(QString::number(plane)));
        QCOMPARE(block->look().title, QStringLiteral("plane %1 spines").arg(plane + 1));
    }
}

void tst_TopologyScene::portPlanesAreSpineBlocks() {
    // 256 servers whose 800G NICs each split into two 400G planes: every plane's spines are a
    // block of their own ("plane 2 spines"), and the switches say which plane they are in.
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    auto design = generated(document, "leaf-spine", 256);
    design.generator->nicSpeed = fabriclab::model::Gbps(800);
    design.generator->portsPerNic = 2;
    design.topology = fabriclab::model::generate(*design.generator);
    document.adopt(std::move(design), QString());
    QVERIFY(!scene.nouns().spinesServeRails);
    for (const int plane : {0, 1}) {
        const GroupKey spines{-1, plane, fabriclab::model::GroupTier::Spines};
        scene.setCollapsed(spines, true);
        const BlockItem* block = scene.blockItem(spines);
        QVERIFY2(block, qPrintable(QString::number(plane)));
        QCOMPARE(block->look().title, QStringLiteral("plane %1 spines").arg(plane + 1));
        QCOMPARE(block->look().shortTitle, QStringLiteral("PL%1").arg(plane + 1));
    }
}

void tst_TopologyScene::superPodSpinesServeRails() {
    // A SuperPOD's spine-leaf groups each serve one rail, and are called by it.
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    auto design = generated(document, "superpod", 16);
    design.generator->gpusPerServer = 72;
    design.generator->nicsPerServer = 72;
    design.topology = fabriclab::model::generate(*design.generator);
    document.adopt(std::move(design), QString());
    QVERIFY(scene.nouns().spinesServeRails);
    const GroupKey spines{0, 2, fabriclab::model::GroupTier::Spines};
    scene.setCollapsed(spines, true);
    const BlockItem* block = scene.blockItem(spines);
    QVERIFY(block);
    QCOMPARE(block->look().title, QStringLiteral("rail 3 spines"));
    QCOMPARE(block->look().shortTitle, QStringLiteral("R3"));
    // Its servers are NVL72 racks, and the tier says so.
    QVERIFY(scene.nouns().serversAreRacks);
    QCOMPARE(CanvasText::tierLabel(fabriclab::model::NodeKind::Server, 16, scene.nouns()),
             QStringLiteral("Racks · 16"));
}

void tst_TopologyScene::switchesOfARowNeverOverlap() {
    // Two NVL72 racks of 72 NICs each under 8 rail leaves: the leaf row is wider than the
    // two servers below it, so it sets the layout's width (kSwitchSpacing) and no two
    // switches of a row are drawn over each other, as they were when servers set it.
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    fabriclab::model::Design design = document.design();
    fabriclab::model::GeneratorParams params;
    params.servers = 2;
    params.gpusPerServer = 72;
    params.nicsPerServer = 72;
    params.railOptimized = true;
    design.generator = params;
    design.topology = fabriclab::model::generate(params);
    document.adopt(design, QString());
    std::vector<QRectF> leaves;
    for (const auto& [id, node] : document.topology().nodes())
        if (node.kind != NodeKind::Server)
            if (const auto* item = scene.nodeItem(id))
                leaves.push_back(item->sceneBoundingRect());
    QVERIFY(leaves.size() >= 8);
    for (std::size_t a = 0; a < leaves.size(); ++a)
        for (std::size_t b = a + 1; b < leaves.size(); ++b)
            QVERIFY2(!leaves[a].intersects(leaves[b]),
                     qPrintable(QStringLiteral("switch boxes at x %1 and %2 overlap")
                                    .arg(leaves[a].center().x())
                                    .arg(leaves[b].center().x())));
}

void tst_TopologyScene::replacedDesignKeepsViewStateAndItems() {
    // Regenerating (a new oversubscription, another fabric) replaces the design with
    // another version of itself: the unit the user collapsed stays collapsed and the
    // items of nodes that are still there are reused, not built again; the selection
    // goes, since the generator hands out node ids anew.
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    document.adopt(generated(document, "leaf-spine", 16), QString());
    scene.setCollapsed(kUnit, true);
    auto* spine = scene.nodeItem(named(document, "spine-1"));
    spine->setSelected(true);
    QCOMPARE(scene.selectedNodeIds().size(), 1);

    document.replaceDesign(generated(document, "leaf-spine", 16), QStringLiteral("Regenerate"));
    QVERIFY(scene.isCollapsed(kUnit));
    QCOMPARE(countsOf(scene), (Counts{2, 1, 2, 0}));
    QCOMPARE(scene.nodeItem(named(document, "spine-1")), spine);
    QVERIFY(scene.selectedNodeIds().isEmpty());

    // Undo is a replacement too; opening a design starts over with its own defaults.
    document.undoStack()->undo();
    QVERIFY(scene.isCollapsed(kUnit));
    document.adopt(generated(document, "leaf-spine", 16), QString());
    QVERIFY(!scene.isCollapsed(kUnit)); // 26 nodes open expanded
}

void tst_TopologyScene::denseLinksPaintOpaque_data() {
    QTest::addColumn<double>("scale");
    QTest::newRow("zoomed far out (hairlines)") << 0.05;
    QTest::newRow("at 1:1") << 1.0;
}

void tst_TopologyScene::denseLinksPaintOpaque() {
    // A crowded canvas draws its links in a light tone mixed with the background, never
    // translucent: Qt 6.4 blends a translucent line of 96 or more scanlines on its global
    // thread pool and waits, which made a 16K-GPU canvas take 250 ms a frame. On a
    // transparent image an opaque pen leaves only fully opaque or untouched pixels.
    QFETCH(double, scale);
    fabriclab::views::LinkItem item({NodeId{1}, NodeId{2}});
    item.setLook({1.0, -1, true});
    item.setEnds(QPointF(10 / scale, 0), QPointF(10 / scale, 300 / scale)); // 300 px tall
    QImage image(20, 310, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.scale(scale, scale);
    const QStyleOptionGraphicsItem option;
    item.paint(&painter, &option, nullptr);
    painter.end();
    int painted = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const int alpha = qAlpha(image.pixel(x, y));
            QVERIFY2(alpha == 0 || alpha == 255,
                     qPrintable(QStringLiteral("alpha %1 at %2,%3").arg(alpha).arg(x).arg(y)));
            painted += alpha == 255;
        }
    QVERIFY(painted >= 290); // the line is there, about a pixel wide
}

void tst_TopologyScene::collapseAndExpandAUnit() {
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    document.adopt(generated(document, "leaf-spine", 16), QString());
    auto* spine = scene.nodeItem(named(document, "spine-1"));

    // The 24 members fold into one block; the 16 leaf-spine links become one bundle per spine.
    scene.setCollapsed(kUnit, true);
    QCOMPARE(countsOf(scene), (Counts{2, 1, 2, 0}));
    QVERIFY(scene.blockItem(kUnit));
    QCOMPARE(scene.nodeItem(named(document, "spine-1")), spine); // kept, not rebuilt
    const auto& edges = scene.visibleGraph().edges;
    QCOMPARE(edges[0].capacity.value, 8.0 * 8 * 400); // 8 leaves x count 8

    scene.setCollapsed(kUnit, false);
    QCOMPARE(countsOf(scene), (Counts{26, 0, 144, 1}));
    scene.collapseAll(); // the unit, and the two spines as one row
    QCOMPARE(countsOf(scene), (Counts{0, 2, 1, 0}));
    scene.expandAll();
    QCOMPARE(countsOf(scene), (Counts{26, 0, 144, 1}));

    // Edits keep the view state: a collapsed unit stays collapsed after an added node.
    scene.setCollapsed(kUnit, true);
    document.addNode(NodeKind::Core, QPointF(0, -160));
    QCOMPARE(countsOf(scene), (Counts{3, 1, 2, 0}));
}

void tst_TopologyScene::largeDesignsOpenCollapsed() {
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    // 320 servers as a fat-tree: 560 nodes in 3 pods under 64 cores. It opens as its
    // overview: 3 pod blocks and the core row folded into one (64 > kSwitchRowFoldAbove),
    // with one bundle from each pod to the cores (LevelOfDetail derives them,
    // tst_LevelOfDetail checks the derivation).
    document.adopt(generated(document, "fat-tree", 320), QString());
    QCOMPARE(countsOf(scene), (Counts{0, 3 + 1, 3, 0}));
    // The canvas labels its tier rows top to bottom with the design's own counts.
    const auto& rows = scene.tierRows();
    QCOMPARE(rows.size(), std::size_t{4});
    const auto switches = document.topology().switchCounts();
    QVERIFY(rows[0].kind == NodeKind::Core);
    QCOMPARE(rows[0].count, switches.core);
    QCOMPARE(rows[1].count, switches.spine);
    QCOMPARE(rows[2].count, switches.leaf);
    QVERIFY(rows[3].kind == NodeKind::Server);
    QCOMPARE(rows[3].count, 320);
    for (std::size_t i = 1; i < rows.size(); ++i)
        QVERIFY(rows[i - 1].y < rows[i].y);
    // Each card covers the ground its members were laid out on, so a fitted view shows
    // pods at their share of the width rather than as specks.
    const GroupKey pod{0, -1, GroupTier::Pod};
    QVERIFY(scene.blockItem(pod));
    QVERIFY(scene.blockItem(pod)->look().frame.width() > 4 * BlockItem::size().width());

    // Opening a pod shows its units and its spine row as blocks, one level down, not its
    // servers all at once.
    std::size_t podUnits = 0;
    for (const GroupKey& key : groupsOf(document.topology()))
        podUnits += key.pod == 0 && key.tier == GroupTier::Unit ? 1 : 0;
    QVERIFY(podUnits >= 2);
    scene.setCollapsed(pod, false);
    QCOMPARE(scene.nodeItemCount(), std::size_t{0});
    QCOMPARE(scene.blockItemCount(), 2 + 1 + podUnits + 1); // other pods, cores, units, spines
}

void tst_TopologyScene::failuresAreDrawnAndUndone() {
    // A what-if drill as a presenter runs it: fail a spine and one leaf-spine cable, see
    // them drawn as failed, undo both steps and see the fabric whole again.
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    document.adopt(generated(document, "leaf-spine", 64), QString());
    scene.expandAll();
    const NodeId spine = named(document, "spine-1");
    const NodeId leaf = named(document, "leaf-1");
    QCOMPARE(scene.nodeItem(spine)->look().failure, 0);

    document.setFailures(
        {fabriclab::model::Failure{"spine-1", fabriclab::model::FailureKind::Down, 0, 1}},
        QStringLiteral("Fail spine-1"));
    QCOMPARE(scene.nodeItem(spine)->look().failure, 2);
    QCOMPARE(scene.nodeItem(leaf)->look().failure, 0);
    // Edges are keyed with their smaller end first.
    const auto itemOf = [&](const fabriclab::model::Link& link) {
        return link.a < link.b ? scene.linkItem({link.a, link.b})
                               : scene.linkItem({link.b, link.a});
    };
    // Every link of the failed spine is drawn down, and only those.
    int down = 0;
    for (const auto& [id, link] : document.topology().links()) {
        const LinkItem* item = itemOf(link);
        QVERIFY(item);
        const bool toSpine = link.a == spine || link.b == spine;
        QCOMPARE(item->look().failure, toSpine ? 2 : 0);
        down += toSpine ? 1 : 0;
    }
    QCOMPARE(down, 16); // one link record per leaf

    auto failures = document.design().failures;
    failures.push_back(
        fabriclab::model::Failure{"leaf-1/spine-2", fabriclab::model::FailureKind::Down, 1, 1});
    document.setFailures(failures, QStringLiteral("Fail a cable"));
    const auto toSpine2 = [&] {
        for (const auto& [id, link] : document.topology().links())
            if ((link.a == leaf && link.b == named(document, "spine-2")) ||
                (link.b == leaf && link.a == named(document, "spine-2")))
                return itemOf(link);
        return static_cast<LinkItem*>(nullptr);
    };
    QCOMPARE(toSpine2()->look().failure, 1); // one of its 4 cables: degraded, not down

    document.undoStack()->undo();
    QCOMPARE(toSpine2()->look().failure, 0);
    QCOMPARE(scene.nodeItem(spine)->look().failure, 2);
    document.undoStack()->undo();
    QVERIFY(document.design().failures.empty());
    QCOMPARE(scene.nodeItem(spine)->look().failure, 0);
    document.undoStack()->redo();
    QCOMPARE(scene.nodeItem(spine)->look().failure, 2);
}

void tst_TopologyScene::selectedBlockStandsForItsMembers() {
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    document.adopt(generated(document, "leaf-spine", 16), QString());
    scene.setCollapsed(kUnit, true);
    QSignalSpy spy(&scene, &TopologyScene::selectionChangedIds);

    scene.blockItem(kUnit)->setSelected(true);
    QCOMPARE(spy.count(), 1);
    const auto nodes = spy.last().at(0).value<QList<NodeId>>();
    QCOMPARE(nodes.size(), 16 + 8);
    QVERIFY(nodes.contains(named(document, "srv-16")));
    QVERIFY(nodes.contains(named(document, "leaf-8")));
    QVERIFY(!nodes.contains(named(document, "spine-1")));

    // Expanding keeps the same ids selected, now as 24 node items.
    scene.setCollapsed(kUnit, false);
    QCOMPARE(scene.selectedNodeIds(), nodes);
    QCOMPARE(scene.selectedItems().size(), 24);
    // Collapsing with only some members selected must not select the whole unit.
    scene.selectNodes({named(document, "srv-1")});
    scene.setCollapsed(kUnit, true);
    QVERIFY(scene.selectedNodeIds().isEmpty());
}

void tst_TopologyScene::movedNodeUpdatesInPlace() {
    TopologyDocument document(Catalog::builtin());
    TopologyScene scene(document);
    document.adopt(generated(document, "leaf-spine", 16), QString());
    const NodeId server = named(document, "srv-1");
    const NodeId leaf = named(document, "leaf-1");
    auto* item = scene.nodeItem(server);
    QSignalSpy rebuilt(&scene, &TopologyScene::rebuilt);

    document.moveNodes({{server, QPointF(500, 700)}});
    QCOMPARE(rebuilt.count(), 0);
    QCOMPARE(scene.nodeItem(server), item);
    QCOMPARE(item->pos(), QPointF(500, 700));
    const QLineF line = scene
                            .linkItem({server < leaf ? fabriclab::model::Endpoint(server) : leaf,
                                       server < leaf ? fabriclab::model::Endpoint(leaf) : server})
                            ->line();
    QVERIFY(line.p1() == QPointF(500, 700) || line.p2() == QPointF(500, 700));
}

void tst_TopologyScene::dragIsOneUndoStep() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document, "leaf-spine", 16), QString());
    CanvasView view(document);
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const NodeId server = named(document, "srv-1");
    const QPointF start = positionOf(document, server);
    // One pixel per scene unit around the server, so pointer positions map exactly.
    view.resetZoom();
    view.centerOn(start);

    const auto drag = [&](QPointF by, Qt::KeyboardModifiers modifiers) {
        QWidget* viewport = view.viewport();
        const QPoint from = view.mapFromScene(positionOf(document, server));
        QTest::mousePress(viewport, Qt::LeftButton, {}, from);
        for (int step = 1; step <= 4; ++step)
            QTest::mouseMove(viewport, from + (by * step / 4).toPoint());
        QTest::mouseRelease(viewport, Qt::LeftButton, modifiers, from + by.toPoint());
        return view.mapToScene(from + by.toPoint()) - view.mapToScene(from);
    };

    const int before = document.undoStack()->count();
    const QPointF moved = drag(QPointF(97, 43), Qt::NoModifier);
    QCOMPARE(document.undoStack()->count(), before + 1);
    // The dragged node lands on the grid: (20, 480) + (97, 43) snaps to (120, 520).
    QCOMPARE(positionOf(document, server), CanvasGestures::snapped(start + moved, Qt::NoModifier));
    QCOMPARE(positionOf(document, server), QPointF(120, 520));
    QCOMPARE(view.topologyScene().nodeItem(server)->pos(), QPointF(120, 520));
    QCOMPARE(view.selectedNodes(), QList<NodeId>{server});

    document.undoStack()->undo();
    QCOMPARE(positionOf(document, server), start);
    QCOMPARE(view.topologyScene().nodeItem(server)->pos(), start);
}

void tst_TopologyScene::linkDragConnectsOrSaysWhyNot() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document, "leaf-spine", 16), QString());
    CanvasView view(document);
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy messages(&view, &CanvasView::message);
    view.setTool(CanvasTool::Link);
    QCOMPARE(view.tool(), CanvasTool::Link);
    view.resetZoom();

    const auto wire = [&](NodeId a, NodeId b) {
        view.centerOn((positionOf(document, a) + positionOf(document, b)) / 2);
        const QPoint from = view.mapFromScene(positionOf(document, a));
        const QPoint to = view.mapFromScene(positionOf(document, b));
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(view.viewport(), (from + to) / 2);
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, to);
    };

    // srv-1 already uses all 8 NICs: refused, with the document's sentence.
    const int before = document.undoStack()->count();
    wire(named(document, "srv-1"), named(document, "spine-1"));
    QCOMPARE(document.undoStack()->count(), before);
    QVERIFY(!messages.isEmpty());
    QVERIFY(messages.last().at(0).toString().contains(QStringLiteral("srv-1 has no free NIC")));

    const NodeId leaf = document.addNode(NodeKind::Leaf, QPointF(1000, 320));
    const NodeId server = document.addNode(NodeKind::Server, QPointF(1000, 480));
    const std::size_t links = view.topologyScene().linkItemCount();
    wire(server, leaf);
    QCOMPARE(document.undoStack()->count(), before + 3);
    QCOMPARE(view.topologyScene().linkItemCount(), links + 1);
}

void tst_TopologyScene::deleteAndDuplicateSelection() {
    TopologyDocument document(Catalog::builtin());
    document.adopt(generated(document, "leaf-spine", 16), QString());
    CanvasView view(document);
    TopologyScene& scene = view.topologyScene();
    const NodeId server = named(document, "srv-1");

    scene.selectNodes({server});
    view.duplicateSelection();
    QCOMPARE(scene.nodeItemCount(), std::size_t{27});
    const QList<NodeId> copies = view.selectedNodes();
    QCOMPARE(copies.size(), 1);
    QVERIFY(copies.first() != server);
    QCOMPARE(positionOf(document, copies.first()), positionOf(document, server) + QPointF(40, 40));

    // The copy has no links; deleting srv-1 takes its 8 links along, in one step.
    scene.selectNodes({server});
    const int before = document.undoStack()->count();
    view.deleteSelection();
    QCOMPARE(document.undoStack()->count(), before + 1);
    QCOMPARE(countsOf(scene), (Counts{26, 0, 144 - 8, 1}));
    document.undoStack()->undo();
    QCOMPARE(countsOf(scene), (Counts{27, 0, 144, 1}));
}

void tst_TopologyScene::placingANodeSaysWhatItGot_data() {
    QTest::addColumn<QString>("setup"); ///< "empty", "generated" or "gb200"
    QTest::addColumn<int>("tool");      ///< a CanvasTool
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("nics");
    QTest::addColumn<double>("nicGbps");
    QTest::addColumn<QString>("message");

    // No generator, no workload: the catalog's H100 (8 GPUs, one NIC each) at the default
    // fabric's (IB NDR) 400G.
    QTest::newRow("server in an empty design")
        << "empty" << int(CanvasTool::Server) << 8 << 8 << 400.0
        << "srv-1 placed: 8 GPUs, 8 × 400 Gb/s NICs — edit in the Inspector";
    // A generator of 4 x 200G NICs per server: the new server is one more of its kind.
    QTest::newRow("server in a generated design")
        << "generated" << int(CanvasTool::Server) << 8 << 4 << 200.0
        << "srv-17 placed: 8 GPUs, 4 × 200 Gb/s NICs — edit in the Inspector";
    // A GB200 workload on IB XDR: one NVL72 rack is one server, 72 GPUs with a NIC each.
    QTest::newRow("server for a GB200 workload on XDR")
        << "gb200" << int(CanvasTool::Server) << 72 << 72 << 800.0
        << "srv-1 placed: 72 GPUs, 72 × 800 Gb/s NICs — edit in the Inspector";
    // The Rack tool places an NVLink rack whatever the workload: GB200 NVL72 without one
    // (72 GPUs, a NIC each, at IB NDR's 400G), the workload's rack-scale GPU with one.
    QTest::newRow("rack in an empty design")
        << "empty" << int(CanvasTool::Rack) << 72 << 72 << 400.0
        << "srv-1 placed: 72 GPUs, 72 × 400 Gb/s NICs — edit in the Inspector";
    QTest::newRow("rack for a GB200 workload on XDR")
        << "gb200" << int(CanvasTool::Rack) << 72 << 72 << 800.0
        << "srv-1 placed: 72 GPUs, 72 × 800 Gb/s NICs — edit in the Inspector";
    QTest::newRow("leaf in an empty design") << "empty" << int(CanvasTool::Leaf) << 0 << 0 << 0.0
                                             << "leaf-1 placed: 64 ports × 400 Gb/s — edit in "
                                                "the Inspector";
}

void tst_TopologyScene::placingANodeSaysWhatItGot() {
    QFETCH(QString, setup);
    QFETCH(int, tool);
    const bool server = tool != int(CanvasTool::Leaf);
    QFETCH(int, gpus);
    QFETCH(int, nics);
    QFETCH(double, nicGbps);
    QFETCH(QString, message);
    TopologyDocument document(Catalog::builtin());
    if (setup == QStringLiteral("generated")) {
        fabriclab::model::Design design = document.design();
        fabriclab::model::GeneratorParams params;
        params.servers = 16;
        params.nicsPerServer = 4;
        params.nicSpeed = fabriclab::model::Gbps(200);
        design.generator = params;
        design.topology = fabriclab::model::generate(params);
        document.adopt(design, QString());
    } else if (setup == QStringLiteral("gb200")) {
        fabriclab::model::Design design = document.design();
        design.fabric = {*Catalog::builtin().findFabric("ib-xdr"), false};
        fabriclab::model::Workload workload;
        workload.model = {*Catalog::builtin().findModel("llama3-70b"), false};
        workload.gpu = {*Catalog::builtin().findGpu("gb200"), false};
        design.workload = workload;
        document.adopt(design, QString());
    }
    CanvasView view(document);
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setTool(static_cast<CanvasTool>(tool));
    QSignalSpy messages(&view, &CanvasView::message);
    const auto before = document.topology().nodes().size();

    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(400, 300));
    QCOMPARE(document.topology().nodes().size(), before + 1);
    QCOMPARE(messages.count(), 1);
    QCOMPARE(messages.last().at(0).toString(), message);
    const auto& placed = document.topology().node(view.selectedNodes().value(0));
    if (server) {
        QCOMPARE(placed.server.gpus, gpus);
        QCOMPARE(placed.server.nics, nics);
        QCOMPARE(placed.server.nicSpeed.value, nicGbps);
    }
}

QTEST_MAIN(tst_TopologyScene)
#include "tst_TopologyScene.moc"
