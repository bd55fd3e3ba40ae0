// The GPU backend: the same forward pass as the CPU core (core/pass/forward.h), run
// by the OpenGL 4.3 compute shaders of gpu/shaders/, filling the same Trace stages
// (ids, order, shapes and blocks of docs/DESIGN.md#stage-catalogue).
//
// Usage (with an OpenGL ≥ 4.3 context current: the app's window, or a
// ComputeGlContext from gl_context.h for the CLI and tests):
//
//     vit::ComputeGlContext gl;                 // CLI / tests only
//     vit::GpuBackend gpu;                     // compiles the shaders (vit::Error with the log)
//     gpu.set_model(model);                    // uploads the weights once
//     vit::Trace all = gpu.forward(input);     // every stage, like vit::forward
//     vit::Trace asked = gpu.forward(input, vit::GpuBackend::Readback::All, interventions);
//     vit::Trace few = gpu.forward(input, vit::GpuBackend::Readback::Predictions);
//     vit::Tensor q = gpu.read_stage({vit::StageKind::Q, 3});  // any stage of the last pass, on demand
//     double ms = gpu.last_gpu_ms();           // GPU time of the last pass (timer query)
//
// Every stage of the last pass stays on the GPU until the next one, so a view
// can run with Readback::Predictions and read the stage it shows with
// read_stage(). Buffers are allocated once per model and input size and reused.
// All calls need the context that was current at construction.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "pass/interventions.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit {

class GpuBackend {
public:
    // What forward() reads back into the Trace it returns.
    enum class Readback {
        All,          // every stage (the same Trace as vit::forward)
        Predictions,  // logits, probs (with a head), every block's attn, rollout
    };

    // Throws vit::Error when no OpenGL 4.3 context is current ("no OpenGL 4.3
    // context: …") or a shader fails to compile ("shader 'NAME' failed to compile: LOG").
    GpuBackend();
    ~GpuBackend();
    GpuBackend(const GpuBackend&) = delete;
    GpuBackend& operator=(const GpuBackend&) = delete;

    // Uploads the weights (once; the model is not kept). Throws vit::Error when a
    // weight's shape disagrees with the config.
    void set_model(const Model& model);

    // `input`: C×S×S and `iv` as for vit::forward (same checks, same errors).
    Trace forward(const Tensor& input, Readback what = Readback::All, const Interventions& iv = {});
    // Only these stages (catalogue order kept); a stage the model has not is a vit::Error.
    Trace forward(const Tensor& input, const std::vector<StageRef>& wanted, const Interventions& iv = {});
    // Any stage of the last forward pass, read back now; vit::Error before any pass.
    Tensor read_stage(const StageRef& stage) const;

    // GPU time of the last forward pass in milliseconds (GL_TIME_ELAPSED),
    // without the upload of the input and the read-back.
    double last_gpu_ms() const;
    // The renderer and GL version, e.g. "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 …".
    std::string device() const;

    // The stages Readback::Predictions returns, in order.
    static std::vector<StageRef> prediction_stages(int depth, bool has_head);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace vit
