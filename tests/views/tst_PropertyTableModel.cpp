// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The inspector's table: every accepted edit is one undo step that undo reverses exactly
// (compared as saved JSON); a refused value changes nothing and says why; a multi-
// selection is a read-only summary; ids that leave the design leave the selection.
#include "model/catalog/Catalog.hpp"
#include "model/io/DesignFile.hpp"
#include "views/document/TopologyDocument.hpp"
#include "views/models/PropertyTableModel.hpp"
#include "views/panels/InspectorPanel.hpp"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QUndoStack>
#include <QtTest>

using fabriclab::model::Catalog;
using fabriclab::model::LinkId;
using fabriclab::model::NodeId;
using fabriclab::views::PropertyTableModel;
using fabriclab::views::TopologyDocument;

namespace {

// 1,024 GPUs: 128 servers x 8 NICs on 16 rail leaves (SN5600 at 400G: radix 128, 64 down
// + 64 up) under 8 spines. Every port of a leaf and every NIC of a server is in use.
const char* const kSample = FABRICLAB_SOURCE_DIR "/samples/spectrum-x-1024gpu-rail.fabric.json";

std::string snapshot(const TopologyDocument& document) {
    return fabriclab::model::serializeDesign(document.design());
}

NodeId node(const TopologyDocument& document, const char* name) {
    return *document.topology().findNode(name);
}

LinkId linkBetween(const TopologyDocument& document, const char* a, const char* b) {
    const NodeId na = node(document, a);
    const NodeId nb = node(document, b);
    for (const auto& [id, link] : document.topology().links())
        if ((link.a == na && link.b == nb) || (link.a == nb && link.b == na))
            return id;
    return LinkId{};
}

/// The value cell of the row labelled `label`; invalid when there is none.
QModelIndex valueOf(const PropertyTableModel& model, const QString& label) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, PropertyTableModel::PropertyColumn).data().toString() == label)
            return model.index(row, PropertyTableModel::ValueColumn);
    return {};
}

} // namespace

class tst_PropertyTableModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void editIsOneUndoStep_data();
    void editIsOneUndoStep();
    void refusedValueChangesNothing_data();
    void refusedValueChangesNothing();
    void unchangedValuePushesNothing();
    void multiSelectionIsAReadOnlySummary();
    void removedIdsLeaveTheSelection();
    void followsUndo();
    void serverShowsItsNicsPlainly();
    void refusalNamesFieldValueAndRange_data();
    void refusalNamesFieldValueAndRange();
    void inspectorSaysWhyATypedValueIsRefused_data();
    void inspectorSaysWhyATypedValueIsRefused();

