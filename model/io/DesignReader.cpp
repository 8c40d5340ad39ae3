// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/catalog/CatalogJson.hpp"
#include "model/catalog/PartChoice.hpp"
#include "model/design/DesignLimits.hpp"
#include "model/fabric/GeneratorError.hpp"
#include "model/fabric/Generators.hpp"
#include "model/fabric/LeafTier.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/TextFile.hpp"
#include "model/layout/TieredLayout.hpp"

#include <map>
#include <tuple>

namespace fabriclab::model {
namespace {

// Bounds that catch typos and hostile files; real clusters sit far inside them.
using namespace limits;
constexpr long long kMaxNodes = 1'000'000;
constexpr long long kMaxBytes = 1LL << 50; // 1 PiB per rank
constexpr long long kMaxTokens = 1'000'000'000'000LL;
constexpr long long kMaxParallelism = 1 << 20;
constexpr long long kMaxSites = 64;                   // DiLoCo's studies stop at 64 replicas
constexpr long long kMaxSequenceLength = 100'000'000; // the model catalog's bound
constexpr long long kMaxServingBatch = 1 << 20;       // requests one replica decodes at once
// Generator fields are read as any int here; the generator itself checks the meaningful
// range and explains it ("servers must be between 1 and 131072").
constexpr long long kAnyInt = 2'000'000'000;

template <class Spec, class Find, class Parse>
CatalogRef<Spec> readCatalogRef(const JsonCursor& c, const char* what, Find find, Parse parse,
                                const std::map<std::string, Spec, std::less<>>& known) {
    if (c.isObject())
        return {parse(c), true};
    const std::string id = c.string();
    if (const Spec* spec = find(id))
        return {*spec, false};
    std::string list;
    for (const auto& [knownId, unused] : known)
        list += (list.empty() ? "" : ", ") + knownId;
    c.fail(std::string("unknown ") + what + " \"" + id + "\" (known: " + list + ")");
}

class DesignReader {
public:
    DesignReader(const Catalog& catalog, const ReadOptions& options)
        : m_catalog(catalog), m_options(options) {}

    Design read(const JsonCursor& root) {
        root.allowOnly({"format", "version", "name", "description", "fabric", "generator", "nodes",
                        "links", "workload", "serving", "sites", "collective", "sharp", "failures",
                        "story"});
        readHeader(root);
        Design design;
        design.name = root.has("name") ? root["name"].string() : std::string();
        design.description = root.has("description") ? root["description"].string() : std::string();
        design.fabric = readCatalogRef<Fabric>(
            root["fabric"], "fabric", [&](std::string_view id) { return m_catalog.findFabric(id); },
            catalog_json::parseFabric, m_catalog.fabrics());
        if (design.fabric.isInline)
            checkHardware(root["fabric"]["hardware"], design.fabric.spec.hardware);
        if (auto generator = root.find("generator")) {
            design.generator = readGenerator(*generator, design.fabric.spec);
            // Checked even when explicit nodes follow: nodes take their defaults from it.
            try {
                generator::validateRequest(*design.generator);
            } catch (const GeneratorError& e) {
                if (!e.field().empty() && generator->has(e.field()))
                    (*generator)[e.field()].fail(e.what());
                generator->fail(e.what());
            }
        }

        if (root.has("nodes")) {
            design.topology = readTopology(root, design);
        } else if (design.generator) {
            if (root.has("links"))
                root["links"].fail("links given without nodes");
            design.topology = expand(root["generator"], *design.generator);
        } else {
            root.fail("a design needs \"nodes\" and \"links\", or a \"generator\" to build them");
        }
        if (auto workload = root.find("workload"))
            design.workload = readWorkload(*workload, design.topology.gpuCount());
        if (auto serving = root.find("serving"))
            design.serving = readServing(*serving, design.topology.serverCount());
        if (auto sites = root.find("sites"))
            design.sites = readSites(*sites, design.workload.has_value());
        if (auto collective = root.find("collective"))
            design.collective = readCollective(*collective);
        if (auto sharp = root.find("sharp"))
            design.sharp = sharp->boolean();
        if (auto failures = root.find("failures"))
            design.failures = readFailures(*failures, design.topology);
        if (auto story = root.find("story"))
            design.story = readStory(*story, design);
        return design;
    }

private:
    /// An inline fabric must be built from parts the price list knows, or costing would
    /// fail later, far from the cause.
    void checkHardware(const JsonCursor& hardware, const FabricHardware& parts) const {
        const auto& prices = m_catalog.prices();
        const std::tuple<const char*, const std::string*, const std::map<std::string, PricedPart>*>
            needs[] = {{"switch", &parts.switchId, &prices.switches},
                       {"nic", &parts.nicId, &prices.nics},
                       {"serverCable", &parts.serverCableId, &prices.cables},
                       {"switchCable", &parts.switchCableId, &prices.cables},
                       {"transceiver", &parts.transceiverId, &prices.transceivers}};
        for (const auto& [key, id, known] : needs)
            if (!known->count(*id))
                hardware[key].fail("no part \"" + *id + "\" in the price catalog");
    }

