// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The verdict on a fabric comparison. Every expected verdict is worked out by hand beside
// its row from the rules in FabricVerdict.cpp: under 10% communication-to-compute on the
// cheapest fabric it stands (article 000); otherwise a faster fabric wins when its saved
// GPU-hours x $/GPU-hour strictly exceed its capex premium (article 002's GPU-hour math).
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/advice/FabricVerdict.hpp"
#include "support/RelativeCompare.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#endif

using namespace fabriclab::model;

namespace {

// savedUsd is GPU-hours x $2.90, and 2.90 has no exact binary form, so the product may sit
// an ulp or two off the decimal hand value; 1e-9 relative is far below a cent at these sizes.
constexpr double kExact = 1e-9;

FabricOutcome outcome(const char* id, const char* name, int gpus, double capexUsd,
                      double stepSeconds, double commToCompute, double trainGpuHours,
                      double busBwGBps = 0) {
    FabricOutcome o;
    o.fabricId = id;
    o.fabricName = name;
    o.gpus = gpus;
    o.capexUsd = capexUsd;
    o.stepSeconds = stepSeconds;
    o.commToCompute = commToCompute;
    o.trainGpuHours = trainGpuHours;
    o.busBwGBps = busBwGBps;
    return o;
}

QString allText(const FabricVerdict& v) {
    QString text = QString::fromStdString(v.headline);
    for (const std::string& r : v.reasons)
        text += QLatin1Char('\n') + QString::fromStdString(r);
    return text;
}

#define VERIFY_SAYS(verdict, phrase)                                                               \
    QVERIFY2(allText(verdict).contains(QLatin1String(phrase)),                                     \
             qPrintable(QStringLiteral("missing \"%1\" in:\n%2")                                   \
                            .arg(QLatin1String(phrase), allText(verdict))))

} // namespace

class tst_FabricVerdict : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void twoFabrics_data();
    void twoFabrics();
    void threeFabrics_data();
    void threeFabrics();
    void sentencesCarryTheNumbers();
    void noWorkload_data();
    void noWorkload();
    void singleFabric();
    void emptyList();
    void ties();
    void zeroCapex();
    void nanFree();
    void scaleTier_data();
    void scaleTier();
};

