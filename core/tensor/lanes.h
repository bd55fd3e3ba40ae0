// Masks of an AVX-512 register's first lanes, for the partial register at the
// end of a row: shared by the matrix kernel (gemm_avx512.cpp) and softmax (layers.cpp).
#pragma once
#ifdef __AVX512F__
#include <immintrin.h>

#include <cstdint>

namespace vit {

// The first `count` of 16 float lanes: none for count ≤ 0, all for count ≥ 16.
inline __mmask16 first_lanes(int64_t count) {
    return count >= 16 ? __mmask16(0xffff) : count <= 0 ? __mmask16(0) : __mmask16((1u << count) - 1);
}

}  // namespace vit
#endif
