// SPDX-License-Identifier: MIT
// The uncompressed text of a .json.gz test file, read with plain zlib (independently of the
// importer's own gzip reader). For the tests that link ZLIB.
#pragma once

#include <string>
#include <zlib.h>

namespace ridgeline::testing {

inline std::string gunzipFile(const std::string& path)
{
    gzFile file = gzopen(path.c_str(), "rb");
    std::string text;
    char buffer[1 << 16];
    int n = 0;
    while ((n = gzread(file, buffer, sizeof buffer)) > 0)
        text.append(buffer, static_cast<std::size_t>(n));
    gzclose(file);
    return text;
}

} // namespace ridgeline::testing
