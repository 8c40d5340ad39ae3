// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/FabricExport.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace fabriclab::model {
namespace {

/// A DOT identifier, quoted: names may hold dashes, dots and spaces.
std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + '"';
}

/// Appends the pieces in turn (one call, no temporaries joined on the way).
void append(std::string& out, std::initializer_list<std::string_view> pieces) {
    for (const std::string_view piece : pieces)
        out.append(piece);
}

/// "srv-12" -> ("srv-", "12"); a name without trailing digits has no number.
std::pair<std::string, std::string> splitNumber(const std::string& name) {
    std::size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1])))
        --digits;
    return {name.substr(0, digits), name.substr(digits)};
}

} // namespace

std::string hostlist(std::vector<std::string> names) {
    // (prefix, width of a zero-padded number or 0, number) in order; plain names apart.
    std::vector<std::tuple<std::string, std::size_t, unsigned long long>> numbered;
    std::vector<std::string> plain;
    for (const std::string& name : names) {
        const auto [prefix, digits] = splitNumber(name);
        if (digits.empty() || digits.size() > 18) {
            plain.push_back(name);
            continue;
        }
        const std::size_t width = digits.size() > 1 && digits.front() == '0' ? digits.size() : 0;
        numbered.emplace_back(prefix, width, std::stoull(digits));
    }
    std::sort(numbered.begin(), numbered.end());
    numbered.erase(std::unique(numbered.begin(), numbered.end()), numbered.end());
    std::vector<std::string> parts = std::move(plain);
    const auto number = [](unsigned long long n, std::size_t width) {
        std::string text = std::to_string(n);
        return text.size() < width ? std::string(width - text.size(), '0') + text : text;
    };
    for (std::size_t i = 0; i < numbered.size();) {
        const auto& [prefix, width, first] = numbered[i];
        std::vector<std::string> ranges;
        std::size_t j = i;
        while (j < numbered.size() && std::get<0>(numbered[j]) == prefix &&
               std::get<1>(numbered[j]) == width) {
            const unsigned long long start = std::get<2>(numbered[j]);
            unsigned long long end = start;
            while (j + 1 < numbered.size() && std::get<0>(numbered[j + 1]) == prefix &&
                   std::get<1>(numbered[j + 1]) == width && std::get<2>(numbered[j + 1]) == end + 1)
                end = std::get<2>(numbered[++j]);
            ranges.push_back(start == end ? number(start, width)
                                          : number(start, width) + "-" + number(end, width));
            ++j;
        }
        std::string joined;
        for (const std::string& range : ranges)
            joined += (joined.empty() ? "" : ",") + range;
        const bool single = ranges.size() == 1 && ranges.front().find('-') == std::string::npos;
        parts.push_back(prefix + (single ? joined : "[" + joined + "]"));
        (void)first;
        i = j;
    }
    std::string out;
    for (const std::string& part : parts)
        out += (out.empty() ? "" : ",") + part;
    return out;
}

std::string graphvizDot(const std::string& name, const Topology& topology,
                        const CablingPlan& plan) {
    std::ostringstream out;
    out << "graph " << quoted(name.empty() ? "fabric" : name) << " {\n"
        << "  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n";
    // One rank per tier, cores on top, so `dot` draws the tree as the canvas does.
    for (const NodeKind kind :
         {NodeKind::Core, NodeKind::Spine, NodeKind::Leaf, NodeKind::Server}) {
        std::ostringstream members;
        for (const auto& [id, node] : topology.nodes())
            if (node.kind == kind)
                members << " " << quoted(node.name) << ";";
        if (!members.str().empty())
            out << "  { rank=same;" << members.str() << " }\n";
    }
    for (const auto& [id, node] : topology.nodes()) {
        const bool server = node.kind == NodeKind::Server;
        out << "  " << quoted(node.name) << " [shape=" << (server ? "box" : "ellipse")
            << ", tier=" << quoted(std::string(toString(node.kind))) << "];\n";
    }
    for (const PlannedCable& c : plan.cables)
        out << "  " << quoted(c.a.device) << ":" << quoted(c.a.port) << " -- " << quoted(c.b.device)
            << ":" << quoted(c.b.port) << ";\n";
    out << "}\n";
    return out.str();
}

