// The memory one forward pass's Trace takes, and the refusal, before anything
// is allocated, of a pass whose trace would not fit in this machine's memory
// (attention maps grow with the fourth power of the image side).
#pragma once
#include <cstdint>

#include "base/error.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit {

// Bytes of every stage the trace holds for a square input of `image_size` pixels
// (tokens = (image_size / patch_size)² + the prefix tokens); for a Stream pass the
// stages it keeps and one block's others, which it writes over block after block.
int64_t trace_bytes(const ModelConfig& config, int image_size, TraceKeep keep = TraceKeep::Every);

// The most bytes a trace may take: kMaxTraceMemoryShare of physical memory, or of the
// process's address-space limit (ulimit -v) when that is lower.
int64_t trace_budget_bytes();

// An allocation a pass of `config` at `image_size` (0: the config's own) could not make, as
// one line: "<model> at S×S pixels (T tokens): out of memory; its trace needs X GB beside its weights …".
Error out_of_memory(const ModelConfig& config, int image_size, TraceKeep keep = TraceKeep::Every);

// "12.6 GB": bytes as the messages say them.
std::string gigabytes(double bytes);

// What a program holding `traces_held` traces at once keeps of a pass at `image_size` (0: the
// config's own): every stage when that fits its share of `budget`, else only the residual stream.
TraceKeep keep_that_fits(const ModelConfig& config, int image_size, int64_t budget, int traces_held = 1);

// The largest multiple of the patch size (at most kMaxImageSide) whose trace
// fits in `budget`; 0 when not even one patch does.
int largest_fitting_image_size(const ModelConfig& config, int64_t budget, TraceKeep keep = TraceKeep::Every);

// An input refused for its size; `largest_fitting` is the size to offer instead (0: none fits).
struct InputTooLarge : Error {
    InputTooLarge(const std::string& message, int largest) : Error(message), largest_fitting(largest) {}
    int largest_fitting;
};

// Throws InputTooLarge when `image_size` (0: the config's own) is over
// kMaxImageSide or its trace needs more than its share of `budget` bytes: all of it, or
// 1/`traces_held` for a program that holds that many traces at once (the app,
// app/gui/logic/jobs/pass_steps.h; the message says so); vit::Error naming
// --image-size (the one way to ask for a size) when it is not a whole number of patches.
void check_input_fits(const ModelConfig& config, int image_size, int64_t budget = trace_budget_bytes(),
                      int traces_held = 1, TraceKeep keep = TraceKeep::Every);

}  // namespace vit