private:
    std::unique_ptr<TopologyDocument> m_document;
    std::unique_ptr<PropertyTableModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void tst_PropertyTableModel::init() {
    m_document = std::make_unique<TopologyDocument>(Catalog::builtin());
    m_document->load(QString::fromUtf8(kSample));
    m_model = std::make_unique<PropertyTableModel>(*m_document);
    m_tester = std::make_unique<QAbstractItemModelTester>(
        m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
}

void tst_PropertyTableModel::cleanup() {
    m_tester.reset();
    m_model.reset();
    m_document.reset();
}

void tst_PropertyTableModel::editIsOneUndoStep_data() {
    QTest::addColumn<QString>("item"); // a node name, or "a|b" for the link between two
    QTest::addColumn<QString>("label");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("shown");
    QTest::newRow("leaf radix 128 -> 256") << "leaf-1"
                                           << "Radix (ports)" << QVariant(256) << "256";
    QTest::newRow("leaf renamed") << "leaf-1"
                                  << "Name" << QVariant(QStringLiteral("rail-0-a")) << "rail-0-a";
    QTest::newRow("server GPUs 8 -> 4") << "srv-1"
                                        << "GPUs" << QVariant(4) << "4";
    QTest::newRow("server NICs 8 -> 16") << "srv-1"
                                         << "NICs" << QVariant(16) << "16";
    QTest::newRow("link medium") << "srv-1|leaf-1"
                                 << "Medium" << QVariant(QStringLiteral("Optics")) << "Optics";
    QTest::newRow("link length") << "srv-1|leaf-1"
                                 << "Length (m)" << QVariant(12.5) << "12.5";
    QTest::newRow("link speed") << "srv-1|leaf-1"
                                << "Speed (Gb/s)" << QVariant(200.0) << "200";
}

void tst_PropertyTableModel::editIsOneUndoStep() {
    QFETCH(QString, item);
    QFETCH(QString, label);
    QFETCH(QVariant, value);
    QFETCH(QString, shown);
    if (item.contains(QLatin1Char('|'))) {
        const QStringList ends = item.split(QLatin1Char('|'));
        m_model->setSelection({},
                              {linkBetween(*m_document, qPrintable(ends[0]), qPrintable(ends[1]))});
    } else {
        m_model->setSelection({node(*m_document, qPrintable(item))}, {});
    }
    const std::string before = snapshot(*m_document);
    const QModelIndex cell = valueOf(*m_model, label);
    QVERIFY2(cell.isValid(), qPrintable(label));
    const QString original = cell.data().toString();
    QVERIFY(cell.flags() & Qt::ItemIsEditable);

    QVERIFY(m_model->setData(cell, value));
    QCOMPARE(m_document->undoStack()->count(), 1);
    QCOMPARE(valueOf(*m_model, label).data().toString(), shown);
    QVERIFY(snapshot(*m_document) != before);

    m_document->undoStack()->undo();
    QCOMPARE(snapshot(*m_document), before);
    QCOMPARE(valueOf(*m_model, label).data().toString(), original);
}

void tst_PropertyTableModel::refusedValueChangesNothing_data() {
    QTest::addColumn<QString>("item");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QVariant>("value");
    QTest::newRow("radix 0") << "leaf-1"
                             << "Radix (ports)" << QVariant(0);
    QTest::newRow("radix negative") << "leaf-1"
                                    << "Radix (ports)" << QVariant(-4);
    // leaf-1 has 64 servers below and 64 spine cables above: 128 ports in use.
    QTest::newRow("radix 127 below 128 ports in use") << "leaf-1"
                                                      << "Radix (ports)" << QVariant(127);
    QTest::newRow("radix not whole") << "leaf-1"
                                     << "Radix (ports)" << QVariant(128.5);
    QTest::newRow("port speed 0") << "leaf-1"
                                  << "Port speed (Gb/s)" << QVariant(0.0);
    QTest::newRow("duplicate name") << "leaf-1"
                                    << "Name" << QVariant(QStringLiteral("leaf-2"));
    QTest::newRow("empty name") << "leaf-1"
                                << "Name" << QVariant(QStringLiteral("  "));
    QTest::newRow("GPUs 0") << "srv-1"
                            << "GPUs" << QVariant(0);
    // srv-1 cables one NIC to each of its unit's 8 rail leaves.
    QTest::newRow("NICs 7 below 8 in use") << "srv-1"
                                           << "NICs" << QVariant(7);
    QTest::newRow("NIC speed negative") << "srv-1"
                                        << "NIC speed (Gb/s)" << QVariant(-400.0);
    QTest::newRow("link speed not a number") << "srv-1|leaf-1"
                                             << "Speed (Gb/s)" << QVariant(QStringLiteral("fast"));
    QTest::newRow("link length 0") << "srv-1|leaf-1"
                                   << "Length (m)" << QVariant(0.0);
    QTest::newRow("cables 0") << "srv-1|leaf-1"
                              << "Cables" << QVariant(0);
    // Every NIC of srv-1 is in use, so a second cable to leaf-1 has no port.
    QTest::newRow("cables beyond free ports") << "srv-1|leaf-1"
                                              << "Cables" << QVariant(2);
    QTest::newRow("unknown medium") << "srv-1|leaf-1"
                                    << "Medium" << QVariant(QStringLiteral("carrier pigeon"));
}

void tst_PropertyTableModel::refusedValueChangesNothing() {
    QFETCH(QString, item);
    QFETCH(QString, label);
    QFETCH(QVariant, value);
    if (item.contains(QLatin1Char('|'))) {
        const QStringList ends = item.split(QLatin1Char('|'));
        m_model->setSelection({},
                              {linkBetween(*m_document, qPrintable(ends[0]), qPrintable(ends[1]))});
    } else {
        m_model->setSelection({node(*m_document, qPrintable(item))}, {});
    }
    const std::string before = snapshot(*m_document);
    QSignalSpy refused(m_model.get(), &PropertyTableModel::refused);
    const QModelIndex cell = valueOf(*m_model, label);
    QVERIFY2(cell.isValid(), qPrintable(label));
    const QString shown = cell.data().toString();

    QVERIFY(!m_model->setData(cell, value));
    QCOMPARE(refused.count(), 1);
    QVERIFY(!refused.front().front().toString().isEmpty());
    QCOMPARE(m_document->undoStack()->count(), 0);
    QCOMPARE(snapshot(*m_document), before);
    QCOMPARE(valueOf(*m_model, label).data().toString(), shown);
}

void tst_PropertyTableModel::unchangedValuePushesNothing() {
    // An editor that closes without a change must not leave an empty step in Edit > Undo.
    m_model->setSelection({node(*m_document, "leaf-1")}, {});
    QVERIFY(m_model->setData(valueOf(*m_model, QStringLiteral("Radix (ports)")), 128));
    QVERIFY(m_model->setData(valueOf(*m_model, QStringLiteral("Name")), QStringLiteral("leaf-1")));
    QCOMPARE(m_document->undoStack()->count(), 0);
}

void tst_PropertyTableModel::multiSelectionIsAReadOnlySummary() {
    m_model->setSelection(
        {node(*m_document, "srv-1"), node(*m_document, "srv-2"), node(*m_document, "leaf-1")},
        {linkBetween(*m_document, "srv-1", "leaf-1")});
    QCOMPARE(m_model->title(), QStringLiteral("3 nodes, 1 link"));
    QCOMPARE(valueOf(*m_model, QStringLiteral("Servers")).data().toString(), QStringLiteral("2"));
    QCOMPARE(valueOf(*m_model, QStringLiteral("Leaves")).data().toString(), QStringLiteral("1"));
    QCOMPARE(valueOf(*m_model, QStringLiteral("GPUs")).data().toString(), QStringLiteral("16"));
    QCOMPARE(valueOf(*m_model, QStringLiteral("Cables")).data().toString(), QStringLiteral("1"));
    QVERIFY(!valueOf(*m_model, QStringLiteral("Spines")).isValid()); // no spine selected
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const QModelIndex cell = m_model->index(row, PropertyTableModel::ValueColumn);
        QVERIFY(!(cell.flags() & Qt::ItemIsEditable));
        QVERIFY(!m_model->setData(cell, 1));
    }
}

