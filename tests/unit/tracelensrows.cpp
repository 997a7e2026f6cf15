// SPDX-License-Identifier: MIT
#include "tracelensrows.h"

#include "testutil.h"

#include <fstream>
#include <map>
#include <sstream>

namespace ridgeline::testing {

namespace {

// One CSV record: fields separated by commas, a field in double quotes may hold commas, newlines
// and doubled quotes.
std::vector<std::vector<std::string>> readTraceLensCsv(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            row.push_back(field);
            field.clear();
            rows.push_back(row);
            row.clear();
        } else {
            field += c;
        }
    }
    if (!field.empty() || !row.empty()) {
        row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

} // namespace

std::string pythonTupleToJson(const std::string& text)
{
    std::string out;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\'')
                inString = false, out += '"';
            else if (c == '"' || c == '\\')
                out += std::string("\\") + c;
            else
                out += c;
            continue;
        }
        if (c == '\'') {
            inString = true;
            out += '"';
        } else if (c == '(') {
            out += '[';
        } else if (c == ')') {
            // A one-element tuple's trailing comma: "(768,)".
            while (!out.empty() && (out.back() == ' ' || out.back() == ','))
                out.pop_back();
            out += ']';
        } else {
            out += c;
        }
    }
    return out;
}

std::vector<TraceLensRow> traceLensRows(const std::string& trace)
{
    const auto csv = readTraceLensCsv(testDataPath("tracelens-h100/" + trace + "_reference/unified_perf_summary.csv"));
    std::vector<TraceLensRow> rows;
    if (csv.empty())
        return rows;
    std::map<std::string, std::size_t> col;
    for (std::size_t i = 0; i < csv[0].size(); ++i)
        col[csv[0][i]] = i;
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& f = csv[r];
        if (f.size() != csv[0].size())
            continue;
        TraceLensRow row;
        row.name = f[col.at("name")];
        row.dims = pythonTupleToJson(f[col.at("Input Dims")]);
        row.types = pythonTupleToJson(f[col.at("Input type")]);
        row.concrete = pythonTupleToJson(f[col.at("Concrete Inputs")]);
        row.modelled = f[col.at("has_perf_model")] == "True";
        row.calls = std::stoll(f[col.at("operation_count")]);
        row.kernelTimeUs = std::stod(f[col.at("Kernel Time (µs)_sum")]);
        if (row.modelled) {
            row.gflops = std::stod(f[col.at("GFLOPS")]);
            row.mib = std::stod(f[col.at("Data Moved (MB)")]);
        }
        rows.push_back(row);
    }
    return rows;
}

} // namespace ridgeline::testing
