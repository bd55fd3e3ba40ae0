// The core's blocked matrix-product kernel on AVX-512 (gemm.h). C is computed
// in tiles of up to 14 rows × 32 columns held in 28 AVX-512 registers; over one
// block of depth the tile reads A packed (its rows' floats per step) and a
// 32-column panel of B (32 floats per step). For A·Bᵀ the panel is B's 32 rows
// transposed into the packing buffer, or packed once beforehand (PackedBt); for
// A·B it is read where it lies. Loop order per depth block: pack A once, then
// per panel of B, every tile of rows — so each weight is read from memory once,
// and one panel stays in cache while every row uses it. Memory is asked for
// ahead of use: the next panel's weights while the tiles of this one compute,
// and the next tile's rows of C before it writes. A tile can also write GELU of
// itself to a second output as it finishes (GeluOutput).
#include "tensor/gemm.h"

#ifdef __AVX512F__
#include <immintrin.h>

#include <algorithm>
#include <cassert>

#include "tensor/gelu.h"
#include "tensor/gemm_parts.h"
#include "tensor/lanes.h"

namespace vit {

using gemm::RowTiles;

namespace {

constexpr int64_t kPanelCols = 32;  // columns of a C tile: two 16-float registers
constexpr int64_t kTileRows = 14;   // rows of a C tile: 28 accumulators, 3 registers left
// Depth packed at once: a panel of B is 96 KB (held in L2), and each weight row
// is read in runs of 3 KB; blocks of 256 (a panel in L1) made a ViT-B pass ~10 ms
// slower, waiting on more, shorter runs from memory.
constexpr int64_t kDepthBlock = 768;

// Packing space, reused by every product on the thread.
struct PackBuffers {
    FloatStorage a;  // A's block: per tile of rows, step-major (tile rows floats a step)
    FloatStorage b;  // one panel of Bᵀ: step-major, 32 floats a step (past B's last row: unread)
};

PackBuffers& pack_buffers() {
    thread_local PackBuffers buffers;
    return buffers;
}

// Transposes the 16×16 block held in r (row i in r[i]) so that r[j] holds column j.
inline void transpose16(__m512 r[16]) {
    __m512 t[16];
    for (int i = 0; i < 8; ++i) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; ++i) {
        const __m512d lo01 = _mm512_castps_pd(t[4 * i]), lo23 = _mm512_castps_pd(t[4 * i + 2]);
        const __m512d hi01 = _mm512_castps_pd(t[4 * i + 1]), hi23 = _mm512_castps_pd(t[4 * i + 3]);
        r[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(lo01, lo23));
        r[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(lo01, lo23));
        r[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(hi01, hi23));
        r[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(hi01, hi23));
    }
    // r[4i + j], 128-bit lane L, now holds rows 4i..4i+3 of column 4L + j.
    for (int j = 0; j < 4; ++j) {
        t[j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0x88);
        t[4 + j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0xdd);
        t[8 + j] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0x88);
        t[12 + j] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0xdd);
    }
    for (int j = 0; j < 4; ++j) {
        r[j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0x88);
        r[4 + j] = _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0x88);
        r[8 + j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0xdd);
        r[12 + j] = _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0xdd);
    }
}

// B's rows rounded up to whole panels: a PackedBt's panels hold that many.
int64_t panel_padded(int64_t rows) { return (rows + kPanelCols - 1) / kPanelCols * kPanelCols; }

// Writes `count` (≤ 16) rows of m, starting at `row`, columns [k0, k0 + depth),
// transposed: step k's `count` values at out + k·out_step, times `scale`.
// Sixteen steps at a time through a register transpose, the rest one by one.
void pack_transposed(const ConstMatRef& m, int64_t row, int64_t count, int64_t k0, int64_t depth, float scale,
                     float* out, int64_t out_step) {
    const __m512 scale_v = _mm512_set1_ps(scale);
    const __mmask16 store_mask = first_lanes(count);
    int64_t k = 0;
    for (; k + 16 <= depth; k += 16) {
        __m512 r[16];
        for (int i = 0; i < 16; ++i)
            r[i] = i < count ? _mm512_mul_ps(_mm512_loadu_ps(m.data() + (row + i) * m.outerStride() + k0 + k), scale_v)
                             : _mm512_setzero_ps();
        transpose16(r);
        for (int j = 0; j < 16; ++j) _mm512_mask_storeu_ps(out + (k + j) * out_step, store_mask, r[j]);
    }
    for (; k < depth; ++k)
        for (int64_t i = 0; i < count; ++i) out[k * out_step + i] = m(row + i, k0 + k) * scale;
}

