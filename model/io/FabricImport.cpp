// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/io/FabricImport.hpp"

#include "model/layout/TieredLayout.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

namespace fabriclab::model {

ImportError::ImportError(const std::string& origin, int line, const std::string& problem)
    : std::invalid_argument(origin + (line > 0 ? ":" + std::to_string(line) : std::string()) +
                            ": " + problem),
      m_line(line) {}

namespace {

/// A fabric as read from a file, before tiers and positions: devices by name and the
/// cables between them.
struct ReadFabric {
    struct Device {
        bool server = false;
        int ports = 0; ///< as the file declares them (a switch's port count); 0 unknown
        int line = 0;  ///< where it was defined, for messages
    };
    std::map<std::string, Device> devices;
    std::vector<std::string> order; ///< names in the order the file gives them
    /// (a, b) with a < b, and the speed in Gb/s: how many cables.
    std::map<std::tuple<std::string, std::string, double>, int> cables;

    void add(const std::string& name, Device device) {
        if (devices.emplace(name, device).second)
            order.push_back(name);
    }

    void cable(const std::string& a, const std::string& b, double gbps, int count = 1) {
        cables[a < b ? std::tuple{a, b, gbps} : std::tuple{b, a, gbps}] += count;
    }
};

std::string stemOf(std::string_view origin) {
    std::string stem = std::filesystem::path(std::string(origin)).stem().string();
    return stem.empty() ? std::string("imported fabric") : stem;
}

/// Names the fabric by the fastest switch link when the user did not: InfiniBand
/// generations by their 4x rate.
const Fabric& chooseFabric(const ReadFabric& read, const ImportOptions& options,
                           const Catalog& catalog, std::string_view origin) {
    std::string id = options.fabricId.value_or("");
    if (id.empty()) {
        double fastest = 0;
        for (const auto& [key, count] : read.cables)
            fastest = std::max(fastest, std::get<2>(key));
        id = fastest >= 800 ? "ib-xdr" : fastest >= 400 ? "ib-ndr" : "ib-hdr";
    }
    const Fabric* fabric = catalog.findFabric(id);
    if (!fabric)
        throw ImportError(std::string(origin), 0, catalog.unknownFabric(id));
    return *fabric;
}

/// Tiers from the structure: hops from the nearest server.
Design buildDesign(const ReadFabric& read, std::string_view origin, const ImportOptions& options,
                   const Catalog& catalog) {
    const std::string file(origin);
    if (options.gpusPerServer < 1 || options.gpusPerServer > 1024)
        throw ImportError(file, 0, "GPUs per server must be 1 to 1,024");
    const GpuSpec* gpu = catalog.findGpu(options.gpuId);
    if (!gpu) {
        std::string known;
        for (const auto& [id, unused] : catalog.gpus())
            known += (known.empty() ? "" : ", ") + id;
        throw ImportError(file, 0, "unknown GPU \"" + options.gpuId + "\" (known: " + known + ")");
    }
    bool anyServer = false;
    for (const auto& [name, device] : read.devices)
        anyServer = anyServer || device.server;
    if (!anyServer)
        throw ImportError(file, 0, "no servers (host adapters or nodes) in the file");

    std::map<std::string, std::vector<std::string>> neighbours;
    for (const auto& [key, count] : read.cables) {
        neighbours[std::get<0>(key)].push_back(std::get<1>(key));
        neighbours[std::get<1>(key)].push_back(std::get<0>(key));
    }
    std::map<std::string, int> hops;
    std::deque<std::string> queue;
    for (const auto& [name, device] : read.devices)
        if (device.server) {
            hops[name] = 0;
            queue.push_back(name);
        }
    while (!queue.empty()) {
        const std::string at = queue.front();
        queue.pop_front();
        for (const std::string& next : neighbours[at])
            if (!hops.count(next) && !read.devices.at(next).server) {
                hops[next] = hops[at] + 1;
                queue.push_back(next);
            }
    }

    const Fabric& fabric = chooseFabric(read, options, catalog, origin);
    Design design;
    design.name = options.name.empty() ? stemOf(origin) : options.name;
    design.fabric.spec = fabric;
    design.sharp = false;
    Topology& topology = design.topology;
    std::map<std::string, NodeId> ids;
    for (const std::string& name : read.order) {
        const ReadFabric::Device& device = read.devices.at(name);
        Node node;
        node.name = name;
        if (device.server) {
            node.kind = NodeKind::Server;
            node.server.gpus = options.gpusPerServer;
            node.server.scaleUpGBps = gpu->scaleUpGBps;
        } else {
            const auto hop = hops.find(name);
            const int level = hop == hops.end() ? 2 : hop->second;
            if (level > 3)
                throw ImportError(file, device.line,
                                  "switch \"" + name +
                                      "\" is four switches from the nearest server: FabricLab "
                                      "designs have at most three tiers (leaf, spine, core)");
            node.kind = level <= 1 ? NodeKind::Leaf : level == 2 ? NodeKind::Spine : NodeKind::Core;
            node.sw.portSpeed = fabric.portSpeed;
            node.sw.radix = std::max(device.ports, 1);
        }
        ids[name] = topology.addNode(std::move(node));
    }
    // Ports and speeds as cabled: a server's NICs are its cables, a switch has at least as
    // many ports as it uses, at the speed of its fastest.
    std::map<std::string, int> used;
    std::map<std::string, double> fastest;
    for (const auto& [key, count] : read.cables) {
        const auto& [a, b, gbps] = key;
        for (const std::string* end : {&a, &b}) {
            used[*end] += count;
            fastest[*end] = std::max(fastest[*end], gbps);
        }
        const bool serverLink = read.devices.at(a).server || read.devices.at(b).server;
        const LinkMedium medium = serverLink ? LinkMedium::Dac : LinkMedium::Optics;
        topology.addLink(
            Link{ids.at(a), ids.at(b), Gbps(gbps), count, medium, defaultLengthMeters(medium)});
    }
    for (const auto& [name, id] : ids) {
        Node node = topology.node(id);
        if (node.kind == NodeKind::Server) {
            node.server.nics = std::max(used[name], 1);
            node.server.nicSpeed = Gbps(fastest[name] > 0 ? fastest[name] : fabric.portSpeed.value);
        } else {
            node.sw.radix = std::max(node.sw.radix, used[name]);
            if (fastest[name] > 0)
                node.sw.portSpeed = Gbps(fastest[name]);
        }
        topology.replaceNode(id, std::move(node));
    }
    layoutTiers(topology);
    return design;
}

// --- ibnetdiscover ---

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

/// The text between the first pair of double quotes at or after `from`; npos-safe.
std::optional<std::string> quoted(std::string_view line, std::size_t from, std::size_t* end) {
    const std::size_t open = line.find('"', from);
    if (open == std::string_view::npos)
        return std::nullopt;
    const std::size_t close = line.find('"', open + 1);
    if (close == std::string_view::npos)
        return std::nullopt;
    if (end)
        *end = close + 1;
    return std::string(line.substr(open + 1, close - open - 1));
}

std::optional<int> numberAt(std::string_view text, std::size_t at, std::size_t* end = nullptr) {
    int value = 0;
    const char* first = text.data() + at;
    const char* last = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || ptr == first)
        return std::nullopt;
    if (end)
        *end = static_cast<std::size_t>(ptr - text.data());
    return value;
}

/// "4xNDR" as Gb/s: lanes times the generation's data rate per lane.
std::optional<double> linkGbps(std::string_view token) {
    const std::size_t x = token.find('x');
    if (x == std::string_view::npos)
        return std::nullopt;
    const auto lanes = numberAt(token, 0);
    if (!lanes || *lanes <= 0)
        return std::nullopt;
    static const std::map<std::string_view, double> kLaneGbps{
        {"SDR", 2.5}, {"DDR", 5},  {"QDR", 10},  {"FDR10", 10}, {"FDR", 14},
        {"EDR", 25},  {"HDR", 50}, {"NDR", 100}, {"XDR", 200}};
    const auto rate = kLaneGbps.find(token.substr(x + 1));
    if (rate == kLaneGbps.end())
        return std::nullopt;
    return *lanes * rate->second;
}

/// The last word of the comment that is a width and rate ("4xNDR").
std::optional<double> speedOfLine(std::string_view comment) {
    std::optional<double> speed;
    std::size_t at = 0;
    while (at < comment.size()) {
        while (at < comment.size() && std::isspace(static_cast<unsigned char>(comment[at])))
            ++at;
        std::size_t end = at;
        while (end < comment.size() && !std::isspace(static_cast<unsigned char>(comment[end])))
            ++end;
        if (end > at)
            if (auto gbps = linkGbps(comment.substr(at, end - at)))
                speed = gbps;
        at = end;
    }
    return speed;
}

/// A host adapter's description as a host name: "node019 HCA-1" is node019; firmware's
/// own words name no host.
std::optional<std::string> hostOf(const std::string& description) {
    const std::size_t space = description.find(' ');
    if (space == std::string::npos || space == 0)
        return std::nullopt;
    if (description.find("Mellanox Technologies") != std::string::npos ||
        description.starts_with("MT") || description.find("ConnectX") != std::string::npos)
        return std::nullopt;
    return description.substr(0, space);
}

/// A switch's description as a name: "MF0;leaf-07:MQM9700/U1" is leaf-07; a vendor's
/// generic words ("Quantum Mellanox Technologies") name no switch.
std::optional<std::string> switchNameOf(const std::string& description) {
    std::string name = description;
    if (name.starts_with("MF0;")) {
        name = name.substr(4);
        name = name.substr(0, name.find(':'));
    }
    if (name.empty() || name.find("Mellanox Technologies") != std::string::npos ||
        name.find(' ') != std::string::npos)
        return std::nullopt;
    return name;
}

struct IbDevice {
    bool isSwitch = false;
    int ports = 0;
    std::string description;
    int line = 0;
};

struct IbCable {
    std::string a; ///< "S-<guid>" or "H-<guid>"
    int aPort = 0;
    std::string b;
    int bPort = 0;
    double gbps = 0;
    int line = 0;
};

} // namespace