void tst_FabricVerdict::twoFabrics_data() {
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("cheapCapex"); // RoCEv2, the cheaper fabric
    QTest::addColumn<double>("cheapStep");
    QTest::addColumn<double>("cheapComm");
    QTest::addColumn<double>("cheapHours");
    QTest::addColumn<double>("fastCapex"); // InfiniBand NDR, the dearer one
    QTest::addColumn<double>("fastStep");
    QTest::addColumn<double>("fastComm");
    QTest::addColumn<double>("fastHours");
    QTest::addColumn<double>("rate"); // $/GPU-hour
    QTest::addColumn<QString>("recommended");
    QTest::addColumn<double>("premium");
    QTest::addColumn<double>("saved");
    QTest::addColumn<QString>("challenger");
    QTest::addColumn<double>("breakEven");
    QTest::addColumn<int>("tier");

    // Article 000's 64-GPU capex ($175,136 vs $489,960 from the price catalog). 8% < 10%:
    // RoCE stands. 5,000 GPU-hours x $2.90 = $14,500 vs premium $314,824 (short anyway);
    // break-even 314,824 / 5,000 = $62.9648.
    QTest::newRow("8% share, small saving: RoCE")
        << 64 << 175136.0 << 10.0 << 0.08 << 100000.0 << 489960.0 << 9.5 << 0.03 << 95000.0 << 2.90
        << QStringLiteral("roce-v2") << 0.0 << 0.0 << QStringLiteral("ib-ndr") << 62.9648 << 0;
    // 9% < 10%: RoCE stands although 1,200,000 GPU-hours x $2.90 = $3,480,000 beats the
    // $3,000,000 premium on paper. Break-even 3,000,000 / 1,200,000 = $2.50.
    QTest::newRow("9% share, pays on paper: RoCE")
        << 2048 << 5.0e6 << 10.0 << 0.09 << 2.0e7 << 8.0e6 << 9.4 << 0.04 << 1.88e7 << 2.90
        << QStringLiteral("roce-v2") << 0.0 << 0.0 << QStringLiteral("ib-ndr") << 2.5 << 2;
    // 9.96% is still under 10%: the same verdict as the row above (the display rounds to 10%).
    QTest::newRow("9.96% share, pays on paper: RoCE")
        << 2048 << 5.0e6 << 10.0 << 0.0996 << 2.0e7 << 8.0e6 << 9.4 << 0.04 << 1.88e7 << 2.90
        << QStringLiteral("roce-v2") << 0.0 << 0.0 << QStringLiteral("ib-ndr") << 2.5 << 2;
    // 40% > 25%. 2,500,000 GPU-hours x $2.90 = $7,250,000 > premium 7,840,000 - 2,800,000
    // = $5,040,000: InfiniBand, $2,210,000 ahead. Break-even 5,040,000 / 2,500,000 = $2.016.
    QTest::newRow("40% share, large saving: InfiniBand")
        << 1024 << 2.8e6 << 14.0 << 0.40 << 1.0e7 << 7.84e6 << 10.5 << 0.20 << 7.5e6 << 2.90
        << QStringLiteral("ib-ndr") << 5.04e6 << 7.25e6 << QStringLiteral("ib-ndr") << 2.016 << 1;
    // 18%, gray zone. 200,000 x $2.90 = $580,000 < premium $2,520,000: RoCE.
    // Break-even 2,520,000 / 200,000 = $12.60.
    QTest::newRow("18% share, saving short of premium: RoCE")
        << 512 << 1.4e6 << 12.0 << 0.18 << 2.0e6 << 3.92e6 << 10.8 << 0.09 << 1.8e6 << 2.90
        << QStringLiteral("roce-v2") << 0.0 << 0.0 << QStringLiteral("ib-ndr") << 12.6 << 1;
    // 18%, gray zone. 1,000,000 x $2.90 = $2,900,000 > $2,520,000: InfiniBand.
    // Break-even 2,520,000 / 1,000,000 = $2.52.
    QTest::newRow("18% share, saving over premium: InfiniBand")
        << 512 << 1.4e6 << 12.0 << 0.18 << 4.0e6 << 3.92e6 << 9.0 << 0.09 << 3.0e6 << 2.90
        << QStringLiteral("ib-ndr") << 2.52e6 << 2.9e6 << QStringLiteral("ib-ndr") << 2.52 << 1;
    // 100,000 x $2.00 = $200,000 = premium exactly: the premium buys nothing, RoCE stays
    // (all figures exact in binary). Break-even $2.00, the rate given.
    QTest::addRow("saving equals premium: RoCE")
        << 256 << 1.0e6 << 10.0 << 0.30 << 1.0e6 << 1.2e6 << 9.0 << 0.15 << 900000.0 << 2.0
        << QStringLiteral("roce-v2") << 0.0 << 0.0 << QStringLiteral("ib-ndr") << 2.0 << 1;
    // 100,000.5 x $2.00 = $200,001, one dollar over the $200,000 premium: InfiniBand.
    // Break-even 200,000 / 100,000.5 = $1.99999000005.
    QTest::addRow("saving $1 over premium: InfiniBand")
        << 256 << 1.0e6 << 10.0 << 0.30 << 1.0e6 << 1.2e6 << 9.0 << 0.15 << 899999.5 << 2.0
        << QStringLiteral("ib-ndr") << 200000.0 << 200001.0 << QStringLiteral("ib-ndr")
        << 200000.0 / 100000.5 << 1;
    // Exactly 10% is not "under 10%", so the math decides: 200,000 x $2.90 = $580,000 >
    // $500,000: InfiniBand. Break-even 500,000 / 200,000 = $2.50. 128 GPUs is still tier 0.
    QTest::newRow("10% share exactly, pays: InfiniBand")
        << 128 << 1.0e6 << 10.0 << 0.10 << 1.0e6 << 1.5e6 << 9.0 << 0.05 << 800000.0 << 2.90
        << QStringLiteral("ib-ndr") << 500000.0 << 580000.0 << QStringLiteral("ib-ndr") << 2.5 << 0;
    // The dearer fabric is slower: nothing to weigh, RoCE, no challenger.
    QTest::addRow("dearer and slower: RoCE")
        << 64 << 175136.0 << 10.0 << 0.30 << 100000.0 << 489960.0 << 10.5 << 0.35 << 105000.0
        << 2.90 << QStringLiteral("roce-v2") << 0.0 << 0.0 << QStringLiteral("") << 0.0 << 0;
}

