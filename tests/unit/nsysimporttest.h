// SPDX-License-Identifier: MIT
// The fixture of the Nsight Systems import tests: a temporary folder, the session imported into
// it, and writable copies of tests/data/nsys files for crafting variants.
#pragma once

#include "nsysncclfixture.h"
#include "ridgeline/collectors/importers/nsysimporter.h"
#include "ridgeline/core/store/sessionreader.h"
#include "tempdir.h"
#include "testutil.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace ridgeline::testing {

class NsysImportTest : public ::testing::Test {
protected:
    // Imports and opens the session; fails the test when either goes wrong.
    core::SessionReader import(const std::string& exportPath)
    {
        return importNsysExport(exportPath, m_session, m_summary);
    }
    // A writable copy of a data file, for crafting variants.
    std::string copyOf(const std::string& name)
    {
        const auto path = m_dir.file("copy-" + name);
        std::filesystem::copy_file(testDataPath("nsys/" + name), path);
        std::filesystem::permissions(path, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
        return path;
    }

    TempDir m_dir;
    std::string m_session = m_dir.file("imported.ridge");
    collectors::NsysImportSummary m_summary;
};

} // namespace ridgeline::testing
