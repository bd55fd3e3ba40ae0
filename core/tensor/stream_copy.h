// Copying a stage to its place in the trace past the caches: the pass keeps
// every stage, but some (attention's scores and weights) are only read again by
// a view or a dump, long after the pass. Non-temporal stores write them to
// memory without first reading each line into the cache and without pushing
// out the working set that the next products read.
#pragma once
#include <cstdint>

namespace vit {

// to[i] = from[i] for i < count; `to`'s whole 64-byte lines are streamed
// (AVX-512), the rest stored as usual. Ordered before any later read on any thread.
void copy_past_caches(const float* from, float* to, int64_t count);

}  // namespace vit
