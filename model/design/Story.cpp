// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/design/Story.hpp"

#include "model/design/Design.hpp"

namespace fabriclab::model {

bool isStoryChart(std::string_view name) {
    for (const std::string_view known : kStoryChartNames)
        if (known == name)
            return true;
    return false;
}

StoryStep storyStepOf(const Design& design, std::string title, std::vector<std::string> charts) {
    StoryStep step;
    step.title = std::move(title);
    step.fabric = design.fabric.spec.id;
    if (design.generator)
        step.oversubscription = design.generator->oversubscription;
    step.failures = design.failures;
    if (charts.size() > kStoryCharts)
        charts.resize(kStoryCharts);
    std::erase_if(charts, [](const std::string& name) { return !isStoryChart(name); });
    step.charts = std::move(charts);
    return step;
}

} // namespace fabriclab::model
