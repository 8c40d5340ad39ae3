// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The verdict on a fabric comparison. Every expected figure is worked out by hand beside its
// case from the rules in FabricVerdict.cpp: the lowest lifetime cost per trained token wins
// (the cluster's servers, fabric and energy over 36 months x 730 h = 26,280 h, against the
// tokens it trains in that time); where that ranking flips in communication; when a
// premium is repaid; and how near a published measurement the figures stand.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/advice/FabricVerdict.hpp"
#include "support/RelativeCompare.hpp"

#include <cmath>
#include <limits>
#endif

using namespace fabriclab::model;

namespace {

constexpr double kLifeHours = 36 * 730.0;
constexpr double kSecondsPerHour = 3600;
// Hand values below are printed to 10 significant digits; 1e-9 relative is their rounding.
constexpr double kHand = 1e-9;

/// A fabric's outcome for a step of `fixed` + `exposed` seconds training `tokensPerStep`,
/// owned over kLifeHours for `lifetimeUsd`; the cost per token follows as the verdict's
/// inputs define it (lifetime / tokens trained in the period).
FabricOutcome owned(const char* id, const char* name, int gpus, double capexUsd, double lifetimeUsd,
                    double energyUsd, double fixed, double exposed, double tokensPerStep) {
    FabricOutcome o;
    o.fabricId = id;
    o.fabricName = name;
    o.gpus = gpus;
    o.capexUsd = capexUsd;
    o.stepSeconds = fixed + exposed;
    o.exposedCommSeconds = exposed;
    o.commToCompute = exposed / fixed;
    o.tokensPerSecond = tokensPerStep / o.stepSeconds;
    o.priced = true;
    o.pricing = "owned over 36 months";
    o.lifeHours = kLifeHours;
    o.lifetimeUsd = lifetimeUsd;
    o.energyUsd = energyUsd;
    o.perMillionTokensUsd = lifetimeUsd / (o.tokensPerSecond * kLifeHours * kSecondsPerHour) * 1e6;
    // A published measurement of the same scale, unless a case says otherwise.
    o.evidence = Evidence{"measured-here", "", "h100-sxm", 8, 1 << 30, true, 1, false};
    return o;
}

/// Article 000's 64-GPU capex (price catalog: RoCEv2 $175,136, InfiniBand $489,960), 64 H100
/// servers at $38,750 a GPU ($2,480,000) and round energy bills; 1,050,000 tokens a step.
FabricOutcome roce64() {
    return owned("roce-v2", "RoCEv2", 64, 175136, 2480000 + 175136 + 250000, 250000, 10.0, 0.5,
                 1050000);
}
FabricOutcome ib64() {
    return owned("ib-ndr", "InfiniBand NDR", 64, 489960, 2480000 + 489960 + 252000, 252000, 10.0,
                 0.2, 1050000);
}

/// 16,384 GPUs ($634,880,000 of servers), RoCE at $60M of fabric waiting 2 s a step,
/// InfiniBand at $110M waiting 0.5 s; 16,777,216 tokens a step.
FabricOutcome roce16k() {
    return owned("roce-v2", "RoCEv2", 16384, 60e6, 634.88e6 + 60e6 + 40e6, 40e6, 10.0, 2.0,
                 16777216);
}
FabricOutcome ib16k() {
    return owned("ib-ndr", "InfiniBand NDR", 16384, 110e6, 634.88e6 + 110e6 + 40.5e6, 40.5e6, 10.0,
                 0.5, 16777216);
}

FabricOutcome bare(const char* id, const char* name, int gpus, double capexUsd, double busBwGBps) {
    FabricOutcome o;
    o.fabricId = id;
    o.fabricName = name;
    o.gpus = gpus;
    o.capexUsd = capexUsd;
    o.busBwGBps = busBwGBps;
    return o;
}

Evidence evidenceAt(const char* figure, int servers, double scale, bool extrapolation) {
    Evidence e;
    e.figureId = figure;
    e.gpu = "h100-sxm";
    e.sameGpu = true;
    e.servers = servers;
    e.scale = scale;
    e.extrapolation = extrapolation;
    return e;
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
    void smallClusterStaysOnTheCheaperFabric();
    void largeClusterPaysForTheFasterFabric();
    void orderDoesNotDecide_data();
    void orderDoesNotDecide();
    void closeCallGoesToTheWiderFabric();
    void rentedGpusRankBySpeed();
    void noFlipWhenCheaperAndFaster();
    void paybackBeyondTheLifeMeansTheCheaperWins();
    void extrapolationIsMarked();
    void unpricedGpuFallsBackToThroughput();
    void noWorkload_data();
    void noWorkload();
    void singleFabric();
    void emptyList();
    void ties();
    void nanFree();
    void scaleTier_data();
    void scaleTier();
};

void tst_FabricVerdict::smallClusterStaysOnTheCheaperFabric() {
    // RoCE: $2,905,136 over 26,280 h = $110.545510 an hour, 100,000 tokens/s:
    //   2,905,136 / (100,000 x 26,280 x 3,600) x 1e6 = $0.3070708608 per million tokens.
    // InfiniBand: $3,221,960, $122.601218 an hour, 1,050,000 / 10.2 = 102,941.18 tokens/s:
    //   $0.3308286826 per million. InfiniBand costs 10.9% more and trains 2.9% faster: RoCE.
    const FabricVerdict v = fabricVerdict({ib64(), roce64()}, {"llama3-70b", false, 4194304});
    QCOMPARE(v.recommendedId, std::string("roce-v2"));
    QCOMPARE(v.baselineId, std::string("roce-v2"));
    QCOMPARE(v.premiumUsd, 0.0);
    QVERIFY(!v.payback);
    // Tokens per dollar against the best: InfiniBand 0.3070708608 / 0.3308286826.
    QCOMPARE(v.tokensPerDollarVsBest.size(), std::size_t(2));
    COMPARE_WITHIN(v.tokensPerDollarVsBest[0], 0.9281869348, kHand);
    QCOMPARE(v.tokensPerDollarVsBest[1], 1.0);
    // Flip: k = (122.601218 x 10 - 110.545510 x 10) / (110.545510 x 0.5 - 122.601218 x 0.2)
    //         = 3.920235196; the waiting share then 3.92 x 0.5 / 10 = 19.6% (today 5%).
    QVERIFY(v.flip);
    QCOMPARE(v.flip->rivalId, std::string("ib-ndr"));
    COMPARE_WITHIN(v.flip->commMultiple, 3.920235196, kHand);
    COMPARE_WITHIN(v.flip->rivalCommShare, 0.1960117598, kHand);
    QCOMPARE(v.headline, std::string("Choose RoCEv2: the lowest cost per trained token over the "
                                     "cluster's life, $0.307 per million tokens."));
    VERIFY_SAYS(v, "InfiniBand NDR: $0.331 per million tokens, $3,221,960 owned over 36 months");
    VERIFY_SAYS(v, "for the same spend it trains 7% fewer tokens");
    VERIFY_SAYS(v, "This holds for llama3-70b at 4.2 million tokens per batch. InfiniBand NDR "
                   "would cost less per token than RoCEv2 once communication grows 3.9 times (the "
                   "step waiting on the fabric 20% of the time it computes on RoCEv2, today 5%)");
    VERIFY_SAYS(v, "RoCEv2 is also the cheapest fabric to build.");
}

void tst_FabricVerdict::largeClusterPaysForTheFasterFabric() {
    // RoCE $734,880,000 ($27,963.47 an hour) at 16,777,216 / 12 = 1,398,101.33 tokens/s:
    //   $5.5558423836 per million. InfiniBand $785,380,000 ($29,885.08 an hour) at
    //   16,777,216 / 10.5 = 1,597,830.10 tokens/s: $5.1954285800 per million. InfiniBand.
    const FabricVerdict v = fabricVerdict({roce16k(), ib16k()}, {"deepseek-v3", true, 16777216});
    QCOMPARE(v.recommendedId, std::string("ib-ndr"));
    QCOMPARE(v.baselineId, std::string("roce-v2"));
    QCOMPARE(v.premiumUsd, 50e6);
    COMPARE_WITHIN(v.tokensPerDollarVsBest[0], 0.9351288646, kHand);
    // Payback: each hour on InfiniBand saves 27,963.47 x (1,597,830.10 / 1,398,101.33 - 1)
    // = $3,994.78 of the RoCE cluster's time, less (40.5M - 40M) / 26,280 = $19.03 of extra
    // energy: $50,000,000 / $3,975.76 = 12,576.23 h = 524.0 days, 7.23e13 tokens, within
    // the 1,095-day life (and so also the cheaper per token, as the ranking says).
    QVERIFY(v.payback);
    QCOMPARE(v.payback->againstId, std::string("roce-v2"));
    COMPARE_WITHIN(v.payback->days, 524.0094068747, kHand);
    COMPARE_WITHIN(v.payback->tokens, 7.234081924e13, kHand);
    QVERIFY(v.payback->withinLife);
    // Flip: InfiniBand is dearer per hour and waits less, so less communication would flip
    // it: k = (27,963.47 x 10 - 29,885.08 x 10) / (29,885.08 x 0.5 - 27,963.47 x 2)
    //   = 0.4688646049; the share then 0.469 x 0.5 / 10 = 2.3% (today 5%).
    QVERIFY(v.flip);
    COMPARE_WITHIN(v.flip->commMultiple, 0.4688646049, kHand);
    VERIFY_SAYS(v, "Choose InfiniBand NDR: the lowest cost per trained token over the "
                   "cluster's life, $5.20 per million tokens.");
    VERIFY_SAYS(v, "This holds for deepseek-v3 (mixture of experts) at 16.8 million tokens per "
                   "batch. RoCEv2 would cost less per token than InfiniBand NDR if communication "
                   "fell below 0.47 of today's");
    VERIFY_SAYS(v, "Its $50,000,000 fabric premium over RoCEv2 is repaid by the GPU time it "
                   "saves after 524 days of training (72.3 trillion tokens), within the "
                   "1,095-day life costed.");
    VERIFY_SAYS(v, "At 16,384 GPUs this is a large cluster");
}

void tst_FabricVerdict::orderDoesNotDecide_data() {
    QTest::addColumn<QString>("order");
    QTest::addRow("roce, ib, tcp") << QStringLiteral("roce,ib,tcp");
    QTest::addRow("tcp, ib, roce") << QStringLiteral("tcp,ib,roce");
    QTest::addRow("ib, tcp, roce") << QStringLiteral("ib,tcp,roce");
}

void tst_FabricVerdict::orderDoesNotDecide() {
    // The 16K case with a TCP fabric cheapest to build ($40M) but waiting 6 s a step:
    // $714,880,000 at 16,777,216 / 16 tokens/s = $7.20 per million. InfiniBand still wins,
    // RoCE is its closest rival, and TCP is the baseline premiums are measured against.
    QFETCH(QString, order);
    std::vector<FabricOutcome> list;
    for (const QString& id : order.split(QLatin1Char(','))) {
        if (id == QLatin1String("roce"))
            list.push_back(roce16k());
        else if (id == QLatin1String("ib"))
            list.push_back(ib16k());
        else
            list.push_back(owned("ethernet-tcp", "Ethernet TCP", 16384, 40e6,
                                 634.88e6 + 40e6 + 39.5e6, 39.5e6, 10.0, 6.0, 16777216));
    }
    const FabricVerdict v = fabricVerdict(list);
    QCOMPARE(v.recommendedId, std::string("ib-ndr"));
    QCOMPARE(v.baselineId, std::string("ethernet-tcp"));
    QCOMPARE(v.premiumUsd, 70e6);
    QVERIFY(v.flip);
    QCOMPARE(v.flip->rivalId, std::string("roce-v2"));
    QVERIFY(v.payback);
    QCOMPARE(v.payback->againstId, std::string("ethernet-tcp"));
}

void tst_FabricVerdict::closeCallGoesToTheWiderFabric() {
    // 16,384 GPUs, 16,777,216 tokens a step, 9.4608e7 s of life:
    //   TCP        $714,880,000, 12.0 s a step, 70 GB/s:  $5.4046 per million tokens (lowest)
    //   Spectrum-X $750,080,000, 11.6 s,       318 GB/s:  $5.4817 (+1.4%)
    //   RoCE       $734,880,000, 12.0 s,       217 GB/s:  $5.5558 (+2.8%)
    // All three within 5%: a tie the prices cannot break. The most bandwidth among them is
    // Spectrum-X's, and no other is within 5% of it: Spectrum-X, 318 / 70 - 1 = 354% more.
    FabricOutcome tcp =
        owned("ethernet-tcp", "Ethernet TCP", 16384, 40e6, 714.88e6, 39.5e6, 10.0, 2.0, 16777216);
    tcp.busBwGBps = 70;
    FabricOutcome spx =
        owned("spectrum-x", "Spectrum-X", 16384, 75e6, 750.08e6, 40.2e6, 10.0, 1.6, 16777216);
    spx.busBwGBps = 318;
    FabricOutcome roce = roce16k();
    roce.busBwGBps = 217;
    const FabricVerdict v = fabricVerdict({roce, tcp, spx});
    QCOMPARE(v.recommendedId, std::string("spectrum-x"));
    QCOMPARE(v.baselineId, std::string("ethernet-tcp"));
    QCOMPARE(v.headline,
             std::string("Choose Spectrum-X: within 5% of the lowest cost per trained token ($5.48 "
                         "against Ethernet TCP's $5.40 per million tokens), with 354% more bus "
                         "bandwidth for a workload that communicates more."));
    VERIFY_SAYS(v, "RoCEv2 and Ethernet TCP cost within 5% per token of it");
    VERIFY_SAYS(v, "Ethernet TCP: $5.40 per million tokens, $714,880,000 owned over 36 months, "
                   "132 trillion tokens trained; for the same spend it trains 1% more tokens.");
    // The rival the flip is weighed against is the cheapest per token, which Spectrum-X
    // overtakes as communication grows: k = (H_t c_t - H_s c_s) / (H_s e_s - H_t e_t) with
    // H = lifetime / 26,280: (27,202.44 x 10 - 28,541.86 x 10) / (28,541.86 x 1.6 -
    // 27,202.44 x 2) = 13,394.2 / 8,737.9 = 1.53.
    QVERIFY(v.flip);
    QCOMPARE(v.flip->rivalId, std::string("ethernet-tcp"));
    COMPARE_WITHIN(v.flip->commMultiple,
                   (714.88e6 * 10 - 750.08e6 * 10) / (750.08e6 * 1.6 - 714.88e6 * 2.0), kHand);
    VERIFY_SAYS(v, "Spectrum-X would cost less per token than Ethernet TCP once communication "
                   "grows 1.5 times");

    // Without Spectrum-X, RoCE and TCP are within 5% per token and RoCE has 217 GB/s
    // against 70, but its step waits on the fabric exactly as long (2 s): the bandwidth does
    // not show in training, so TCP, 2.8% cheaper per token, stands.
    QCOMPARE(fabricVerdict({roce, tcp}).recommendedId, std::string("ethernet-tcp"));
    // Once RoCE waits less (1.8 s), its bandwidth counts: RoCE.
    FabricOutcome quicker =
        owned("roce-v2", "RoCEv2", 16384, 60e6, 734.88e6, 40e6, 10.0, 1.8, 16777216);
    quicker.busBwGBps = 217;
    QCOMPARE(fabricVerdict({quicker, tcp}).recommendedId, std::string("roce-v2"));
    // Bandwidth within 5% of the widest is a tie too, which goes to the cheaper.
    roce.busBwGBps = 310;
    QCOMPARE(fabricVerdict({roce, tcp, spx}).recommendedId, std::string("spectrum-x"));
    spx.busBwGBps = 300;
    roce.busBwGBps = 314;
    QCOMPARE(fabricVerdict({roce, tcp, spx}).recommendedId, std::string("spectrum-x"));
}

void tst_FabricVerdict::rentedGpusRankBySpeed() {
    // Rented: every fabric's GPU-hour at the same $2.90 (64 x 26,280 x 2.90 = $4,877,568 over
    // the period), so the faster fabric is cheaper per token whatever its capex, and there is
    // no premium of one's own to repay.
    FabricOutcome slow = owned("roce-v2", "RoCEv2", 64, 175136, 4877568, 0, 10.0, 0.5, 1050000);
    FabricOutcome fast =
        owned("ib-ndr", "InfiniBand NDR", 64, 489960, 4877568, 0, 10.0, 0.2, 1050000);
    for (FabricOutcome* o : {&slow, &fast}) {
        o->rented = true;
        o->pricing = "rented over 36 months (h100-sxm on demand)";
    }
    const FabricVerdict v = fabricVerdict({slow, fast});
    QCOMPARE(v.recommendedId, std::string("ib-ndr"));
    QVERIFY(!v.payback);
    // Same hourly cost: tokens per dollar are the speeds' ratio, 10.2 / 10.5.
    COMPARE_WITHIN(v.tokensPerDollarVsBest[0], 10.2 / 10.5, kHand);
    // Same hourly cost and InfiniBand waits less: no communication share flips it.
    QVERIFY(!v.flip);
    VERIFY_SAYS(v, "InfiniBand NDR stays ahead of RoCEv2 whatever the workload's share of "
                   "communication");
}

void tst_FabricVerdict::noFlipWhenCheaperAndFaster() {
    // A fabric cheaper to own and waiting less than its rival: nothing flips them.
    const FabricOutcome cheapFast =
        owned("spectrum-x", "Spectrum-X", 64, 300000, 3.0e6, 250000, 10.0, 0.2, 1050000);
    const FabricOutcome dearSlow =
        owned("roce-v2", "RoCEv2", 64, 320000, 3.1e6, 250000, 10.0, 0.5, 1050000);
    QVERIFY(!rankingFlip(cheapFast, dearSlow));
    QVERIFY(!payback(cheapFast, dearSlow)); // no premium to repay
    const FabricVerdict v = fabricVerdict({dearSlow, cheapFast});
    QCOMPARE(v.recommendedId, std::string("spectrum-x"));
    QVERIFY(!v.flip);
}

void tst_FabricVerdict::paybackBeyondTheLifeMeansTheCheaperWins() {
    // The 64-GPU pair: InfiniBand's $314,824 premium over RoCE, saving 110.545510 x
    // (10.5 / 10.2 - 1) = $3.2513 an hour less 2,000 / 26,280 = $0.0761 of energy:
    // 314,824 / 3.1752 = 99,150 h, beyond the 26,280-hour life: RoCE is cheaper per token.
    const std::optional<Payback> p = payback(ib64(), roce64());
    QVERIFY(p);
    QVERIFY(!p->withinLife);
    COMPARE_WITHIN(p->days * 24, 314824 / (110.545510 * (10.5 / 10.2 - 1) - 2000 / kLifeHours),
                   1e-6); // 1e-6: the hourly cost above is rounded to 9 digits
    QVERIFY(p->days * 24 > kLifeHours);
}

void tst_FabricVerdict::extrapolationIsMarked() {
    // The 16K InfiniBand case with its nearest published measurement at 8 servers (2,048
    // servers / 8 = 256 times away): the recommendation is an extrapolation and says so.
    // RoCE's nearest is 4 times away exactly, which kEvidenceReach (4x) still counts as near.
    FabricOutcome ib = ib16k();
    ib.evidence = evidenceAt("ndr-8-nodes-default", 8, 256, true);
    FabricOutcome roce = roce16k();
    roce.evidence = evidenceAt("roce-512-servers", 512, 4, false);
    const FabricVerdict v = fabricVerdict({roce, ib});
    QVERIFY(v.extrapolation);
    VERIFY_SAYS(v, "(an extrapolation beyond the published measurements).");
    VERIFY_SAYS(v, "InfiniBand NDR: nearest published measurement ndr-8-nodes-default (8 "
                   "servers), 256 times smaller than this design: an extrapolation.");
    VERIFY_SAYS(v, "RoCEv2: nearest published measurement roce-512-servers (512 servers), within "
                   "4 times of this design's scale.");

    ib.evidence = evidenceAt("ndr-2048-servers", 2048, 1, false);
    const FabricVerdict near = fabricVerdict({roce, ib});
    QVERIFY(!near.extrapolation);
    QVERIFY(!allText(near).contains(QLatin1String("(an extrapolation")));

    // No measurement of a fabric at all is an extrapolation too.
    ib.evidence.reset();
    QVERIFY(fabricVerdict({roce, ib}).extrapolation);
    VERIFY_SAYS(fabricVerdict({roce, ib}),
                "InfiniBand NDR: no published measurement on this fabric");
}

void tst_FabricVerdict::unpricedGpuFallsBackToThroughput() {
    // A GPU the price list cannot price (an inline one): the fastest fabric is named, and the
    // verdict says why the cost per token is missing.
    FabricOutcome a = roce16k();
    FabricOutcome b = ib16k();
    a.priced = b.priced = false;
    const FabricVerdict v = fabricVerdict({a, b});
    QCOMPARE(v.recommendedId, std::string("ib-ndr"));
    QCOMPARE(v.premiumUsd, 50e6);
    VERIFY_SAYS(v, "no server or rental price for this GPU");
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
    FabricOutcome ib = ib64();
    ib.busBwGBps = 350;
    const FabricVerdict v = fabricVerdict({ib, bare("spectrum-x", "Spectrum-X", 64, 316568, 350),
                                           bare("roce-v2", "RoCEv2", 64, 175136, roceBusBw)});
    QCOMPARE(QString::fromStdString(v.recommendedId), recommended);
    COMPARE_WITHIN(v.premiumUsd, premium, kHand);
    VERIFY_SAYS(v, "Spectrum-X: 350 GB/s for $316,568, $904 per GB/s.");
    VERIFY_SAYS(v, "InfiniBand NDR: 350 GB/s for $489,960, $1,400 per GB/s.");
    VERIFY_SAYS(v, "At 64 GPUs this is a small cluster (up to 128 GPUs)");
}

void tst_FabricVerdict::singleFabric() {
    // One fabric: it is the verdict, with nothing to weigh against it.
    const FabricVerdict v = fabricVerdict({ib16k()});
    QCOMPARE(v.recommendedId, std::string("ib-ndr"));
    QCOMPARE(v.baselineId, std::string("ib-ndr"));
    QCOMPARE(v.headline, std::string("InfiniBand NDR is the only fabric in the comparison."));
    QCOMPARE(v.premiumUsd, 0.0);
    QCOMPARE(v.scaleTier, 2);
    VERIFY_SAYS(v, "It trains at $5.20 per million tokens, $785,380,000 owned over 36 months.");
    VERIFY_SAYS(v, "Communication is 5% of compute on InfiniBand NDR");

    const FabricVerdict plain = fabricVerdict({bare("roce-v2", "RoCEv2", 64, 175136, 280)});
    QCOMPARE(plain.recommendedId, std::string("roce-v2"));
    VERIFY_SAYS(plain, "It delivers 280 GB/s of bus bandwidth for $175,136 of fabric capex.");
}

void tst_FabricVerdict::emptyList() {
    const FabricVerdict v = fabricVerdict({});
    QVERIFY(v.recommendedId.empty());
    QVERIFY(v.reasons.empty());
    QCOMPARE(v.headline, std::string("No fabrics to compare."));
    QCOMPARE(v.premiumUsd, 0.0);
    QCOMPARE(v.scaleTier, 0);
}

void tst_FabricVerdict::ties() {
    // Identical figures under two ids: the first listed is recommended and the tie is said.
    FabricOutcome twin = roce64();
    twin.fabricId = "ethernet-tcp";
    twin.fabricName = "Ethernet TCP";
    const FabricVerdict same = fabricVerdict({roce64(), twin});
    QCOMPARE(same.recommendedId, std::string("roce-v2"));
    VERIFY_SAYS(same, "Ethernet TCP ties with RoCEv2 on cost per token and speed; RoCEv2 is "
                      "listed first.");
}

void tst_FabricVerdict::nanFree() {
    // Non-finite and negative inputs read as 0; no figure or sentence may carry NaN or inf.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    for (const double bad : {nan, -2.9, inf, 0.0}) {
        std::vector<FabricOutcome> list = {roce64(), ib64()};
        list[0].lifetimeUsd = bad;
        list[1].tokensPerSecond = bad;
        list[1].exposedCommSeconds = bad;
        list[0].perMillionTokensUsd = bad;
        const FabricVerdict v = fabricVerdict(list);
        QVERIFY(!v.recommendedId.empty());
        QVERIFY(std::isfinite(v.premiumUsd) && v.premiumUsd >= 0);
        for (double t : v.tokensPerDollarVsBest)
            QVERIFY(std::isfinite(t));
        const QString text = allText(v).toLower();
        QVERIFY2(!text.contains(QLatin1String("nan")) && !text.contains(QLatin1String("inf")),
                 qPrintable(text));
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
    FabricOutcome a = roce64();
    FabricOutcome b = ib64();
    a.gpus = b.gpus = gpus;
    QCOMPARE(fabricVerdict({a, b}).scaleTier, tier);
}

QTEST_APPLESS_MAIN(tst_FabricVerdict)
#include "tst_FabricVerdict.moc"
