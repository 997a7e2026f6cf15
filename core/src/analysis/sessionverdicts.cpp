// SPDX-License-Identifier: MIT
#include "ridgeline/core/analysis/sessionverdicts.h"

#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/store/sessionreader.h"

#include <vector>

namespace ridgeline::core {

namespace {

// Every kernel's verdict, from the file as it is now (the reader is closed on return).
Result<std::vector<Verdict>> analyseAmendedFile(const std::string& path)
{
    auto reader = SessionReader::open(path);
    if (reader.hasError())
        return reader.error();
    std::vector<Verdict> verdicts;
    RIDGELINE_TRY(analyzeSession(reader.value(),
        [&](const Kernel&, const KernelAnalysis& analysis) { verdicts.push_back(toVerdict(analysis)); }));
    return verdicts;
}

} // namespace

Result<AmendmentResult> amendSessionAndVerdicts(const std::string& path, const SessionAmendment& amendment)
{
    auto amended = amendSession(path, amendment);
    if (amended.hasError())
        return amended.error();
    AmendmentResult result = amended.value();
    auto verdicts = analyseAmendedFile(path);
    if (verdicts.hasError())
        return amendingFailed(path, verdicts.error());
    RIDGELINE_TRY(replaceSessionVerdicts(path, verdicts.value()));
    result.verdicts = static_cast<std::int64_t>(verdicts.value().size());
    return result;
}

} // namespace ridgeline::core
