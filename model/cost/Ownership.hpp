// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/PriceCatalog.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// How the cluster is paid for: bought and run for its life, or rented by the GPU-hour.
enum class OwnershipMode { Owned, Rented };

std::string_view toString(OwnershipMode mode);
std::optional<OwnershipMode> ownershipModeFromString(std::string_view text);

/// What the cost of ownership is worked out from: the cluster and its fabric as designed
/// and priced (model::estimateCost), and how fast it trains.
struct OwnershipInputs {
    std::string gpuId; ///< GPU catalog id; an inline GPU has no server price
    std::string fabricId;
    std::string fabricCloud; ///< Fabric::cloud: non-empty for a cloud's own fabric
    int gpus = 0;
    double fabricCapexUsd = 0;
    double fabricWatts = 0;
    double tokensPerSecond = 0; ///< 0 without a workload
};

struct OwnershipOptions {
    OwnershipMode mode = OwnershipMode::Owned;
    std::optional<double> amortizationMonths; ///< the price catalog's default when absent
};

/// One price the figures rest on, named for the assumptions a report lists.
struct PriceUsed {
    std::string what;
    double value = 0;
    std::string unit;
    std::string source;
};

/// Lifetime cost of the cluster (servers, fabric and energy, or the rental) and what it
/// comes to per GPU-hour and per trained token.
struct OwnershipCost {
    OwnershipMode mode = OwnershipMode::Owned;
    /// False when the catalog cannot price this cluster (no server or rental price for its
    /// GPU); `unpriced` says why and every figure below is 0.
    bool priced = false;
    std::string unpriced;
    double months = 0;        ///< the period costed: the amortization period
    double gpuHours = 0;      ///< every GPU over that period
    double serversUsd = 0;    ///< owned: GPU servers
    double fabricUsd = 0;     ///< owned: the fabric's capex (model::CostReport::capex)
    double energyUsd = 0;     ///< owned: servers and fabric at full draw x PUE x $/kWh
    double rentalUsd = 0;     ///< rented: GPU-hours x the rental price
    double totalUsd = 0;      ///< what the period costs in all
    double perGpuHourUsd = 0; ///< totalUsd / gpuHours
    /// The rental is the cloud's own offer with its fabric (EFA on an AWS instance), not the
    /// GPU's general rental price.
    bool cloudOffer = false;
    std::string rentalOffer; ///< the offer priced, for people
    // With a workload (tokensPerSecond > 0):
    double lifetimeTokens = 0;      ///< tokens the cluster trains over the period
    double perMillionTokensUsd = 0; ///< totalUsd per million of them
    std::vector<PriceUsed> prices;  ///< every price the figures used, with its source
};

/// The cost of owning (servers, fabric, energy over the amortization period, the cluster
/// busy throughout) or renting the cluster. A cloud's own fabric (EFA) cannot be owned:
/// it is always priced as that cloud rents it, with the offer named, whatever `mode`
/// asks. Never throws; an unpriceable cluster comes back with `priced` false and a reason.
OwnershipCost ownershipCost(const OwnershipInputs& inputs, const PriceCatalog& prices,
                            const OwnershipOptions& options = {});

} // namespace fabriclab::model