Design importIbnetdiscover(std::string_view text, std::string_view origin,
                           const ImportOptions& options, const Catalog& catalog) {
    const std::string file(origin);
    std::map<std::string, IbDevice> devices; // by "S-<guid>" / "H-<guid>"
    std::vector<IbCable> cables;
    std::string current;   // the record port lines belong to
    bool skipping = false; // a router record
    int lineNumber = 0;
    bool sawRecord = false;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = trimmed(text.substr(at, end - at));
        at = end + 1;
        ++lineNumber;
        if (line.empty() || line.front() == '#')
            continue;
        const bool switchRecord = line.starts_with("Switch") && line.size() > 6 &&
                                  std::isspace(static_cast<unsigned char>(line[6]));
        const bool caRecord = line.starts_with("Ca") && line.size() > 2 &&
                              std::isspace(static_cast<unsigned char>(line[2]));
        const bool routerRecord = line.starts_with("Rt") && line.size() > 2 &&
                                  std::isspace(static_cast<unsigned char>(line[2]));
        if (switchRecord || caRecord || routerRecord) {
            sawRecord = true;
            skipping = routerRecord;
            std::size_t after = 0;
            std::size_t numberFrom = line.find_first_not_of(" \t", switchRecord ? 6 : 2);
            const auto ports = numberFrom == std::string_view::npos
                                   ? std::nullopt
                                   : numberAt(line, numberFrom, &after);
            const auto id = ports ? quoted(line, after, &after) : std::nullopt;
            if (!ports || !id || id->size() < 3)
                throw ImportError(file, lineNumber,
                                  "expected a record such as Switch 36 \"S-<guid>\" # "
                                  "\"<description>\"");
            if (routerRecord)
                continue;
            const std::size_t hash = line.find('#', after);
            std::optional<std::string> description =
                hash == std::string_view::npos ? std::nullopt : quoted(line, hash, nullptr);
            IbDevice& device = devices[*id];
            device.isSwitch = switchRecord;
            device.ports = *ports;
            device.description = description.value_or("");
            device.line = lineNumber;
            current = *id;
            continue;
        }
        if (line.front() == '[') {
            if (current.empty() && !skipping)
                throw ImportError(file, lineNumber, "a port line before any Switch or Ca record");
            if (skipping)
                continue;
            std::size_t after = 0;
            const auto port = numberAt(line, 1, &after);
            if (!port || after >= line.size() || line[after] != ']')
                throw ImportError(file, lineNumber, "expected a port number such as [1]");
            std::size_t peerEnd = 0;
            const auto peer = quoted(line, after, &peerEnd);
            if (!peer || peerEnd >= line.size() || line[peerEnd] != '[')
                throw ImportError(file, lineNumber,
                                  "expected the peer as \"S-<guid>\"[port] or \"H-<guid>\"[port]");
            const auto peerPort = numberAt(line, peerEnd + 1);
            if (!peerPort)
                throw ImportError(file, lineNumber, "expected the peer's port number");
            const std::size_t hash = line.find('#', peerEnd);
            const auto gbps =
                hash == std::string_view::npos ? std::nullopt : speedOfLine(line.substr(hash));
            if (!gbps)
                throw ImportError(file, lineNumber,
                                  "expected the link's width and rate, such as 4xNDR");
            cables.push_back({current, *port, *peer, *peerPort, *gbps, lineNumber});
            continue;
        }
        if (line.starts_with("vendid=") || line.starts_with("devid=") ||
            line.starts_with("sysimgguid=") || line.starts_with("switchguid=") ||
            line.starts_with("caguid=") || line.starts_with("rtguid="))
            continue;
        // Captures often carry a stray line of the tool's own errors before the records.
        if (!sawRecord)
            continue;
        throw ImportError(file, lineNumber,
                          "not a line ibnetdiscover writes: \"" + std::string(line.substr(0, 60)) +
                              "\"");
    }
    if (devices.empty())
        throw ImportError(file, 1, "no Switch or Ca records: not ibnetdiscover output");

    // Names: switches by their descriptions, servers by the host their adapters name.
    std::map<std::string, std::string> nameOf; // record id -> device name
    std::set<std::string> taken;
    ReadFabric read;
    const auto unique = [&taken](std::string name) {
        if (taken.insert(name).second)
            return name;
        for (int n = 2;; ++n)
            if (taken.insert(name + "-" + std::to_string(n)).second)
                return name + "-" + std::to_string(n);
    };
    std::map<std::string, std::string> hosts; // host name -> device name
    for (const auto& [id, device] : devices) {
        if (device.description.find("Aggregation Node") != std::string::npos)
            continue; // SHARP's reduction engine inside a switch, not a server
        if (device.isSwitch) {
            const std::string name =
                unique(switchNameOf(device.description).value_or("switch-" + id.substr(2)));
            nameOf[id] = name;
            read.add(name, {false, device.ports, device.line});
            continue;
        }
        const auto host = hostOf(device.description);
        if (host && hosts.count(*host)) {
            nameOf[id] = hosts[*host];
            continue;
        }
        const std::string name = unique(host.value_or("host-" + id.substr(2)));
        if (host)
            hosts[*host] = name;
        nameOf[id] = name;
        read.add(name, {true, 0, device.line});
    }
    // Each cable is listed from both of its ends: count it once, by its lower end.
    std::set<std::pair<std::pair<std::string, int>, std::pair<std::string, int>>> seen;
    for (const IbCable& cable : cables) {
        if (!devices.count(cable.b))
            throw ImportError(file, cable.line,
                              "the peer " + cable.b +
                                  " has no record of its own: the file is "
                                  "cut short or edited");
        const auto a = nameOf.find(cable.a);
        const auto b = nameOf.find(cable.b);
        if (a == nameOf.end() || b == nameOf.end())
            continue; // to an aggregation node
        std::pair end1{cable.a, cable.aPort};
        std::pair end2{cable.b, cable.bPort};
        if (end2 < end1)
            std::swap(end1, end2);
        if (!seen.insert({end1, end2}).second)
            continue;
        if (a->second == b->second)
            continue; // a loopback cable between two ports of one switch
        read.cable(a->second, b->second, cable.gbps);
    }
    return buildDesign(read, origin, options, catalog);
}

