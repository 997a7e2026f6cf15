// SPDX-License-Identifier: MIT
// The uncompressed bytes of an imported text file (a Kineto trace, an Nsight Compute CSV), read piece
// by piece: a plain file, a gzip file inflated as it is read (one or more members, gzip(1)
// semantics), or bytes already in memory. No source ever holds the whole text, so a file of any size
// imports in bounded memory.
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace ridgeline::collectors {

class InputSource {
public:
    virtual ~InputSource() = default;
    // Copies up to `room` bytes of text to `out`; 0 at the end of the text.
    // Errors: BadFile for corrupt or truncated gzip data, Io when the file cannot be read.
    virtual core::Result<std::size_t> read(char* out, std::size_t room) = 0;
    // How much of the input has been consumed, 0..1 (compressed bytes for gzip).
    virtual double fractionRead() const = 0;
    // The text's size in bytes when it is known before reading (plain bytes of a known size), else -1.
    virtual std::int64_t textSize() const { return -1; }
    const std::string& name() const { return m_name; }

    // NotFound when the file cannot be opened.
    static core::Result<std::unique_ptr<InputSource>> openFile(const std::string& path);
    // `bytes` must outlive the source.
    static std::unique_ptr<InputSource> fromBytes(std::string_view name, std::string_view bytes);

protected:
    explicit InputSource(std::string name)
        : m_name(std::move(name))
    { }

private:
    std::string m_name;
};

// The same bytes, read ahead on a thread of its own (inputreadahead.cpp); for gzip files, whose
// inflating then runs beside the parsing.
std::unique_ptr<InputSource> readAhead(std::unique_ptr<InputSource> source);

} // namespace ridgeline::collectors