void tst_FabricVerdict::twoFabrics() {
    QFETCH(int, gpus);
    QFETCH(double, cheapCapex);
    QFETCH(double, cheapStep);
    QFETCH(double, cheapComm);
    QFETCH(double, cheapHours);
    QFETCH(double, fastCapex);
    QFETCH(double, fastStep);
    QFETCH(double, fastComm);
    QFETCH(double, fastHours);
    QFETCH(double, rate);
    QFETCH(QString, recommended);
    QFETCH(double, premium);
    QFETCH(double, saved);
    QFETCH(QString, challenger);
    QFETCH(double, breakEven);
    QFETCH(int, tier);

    // The dearer fabric is listed first, so the baseline is found by capex, not by order.
    const FabricVerdict v = fabricVerdict(
        {outcome("ib-ndr", "InfiniBand NDR", gpus, fastCapex, fastStep, fastComm, fastHours),
         outcome("roce-v2", "RoCEv2", gpus, cheapCapex, cheapStep, cheapComm, cheapHours)},
        rate);

    QCOMPARE(QString::fromStdString(v.recommendedId), recommended);
    COMPARE_WITHIN(v.premiumUsd, premium, kExact);
    COMPARE_WITHIN(v.savedUsd, saved, kExact);
    QCOMPARE(QString::fromStdString(v.challengerId), challenger);
    COMPARE_WITHIN(v.breakEvenGpuHourUsd, breakEven, kExact);
    QCOMPARE(v.scaleTier, tier);
    const char* name = recommended == QLatin1String("ib-ndr") ? "InfiniBand NDR" : "RoCEv2";
    QVERIFY(v.headline.starts_with(std::string("Choose ") + name + ":"));
}

void tst_FabricVerdict::threeFabrics_data() {
    QTest::addColumn<QString>("order");
    // 1,024 GPUs at $2.90, baseline RoCEv2 ($2,800,000, 10,000,000 GPU-hours, 35%):
    //   Spectrum-X: premium 5,070,000 - 2,800,000 = $2,270,000; saves 1,800,000 GPU-hours
    //               = $5,220,000; net $2,950,000.
    //   InfiniBand: premium 7,840,000 - 2,800,000 = $5,040,000; saves 2,400,000 GPU-hours
    //               = $6,960,000; net $1,920,000.
    // The largest net wins: Spectrum-X, whatever the order. Break-even 2,270,000 / 1,800,000.
    QTest::addRow("roce, spx, ib") << QStringLiteral("roce,spx,ib");
    QTest::addRow("ib, spx, roce") << QStringLiteral("ib,spx,roce");
    QTest::addRow("spx, roce, ib") << QStringLiteral("spx,roce,ib");
}

