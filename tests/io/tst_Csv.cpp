// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The one CSV writer: fields quoted exactly where RFC 4180 needs it, records ended by CRLF,
// numbers without thousands separators, and a record of the wrong width refused.
#include "model/io/Csv.hpp"

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

QTEST_APPLESS_MAIN(tst_Csv)
#include "tst_Csv.moc"
