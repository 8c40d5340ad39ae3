// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The one CSV writer: fields quoted exactly where RFC 4180 needs it, records ended by CRLF,
// numbers without thousands separators, and a record of the wrong width refused.
#include "model/io/Csv.hpp"
#include "model/io/JsonTable.hpp"

#include <QtTest>

#include <stdexcept>

using fabriclab::model::CsvWriter;

class tst_Csv : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fieldsAreQuotedWhereTheyMust_data();
    void fieldsAreQuotedWhereTheyMust();
    void numbers_data();
    void numbers();
    void recordsEndWithCrlfAndKeepTheirWidth();
    void jsonRowsBecomeOneTable();
    void jsonObjectBecomesKeysAndValues();
};

void tst_Csv::fieldsAreQuotedWhereTheyMust_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("field");
    QTest::newRow("plain") << "leaf switch"
                           << "leaf switch";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("comma") << "64 x 400G, 25.6 Tb/s"
                           << "\"64 x 400G, 25.6 Tb/s\"";
    QTest::newRow("quote") << "19\" rack"
                           << "\"19\"\" rack\"";
    QTest::newRow("line feed") << "a\nb"
                               << "\"a\nb\"";
    QTest::newRow("carriage return") << "a\rb"
                                     << "\"a\rb\"";
    // JSON in a cell, the case the chart export's summary got wrong: quoted, quotes doubled.
    QTest::newRow("json") << "{\"a\": 1, \"b\": 2}"
                          << "\"{\"\"a\"\": 1, \"\"b\"\": 2}\"";
    QTest::newRow("unicode") << "Spectrum-X · 800G"
                             << "Spectrum-X · 800G";
}

void tst_Csv::fieldsAreQuotedWhereTheyMust() {
    QFETCH(QString, value);
    QFETCH(QString, field);
    QCOMPARE(QString::fromStdString(CsvWriter::field(value.toStdString())), field);
}

void tst_Csv::numbers_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<QString>("text");
    QTest::newRow("whole") << 236226560.0 << 2 << "236226560";
    QTest::newRow("cents") << 2647.5 << 2 << "2647.5";
    QTest::newRow("rounded") << 0.100725 << 4 << "0.1007";
    QTest::newRow("negative zero") << -0.0001 << 2 << "0";
    QTest::newRow("not a number") << std::nan("") << 2 << "";
}

void tst_Csv::numbers() {
    QFETCH(double, value);
    QFETCH(int, decimals);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(CsvWriter::number(value, decimals)), text);
}

void tst_Csv::recordsEndWithCrlfAndKeepTheirWidth() {
    CsvWriter csv({"part", "quantity"});
    csv.row({"QM9700, NDR", "16"});
    QCOMPARE(QString::fromStdString(csv.text()),
             QStringLiteral("part,quantity\r\n\"QM9700, NDR\",16\r\n"));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, csv.row({"one field"}));
}

void tst_Csv::jsonRowsBecomeOneTable() {
    // Two rows that share some leaves: leading columns first, then the others in the order
    // first met; a leaf a row lacks is empty; a list of strings is one field, a list of
    // objects no column; strings with commas and quotes quoted; null empty.
    const auto rows = std::vector<nlohmann::ordered_json>{
        nlohmann::ordered_json::parse(R"({"gpus": 64, "cost": {"capexUsd": 474600.5,
            "bom": [{"part": "qm9700"}]}, "warnings": ["a", "b, c"], "fabric": "ib-ndr"})"),
        nlohmann::ordered_json::parse(R"({"fabric": "roce \"v2\"", "error": null,
            "recommended": true, "extra": {"deep": {"leaf": 1e-3}}})")};
    QCOMPARE(
        QString::fromStdString(fabriclab::model::jsonRowsToCsv(rows, {"fabric", "missing"})),
        QStringLiteral("fabric,gpus,cost.capexUsd,warnings,error,recommended,extra.deep.leaf\r\n"
                       "ib-ndr,64,474600.5,\"a; b, c\",,,\r\n"
                       "\"roce \"\"v2\"\"\",,,,,true,0.001\r\n"));
    // No rows: an empty header line, still one record.
    QCOMPARE(QString::fromStdString(fabriclab::model::jsonRowsToCsv({})), QStringLiteral("\r\n"));
}

void tst_Csv::jsonObjectBecomesKeysAndValues() {
    // Every leaf kept, lists numbered from 1, so the chart export's summary loses nothing.
    const auto object = nlohmann::ordered_json::parse(
        R"({"cost": {"bom": [{"part": "qm9700", "quantity": 2}]}, "notes": ["x"], "n": null})");
    QCOMPARE(QString::fromStdString(fabriclab::model::jsonToKeyValueCsv(object)),
             QStringLiteral("key,value\r\ncost.bom.1.part,qm9700\r\ncost.bom.1.quantity,2\r\n"
                            "notes.1,x\r\nn,\r\n"));
}

QTEST_APPLESS_MAIN(tst_Csv)
#include "tst_Csv.moc"