    static void readHeader(const JsonCursor& root) {
        if (root["format"].string() != "fabriclab-design")
            root["format"].fail("expected \"fabriclab-design\"");
        const auto version = root["version"].integer(1, 1'000'000);
        if (version > kDesignFormatVersion)
            root["version"].fail("written by a newer FabricLab (design version " +
                                 std::to_string(version) + "); this build reads version " +
                                 std::to_string(kDesignFormatVersion) +
                                 ". Update FabricLab to open it");
    }

    static int readInt(const JsonCursor& c, std::string_view key, long long lo, long long hi,
                       int fallback) {
        const auto field = c.find(key);
        return field ? static_cast<int>(field->integer(lo, hi)) : fallback;
    }

    static double readNumber(const JsonCursor& c, std::string_view key, double lo, double hi,
                             double fallback) {
        const auto field = c.find(key);
        return field ? field->number(lo, hi) : fallback;
    }

    GeneratorParams readGenerator(const JsonCursor& g, const Fabric& fabric) const {
        // Any kind's fields are allowed (a kind ignores the others), so a file saved with
        // another kind's fields, as older FabricLab wrote rail-only designs, still opens.
        std::vector<std::string_view> allowed{"kind"};
        for (const GeneratorField* field : allGeneratorFields())
            allowed.push_back(field->key);
        g.allowOnly(allowed);
        GeneratorParams p;
        p.kind = g["kind"].string();
        const GeneratorEntry* entry = findGenerator(p.kind);
        if (!entry)
            g["kind"].fail("unknown generator kind \"" + p.kind + "\" (expected " +
                           generatorKindList() + ")");
        for (const GeneratorField* field : entry->fields)
            if (field->required || g.has(field->key))
                field->set(p, readField(g[field->key], *field));
        applyContextDefaults(g, *entry, fabric, p);
        if (entry->alwaysRails) {
            // Rails are the whole fabric there; "false" would ask for something else.
            if (g.has("railOptimized") && !p.railOptimized)
                g["railOptimized"].fail("a rail-only fabric is rail-optimized: true or absent");
        }
        return asKind(std::move(p), entry->kind);
    }

    /// Wide type checks only; the generator checks the meaningful ranges and says why.
    static double readField(const JsonCursor& c, const GeneratorField& field) {
        switch (field.type) {
        case GeneratorField::Type::Count:
            return static_cast<double>(c.integer(-kAnyInt, kAnyInt));
        case GeneratorField::Type::Flag:
            return c.boolean() ? 1 : 0;
        case GeneratorField::Type::Speed:
        case GeneratorField::Type::Ratio:
            break;
        }
        return c.number(-1e12, 1e12);
    }

