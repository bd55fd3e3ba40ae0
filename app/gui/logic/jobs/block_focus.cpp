// The blocks of Stream traces recomputed for the views (see block_focus.h).
#include "logic/jobs/block_focus.h"

#include "pass/forward.h"

namespace vit::gui {

// The blocks of the plain and the modified pass, their difference, and one to step back to;
// fewer when they are large (a block of ViT-B/16 at 1024 px holds 1.6 GB of attention).
constexpr size_t kBlocksKept = 4;
constexpr int64_t kKeptBytes = int64_t(1) << 30;

// The bytes of the stages a recomputed block holds itself.
static int64_t own_bytes(const Trace& block) {
    int64_t bytes = 0;
    for (const Stage& s : block.stages()) bytes += static_cast<int64_t>(s.tensor.data.size() * sizeof(float));
    return bytes;
}

void BlockFocus::follow(std::shared_ptr<const Model> model) {
    if (model != model_) {
        recent_.clear();
        spare_ = Trace{};
    }
    model_ = std::move(model);
}

void BlockFocus::let_go_of_oldest() {
    std::shared_ptr<Trace>& oldest = recent_.back().trace;
    if (oldest.use_count() == 1) spare_ = std::move(*oldest).storage();
    recent_.pop_back();
}

std::shared_ptr<const Trace> BlockFocus::seen(const std::shared_ptr<const Trace>& trace, int block) {
    if (!trace || !model_ || trace->keep() == TraceKeep::Every || block < 0 || block >= model_->config.depth)
        return trace;
    const Trace* stream = stream_of(trace).get();
    auto it = recent_.begin();
    while (it != recent_.end() && !(it->stream == stream && it->block == block)) ++it;
    Seen found{stream, block, nullptr};
    if (it != recent_.end()) {
        found = *it;
        recent_.erase(it);
    } else {  // room first: the new block is as large as those kept
        const int64_t each = recent_.empty() ? 0 : own_bytes(*recent_.front().trace);
        while (!recent_.empty() &&
               (recent_.size() >= kBlocksKept || each * static_cast<int64_t>(recent_.size() + 1) > kKeptBytes))
            let_go_of_oldest();
        found.trace = recompute_over(*model_, trace, block, nullptr, std::move(spare_));
    }
    recent_.push_front(found);
    return found.trace;
}

}  // namespace vit::gui
