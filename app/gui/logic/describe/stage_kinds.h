// The app's row for each kind of stage, beside the core's catalogue row
// (core/pass/stages.cpp): how the stage view pictures it, which describer writes the
// side panel's text, and how a cell's number is traced back to its inputs. Every
// place on the app side that asks what a kind of stage is reads its row.
#pragma once
#include <vector>

#include "logic/describe/stage_describers.h"
#include "pass/stages.h"

namespace vit::gui {

// The picture the stage view draws for a kind (views/stages/stage_view.cpp binds each to its Draw…View).
enum class StageLook {
    Input,            // the image, its channels and its normalisation
    Patches,          // the patch grid cut from the image
    PatchEmbed,       // the linear projection of each patch
    Cls,              // the CLS (and other prefix) tokens put before the patches
    Tokens,           // the position embedding added
    LayerNorm,        // a LayerNorm: before, after, the statistics
    Qkv,              // queries, keys or values per head
    AttentionMatrix,  // a T × T matrix per head: the scores, the softmax
    Context,          // attention · V per head
    AttnOut,          // the output projection
    Residual,         // a residual sum
    Mlp,              // the MLP's stages and LayerScale
    Pool,             // the pooled features
    Head,             // the classifier's logits and probabilities
    Rollout,          // attention rollout over the image
};

// How the provenance panel traces one of a kind's numbers to its inputs (cell_provenance.h).
enum class CellTrace {
    None,       // not traced
    Scores,     // q · k / sqrt(Dh)
    Attn,       // a softmax over its row of scores
    Fc1,        // a dot product of the LayerNorm's row with fc1's weights
    LayerNorm,  // (x - mean) / std · gamma + beta
};

struct StageKindRow {
    StageKind kind;
    StageLook look;
    Describer describe;
    CellTrace trace;
};

// The row of `kind`; the table lists every kind in the catalogue's order.
const StageKindRow& stage_kind_row(StageKind kind);
// Every row, in the catalogue's order (for tests).
const std::vector<StageKindRow>& stage_kind_table();

}  // namespace vit::gui
