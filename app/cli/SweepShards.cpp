// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/cli/SweepShards.hpp"

#include "model/core/Hash.hpp"
#include "model/core/JsonCursor.hpp"

#include <charconv>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

namespace fabriclab::app {
namespace {

/// Missing points named in an error: enough to find the failed shard, not a wall of numbers.
constexpr std::size_t kMissingNamed = 20;

int parsePart(const std::string& text, std::string_view part) {
    int value = 0;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (error != std::errc() || end != part.data() + part.size() || part.empty())
        throw std::invalid_argument("--shard \"" + text + "\": expected I/N, two whole numbers");
    return value;
}

/// The first key on which two sweeps' identities differ, as "KEY: A here, B in WHERE".
std::string firstDifference(const nlohmann::ordered_json& here, const nlohmann::ordered_json& first,
                            const std::string& firstWhere) {
    for (const auto& [key, value] : first.items()) {
        if (key == "fingerprint")
            continue;
        const nlohmann::ordered_json mine = here.contains(key) ? here.at(key) : nullptr;
        if (mine != value)
            return key + " " + mine.dump() + " here, " + value.dump() + " in " + firstWhere;
    }
    for (const auto& [key, value] : here.items())
        if (!first.contains(key))
            return key + " " + value.dump() + " here, none in " + firstWhere;
    return "fingerprint " + here.value("fingerprint", std::string("(none)")) + " here, " +
           first.value("fingerprint", std::string("(none)")) + " in " + firstWhere;
}

} // namespace

Shard parseShard(const std::string& text) {
    const auto slash = text.find('/');
    if (slash == std::string::npos)
        throw std::invalid_argument("--shard \"" + text + "\": expected I/N, e.g. 3/8");
    Shard shard;
    shard.index = parsePart(text, std::string_view(text).substr(0, slash));
    shard.count = parsePart(text, std::string_view(text).substr(slash + 1));
    if (shard.count < 1 || shard.count > kMaxShards)
        throw std::invalid_argument("--shard \"" + text + "\": N must be from 1 to " +
                                    std::to_string(kMaxShards));
    if (shard.index < 1 || shard.index > shard.count)
        throw std::invalid_argument("--shard \"" + text + "\": I must be from 1 to N");
    return shard;
}

std::string shardLine(std::size_t point, std::size_t total, nlohmann::ordered_json identity,
                      const nlohmann::ordered_json& row) {
    identity.erase("fingerprint");
    identity["fingerprint"] = model::contentHash(identity.dump());
    nlohmann::ordered_json line;
    line["point"] = point;
    line["of"] = total;
    line["sweep"] = std::move(identity);
    line["row"] = row;
    return line.dump() + "\n";
}

MergedSweep mergeShards(const std::vector<std::string>& files) {
    MergedSweep merged;
    std::string identityWhere;
    std::optional<std::size_t> total;
    std::map<std::size_t, nlohmann::ordered_json> rows;
    std::map<std::size_t, std::string> seenAt;
    for (const std::string& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in)
            throw model::JsonError(file, "/", "cannot open for reading");
        std::string text;
        for (std::size_t number = 1; std::getline(in, text); ++number) {
            if (text.find_first_not_of(" \t\r") == std::string::npos)
                continue;
            const std::string where = file + ":" + std::to_string(number);
            nlohmann::ordered_json line;
            try {
                line = nlohmann::ordered_json::parse(text);
            } catch (const nlohmann::json::exception&) {
                throw model::JsonError(where, "/", "not a JSON line of a sweep shard");
            }
            if (!line.is_object() || !line.contains("point") || !line.contains("of") ||
                !line.contains("row") || !line["point"].is_number_unsigned() ||
                !line["of"].is_number_unsigned() || !line["row"].is_object())
                throw model::JsonError(
                    where, "/",
                    "expected {\"point\": k, \"of\": n, \"sweep\": {...}, \"row\": {...}}");
            if (!line.contains("sweep") || !line["sweep"].is_object() ||
                !line["sweep"].contains("fingerprint") || !line["sweep"]["fingerprint"].is_string())
                throw model::JsonError(where, "/sweep",
                                       "no sweep fingerprint: written by an older FabricLab? "
                                       "Run the shard again");
            // The fingerprint must be the identity's own: a line edited by hand is refused.
            nlohmann::ordered_json identity = line["sweep"];
            identity.erase("fingerprint");
            if (model::contentHash(identity.dump()) != line["sweep"]["fingerprint"])
                throw model::JsonError(where, "/sweep/fingerprint",
                                       "does not match the sweep it describes (the line was "
                                       "edited?): run the shard again");
            if (identityWhere.empty()) {
                merged.identity = line["sweep"];
                identityWhere = where;
            } else if (line["sweep"]["fingerprint"] != merged.identity["fingerprint"]) {
                throw model::JsonError(
                    where, "/sweep",
                    "a shard of another sweep: " +
                        firstDifference(line["sweep"], merged.identity, identityWhere));
            }
            const auto point = line["point"].get<std::size_t>();
            const auto of = line["of"].get<std::size_t>();
            if (total && *total != of)
                throw model::JsonError(where, "/of",
                                       "this shard is of a sweep of " + std::to_string(of) +
                                           " points, the others of " + std::to_string(*total));
            total = of;
            if (point >= of)
                throw model::JsonError(where, "/point",
                                       "point " + std::to_string(point) + " of a sweep of " +
                                           std::to_string(of));
            if (const auto before = seenAt.find(point); before != seenAt.end())
                throw model::JsonError(where, "/point",
                                       "point " + std::to_string(point) + " is also in " +
                                           before->second + " (a shard merged twice?)");
            seenAt.emplace(point, where);
            rows.emplace(point, std::move(line["row"]));
        }
    }
    if (!total)
        throw model::JsonError(files.empty() ? std::string("sweep --merge") : files.front(), "/",
                               "no sweep points in the files given");
    if (rows.size() != *total) {
        std::string missing;
        std::size_t named = 0;
        for (std::size_t k = 0; k < *total && named < kMissingNamed; ++k)
            if (!rows.count(k)) {
                missing += (missing.empty() ? "" : ", ") + std::to_string(k);
                ++named;
            }
        if (*total - rows.size() > named)
            missing += ", ...";
        throw model::JsonError(files.front(), "/",
                               std::to_string(*total - rows.size()) + " of " +
                                   std::to_string(*total) + " points missing (" + missing +
                                   "): a shard did not finish or was left out");
    }
    merged.identity.erase("fingerprint");
    merged.rows.reserve(rows.size());
    for (auto& [point, row] : rows)
        merged.rows.push_back(std::move(row));
    return merged;
}

} // namespace fabriclab::app
