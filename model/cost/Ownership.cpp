// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/cost/Ownership.hpp"

#include <cmath>

namespace fabriclab::model {
namespace {

constexpr double kWattsPerKilowatt = 1000;
constexpr double kTokensPerMillion = 1e6;
constexpr double kSecondsPerHour = 3600;

double finiteOrZero(double value) {
    return std::isfinite(value) && value > 0 ? value : 0.0;
}

} // namespace

std::string_view toString(OwnershipMode mode) {
    return mode == OwnershipMode::Owned ? "owned" : "rented";
}

std::optional<OwnershipMode> ownershipModeFromString(std::string_view text) {
    if (text == "owned")
        return OwnershipMode::Owned;
    if (text == "rented")
        return OwnershipMode::Rented;
    return std::nullopt;
}

OwnershipCost ownershipCost(const OwnershipInputs& in, const PriceCatalog& prices,
                            const OwnershipOptions& options) {
    OwnershipCost cost;
    const bool cloudFabric = !in.fabricCloud.empty();
    cost.mode = cloudFabric ? OwnershipMode::Rented : options.mode;
    cost.months = finiteOrZero(options.amortizationMonths.value_or(prices.amortizationMonths));
    const double hours = cost.months * prices.hoursPerMonth;
    const int gpus = in.gpus > 0 ? in.gpus : 0;
    cost.gpuHours = hours * gpus;
    if (gpus == 0 || hours <= 0) {
        cost.unpriced = "the cluster has no GPUs or the period is empty";
        return cost;
    }
    const OwnershipPrices& own = prices.ownership;
    const GpuCost* gpu = own.findGpu(in.gpuId);

    if (cost.mode == OwnershipMode::Rented) {
        double rate = 0;
        if (cloudFabric) {
            const CloudRental* offer = own.findCloudRental(in.fabricId, in.gpuId);
            if (!offer) {
                cost.unpriced = in.fabricCloud + " rents no " + in.gpuId + " servers with " +
                                in.fabricId + " in the price list";
                return cost;
            }
            cost.cloudOffer = true;
            cost.rentalOffer = offer->offer;
            rate = offer->usdPerGpuHour.value;
            cost.prices.push_back(
                {offer->offer, rate, "USD per GPU-hour", offer->usdPerGpuHour.source});
        } else if (gpu) {
            rate = gpu->rentalUsdPerGpuHour.value;
            cost.rentalOffer = in.gpuId + " on demand";
            cost.prices.push_back(
                {in.gpuId + " rental", rate, "USD per GPU-hour", gpu->rentalUsdPerGpuHour.source});
        } else {
            cost.unpriced = "the price list has no rental price for GPU \"" + in.gpuId + "\"";
            return cost;
        }
        cost.rentalUsd = rate * cost.gpuHours;
        cost.totalUsd = cost.rentalUsd;
    } else {
        if (!gpu) {
            cost.unpriced = "the price list has no server price for GPU \"" + in.gpuId + "\"";
            return cost;
        }
        cost.serversUsd = gpu->serverUsdPerGpu.value * gpus;
        cost.fabricUsd = finiteOrZero(in.fabricCapexUsd);
        const double itWatts = gpu->serverWattsPerGpu.value * gpus + finiteOrZero(in.fabricWatts);
        cost.energyUsd =
            itWatts / kWattsPerKilowatt * hours * own.pue.value * own.electricityUsdPerKwh.value;
        cost.totalUsd = cost.serversUsd + cost.fabricUsd + cost.energyUsd;
        cost.prices.push_back({in.gpuId + " server", gpu->serverUsdPerGpu.value, "USD per GPU",
                               gpu->serverUsdPerGpu.source});
        cost.prices.push_back({in.gpuId + " server power", gpu->serverWattsPerGpu.value,
                               "W per GPU", gpu->serverWattsPerGpu.source});
        cost.prices.push_back({"PUE", own.pue.value, "facility / IT power", own.pue.source});
        cost.prices.push_back({"electricity", own.electricityUsdPerKwh.value, "USD per kWh",
                               own.electricityUsdPerKwh.source});
    }
    cost.priced = true;
    cost.perGpuHourUsd = cost.totalUsd / cost.gpuHours;
    const double tokensPerSecond = finiteOrZero(in.tokensPerSecond);
    if (tokensPerSecond > 0) {
        cost.lifetimeTokens = tokensPerSecond * hours * kSecondsPerHour;
        cost.perMillionTokensUsd = cost.totalUsd / cost.lifetimeTokens * kTokensPerMillion;
    }
    return cost;
}

} // namespace fabriclab::model
