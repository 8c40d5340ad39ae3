// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/io/OutputContract.hpp"

#include "model/core/Hash.hpp"
#include "model/io/DesignFile.hpp"
#include "model/io/TextFile.hpp"

namespace fabriclab::model {

std::string designFileHash(const std::filesystem::path& file) {
    return contentHash(readTextFile(file, kMaxDesignFileBytes, "design"));
}

std::string designHash(const Design& design) {
    return contentHash(serializeDesign(design));
}

nlohmann::ordered_json outputHead(std::string_view kind, std::string_view fabriclabVersion,
                                  const OutputSource& source) {
    nlohmann::ordered_json head;
    head["schemaVersion"] = kOutputSchemaVersion;
    head["kind"] = kind;
    head["fabriclabVersion"] = fabriclabVersion;
    if (source.design)
        head["design"] = {
            {"name", source.design->name},
            {"hash", source.designHash.empty() ? designHash(*source.design) : source.designHash}};
    else
        head["design"] = nullptr;
    head["fabric"] =
        source.fabric.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(source.fabric);
    head["seed"] = source.seed ? nlohmann::ordered_json(*source.seed) : nlohmann::ordered_json();
    if (source.prices)
        head["prices"] = {{"id", source.prices->id}, {"hash", source.prices->hash}};
    else
        head["prices"] = nullptr;
    return head;
}

nlohmann::ordered_json withHead(nlohmann::ordered_json head, const nlohmann::ordered_json& body) {
    for (const auto& [key, value] : body.items())
        if (!head.contains(key))
            head[key] = value;
    return head;
}

} // namespace fabriclab::model
