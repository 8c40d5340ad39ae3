// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/design/Sites.hpp"
#include "model/design/Workload.hpp"
#include "model/workload/StepTime.hpp"

#include <optional>
#include <string>
#include <vector>

namespace fabriclab::model {

/// A published DiLoCo result: the loss (or perplexity) a DiLoCo run of this size, replica
/// count and H reached against its reference. FabricLab does not simulate convergence: it
/// quotes the published run nearest to the design's, and says the figure is borrowed.
struct DilocoFigure {
    const char* id;      ///< the row in docs/reference/design-space.md §4
    double paramsB;      ///< model size, billions of parameters
    int replicas;        ///< M
    int innerSteps;      ///< H
    double deltaPercent; ///< + worse, - better than `against`
    const char* metric;  ///< "eval loss" or "perplexity"
    const char* against; ///< what the delta is measured against
    const char* source;
};

/// Every figure the nearest-run look-up chooses from.
const std::vector<DilocoFigure>& publishedDilocoFigures();

/// The published run closest to a model of `paramsB` billion parameters on `replicas`
/// sites at H = `innerSteps`: nearest in log model size first, then replicas, then H.
const DilocoFigure& nearestDilocoFigure(double paramsB, int replicas, int innerSteps);

/// One way of training across the sites: its step, what it sends over the WAN and what
/// the token budget then takes.
struct AcrossSitesMode {
    double wanBytes = 0;        ///< what one all-reduce over the WAN carries per site span
    double wanSeconds = 0;      ///< one all-reduce over the WAN
    double stallSeconds = 0;    ///< per step, what the replicas wait on the WAN
    double stepSeconds = 0;     ///< per step, the site's own step plus the stall
    double tokensPerSecond = 0; ///< every site together
    double utilization = 0;     ///< site step / step: the share of time spent training
    /// WAN Gb/s per span (all circuits together) this mode needs to keep 90 % of the time
    /// training; absent when the latency alone stalls more than that.
    std::optional<double> gbpsFor90Percent;
    double trainSeconds = 0; ///< the token budget at tokensPerSecond
    double gpuHours = 0;     ///< every site's GPUs over trainSeconds
    double costUsd = 0;      ///< GPU-hours rented, plus the WAN lease over trainSeconds
};

/// What a design trained on several sites delivers: synchronous data parallelism, whose
/// gradients cross the WAN every step, against DiLoCo, whose outer gradients cross it
/// every H steps.
struct TrainingAcrossSites {
    Sites sites;
    long long gpus = 0; ///< every site's GPUs
    double siteStepSeconds = 0;
    double parameters = 0;
    AcrossSitesMode synchronous;
    AcrossSitesMode diloco;
    /// Bytes synchronous data parallelism sends over the WAN per byte DiLoCo sends.
    double wanBytesRatio = 0;
    double trainTokens = 0;
    /// The WAN lease for one month of every circuit; absent when the design gives no price.
    std::optional<double> wanUsdPerMonth;
    const DilocoFigure* quality = nullptr; ///< the nearest published DiLoCo run
    std::vector<std::string> assumptions;
};

/// Prices the estimate needs beside the step.
struct AcrossSitesPricing {
    double trainTokens = 1e12;
    double gpuHourUsd = 0; ///< the rental price of one of the workload's GPUs
    /// GPUs a site rents, as the single-site training estimate charges them (every GPU of
    /// its connected servers); 0: the workload's own.
    long long siteGpus = 0;
};

/// Training the workload on every site at once. `siteStep` is one site's step as the
/// fabric delivers it (estimateStep); the WAN all-reduce is a ring over the sites after
/// each site has reduced inside itself, so each span carries 2 (S - 1) / S of the payload
/// and pays 2 (S - 1) one-way latencies. Synchronous data parallelism sends BF16 gradients
/// every step and hides the workload's `overlap` share of that behind compute (never more
/// than the compute); DiLoCo sends `payloadBits` per parameter every H steps and waits
/// only for what outlasts `overlapSteps` steps.
TrainingAcrossSites trainAcrossSites(const StepTime& siteStep, const Workload& workload,
                                     const Sites& sites, const AcrossSitesPricing& pricing);

/// The estimate in sentences, one a line (label, then text), as the CLI's report, the app's
/// results and the PDF report all print it.
struct AcrossSitesLine {
    std::string label;
    std::string text;
};
std::vector<AcrossSitesLine> describeAcrossSites(const TrainingAcrossSites& t);

/// One ring all-reduce of `bytes` over the WAN between the sites.
double wanAllReduceSeconds(const Sites& sites, double bytes);

} // namespace fabriclab::model
