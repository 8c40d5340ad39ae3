// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// Design documents as the file and CLI suites write them. Both suites start from the same
// two small designs and derive every bad input from them by a merge patch; keeping the
// fixtures in one place means a format change (a new required field, a new version) is
// made once and both suites keep testing the same documents. readFile is here too because
// the file and catalog suites both read documents back from disk byte for byte.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fabriclab::testing {

/// A rail-optimized, non-blocking generator request: `servers` of 8 GPUs with 8 x 400G
/// NICs on radix-64 switches.
inline nlohmann::json railGenerator(int servers, const char* kind = "leaf-spine") {
    return {{"kind", kind},       {"servers", servers}, {"gpusPerServer", 8},
            {"nicsPerServer", 8}, {"nicGbps", 400},     {"railOptimized", true},
            {"leafRadix", 64},    {"spineRadix", 64},   {"oversubscription", 1.0}};
}

/// A design of `fabric` built by `generator`.
inline nlohmann::json generatedDesign(const std::string& name, const std::string& fabric,
                                      const nlohmann::json& generator) {
    return {{"format", "fabriclab-design"},
            {"version", 1},
            {"name", name},
            {"fabric", fabric},
            {"generator", generator}};
}

/// 4 servers x 8 NICs fit one radix-64 leaf: 32 GPUs, no spine.
inline nlohmann::json generatorDesign() {
    return generatedDesign("32 x H100 on one leaf", "ib-ndr", railGenerator(4));
}

/// One 8-GPU server on one leaf, spelled out without a generator (with the positions a
/// saved design carries).
inline nlohmann::json explicitDesign() {
    return {{"format", "fabriclab-design"},
            {"version", 1},
            {"name", "one server"},
            {"fabric", "ib-ndr"},
            {"nodes",
             {{{"id", "srv-1"}, {"kind", "server"}, {"x", 0}, {"y", 100}},
              {{"id", "leaf-1"}, {"kind", "leaf"}, {"x", 0}, {"y", 0}}}},
            {"links", {{{"a", "srv-1"}, {"b", "leaf-1"}, {"gbps", 400}, {"count", 8}}}}};
}

/// A copy of `base` with an RFC 7386 merge patch applied (null removes a member), as text.
inline std::string patched(nlohmann::json base, const nlohmann::json& patch) {
    base.merge_patch(patch);
    return base.dump();
}

/// A file's bytes, unchanged (binary mode, no newline translation); empty if unreadable.
inline std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace fabriclab::testing
