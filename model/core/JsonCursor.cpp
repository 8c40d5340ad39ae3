// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/core/JsonCursor.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fabriclab::model {
namespace {

std::string pointerToken(std::string_view key) {
    // RFC 6901 escaping, so a key containing '/' still yields a valid pointer.
    std::string token;
    for (char c : key) {
        if (c == '~')
            token += "~0";
        else if (c == '/')
            token += "~1";
        else
            token += c;
    }
    return token;
}

std::string formatNumber(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

} // namespace

std::string withArticle(std::string_view typeName) {
    const bool vowel =
        !typeName.empty() && std::string_view("aeiou").find(typeName[0]) != std::string_view::npos;
    return (vowel ? "an " : "a ") + std::string(typeName);
}

JsonError::JsonError(std::string origin, std::string path, std::string problem)
    : std::invalid_argument(origin + ": at " + (path.empty() ? "/" : path) + ": " + problem),
      m_origin(std::move(origin)), m_path(path.empty() ? "/" : std::move(path)),
      m_problem(std::move(problem)) {}

JsonCursor::JsonCursor(const nlohmann::json& value, std::string origin, std::string path)
    : m_value(&value), m_origin(std::move(origin)), m_path(std::move(path)) {}

void JsonCursor::fail(const std::string& problem) const {
    throw JsonError(m_origin, m_path, problem);
}

std::string JsonCursor::describe() const {
    const auto& v = *m_value;
    if (v.is_string()) {
        std::string text = v.get<std::string>();
        if (text.size() > 40)
            text = text.substr(0, 40) + "...";
        return "the string \"" + text + "\"";
    }
    if (v.is_number())
        return "the number " + v.dump();
    return withArticle(v.type_name());
}

bool JsonCursor::has(std::string_view key) const {
    return m_value->is_object() && m_value->contains(key);
}

JsonCursor JsonCursor::operator[](std::string_view key) const {
    if (!m_value->is_object())
        fail("expected an object, got " + describe());
    const auto it = m_value->find(key);
    if (it == m_value->end())
        fail("missing required field \"" + std::string(key) + "\"");
    return JsonCursor(*it, m_origin, m_path + "/" + pointerToken(key));
}

std::optional<JsonCursor> JsonCursor::find(std::string_view key) const {
    if (!has(key))
        return std::nullopt;
    return (*this)[key];
}

JsonCursor JsonCursor::at(std::size_t index) const {
    return JsonCursor((*m_value)[index], m_origin, m_path + "/" + std::to_string(index));
}

std::size_t JsonCursor::size() const {
    if (!m_value->is_array())
        fail("expected an array, got " + describe());
    return m_value->size();
}

void JsonCursor::allowOnly(std::initializer_list<std::string_view> allowed) const {
    allowOnly(std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

void JsonCursor::allowOnly(std::span<const std::string_view> allowed) const {
    if (!m_value->is_object())
        fail("expected an object, got " + describe());
    for (const auto& [key, unused] : m_value->items()) {
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
            continue;
        std::string list;
        for (auto name : allowed)
            list += (list.empty() ? "" : ", ") + std::string(name);
        JsonCursor(*m_value, m_origin, m_path + "/" + pointerToken(key))
            .fail("unknown field \"" + key + "\" (expected one of: " + list + ")");
    }
}

std::string JsonCursor::string() const {
    if (!m_value->is_string())
        fail("expected a string, got " + describe());
    return m_value->get<std::string>();
}

bool JsonCursor::boolean() const {
    if (!m_value->is_boolean())
        fail("expected true or false, got " + describe());
    return m_value->get<bool>();
}

double JsonCursor::number(double lo, double hi) const {
    if (!m_value->is_number())
        fail("expected a number, got " + describe());
    const double v = m_value->get<double>();
    if (!std::isfinite(v) || v < lo || v > hi)
        fail("expected a number from " + formatNumber(lo) + " to " + formatNumber(hi) + ", got " +
             m_value->dump());
    return v;
}

long long JsonCursor::integer(long long lo, long long hi) const {
    if (!m_value->is_number())
        fail("expected a whole number, got " + describe());
    if (m_value->is_number_float()) {
        const double v = m_value->get<double>();
        if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9e15)
            fail("expected a whole number, got " + m_value->dump());
    }
    // Unsigned values above the signed range are out of any range we accept.
    if (m_value->is_number_unsigned() &&
        m_value->get<unsigned long long>() > static_cast<unsigned long long>(hi))
        fail("expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
             ", got " + m_value->dump());
    const auto v = m_value->is_number_float() ? static_cast<long long>(m_value->get<double>())
                                              : m_value->get<long long>();
    if (v < lo || v > hi)
        fail("expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
             ", got " + m_value->dump());
    return v;
}

} // namespace fabriclab::model
