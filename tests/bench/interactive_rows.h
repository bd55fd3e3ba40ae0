// vitviz-bench's interactive rows: ViT-B's occlusion map (core/explain/occlusion.h,
// the weights packed once and the patches taken a team's worth a piece, as the
// app's occlusion job runs it) beside 196 of the core's passes in the same run,
// and the app's `vitviz --measure-pass` (the Ask panel's rerun to its answer on
// screen, under xvfb-run) beside the core's pass that the same app process times.
#pragma once
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "pass/timing.h"
#include "explain/occlusion.h"
#include "model/packed_weights.h"
#include "model/random_model.h"
#include "pass/forward.h"
#include "tensor/threads.h"

namespace vit_bench {

#ifdef VITVIZ_APP_PATH
inline constexpr const char* kAppPath = VITVIZ_APP_PATH;  // tests/CMakeLists.txt: the built vitviz
#else
inline constexpr const char* kAppPath = "";
#endif

// The map timed once (a first piece warms each thread's buffers), the pass
// timed before and after it (their mean: the machine may change meanwhile).
inline void print_occlusion_row(const vit::Tensor& input, int runs) {
    const vit::Model model = vit::make_random_model(vit::vit_base_config(), 42);
    vit::set_threads(0);
    const vit::PackedWeights packed(model);
    const double before_ms = vit::time_forward(model, input, runs).median_ms;
    vit::OcclusionMapper mapper;
    mapper.start(model, input, {}, &packed);
    mapper.next(vit::machine_threads());
    const vit::Stopwatch clock;
    mapper.start(model, input, {}, &packed);
    while (mapper.next(vit::machine_threads())) {}
    const double map_ms = clock.ms();
    const double pass_ms = 0.5 * (before_ms + vit::time_forward(model, input, runs).median_ms);
    const size_t patches = mapper.map().probabilities.size();
    std::printf(
        "\nViT-B occlusion map, %d threads: %zu masked passes + 1 in %.0f ms; %zu x the pass (%.2f ms) = %.0f ms;"
        " map/passes %.2f (goal <= 1.1)\n",
        vit::machine_threads(), patches, map_ms, patches, pass_ms, patches * pass_ms, map_ms / (patches * pass_ms));
    std::fflush(stdout);
}

// `vitviz --model vit-b-random --measure-pass N` under xvfb-run: its pass_ms
// and core_ms lines, or "not measured" without the app or xvfb-run.
inline void print_app_row(int reruns) {
    if (!*kAppPath || std::system("command -v xvfb-run >/dev/null 2>&1") != 0) {
        std::printf("app --measure-pass: not measured (needs the vitviz target and xvfb-run)\n");
        return;
    }
    const std::string command = std::string("xvfb-run -a -s '-screen 0 1600x1000x24' ") + kAppPath +
                                " --model vit-b-random --image " VITVIZ_SOURCE_DIR
                                "/assets/photos/chelsea.jpg"
                                " --measure-pass " +
                                std::to_string(reruns) + " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    double app_ms = 0, core_ms = 0;
    std::array<char, 512> line{};
    while (pipe && std::fgets(line.data(), line.size(), pipe.get())) {
        std::sscanf(line.data(), "pass_ms median=%lf", &app_ms);
        std::sscanf(line.data(), "core_ms median=%lf", &core_ms);
    }
    if (!(app_ms > 0 && core_ms > 0)) {
        std::printf("app --measure-pass: not measured (vitviz printed no pass_ms and core_ms)\n");
        return;
    }
    std::printf(
        "ViT-B app pass (vitviz --measure-pass %d, click to its answer on screen) %.1f ms; the CLI's pass in the same"
        " process %.1f ms; app/CLI %.2f (goal <= 1.2)\n",
        reruns, app_ms, core_ms, app_ms / core_ms);
    std::fflush(stdout);
}

}  // namespace vit_bench
