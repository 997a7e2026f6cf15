// SPDX-License-Identifier: MIT
#include "ridgeline/core/model/ncclkernel.h"

#include <array>
#include <cctype>
#include <vector>

namespace ridgeline::core {

namespace {

// "_Z38ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgs..." -> the 38 characters of the
// function's own name: the Itanium mangling of a free function is "_Z" + length + name + parameters.
std::string_view unmangledName(std::string_view symbol)
{
    if (!symbol.starts_with("_Z"))
        return symbol;
    std::size_t pos = 2;
    std::size_t length = 0;
    while (pos < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[pos])) != 0 && length < 100000) {
        length = length * 10 + static_cast<std::size_t>(symbol[pos] - '0');
        ++pos;
    }
    if (pos == 2 || pos + length > symbol.size())
        return {};
    return symbol.substr(pos, length);
}

std::vector<std::string_view> tokens(std::string_view name)
{
    std::vector<std::string_view> parts;
    std::size_t pos = 0;
    while (pos <= name.size()) {
        std::size_t next = name.find('_', pos);
        if (next == std::string_view::npos)
            next = name.size();
        if (next > pos)
            parts.push_back(name.substr(pos, next - pos));
        pos = next + 1;
    }
    return parts;
}

bool isPlainIdentifierChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

} // namespace

std::optional<NcclKernelInfo> ncclKernelInfo(std::string_view symbol)
{
    const std::string_view name = unmangledName(symbol);
    std::string_view rest;
    for (const std::string_view prefix : { std::string_view("ncclDevKernel_"), std::string_view("ncclKernel_") }) {
        if (name.starts_with(prefix)) {
            rest = name.substr(prefix.size());
            break;
        }
    }
    if (rest.empty())
        return std::nullopt;
    std::size_t end = 0;
    while (end < rest.size() && isPlainIdentifierChar(rest[end]))
        ++end;
    const std::string_view identifier = rest.substr(0, end);
    const auto parts = tokens(identifier);
    if (parts.empty())
        return std::nullopt;

    NcclKernelInfo info;
    if (parts[0] != "Generic")
        info.collective = std::string(parts[0]);
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kAlgorithms { {
        { "RING", "Ring" },
        { "TREE", "Tree" },
        { "COLLNET", "CollNet" },
        { "NVLS", "NVLS" },
        { "PAT", "PAT" },
    } };
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kProtocols { {
        { "LL", "LL" },
        { "LL128", "LL128" },
        { "SIMPLE", "Simple" },
    } };
    // Old NCCL spells C types ("int8_t", "__nv_bfloat16"), which the '_' split cuts in two.
    static constexpr std::array<std::string_view, 21> kTypes { "i8", "u8", "i32", "u32", "i64", "u64", "f16", "f32",
        "f64", "bf16", "f8e4m3", "f8e5m2", "int8_t", "uint8_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "half",
        "float", "double" };
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string_view part = parts[i];
        for (const auto& [token, label] : kAlgorithms) {
            if (part == token && info.algorithm.empty())
                info.algorithm = std::string(label);
        }
        for (const auto& [token, label] : kProtocols) {
            if (part == token && info.protocol.empty())
                info.protocol = std::string(label);
        }
        const std::string joined
            = i + 1 < parts.size() && parts[i + 1] == "t" ? std::string(part) + "_t" : std::string(part);
        for (const auto type : kTypes) {
            if ((joined == type || part == type) && info.dataType.empty())
                info.dataType = std::string(type);
        }
        if (part == "bfloat16" && info.dataType.empty())
            info.dataType = "bf16";
    }
    return info;
}

} // namespace ridgeline::core
