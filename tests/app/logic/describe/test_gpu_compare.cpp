// Claims about the app's CPU vs GPU comparison without a window: the largest
// difference and where it is, per stage and over a trace; stages the GPU lacks
// or shapes it gets wrong are reported, not compared; a GPU backend that throws
// (no OpenGL 4.3, a shader that does not compile) becomes a message with its
// log and the app goes back to the CPU; --backend and the tour's extra shot.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "base/error.h"
#include "logic/describe/gpu_compare.h"
#include "logic/state/options.h"
#include "logic/state/tour.h"

using namespace vit::gui;
using vit::Tensor;
using vit::Trace;

static Trace two_stage_trace() {
    Trace t;
    Tensor& a = t.add({vit::StageKind::Input}, {2, 3, 4});
    for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = 0.1f * static_cast<float>(i);
    Tensor& b = t.add({vit::StageKind::Attn, 0}, {2, 5, 5});
    for (size_t i = 0; i < b.data.size(); ++i) b.data[i] = 1.f / 5.f;
    return t;
}

TEST_CASE("identical traces differ by 0 everywhere and are within tolerance") {
    Trace cpu = two_stage_trace(), gpu = two_stage_trace();
    TraceDiff d = diff_traces(cpu, gpu);
    REQUIRE(d.stages.size() == 2);
    for (const StageDiff& s : d.stages) {
        REQUIRE(s.problem.empty());
        REQUIRE(s.gpu.max_abs == 0.0);
        REQUIRE(s.within());
    }
    REQUIRE(d.all_within());
}

TEST_CASE("the largest difference of a stage, where it is and both values, and the trace's worst stage") {
    Trace cpu = two_stage_trace(), gpu = two_stage_trace();
    Tensor& g = gpu.find("block0.attn")->tensor;
    g.data[1 * 25 + 3 * 5 + 2] += 3e-3f;  // head 1, row 3, column 2
    g.data[7] -= 1e-6f;                   // small, within tolerance
    gpu.find("input")->tensor.data[5] += 2e-6f;

    TraceDiff d = diff_traces(cpu, gpu);
    const StageDiff* a = d.find("block0.attn");
    REQUIRE(a);
    REQUIRE(a->gpu.max_abs == Approx(3e-3f).margin(1e-7));
    REQUIRE(a->gpu.flat == 1 * 25 + 3 * 5 + 2);
    REQUIRE(a->gpu.where == std::vector<int64_t>{1, 3, 2});
    REQUIRE(a->gpu.want == Approx(0.2f));  // the CPU's value
    REQUIRE(a->gpu.got == Approx(0.203f));
    REQUIRE_FALSE(a->within());

    const StageDiff* in = d.find("input");
    REQUIRE(in->gpu.where == std::vector<int64_t>{0, 1, 1});
    REQUIRE(in->within());  // 2e-6 ≤ 1e-5·max(1, 2.3) + 1e-4·0.5

    REQUIRE(d.worst() == a);
    REQUIRE_FALSE(d.all_within());
}

TEST_CASE("the panel's tolerance is the GPU tests' rule: 1e-5 scaled by the stage's largest magnitude + 1e-4·|cpu|") {
    Trace cpu, gpu;
    Tensor& c = cpu.add({vit::StageKind::Scores, 0}, {1, 2, 2});
    c.data = {20.f, -20.f, 0.f, 1.f};
    Tensor& g = gpu.add({vit::StageKind::Scores, 0}, {1, 2, 2});
    g.data = c.data;
    g.data[2] = 1.5e-4f;  // near zero beside scores of ±20: within 1e-5·20, outside a plain 1e-5
    TraceDiff d = diff_traces(cpu, gpu);
    REQUIRE(d.all_within());
    REQUIRE(d.stages[0].gpu.tolerance_used == Approx(1.5e-4 / 2e-4).epsilon(1e-3));
    g.data[2] = 2.5e-4f;
    REQUIRE_FALSE(diff_traces(cpu, gpu).all_within());
}

