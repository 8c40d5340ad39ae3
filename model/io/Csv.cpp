// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#include "model/io/Csv.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace fabriclab::model {

CsvWriter::CsvWriter(std::vector<std::string> header) : m_columns(header.size()) {
    append(header);
}

void CsvWriter::row(const std::vector<std::string>& fields) {
    if (fields.size() != m_columns)
        throw std::logic_error("CSV record of " + std::to_string(fields.size()) + " fields under " +
                               std::to_string(m_columns) + " columns");
    append(fields);
}

void CsvWriter::append(const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0)
            m_text += ',';
        m_text += field(fields[i]);
    }
    m_text += "\r\n";
}

std::string CsvWriter::field(std::string_view value) {
    if (value.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(value);
    std::string quoted = "\"";
    for (const char c : value) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string CsvWriter::number(double value, int decimals) {
    if (!std::isfinite(value))
        return {};
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    std::string text = buffer;
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.')
            text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

} // namespace fabriclab::model
