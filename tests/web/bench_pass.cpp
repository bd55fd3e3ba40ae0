// The core's side of the page benchmark (tests/web/bench_web.mjs), compiled to
// WebAssembly and run inside Chromium: the full-trace forward pass of ViT-Ti/16
// (random weights, seed 42, as vitviz-bench uses) on one 224×224 image, and of
// the built-in digits model on one of its sample digits, each timed as
// vit::time_forward times it (one thread: the page has one).
#include <emscripten.h>

#include <cstring>

#include "pass/timing.h"
#include "loading/load_model.h"
#include "loading/builtin.h"
#include "model/random_model.h"

namespace {

vit::Tensor seeded_input(int channels, int size) {
    vit::Tensor x({channels, size, size});
    for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = static_cast<float>((i * 7919) % 1000) / 500.f - 1.f;
    return x;
}

}  // namespace

// The median milliseconds of `runs` passes of "tiny" or "digits" (-1 for another name).
extern "C" EMSCRIPTEN_KEEPALIVE double bench_forward(const char* model, int runs) {
    static const vit::Model tiny = vit::make_random_model(vit::vit_tiny_config(), 42);
    static const vit::Model digits = vit::load_model(vit::kDigitsModel);
    if (std::strcmp(model, "tiny") == 0) return vit::time_forward(tiny, seeded_input(3, 224), runs).median_ms;
    if (std::strcmp(model, "digits") == 0) return vit::time_forward(digits, seeded_input(1, 28), runs).median_ms;
    return -1;
}