    /// The shared fields whose default depends on the fabric or on another field: the NIC
    /// speed is the fabric's port speed, an unstated radix is what each tier's switch
    /// offers at the NIC speed (the core's the spine's when that is stated), and several
    /// NICs per server are rail-optimized.
    void applyContextDefaults(const JsonCursor& g, const GeneratorEntry& entry,
                              const Fabric& fabric, GeneratorParams& p) const {
        const auto stated = [&](std::string_view key) { return entry.reads(key) && g.has(key); };
        if (!stated("nicGbps"))
            p.nicSpeed = fabric.portSpeed;
        // A multiplane NIC's ports run at its speed over the ports, and so do the switches.
        const int ports = std::max(1, p.portsPerNic.value_or(1));
        const auto radixOf = [&](const std::string& part) {
            return switchRadixAt(fabric, m_catalog.prices(), part, Gbps(p.nicSpeed.value / ports));
        };
        const FabricHardware& parts = fabric.hardware;
        if (!stated("leafRadix"))
            p.leafRadix = radixOf(parts.switchId);
        if (!stated("spineRadix"))
            p.spineRadix = radixOf(parts.spineSwitch());
        if (!stated("coreRadix"))
            p.coreRadix = stated("spineRadix") ? p.spineRadix : radixOf(parts.coreSwitch());
        if (!stated("railOptimized"))
            p.railOptimized = p.nicsPerServer > 1;
    }

    static Topology expand(const JsonCursor& g, const GeneratorParams& params) {
        try {
            return generate(params);
        } catch (const GeneratorError& e) {
            if (!e.field().empty() && g.has(e.field()))
                g[e.field()].fail(e.what());
            g.fail(e.what());
        }
    }

    Topology readTopology(const JsonCursor& root, const Design& design) {
        Topology topology;
        const JsonCursor nodes = root["nodes"];
        const auto nodeCount = nodes.size();
        if (nodeCount > static_cast<std::size_t>(kMaxNodes))
            nodes.fail("too many nodes (" + std::to_string(nodeCount) +
                       "); FabricLab reads up to " + std::to_string(kMaxNodes));
        std::map<std::string, std::size_t> firstSeen;
        bool needsLayout = false;
        std::vector<std::pair<NodeId, std::pair<double, double>>> placed; // explicit positions
        for (std::size_t i = 0; i < nodeCount; ++i) {
            const JsonCursor n = nodes.at(i);
            bool unplaced = false;
            Node node = readNode(n, design, unplaced);
            needsLayout = needsLayout || unplaced;
            if (!unplaced)
                placed.push_back({topology.nextNodeId(), {node.x, node.y}});
            if (const auto seen = firstSeen.find(node.name); seen != firstSeen.end())
                n["id"].fail("duplicate node id \"" + node.name + "\" (first at /nodes/" +
                             std::to_string(seen->second) + ")");
            firstSeen.emplace(node.name, i);
            topology.addNode(std::move(node));
        }
        if (!root.has("links"))
            root.fail("\"nodes\" given without \"links\" (use [] for none)");
        readLinks(root["links"], design.fabric.spec, topology);
        if (needsLayout) {
            // Place the nodes that came without a position; keep every position given.
            layoutTiers(topology);
            for (const auto& [id, position] : placed) {
                Node node = topology.node(id);
                node.x = position.first;
                node.y = position.second;
                topology.replaceNode(id, std::move(node));
            }
        }
        return topology;
    }

