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

/// 4 servers x 8 NICs fit one radix-64 leaf: 32 GPUs, no spine.
inline nlohmann::json generatorDesign() {
    return {{"format", "fabriclab-design"},
            {"version", 1},
            {"name", "32 x H100 on one leaf"},
            {"fabric", "ib-ndr"},
            {"generator",
             {{"kind", "leaf-spine"},
              {"servers", 4},
              {"gpusPerServer", 8},
              {"nicsPerServer", 8},
              {"nicGbps", 400},
              {"railOptimized", true},
              {"leafRadix", 64},
              {"spineRadix", 64},
              {"oversubscription", 1.0}}}};
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
