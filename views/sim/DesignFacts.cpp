// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/DesignFacts.hpp"

#include "views/document/TopologyDocument.hpp"
#include "views/sim/EnginePool.hpp"

#include <QtConcurrent/QtConcurrentRun>

namespace fabriclab::views {

DesignFactsResult DesignFactsResult::of(const model::Topology& topology) {
    return {model::worstLeaf(topology), model::loseOneSpine(topology), model::loseOneRail(topology),
            topology.switchCounts(), topology.cableCounts().switchToSwitch()};
}

DesignFacts& DesignFacts::of(TopologyDocument& document) {
    if (auto* existing = document.findChild<DesignFacts*>(QString(), Qt::FindDirectChildrenOnly))
        return *existing;
    return *new DesignFacts(document);
}

DesignFacts::DesignFacts(TopologyDocument& document) : QObject(&document), m_document(document) {
    m_pool.setMaxThreadCount(1);
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(0);
    connect(&m_coalesce, &QTimer::timeout, this, &DesignFacts::start);
    connect(&document, &TopologyDocument::changed, this, [this] {
        ++m_generation;
        m_current.reset();
        m_coalesce.start();
    });
    m_watcher.setObjectName(QStringLiteral("designFacts"));
    connect(&m_watcher, &QFutureWatcher<DesignFactsResult>::finished, this, [this] {
        if (m_current)
            return; // awaitCurrent() took this result already
        if (m_running != m_generation || m_watcher.isCanceled()) {
            start(); // overtaken by an edit: work out the design as it is now
            return;
        }
        m_current = m_watcher.result();
        Q_EMIT ready();
    });
    start();
}

DesignFacts::~DesignFacts() {
    m_watcher.waitForFinished();
}

void DesignFacts::start() {
    if (m_watcher.isRunning() || m_current)
        return; // the running pass starts the next one when it finishes
    m_coalesce.stop();
    m_running = m_generation;
    m_watcher.setFuture(QtConcurrent::run(&m_pool, [design = m_document.snapshot()] {
        enterEngineThread();
        return DesignFactsResult::of(design->topology);
    }));
}

const DesignFactsResult& DesignFacts::awaitCurrent() {
    while (!m_current) {
        start();
        m_watcher.waitForFinished();
        if (m_running == m_generation && !m_watcher.isCanceled()) {
            m_current = m_watcher.result();
            Q_EMIT ready();
        }
    }
    return *m_current;
}

} // namespace fabriclab::views