void tst_PropertyTableModel::removedIdsLeaveTheSelection() {
    const NodeId leaf = node(*m_document, "leaf-1");
    const NodeId server = node(*m_document, "srv-1");
    m_model->setSelection({leaf, server}, {});
    m_document->remove({leaf}, {});
    QCOMPARE(m_model->selectedNodes(), QList<NodeId>{server});
    QCOMPARE(valueOf(*m_model, QStringLiteral("Name")).data().toString(), QStringLiteral("srv-1"));
    // srv-1 lost its cable to leaf-1: 7 of 8 NICs in use now.
    QCOMPARE(valueOf(*m_model, QStringLiteral("Ports used")).data().toString(),
             QStringLiteral("7"));
    m_document->remove({server}, {});
    QCOMPARE(m_model->rowCount(), 0);
    QVERIFY(m_model->title().isEmpty());
}

void tst_PropertyTableModel::followsUndo() {
    // An edit made elsewhere (the canvas) shows here, and so does its undo.
    const NodeId leaf = node(*m_document, "leaf-1");
    m_model->setSelection({leaf}, {});
    auto changed = m_document->topology().node(leaf);
    changed.sw.radix = 160;
    m_document->editNode(leaf, changed);
    QCOMPARE(valueOf(*m_model, QStringLiteral("Radix (ports)")).data().toString(),
             QStringLiteral("160"));
    QCOMPARE(valueOf(*m_model, QStringLiteral("Ports free")).data().toString(),
             QStringLiteral("32"));
    m_document->undoStack()->undo();
    QCOMPARE(valueOf(*m_model, QStringLiteral("Radix (ports)")).data().toString(),
             QStringLiteral("128"));
    QCOMPARE(valueOf(*m_model, QStringLiteral("Ports free")).data().toString(),
             QStringLiteral("0"));
}