    Node readNode(const JsonCursor& n, const Design& design, bool& needsLayout) const {
        n.allowOnly({"id", "kind", "x", "y", "gpus", "nics", "nicGbps", "portsPerNic",
                     "scaleUpGBps", "radix", "portGbps", "pod", "group", "rail", "plane"});
        Node node;
        node.name = n["id"].string();
        if (node.name.empty() || node.name.size() > kMaxNameLength)
            n["id"].fail("expected a non-empty id of at most " + std::to_string(kMaxNameLength) +
                         " characters");
        const std::string kind = n["kind"].string();
        const auto parsedKind = nodeKindFromString(kind);
        if (!parsedKind)
            n["kind"].fail("unknown node kind \"" + kind +
                           "\" (expected server, leaf, spine or core)");
        node.kind = *parsedKind;
        needsLayout = !n.has("x") || !n.has("y");
        node.x = readNumber(n, "x", -kMaxCoordinate, kMaxCoordinate, 0);
        node.y = readNumber(n, "y", -kMaxCoordinate, kMaxCoordinate, 0);

        const auto* gen = design.generator ? &*design.generator : nullptr;
        const Fabric& fabric = design.fabric.spec;
        if (node.kind == NodeKind::Server) {
            for (auto key : {"radix", "portGbps"})
                if (n.has(key))
                    n[key].fail("a server has no \"" + std::string(key) +
                                "\"; that belongs to switches");
            node.server.gpus = readInt(n, "gpus", 1, kMaxPerServer, gen ? gen->gpusPerServer : 8);
            node.server.nics = readInt(n, "nics", 1, kMaxPerServer, gen ? gen->nicsPerServer : 8);
            node.server.nicSpeed = Gbps(readNumber(
                n, "nicGbps", 1, kMaxGbps, gen ? gen->nicSpeed.value : fabric.portSpeed.value));
            node.server.scaleUpGBps =
                readNumber(n, "scaleUpGBps", 1, kMaxScaleUpGBps, node.server.scaleUpGBps);
            node.server.portsPerNic = readInt(n, "portsPerNic", 1, kMaxPortsPerNic,
                                              gen ? gen->portsPerNic.value_or(1) : 1);
        } else {
            for (auto key : {"gpus", "nics", "nicGbps", "portsPerNic", "scaleUpGBps"})
                if (n.has(key))
                    n[key].fail("a switch has no \"" + std::string(key) +
                                "\"; that belongs to servers");
            node.sw.portSpeed = Gbps(readNumber(
                n, "portGbps", 1, kMaxGbps, gen ? gen->nicSpeed.value : fabric.portSpeed.value));
            // Without a generator, what the tier's switch offers at the switch's port speed.
            const std::string& part = node.kind == NodeKind::Leaf    ? fabric.hardware.switchId
                                      : node.kind == NodeKind::Spine ? fabric.hardware.spineSwitch()
                                                                     : fabric.hardware.coreSwitch();
            const int generated =
                !gen ? switchRadixAt(fabric, m_catalog.prices(), part, node.sw.portSpeed)
                : node.kind == NodeKind::Leaf  ? gen->leafRadix
                : node.kind == NodeKind::Spine ? gen->spineRadix
                                               : gen->coreRadix;
            node.sw.radix = readInt(n, "radix", 1, kMaxRadix, generated);
        }
        node.placement.pod = readInt(n, "pod", 0, kMaxNodes, -1);
        node.placement.group = readInt(n, "group", 0, kMaxNodes, -1);
        node.placement.rail = readInt(n, "rail", 0, kMaxNodes, -1);
        node.placement.plane = readInt(n, "plane", 0, kMaxNodes, -1);
        return node;
    }

