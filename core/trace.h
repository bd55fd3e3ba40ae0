// The Trace: every stage of one forward pass, in order, as DESIGN.md's stage
// catalogue names them (`input`, `patches`, …, `block3.attn`, …, `rollout`).
// It is the only contract between computation (CPU core, GPU backend) and
// display (app views, CLI dumps, tests).
#pragma once
#include <deque>
#include <string>
#include <vector>

#include "tensor.h"

namespace vit {

struct Stage {
    std::string id;   // e.g. "block0.attn"
    int block = -1;   // encoder block index, -1 outside the blocks
    Tensor tensor;
};

class Trace {
public:
    // Appends a zero-filled stage and returns its tensor for the caller to fill.
    // References stay valid as more stages are added.
    Tensor& add(const std::string& id, int block, std::vector<int64_t> shape);
    // Makes stage `index` (at most size()) this id and shape and returns its
    // tensor; a stage already there with the same shape keeps its storage (and
    // stale contents), so a forward pass can reuse the previous Trace's memory.
    Tensor& put(size_t index, const std::string& id, int block, const std::vector<int64_t>& shape);
    // Drops every stage from `count` on.
    void truncate(size_t count);
    const Stage* find(const std::string& id) const;
    Stage* find(const std::string& id);
    // The stage with this id; throws vit::Error if the trace has none.
    const Tensor& at(const std::string& id) const;
    const std::deque<Stage>& stages() const { return stages_; }
    size_t size() const { return stages_.size(); }

private:
    std::deque<Stage> stages_;
};

// "block3.attn" for (3, "attn").
std::string block_stage_id(int block, const char* name);

// The ids of every stage a model of `depth` blocks produces, in order; with
// `has_head` false (a headless checkpoint such as DINO) there is no logits/probs.
std::vector<std::string> stage_ids(int depth, bool has_head);

}  // namespace vit
