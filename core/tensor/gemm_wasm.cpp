// The core's matrix-product kernel on WebAssembly SIMD (the page's build,
// gemm.h). C is computed in tiles of up to 4 rows × 8 columns held in 8
// four-float registers: each step of depth adds A's value for the row,
// broadcast, times the step's 8 floats of a panel. A panel is 8 columns of
// op(B) packed step-major (zeros past its last column), once per product, and
// every tile of rows reads it; A is packed once, tile by tile, step-major.
// Taller or wider tiles (6 × 8, 4 × 12) ran slower in V8 on x86, which keeps
// one of its 16 vector registers for itself: the accumulators spilled. Eigen
// 3.4 has no WebAssembly backend; its SSE2 path on wasm SIMD held a 4 × 4 tile
// and a ViT-Ti pass spent three quarters of its time there (129 ms; 86 with
// this kernel, measured under node on Zen 4).
#include "tensor/gemm.h"

#if defined(__wasm_simd128__) && !defined(__AVX512F__)
#include <wasm_simd128.h>

#include <algorithm>

#include "tensor/gemm_parts.h"

namespace vit {

namespace {

constexpr int kRegisters = 2;                   // a tile row's registers
constexpr int64_t kPanelCols = 4 * kRegisters;  // columns of a C tile
constexpr int64_t kTileRows = 4;                // rows of a C tile

// out[k · step + i] = v_i[k] for 4 rows v_0..v_3 of 4 steps each: a 4 × 4 transpose.
void store_transposed(v128_t v0, v128_t v1, v128_t v2, v128_t v3, float* out, int64_t step) {
    const v128_t t0 = wasm_i32x4_shuffle(v0, v1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(v0, v1, 2, 6, 3, 7);
    const v128_t t2 = wasm_i32x4_shuffle(v2, v3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(v2, v3, 2, 6, 3, 7);
    wasm_v128_store(out, wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5));
    wasm_v128_store(out + step, wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7));
    wasm_v128_store(out + 2 * step, wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5));
    wasm_v128_store(out + 3 * step, wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7));
}

// Rows [row, row + count) of m (count ≤ 4), transposed: step k's `count` floats at
// out + k · step. Four rows go 4 steps at a time through a register transpose.
void pack_transposed(const ConstMatRef& m, int64_t row, int64_t count, float* out, int64_t step) {
    const int64_t depth = m.cols();
    int64_t k = 0;
    if (count == 4) {
        const float* r = m.data() + row * m.outerStride();
        const int64_t s = m.outerStride();
        for (; k + 4 <= depth; k += 4)
            store_transposed(wasm_v128_load(r + k), wasm_v128_load(r + s + k), wasm_v128_load(r + 2 * s + k),
                             wasm_v128_load(r + 3 * s + k), out + k * step, step);
    }
    for (; k < depth; ++k)
        for (int64_t i = 0; i < count; ++i) out[k * step + i] = m(row + i, k);
}

// The panel of Bᵀ's columns [n0, n0 + 8) — B's rows — as B.cols() steps of 8
// floats; past B's last row, zeros.
void pack_bt_panel(const ConstMatRef& b, int64_t n0, float* out) {
    for (int64_t j0 = 0; j0 < kPanelCols; j0 += 4) {
        const int64_t count = std::clamp<int64_t>(b.rows() - n0 - j0, 0, 4);
        pack_transposed(b, n0 + j0, count, out + j0, kPanelCols);
        for (int64_t k = 0; count < 4 && k < b.cols(); ++k)
            std::fill_n(out + k * kPanelCols + j0 + count, 4 - count, 0.f);
    }
}

// The panel of B's columns [n0, n0 + 8) as B.rows() steps of 8 floats; past
// B's last column, zeros.
void pack_b_panel(const ConstMatRef& b, int64_t n0, float* out) {
    const int64_t count = std::min(kPanelCols, b.cols() - n0);
    for (int64_t k = 0; k < b.rows(); ++k, out += kPanelCols) {
        const float* step = b.data() + k * b.outerStride() + n0;
        if (count == kPanelCols) {
            for (int v = 0; v < kRegisters; ++v) wasm_v128_store(out + 4 * v, wasm_v128_load(step + 4 * v));
        } else {
            std::copy(step, step + count, out);
            std::fill(out + count, out + kPanelCols, 0.f);
        }
    }
}

// A's rows, tile after tile, each step-major (the tile's rows' floats a step).
void pack_a(const ConstMatRef& a, const gemm::RowTiles& tiles, float* out) {
    int64_t r0 = 0;
    for (int64_t tile = 0; tile < tiles.count; ++tile) {
        const int64_t rows = tiles.rows(tile);
        pack_transposed(a, r0, rows, out, rows);
        out += rows * a.cols();
        r0 += rows;
    }
}

