// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes as fabriclab-cli's command line, split into arguments at
// NUL bytes, and as a --shard value. A UsageError (or any std::exception with a message)
// is the contract; a crash or undefined behaviour is a bug. Only the parsing runs: no
// design is read and nothing is simulated.
#include "app/cli/CliArguments.hpp"
#include "app/cli/SweepShards.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> args;
    std::string::size_type start = 0;
    for (;;) {
        const auto end = text.find('\0', start);
        args.push_back(text.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    try {
        (void)fabriclab::app::parseArguments(args);
    } catch (const std::exception&) {
    }
    try {
        (void)fabriclab::app::parseShard(args.front());
    } catch (const std::exception&) {
    }
    return 0;
}
