// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// The whole of a file a user names (a design, a figures file), read without guessing:
/// throws JsonError naming the path when it is a folder, cannot be read, or is larger than
/// `maxBytes` ("`kind` files are at most ... MiB"), so a wrong path never hangs or exhausts
/// memory.
std::string readTextFile(const std::filesystem::path& path, std::uintmax_t maxBytes,
                         std::string_view kind);

/// Writes `text` to `path` all or nothing: to a temporary file beside it, then renamed over
/// it, so a full disk or a crash never leaves half a file. Throws std::runtime_error naming
/// the path and what went wrong (a folder that cannot be written, a full disk).
void writeTextFileAtomically(const std::filesystem::path& path, std::string_view text);

} // namespace fabriclab::model
