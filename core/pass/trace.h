// The Trace: every stage of one forward pass, in order, each a row of the
// stage catalogue (core/pass/stages.h) with its block and tensor.
// It is the only contract between computation (CPU core, GPU backend) and
// display (app views, CLI dumps, tests).
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "pass/interventions.h"
#include "pass/stages.h"
#include "tensor/tensor.h"

namespace vit {

// What a pass keeps of its stages: every one (the full trace), or only what
// grows with the residual stream: the stages outside the blocks and each block's
// `out`, the stream the next block reads. A Stream trace's other
// block stages are recomputed when asked (recompute_block, for_each_stage in
// forward.h), bit for bit the full trace's; attention maps, which grow with the
// square of the tokens, are then never all held at once.
enum class TraceKeep { Every, Stream };
// Whether a pass under `keep` holds stages of `kind` in its trace.
bool keeps(TraceKeep keep, StageKind kind);

struct Stage {
    std::string id;  // stage_id(kind, block), e.g. "block0.attn"
    StageKind kind = StageKind::Input;
    int block = -1;  // encoder block index, -1 outside the blocks
    Tensor tensor;
    StageRef ref() const { return {kind, block}; }
};

class Trace {
public:
    // Appends a zero-filled stage and returns its tensor for the caller to fill.
    // References stay valid as more stages are added.
    Tensor& add(const StageRef& stage, std::vector<int64_t> shape);
    // Makes stage `index` (at most size()) this stage and shape and returns its
    // tensor; a stage already there with the same shape keeps its storage (and
    // stale contents), so a forward pass can reuse the previous Trace's memory.
    Tensor& put(size_t index, const StageRef& stage, const std::vector<int64_t>& shape);
    // Drops every stage from `count` on.
    void truncate(size_t count);
    // Its stages' storage alone, for a pass that writes over it (no allocation, no page
    // faults): nothing else of this trace, which is left empty.
    Trace storage() &&;
    // nullptr when neither the trace nor the trace it reads through to has such a stage.
    const Stage* find(const std::string& id) const;
    const Stage* find(const StageRef& stage) const;
    // The trace's own stage, nullptr when it has none.
    Stage* find(const std::string& id);
    Stage* find(const StageRef& stage);
    const Tensor* tensor(const StageRef& stage) const;
    // The stage's tensor; throws vit::Error if the trace has none.
    const Tensor& at(const std::string& id) const;
    const Tensor& at(const StageRef& stage) const;
    // The trace's own stages (not those it reads through to).
    const std::deque<Stage>& stages() const& { return stages_; }
    // Not of a temporary: `for (const Stage& s : forward(…).stages())` would read freed stages.
    const std::deque<Stage>& stages() && = delete;
    size_t size() const { return stages_.size(); }
    // The image patch in each patch row, in row order: 0..N−1 for a plain pass;
    // interventions (interventions.h) permute the rows from `patch_embed` on
    // and drop some from `tokens` on. Row i of `patch_embed` and row i + P of
    // `cls` hold patch embedded_patches()[i]; row i + P of `tokens` and later
    // stages holds patch token_patches()[i], where P is the CLS token and any
    // distillation or register tokens before the patches (ModelConfig::prefix_tokens).
    const std::vector<int>& embedded_patches() const { return embedded_patches_; }
    const std::vector<int>& token_patches() const { return token_patches_; }
    void set_patch_rows(std::vector<int> embedded, std::vector<int> kept) {
        embedded_patches_ = std::move(embedded);
        token_patches_ = std::move(kept);
    }
    // What the pass that wrote this trace kept of its stages.
    TraceKeep keep() const { return keep_; }
    void set_keep(TraceKeep keep) { keep_ = keep; }
    // The interventions of the pass that wrote this trace (a Stream trace's blocks are
    // recomputed under them).
    const Interventions& interventions() const { return interventions_; }
    void set_interventions(Interventions iv) { interventions_ = std::move(iv); }
    // Reads through to `base` for every stage this trace lacks, and keeps it alive: a
    // Stream trace seen with one block's stages recomputed (with_block in forward.h).
    // Its keep, interventions and patch rows become the base's.
    void read_through(std::shared_ptr<const Trace> base);
    // The trace this one reads through to, or null.
    const std::shared_ptr<const Trace>& base() const { return base_; }

private:
    std::deque<Stage> stages_;
    TraceKeep keep_ = TraceKeep::Every;
    Interventions interventions_;
    std::shared_ptr<const Trace> base_;
    std::vector<int> embedded_patches_, token_patches_;
};

// The trace `trace` reads through to, or `trace` itself: the Stream trace under a recomputed
// block (with_block in forward.h builds every such trace over the stream itself).
inline const std::shared_ptr<const Trace>& stream_of(const std::shared_ptr<const Trace>& trace) {
    return trace->base() ? trace->base() : trace;
}

}  // namespace vit
