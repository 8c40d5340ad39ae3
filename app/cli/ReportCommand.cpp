// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "app/cli/ReportCommand.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace fabriclab::app {

void runReport(const CliArguments& args) {
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
        throw std::runtime_error("cannot find where fabriclab-cli is installed: " +
                                 error.message());
    const std::filesystem::path app = self.parent_path() / "fabriclab";
    if (access(app.c_str(), X_OK) != 0)
        throw std::runtime_error("the report is drawn by the fabriclab app, which is not beside "
                                 "fabriclab-cli (looked for " +
                                 app.string() + ")");

    std::vector<std::string> words{app.string(), "--report", *args.out};
    if (!args.fabrics.empty()) {
        std::string list;
        for (const std::string& id : args.fabrics)
            list += (list.empty() ? "" : ",") + id;
        words.insert(words.end(), {"--fabrics", list});
    }
    // "--" so a design named like an option is still the design.
    words.insert(words.end(), {"--", args.design});
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    // No window and no display needed: the app draws into the PDF only.
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    // Without a runtime folder (root over ssh, CI) Qt makes one and warns on stderr, which
    // must hold nothing but a refusal: make it first, as Qt would.
    if (!std::getenv("XDG_RUNTIME_DIR")) {
        const std::filesystem::path runtime =
            std::filesystem::temp_directory_path() / ("runtime-" + std::to_string(getuid()));
        std::filesystem::create_directories(runtime, error);
        std::filesystem::permissions(runtime, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::replace, error);
        setenv("XDG_RUNTIME_DIR", runtime.c_str(), 1);
    }
    execv(app.c_str(), argv.data());
    throw std::runtime_error("could not start " + app.string() + ": " + std::strerror(errno));
}

} // namespace fabriclab::app