// --- Slurm ---

std::vector<std::string> expandHostlist(std::string_view list) {
    std::vector<std::string> names;
    // Split at commas outside brackets.
    std::vector<std::string_view> items;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= list.size(); ++i) {
        const char c = i < list.size() ? list[i] : ',';
        if (c == '[')
            ++depth;
        else if (c == ']')
            --depth;
        if (depth < 0 || depth > 1)
            throw std::invalid_argument("unbalanced brackets in \"" + std::string(list) + "\"");
        if (c == ',' && depth == 0) {
            if (i > start)
                items.push_back(list.substr(start, i - start));
            start = i + 1;
        }
    }
    if (depth != 0)
        throw std::invalid_argument("unbalanced brackets in \"" + std::string(list) + "\"");
    constexpr std::size_t kMostNames = 1'000'000; // a hostile range must not eat the memory
    for (const std::string_view item : items) {
        const std::size_t open = item.find('[');
        if (open == std::string_view::npos) {
            names.emplace_back(item);
            continue;
        }
        const std::size_t close = item.find(']', open);
        const std::string prefix(item.substr(0, open));
        const std::string suffix(item.substr(close + 1));
        const std::string_view ranges = item.substr(open + 1, close - open - 1);
        for (std::size_t at = 0; at <= ranges.size();) {
            const std::size_t comma = std::min(ranges.find(',', at), ranges.size());
            const std::string_view range = ranges.substr(at, comma - at);
            at = comma + 1;
            const std::size_t dash = range.find('-');
            const std::string_view low = range.substr(0, dash);
            const std::string_view high =
                dash == std::string_view::npos ? low : range.substr(dash + 1);
            long long from = 0;
            long long to = 0;
            const auto parse = [&](std::string_view digits, long long& value) {
                const auto [ptr, ec] =
                    std::from_chars(digits.data(), digits.data() + digits.size(), value);
                if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() ||
                    value < 0)
                    throw std::invalid_argument("\"" + std::string(range) +
                                                "\" is not a number or a range such as 1-64");
            };
            parse(low, from);
            parse(high, to);
            if (to < from)
                throw std::invalid_argument("the range \"" + std::string(range) +
                                            "\" runs backwards");
            if (names.size() + static_cast<std::size_t>(to - from) > kMostNames)
                throw std::invalid_argument("more than a million names in \"" +
                                            std::string(list.substr(0, 60)) + "\"");
            const std::size_t width = low.size(); // "001" keeps its zeros
            for (long long n = from; n <= to; ++n) {
                std::string digits = std::to_string(n);
                if (digits.size() < width)
                    digits.insert(0, width - digits.size(), '0');
                names.push_back(prefix + digits + suffix);
            }
        }
    }
    return names;
}

