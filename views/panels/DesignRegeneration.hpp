// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/catalog/Fabric.hpp"
#include "model/design/Design.hpp"
#include "model/fabric/GeneratorParams.hpp"

#include <QString>

#include <optional>

namespace fabriclab::views {

/// A design rebuilt by model::generate with changed parameters, or the generator's
/// reason for refusing. The fabric panel uses it both to preview (while a slider moves)
/// and to commit (one TopologyDocument::replaceDesign), so the preview is exactly what
/// a release applies. The design's name and collective are kept, and its workload with
/// data parallelism rescaled to the new GPU count (dropped when it no longer divides).
struct DesignRegeneration {
    std::optional<model::Design> design; ///< empty when refused
    QString refusal;                     ///< the generator's sentence, when refused

    bool accepted() const { return design.has_value(); }

    /// `current` regenerated from `params` (its fabric unchanged).
    static DesignRegeneration withParams(const model::Design& current,
                                         const model::GeneratorParams& params);
    /// `current` on another catalog fabric. A generated design is rebuilt with NICs at
    /// the fabric's port speed and every radix at its switch radix; a hand-drawn one
    /// keeps its topology and only changes its fabric reference.
    static DesignRegeneration withFabric(const model::Design& current, const model::Fabric& fabric);
    /// `current` regenerated at leaf oversubscription `ratio` (down:up, 2 for 2:1).
    /// Refused for a hand-drawn design, which has no generator to ask.
    static DesignRegeneration withOversubscription(const model::Design& current, double ratio);
    /// `current` as a story step shows it: on the step's fabric, at its oversubscription,
    /// with its failures (the story itself kept). Refused with the generator's reason, or
    /// when the catalog no longer has the step's fabric.
    static DesignRegeneration forStoryStep(const model::Design& current,
                                           const model::StoryStep& step,
                                           const model::Catalog& catalog);
};

} // namespace fabriclab::views
