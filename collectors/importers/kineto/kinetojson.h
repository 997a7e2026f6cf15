// SPDX-License-Identifier: MIT
// simdjson On-Demand helpers of the Kineto importer, shared by the event parser and the args reader.
#pragma once

#include "kinetointernal.h"

#include <cstring>
#include <simdjson.h>

namespace ridgeline::collectors::kineto {

namespace od = simdjson::ondemand;

enum class Category {
    Unknown,
    Kernel,
    Memcpy,
    Memset,
    Runtime,
    Driver,
    Annotation,
    GpuAnnotation,
    CpuOp,
    PythonFunction,
    Other
};

// A token without its quotes and trailing whitespace.
inline std::string_view unquoted(std::string_view token)
{
    while (
        !token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    if (token.size() >= 2 && token.front() == '"' && token.back() == '"')
        token = token.substr(1, token.size() - 2);
    return token;
}
// Whether a key is `literal`: a length test and a compare of known size, which the compiler
// inlines (a std::string_view == calls memcmp); called for every key of every event.
template <std::size_t N> inline bool is(std::string_view key, const char (&literal)[N])
{
    return key.size() == N - 1 && std::memcmp(key.data(), literal, N - 1) == 0;
}
// An event's "cat", compared case-insensitively ("Kernel", "Runtime" in older traces).
Category classify(std::string_view cat);
// Unwraps an object member; errors throw simdjson_error (caught in parseTrace). Inline: called
// for every key of every event.
inline od::field fieldOf(simdjson::simdjson_result<od::field> member)
{
    od::field field;
    if (const auto error = std::move(member).get(field))
        throw simdjson::simdjson_error(error);
    return field;
}
// The key of a field as written (keys Ridgeline looks for have no escapes). Its closing quote is
// found back from where the value starts, over the ':' and any space: a key is then a few steps,
// however long ("Record function id" was a byte-by-byte walk on every key of every operator).
inline std::string_view keyOf(od::field& field)
{
    const char* start = field.key().raw();
    const char* end = nullptr;
    if (field.value().current_location().get(end) == simdjson::SUCCESS && end > start) {
        do
            --end;
        while (end > start && *end != '"');
    } else { // not expected: walk forward from the key
        end = start;
        while (*end != '"') {
            if (*end == '\\')
                ++end;
            ++end;
        }
    }
    return { start, static_cast<std::size_t>(end - start) };
}
inline bool isScalar(od::value& value)
{
    const auto type = value.type().value();
    return type != od::json_type::array && type != od::json_type::object;
}
// A number (or a numeric string) as an integer; reals are rounded.
std::optional<std::int64_t> readInt(od::value& value);
std::string readString(od::value& value);
core::Dim3 readDim3(od::value& value);
int toInt(std::int64_t value);

// The args of an event that Ridgeline uses.
struct Args {
    std::int64_t correlation = 0;
    std::optional<std::int64_t> device, stream, fromDevice, toDevice;
    std::int64_t context = 0;
    std::int64_t registers = 0;
    std::int64_t sharedMemory = 0;
    std::int64_t bytes = 0;
    core::Dim3 grid, block;
    CommInfo comm;
    bool hasCollective = false;
    std::string pgName, pgDesc, pgRanks;
    std::string name; // ph:"M" events
    // Operators (cpu_op, python_function); the External id also of runtime calls.
    std::int64_t externalId = 0;
    std::int64_t sequenceNumber = -1;
    std::string_view inputDims, inputTypes, concreteInputs; // JSON text as written (in the batch being parsed)
    std::string module, callStack;
};

void readArgs(od::value& object, Args& args);
// The args of an operator (cpu_op, python_function): only the keys operators have.
void readOperatorArgs(od::value& object, Args& args);

} // namespace ridgeline::collectors::kineto
