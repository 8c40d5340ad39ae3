// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/charts/RunFeed.hpp"

#include "views/models/NumberFormat.hpp"

#include <QCoreApplication>

namespace fabriclab::views {

QString collectiveName(const model::RunReport& r) {
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("ResultsDashboard", text);
    };
    const auto& c = r.collective;
    QString choice = tr("%1, %2").arg(engineText(model::toString(c.algorithm)),
                                      engineText(model::toString(c.protocol)));
    if (c.chosenBy != "nccl")
        choice = tr("%1, chosen by %2's tuner").arg(choice, engineText(c.chosenBy));
    return tr("%1 of %2 over %3 GPUs (%4)")
        .arg(engineText(model::toString(c.op)), bytesText(c.bytes), numberText(c.ranks), choice);
}

QString engineSentence(const std::string& engine) {
    QString text = QString::fromStdString(engine);
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

} // namespace fabriclab::views