// A's rows × [k0, k0 + depth), scaled, tile after tile, each step-major.
void pack_a(const ConstMatRef& a, const RowTiles& tiles, int64_t k0, int64_t depth, float scale, float* out) {
    int64_t r0 = 0;
    for (int64_t tile = 0; tile < tiles.count; ++tile) {
        const int64_t rows = tiles.rows(tile);
        pack_transposed(a, r0, rows, k0, depth, scale, out, rows);
        out += rows * depth;
        r0 += rows;
    }
}

// Bᵀ's panel: B's rows [n0, n0 + 32) × [k0, k0 + depth) as depth steps of 32 floats.
void pack_bt_panel(const ConstMatRef& b, int64_t n0, int64_t k0, int64_t depth, float* out) {
    for (int64_t first = n0; first < std::min(n0 + kPanelCols, b.rows()); first += 16) {
        pack_transposed(b, first, std::min<int64_t>(16, b.rows() - first), k0, depth, 1.0f, out + (first - n0),
                        kPanelCols);
    }
}

// Walks cache lines row after row, asking for each to be brought into L2: the
// panel of B used next (B's rows, or a packed panel as one long row), which
// the tiles of this one request a few lines at a time.
class LinePrefetcher {
public:
    LinePrefetcher() = default;
    // Lines [first, last) of rows `row_step` floats apart from `origin`, `lines_per_row` each.
    LinePrefetcher(const float* origin, int64_t row_step, int64_t lines_per_row, int64_t first, int64_t last)
        : row_(origin + first / lines_per_row * row_step),
          row_step_(row_step),
          lines_per_row_(lines_per_row),
          line_(first % lines_per_row),
          left_(last - first) {}
    void prefetch_next() {
        if (left_ == 0) return;
        _mm_prefetch(reinterpret_cast<const char*>(row_ + line_ * kLineFloats), _MM_HINT_T1);
        --left_;
        if (++line_ == lines_per_row_) line_ = 0, row_ += row_step_;
    }
    static constexpr int64_t kLineFloats = 16;

private:
    const float* row_ = nullptr;
    int64_t row_step_ = 0, lines_per_row_ = 1, line_ = 0, left_ = 0;
};

// The panels of B the tiles read, per depth block k0 and first column n0 of C:
// B's rows transposed into the packing buffer (A·Bᵀ), B read where it lies
// (A·B), or a PackedBt's panels. Says too where the next panel's lines lie.
class PanelSource {
public:
    PanelSource(const ConstMatRef& b, bool b_transposed, const PackedBt* packed, int64_t first_row, float* buffer)
        : b_(b), b_transposed_(b_transposed), packed_(packed), first_row_(first_row), buffer_(buffer) {}
    struct Panel {
        const float* steps;  // step k's 32 floats at steps + k·step
        int64_t step;
    };
    Panel panel(int64_t k0, int64_t n0, int64_t depth) const {
        if (packed_) return {packed_->panel(k0, first_row_ + n0), kPanelCols};
        if (!b_transposed_) return {b_.data() + k0 * b_.outerStride() + n0, b_.outerStride()};
        pack_bt_panel(b_, n0, k0, depth, buffer_);
        return {buffer_, kPanelCols};
    }
    // Lines [first, last) of the panel at (k0, n0), `lines` of them in all (0: nothing to fetch).
    int64_t lines(int64_t n0, int64_t depth) const {
        if (packed_) return kPanelCols / LinePrefetcher::kLineFloats * depth;  // one panel, contiguous
        if (!b_transposed_) return 0;  // read in place, row by row: the hardware's prefetcher follows
        return std::max<int64_t>(0, std::min(kPanelCols, b_.rows() - n0)) * lines_per_row(depth);
    }
    LinePrefetcher prefetcher(int64_t k0, int64_t n0, int64_t depth, int64_t first, int64_t last) const {
        if (packed_) return LinePrefetcher(packed_->panel(k0, first_row_ + n0), 0, lines(n0, depth), first, last);
        return LinePrefetcher(b_.data() + n0 * b_.outerStride() + k0, b_.outerStride(), lines_per_row(depth), first,
                              last);
    }

private:
    static int64_t lines_per_row(int64_t depth) {
        return (depth + LinePrefetcher::kLineFloats - 1) / LinePrefetcher::kLineFloats;
    }
    const ConstMatRef& b_;
    bool b_transposed_;
    const PackedBt* packed_;
    int64_t first_row_;
    float* buffer_;
};

