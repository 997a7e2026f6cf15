// SPDX-License-Identifier: MIT
#include "ridgeline/core/output/sessionoperators.h"

#include "ridgeline/core/analysis/operatorlinks.h"
#include "ridgeline/core/store/sessionreader.h"

#include <set>

namespace ridgeline::core {

namespace {

std::size_t groupBytes(const OperatorGroups& groups)
{
    std::size_t bytes = groups.groups.capacity() * sizeof(OperatorGroup);
    for (const auto& g : groups.groups)
        bytes += g.row.name.capacity() + g.children.capacity() * sizeof(OperatorGroupChild);
    return bytes;
}

} // namespace

std::size_t SessionOperators::memoryBytes() const
{
    return sizeof(SessionOperators) + lookup.memoryBytes() + groupBytes(byOperator) + groupBytes(byModule);
}

Result<std::optional<SessionOperators>> loadSessionOperators(SessionReader& reader)
{
    auto counts = reader.counts();
    if (counts.hasError())
        return counts.error();
    if (counts.value().operators == 0)
        return std::optional<SessionOperators> {};
    auto linked = linkOperators(reader);
    if (linked.hasError())
        return linked.error();
    const OperatorLinks& links = linked.value();

    SessionOperators out;
    OperatorAttribution byOp, byModule;
    auto opReport = buildOperatorReport(reader, links, ReportGrouping::Op, &byOp);
    if (opReport.hasError())
        return opReport.error();
    auto moduleReport = buildOperatorReport(reader, links, ReportGrouping::Module, &byModule);
    if (moduleReport.hasError())
        return moduleReport.error();
    out.byOperator = groupGpuOps(opReport.value(), links, byOp);
    out.byModule = groupGpuOps(moduleReport.value(), links, byModule);
    auto shapes = sessionOperatorShapes(reader, &links); // worked out with the links, kept
    if (shapes.hasError())
        return shapes.error();
    out.shapePoints = shapeSummaries(*shapes.value());
    out.byExternalId = opReport.value().byExternalId;
    out.externalIdDisagrees = opReport.value().externalIdDisagrees;

    // Module paths: the by-module report's rows, "(no module)" left out.
    std::vector<std::string> modules;
    std::vector<std::uint32_t> moduleOfRow;
    for (const auto& row : moduleReport.value().rows) {
        moduleOfRow.push_back(row.name == "(no module)" ? OperatorLookup::kNone : static_cast<std::uint32_t>(modules.size()));
        if (row.name != "(no module)")
            modules.push_back(row.name);
    }
    std::vector<std::uint32_t> moduleOf(links.operators.size(), OperatorLookup::kNone);
    for (std::size_t i = 0; i < moduleOf.size() && i < byModule.rowOfOperator.size(); ++i)
        moduleOf[i] = moduleOfRow[byModule.rowOfOperator[i]];
    std::set<std::int64_t> nameIds;
    for (const auto& op : links.operators)
        nameIds.insert(op.nameId);
    auto names = reader.strings({ nameIds.begin(), nameIds.end() });
    if (names.hasError())
        return names.error();
    out.lookup = OperatorLookup::build(links, names.value(), moduleOf, std::move(modules));
    return std::optional<SessionOperators>(std::move(out));
}

} // namespace ridgeline::core
