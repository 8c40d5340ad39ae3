// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The canvas following the user's zoom on a large design: zooming into a unit opens it and
// zooming back out closes it, the items drawn stay bounded at each zoom, bundle labels
// never overlap and more of them show as the user zooms in, and a bundle's playback
// colour carries its worst link with the mean beside it. Runs offscreen.
#include "model/catalog/Catalog.hpp"
#include "model/sim/Playback.hpp"
#include "views/canvas/CanvasView.hpp"
#include "views/canvas/LinkItem.hpp"
#include "views/canvas/LinkNoteItem.hpp"
#include "views/canvas/TopologyScene.hpp"
#include "views/document/TopologyDocument.hpp"

#include <QtTest>

#include <memory>

using namespace fabriclab;
using views::CanvasView;
using views::TopologyDocument;

namespace {

const QString k1024 =
    QStringLiteral(FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json");

/// The scene boxes of the labels shown, at the view's scale.
QList<QRectF> shownLabelBoxes(const views::TopologyScene& scene, double scale) {
    QList<QRectF> boxes;
    for (QGraphicsItem* item : scene.items())
        if (item->type() == views::LinkNoteItem::Type && item->isVisible()) {
            const QRectF device = item->boundingRect();
            boxes << QRectF(item->pos() + device.topLeft() / scale, device.size() / scale);
        }
    return boxes;
}

} // namespace

class tst_CanvasZoom : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void zoomingInOpensAUnitAndOutClosesIt();
    void bundleLabelsNeverOverlap();
    void bundleHeatIsWorstWithMean();

private:
    // Every case starts from the 1,024-GPU sample, opened and fitted in a 1200 x 700 view.
    std::unique_ptr<TopologyDocument> m_document;
    std::unique_ptr<CanvasView> m_view;
};

void tst_CanvasZoom::init() {
    m_document = std::make_unique<TopologyDocument>(model::Catalog::builtin());
    m_document->load(k1024);
    m_view = std::make_unique<CanvasView>(*m_document);
    m_view->resize(1200, 700);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    m_view->fitAll();
}

void tst_CanvasZoom::cleanup() {
    m_view.reset();
    m_document.reset();
}

void tst_CanvasZoom::zoomingInOpensAUnitAndOutClosesIt() {
    CanvasView& view = *m_view;
    auto& scene = view.topologyScene();
    QCOMPARE(int(scene.collapsedGroups().size()), 2); // unit 1 and unit 2
    const std::size_t nodesAtFit = scene.nodeItemCount();
    const model::GroupKey unit = *scene.collapsedGroups().begin();
    const model::GroupKey other = *std::next(scene.collapsedGroups().begin());
    view.centerOn(scene.groupRect(unit)->center());
    int notches = 0;
    while (scene.isCollapsed(unit) && notches < 30) {
        view.centerOn(scene.groupRect(unit)->center());
        view.zoomIn();
        ++notches;
    }
    QVERIFY2(!scene.isCollapsed(unit), "zooming into a unit should open it");
    QVERIFY(notches > 1); // not on the first notch: the unit must fill the view first
    // Bounded: one unit's 64 servers and its 8 leaves more, not the design's 1,200 nodes.
    QVERIFY(scene.nodeItemCount() <= nodesAtFit + 64 + 8);
    QVERIFY(scene.isCollapsed(other)); // only the unit in view opens
    for (int i = 0; i < 40 && !scene.isCollapsed(unit); ++i)
        view.zoomOut();
    QVERIFY2(scene.isCollapsed(unit), "zooming back out should close what zooming opened");
    QCOMPARE(scene.nodeItemCount(), nodesAtFit);
}

void tst_CanvasZoom::bundleLabelsNeverOverlap() {
    CanvasView& view = *m_view;
    auto& scene = view.topologyScene();
    QCOMPARE(scene.bundleLabelCount(), std::size_t{16}); // 2 units x 8 spines
    const std::size_t atFit = scene.visibleBundleLabelCount();
    QVERIFY(atFit >= 1);
    QVERIFY(atFit < scene.bundleLabelCount()); // the crowd is thinned, not drawn over
    const auto check = [&] {
        const auto boxes = shownLabelBoxes(scene, view.transform().m11());
        for (int i = 0; i < boxes.size(); ++i)
            for (int j = i + 1; j < boxes.size(); ++j)
                QVERIFY(!boxes[i].intersects(boxes[j]));
    };
    check();
    view.resetZoom(); // far closer than the fit: room for more labels
    QVERIFY(scene.visibleBundleLabelCount() >= atFit);
    check();
}

void tst_CanvasZoom::bundleHeatIsWorstWithMean() {
    views::TopologyScene& scene = m_view->topologyScene();
    // A bundle of several links: half at 100%, half idle.
    const views::LinkItem* bundle = nullptr;
    std::vector<model::LinkId> links;
    for (QGraphicsItem* item : scene.items())
        if (const auto* link = qgraphicsitem_cast<const views::LinkItem*>(item)) {
            const auto found = std::find_if(scene.visibleGraph().edges.begin(),
                                            scene.visibleGraph().edges.end(), [&](const auto& e) {
                                                return views::EdgeKey{e.a, e.b} == link->key();
                                            });
            if (found != scene.visibleGraph().edges.end() && found->links.size() >= 4) {
                bundle = link;
                links = found->links;
                break;
            }
        }
    QVERIFY(bundle);
    std::unordered_map<std::uint32_t, float> heat;
    for (std::size_t i = 0; i < links.size() / 2; ++i)
        heat[links[i].value] = 1.0f;
    scene.setLinkHeat(heat, sim::Playback::kSaturated);
    QCOMPARE(bundle->heat(), 1.0f);
    QCOMPARE(bundle->meanHeat(), float(links.size() / 2) / float(links.size()));
}

QTEST_MAIN(tst_CanvasZoom)
#include "tst_CanvasZoom.moc"
