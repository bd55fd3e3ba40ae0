// Trace storage: stages in order, found by id or by catalogue row and block.
#include "pass/trace.h"

#include "base/error.h"

namespace vit {

bool keeps(TraceKeep keep, StageKind kind) {
    return keep == TraceKeep::Every || stage_def(kind).group != StageGroup::Block || kind == StageKind::Out;
}

Tensor& Trace::add(const StageRef& stage, std::vector<int64_t> shape) {
    stages_.push_back(Stage{stage_id(stage), stage.kind, stage.block, Tensor(std::move(shape))});
    return stages_.back().tensor;
}

Tensor& Trace::put(size_t index, const StageRef& stage, const std::vector<int64_t>& shape) {
    if (index == stages_.size()) return add(stage, shape);
    Stage& s = stages_.at(index);
    if (s.ref() != stage) {
        s.id = stage_id(stage);
        s.kind = stage.kind;
        s.block = stage.block;
    }
    if (s.tensor.shape != shape) s.tensor = Tensor(shape);
    return s.tensor;
}

void Trace::read_through(std::shared_ptr<const Trace> base) {
    keep_ = base->keep_;
    interventions_ = base->interventions_;
    embedded_patches_ = base->embedded_patches_;
    token_patches_ = base->token_patches_;
    base_ = std::move(base);
}

Trace Trace::storage() && {
    Trace t;
    t.stages_ = std::move(stages_);
    stages_.clear();
    return t;
}

void Trace::truncate(size_t count) {
    if (count < stages_.size()) stages_.resize(count);
}

const Stage* Trace::find(const std::string& id) const {
    for (const Stage& s : stages_)
        if (s.id == id) return &s;
    return base_ ? base_->find(id) : nullptr;
}

Stage* Trace::find(const std::string& id) {
    for (Stage& s : stages_)
        if (s.id == id) return &s;
    return nullptr;
}

const Stage* Trace::find(const StageRef& stage) const {
    for (const Stage& s : stages_)
        if (s.ref() == stage) return &s;
    return base_ ? base_->find(stage) : nullptr;
}

const Tensor* Trace::tensor(const StageRef& stage) const {
    const Stage* s = find(stage);
    return s ? &s->tensor : nullptr;
}

Stage* Trace::find(const StageRef& stage) {
    for (Stage& s : stages_)
        if (s.ref() == stage) return &s;
    return nullptr;
}

const Tensor& Trace::at(const StageRef& stage) const { return at(stage_id(stage)); }

const Tensor& Trace::at(const std::string& id) const {
    const Stage* s = find(id);
    if (!s) throw Error("trace has no stage '" + id + "'");
    return s->tensor;
}

}  // namespace vit
