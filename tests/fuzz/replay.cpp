// SPDX-License-Identifier: MIT
// Runs a fuzz target's entry point (LLVMFuzzerTestOneInput) on files, without libFuzzer: what
// ctest does with the committed crash inputs and seeds (tests/fuzz/CMakeLists.txt), so that every
// crash found stays fixed, in every build and under every compiler.
//
//   fuzz_replay_<name> PATH...               each file, and each file in each directory
//   fuzz_replay_<name> --mutate N PATH...    also N structure-aware mutants of each (SQLite targets)
//
// Exits 1 when a path is missing or no input was found (a test that replays nothing proves
// nothing); a crash, a sanitizer report or a leak ends the program as it would end the fuzzer.
#include "fuzzsupport.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
// Only the SQLite targets have one (sqlitemutator.cpp).
extern "C" __attribute__((weak)) std::size_t LLVMFuzzerCustomMutator(
    std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned int seed);

// libFuzzer's byte-level mutator, which the structure-aware one falls back to: here it changes
// nothing, so that every mutant counted below is a structural one.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t*, std::size_t size, std::size_t)
{
    return size;
}

namespace {

namespace fs = std::filesystem;

bool readFile(const fs::path& path, std::string& bytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream text;
    text << in.rdbuf();
    bytes = std::move(text).str();
    return true;
}

void run(const std::string& bytes)
{
    // A copy of its own, as libFuzzer gives: reading past the input is then an ASan report.
    std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(copy.data(), copy.size());
}

// Mutants of one seed: each must still be an SQLite database, and most must differ from the seed.
bool mutate(const std::string& seed, int count, const fs::path& path)
{
    // Room for the mutator's 1 MB strings (sqlitemutatorvalues.cpp, bigString).
    const std::size_t maxSize = seed.size() * 2 + (std::size_t { 8 } << 20);
    int changed = 0;
    for (int i = 0; i < count; ++i) {
        std::vector<std::uint8_t> buffer(maxSize);
        std::copy(seed.begin(), seed.end(), buffer.begin());
        const auto size = LLVMFuzzerCustomMutator(buffer.data(), seed.size(), maxSize, static_cast<unsigned>(i));
        if (size == 0 || size > maxSize) {
            std::cerr << path << ": mutant " << i << " has an impossible size (" << size << ")\n";
            return false;
        }
        if (size < 16 || std::memcmp(buffer.data(), "SQLite format 3", 16) != 0) {
            std::cerr << path << ": mutant " << i << " is no longer an SQLite database\n";
            return false;
        }
        if (size != seed.size() || std::memcmp(seed.data(), buffer.data(), size) != 0)
            ++changed;
        buffer.resize(size);
        LLVMFuzzerTestOneInput(buffer.data(), buffer.size());
    }
    // Byte-level mutation (1 in 8) is a no-op here, and a few structural ones find nothing to change.
    if (changed * 10 < count * 6) {
        std::cerr << path << ": only " << changed << " of " << count << " mutants differ from the seed\n";
        return false;
    }
    std::cout << path.filename().string() << ": " << changed << " of " << count << " mutants changed\n";
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    ridgeline::fuzz::replaying = true;
    std::vector<std::string> args(argv + 1, argv + argc);
    int mutants = 0;
    if (args.size() >= 2 && args[0] == "--mutate") {
        mutants = std::atoi(args[1].c_str());
        args.erase(args.begin(), args.begin() + 2);
        if (mutants <= 0 || LLVMFuzzerCustomMutator == nullptr) {
            std::cerr << "--mutate needs a positive count and a target with a custom mutator\n";
            return 1;
        }
    }
    if (args.empty()) {
        std::cerr << "usage: " << argv[0] << " [--mutate N] FILE|DIRECTORY...\n";
        return 1;
    }
    std::vector<fs::path> inputs;
    for (const auto& arg : args) {
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            for (const auto& entry : fs::directory_iterator(arg, ec)) {
                if (entry.is_regular_file() && entry.path().filename().string().front() != '.')
                    inputs.push_back(entry.path());
            }
        } else if (fs::is_regular_file(arg, ec)) {
            inputs.emplace_back(arg);
        } else {
            std::cerr << arg << ": no such file or directory\n";
            return 1;
        }
    }
    std::sort(inputs.begin(), inputs.end());
    if (inputs.empty()) {
        std::cerr << "no inputs to replay\n";
        return 1;
    }
    for (const auto& path : inputs) {
        std::string bytes;
        if (!readFile(path, bytes)) {
            std::cerr << path << ": cannot be read\n";
            return 1;
        }
        run(bytes);
        if (mutants > 0 && !mutate(bytes, mutants, path))
            return 1;
    }
    std::cout << "replayed " << inputs.size() << " inputs" << (mutants > 0 ? " and their mutants" : "")
              << ", no crash\n";
    return 0;
}
