// The key of everything the views cache: a texture (texture_cache.h) or numbers
// derived from a trace (derived_cache.h). Each field is one thing the pixels or
// numbers depend on, so two pictures of different things never share a key and
// a picture's key changes exactly when its pixels must; the selected token is an
// outline drawn over a texture, never part of its key. Pure C++.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "logic/describe/colormap.h"
#include "pass/stages.h"

namespace vit::gui {

// What is drawn or derived from the stage, beyond its plain values.
enum class Purpose : uint8_t {
    Values,                 // the stage's matrix (slice) as it is
    SumSharedRange,         // a term of a sum on the sum's colour range (params: lo, hi)
    AllHeadsRange,          // a head of the "all heads" grid on every head's range
    Picture,                // the model's input as a picture (content: its values and preprocessing)
    ImageFile,              // the image file as decoded (content: its pixels)
    RowStats,               // each row's mean and standard deviation
    RowSums,                // each row's sum (attention rows sum to 1)
    ImageOrder,             // token rows and columns back in image order (interventions)
    PositionEmbedding,      // tokens − cls: the positional embedding the pass added
    PositionCosines,        // the cosine similarity of every pair of position embeddings
    PositionCosineMosaic,   // those cosines, one small map per patch
    LearnedPrefix,          // the model's CLS, DIST and register token weights
    PatchWeights,           // the patch projection's weights, transposed
    PatchBias,              // the patch projection's bias
    ConvolutionDifference,  // the patch embedding against a convolution of the image
    PatchFilters,           // the first rows of the patch projection as pictures
    FilterComponents,       // the principal components of those rows
    AttentionDistance,      // every head's mean attention distance, block by block
    AttentionRow,           // one token's attention row over the image (params: token, scale)
    HeadMeanRow,            // the heads' mean of that row (params: token, scale)
    AttentionAtlas,         // every block's and head's row over the picture (params: token, shrink, scale, …)
    ComparedCls,            // the comparison model's CLS rows (params: scale)
    Occlusion,              // the occlusion map (params: patches computed, stale)
    RolloutPatchMean,       // the rollout's rows averaged over the patches
    Relevance,              // "Why this class?" relevance (params: class)
    Saliency,               // the input gradient's saliency (params: class)
    TokenNorms,             // each token's norm over the image
    SinkScores,             // each head's attention sink score
    ClsMask,                // DINO's CLS mask of one head (params: mass)
    PatchPca,               // the patch features' PCA colours (params: two-step, threshold, grids)
    JointPcaInput,          // an image of the joint PCA as the model sees it (content: the image set)
    LogitLens,              // p(class) after each block
    GpuDifference,          // |CPU − GPU| of a stage
    Provenance,             // a term of a clicked cell's provenance (params: row, column, term)
    Thumbnail,              // a gallery file's thumbnail (file)
    PaintTarget,            // the Ask panel's picture to paint on (an id, no texture)
    PatchPicker,            // the attention screen's picture to click on (an id, no texture)
    ColorBar,               // a colour bar's gradient (cmap)
};

struct CacheKey {
    uint64_t generation = 0;  // the trace it is of; 0: what outlives traces (content, files)
    StageRef stage;           // the stage it is drawn or derived from
    int slice = -1;           // head or channel; -1: the whole tensor
    Colormap cmap = Colormap::Sequential;
    Purpose purpose = Purpose::Values;
    std::vector<double> params;  // what else it depends on (see Purpose)
    uint64_t content = 0;        // a hash of the values drawn, where the picture outlives the trace
    std::string file;            // the file drawn (Thumbnail)
    int reduction = 1;           // drawn reduced: one texel per reduction × reduction cells

    bool operator==(const CacheKey& o) const;
    bool operator!=(const CacheKey& o) const { return !(*this == o); }
    // Whether it names a picture by its content, which outlives a new trace (TextureCache::new_trace).
    bool by_content() const { return content != 0 && generation == 0; }
    // Unique and readable ("g3|block0.attn|s1|seq|p18|5,0"): ImGui's id for the widget drawing it.
    std::string id() const;
};

struct CacheKeyHash {
    size_t operator()(const CacheKey& key) const;
};

// The key of `stage`'s matrix `slice` in trace `generation` (0: numbers derived from it, kept until
// the next trace), drawn in `cmap`, or of what else `purpose` draws or derives of it.
CacheKey stage_key(uint64_t generation, const StageRef& stage, int slice, Colormap cmap,
                   Purpose purpose = Purpose::Values, std::vector<double> params = {});
// The key of a picture of `count` values alone (an image's pixels, hashed with FNV-1a): it outlives a new trace.
CacheKey content_key(Purpose purpose, const float* values, size_t count, std::vector<double> params = {});

}  // namespace vit::gui
