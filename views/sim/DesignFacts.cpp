// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/sim/DesignFacts.hpp"

#include "views/document/TopologyDocument.hpp"
#include "views/sim/EngineTask.hpp"

#include <utility>

namespace fabriclab::views {

DesignFactsResult DesignFactsResult::of(const model::Topology& topology) {
    return {model::worstLeaf(topology),   model::loseOneSpine(topology),
            model::loseOneRail(topology), model::loseOnePlane(topology),
            topology.switchCounts(),      topology.cableCounts().switchToSwitch()};
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
    start();
}

DesignFacts::~DesignFacts() {
    m_task.waitForFinished();
}

void DesignFacts::start() {
    if (m_slot || m_current)
        return; // the running pass starts the next one when it finishes
    m_coalesce.stop();
    m_running = m_generation;
    m_slot = std::make_shared<std::optional<DesignFactsResult>>();
    m_task = runForReceiver(
        m_pool, this,
        [design = m_document.snapshot(), slot = m_slot] {
            slot->emplace(DesignFactsResult::of(design->topology));
            return slot;
        },
        [this](const Slot& slot) { passDone(slot); });
}

void DesignFacts::passDone(const Slot& slot) {
    if (slot != m_slot)
        return; // awaitCurrent() took this pass's facts already
    m_slot.reset();
    if (m_running != m_generation) {
        start(); // overtaken by an edit: work out the design as it is now
        return;
    }
    m_current = std::move(**slot);
    Q_EMIT ready();
}

const DesignFactsResult& DesignFacts::awaitCurrent() {
    while (!m_current) {
        start();
        m_task.waitForFinished();
        const Slot slot = std::exchange(m_slot, nullptr);
        if (m_running == m_generation && slot && *slot) {
            m_current = std::move(**slot);
            Q_EMIT ready();
        }
    }
    return *m_current;
}

} // namespace fabriclab::views
