// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// The cost of ownership and the evidence behind a verdict. Every figure is worked out by hand
// from the built-in price list (resources/catalog/prices.json, "ownership"; its sources are
// in docs/sources.md): 36 months x 730 h = 26,280 h, H100 servers at $38,750 a GPU drawing
// 1,275 W, PUE 1.58, $0.0806 per kWh, H100 rented at $2.90 and AWS p5 at $12.29 a GPU-hour.
#include <QTest>

// moc (Qt 6.4) cannot parse C++20 <concepts>, which these headers may pull in.
#ifndef Q_MOC_RUN
#include "model/advice/Evidence.hpp"
#include "model/catalog/Catalog.hpp"
#include "model/cost/Ownership.hpp"
#include "support/RelativeCompare.hpp"
#endif

using namespace fabriclab::model;

namespace {

// Sums of whole dollars and one product of catalog decimals: 1e-9 relative is rounding.
constexpr double kExact = 1e-9;

const PriceCatalog& prices() {
    return Catalog::builtin().prices();
}

/// Article 000's 64-GPU InfiniBand fabric ($489,960) drawing 30 kW, training 100,000
/// tokens/s.
OwnershipInputs h100Cluster() {
    OwnershipInputs in;
    in.gpuId = "h100-sxm";
    in.fabricId = "ib-ndr";
    in.gpus = 64;
    in.fabricCapexUsd = 489960;
    in.fabricWatts = 30000;
    in.tokensPerSecond = 100000;
    return in;
}

PublishedFigure figure(const char* id, const char* fabric, const char* gpu, int servers,
                       double bytes) {
    PublishedFigure f;
    f.id = id;
    f.fabric = fabric;
    f.gpu = gpu;
    f.servers = servers;
    f.bytes = bytes;
    return f;
}

} // namespace

class tst_Ownership : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ownedClusterByHand();
    void rentedClusterByHand();
    void cloudFabricIsRentedAsTheCloudOffersIt();
    void unpricedClustersSayWhy();
    void everyCatalogGpuHasPrices();
    void nearestEvidence_data();
    void nearestEvidence();
};

void tst_Ownership::ownedClusterByHand() {
    const OwnershipCost c = ownershipCost(h100Cluster(), prices());
    QVERIFY(c.priced);
    QVERIFY(c.mode == OwnershipMode::Owned);
    QCOMPARE(c.months, 36.0);
    QCOMPARE(c.gpuHours, 64 * 26280.0);
    QCOMPARE(c.serversUsd, 64 * 38750.0); // $2,480,000
    QCOMPARE(c.fabricUsd, 489960.0);
    // (64 x 1,275 W + 30,000 W) = 111.6 kW x 26,280 h x 1.58 x $0.0806 = $373,492.327104.
    COMPARE_WITHIN(c.energyUsd, 373492.327104, kExact);
    COMPARE_WITHIN(c.totalUsd, 3343452.327104, kExact);
    // / (64 x 26,280) GPU-hours = $1.98787833375 per GPU-hour.
    COMPARE_WITHIN(c.perGpuHourUsd, 1.9878783337519, kExact);
    // 100,000 tokens/s x 26,280 h x 3,600 s = 9.4608e12 tokens; $3,343,452.33 / 9.4608e6.
    COMPARE_WITHIN(c.lifetimeTokens, 9.4608e12, kExact);
    COMPARE_WITHIN(c.perMillionTokensUsd, 0.35340059266700, kExact);
    // Every price used is named with its source, for the report's assumptions.
    QCOMPARE(c.prices.size(), std::size_t(4));
    for (const PriceUsed& p : c.prices)
        QVERIFY2(!p.source.empty(), p.what.c_str());
}

void tst_Ownership::rentedClusterByHand() {
    // 64 GPUs x 26,280 h x $2.90 = $4,877,568, whatever the fabric costs to build.
    OwnershipOptions rented;
    rented.mode = OwnershipMode::Rented;
    const OwnershipCost c = ownershipCost(h100Cluster(), prices(), rented);
    QVERIFY(c.priced);
    QVERIFY(c.mode == OwnershipMode::Rented);
    COMPARE_WITHIN(c.rentalUsd, 4877568.0, kExact);
    COMPARE_WITHIN(c.totalUsd, 4877568.0, kExact);
    COMPARE_WITHIN(c.perGpuHourUsd, 2.90, kExact);
    QCOMPARE(c.serversUsd, 0.0);
    QVERIFY(!c.cloudOffer);

    // Twelve months instead of 36: a third of the GPU-hours and of the bill, same rate.
    rented.amortizationMonths = 12;
    const OwnershipCost year = ownershipCost(h100Cluster(), prices(), rented);
    COMPARE_WITHIN(year.totalUsd, 4877568.0 / 3, kExact);
    COMPARE_WITHIN(year.perMillionTokensUsd, c.perMillionTokensUsd, kExact);
}