void tst_FabricVerdict::threeFabrics() {
    QFETCH(QString, order);
    std::vector<FabricOutcome> list;
    for (const QString& id : order.split(QLatin1Char(','))) {
        if (id == QLatin1String("roce"))
            list.push_back(outcome("roce-v2", "RoCEv2", 1024, 2.8e6, 14.0, 0.35, 1.0e7));
        else if (id == QLatin1String("spx"))
            list.push_back(outcome("spectrum-x", "Spectrum-X", 1024, 5.07e6, 11.5, 0.25, 8.2e6));
        else
            list.push_back(outcome("ib-ndr", "InfiniBand NDR", 1024, 7.84e6, 10.6, 0.18, 7.6e6));
    }
    const FabricVerdict v = fabricVerdict(list, 2.90);
    QCOMPARE(v.recommendedId, std::string("spectrum-x"));
    QCOMPARE(v.baselineId, std::string("roce-v2")); // the cheapest, whatever the order
    COMPARE_WITHIN(v.premiumUsd, 2.27e6, kExact);
    COMPARE_WITHIN(v.savedUsd, 5.22e6, kExact);
    COMPARE_WITHIN(v.breakEvenGpuHourUsd, 2.27e6 / 1.8e6, kExact);
    QCOMPARE(v.scaleTier, 1);
    VERIFY_SAYS(v, "by $2,950,000.");
    VERIFY_SAYS(v, "InfiniBand NDR would save $6,960,000 for a $5,040,000 premium.");

    // A fourth fabric at the baseline's capex but slower is neither a challenger nor dearer.
    list.push_back(outcome("roce-v2-untuned", "RoCEv2 untuned", 1024, 2.8e6, 18.0, 0.6, 1.3e7));
    const FabricVerdict four = fabricVerdict(list, 2.90);
    QCOMPARE(four.recommendedId, std::string("spectrum-x"));
    QCOMPARE(four.baselineId, std::string("roce-v2")); // as cheap and faster than untuned
    VERIFY_SAYS(four, "RoCEv2 untuned trains no faster than RoCEv2 at the same capex.");
}

void tst_FabricVerdict::sentencesCarryTheNumbers() {
    // The "40% share, large saving" row: 2,500,000 GPU-hours saved, $7,250,000 against
    // $5,040,000, $2,210,000 ahead; step 14.0 s -> 10.5 s is 25% shorter; break-even
    // $2.016 -> "$2.02"; the premium is 5.04 / 7.25 = 69.5% -> "70%" of the token budget.
    const FabricVerdict wins =
        fabricVerdict({outcome("roce-v2", "RoCEv2", 1024, 2.8e6, 14.0, 0.40, 1.0e7),
                       outcome("ib-ndr", "InfiniBand NDR", 1024, 7.84e6, 10.5, 0.20, 7.5e6)},
                      2.90);
    QCOMPARE(wins.headline, std::string("Choose InfiniBand NDR: the GPU-hours it saves outweigh "
                                        "its capex premium over RoCEv2 by $2,210,000."));
    VERIFY_SAYS(wins, "Communication is 40% of compute on RoCEv2, over ~25%");
    VERIFY_SAYS(wins, "from 14.0 s to 10.5 s (25%), saving 2,500,000 GPU-hours");
    VERIFY_SAYS(wins, "At $2.90 per GPU-hour that is $7,250,000 against its $5,040,000 capex "
                      "premium over RoCEv2, $2,210,000 ahead.");
    VERIFY_SAYS(wins, "It breaks even at $2.02 per GPU-hour, or after 70% of the token budget.");
    VERIFY_SAYS(wins, "At 1,024 GPUs this is a mid-size cluster (129 to 1,024 GPUs)");

    // The "18% share, saving short of premium" row: $580,000 - $2,520,000 = $1,940,000
    // short; 2,520,000 / 580,000 = 4.34 token budgets -> "4.3".
    const FabricVerdict loses =
        fabricVerdict({outcome("roce-v2", "RoCEv2", 512, 1.4e6, 12.0, 0.18, 2.0e6),
                       outcome("ib-ndr", "InfiniBand NDR", 512, 3.92e6, 10.8, 0.09, 1.8e6)},
                      2.90);
    QCOMPARE(loses.headline, std::string("Choose RoCEv2: no faster fabric saves enough GPU-hours "
                                         "to pay back its capex premium."));
    VERIFY_SAYS(loses, "between ~10% and ~25%");
    VERIFY_SAYS(loses, "$580,000 against its $2,520,000 capex premium over RoCEv2, $1,940,000 "
                       "short.");
    VERIFY_SAYS(loses,
                "It breaks even at $12.60 per GPU-hour, or after 4.3 times the token budget.");

    // The "9% share, pays on paper" row: $3,480,000 - $3,000,000 = $480,000 ahead on paper
    // on a (10.0 - 9.4) / 10.0 = 6% step-time gain.
    const FabricVerdict gated =
        fabricVerdict({outcome("roce-v2", "RoCEv2", 2048, 5.0e6, 10.0, 0.09, 2.0e7),
                       outcome("ib-ndr", "InfiniBand NDR", 2048, 8.0e6, 9.4, 0.04, 1.88e7)},
                      2.90);
    QCOMPARE(gated.headline, std::string("Choose RoCEv2: communication is too small a share of "
                                         "the step for a faster fabric to matter."));
    VERIFY_SAYS(gated, "9% of compute on RoCEv2, under ~10%");
    VERIFY_SAYS(gated, "$480,000 ahead on paper, but resting on a step-time gain of 6%");
    VERIFY_SAYS(gated, "At 2,048 GPUs this is a large cluster (over 1,024 GPUs)");

    // 9.96% shows as 10%, so the sentence says "just under" rather than "10%, under ~10%".
    const FabricVerdict edge =
        fabricVerdict({outcome("roce-v2", "RoCEv2", 2048, 5.0e6, 10.0, 0.0996, 2.0e7),
                       outcome("ib-ndr", "InfiniBand NDR", 2048, 8.0e6, 9.4, 0.04, 1.88e7)},
                      2.90);
    VERIFY_SAYS(edge, "Communication is 10% of compute on RoCEv2, just under ~10%");
}

