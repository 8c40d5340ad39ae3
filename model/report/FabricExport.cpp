// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/report/FabricExport.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

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

std::string slurmTopology(const Topology& topology) {
    // Each server's leaves (servers sharing a set share a bottom switch), and each switch's
    // switches one tier down.
    std::map<NodeId, std::set<NodeId>> leavesOf;
    std::map<NodeId, std::set<NodeId>> lowerOf;
    for (const auto& [id, link] : topology.links()) {
        const Node& a = topology.node(link.a);
        const Node& b = topology.node(link.b);
        if (a.kind == NodeKind::Server && isSwitch(b.kind))
            leavesOf[link.a].insert(link.b);
        else if (b.kind == NodeKind::Server && isSwitch(a.kind))
            leavesOf[link.b].insert(link.a);
        else if (isSwitch(a.kind) && isSwitch(b.kind) && a.kind != b.kind)
            lowerOf[a.kind > b.kind ? link.a : link.b].insert(a.kind > b.kind ? link.b : link.a);
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
    return out.str();
}

} // namespace fabriclab::model
