// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/panels/GeneratorPreview.hpp"

#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "views/sim/EnginePool.hpp"

#include <QtConcurrent/QtConcurrentRun>

#include <stdexcept>

namespace fabriclab::views {

GeneratorPreview::GeneratorPreview(QObject* parent) : QObject(parent) {
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        if (m_waiting) {
            // The form moved on while this ran: its result is stale, the newest is due.
            m_waiting = false;
            start(m_newest);
            return;
        }
        if (!m_watcher.isCanceled())
            Q_EMIT ready(m_watcher.result());
    });
}

GeneratorPreview::~GeneratorPreview() {
    m_watcher.cancel();
    m_watcher.waitForFinished();
}

void GeneratorPreview::request(const model::GeneratorParams& params) {
    m_newest = params;
    if (m_watcher.isRunning())
        m_waiting = true;
    else
        start(params);
}

void GeneratorPreview::start(const model::GeneratorParams& params) {
    m_watcher.setFuture(QtConcurrent::run(&enginePool(), [params] {
        enterEngineThread();
        return compute(params);
    }));
}

GeneratorPreview::Outcome GeneratorPreview::compute(const model::GeneratorParams& params) {
    Outcome outcome;
    outcome.params = params;
    try {
        const model::Topology topology = model::generate(params);
        outcome.summary = TopologySummary::of(topology);
        outcome.leafRatio = model::worstLeaf(topology);
    } catch (const model::GeneratorError& e) {
        outcome.refusal = QString::fromStdString(e.what());
        outcome.field = QString::fromStdString(e.field());
    } catch (const std::invalid_argument& e) {
        outcome.refusal = QString::fromStdString(e.what());
    }
    return outcome;
}

} // namespace fabriclab::views