void tst_FabricVerdict::noWorkload_data() {
    QTest::addColumn<double>("roceBusBw");
    QTest::addColumn<QString>("recommended");
    QTest::addColumn<double>("premium");
    // Article 000's 64-GPU capex (price catalog: RoCEv2 $175,136, Spectrum-X $316,568,
    // InfiniBand $489,960) and its nccl-tests busbw (Spectrum-X and IB ~350 GB/s):
    //   Spectrum-X 316,568 / 350 = $904.48 per GB/s; InfiniBand 489,960 / 350 = $1,399.89.
    // Tuned RoCE 280 GB/s: 175,136 / 280 = $625.49 -> RoCE, premium 0.
    QTest::addRow("tuned RoCE 280 GB/s: RoCE") << 280.0 << QStringLiteral("roce-v2") << 0.0;
    // Poorly tuned RoCE (000: under 200 GB/s), 150: $1,167.57 -> Spectrum-X, premium
    // 316,568 - 175,136 = $141,432.
    QTest::addRow("poorly tuned RoCE 150 GB/s: Spectrum-X")
        << 150.0 << QStringLiteral("spectrum-x") << 141432.0;
    // No busbw figure for RoCE: it cannot be ranked per GB/s -> Spectrum-X, $141,432.
    QTest::addRow("RoCE without busbw: Spectrum-X")
        << 0.0 << QStringLiteral("spectrum-x") << 141432.0;
}

void tst_FabricVerdict::noWorkload() {
    QFETCH(double, roceBusBw);
    QFETCH(QString, recommended);
    QFETCH(double, premium);
    // InfiniBand carries a workload figure but the others do not, which is not a workload
    // comparison: the verdict falls back to busbw for all three.
    const FabricVerdict v =
        fabricVerdict({outcome("ib-ndr", "InfiniBand NDR", 64, 489960, 9.0, 0.2, 1000, 350),
                       outcome("spectrum-x", "Spectrum-X", 64, 316568, 0, 0, 0, 350),
                       outcome("roce-v2", "RoCEv2", 64, 175136, 0, 0, 0, roceBusBw)},
                      2.90);
    QCOMPARE(QString::fromStdString(v.recommendedId), recommended);
    COMPARE_WITHIN(v.premiumUsd, premium, kExact);
    QCOMPARE(v.savedUsd, 0.0);
    QVERIFY(v.challengerId.empty());
    VERIFY_SAYS(v, "Spectrum-X: 350 GB/s for $316,568, $904 per GB/s.");
    VERIFY_SAYS(v, "InfiniBand NDR: 350 GB/s for $489,960, $1,400 per GB/s.");
    VERIFY_SAYS(v, "At 64 GPUs this is a small cluster (up to 128 GPUs)");
}

