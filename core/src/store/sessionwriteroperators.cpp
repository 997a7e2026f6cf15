// SPDX-License-Identifier: MIT
// SessionWriter's operators (schema v2; see sessionwriterimpl.h).
#include "operatorchunks.h"
#include "sessionwriterimpl.h"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace ridgeline::core {

Result<std::int64_t> SessionWriter::internString(std::string_view value)
{
    if (value.empty())
        return std::int64_t { 0 };
    return m_impl->internString(value);
}

Status SessionWriter::addOperators(std::span<const Operator> ops)
{
    std::vector<OperatorRow> rows;
    rows.reserve(ops.size());
    for (const auto& op : ops) {
        OperatorRow row { op.id, op.processId, op.threadId, op.parentId, 0, 0, op.startNs, op.endNs, op.externalId,
            op.sequenceNumber, 0, 0, 0, 0, 0 };
        const std::pair<std::int64_t*, const std::string*> strings[]
            = { { &row.domainId, &op.domain }, { &row.nameId, &op.name }, { &row.inputDimsId, &op.inputDims },
                  { &row.inputTypesId, &op.inputTypes }, { &row.moduleId, &op.module },
                  { &row.callStackId, &op.callStack }, { &row.concreteInputsId, &op.concreteInputs } };
        for (const auto& [id, text] : strings) {
            auto interned = internString(*text);
            if (interned.hasError())
                return writeError(interned.error(), "operators");
            *id = interned.value();
        }
        rows.push_back(row);
    }
    return addOperatorRows(rows);
}

Status SessionWriter::addOperatorRows(std::span<const OperatorRow> rows)
{
    // One transaction for all the chunks (one each would commit thousands of times).
    return m_impl->inTransaction("operators", [&]() -> Status {
        OperatorChunk chunk;
        for (std::size_t first = 0; first < rows.size(); first += detail::kOperatorChunkRows) {
            RIDGELINE_TRY(
                packOperators(rows.subspan(first, std::min(detail::kOperatorChunkRows, rows.size() - first)), chunk));
            RIDGELINE_TRY(m_impl->insertOperatorChunk(chunk));
        }
        return {};
    });
}

Status SessionWriter::packOperators(std::span<const OperatorRow> rows, OperatorChunk& chunk)
{
    if (rows.size() > detail::kOperatorChunkRows)
        return makeError(ErrorCode::InvalidArgument,
            fmt::format("{} operators in one chunk (at most {})", rows.size(), detail::kOperatorChunkRows));
    chunk.count = static_cast<std::int64_t>(rows.size());
    chunk.longest = 0;
    for (const auto& row : rows)
        chunk.longest = std::max(chunk.longest, saturatingSub(row.endNs, row.startNs)); // hostile times saturate
    detail::encodeOperatorChunk(rows, chunk.data);
    return {};
}

Status SessionWriter::addOperatorChunk(const OperatorChunk& chunk)
{
    return m_impl->inTransaction("operators", [&]() -> Status { return m_impl->insertOperatorChunk(chunk); });
}

Status SessionWriter::Impl::insertOperatorChunk(const OperatorChunk& chunk)
{
    if (chunk.count <= 0)
        return {};
    auto& longest = maxDurations["operators"];
    longest = std::max(longest, chunk.longest);
    auto cached = statement("INSERT INTO operator_chunks(count, data) VALUES(?1, ?2)");
    if (cached.hasError())
        return cached.error();
    Statement& s = *cached.value();
    s.bind(1, chunk.count);
    s.bindBlob(2, chunk.data);
    return s.run();
}

} // namespace ridgeline::core