    static void readLinks(const JsonCursor& links, const Fabric& fabric, Topology& topology) {
        std::map<NodeId, int> ports;
        const auto count = links.size();
        if (count > static_cast<std::size_t>(kMaxNodes) * 8)
            links.fail("too many links (" + std::to_string(count) + ")");
        for (std::size_t i = 0; i < count; ++i) {
            const JsonCursor l = links.at(i);
            l.allowOnly({"a", "b", "gbps", "count", "medium", "lengthM"});
            Link link;
            const auto endpoint = [&](const char* key) {
                const std::string name = l[key].string();
                const auto id = topology.findNode(name);
                if (!id)
                    l[key].fail("no node with id \"" + name + "\"");
                return *id;
            };
            link.a = endpoint("a");
            link.b = endpoint("b");
            const Node& a = topology.node(link.a);
            const Node& b = topology.node(link.b);
            if (link.a == link.b)
                l.fail("link connects " + a.name + " to itself");
            if (a.kind == NodeKind::Server && b.kind == NodeKind::Server)
                l.fail("link connects two servers (" + a.name + ", " + b.name +
                       "); servers attach to switches");
            link.speed = Gbps(readNumber(l, "gbps", 1, kMaxGbps, fabric.portSpeed.value));
            link.count = readInt(l, "count", 1, kMaxParallel, 1);
            const bool serverLink = a.kind == NodeKind::Server || b.kind == NodeKind::Server;
            link.medium = serverLink ? LinkMedium::Dac : LinkMedium::Optics;
            if (auto medium = l.find("medium")) {
                const auto parsed = linkMediumFromString(medium->string());
                if (!parsed)
                    medium->fail("unknown medium \"" + medium->string() +
                                 "\" (expected dac, aoc or optics)");
                link.medium = *parsed;
            }
            link.lengthMeters =
                readNumber(l, "lengthM", 0, kMaxLengthMeters, defaultLengthMeters(link.medium));
            for (const Node* end : {&a, &b}) {
                const NodeId id = end == &a ? link.a : link.b;
                const int used = ports[id] += link.count;
                const int limit =
                    end->kind == NodeKind::Server ? end->server.cablePorts() : end->sw.radix;
                if (used > limit)
                    l.fail(std::string(toString(end->kind)) + " " + end->name + " would use " +
                           std::to_string(used) +
                           (end->kind == NodeKind::Server ? " NIC ports, it has "
                                                          : " ports, radix is ") +
                           std::to_string(limit));
            }
            topology.addLink(link);
        }
    }

    Workload readWorkload(const JsonCursor& w, int gpus) const {
        w.allowOnly({"model", "gpu", "globalBatchTokens", "tp", "cp", "pp", "vpp", "dp", "ep",
                     "zero", "precision", "recompute", "mfu", "overlap", "seqLen",
                     "attentionFlops"});
        Workload load;
        load.model = readCatalogRef<ModelSpec>(
            w["model"], "model", [&](std::string_view id) { return m_catalog.findModel(id); },
            catalog_json::parseModel, m_catalog.models());
        load.gpu = readCatalogRef<GpuSpec>(
            w["gpu"], "gpu", [&](std::string_view id) { return m_catalog.findGpu(id); },
            catalog_json::parseGpu, m_catalog.gpus());
        load.globalBatchTokens = w["globalBatchTokens"].integer(1, kMaxTokens);
        load.tp = readInt(w, "tp", 1, kMaxParallelism, 1);
        load.cp = readInt(w, "cp", 1, kMaxParallelism, 1);
        load.pp = readInt(w, "pp", 1, kMaxParallelism, 1);
        load.vpp = readInt(w, "vpp", 1, kMaxParallelism, 1);
        load.dp = readInt(w, "dp", 1, kMaxParallelism, 1);
        load.ep = readInt(w, "ep", 1, kMaxParallelism, 1);
        load.zero = readInt(w, "zero", 0, 3, 0);
        if (auto precision = w.find("precision"))
            load.precision = readPrecision(*precision);
        if (auto recompute = w.find("recompute")) {
            const auto parsed = recomputeFromString(recompute->string());
            if (!parsed)
                recompute->fail("expected \"none\", \"selective\" or \"full\", got \"" +
                                recompute->string() + "\"");
            load.recompute = *parsed;
        }
        if (auto count = w.find("attentionFlops")) {
            const auto parsed = attentionFlopsFromString(count->string());
            if (!parsed)
                count->fail("expected \"full\" or \"causal\", got \"" + count->string() + "\"");
            load.attentionFlops = *parsed;
        }
        if (w.has("mfu"))
            load.mfu = w["mfu"].number(0.001, 1);
        load.overlap = readNumber(w, "overlap", 0, 1, 0);
        if (w.has("seqLen"))
            load.seqLen = static_cast<int>(w["seqLen"].integer(1, kMaxSequenceLength));
        const long long product = load.gpus();
        if (product != gpus && m_options.workloadMustFit)
            w.fail((load.cp > 1 ? "tp x cp x pp x dp = " + std::to_string(load.tp) + " x " +
                                      std::to_string(load.cp)
                                : "tp x pp x dp = " + std::to_string(load.tp)) +
                   " x " + std::to_string(load.pp) + " x " + std::to_string(load.dp) + " = " +
                   std::to_string(product) + ", but the design has " + std::to_string(gpus) +
                   " GPUs");
        if (load.ep > static_cast<long long>(load.dp) * load.tp)
            w["ep"].fail("expert parallelism " + std::to_string(load.ep) +
                         " exceeds the tp x dp = " + std::to_string(load.dp * load.tp) +
                         " GPUs of a pipeline stage");
        return load;
    }

