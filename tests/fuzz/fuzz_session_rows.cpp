// SPDX-License-Identifier: MIT
// libFuzzer target: sessions whose rows and values someone changed. The seed sessions (imported
// from real traces: tests/fuzz/seeds/session, and the real v1 file of tests/data/sessions) stay
// open for the whole run; each input picks one, edits its rows (rowedits.h: wrong types, NULLs,
// negative and huge numbers, NaN and infinities, dangling ids, 1 MB strings, deleted and copied
// rows), reads it one of the ways fuzz_session reads a session (sessionreads.h: check, a report, an
// export, a view of the app), and the edits are rolled back. No database is copied or opened per
// input. The input's first byte picks both the session (modulo their number) and the way (the rest
// of it, modulo the ways): a mutation of that byte reads the same edits another way.
#include "fuzzsupport.h"
#include "rowedits.h"
#include "sessionreads.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace {

using namespace ridgeline;

struct Base {
    core::SessionReader reader;
    std::unique_ptr<fuzz::RowEditor> editor;
};

std::vector<Base>& bases()
{
    static std::vector<Base> open = [] {
        std::vector<Base> out;
        // The v1 file is migrated once, when it opens. The v2 file (40 kernels, 840 metric values)
        // would make the average input three times slower, and the v3 one is ncu-raw again.
        for (const auto& image :
            fuzz::baseImages({ "tests/fuzz/seeds/session", "tests/data/sessions/v1-small.ridge" })) {
            auto reader = core::SessionReader::openEditableImage(image, "base.ridge");
            if (reader.hasError())
                fuzz::fail("a seed session does not open", reader.error().message);
            out.push_back(Base { std::move(reader).value(), nullptr });
            out.back().editor = std::make_unique<fuzz::RowEditor>(out.back().reader.database());
        }
        return out;
    }();
    return open;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fuzz::InputBytes input(bytes);
    auto& all = bases();
    const auto first = input.byte();
    Base& base = all[first % all.size()];
    base.editor->apply(input);
    base.reader.forgetCachedRows();
    fuzz::readSessionOneWay(base.reader, static_cast<unsigned>(first / all.size()) % fuzz::readWays());
    base.editor->rollBack();
    return 0;
}
