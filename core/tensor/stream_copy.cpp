// copy_past_caches (stream_copy.h): aligned 16-float runs streamed, the ends stored.
#include "tensor/stream_copy.h"

#include <algorithm>

#ifdef __AVX512F__
#include <immintrin.h>
#endif

namespace vit {

void copy_past_caches(const float* from, float* to, int64_t count) {
#ifdef __AVX512F__
    constexpr int64_t kLineFloats = 16;
    const int64_t unaligned =
        (kLineFloats - reinterpret_cast<uintptr_t>(to) / sizeof(float) % kLineFloats) % kLineFloats;
    const int64_t head = std::min(count, unaligned);
    std::copy(from, from + head, to);
    int64_t i = head;
    for (; i + kLineFloats <= count; i += kLineFloats) _mm512_stream_ps(to + i, _mm512_loadu_ps(from + i));
    std::copy(from + i, from + count, to + i);
    _mm_sfence();
#else
    std::copy(from, from + count, to);
#endif
}

}  // namespace vit
