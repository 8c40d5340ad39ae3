// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/io/TextFile.hpp"

#include "model/io/JsonCursor.hpp"

#include <fstream>
#include <sstream>

namespace fabriclab::model {

std::string readTextFile(const std::filesystem::path& path, std::uintmax_t maxBytes,
                         std::string_view kind) {
    const std::string origin = path.string();
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw JsonError(origin, "/", "is a folder, not a " + std::string(kind) + " file");
    const auto size = std::filesystem::file_size(path, error);
    if (error)
        throw JsonError(origin, "/", "cannot read: " + error.message());
    if (size > maxBytes)
        throw JsonError(origin, "/",
                        "is " + std::to_string(size >> 20) + " MiB; " + std::string(kind) +
                            " files are at most " + std::to_string(maxBytes >> 20) + " MiB");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw JsonError(origin, "/", "cannot open for reading");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace fabriclab::model
