// The blocks of Stream traces recomputed for the views (see block_focus.h).
#include "logic/jobs/block_focus.h"

#include "pass/forward.h"

namespace vit::gui {

// The blocks of the plain and the modified pass, their difference, and one to step back to.
constexpr size_t kBlocksKept = 4;

void BlockFocus::follow(std::shared_ptr<const Model> model, std::shared_ptr<const PackedWeights> packed) {
    if (model != model_) recent_.clear();
    model_ = std::move(model);
    packed_ = std::move(packed);
}

std::shared_ptr<const Trace> BlockFocus::seen(const std::shared_ptr<const Trace>& trace, int block, bool& moved) {
    if (!trace || !model_ || trace->keep() == TraceKeep::Every || block < 0 || block >= model_->config.depth)
        return trace;
    const Trace* stream = trace->base() ? trace->base().get() : trace.get();
    auto it = recent_.begin();
    while (it != recent_.end() && !(it->stream == stream && it->block == block)) ++it;
    const Seen found =
        it != recent_.end() ? *it : Seen{stream, block, with_block(*model_, trace, block, packed_.get())};
    if (it != recent_.end()) recent_.erase(it);
    recent_.push_front(found);
    if (recent_.size() > kBlocksKept) recent_.pop_back();
    moved = found.trace.get() != last_;
    last_ = found.trace.get();
    return found.trace;
}

}  // namespace vit::gui