std::string ibnetdiscoverTopology(const Topology& topology, const Fabric& fabric,
                                  const CablingPlan& plan) {
    if (fabric.transport != "infiniband")
        throw std::invalid_argument("ibnetdiscover describes InfiniBand subnets; this design runs "
                                    "on " +
                                    fabric.name);
    // GUIDs: a FabricLab prefix, then 0 for switches or 1 for adapters, then the index;
    // LIDs: switches first, then adapters, in the design's order.
    constexpr std::uint64_t kSwitchGuid = 0xfab1ab0000000000ull;
    constexpr std::uint64_t kAdapterGuid = 0xfab1ab0100000000ull;
    struct Device {
        std::uint64_t guid = 0;
        int lid = 0;
    };
    struct Peer {
        int port;
        const CableEnd* other;
        double gbps;
    };
    std::unordered_map<std::string, Device> switches; // by device name
    std::unordered_map<std::string, std::vector<Peer>> peersOf;
    int nextLid = 1;
    for (const auto& [id, node] : topology.nodes())
        if (isSwitch(node.kind))
            switches[node.name] = {kSwitchGuid + switches.size() + 1, nextLid++};
    // Adapters ("server nicK"), in the plan's order, each with its one cable.
    struct Adapter {
        const CableEnd* self;
        const CableEnd* peer;
        double gbps;
        Device device;
    };
    std::vector<Adapter> adapters;
    std::unordered_map<std::string, std::size_t> adapterAt;
    const auto keyOf = [](const CableEnd& end) {
        std::string key = end.device;
        key += ' ';
        key += end.port;
        return key;
    };
    for (const PlannedCable& c : plan.cables)
        for (const auto& [self, other] : {std::pair{&c.a, &c.b}, std::pair{&c.b, &c.a}}) {
            if (switches.count(self->device)) {
                peersOf[self->device].push_back({std::stoi(self->port), other, c.gbps});
                continue;
            }
            const std::size_t index = adapters.size();
            if (adapterAt.try_emplace(keyOf(*self), index).second)
                adapters.push_back({self, other, c.gbps, {kAdapterGuid + index + 1, 0}});
        }
    for (Adapter& adapter : adapters)
        adapter.device.lid = nextLid++;

    const auto hex = [](std::uint64_t value, bool padded) {
        char text[32];
        std::snprintf(text, sizeof text, padded ? "%016llx" : "%llx",
                      static_cast<unsigned long long>(value));
        return std::string(text);
    };
    const auto speed = [](double gbps) -> const char* {
        return gbps >= 800   ? "4xXDR"
               : gbps >= 400 ? "4xNDR"
               : gbps >= 200 ? "4xHDR"
               : gbps >= 100 ? "4xEDR"
                             : "4xFDR";
    };
    // The adapter a server port is: nicK is mlx5_K.
    const auto adapterName = [](const CableEnd& end) {
        std::string name = end.device;
        name += " mlx5_";
        name.append(end.port, 3, std::string::npos);
        return name;
    };
    // A peer as a connectivity line names it: "S-guid"[port] or "H-guid"[1](portguid), then,
    // after the comment sign, its description and LID.
    const auto appendPeer = [&](std::string& out, const CableEnd& end) {
        if (const auto sw = switches.find(end.device); sw != switches.end()) {
            append(out, {"\"S-", hex(sw->second.guid, true), "\"[", end.port, "]\t\t# \"",
                         end.device, "\" lid ", std::to_string(sw->second.lid)});
            return;
        }
        const Adapter& adapter = adapters[adapterAt.at(keyOf(end))];
        const std::uint64_t guid = adapter.device.guid;
        append(out, {"\"H-", hex(guid, true), "\"[1](", hex(guid, false), ")\t\t# \"",
                     adapterName(end), "\" lid ", std::to_string(adapter.device.lid)});
    };
    std::string out = "#\n# Topology file: written by FabricLab from the design, not "
                      "discovered\n#\n\n";
    out.reserve(plan.cables.size() * 220);
    for (const auto& [id, node] : topology.nodes()) {
        if (!isSwitch(node.kind))
            continue;
        const Device& sw = switches.at(node.name);
        const std::string guid = hex(sw.guid, false);
        append(out, {"vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x", guid, "\nswitchguid=0x", guid,
                     "(", guid, ")\nSwitch\t", std::to_string(node.sw.radix), " \"S-",
                     hex(sw.guid, true), "\"\t\t# \"", node.name, "\" enhanced port 0 lid ",
                     std::to_string(sw.lid), " lmc 0\n"});
        auto& peers = peersOf[node.name];
        std::sort(peers.begin(), peers.end(),
                  [](const Peer& x, const Peer& y) { return x.port < y.port; });
        for (const Peer& peer : peers) {
            append(out, {"[", std::to_string(peer.port), "]\t"});
            appendPeer(out, *peer.other);
            append(out, {" ", speed(peer.gbps), "\n"});
        }
        out += '\n';
    }
    for (const Adapter& adapter : adapters) {
        const std::string guid = hex(adapter.device.guid, false);
        append(out, {"vendid=0x2c9\ndevid=0x1021\nsysimgguid=0x", guid, "\ncaguid=0x", guid,
                     "\nCa\t1 \"H-", hex(adapter.device.guid, true), "\"\t\t# \"",
                     adapterName(*adapter.self), "\"\n[1](", guid, ") \t"});
        appendPeer(out, *adapter.peer);
        append(out, {" lid ", std::to_string(adapter.device.lid), " lmc 0 ", speed(adapter.gbps),
                     "\n\n"});
    }
    return out;
}