    static Precision readPrecision(const JsonCursor& precision) {
        const std::string text = precision.string();
        if (text == "bf16")
            return Precision::Bf16;
        if (text != "fp8")
            precision.fail("expected \"bf16\" or \"fp8\", got \"" + text + "\"");
        return Precision::Fp8;
    }

    /// Sites train the design's workload, so they need one; H and tau bound each other.
    static Sites readSites(const JsonCursor& s, bool hasWorkload) {
        s.allowOnly({"count", "wan", "outer"});
        if (!hasWorkload)
            s.fail("sites train the design's workload, and the design has none");
        Sites sites;
        sites.count = static_cast<int>(s["count"].integer(2, kMaxSites));
        const JsonCursor wan = s["wan"];
        wan.allowOnly({"gbps", "latencyMs", "links", "usdPerLinkMonth"});
        sites.wan.gbps = wan["gbps"].number(0.001, 1e6);
        sites.wan.latencyMs = readNumber(wan, "latencyMs", 0, 1000, sites.wan.latencyMs);
        sites.wan.links = readInt(wan, "links", 1, 4096, 1);
        if (wan.has("usdPerLinkMonth"))
            sites.wan.usdPerLinkMonth = wan["usdPerLinkMonth"].number(0, 1e9);
        if (auto outer = s.find("outer")) {
            outer->allowOnly({"innerSteps", "payloadBits", "overlapSteps"});
            OuterSync& o = sites.outer;
            o.innerSteps = readInt(*outer, "innerSteps", 1, 1'000'000, o.innerSteps);
            o.payloadBits = readInt(*outer, "payloadBits", 1, 32, o.payloadBits);
            if (o.payloadBits != 4 && o.payloadBits != 8 && o.payloadBits != 16 &&
                o.payloadBits != 32)
                (*outer)["payloadBits"].fail("expected 4, 8, 16 or 32 bits per parameter, got " +
                                             std::to_string(o.payloadBits));
            o.overlapSteps = readInt(*outer, "overlapSteps", 0, 1'000'000, 0);
            if (o.overlapSteps >= o.innerSteps)
                (*outer)["overlapSteps"].fail(
                    "the outer all-reduce can run behind at most innerSteps - 1 = " +
                    std::to_string(o.innerSteps - 1) + " steps, got " +
                    std::to_string(o.overlapSteps));
        }
        return sites;
    }

