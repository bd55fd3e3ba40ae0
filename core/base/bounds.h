// Every bound the core puts on what a file or an option may ask for, in one
// place: sizes are checked against these before anything is allocated from
// them, and messages quote at most kMaxQuotedChars of a bad value.
#pragma once
#include <cstddef>
#include <cstdint>

namespace vit {

// Files read whole: config.json, preprocessor_config.json, images.
constexpr size_t kMaxConfigBytes = 64u << 20;
constexpr size_t kMaxImageFileBytes = 512u << 20;
// A safetensors header longer than this is not one (real ones are a few hundred KB).
constexpr uint64_t kMaxSafetensorsHeaderBytes = 100ull * 1000 * 1000;
// JSON nested deeper than this is refused while parsing (real configs nest 3 levels).
constexpr int kMaxJsonDepth = 64;

// The largest width, depth or class count a config or a tensor may state.
constexpr int kMaxStatedSize = 1 << 24;
// The largest side of the square model input (config input_size, --image-size).
constexpr int kMaxImageSide = 8192;
// Decoded and resized images: headers claiming more pixels are refused before decoding.
constexpr int64_t kMaxImagePixels = 64LL * 1000 * 1000;
// A forward pass whose trace needs more than this share of physical memory is refused.
constexpr double kMaxTraceMemoryShare = 0.5;

// A number list (--mask-patches 3,5,10-12) expands to at most this many
// numbers; ranges are checked against it before they are expanded. More than
// any pass can hold patches: a trace of 65,536 tokens would need the T × T
// attention of every head and block, terabytes for even the toy's sizes.
constexpr size_t kMaxListNumbers = 1u << 16;

// The smallest attention temperature: attention divides each row's scores,
// shifted by their max, by τ (core/pass/attention.cpp), so any τ > 0 keeps
// softmax finite for finite scores; the bound keeps τ a normal float (GPUs
// flush subnormals to 0, making 0/τ NaN) and readable.
constexpr float kMinTemperature = 1e-6f;

// Counts a command line may ask for, bounded so that no run asks for hours or
// years by a slip of the keyboard, and no product of them overflows an int:
// epochs of training (× its steps per epoch, at most the digit set's 60,000
// samples at batch 1), timed runs of a benchmark, samples in a training batch.
constexpr int kMaxTrainingEpochs = 1000;
constexpr int kMaxTimedRuns = 10000;
constexpr int kMaxTrainingBatch = 4096;

// Error messages quote at most this many characters of a value from a file.
constexpr size_t kMaxQuotedChars = 80;

}  // namespace vit
