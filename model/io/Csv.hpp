// SPDX-FileCopyrightText: FabricLab authors
// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fabriclab::model {

/// A table written as RFC 4180 CSV: fields separated by commas, records ended by CRLF, a
/// field quoted when it holds a comma, a double quote, CR or LF, quotes inside doubled.
/// Every CSV FabricLab writes goes through here, so a spreadsheet reads each one alike.
class CsvWriter {
public:
    explicit CsvWriter(std::vector<std::string> header);

    /// Appends a record; throws std::logic_error when it has not one field per column.
    void row(const std::vector<std::string>& fields);
    const std::string& text() const { return m_text; }
    /// Room for `bytes` of text ahead of a large table.
    void reserve(std::size_t bytes) { m_text.reserve(bytes); }

    /// `value` as one CSV field, quoted only where it must be.
    static std::string field(std::string_view value);
    /// A number as a field: fixed `decimals`, trailing zeros dropped, no thousands separators.
    static std::string number(double value, int decimals = 6);

private:
    void append(const std::vector<std::string>& fields);

    std::size_t m_columns;
    std::string m_text;
};

} // namespace fabriclab::model
