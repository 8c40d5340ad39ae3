// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "views/document/TopologyDocument.hpp"

#include "views/document/RackScale.hpp"

#include "model/design/DesignLimits.hpp"
#include "model/io/DesignFile.hpp"
#include "views/document/EditLinkCommand.hpp"
#include "views/document/EditNodeCommand.hpp"
#include "views/document/InsertItemsCommand.hpp"
#include "views/document/MoveNodesCommand.hpp"
#include "views/document/RemoveItemsCommand.hpp"
#include "views/document/ReplaceDesignCommand.hpp"

#include <QFileInfo>
#include <QPromise>

#include <algorithm>
#include <exception>
#include <set>

namespace fabriclab::views {
namespace {

const char* const kDefaultFabric = "ib-ndr";
/// The GPU a design without workload is evaluated with (as runDesign does).
const char* const kDefaultGpu = "h100-sxm";
/// The rack a Rack tool places when the workload's GPU is no rack-scale domain.
const char* const kDefaultRackGpu = "gb200";

QString nameOf(const model::Topology& topology, model::NodeId id) {
    return QString::fromStdString(topology.node(id).name);
}

} // namespace

TopologyDocument::TopologyDocument(const model::Catalog& catalog, QObject* parent)
    : QObject(parent), m_catalog(catalog) {
    qRegisterMetaType<model::NodeId>();
    qRegisterMetaType<model::LinkId>();
    m_builder.setMaxThreadCount(1);
    m_building.setObjectName(QStringLiteral("designBuild"));
    QObject::connect(&m_building, &QFutureWatcherBase::finished, this,
                     &TopologyDocument::buildFinished);
    newDesign();
}

QString TopologyDocument::displayName() const {
    if (!m_path.isEmpty())
        return QFileInfo(m_path).fileName();
    return m_design.name.empty() ? tr("Untitled") : QString::fromStdString(m_design.name);
}

void TopologyDocument::newDesign() {
    model::Design design;
    design.name = tr("Untitled").toStdString();
    design.fabric = {*m_catalog.findFabric(kDefaultFabric), false};
    adopt(std::move(design), QString());
}

model::Design TopologyDocument::read(const QString& path) const {
    // Lenient about the workload's split only: an edited design must always reopen.
    return model::loadDesign(path.toStdString(), m_catalog, model::ReadOptions{false});
}

void TopologyDocument::load(const QString& path) {
    // Parse first, adopt second: a refused file never touches the current design.
    adopt(read(path), path);
}

void TopologyDocument::recover(const QString& autosave, const QString& origin) {
    adopt(read(autosave), origin, true);
}

void TopologyDocument::save(const QString& path) {
    model::saveDesign(m_design, path.toStdString());
    setPath(path);
    m_undo.setClean();
}

void TopologyDocument::adopt(model::Design design, const QString& path, bool unsaved) {
    // Builds asked of the design open until now do not apply to this one. One still
    // running finishes unheeded (buildFinished sees the design changed).
    m_builds.clear();
    m_design = std::move(design);
    m_snapshot.reset();
    m_undo.clear();
    if (unsaved)
        m_undo.resetClean();
    setPath(path);
    Q_EMIT designReset(DesignReset::Opened);
    Q_EMIT changed();
}

void TopologyDocument::setPath(const QString& path) {
    if (path == m_path)
        return;
    m_path = path;
    Q_EMIT filePathChanged(path);
}

QString TopologyDocument::uniqueName(model::NodeKind kind,
                                     const std::set<std::string>& taken) const {
    const std::string_view kindName = model::toString(kind);
    const QString stem =
        kind == model::NodeKind::Server
            ? QStringLiteral("srv")
            : QString::fromUtf8(kindName.data(), static_cast<qsizetype>(kindName.size()));
    for (int n = 1;; ++n) {
        const QString name = stem + QLatin1Char('-') + QString::number(n);
        if (!topology().findNode(name.toStdString()) && !taken.count(name.toStdString()))
            return name;
    }
}

int TopologyDocument::freePorts(model::NodeId id) const {
    const auto& node = topology().node(id);
    const int ports =
        node.kind == model::NodeKind::Server ? node.server.cablePorts() : node.sw.radix;
    return ports - topology().portsUsed(id);
}

model::NodeId TopologyDocument::addNode(model::NodeKind kind, QPointF position, bool rackScale) {
    model::Node node;
    node.kind = kind;
    node.name = uniqueName(kind).toStdString();
    node.x = position.x();
    node.y = position.y();
    const auto& fabric = m_design.fabric.spec;
    const auto& generator = m_design.generator;
    const model::GpuSpec* workloadGpu = m_design.workload ? &m_design.workload->gpu.spec : nullptr;
    if (kind == model::NodeKind::Server && rackScale) {
        // One NVLink rack with a NIC per GPU (a GB200 tray's four ConnectX NICs for its
        // four GPUs) at the fabric's port speed.
        const model::GpuSpec* gpu = workloadGpu && workloadGpu->scaleUpDomain >= kRackScaleGpus
                                        ? workloadGpu
                                        : m_catalog.findGpu(kDefaultRackGpu);
        node.server.gpus =
            gpu ? std::clamp(gpu->scaleUpDomain, 1, model::limits::kMaxPerServer) : 72;
        if (gpu && gpu->scaleUpGBps > 0)
            node.server.scaleUpGBps = gpu->scaleUpGBps;
        node.server.nics = node.server.gpus;
        node.server.nicSpeed = fabric.portSpeed;
    } else if (kind == model::NodeKind::Server && generator) {
        // Like the servers the generator made, so the new one fits beside them.
        node.server.gpus = generator->gpusPerServer;
        node.server.nics = generator->nicsPerServer;
        node.server.nicSpeed = generator->nicSpeed;
        node.server.portsPerNic = generator->portsPerNic.value_or(1);
    } else if (kind == model::NodeKind::Server) {
        // One scale-up domain of the design's GPU (the catalog's default without a
        // workload), one NIC per GPU (a rail each) at the fabric's port speed.
        const model::GpuSpec* gpu =
            m_design.workload ? &m_design.workload->gpu.spec : m_catalog.findGpu(kDefaultGpu);
        if (gpu) {
            node.server.gpus = std::clamp(gpu->scaleUpDomain, 1, model::limits::kMaxPerServer);
            if (gpu->scaleUpGBps > 0)
                node.server.scaleUpGBps = gpu->scaleUpGBps;
        }
        node.server.nics = node.server.gpus;
        node.server.nicSpeed = fabric.portSpeed;
    } else {
        node.sw.radix = !generator                       ? fabric.switchRadix
                        : kind == model::NodeKind::Leaf  ? generator->leafRadix
                        : kind == model::NodeKind::Spine ? generator->spineRadix
                                                         : generator->coreRadix;
        // A multiplane generator's switches run at the NIC speed over its ports.
        node.sw.portSpeed =
            generator ? model::Gbps(generator->nicSpeed.value / generator->portsPerNic.value_or(1))
                      : fabric.portSpeed;
    }
    const model::NodeId id = topology().nextNodeId();
    m_undo.push(new InsertItemsCommand(*this, {{id, node}}, {},
                                       tr("Add %1").arg(QString::fromStdString(node.name))));
    return id;
}

void TopologyDocument::moveNodes(const QHash<model::NodeId, QPointF>& positions) {
    std::map<model::NodeId, QPointF> from;
    std::map<model::NodeId, QPointF> to;
    for (auto it = positions.begin(); it != positions.end(); ++it) {
        if (!topology().contains(it.key()))
            continue;
        const auto& node = topology().node(it.key());
        if (QPointF(node.x, node.y) == it.value())
            continue;
        from.emplace(it.key(), QPointF(node.x, node.y));
        to.emplace(it.key(), it.value());
    }
    if (!to.empty())
        m_undo.push(new MoveNodesCommand(*this, std::move(from), std::move(to)));
}

void TopologyDocument::remove(const QList<model::NodeId>& nodes,
                              const QList<model::LinkId>& links) {
    if (nodes.isEmpty() && links.isEmpty())
        return;
    m_undo.push(
        new RemoveItemsCommand(*this, {nodes.begin(), nodes.end()}, {links.begin(), links.end()}));
}

std::optional<model::LinkId> TopologyDocument::connect(model::NodeId a, model::NodeId b,
                                                       QString* refusal) {
    const auto refuse = [&](const QString& why) -> std::optional<model::LinkId> {
        if (refusal)
            *refusal = why;
        return std::nullopt;
    };
    if (!topology().contains(a) || !topology().contains(b))
        return refuse(tr("Both ends of a link must be nodes of this design."));
    if (a == b)
        return refuse(tr("A link needs two different nodes."));
    const auto& na = topology().node(a);
    const auto& nb = topology().node(b);
    if (na.kind == model::NodeKind::Server && nb.kind == model::NodeKind::Server)
        return refuse(tr("Servers connect to switches, not to each other."));
    for (const auto* node : {&na, &nb}) {
        const model::NodeId id = node == &na ? a : b;
        if (freePorts(id) < 1) {
            const bool server = node->kind == model::NodeKind::Server;
            const int ports = server ? node->server.cablePorts() : node->sw.radix;
            return refuse(tr("%1 has no free %2: all %3 are in use.")
                              .arg(nameOf(topology(), id), server ? tr("NIC") : tr("port"))
                              .arg(ports));
        }
    }
    // Drawing again between the same pair adds a parallel cable to the existing link.
    for (const auto& [id, link] : topology().links()) {
        if ((link.a == a && link.b == b) || (link.a == b && link.b == a)) {
            model::Link wider = link;
            ++wider.count;
            m_undo.push(new EditLinkCommand(*this, id, link, wider));
            return id;
        }
    }
    const auto speedOf = [](const model::Node& n) {
        // A multiplane NIC's cable is one of its ports.
        return n.kind == model::NodeKind::Server ? n.server.nicSpeed / n.server.portsPerNic
                                                 : n.sw.portSpeed;
    };
    model::Link link;
    link.a = a;
    link.b = b;
    link.speed = std::min(speedOf(na), speedOf(nb));
    link.count = 1;
    const bool serverLink =
        na.kind == model::NodeKind::Server || nb.kind == model::NodeKind::Server;
    link.medium = serverLink ? model::LinkMedium::Dac : model::LinkMedium::Optics;
    link.lengthMeters = model::defaultLengthMeters(link.medium);
    const model::LinkId id = topology().nextLinkId();
    m_undo.push(new InsertItemsCommand(
        *this, {}, {{id, link}},
        tr("Connect %1 to %2").arg(nameOf(topology(), a), nameOf(topology(), b))));
    return id;
}

void TopologyDocument::editNode(model::NodeId id, const model::Node& node) {
    if (!topology().contains(id))
        return;
    // The app accepts exactly what a design file accepts, so every saved design reopens.
    if (const auto problem = model::nodeRangeProblem(node))
        throw std::invalid_argument(*problem);
    const model::Node& before = topology().node(id);
    if (node.name != before.name && topology().findNode(node.name))
        throw std::invalid_argument("another node is already called " + node.name);
    m_undo.push(new EditNodeCommand(*this, id, before, node));
}

void TopologyDocument::editLink(model::LinkId id, const model::Link& link) {
    if (!topology().links().count(id))
        return;
    if (const auto problem = model::linkRangeProblem(link))
        throw std::invalid_argument(*problem);
    m_undo.push(new EditLinkCommand(*this, id, topology().link(id), link));
}

QList<model::NodeId> TopologyDocument::duplicate(const QList<model::NodeId>& nodes,
                                                 QPointF offset) {
    std::vector<std::pair<model::NodeId, model::Node>> copies;
    std::vector<std::pair<model::LinkId, model::Link>> links;
    std::map<model::NodeId, model::NodeId> copyOf;
    std::set<std::string> taken;
    std::uint32_t nextNode = topology().nextNodeId().value;
    QList<model::NodeId> result;
    for (const model::NodeId id : nodes) {
        if (!topology().contains(id) || copyOf.count(id))
            continue;
        model::Node copy = topology().node(id);
        copy.x += offset.x();
        copy.y += offset.y();
        copy.placement = {};
        // Next free "<kind>-N" name, skipping names the copies themselves take.
        copy.name = uniqueName(copy.kind, taken).toStdString();
        taken.insert(copy.name);
        const model::NodeId copyId{nextNode++};
        copyOf.emplace(id, copyId);
        copies.emplace_back(copyId, std::move(copy));
        result.append(copyId);
    }
    std::uint32_t nextLink = topology().nextLinkId().value;
    for (const auto& [id, link] : topology().links())
        if (copyOf.count(link.a) && copyOf.count(link.b)) {
            model::Link copy = link;
            copy.a = copyOf.at(link.a);
            copy.b = copyOf.at(link.b);
            links.emplace_back(model::LinkId{nextLink++}, copy);
        }
    if (!copies.empty())
        m_undo.push(new InsertItemsCommand(
            *this, std::move(copies), std::move(links),
            tr("Duplicate %n node(s)", nullptr, static_cast<int>(result.size()))));
    return result;
}

void TopologyDocument::replaceDesign(model::Design design, const QString& text) {
    m_undo.push(new ReplaceDesignCommand(*this, std::move(design), text));
}

void TopologyDocument::replaceDesignLater(DesignBuild build, const QString& text) {
    m_builds.push_back({std::move(build), text});
    startBuild();
}

void TopologyDocument::startBuild() {
    if (m_buildRunning || m_builds.empty())
        return;
    m_buildRunning = true;
    // The worker reads an immutable copy: usually there is one already, the one the
    // previous build made or the simulation asked for.
    m_buildInput = snapshot();
    auto promise = std::make_shared<QPromise<std::shared_ptr<BuiltDesign>>>();
    m_building.setFuture(promise->future());
    promise->start();
    m_builder.start([promise, build = m_builds.front().build, input = m_buildInput] {
        auto built = std::make_shared<BuiltDesign>();
        try {
            built->design = build(*input);
            built->snapshot = std::make_shared<const model::Design>(built->design);
        } catch (const std::exception& e) {
            built->refusal = QString::fromStdString(e.what());
        } catch (...) {
            built->refusal = tr("the design could not be built");
        }
        promise->addResult(std::move(built));
        promise->finish();
    });
}

void TopologyDocument::buildFinished() {
    m_buildRunning = false;
    const QFuture<std::shared_ptr<BuiltDesign>> future = m_building.future();
    const std::shared_ptr<BuiltDesign> built =
        future.resultCount() > 0 ? future.resultAt(0) : std::shared_ptr<BuiltDesign>();
    // Unchanged since the build started: the snapshot it read is still the design's.
    const bool current = built && m_snapshot == m_buildInput;
    m_buildInput.reset();
    if (m_builds.empty())
        return; // another design was opened meanwhile
    if (!current) {
        // An edit, an undo or another design came first: the build applies to the design
        // as it is now, so it runs again.
        startBuild();
        return;
    }
    const PendingBuild done = std::move(m_builds.front());
    m_builds.pop_front();
    if (built->refusal.isEmpty())
        m_undo.push(new ReplaceDesignCommand(*this, std::move(built->design), done.text,
                                             std::move(built->snapshot)));
    else
        Q_EMIT designBuildRefused(done.text, built->refusal);
    startBuild();
}

void TopologyDocument::setFailures(std::vector<model::Failure> failures, const QString& text) {
    model::Design design = m_design;
    design.failures = std::move(failures);
    replaceDesign(std::move(design), text);
}

void TopologyDocument::setStory(std::vector<model::StoryStep> story, const QString& text) {
    model::Design design = m_design;
    design.story = std::move(story);
    replaceDesign(std::move(design), text);
}

void TopologyDocument::applyInsertNode(model::NodeId id, const model::Node& node) {
    m_design.topology.restoreNode(id, node);
    m_snapshot.reset();
    Q_EMIT nodeAdded(id);
    Q_EMIT changed();
}

void TopologyDocument::applyRemoveNode(model::NodeId id) {
    // Links go first so every view sees them leave before their endpoint does.
    for (const model::LinkId link : m_design.topology.linksOf(id))
        applyRemoveLink(link);
    m_design.topology.removeNode(id);
    m_snapshot.reset();
    Q_EMIT nodeRemoved(id);
    Q_EMIT changed();
}

void TopologyDocument::applyUpdateNode(model::NodeId id, const model::Node& node) {
    m_design.topology.replaceNode(id, node);
    m_snapshot.reset();
    Q_EMIT nodeChanged(id);
    Q_EMIT changed();
}

void TopologyDocument::applyInsertLink(model::LinkId id, const model::Link& link) {
    m_design.topology.restoreLink(id, link);
    m_snapshot.reset();
    Q_EMIT linkAdded(id);
    Q_EMIT changed();
}

void TopologyDocument::applyRemoveLink(model::LinkId id) {
    m_design.topology.removeLink(id);
    m_snapshot.reset();
    Q_EMIT linkRemoved(id);
    Q_EMIT changed();
}

void TopologyDocument::applyUpdateLink(model::LinkId id, const model::Link& link) {
    m_design.topology.replaceLink(id, link);
    m_snapshot.reset();
    Q_EMIT linkChanged(id);
    Q_EMIT changed();
}

std::shared_ptr<const model::Design> TopologyDocument::snapshot() const {
    if (!m_snapshot) {
        m_snapshot = std::make_shared<const model::Design>(m_design);
        ++m_snapshotsMade;
    }
    return m_snapshot;
}

void TopologyDocument::swapDesign(model::Design& other,
                                  std::shared_ptr<const model::Design>& otherSnapshot) {
    std::swap(m_design, other);
    std::swap(m_snapshot, otherSnapshot);
    Q_EMIT designReset(DesignReset::Replaced);
    Q_EMIT changed();
}

} // namespace fabriclab::views
