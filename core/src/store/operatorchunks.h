// SPDX-License-Identifier: MIT
// How operators are stored (schema v2): in chunks of up to kOperatorChunkRows operators, one
// `operator_chunks` row each, because a PyTorch trace holds more operators than anything else
// and one SQLite row per operator cost the import a third of its time. A chunk's `data` is, per
// operator, its 15 columns (OperatorValues order; 14 before schema v6) as zigzag LEB128 varints, each the difference
// from the same column of the operator before it in the chunk (the first from 0).
#pragma once

#include "ridgeline/core/store/sessionwriter.h"

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace ridgeline::core::detail {

inline constexpr std::size_t kOperatorChunkRows = SessionWriter::kOperatorChunkRows;
inline constexpr std::size_t kOperatorColumns = 15;
// Before schema v6 (which added concrete_inputs_id) a chunk held 14 columns a row.
inline constexpr std::size_t kOperatorColumnsV2 = 14;
// id, process_id, thread_id, parent_id, domain_id, name_id, start_ns, end_ns, external_id,
// sequence_number, input_dims_id, input_types_id, module_id, call_stack_id, concrete_inputs_id
using OperatorValues = std::array<std::int64_t, kOperatorColumns>;

OperatorValues valuesOf(const SessionWriter::OperatorRow& row);
SessionWriter::OperatorRow rowOf(const OperatorValues& values);

void encodeOperatorChunk(std::span<const SessionWriter::OperatorRow> rows, std::string& out);
// Calls `visit` for each of the `count` operators of a chunk; false when the data is malformed
// (truncated, a varint too long, bytes left over): a corrupt or hostile file. `columns`: of each
// row as stored (kOperatorColumnsV2 in a file before v6, whose last column is then 0).
bool decodeOperatorChunk(std::string_view data, std::int64_t count,
    const std::function<void(const OperatorValues&)>& visit, std::size_t columns = kOperatorColumns);

} // namespace ridgeline::core::detail
