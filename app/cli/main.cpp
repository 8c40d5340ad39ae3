// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// fabriclab-cli: the headless face of the engine. Wiring only: parse, execute, print.
#include "app/ProcessMemory.hpp"
#include "app/cli/CliArguments.hpp"
#include "app/cli/CliCommands.hpp"
#include "app/cli/ReportCommand.hpp"
#include "model/catalog/Catalog.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Exit statuses a script can tell apart.
enum ExitStatus : int {
    kBadInput = 2,      ///< a file, a key or an argument that cannot be used, named
    kEngineLimit = 3,   ///< the design is beyond what this machine can evaluate
    kInternalError = 4, ///< FabricLab failed where it should not have
};

/// Reported on exactly one line, whatever the message contains.
int fail(std::string message, int status) {
    std::replace(message.begin(), message.end(), '\n', ' ');
    std::cerr << "fabriclab-cli: " << message << '\n';
    return status;
}

} // namespace

int main(int argc, char** argv) {
    using namespace fabriclab::app;
    returnLargeBlocksToTheSystem();
    try {
        const CliArguments args = parseArguments(std::vector<std::string>(argv + 1, argv + argc));
        if (args.command == "help") {
            std::cout << (args.helpText.empty() ? usageText() : args.helpText);
            return 0;
        }
        if (args.command == "completion") {
            std::vector<std::string> fabrics;
            for (const auto& [id, unused] : fabriclab::model::Catalog::builtin().fabrics())
                fabrics.push_back(id);
            std::cout << bashCompletion(fabrics);
            return 0;
        }
        if (args.command == "version") {
            std::cout << "fabriclab-cli " << FABRICLAB_VERSION << '\n';
            return 0;
        }
        if (args.command == "report")
            runReport(args);
        const std::string output = executeCommand(args);
        std::cout << output << std::flush;
        return std::cout ? 0 : 1;
    } catch (const std::bad_alloc&) {
        return fail("out of memory: the design is too large to evaluate on this machine",
                    kEngineLimit);
    } catch (const std::length_error& e) {
        return fail(std::string("beyond the engine's limits: ") + e.what(), kEngineLimit);
    } catch (const std::invalid_argument& e) {
        return fail(e.what(), kBadInput); // usage, design and figure files, imports
    } catch (const nlohmann::json::exception& e) {
        // A text the user gave that JSON cannot carry (a log's host name that is not UTF-8).
        return fail(std::string("cannot write that as JSON: ") + e.what(), kBadInput);
    } catch (const std::runtime_error& e) {
        return fail(e.what(), kBadInput); // a file that cannot be read or written, named
    } catch (const std::exception& e) {
        return fail(std::string("internal error: ") + e.what(), kInternalError);
    } catch (...) {
        return fail("internal error", kInternalError);
    }
}
