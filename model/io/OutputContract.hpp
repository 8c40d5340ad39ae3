// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include "model/catalog/PriceCatalog.hpp"
#include "model/design/Design.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

/// What every JSON document FabricLab prints or writes opens with, so a script, a notebook
/// or a colleague can tell which version made it, from which design, fabric, seed and
/// prices, and which schema (schemas/*.schema.json) it follows. docs/output-contract.md
/// lists the keys and the one spelling each quantity has across commands.
namespace fabriclab::model {

/// Raised when a key is renamed or removed, or its meaning changes; adding keys keeps it.
inline constexpr int kOutputSchemaVersion = 1;

/// A design's fingerprint is that of its file's bytes: cheap whatever the design's size (a
/// generated 131K-GPU design is a few hundred bytes of generator), and what a colleague can
/// recompute from the file they were sent. A design not saved as it is now is fingerprinted
/// as the file a save would write (serializeDesign).
/// Reads the design file (refusing one past kMaxDesignFileBytes, as loadDesign does) and
/// fingerprints its bytes. Throws std::runtime_error naming the file it cannot read.
std::string designFileHash(const std::filesystem::path& file);
std::string designHash(const Design& design);

/// Where an output's figures come from.
struct OutputSource {
    const Design* design = nullptr;       ///< none for commands without one (catalog)
    std::string fabric;                   ///< the fabric the figures are for; "" for none
    std::optional<std::uint64_t> seed;    ///< the seed the engine ran with, when it ran
    const PriceCatalog* prices = nullptr; ///< the price list costs came from
    std::string designHash;               ///< designFileHash of its file; "" to serialize it
};

/// The opening keys, in this order: schemaVersion, kind (the schema's name, e.g.
/// "fabriclab-run"), fabriclabVersion, design {name, hash} (or null), fabric (or null),
/// seed (or null) and prices {id, hash} (or null).
nlohmann::ordered_json outputHead(std::string_view kind, std::string_view fabriclabVersion,
                                  const OutputSource& source);

/// `head` followed by `body`'s keys (body's own copies of head keys are dropped).
nlohmann::ordered_json withHead(nlohmann::ordered_json head, const nlohmann::ordered_json& body);

} // namespace fabriclab::model