void tst_FabricVerdict::singleFabric() {
    // One fabric: it is the verdict, with nothing to weigh against it.
    const FabricVerdict v =
        fabricVerdict({outcome("ib-ndr", "InfiniBand NDR", 2048, 1234567, 9.0, 0.3, 5.0e6)}, 2.9);
    QCOMPARE(v.recommendedId, std::string("ib-ndr"));
    QCOMPARE(v.baselineId, std::string("ib-ndr"));
    QCOMPARE(v.headline, std::string("InfiniBand NDR is the only fabric in the comparison."));
    QCOMPARE(v.premiumUsd, 0.0);
    QCOMPARE(v.savedUsd, 0.0);
    QCOMPARE(v.scaleTier, 2);
    VERIFY_SAYS(v, "5,000,000 GPU-hours for $1,234,567 of fabric capex.");
    VERIFY_SAYS(v, "Communication is 30% of compute on InfiniBand NDR");

    const FabricVerdict bare =
        fabricVerdict({outcome("roce-v2", "RoCEv2", 64, 175136, 0, 0, 0, 280)}, 2.9);
    QCOMPARE(bare.recommendedId, std::string("roce-v2"));
    VERIFY_SAYS(bare, "It delivers 280 GB/s of bus bandwidth for $175,136 of fabric capex.");
}

void tst_FabricVerdict::emptyList() {
    const FabricVerdict v = fabricVerdict({}, 2.9);
    QVERIFY(v.recommendedId.empty());
    QVERIFY(v.reasons.empty());
    QCOMPARE(v.headline, std::string("No fabrics to compare."));
    QCOMPARE(v.premiumUsd, 0.0);
    QCOMPARE(v.savedUsd, 0.0);
    QCOMPARE(v.scaleTier, 0);
}

void tst_FabricVerdict::ties() {
    // Identical figures under two ids: the first listed is recommended and the tie is said.
    const FabricVerdict same =
        fabricVerdict({outcome("roce-v2", "RoCEv2", 64, 175136, 10.0, 0.3, 1.0e5),
                       outcome("ethernet-tcp", "Ethernet TCP", 64, 175136, 10.0, 0.3, 1.0e5)},
                      2.9);
    QCOMPARE(same.recommendedId, std::string("roce-v2"));
    QVERIFY(same.challengerId.empty());
    VERIFY_SAYS(same, "Ethernet TCP ties with RoCEv2 on capex and training time; RoCEv2 is "
                      "listed first.");

    // Equal capex, the second one faster: it is the baseline itself, so there is no premium
    // and nothing to weigh (it is not treated as a challenger with a $0 premium).
    const FabricVerdict faster =
        fabricVerdict({outcome("roce-v2", "RoCEv2", 64, 175136, 10.0, 0.3, 1.0e5),
                       outcome("spectrum-x", "Spectrum-X", 64, 175136, 9.0, 0.2, 9.0e4)},
                      2.9);
    QCOMPARE(faster.recommendedId, std::string("spectrum-x"));
    QCOMPARE(faster.premiumUsd, 0.0);
    QCOMPARE(faster.savedUsd, 0.0);
    QVERIFY(faster.challengerId.empty());
}

