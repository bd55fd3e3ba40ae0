// Claims about the shaders themselves: all of them compile (they are embedded in
// the binary), a broken one is a clear vit::Error carrying its name and the
// driver's log rather than a crash, and the GLSL erf behind GELU is accurate to
// 1e-7 relative (GLSL has no erf of its own).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "embedded_shaders.h"
#include "base/error.h"
#include "gpu_backend.h"
#include "gpu_buffers.h"
#include "gpu_ops.h"
#include "gpu_test_util.h"
#include "shader_program.h"

using namespace vit;
using vit::gpu_test::require_gl;

TEST_CASE("every shader in shaders/ is embedded and compiles", "[gpu][shaders]") {
    require_gl();
    const std::vector<std::string> names = gpu::embedded_shader_names();
    CHECK(names.size() >= 10);
    for (const std::string& name : names) {
        INFO(name);
        CHECK_NOTHROW(gpu::compile_embedded_shader(name));
    }
    CHECK_NOTHROW(GpuBackend());
    CHECK_THROWS_WITH(gpu::embedded_shader("missing"), Catch::Contains("no embedded shader 'missing'"));
}

TEST_CASE("a shader that does not compile gives a vit::Error with its name and the compile log", "[gpu][shaders]") {
    require_gl();
    const std::string broken =
        "#version 430\nlayout(local_size_x = 1) in;\nvoid main() {\n    float x = undefined_thing + 1.0;\n}\n";
    try {
        gpu::compile_compute_shader("broken_test", broken);
        FAIL("a broken shader compiled");
    } catch (const Error& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("shader 'broken_test' failed to compile") != std::string::npos);
        CHECK(msg.find("undefined_thing") != std::string::npos);  // the driver's log names the culprit
    }
}

TEST_CASE("a shader that does not link gives a vit::Error with its name and the link log", "[gpu][shaders]") {
    require_gl();
    // Compiles, but a compute program needs main() and a local size.
    CHECK_THROWS_WITH(gpu::compile_compute_shader("no_main", "#version 430\nfloat f(float x) { return x; }\n"),
                      Catch::Contains("shader 'no_main' failed to"));
}

TEST_CASE("the shaders' erf is within 1e-7 relative of erf in double precision", "[gpu][shaders]") {
    require_gl();
    std::vector<float> xs;
    for (double x = -6.0; x <= 6.0; x += 1.0 / 4096) xs.push_back(static_cast<float>(x));
    for (float x : {1e-30f, -1e-20f, 1e-8f, 3e-4f, 0.999999f, 1.0f, 1.000001f, 3.9f, 10.0f, -10.0f}) xs.push_back(x);
    const int n = static_cast<int>(xs.size());
    gpu::GpuBuffer in(xs.size(), xs.data()), out(xs.size());
    gpu::GpuOps ops;
    ops.gelu(in.id(), out.id(), n, /*output_erf=*/true);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::vector<float> got(xs.size());
    out.download(got.data(), got.size());
    double worst = 0;
    float worst_x = 0;
    for (int i = 0; i < n; ++i) {
        const double ref = std::erf(static_cast<double>(xs[i]));
        const double rel = std::fabs(got[i] - ref) / std::fabs(ref);
        if (rel > worst) worst = rel, worst_x = xs[i];
    }
    std::printf("erf: max relative error %.3g at x = %.9g over %d points\n", worst, worst_x, n);
    INFO("max relative error " << worst << " at x = " << worst_x);
    CHECK(worst < 1e-7);

    // GELU itself against double precision. Its argument x/√2 is rounded to float
    // (relative 6e-8), and erfc(y) turns that into a relative error of about
    // 2y²·6e-8 = x²·6e-8 for x ≪ 0 (the bound allows twice that), so it grows with x².
    ops.gelu(in.id(), out.id(), n);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    out.download(got.data(), got.size());
    double worst_gelu = 0;
    float worst_gelu_x = 0;
    for (int i = 0; i < n; ++i) {
        const double x = xs[i], ref = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
        if (ref == 0.0) continue;
        const double ratio = std::fabs(got[i] - ref) / std::fabs(ref) / (2e-7 + 2e-7 * x * x);
        if (ratio > worst_gelu) worst_gelu = ratio, worst_gelu_x = xs[i];
    }
    std::printf("gelu: worst relative error at %.2f of 2e-7 + 2e-7·x² (x = %g)\n", worst_gelu, worst_gelu_x);
    CHECK(worst_gelu <= 1.0);
}
