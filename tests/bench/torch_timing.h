// The benchmarks' other engines: runs PyTorch (one of tests/bench/*.py) or
// ONNX Runtime (tests/bench/ort_forward.js in node) and reads its one line
// `torch_ms|ort_ms median=… min=… threads=…` (threads: what it ran on; for
// PyTorch torch.get_num_threads(), which at its defaults may be fewer than the cores).
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

// Runs `command` and reads its timing line; median 0 if it failed.
inline TorchTiming read_timing(const std::string& command) {
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    TorchTiming t;
    std::array<char, 256> line{};
    while (pipe && std::fgets(line.data(), line.size(), pipe.get()))
        std::sscanf(line.data(), "%*s median=%lf min=%lf threads=%d", &t.median_ms, &t.min_ms, &t.threads);
    return t;
}

// `python` SCRIPT ARGS from tests/bench/; median 0 if it failed.
inline TorchTiming time_torch(const std::string& python, const std::string& script, const std::string& args) {
    return read_timing(python + " " VITVIZ_SOURCE_DIR "/tests/bench/" + script + " " + args);
}

}  // namespace vit_bench