void tst_FabricVerdict::zeroCapex() {
    // Cheapest at $0 capex (say, a fabric already paid for), 50% share: 50,000 GPU-hours x
    // $3 = $150,000 > $100,000 premium -> the faster fabric; break-even 100,000 / 50,000 = $2.
    const FabricVerdict v =
        fabricVerdict({outcome("owned", "Owned Ethernet", 64, 0, 10.0, 0.5, 1.0e5),
                       outcome("ib-ndr", "InfiniBand NDR", 64, 100000, 7.0, 0.2, 5.0e4)},
                      3.0);
    QCOMPARE(v.recommendedId, std::string("ib-ndr"));
    QCOMPARE(v.premiumUsd, 100000.0);
    QCOMPARE(v.savedUsd, 150000.0);
    QCOMPARE(v.breakEvenGpuHourUsd, 2.0);

    // No workload, both at $0: $0 per GB/s each, so the higher busbw wins the tie.
    const FabricVerdict zeroBoth = fabricVerdict({outcome("a", "Fabric A", 64, 0, 0, 0, 0, 200),
                                                  outcome("b", "Fabric B", 64, 0, 0, 0, 0, 300)},
                                                 3.0);
    QCOMPARE(zeroBoth.recommendedId, std::string("b"));
    QCOMPARE(zeroBoth.premiumUsd, 0.0);
    VERIFY_SAYS(zeroBoth, "($0 per GB/s)");

    // No workload and no busbw at all: the cheapest is all there is to go on.
    const FabricVerdict bare = fabricVerdict(
        {outcome("a", "Fabric A", 64, 500, 0, 0, 0), outcome("b", "Fabric B", 64, 0, 0, 0, 0)},
        3.0);
    QCOMPARE(bare.recommendedId, std::string("b"));
    VERIFY_SAYS(bare, "Choose Fabric B: it is the cheapest");
}

void tst_FabricVerdict::nanFree() {
    // Non-finite and negative inputs read as 0; no figure or sentence may carry NaN or inf.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<std::vector<FabricOutcome>> cases = {
        {outcome("a", "Fabric A", 64, nan, 10.0, nan, 1.0e5),
         outcome("b", "Fabric B", 64, inf, 9.0, 0.2, 9.0e4)},
        {outcome("a", "Fabric A", -8, 100, nan, 0.3, 1.0e5, nan),
         outcome("b", "Fabric B", 64, -5, 9.0, 0.2, inf, inf)},
        {outcome("a", "Fabric A", 64, 100, 10.0, 0.3, 1.0e5),
         outcome("b", "Fabric B", 64, 200, 9.0, 0.2, 9.0e4)},
    };
    for (const double rate : {nan, -2.9, inf, 0.0, 2.9}) {
        for (const auto& list : cases) {
            const FabricVerdict v = fabricVerdict(list, rate);
            QVERIFY(!v.recommendedId.empty());
            QVERIFY(std::isfinite(v.premiumUsd) && v.premiumUsd >= 0);
            QVERIFY(std::isfinite(v.savedUsd) && v.savedUsd >= 0);
            QVERIFY(std::isfinite(v.breakEvenGpuHourUsd));
            const QString text = allText(v).toLower();
            QVERIFY2(!text.contains(QLatin1String("nan")) && !text.contains(QLatin1String("inf")),
                     qPrintable(text));
        }
    }
}

void tst_FabricVerdict::scaleTier_data() {
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("tier");
    // Article 001's tiers: up to 128, 128 to 1,024, above (the edges belong to the lower tier).
    QTest::addRow("8") << 8 << 0;
    QTest::addRow("128") << 128 << 0;
    QTest::addRow("129") << 129 << 1;
    QTest::addRow("1,024") << 1024 << 1;
    QTest::addRow("1,025") << 1025 << 2;
    QTest::addRow("16,384") << 16384 << 2;
}

void tst_FabricVerdict::scaleTier() {
    QFETCH(int, gpus);
    QFETCH(int, tier);
    const FabricVerdict v =
        fabricVerdict({outcome("roce-v2", "RoCEv2", gpus, 1000, 10.0, 0.3, 1.0e5),
                       outcome("ib-ndr", "InfiniBand NDR", gpus, 2000, 9.0, 0.2, 9.0e4)},
                      2.9);
    QCOMPARE(v.scaleTier, tier);
}

QTEST_APPLESS_MAIN(tst_FabricVerdict)
#include "tst_FabricVerdict.moc"