void tst_PropertyTableModel::serverShowsItsNicsPlainly() {
    // A placed server's NICs come from the generator or the catalog: the inspector must
    // make them plain, with what they add up to, and follow an edit of either.
    const NodeId server = node(*m_document, "srv-1");
    m_model->setSelection({server}, {});
    const QModelIndex bandwidth = valueOf(*m_model, QStringLiteral("Fabric bandwidth"));
    QVERIFY(bandwidth.isValid());
    // 8 NICs x 400G.
    QCOMPARE(bandwidth.data().toString(), QStringLiteral("8 × 400 Gb/s = 3,200 Gb/s"));
    QVERIFY(!(bandwidth.flags() & Qt::ItemIsEditable));
    const QModelIndex nics = valueOf(*m_model, QStringLiteral("NICs"));
    QVERIFY2(nics.data(Qt::ToolTipRole).toString().contains(QStringLiteral("8 of 8 cabled")),
             qPrintable(nics.data(Qt::ToolTipRole).toString()));
    QCOMPARE(nics.siblingAtColumn(PropertyTableModel::PropertyColumn).data(Qt::ToolTipRole),
             nics.data(Qt::ToolTipRole));

    QVERIFY(m_model->setData(valueOf(*m_model, QStringLiteral("NIC speed (Gb/s)")), 800));
    QCOMPARE(valueOf(*m_model, QStringLiteral("Fabric bandwidth")).data().toString(),
             QStringLiteral("8 × 800 Gb/s = 6,400 Gb/s"));
}

void tst_PropertyTableModel::refusalNamesFieldValueAndRange_data() {
    QTest::addColumn<QString>("item");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QStringList>("named"); // the field, the value and the range's ends
    const QStringList gpus{QStringLiteral("GPUs"), QStringLiteral("1"), QStringLiteral("1,024")};
    QTest::newRow("GPUs -5") << "srv-1"
                             << "GPUs" << QVariant(-5) << (gpus + QStringList{"-5"});
    QTest::newRow("GPUs 0") << "srv-1"
                            << "GPUs" << QVariant(0) << (gpus + QStringList{"0"});
    QTest::newRow("GPUs 99999") << "srv-1"
                                << "GPUs" << QVariant(99999) << (gpus + QStringList{"99,999"});
    QTest::newRow("GPUs 2.5") << "srv-1"
                              << "GPUs" << QVariant(2.5) << (gpus + QStringList{"2.5", "whole"});
    // The ranges are the design file's (model::limits), narrowed by the cables in use.
    QTest::newRow("radix 99999") << "leaf-1"
                                 << "Radix (ports)" << QVariant(99999)
                                 << QStringList{"Radix", "99,999", "128", "4,096"};
    QTest::newRow("radix below the ports in use")
        << "leaf-1"
        << "Radix (ports)" << QVariant(127)
        << QStringList{"Radix", "127", "128", "4,096", "leaf-1"};
    QTest::newRow("NIC speed 5000") << "srv-1"
                                    << "NIC speed (Gb/s)" << QVariant(5000.0)
                                    << QStringList{"NIC speed", "5,000", "1", "3,200 Gb/s"};
    QTest::newRow("cables beyond free ports")
        << "srv-1|leaf-1"
        << "Cables" << QVariant(2) << QStringList{"Cables", "2", "free port"};
}

