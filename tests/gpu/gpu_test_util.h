// Shared helpers of the GPU tests: one hidden OpenGL 4.3 context for the whole
// run (under xvfb-run, Mesa's llvmpipe), and the stage-by-stage comparison of a
// GPU Trace with the CPU core's (core/explain/compare.h).
#pragma once
#include <cstdint>
#include <string>

#include "explain/compare.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit::gpu_test {

// A random-weight test ViT's sizes (for vit::make_random_model).
ModelConfig small_config(int channels, int patch, int pos_grid, int dim, int heads, int depth, int mlp, int classes);

// A C×size×size input of N(0, 1) values from a seeded generator.
Tensor random_input(int channels, int size, uint32_t seed);

// Creates the context on first use; a test that needs GL calls this first.
void require_gl();

// Every CPU stage is in the GPU trace with the same id, block and shape, in the
// same order, and equal within the core's gpu_tolerance() of the stage (its
// comment says why a whole pass needs the absolute part scaled); prints each
// stage's max difference and how much of that tolerance, and of the strict
// kGpuShaderTolerance each shader meets on its own, it uses; `temperature`:
// the passes' softmax temperature τ (gpu_tolerance scales with 1/τ below 1).
void check_same_trace(const Trace& cpu, const Trace& gpu, const std::string& label, float temperature = 1.0f);

}  // namespace vit::gpu_test
