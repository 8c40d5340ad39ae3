// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/DesignRegeneration.hpp"

#include <cmath>

#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/PortPlanes.hpp"

#include <QCoreApplication>

#include <algorithm>
#include <stdexcept>

namespace fabriclab::views {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("fabriclab::views::DesignRegeneration", text);
}

} // namespace

DesignRegeneration DesignRegeneration::withParams(const model::Design& current,
                                                  const model::GeneratorParams& params) {
    DesignRegeneration result;
    try {
        model::Design next = model::withTopology(current, model::generate(params));
        next.generator = params;
        // Data parallelism follows the GPU count; a split that no longer fits goes.
        if (next.workload)
            next.workload = model::rescaled(*next.workload, next.topology.gpuCount());
        result.design = std::move(next);
    } catch (const std::invalid_argument& e) {
        // GeneratorError and any other refusal of the request: the message names the
        // limit and the numbers.
        result.refusal = QString::fromStdString(e.what());
    }
    return result;
}

DesignRegeneration DesignRegeneration::withFabric(const model::Design& current,
                                                  const model::Fabric& fabric) {
    if (!current.generator) {
        DesignRegeneration result;
        result.design = current;
        result.design->fabric = {fabric, false};
        return result;
    }
    model::GeneratorParams params = *current.generator;
    // The fabric's switch, broken out to the ports' speed where a multiplane NIC's run slower.
    const model::Gbps portSpeed = model::generator::carryNicsTo(params, fabric);
    const int radix = std::max(
        1, static_cast<int>(std::lround(fabric.switchRadix * (fabric.portSpeed / portSpeed))));
    params.leafRadix = radix;
    params.spineRadix = radix;
    params.coreRadix = radix;
    DesignRegeneration result = withParams(current, params);
    if (result.design)
        result.design->fabric = {fabric, false};
    return result;
}

DesignRegeneration DesignRegeneration::withOversubscription(const model::Design& current,
                                                            double ratio) {
    if (!current.generator) {
        DesignRegeneration result;
        result.refusal =
            tr("This design was drawn by hand; only a generated design can be rebuilt at "
               "another oversubscription.");
        return result;
    }
    model::GeneratorParams params = *current.generator;
    params.oversubscription = ratio;
    return withParams(current, params);
}

DesignRegeneration DesignRegeneration::forStoryStep(const model::Design& current,
                                                    const model::StoryStep& step,
                                                    const model::Catalog& catalog) {
    const model::Fabric* fabric = catalog.findFabric(step.fabric);
    if (!fabric) {
        DesignRegeneration result;
        result.refusal = tr("The catalog has no fabric \u201c%1\u201d any more.")
                             .arg(QString::fromStdString(step.fabric));
        return result;
    }
    DesignRegeneration result{current, {}};
    if (current.fabric.isInline || current.fabric.spec.id != fabric->id) {
        result = withFabric(current, *fabric);
        if (!result.accepted())
            return result;
    }
    const auto& generator = result.design->generator;
    if (step.oversubscription && generator &&
        std::abs(generator->oversubscription - *step.oversubscription) > 1e-9) {
        result = withOversubscription(*result.design, *step.oversubscription);
        if (!result.accepted())
            return result;
    }
    result.design->failures = step.failures;
    result.design->story = current.story;
    return result;
}

} // namespace fabriclab::views
