// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace fabriclab::model {

/// A refused document: which one, where in it (a JSON pointer such as "/links/3/b") and
/// what was expected there. what() reads "file.fabric.json: at /links/3/b: ...".
class JsonError : public std::invalid_argument {
public:
    JsonError(std::string origin, std::string path, std::string problem);
    const std::string& origin() const { return m_origin; }
    const std::string& path() const { return m_path; }
    const std::string& problem() const { return m_problem; }

private:
    std::string m_origin;
    std::string m_path;
    std::string m_problem;
};

/// "an array", "a string": JSON type names as a sentence needs them.
std::string withArticle(std::string_view typeName);

/// A read-only position inside a parsed JSON document that knows its own path, so every
/// check can say exactly where it failed. All accessors throw JsonError.
class JsonCursor {
public:
    JsonCursor(const nlohmann::json& value, std::string origin, std::string path = {});

    const nlohmann::json& value() const { return *m_value; }
    const std::string& path() const { return m_path; }
    const std::string& origin() const { return m_origin; }
    [[noreturn]] void fail(const std::string& problem) const;

    bool isObject() const { return m_value->is_object(); }
    bool has(std::string_view key) const;
    /// The member `key`; fails when this is not an object or the member is missing.
    JsonCursor operator[](std::string_view key) const;
    std::optional<JsonCursor> find(std::string_view key) const;
    /// Element i of an array (check size() first).
    JsonCursor at(std::size_t index) const;
    /// Number of elements; fails when this is not an array.
    std::size_t size() const;
    /// Fails on members not in `allowed`, naming them, to catch typos in hand-written files.
    void allowOnly(std::initializer_list<std::string_view> allowed) const;
    void allowOnly(std::span<const std::string_view> allowed) const;

    std::string string() const;
    bool boolean() const;
    /// A finite number within [lo, hi].
    double number(double lo, double hi) const;
    /// A whole number within [lo, hi].
    long long integer(long long lo, long long hi) const;

private:
    std::string describe() const;

    const nlohmann::json* m_value;
    std::string m_origin;
    std::string m_path;
};

} // namespace fabriclab::model
