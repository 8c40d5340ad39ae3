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

} // namespace fabriclab::model
