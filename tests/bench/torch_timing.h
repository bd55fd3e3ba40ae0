// The benchmarks' PyTorch side: runs one of tests/bench/*.py and reads its
// `torch_ms median=… min=… threads=…` line (threads: torch.get_num_threads(),
// what PyTorch ran on, which at its defaults may be fewer than the cores).
#pragma once
#include <array>
#include <cstdio>
#include <memory>
#include <string>

namespace vit_bench {

struct TorchTiming {
    double median_ms = 0, min_ms = 0;
    int threads = 0;
};

// `python` SCRIPT ARGS from tests/bench/; median 0 if it failed.
inline TorchTiming time_torch(const std::string& python, const std::string& script, const std::string& args) {
    const std::string command = python + " " VITVIZ_SOURCE_DIR "/tests/bench/" + script + " " + args;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    TorchTiming t;
    std::array<char, 256> line{};
    while (pipe && std::fgets(line.data(), line.size(), pipe.get()))
        std::sscanf(line.data(), "torch_ms median=%lf min=%lf threads=%d", &t.median_ms, &t.min_ms, &t.threads);
    return t;
}

}  // namespace vit_bench