// Asks for the 32 columns of `rows` rows of C (the next tile's, written first in
// this depth block) to be brought in for writing: a trace stage written for the
// first time in a pass is not in cache, and the tile's stores would wait for it.
void prefetch_for_writing(const float* c, int64_t rows, int64_t c_step) {
    for (int64_t r = 0; r < rows; ++r) {
        _mm_prefetch(reinterpret_cast<const char*>(c + r * c_step), _MM_HINT_ET0);
        _mm_prefetch(reinterpret_cast<const char*>(c + r * c_step + 16), _MM_HINT_ET0);
    }
}

// The epilogue of a tile with a GELU output: the tile's `rows` rows of 32
// floats (tile, a row per 32 floats) to c, and their GELU to `gelu`. c's rows
// are streamed past the caches when the tile is whole and they are aligned.
// Out of line, so that its constants stay out of the tile's registers.
// (GCC 12 warns, wrongly, of the undefined lanes in its own _mm512_min_ps and
// _mm512_max_ps, which Eigen's erf clamps with: GCC bug 105593.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
__attribute__((noinline)) void finish_tile_with_gelu(const float* tile, int rows, float* c, int64_t c_step, float* gelu,
                                                     int64_t gelu_step, __mmask16 mask0, __mmask16 mask1) {
    const bool stream = mask1 == 0xffff && reinterpret_cast<uintptr_t>(c) % 64 == 0 && c_step % 16 == 0;
    for (int r = 0; r < rows; ++r) {
        const __m512 c0 = _mm512_load_ps(tile + r * 32), c1 = _mm512_load_ps(tile + r * 32 + 16);
        if (stream) {
            _mm512_stream_ps(c + r * c_step, c0);
            _mm512_stream_ps(c + r * c_step + 16, c1);
        } else {
            _mm512_mask_storeu_ps(c + r * c_step, mask0, c0);
            _mm512_mask_storeu_ps(c + r * c_step + 16, mask1, c1);
        }
        _mm512_mask_storeu_ps(gelu + r * gelu_step, mask0, gelu_packet(c0));
        _mm512_mask_storeu_ps(gelu + r * gelu_step + 16, mask1, gelu_packet(c1));
    }
}
#pragma GCC diagnostic pop