    ServingWorkload readServing(const JsonCursor& s, int servers) const {
        s.allowOnly({"model", "gpu", "precision", "inputTokens", "outputTokens", "batch", "tp",
                     "ep", "disaggregated", "prefillServers", "requestRate"});
        ServingWorkload load;
        load.model = readCatalogRef<ModelSpec>(
            s["model"], "model", [&](std::string_view id) { return m_catalog.findModel(id); },
            catalog_json::parseModel, m_catalog.models());
        load.gpu = readCatalogRef<GpuSpec>(
            s["gpu"], "gpu", [&](std::string_view id) { return m_catalog.findGpu(id); },
            catalog_json::parseGpu, m_catalog.gpus());
        if (auto precision = s.find("precision"))
            load.precision = readPrecision(*precision);
        load.inputTokens = readInt(s, "inputTokens", 1, kMaxSequenceLength, load.inputTokens);
        load.outputTokens = readInt(s, "outputTokens", 1, kMaxSequenceLength, load.outputTokens);
        if (s.has("batch"))
            load.batch = static_cast<int>(s["batch"].integer(1, kMaxServingBatch));
        load.tp = readInt(s, "tp", 1, kMaxParallelism, 1);
        load.ep = readInt(s, "ep", 1, kMaxParallelism, 1);
        if (load.ep > 1 && load.ep % load.tp != 0 && load.tp % load.ep != 0)
            s["ep"].fail("expert parallelism " + std::to_string(load.ep) +
                         " must be a multiple or a divisor of tp " + std::to_string(load.tp));
        if (auto disaggregated = s.find("disaggregated"))
            load.disaggregated = disaggregated->boolean();
        if (auto prefill = s.find("prefillServers")) {
            if (!load.disaggregated)
                prefill->fail("prefillServers applies to disaggregated serving");
            load.prefillServers = static_cast<int>(prefill->integer(1, kMaxParallelism));
            if (load.prefillServers >= servers && m_options.workloadMustFit)
                prefill->fail("prefill takes " + std::to_string(load.prefillServers) +
                              " of the design's " + std::to_string(servers) +
                              " servers, leaving none to decode");
        } else if (load.disaggregated) {
            s.fail("disaggregated serving needs \"prefillServers\", the servers that prefill");
        }
        if (s.has("requestRate"))
            load.requestRate = s["requestRate"].number(1e-6, 1e9);
        return load;
    }

    static std::vector<Failure> readFailures(const JsonCursor& list, const Topology& topology) {
        std::vector<Failure> failures;
        if (list.size() > static_cast<std::size_t>(kMaxFailures))
            list.fail("more than " + std::to_string(kMaxFailures) + " failures");
        const ElementIndex index(topology);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const JsonCursor f = list.at(i);
            f.allowOnly({"element", "kind", "cables", "capacity"});
            Failure failure;
            failure.element = f["element"].string();
            const auto target = index.resolve(failure.element);
            if (!target)
                f["element"].fail("no node, link (\"a/b\") or rail (\"rail-N\") named \"" +
                                  failure.element + "\"");
            if (auto kind = f.find("kind")) {
                const auto parsed = failureKindFromString(kind->string());
                if (!parsed)
                    kind->fail("expected \"down\" or \"degraded\", got \"" + kind->string() + "\"");
                failure.kind = *parsed;
            }
            if (auto capacity = f.find("capacity")) {
                if (failure.kind != FailureKind::Degraded)
                    capacity->fail("only a \"degraded\" element keeps a share of its capacity");
                failure.capacity = capacity->number(0.01, 0.99);
            } else if (failure.kind == FailureKind::Degraded) {
                f.fail("a degraded element needs \"capacity\", the share it keeps (0.01-0.99)");
            }
            if (auto cables = f.find("cables")) {
                if (target->links.empty() || failure.kind != FailureKind::Down)
                    cables->fail("\"cables\" applies to a link that is down");
                failure.cables = static_cast<int>(cables->integer(1, kMaxParallel));
            }
            failures.push_back(std::move(failure));
        }
        return failures;
    }