void tst_PropertyTableModel::refusalNamesFieldValueAndRange() {
    QFETCH(QString, item);
    QFETCH(QString, label);
    QFETCH(QVariant, value);
    QFETCH(QStringList, named);
    if (item.contains(QLatin1Char('|'))) {
        const QStringList ends = item.split(QLatin1Char('|'));
        m_model->setSelection({},
                              {linkBetween(*m_document, qPrintable(ends[0]), qPrintable(ends[1]))});
    } else {
        m_model->setSelection({node(*m_document, qPrintable(item))}, {});
    }
    const std::string before = snapshot(*m_document);
    QSignalSpy refused(m_model.get(), &PropertyTableModel::refused);
    QVERIFY(!m_model->setData(valueOf(*m_model, label), value));
    QCOMPARE(refused.count(), 1);
    const QString reason = refused.front().front().toString();
    for (const QString& part : named)
        QVERIFY2(reason.contains(part), qPrintable(part + QStringLiteral(" not in: ") + reason));
    QVERIFY2(reason.contains(QStringLiteral("unchanged")), qPrintable(reason));
    QCOMPARE(snapshot(*m_document), before);
}

void tst_PropertyTableModel::inspectorSaysWhyATypedValueIsRefused_data() {
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("shown"); // the value as the refusal names it
    QTest::newRow("-5") << "-5"
                        << "-5";
    QTest::newRow("0") << "0"
                       << "0";
    QTest::newRow("99999") << "99999"
                           << "99,999";
}

void tst_PropertyTableModel::inspectorSaysWhyATypedValueIsRefused() {
    // As a user does it: type into the GPU cell's editor and press Enter. The value snaps
    // back, and the panel says which field refused which value and what it takes.
    QFETCH(QString, typed);
    QFETCH(QString, shown);
    fabriclab::views::InspectorPanel panel(*m_document);
    panel.resize(400, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setSelection({node(*m_document, "srv-1")}, {});
    auto* table = panel.findChild<QTableView*>(QStringLiteral("propertyTable"));
    QVERIFY(table);
    const QModelIndex cell = valueOf(*panel.model(), QStringLiteral("GPUs"));
    const std::string before = snapshot(*m_document);
    table->setCurrentIndex(cell);
    table->edit(cell);
    auto* editor = table->findChild<QSpinBox*>();
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, typed);
    QSignalSpy refused(panel.model(), &PropertyTableModel::refused);
    QTest::keyClick(editor, Qt::Key_Return);
    QTRY_COMPARE(refused.count(), 1); // the delegate commits on the next turn of the loop
    QCOMPARE(snapshot(*m_document), before);
    QCOMPARE(valueOf(*panel.model(), QStringLiteral("GPUs")).data().toString(),
             QStringLiteral("8"));
    auto* refusal = panel.findChild<QLabel*>(QStringLiteral("refusalLabel"));
    QVERIFY(refusal);
    QVERIFY(refusal->isVisible());
    for (const QString& part : {QStringLiteral("GPUs"), shown, QStringLiteral("1,024")})
        QVERIFY2(refusal->text().contains(part),
                 qPrintable(part + QStringLiteral(" not in: ") + refusal->text()));
}

QTEST_MAIN(tst_PropertyTableModel)
#include "tst_PropertyTableModel.moc"
