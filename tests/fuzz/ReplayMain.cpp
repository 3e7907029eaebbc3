// A main() for the fuzz targets where libFuzzer is not linked (GCC, or JB_FUZZ off): runs
// LLVMFuzzerTestOneInput once on every file named, or in every folder named, so the corpus,
// crashes found earlier included, is a regression test of every build (and of the asan preset).
//   fuzz_x [-libFuzzer-style-flags ignored] FILE_OR_DIR...
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fs = std::filesystem;

namespace {

bool runFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", p.string().c_str());
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::printf("running %s (%zu bytes)\n", p.string().c_str(), bytes.size());
    std::fflush(stdout);  // so a crash names the input it died on
    // A copy of exactly `size` bytes on the heap, so ASan sees a read past the end.
    std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (!a.empty() && a[0] == '-')
            continue;  // libFuzzer's flags, such as -runs=0
        std::error_code ec;
        if (fs::is_directory(a, ec)) {
            for (const auto& e : fs::directory_iterator(a, ec))
                if (e.is_regular_file())
                    files.push_back(e.path());
        } else if (fs::is_regular_file(a, ec)) {
            files.push_back(a);
        } else {
            std::fprintf(stderr, "%s: no such file or folder\n", a.c_str());
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "no inputs: name the corpus folder (tests/fuzz/corpus/<target>/)\n");
        return 2;
    }
    for (const fs::path& f : files)
        if (!runFile(f))
            return 2;
    std::printf("%zu inputs ran\n", files.size());
    return 0;
}
