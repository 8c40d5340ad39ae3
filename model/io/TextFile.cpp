// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/io/TextFile.hpp"

#include "model/core/JsonCursor.hpp"

#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

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

void writeTextFileAtomically(const std::filesystem::path& path, std::string_view text) {
    std::random_device entropy;
    const auto temporary =
        path.parent_path() / (path.filename().string() + ".tmp-" + std::to_string(entropy()));
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error(path.string() + ": cannot write to this folder");
        out << text;
        out.flush();
        if (!out) {
            out.close();
            std::filesystem::remove(temporary);
            throw std::runtime_error(path.string() + ": writing failed (disk full?)");
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::filesystem::remove(temporary);
        throw std::runtime_error(path.string() + ": cannot replace the file: " + error.message());
    }
}

} // namespace fabriclab::model