TEST_CASE("|gpu - cpu| of a stage has the stage's shape, and NaN on one side is infinitely far") {
    Trace cpu = two_stage_trace(), gpu = two_stage_trace();
    Tensor& g = gpu.find("input")->tensor;
    g.data[2] = 0.5f;  // cpu 0.2
    g.data[9] = std::numeric_limits<float>::quiet_NaN();
    Tensor diff = abs_difference(cpu.at("input"), g);
    REQUIRE(diff.shape == cpu.at("input").shape);
    REQUIRE(diff.data[2] == Approx(0.3f));
    REQUIRE(diff.data[0] == 0.f);
    REQUIRE(std::isfinite(diff.data[9]));  // clamped so the heatmap can draw it
    REQUIRE(diff.data[9] > 1e30f);

    StageDiff s = diff_stage(*cpu.find("input"), g);
    REQUIRE(std::isinf(s.gpu.max_abs));
    REQUIRE(s.gpu.flat == 9);
    REQUIRE_FALSE(s.within());
}

TEST_CASE("a stage missing on the GPU or with another shape is reported, and is the worst") {
    Trace cpu = two_stage_trace();
    Trace gpu;
    Tensor& in = gpu.add({vit::StageKind::Input}, {2, 3, 5});
    (void)in;
    TraceDiff d = diff_traces(cpu, gpu);
    REQUIRE(d.find("input")->problem.find("(2, 3, 4)") != std::string::npos);
    REQUIRE(d.find("block0.attn")->problem == "missing on the GPU");
    REQUIRE(d.worst() == d.find("input"));
    REQUIRE_FALSE(d.all_within());
    REQUIRE(abs_difference(cpu.at("input"), gpu.at("input")).data.empty());
}

TEST_CASE("a GPU backend that throws becomes a message with its log, and the app goes back to the CPU") {
    AppState s;
    s.backend = Backend::Gpu;
    GpuStatus st;
    bool ok = run_gpu_step(st, s.backend, [] {
        throw vit::Error("shader 'softmax' failed to compile:\n0:3(12): error: syntax error, unexpected '}'");
    });
    REQUIRE_FALSE(ok);
    REQUIRE(st.tried);
    REQUIRE(st.failed);
    REQUIRE_FALSE(st.usable());
    REQUIRE(s.backend == Backend::Cpu);
    REQUIRE(first_line(st.error) == "shader 'softmax' failed to compile:");
    REQUIRE(st.error.find("syntax error") != std::string::npos);

    // Chosen again: it does not retry a failed start, and stays on the CPU.
    s.backend = Backend::Gpu;
    int calls = 0;
    REQUIRE_FALSE(run_gpu_step(st, s.backend, [&] { ++calls; }));
    REQUIRE(calls == 0);
    REQUIRE(s.backend == Backend::Cpu);
}

TEST_CASE("no OpenGL 4.3 context is a failure like any other, a backend that works keeps the GPU") {
    AppState s;
    s.backend = Backend::Gpu;
    GpuStatus st;
    REQUIRE_FALSE(run_gpu_step(st, s.backend, [] { throw vit::Error("no OpenGL 4.3 context: got 3.3"); }));
    REQUIRE(st.error == "no OpenGL 4.3 context: got 3.3");
    REQUIRE(s.backend == Backend::Cpu);

    AppState s2;
    s2.backend = Backend::Gpu;
    GpuStatus st2;
    int calls = 0;
    REQUIRE(run_gpu_step(st2, s2.backend, [&] { ++calls; }));
    REQUIRE(calls == 1);
    REQUIRE(st2.usable());
    REQUIRE(s2.backend == Backend::Gpu);
}

TEST_CASE("the option --backend chooses cpu or gpu, and --gpu-fail-test is a flag") {
    REQUIRE_FALSE(parse_options({}).gpu);
    REQUIRE(parse_options({"--backend", "gpu"}).gpu);
    REQUIRE_FALSE(parse_options({"--backend", "cpu"}).gpu);
    REQUIRE_THROWS_AS(parse_options({"--backend", "cuda"}), vit::Error);
    REQUIRE_THROWS_AS(parse_options({"--backend"}), vit::Error);
    REQUIRE(parse_options({"--gpu-fail-test"}).gpu_fail_test);
}

TEST_CASE("the tour on the GPU ends with a shot of the CPU vs GPU panel on block 0's attention") {
    Pipeline p = make_pipeline(vit::stage_list(1, true), 5, 2);
    std::vector<TourShot> cpu = tour_plan(p), gpu = tour_plan(p, true);
    REQUIRE(gpu.size() == cpu.size() + 1);
    REQUIRE(gpu.back().stage == p.index_of("block0.attn"));
    REQUIRE(gpu.back().screen == Screen::Stage);
    REQUIRE(gpu.back().file == tour_file_name(static_cast<int>(cpu.size()), "gpu-difference"));
}
