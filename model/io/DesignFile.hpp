// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/Catalog.hpp"
#include "model/design/Design.hpp"
#include "model/core/JsonCursor.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// The design file format this build writes and the newest it reads.
inline constexpr int kDesignFormatVersion = 1;
/// Larger files are refused before parsing: a 16K-GPU design is a few MB.
inline constexpr std::uintmax_t kMaxDesignFileBytes = 256u << 20;

/// How strictly a design is read.
struct ReadOptions {
    /// Refuse a workload whose tp x pp x dp is not the design's GPU count. The app turns
    /// this off so that a design a user edited (say, removed a server) always reopens;
    /// the workload is then refused only when it is evaluated.
    bool workloadMustFit = true;
};

/// Parses a design document. `origin` names it in errors (usually the file path).
/// Throws JsonError naming the origin, the JSON path and what was expected; never
/// returns a design it had to guess at. A generator without nodes is expanded.
Design parseDesign(std::string_view text, const std::string& origin, const Catalog& catalog,
                   const ReadOptions& options = {});

/// Reads and parses a file. Throws JsonError (also for unreadable or oversized files).
Design loadDesign(const std::filesystem::path& path, const Catalog& catalog,
                  const ReadOptions& options = {});

/// The canonical JSON of a design (explicit nodes and links plus the generator).
nlohmann::json designToJson(const Design& design);
std::string serializeDesign(const Design& design);

/// Writes atomically: a temporary file in the same folder, flushed, then renamed over the
/// target, so a crash or a full disk never leaves half a design behind.
/// Throws std::runtime_error naming the file and the reason.
void saveDesign(const Design& design, const std::filesystem::path& path);

} // namespace fabriclab::model
