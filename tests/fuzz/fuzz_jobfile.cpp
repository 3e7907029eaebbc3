// Fuzz target: the job file (jb::parseJobFileText), written by hand by users and read before
// any job runs. Pure: it makes paths absolute from base_dir without touching the disk.
#include <jb/jobs/JobFile.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto jobs = jb::parseJobFileText(text, "/fuzz/jobs", "fuzz.json");
    if (!jobs && jobs.error().empty()) {
        std::fprintf(stderr, "parseJobFileText failed without a message\n");
        std::abort();
    }
    if (jobs) {
        for (const jb::JobSpec& j : jobs->jobs) {
            (void)j.toJson();
            (void)jb::fillPlaceholders(j.cwd, "/fuzz/run", j.name, j.gpu.value_or(0));
            (void)jb::gpuText(j.gpu);
        }
    }
    return 0;
}