std::string slurmTopology(const Topology& topology) {
    // Each server's leaves (servers sharing a set share a bottom switch), and each switch's
    // switches one tier down.
    std::map<NodeId, std::set<NodeId>> leavesOf;
    std::map<NodeId, std::set<NodeId>> lowerOf;
    std::set<std::string> globalEnds; // switches joined to their own tier: a dragonfly's
    for (const auto& [id, link] : topology.links()) {
        const Node& a = topology.node(link.a);
        const Node& b = topology.node(link.b);
        if (a.kind == NodeKind::Server && isSwitch(b.kind))
            leavesOf[link.a].insert(link.b);
        else if (b.kind == NodeKind::Server && isSwitch(a.kind))
            leavesOf[link.b].insert(link.a);
        else if (isSwitch(a.kind) && isSwitch(b.kind) && a.kind != b.kind)
            lowerOf[a.kind > b.kind ? link.a : link.b].insert(a.kind > b.kind ? link.b : link.a);
        else if (isSwitch(a.kind) && a.kind == b.kind && link.a != link.b)
            globalEnds.insert({a.name, b.name});
    }
    std::map<std::set<NodeId>, std::vector<std::string>> groups; // leaf set -> servers
    for (const auto& [server, leaves] : leavesOf)
        groups[leaves].push_back(topology.node(server).name);
    std::ostringstream out;
    out << "# Slurm topology.conf (TopologyPlugin=topology/tree), written by FabricLab.\n"
        << "# Servers on the same leaves share a bottom switch: the leaf itself, or a group\n"
        << "# named for its rail leaves. Switches above list the switches below them.\n";
    // The bottom switch of each leaf set: the leaf's own name, or "group-K" for several.
    std::map<NodeId, std::set<std::string>> bottomsOfLeaf;
    int group = 0;
    for (const auto& [leaves, servers] : groups) {
        std::vector<std::string> leafNames;
        for (const NodeId leaf : leaves)
            leafNames.push_back(topology.node(leaf).name);
        const std::string bottom =
            leaves.size() == 1 ? leafNames.front() : "group-" + std::to_string(++group);
        for (const NodeId leaf : leaves)
            bottomsOfLeaf[leaf].insert(bottom);
        if (leaves.size() > 1)
            out << "# " << bottom << ": servers on leaves " << hostlist(leafNames) << "\n";
        out << "SwitchName=" << bottom << " Nodes=" << hostlist(servers) << "\n";
    }
    for (const NodeKind kind : {NodeKind::Spine, NodeKind::Core})
        for (const auto& [id, node] : topology.nodes()) {
            const auto lower = lowerOf.find(id);
            if (node.kind != kind || lower == lowerOf.end())
                continue;
            std::set<std::string> below;
            for (const NodeId child : lower->second) {
                const auto bottoms = bottomsOfLeaf.find(child);
                if (bottoms != bottomsOfLeaf.end())
                    below.insert(bottoms->second.begin(), bottoms->second.end());
                else if (topology.node(child).kind != NodeKind::Leaf)
                    below.insert(topology.node(child).name); // a spine under a core
            }
            if (!below.empty())
                out << "SwitchName=" << node.name
                    << " Switches=" << hostlist({below.begin(), below.end()}) << "\n";
        }
    if (!globalEnds.empty())
        // Slurm's tree lets a job span only switches under a common parent; the global links
        // are that parent, though no switch sits there.
        out << "# global: the links joining switches of one tier (a dragonfly's global links)\n"
            << "# stand for a parent no switch is: without it Slurm keeps each job in one group.\n"
            << "SwitchName=global Switches=" << hostlist({globalEnds.begin(), globalEnds.end()})
            << "\n";
    return out.str();
}

std::optional<ExportFormat> exportFormatFromString(std::string_view text) {
    if (text == "dot")
        return ExportFormat::Dot;
    if (text == "slurm")
        return ExportFormat::Slurm;
    if (text == "ibnetdiscover")
        return ExportFormat::Ibnetdiscover;
    return std::nullopt;
}

std::string exportFabric(const Design& design, const PriceCatalog& prices, ExportFormat format) {
    if (format == ExportFormat::Slurm)
        return slurmTopology(design.topology); // names switches and servers, not cables
    const CablingPlan plan = cablingPlan(design.topology, design.fabric.spec, prices);
    return format == ExportFormat::Dot
               ? graphvizDot(design.name, design.topology, plan)
               : ibnetdiscoverTopology(design.topology, design.fabric.spec, plan);
}

} // namespace fabriclab::model