    std::vector<StoryStep> readStory(const JsonCursor& list, const Design& design) const {
        std::vector<StoryStep> story;
        if (list.size() > kMaxStorySteps)
            list.fail("more than " + std::to_string(kMaxStorySteps) + " story steps");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const JsonCursor s = list.at(i);
            s.allowOnly({"title", "fabric", "oversubscription", "failures", "charts"});
            StoryStep step;
            step.title = s["title"].string();
            if (step.title.empty())
                s["title"].fail("a story step needs a title");
            step.fabric = s["fabric"].string();
            if (!m_catalog.findFabric(step.fabric)) {
                std::string known;
                for (const auto& [id, unused] : m_catalog.fabrics())
                    known += (known.empty() ? "" : ", ") + id;
                s["fabric"].fail("unknown fabric \"" + step.fabric + "\" (known: " + known + ")");
            }
            if (auto ratio = s.find("oversubscription")) {
                if (!design.generator)
                    ratio->fail("only a generated design can be shown at another "
                                "oversubscription (this one has no \"generator\")");
                // The generator says what it can build when the step is shown.
                step.oversubscription = ratio->number(1, 1000);
            }
            // Checked against the design as drawn; a step at another oversubscription may
            // have fewer spines, and a failure whose element is gone is set aside then.
            if (auto failures = s.find("failures"))
                step.failures = readFailures(*failures, design.topology);
            if (auto charts = s.find("charts")) {
                if (charts->size() > kStoryCharts)
                    charts->fail("a story step shows at most " + std::to_string(kStoryCharts) +
                                 " charts");
                for (std::size_t c = 0; c < charts->size(); ++c) {
                    const std::string name = charts->at(c).string();
                    if (!isStoryChart(name)) {
                        std::string known;
                        for (const std::string_view n : kStoryChartNames)
                            known += (known.empty() ? "" : ", ") + std::string(n);
                        charts->at(c).fail("unknown chart \"" + name + "\" (known: " + known + ")");
                    }
                    step.charts.push_back(name);
                }
            }
            story.push_back(std::move(step));
        }
        return story;
    }

    static CollectiveSpec readCollective(const JsonCursor& c) {
        c.allowOnly({"op", "bytes", "algorithm", "protocol"});
        CollectiveSpec spec;
        const std::string op = c["op"].string();
        const auto parsedOp = collectiveOpFromString(op);
        if (!parsedOp)
            c["op"].fail("unknown collective \"" + op +
                         "\" (expected allreduce, allgather, reducescatter, alltoall, broadcast or "
                         "sendrecv)");
        spec.op = *parsedOp;
        spec.bytes = c["bytes"].integer(1, kMaxBytes);
        if (auto algorithm = c.find("algorithm")) {
            const auto parsed = collectiveAlgorithmFromString(algorithm->string());
            if (!parsed)
                algorithm->fail("unknown algorithm \"" + algorithm->string() +
                                "\" (expected auto, ring, tree, nvls, nvls-tree, collnet-direct, "
                                "collnet-chain, pat, sharp, hierarchical, direct or pxn)");
            spec.algorithm = *parsed;
        }
        if (auto protocol = c.find("protocol")) {
            const auto parsed = collectiveProtocolFromString(protocol->string());
            if (!parsed)
                protocol->fail("unknown protocol \"" + protocol->string() +
                               "\" (expected auto, LL, LL128 or Simple)");
            spec.protocol = *parsed;
        }
        return spec;
    }

    const Catalog& m_catalog;
    ReadOptions m_options;
};

} // namespace

Design parseDesign(std::string_view text, const std::string& origin, const Catalog& catalog,
                   const ReadOptions& options) {
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(text);
    } catch (const nlohmann::json::out_of_range& e) {
        // A number too large for a double ("1e400").
        throw JsonError(origin, "/", std::string("not valid JSON: ") + e.what());
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte locates the fault; nlohmann's own text repeats it with more detail.
        std::string detail = e.what();
        if (const auto colon = detail.find("syntax error"); colon != std::string::npos)
            detail = detail.substr(colon);
        throw JsonError(origin, "/",
                        "not valid JSON near byte " + std::to_string(e.byte) + ": " + detail);
    }
    const JsonCursor root(document, origin);
    if (!document.is_object())
        root.fail("expected a design object, got " + withArticle(document.type_name()));
    return DesignReader(catalog, options).read(root);
}

Design loadDesign(const std::filesystem::path& path, const Catalog& catalog,
                  const ReadOptions& options) {
    return parseDesign(readTextFile(path, kMaxDesignFileBytes, "design"), path.string(), catalog,
                       options);
}

} // namespace fabriclab::model
