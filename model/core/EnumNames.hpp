// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// Looks an enum value up in a table of {value, name} pairs: the one place where the
/// names files and reports use are spelled, so reading and writing cannot drift apart.
template <class Table, class Enum> std::string_view enumName(const Table& table, Enum value) {
    for (const auto& [v, name] : table)
        if (v == value)
            return name;
    return "?";
}

template <class Enum, class Table>
std::optional<Enum> enumValue(const Table& table, std::string_view text) {
    for (const auto& [v, name] : table)
        if (name == text)
            return v;
    return std::nullopt;
}

/// The same look-up ignoring case, for names users type as NCCL takes them (NCCL reads
/// NCCL_PROTO=simple and NCCL_PROTO=Simple alike).
template <class Enum, class Table>
std::optional<Enum> enumValueIgnoringCase(const Table& table, std::string_view text) {
    const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
    for (const auto& [v, name] : table)
        if (std::ranges::equal(name, text, {}, lower, lower))
            return v;
    return std::nullopt;
}

/// Every name of a table, quoted, for a message: "\"ecmp\" or \"adaptive\"".
template <class Table> std::string enumNameList(const Table& table) {
    std::string list;
    std::size_t i = 0;
    for (const auto& [v, name] : table) {
        if (i > 0)
            list += i + 1 == std::size(table) ? " or " : ", ";
        list += '"';
        list += name;
        list += '"';
        ++i;
    }
    return list;
}

} // namespace fabriclab::model