void tst_Ownership::cloudFabricIsRentedAsTheCloudOffersIt() {
    // EFA cannot be owned: even asked for an owned cluster it is priced as AWS rents p5,
    // 64 x 26,280 h x $12.29 = $20,670,796.80.
    OwnershipInputs in = h100Cluster();
    in.fabricId = "efa";
    in.fabricCloud = "AWS";
    const OwnershipCost c = ownershipCost(in, prices());
    QVERIFY(c.priced);
    QVERIFY(c.mode == OwnershipMode::Rented);
    QVERIFY(c.cloudOffer);
    QCOMPARE(c.rentalOffer, std::string("AWS p5.48xlarge, on demand"));
    COMPARE_WITHIN(c.totalUsd, 20670796.8, kExact);
    QCOMPARE(c.fabricUsd, 0.0); // the cloud's fabric is in its price

    // AWS rents no MI300X with EFA in the price list: said, not guessed.
    in.gpuId = "mi300x";
    const OwnershipCost none = ownershipCost(in, prices());
    QVERIFY(!none.priced);
    QVERIFY2(none.unpriced.find("AWS rents no mi300x") != std::string::npos, none.unpriced.c_str());
}

void tst_Ownership::unpricedClustersSayWhy() {
    OwnershipInputs inline_ = h100Cluster();
    inline_.gpuId = "my-own-accelerator";
    const OwnershipCost c = ownershipCost(inline_, prices());
    QVERIFY(!c.priced);
    QCOMPARE(c.totalUsd, 0.0);
    QCOMPARE(c.unpriced,
             std::string("the price list has no server price for GPU \"my-own-accelerator\""));

    OwnershipInputs empty = h100Cluster();
    empty.gpus = 0;
    QVERIFY(!ownershipCost(empty, prices()).priced);
}

void tst_Ownership::everyCatalogGpuHasPrices() {
    // A catalog GPU without server and rental prices would silently drop out of every
    // verdict's cost per token.
    for (const auto& [id, gpu] : Catalog::builtin().gpus()) {
        const GpuCost* cost = prices().ownership.findGpu(id);
        QVERIFY2(cost, id.c_str());
        QVERIFY(cost->serverUsdPerGpu.value > 0 && !cost->serverUsdPerGpu.source.empty());
        // A server draws more than its GPU alone.
        QVERIFY2(cost->serverWattsPerGpu.value > gpu.powerWatts, id.c_str());
        QVERIFY(cost->rentalUsdPerGpuHour.value > 0 && !cost->rentalUsdPerGpuHour.source.empty());
    }
}

void tst_Ownership::nearestEvidence_data() {
    QTest::addColumn<QString>("fabric");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("servers");
    QTest::addColumn<QString>("figure");
    QTest::addColumn<double>("scale");
    QTest::addColumn<bool>("extrapolation");
    // The figures: ib-ndr H100 at 2, 8 and 64 servers; ib-ndr B200 at 512; roce-v2 H100 at 2.
    QTest::addRow("same scale") << "ib-ndr"
                                << "h100-sxm" << 8 << "ndr-h100-8" << 1.0 << false;
    // 24 servers: 3x from 8, 2.67x from 64 -> the 64-server run, within 4x.
    QTest::addRow("between two runs") << "ib-ndr"
                                      << "h100-sxm" << 24 << "ndr-h100-64" << 24.0 / 64 << false;
    // 256 servers: 4x from 64 exactly, which is still within reach.
    QTest::addRow("4x exactly") << "ib-ndr"
                                << "h100-sxm" << 256 << "ndr-h100-64" << 4.0 << false;
    // 2,048 servers: the H100 runs are 32x away, the B200 one 4x: the one within reach wins,
    // though it is another GPU.
    QTest::addRow("another GPU within reach")
        << "ib-ndr"
        << "h100-sxm" << 2048 << "ndr-b200-512" << 4.0 << false;
    // 16 servers of B200: the B200 run is 32x away, the H100 one at 8 within reach.
    QTest::addRow("same GPU far, other near") << "ib-ndr"
                                              << "b200" << 16 << "ndr-h100-8" << 2.0 << false;
    // RoCE at 2,048 servers: its only run is 1,024x smaller.
    QTest::addRow("extrapolation") << "roce-v2"
                                   << "h100-sxm" << 2048 << "roce-h100-2" << 1024.0 << true;
    QTest::addRow("fabric never measured") << "ethernet-tcp"
                                           << "h100-sxm" << 8 << "" << 0.0 << true;
}

void tst_Ownership::nearestEvidence() {
    QFETCH(QString, fabric);
    QFETCH(QString, gpu);
    QFETCH(int, servers);
    QFETCH(QString, figure);
    QFETCH(double, scale);
    QFETCH(bool, extrapolation);
    const std::vector<PublishedFigure> figures = {
        ::figure("ndr-h100-2", "ib-ndr", "h100-sxm", 2, 1 << 30),
        ::figure("ndr-h100-8", "ib-ndr", "h100-sxm", 8, 1 << 30),
        ::figure("ndr-h100-64", "ib-ndr", "h100-sxm", 64, 1 << 30),
        ::figure("ndr-b200-512", "ib-ndr", "b200", 512, 1 << 30),
        ::figure("roce-h100-2", "roce-v2", "h100-sxm", 2, 1 << 30),
    };
    const auto e = fabriclab::model::nearestEvidence(figures, fabric.toStdString(),
                                                     gpu.toStdString(), servers, 1 << 30);
    if (figure.isEmpty()) {
        QVERIFY(!e);
        return;
    }
    QVERIFY(e);
    QCOMPARE(QString::fromStdString(e->figureId), figure);
    COMPARE_WITHIN(e->scale, scale, 1e-12);
    QCOMPARE(e->extrapolation, extrapolation);
}

QTEST_APPLESS_MAIN(tst_Ownership)
#include "tst_Ownership.moc"