// One tile: c (Rows × up to 32, columns masked) = start + Σ_k a_k ⊗ b_k over `depth`
// steps, where start is c itself (accumulate), else the bias row in every row, else 0;
// a: packed, Rows floats a step; b: 32 floats a step, `b_step` apart; `gelu`:
// also GELU of the tile there (finish_tile_with_gelu), or null.
// Meanwhile asks `prefetch` for one line every `prefetch_interval` steps: spread
// out, as a burst of requests stalls on the core's few outstanding misses to memory.
// (The prefetcher comes by reference: a copy made for the call was read back whole
// before its parts had reached memory, a stall on every tile.)
template <int Rows>
void multiply_tile(int64_t depth, const float* a, const float* b, int64_t b_step, float* c, int64_t c_step,
                   __mmask16 mask0, __mmask16 mask1, bool accumulate, const float* bias,
                   const LinePrefetcher& prefetch_from, int64_t prefetch_interval, float* gelu, int64_t gelu_step) {
    LinePrefetcher prefetch = prefetch_from;
    const __m512 start0 = bias ? _mm512_maskz_loadu_ps(mask0, bias) : _mm512_setzero_ps();
    const __m512 start1 = bias && mask1 ? _mm512_maskz_loadu_ps(mask1, bias + 16) : _mm512_setzero_ps();
    __m512 sum0[Rows], sum1[Rows];  // every loop over them unrolled, so they stay in registers
#pragma GCC unroll 14
    for (int r = 0; r < Rows; ++r) {
        sum0[r] = accumulate ? _mm512_maskz_loadu_ps(mask0, c + r * c_step) : start0;
        sum1[r] = accumulate ? _mm512_maskz_loadu_ps(mask1, c + r * c_step + 16) : start1;
    }
    int64_t steps_to_prefetch = 1;
    for (int64_t k = 0; k < depth; ++k) {
        const __m512 b0 = _mm512_maskz_loadu_ps(mask0, b), b1 = _mm512_maskz_loadu_ps(mask1, b + 16);
#pragma GCC unroll 14
        for (int r = 0; r < Rows; ++r) {
            const __m512 ar = _mm512_set1_ps(a[r]);
            sum0[r] = _mm512_fmadd_ps(ar, b0, sum0[r]);
            sum1[r] = _mm512_fmadd_ps(ar, b1, sum1[r]);
        }
        a += Rows;
        b += b_step;
        if (--steps_to_prefetch == 0) {
            prefetch.prefetch_next();
            steps_to_prefetch = prefetch_interval;
        }
    }
    if (gelu) {
        alignas(64) float tile[Rows][32];
#pragma GCC unroll 14
        for (int r = 0; r < Rows; ++r) {
            _mm512_store_ps(tile[r], sum0[r]);
            _mm512_store_ps(tile[r] + 16, sum1[r]);
        }
        finish_tile_with_gelu(&tile[0][0], Rows, c, c_step, gelu, gelu_step, mask0, mask1);
        return;
    }
#pragma GCC unroll 14
    for (int r = 0; r < Rows; ++r) {
        _mm512_mask_storeu_ps(c + r * c_step, mask0, sum0[r]);
        _mm512_mask_storeu_ps(c + r * c_step + 16, mask1, sum1[r]);
    }
}

using TileFunction = void (*)(int64_t, const float*, const float*, int64_t, float*, int64_t, __mmask16, __mmask16, bool,
                              const float*, const LinePrefetcher&, int64_t, float*, int64_t);
constexpr TileFunction kTileFunctions[kTileRows + 1] = {
    nullptr,           multiply_tile<1>,  multiply_tile<2>,  multiply_tile<3>,  multiply_tile<4>,
    multiply_tile<5>,  multiply_tile<6>,  multiply_tile<7>,  multiply_tile<8>,  multiply_tile<9>,
    multiply_tile<10>, multiply_tile<11>, multiply_tile<12>, multiply_tile<13>, multiply_tile<14>};

