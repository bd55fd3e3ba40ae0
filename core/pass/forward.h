// The forward pass of a pre-norm ViT (timm's VisionTransformer.forward in eval
// mode), recording every stage of the catalogue (docs/DESIGN.md#stage-catalogue) into a Trace, under
// the interventions a student asks for (interventions.h; none by default).
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "pass/interventions.h"
#include "model/model.h"
#include "model/packed_weights.h"
#include "pass/trace.h"

namespace vit {

// `input` is C×S×S (preprocess()); S must be a multiple of the patch size.
// The positional embedding is interpolated (bicubic, CLS row kept) when the
// patch grid differs from the one it was trained on. `iv` is validated
// (validate_interventions: vit::Error naming the intervention and value). An
// allocation the trace cannot make is vit::Error naming the model, the input
// size and the memory the trace needs (out_of_memory in trace_budget.h).
// `keep`: every stage, or only the residual stream (TraceKeep in trace.h), its block
// stages then recomputed by recompute_block / for_each_stage; the rollout either way.
Trace forward(const Model& model, const Tensor& input, const Interventions& iv = {}, TraceKeep keep = TraceKeep::Every);

// Block `block`'s stages in catalogue order (ln1 … out) from a trace of `model`'s pass
// under `iv` (a Stream trace: the stream entering the block, ln1 normalised from it), run with the
// same kernels in the same order as the pass, so each equals the full trace's bit for bit.
// vit::Error when the model has no such block. Written over `reuse`'s storage (Trace::storage).
Trace recompute_block(const Model& model, const Trace& kept, int block, const Interventions& iv = {},
                      const PackedWeights* packed = nullptr, Trace reuse = {});
// `stream` (a Stream trace of `model`'s pass, or one seen through with_block) seen with
// block `block`'s stages recomputed (recompute_block, under the trace's interventions,
// `packed` as forward_into): the new trace holds them, written over `reuse`'s storage,
// and reads through to the stream for the rest (Trace::read_through).
std::shared_ptr<Trace> recompute_over(const Model& model, std::shared_ptr<const Trace> stream, int block,
                                      const PackedWeights* packed = nullptr, Trace reuse = {});
// recompute_over, except that a trace that keeps every stage, or block −1, comes back as is.
std::shared_ptr<const Trace> with_block(const Model& model, std::shared_ptr<const Trace> stream, int block,
                                        const PackedWeights* packed = nullptr);
// The stages of the pass that wrote `trace`, in catalogue order: those it holds, and for a
// Stream trace every stage of each block it kept (what with_block recomputes).
std::vector<StageRef> pass_stages(const ModelConfig& config, const Trace& trace);
// Visits every stage of `trace`'s pass in catalogue order: the stages it holds, and for a
// Stream trace each block's recomputed a block at a time (one block's held at once).
void for_each_stage(const Model& model, const Trace& trace, const Interventions& iv,
                    const std::function<void(const Stage&)>& visit);
// The same, writing into `trace`, without stage `rollout`: T³ products per
// block that nothing in the pass needs (add_rollout adds it when asked). A
// Trace from an earlier call of the same model and input size is reused
// without allocating (benchmarks, training). `packed`: the model's weights
// packed beforehand (packed_weights.h), or null to pack them as the pass goes.
void forward_into(const Model& model, const Tensor& input, Trace& trace, const Interventions& iv = {},
                  const PackedWeights* packed = nullptr);

// forward() a piece at a time, for a caller that must return between pieces
// (the app's sliced worker on a single-threaded page): the embedding, then
// each block, then the head, then the rollout. The same kernels in the same
// order: the trace is forward()'s bit for bit.
class ForwardWalk {
public:
    // Checks as forward() does (vit::Error). `model` and `input` must outlive the walk.
    // `packed` as forward_into (it must outlive the walk too); `reuse`: an earlier
    // trace of the same model and input size, whose storage the walk writes into
    // without allocating (as forward_into's `trace`); `keep` as forward().
    ForwardWalk(const Model& model, const Tensor& input, const Interventions& iv = {},
                const PackedWeights* packed = nullptr, Trace reuse = {}, TraceKeep keep = TraceKeep::Every);
    ~ForwardWalk();
    // Runs the next piece; false once the trace is complete. An allocation it cannot make is
    // vit::Error naming the model, its input size and its trace's size (trace_budget.h), as in forward().
    bool step();
    // The blocks run so far, from 0 to the model's depth (for a progress bar).
    int blocks_done() const;
    // The complete trace (running the pieces left, if any).
    Trace take();

private:
    bool next_piece();
    struct State;
    std::unique_ptr<State> state_;
};

// The same pass keeping no trace: only the class probabilities, in buffers
// reused from one call to the next (two per stage kind, whatever the depth).
// For many passes in a row (the occlusion map); the model needs a head.
class LeanPass {
public:
    // `allow_all_masked` as validate_interventions; `packed` as forward_into.
    const Tensor& probs(const Model& model, const Tensor& input, const Interventions& iv, bool allow_all_masked = false,
                        const PackedWeights* packed = nullptr);

private:
    std::vector<Tensor> buffers_;
};

}  // namespace vit
