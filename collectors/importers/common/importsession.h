// SPDX-License-Identifier: MIT
// What every importer writes the same way: the output checks, the session with its source and
// origin, devices with their datasheet ceilings, the verdict of each launch from what the file
// knows, and the warnings and publication at the end. Importers differ in what they read; this is
// the one copy of what they write (docs/ARCHITECTURE.md, "Adding an importer").
#pragma once

#include "ridgeline/collectors/importers/importwarning.h"
#include "ridgeline/core/analysis/roofline.h"
#include "ridgeline/core/base/result.h"
#include "ridgeline/core/model/model.h"
#include "ridgeline/core/store/sessionwriter.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ridgeline::collectors::importing {

using CeilingsByDevice = std::map<std::int64_t, std::vector<core::Ceiling>>;

// InvalidArgument when the session would replace one of the inputs, or exists and `overwrite` is false.
core::Status checkOutput(const std::vector<std::string>& inputs, const std::string& sessionPath, bool overwrite);

// A new session at `sessionPath` (replacing an existing one only when `overwrite`), its batch
// begun, with meta `source` ("import:<format>") and `origin` (the input's name, for people).
core::Result<core::SessionWriter> beginSession(
    const std::string& sessionPath, bool overwrite, std::string_view source, std::string_view origin);

// The same on a writer made elsewhere (an in-memory session for the fuzzers): the batch begun,
// with meta `source` and `origin`.
core::Status beginImport(core::SessionWriter& writer, std::string_view source, std::string_view origin);

// The datasheet ceilings of a device the catalogue knows (collectors/ceilings/gpucatalogue.h,
// resolveGpu): by its name, loosely, or, for a device its file leaves unnamed ("" or "unknown GPU"),
// by what the file says of it (gpuidentify.h: CC and SM count, narrowed by clock, DRAM bandwidth
// and memory size) when that leaves one entry, or several with the same ceilings. `note` is empty
// when the name is an entry's, else the sentence saying which entry was taken and why (the importer
// warns with it). nullopt when nothing fits (the importer warns in its own words, naming the device as its
// file does). The one clock rule of every importer: a device keeps the core clock its file
// reports, and one that reports none gets the catalogue's boost clock, in kHz rounded to the nearest.
struct CatalogueMatch {
    std::vector<core::Ceiling> ceilings;
    std::string note;
};
std::optional<CatalogueMatch> catalogueCeilings(core::Device& device);

// For an unnamed device that catalogueCeilings() could not identify: why, naming the catalogue
// entries that fit what the file says and pointing to --gpu; empty when the file says too little.
std::string unnamedGpuNote(const core::Device& device);

// Whether the file left the device unnamed: no name, or the "unknown GPU" importers give it.
bool isUnnamedGpu(const core::Device& device);

// Hz, as files give clocks, to the kHz of core::Device, rounded to the nearest; 0 for nothing
// sensible (negative, not finite, out of range).
std::int64_t kilohertz(double hz);

// Adds the device, then its ceilings from `ceilings` (by device id) where there are any.
core::Status writeDevice(core::SessionWriter& writer, const core::Device& device, const CeilingsByDevice& ceilings);

// What the analysis knows of an imported launch: the kernel's id, duration and launch
// configuration, its device (null when unknown) and that device's ceilings, and its name.
core::KernelFacts launchFacts(
    const core::Kernel& kernel, const core::Device* device, const CeilingsByDevice& ceilings, std::string name = {});

// One NCCL launch's collective figures (S, the duration, the link) for its import-time verdict;
// nullopt without a size or a known bus bandwidth factor. Waits across ranks are worked out when
// the session is analysed.
std::optional<core::CollectiveFigures> collectiveFigures(
    const core::CommOp& op, const core::Device* device, const CeilingsByDevice& ceilings);

// The parts, separated by `separator`.
std::string joined(const std::vector<std::string>& parts, std::string_view separator);

// Meta `warning` (the warnings joined by "; ") when there are any, then the batch committed and the
// session published complete.
core::Status finishSession(core::SessionWriter& writer, const ImportWarnings& warnings);

// finishSession without the publication: meta `warning` and the batch committed (in-memory sessions).
core::Status endImport(core::SessionWriter& writer, const ImportWarnings& warnings);

} // namespace ridgeline::collectors::importing