// c = scale · a · op(b) + bias (none when null), op(b) = bᵀ when `b_transposed`;
// with `packed`, bᵀ's panels come from it (b: its rows [first_row, first_row + cols));
// `gelu`: GELU of c there too, or null (c then one matrix). A tile's 32 columns
// go to one group: groups whose columns split a panel are written from a whole c.
void multiply(const ConstMatRef& a, const ConstMatRef& b, bool b_transposed, float scale, const float* bias,
              const ColumnGroups& c, const PackedBt* packed = nullptr, int64_t first_row = 0,
              const GeluOutput* gelu = nullptr) {
    const auto whole = [&](MatRef m) { multiply(a, b, b_transposed, scale, bias, m, packed, first_row, gelu); };
    if (!gemm::tiles_compute(a, b, b_transposed, bias, c, gelu, kPanelCols, whole)) return;
    const int64_t rows = c.rows(), cols = c.cols(), depth = a.cols();
    PackBuffers& buffers = pack_buffers();
    buffers.a.resize(static_cast<size_t>(rows * std::min(depth, kDepthBlock)));
    buffers.b.resize(static_cast<size_t>(kPanelCols * kDepthBlock));
    const PanelSource source(b, b_transposed, packed, first_row, buffers.b.data());
    const RowTiles tiles(rows, kTileRows);
    for (int64_t k0 = 0; k0 < depth; k0 += kDepthBlock) {
        const int64_t steps = std::min(kDepthBlock, depth - k0);
        const GeluOutput* finishing_gelu = k0 + steps == depth ? gelu : nullptr;  // the tiles' last block
        // c written once, streamed with a GELU output: not asked into the cache.
        const bool c_to_cache = k0 == 0 && !(finishing_gelu && steps == depth);
        pack_a(a, tiles, k0, steps, scale, buffers.a.data());
        for (int64_t n0 = 0; n0 < cols; n0 += kPanelCols) {
            const PanelSource::Panel panel = source.panel(k0, n0, steps);
            // The panel used next: the next 32 columns, or the next depth block's first.
            const bool last_panel = n0 + kPanelCols >= cols;
            const int64_t next_n0 = last_panel ? 0 : n0 + kPanelCols, next_k0 = last_panel ? k0 + kDepthBlock : k0;
            const int64_t next_steps = std::min(kDepthBlock, depth - next_k0);
            const int64_t lines = next_k0 < depth ? source.lines(next_n0, next_steps) : 0;
            const int64_t prefetch_interval = std::max<int64_t>(1, steps * tiles.count / std::max<int64_t>(1, lines));
            const __mmask16 mask0 = first_lanes(cols - n0), mask1 = first_lanes(cols - n0 - 16);
            const float* packed_a = buffers.a.data();
            int64_t r0 = 0;
            for (int64_t tile = 0; tile < tiles.count; ++tile) {
                const int64_t tile_rows = tiles.rows(tile);
                if (c_to_cache && tile + 1 < tiles.count)
                    prefetch_for_writing(c.at(r0 + tile_rows, n0), tiles.rows(tile + 1), c.stride());
                float* tile_gelu = finishing_gelu ? finishing_gelu->data + r0 * finishing_gelu->stride + n0 : nullptr;
                if (finishing_gelu && tile + 1 < tiles.count)
                    prefetch_for_writing(tile_gelu + tile_rows * finishing_gelu->stride, tiles.rows(tile + 1),
                                         finishing_gelu->stride);
                const LinePrefetcher prefetch =
                    lines == 0 ? LinePrefetcher()
                               : source.prefetcher(next_k0, next_n0, next_steps, lines * tile / tiles.count,
                                                   lines * (tile + 1) / tiles.count);
                kTileFunctions[tile_rows](steps, packed_a, panel.steps, panel.step, c.at(r0, n0), c.stride(), mask0,
                                          mask1, k0 > 0, bias ? bias + n0 : nullptr, prefetch, prefetch_interval,
                                          tile_gelu, gelu ? gelu->stride : 0);
                packed_a += tile_rows * steps;
                r0 += tile_rows;
            }
        }
    }
    if (gelu) _mm_sfence();  // the streamed stores ordered before whatever reads c next, on any thread
}

}  // namespace

void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, MatRef c, float scale, const float* bias,
                 const GeluOutput* gelu) {
    multiply(a, b, true, scale, bias, c, nullptr, 0, gelu);
}
void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, const ColumnGroups& c, const float* bias,
                 const GeluOutput* gelu) {
    multiply(a, b, true, 1.0f, bias, c, nullptr, 0, gelu);
}
void multiply(const ConstMatRef& a, const ConstMatRef& b, MatRef c) { multiply(a, b, false, 1.0f, nullptr, c); }
bool own_gemm_kernel() { return true; }

PackedBt::PackedBt(const ConstMatRef& b)
    : source_(b.data()), rows_(b.rows()), depth_(b.cols()), stride_(b.outerStride()) {
    const int64_t padded_rows = panel_padded(rows_);
    data_.resize(static_cast<size_t>(padded_rows * depth_));
    for (int64_t k0 = 0; k0 < depth_; k0 += kDepthBlock) {
        const int64_t steps = std::min(kDepthBlock, depth_ - k0);
        for (int64_t n0 = 0; n0 < rows_; n0 += kPanelCols)
            pack_bt_panel(b, n0, k0, steps, data_.data() + k0 * padded_rows + n0 * steps);
    }
}

const float* PackedBt::panel(int64_t k0, int64_t row) const {
    // Depth block k0 starts after k0 steps of every panel; its panels hold `steps` steps each.
    return data_.data() + k0 * panel_padded(rows_) + row * std::min(kDepthBlock, depth_ - k0);
}

void multiply_bt(const ConstMatRef& a, const PackedBt& b, int64_t first_row, const ColumnGroups& c, const float* bias,
                 const GeluOutput* gelu) {
    assert(first_row % kPanelCols == 0 && first_row + c.cols() <= b.rows_);
    multiply(a, gemm::rows_of(b.source_, b.stride_, first_row, c.cols(), b.depth_), true, 1.0f, bias, c, &b, first_row,
             gelu);
}

}  // namespace vit

#endif
