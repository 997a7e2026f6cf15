// SPDX-License-Identifier: MIT
// libFuzzer target: Nsight Systems exports whose rows and values someone changed. The trimmed real
// exports (tests/fuzz/seeds/nsys: six rows a table) stay open for the whole run; each input picks
// one, edits its rows (rowedits.h: wrong types, NULLs, negative and huge numbers, NaN and
// infinities, dangling ids, end before start, 1 MB strings, deleted and copied rows), imports it as
// fuzz_nsys does (schema discovery, reading, writing an in-memory session, read back for one input
// in eight), and the edits are rolled back. No export is copied or opened per input.
#include "fuzzsupport.h"
#include "nsys/nsysinternal.h"
#include "ridgeline/core/store/sqlite.h"
#include "rowedits.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace {

using namespace ridgeline;

struct Base {
    std::unique_ptr<core::sqlite::Database> db; // where the editor points: it must not move
    std::unique_ptr<fuzz::RowEditor> editor;
};

std::vector<Base>& bases()
{
    static std::vector<Base> open = [] {
        std::vector<Base> out;
        for (const auto& image : fuzz::baseImages({ "tests/fuzz/seeds/nsys" })) {
            auto db = core::sqlite::Database::openImage(image, core::sqlite::Database::Mode::ReadWrite);
            if (db.hasError())
                fuzz::fail("a seed export does not open", db.error().message);
            out.push_back(Base { std::make_unique<core::sqlite::Database>(std::move(db).value()), nullptr });
            out.back().editor = std::make_unique<fuzz::RowEditor>(*out.back().db);
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
    Base& base = all[input.byte() % all.size()];
    base.editor->apply(input);
    auto activity = collectors::nsys::readExport(*base.db);
    if (activity.ok()) {
        auto& writer = fuzz::memoryWriter();
        if (collectors::nsys::writeActivity(writer, activity.value(), "fuzz.sqlite").ok())
            fuzz::finishSession(writer, bytes);
    }
    base.editor->rollBack();
    return 0;
}
