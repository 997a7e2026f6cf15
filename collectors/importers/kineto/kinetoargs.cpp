// SPDX-License-Identifier: MIT
// simdjson On-Demand helpers of the Kineto importer: tokens, numbers, strings, launch sizes and
// the args of an event, all read from the raw JSON text without unescaping what is not kept.
#include "kinetojson.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ridgeline::collectors::kineto {

namespace {

std::optional<std::int64_t> tokenInt(std::string_view token)
{
    token = unquoted(token);
    // Most are a few plain digits (pids, ids, counts): summed here, without a library call.
    if (!token.empty() && token.size() <= 18) {
        std::uint64_t digits = 0; // < 10^18 when plain; wraps harmlessly when not
        bool plain = true;
        for (const char c : token) {
            plain = plain && c >= '0' && c <= '9';
            digits = digits * 10 + static_cast<std::uint64_t>(static_cast<unsigned char>(c) - '0');
        }
        if (plain)
            return static_cast<std::int64_t>(digits);
    }
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec == std::errc() && end == token.data() + token.size())
        return value;
    double real = 0;
    const auto [realEnd, realEc] = std::from_chars(token.data(), token.data() + token.size(), real);
    if (realEc == std::errc() && realEnd == token.data() + token.size() && std::fabs(real) < 9.2e18)
        return static_cast<std::int64_t>(std::llround(real));
    return std::nullopt;
}

// A value's JSON text as written (arrays whole), without trailing whitespace.
std::string_view jsonText(od::value& value)
{
    std::string_view text;
    if (simdjson::to_json_string(value).get(text))
        return {};
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

void operatorArg(std::string_view key, od::value& v, Args& args)
{
    // PyTorch 1.8 and 1.9 wrote "external id" and "Input dims".
    if (is(key, "External id") || is(key, "external id"))
        args.externalId = readInt(v).value_or(0);
    else if (is(key, "Sequence number"))
        args.sequenceNumber = readInt(v).value_or(-1);
    else if (is(key, "Input Dims") || is(key, "Input dims"))
        args.inputDims = jsonText(v);
    else if (is(key, "Input type"))
        args.inputTypes = jsonText(v);
    else if (is(key, "Concrete Inputs"))
        args.concreteInputs = jsonText(v);
    else if (is(key, "Module Hierarchy"))
        args.module = readString(v);
    else if (is(key, "Call stack"))
        args.callStack = readString(v);
}

} // namespace

Category classify(std::string_view cat)
{
    // Most events of a trace are operators: those spelled as Kineto writes them skip the table.
    if (is(cat, "cpu_op"))
        return Category::CpuOp;
    if (is(cat, "python_function"))
        return Category::PythonFunction;
    static constexpr std::pair<std::string_view, Category> kCategories[] {
        { "kernel", Category::Kernel },
        { "gpu_memcpy", Category::Memcpy },
        { "gpu_memset", Category::Memset },
        { "cuda_runtime", Category::Runtime },
        { "runtime", Category::Runtime },
        { "cuda_driver", Category::Driver },
        { "driver", Category::Driver },
        { "user_annotation", Category::Annotation },
        { "gpu_user_annotation", Category::GpuAnnotation },
        { "cpu_op", Category::CpuOp },
        { "operator", Category::CpuOp }, // PyTorch 1.8 and 1.9
        { "memcpy", Category::Memcpy }, // PyTorch 1.8 and 1.9
        { "memset", Category::Memset },
        { "python_function", Category::PythonFunction },
    };
    for (const auto& [name, category] : kCategories) {
        if (equalsIgnoreCase(cat, name))
            return category;
    }
    return Category::Other;
}

std::optional<std::int64_t> readInt(od::value& value)
{
    if (!isScalar(value))
        return std::nullopt;
    return tokenInt(value.raw_json_token());
}

std::string readString(od::value& value)
{
    if (!isScalar(value))
        return {};
    const auto token = value.raw_json_token();
    return value.type().value() == od::json_type::string ? unescapeJsonString(token) : std::string(unquoted(token));
}

core::Dim3 readDim3(od::value& value)
{
    core::Dim3 dims;
    if (value.type().value() != od::json_type::array)
        return dims;
    std::uint32_t* slots[] = { &dims.x, &dims.y, &dims.z };
    std::size_t i = 0;
    for (auto element : value.get_array()) {
        od::value item = element.value();
        const auto n = readInt(item);
        if (i < 3 && n && *n >= 0 && *n <= 0xFFFFFFFFLL)
            *slots[i] = static_cast<std::uint32_t>(*n);
        ++i;
    }
    return dims;
}

int toInt(std::int64_t value)
{
    return static_cast<int>(std::clamp<std::int64_t>(value, -2147483647, 2147483647));
}

void readArgs(od::value& object, Args& args)
{
    if (object.type().value() != od::json_type::object)
        return;
    for (auto member : object.get_object()) {
        od::field field = fieldOf(std::move(member));
        const std::string_view key = keyOf(field);
        od::value& v = field.value();
        auto setInt = [&v](std::int64_t& slot) {
            if (auto n = readInt(v))
                slot = *n;
        };
        if (is(key, "correlation"))
            setInt(args.correlation);
        else if (is(key, "device"))
            args.device = readInt(v);
        else if (is(key, "stream"))
            args.stream = readInt(v);
        else if (is(key, "context"))
            setInt(args.context);
        else if (is(key, "registers per thread"))
            setInt(args.registers);
        else if (is(key, "shared memory"))
            setInt(args.sharedMemory);
        else if (is(key, "bytes"))
            setInt(args.bytes);
        else if (is(key, "grid"))
            args.grid = readDim3(v);
        else if (is(key, "block"))
            args.block = readDim3(v);
        else if (is(key, "fromDevice"))
            args.fromDevice = readInt(v);
        else if (is(key, "toDevice"))
            args.toDevice = readInt(v);
        else if (is(key, "Collective name")) {
            args.comm.collective = readString(v);
            args.hasCollective = true;
        } else if (is(key, "In msg nelems") || is(key, "In msg size"))
            setInt(args.comm.inNelems);
        else if (is(key, "Out msg nelems") || is(key, "Out msg size"))
            setInt(args.comm.outNelems);
        else if (is(key, "Group size"))
            args.comm.groupSize = toInt(readInt(v).value_or(0));
        else if (is(key, "dtype"))
            args.comm.dtype = readString(v);
        else if (is(key, "Process Group Name"))
            args.pgName = readString(v);
        else if (is(key, "Process Group Description"))
            args.pgDesc = readString(v);
        else if (is(key, "Seq"))
            setInt(args.comm.seq);
        else if (is(key, "Process Group Ranks"))
            args.pgRanks = readString(v);
        else if (is(key, "name"))
            args.name = readString(v);
        else
            operatorArg(key, v, args); // args before "cat": the event may be an operator
    }
}

void readOperatorArgs(od::value& object, Args& args)
{
    if (object.type().value() != od::json_type::object)
        return;
    for (auto member : object.get_object()) {
        od::field field = fieldOf(std::move(member));
        operatorArg(keyOf(field), field.value(), args);
    }
}

} // namespace ridgeline::collectors::kineto
