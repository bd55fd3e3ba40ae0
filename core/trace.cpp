// Trace storage and the ordered list of stage ids from DESIGN.md's catalogue.
#include "trace.h"

#include "error.h"

namespace vit {

Tensor& Trace::add(const std::string& id, int block, std::vector<int64_t> shape) {
    stages_.push_back(Stage{id, block, Tensor(std::move(shape))});
    return stages_.back().tensor;
}

Tensor& Trace::put(size_t index, const std::string& id, int block, const std::vector<int64_t>& shape) {
    if (index == stages_.size()) return add(id, block, shape);
    Stage& s = stages_.at(index);
    s.id = id;
    s.block = block;
    if (s.tensor.shape != shape) s.tensor = Tensor(shape);
    return s.tensor;
}

void Trace::truncate(size_t count) {
    if (count < stages_.size()) stages_.resize(count);
}

const Stage* Trace::find(const std::string& id) const {
    for (const Stage& s : stages_)
        if (s.id == id) return &s;
    return nullptr;
}

Stage* Trace::find(const std::string& id) {
    for (Stage& s : stages_)
        if (s.id == id) return &s;
    return nullptr;
}

const Tensor& Trace::at(const std::string& id) const {
    const Stage* s = find(id);
    if (!s) throw Error("trace has no stage '" + id + "'");
    return s->tensor;
}

std::string block_stage_id(int block, const char* name) {
    return "block" + std::to_string(block) + "." + name;
}

static const char* const kBlockStages[] = {"ln1",      "q",   "k",   "v",   "scores",  "attn", "context", "attn_out",
                                           "res1",     "ln2", "fc1", "gelu", "mlp_out", "out"};

std::vector<std::string> stage_ids(int depth, bool has_head) {
    std::vector<std::string> ids = {"input", "patches", "patch_embed", "cls", "tokens"};
    for (int b = 0; b < depth; ++b)
        for (const char* name : kBlockStages) ids.push_back(block_stage_id(b, name));
    ids.push_back("norm");
    if (has_head) {
        ids.push_back("logits");
        ids.push_back("probs");
    }
    ids.push_back("rollout");
    return ids;
}

}  // namespace vit