Design importSlurmTopology(std::string_view text, std::string_view origin,
                           const ImportOptions& options, const Catalog& catalog) {
    const std::string file(origin);
    struct SwitchLine {
        std::vector<std::string> switches;
        std::vector<std::string> nodes;
        int line = 0;
    };
    std::map<std::string, SwitchLine> switches;
    std::vector<std::string> order;
    std::string logical; // a line joined with its continuations
    int lineNumber = 0;
    int startLine = 0;
    const auto parseLine = [&](const std::string& joined, int line) {
        std::string_view rest = trimmed(joined);
        if (rest.empty())
            return;
        std::string name;
        SwitchLine parsed;
        parsed.line = line;
        bool any = false;
        while (!rest.empty()) {
            const std::size_t space = rest.find_first_of(" \t");
            const std::string_view word = rest.substr(0, space);
            rest =
                space == std::string_view::npos ? std::string_view() : trimmed(rest.substr(space));
            const std::size_t equals = word.find('=');
            if (equals == std::string_view::npos)
                throw ImportError(file, line, "expected Key=value, such as SwitchName=leaf-1");
            std::string key(word.substr(0, equals));
            std::transform(key.begin(), key.end(), key.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            const std::string_view value = word.substr(equals + 1);
            try {
                if (key == "switchname") {
                    name = std::string(value);
                    any = true;
                } else if (key == "switches") {
                    parsed.switches = expandHostlist(value);
                } else if (key == "nodes") {
                    parsed.nodes = expandHostlist(value);
                } else if (key == "linkspeed") {
                    // Slurm's own weight; FabricLab takes speeds from the fabric.
                } else {
                    throw ImportError(file, line,
                                      "unknown key \"" + std::string(word.substr(0, equals)) +
                                          "\" (topology.conf for the tree plugin has "
                                          "SwitchName, Switches, Nodes and LinkSpeed)");
                }
            } catch (const ImportError&) {
                throw;
            } catch (const std::invalid_argument& e) {
                throw ImportError(file, line, e.what());
            }
        }
        if (!any || name.empty())
            throw ImportError(file, line, "a line without SwitchName=");
        if (!parsed.switches.empty() && !parsed.nodes.empty())
            throw ImportError(file, line,
                              "switch \"" + name + "\" lists both Switches= and Nodes=");
        if (switches.count(name))
            throw ImportError(file, line,
                              "switch \"" + name + "\" defined twice (first on line " +
                                  std::to_string(switches[name].line) + ")");
        switches[name] = std::move(parsed);
        order.push_back(name);
    };
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string line(text.substr(at, end - at));
        at = end + 1;
        ++lineNumber;
        if (const std::size_t hash = line.find('#'); hash != std::string::npos)
            line.erase(hash);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.pop_back();
        if (logical.empty())
            startLine = lineNumber;
        if (!line.empty() && line.back() == '\\') {
            line.pop_back();
            logical += line + ' ';
            continue;
        }
        logical += line;
        parseLine(logical, startLine);
        logical.clear();
    }
    if (!logical.empty())
        parseLine(logical, startLine);
    if (switches.empty())
        throw ImportError(file, 1, "no SwitchName= lines: not a Slurm topology.conf");

    // Each switch below one parent at most through the tree; every name defined.
    std::map<std::string, std::string> leafOf; // server -> its leaf
    ReadFabric read;
    for (const std::string& name : order)
        read.add(name, {false, 0, switches[name].line});
    for (const std::string& name : order)
        for (const std::string& server : switches[name].nodes) {
            if (switches.count(server))
                throw ImportError(file, switches[name].line,
                                  "\"" + server + "\" is listed as a node but is a switch");
            if (const auto it = leafOf.find(server); it != leafOf.end())
                throw ImportError(file, switches[name].line,
                                  "node \"" + server + "\" is under both \"" + it->second +
                                      "\" and \"" + name + "\"");
            leafOf[server] = name;
            read.add(server, {true, 0, switches[name].line});
        }
    // Cables below each switch, worked out from the leaves up (a switch's children first).
    const int nics = options.nicsPerServer > 0 ? options.nicsPerServer : options.gpusPerServer;
    if (nics > 1024)
        throw ImportError(file, 0, "NICs per server must be 1 to 1,024");
    // topology.conf names no speeds: the fabric asked for, NDR InfiniBand if none.
    const std::string fabricId = options.fabricId.value_or("ib-ndr");
    const Fabric* found = catalog.findFabric(fabricId);
    if (!found)
        throw ImportError(file, 0, catalog.unknownFabric(fabricId));
    const Fabric& fabric = *found;
    const double gbps = fabric.portSpeed.value;
    std::map<std::string, std::vector<std::string>> parents;
    for (const std::string& name : order)
        for (const std::string& child : switches[name].switches) {
            if (!switches.count(child))
                throw ImportError(file, switches[name].line,
                                  "switch \"" + child + "\" is listed under \"" + name +
                                      "\" but has no SwitchName= line");
            if (child == name)
                throw ImportError(file, switches[name].line,
                                  "switch \"" + name + "\" lists itself");
            parents[child].push_back(name);
        }
    std::map<std::string, long long> below; // cables down from each switch
    // A switch's cables up: as many as it has down, shared over the switches above it.
    const auto uplinkShare = [&](const std::string& child) {
        const auto above = static_cast<long long>(parents[child].size());
        return (below[child] + above - 1) / above;
    };
    std::map<std::string, int> state;                    // 1 visiting, 2 done
    std::set<std::pair<std::string, std::string>> peers; // (upper, lower) listed in a cycle
    // Designs have at most three switch tiers: a deeper tree is refused before it could
    // run the recursion deep.
    constexpr int kDeepest = 8;
    std::function<long long(const std::string&, int)> down = [&](const std::string& name,
                                                                 int depth) -> long long {
        if (state[name] == 2)
            return below[name];
        if (depth > kDeepest)
            throw ImportError(file, switches[name].line,
                              "the switch tree is more than " + std::to_string(kDeepest) +
                                  " levels deep at \"" + name +
                                  "\": FabricLab designs have at most three switch tiers");
        state[name] = 1;
        long long total = static_cast<long long>(switches[name].nodes.size()) * nics;
        for (const std::string& child : switches[name].switches) {
            // Real files list spines under each other (a cable between peers): that edge
            // is a cable, not a level of the tree.
            if (state[child] == 1 || peers.count({child, name})) {
                peers.insert({name, child});
                continue;
            }
            down(child, depth + 1);
            total += uplinkShare(child);
        }
        state[name] = 2;
        return below[name] = total;
    };
    for (const std::string& name : order)
        down(name, 0);
    for (const std::string& name : order) {
        for (const std::string& server : switches[name].nodes)
            read.cable(server, name, gbps, nics);
        for (const std::string& child : switches[name].switches) {
            if (peers.count({name, child})) {
                read.cable(child, name, gbps, 1);
                continue;
            }
            const long long share = uplinkShare(child);
            if (share > 1'000'000)
                throw ImportError(file, switches[name].line, "more than a million cables");
            read.cable(child, name, gbps, static_cast<int>(std::max(share, 1LL)));
        }
    }
    ImportOptions chosen = options;
    chosen.fabricId = fabric.id;
    return buildDesign(read, origin, chosen, catalog);
}

} // namespace fabriclab::model