// One tile: c (Rows × `cols` ≤ 8) = scale · Σ_k a_k ⊗ panel step k + start,
// a packed (Rows floats a step), start: 8 floats (the bias, or zeros).
template <int Rows>
void multiply_tile(int64_t depth, const float* a, const float* panel, float scale, const float* start, float* c,
                   int64_t c_step, int64_t cols) {
    v128_t sum[Rows][kRegisters];
    for (int r = 0; r < Rows; ++r)
        for (int v = 0; v < kRegisters; ++v) sum[r][v] = wasm_f32x4_splat(0.f);
    for (int64_t k = 0; k < depth; ++k, panel += kPanelCols, a += Rows) {
        v128_t b[kRegisters];
        for (int v = 0; v < kRegisters; ++v) b[v] = wasm_v128_load(panel + 4 * v);
        for (int r = 0; r < Rows; ++r) {
            const v128_t ar = wasm_v128_load32_splat(a + r);
            for (int v = 0; v < kRegisters; ++v) sum[r][v] = wasm_f32x4_add(sum[r][v], wasm_f32x4_mul(ar, b[v]));
        }
    }
    const v128_t scale_v = wasm_f32x4_splat(scale);
    for (int r = 0; r < Rows; ++r) {
        alignas(16) float row[kPanelCols];  // a tile short of columns: its rows go through here
        float* out = cols == kPanelCols ? c + r * c_step : row;
        for (int v = 0; v < kRegisters; ++v)
            wasm_v128_store(out + 4 * v,
                            wasm_f32x4_add(wasm_f32x4_mul(sum[r][v], scale_v), wasm_v128_load(start + 4 * v)));
        if (out == row) std::copy(row, row + cols, c + r * c_step);
    }
}

using TileFunction = void (*)(int64_t, const float*, const float*, float, const float*, float*, int64_t, int64_t);
constexpr TileFunction kTileFunctions[kTileRows + 1] = {nullptr, multiply_tile<1>, multiply_tile<2>, multiply_tile<3>,
                                                        multiply_tile<4>};

// c = scale · a · op(b) + bias (none when null), op(b) = bᵀ when `b_transposed`;
// `gelu`: GELU of c there too, or null (c then one matrix). A tile's 8 columns
// go to one group: groups whose columns split a panel are written from a whole c.
void multiply(const ConstMatRef& a, const ConstMatRef& b, bool b_transposed, float scale, const float* bias,
              const ColumnGroups& c, const GeluOutput* gelu = nullptr) {
    const auto whole = [&](MatRef m) { multiply(a, b, b_transposed, scale, bias, m, gelu); };
    if (!gemm::tiles_compute(a, b, b_transposed, bias, c, gelu, kPanelCols, whole)) return;
    const int64_t rows = c.rows(), cols = c.cols(), depth = a.cols();
    thread_local FloatStorage packed_a, panel;
    packed_a.resize(static_cast<size_t>(rows * depth));
    panel.resize(static_cast<size_t>(depth * kPanelCols));
    const gemm::RowTiles tiles(rows, kTileRows);
    pack_a(a, tiles, packed_a.data());
    for (int64_t n0 = 0; n0 < cols; n0 += kPanelCols) {
        if (b_transposed) pack_bt_panel(b, n0, panel.data());
        else pack_b_panel(b, n0, panel.data());
        const int64_t count = std::min(kPanelCols, cols - n0);
        alignas(16) float start[kPanelCols] = {};
        if (bias) std::copy(bias + n0, bias + n0 + count, start);
        const float* tile_a = packed_a.data();
        int64_t r0 = 0;
        for (int64_t tile = 0; tile < tiles.count; ++tile) {
            const int64_t tile_rows = tiles.rows(tile);
            kTileFunctions[tile_rows](depth, tile_a, panel.data(), scale, start, c.at(r0, n0), c.stride(), count);
            tile_a += tile_rows * depth;
            r0 += tile_rows;
        }
    }
    if (gelu) gemm::write_gelu(gemm::whole_of(c), gelu);
}

}  // namespace

void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, MatRef c, float scale, const float* bias,
                 const GeluOutput* gelu) {
    multiply(a, b, true, scale, bias, c, gelu);
}
void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, const ColumnGroups& c, const float* bias,
                 const GeluOutput* gelu) {
    multiply(a, b, true, 1.0f, bias, c, gelu);
}
void multiply(const ConstMatRef& a, const ConstMatRef& b, MatRef c) { multiply(a, b, false, 1.0f, nullptr, c); }
bool own_gemm_kernel() { return true; }

}  // namespace vit

#endif
