// The benchmarks' PyTorch side: runs one of tests/bench/*.py and reads its
// `torch_ms median=… min=…` line.
#pragma once
#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include "timing.h"

namespace vit_bench {

// `python` SCRIPT ARGS from tests/bench/; median 0 if it failed.
inline vit::TimingStats time_torch(const std::string& python, const std::string& script, const std::string& args) {
    const std::string command = python + " " VITVIZ_SOURCE_DIR "/tests/bench/" + script + " " + args;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    vit::TimingStats t;
    std::array<char, 256> line{};
    while (pipe && std::fgets(line.data(), line.size(), pipe.get()))
        std::sscanf(line.data(), "torch_ms median=%lf min=%lf", &t.median_ms, &t.min_ms);
    return t;
}

}  // namespace vit_bench
