// The blocks of a Stream trace walked for the screens over every block (see block_walk.h).
#include "logic/jobs/block_walk.h"

#include <algorithm>

#include "findings/attention_distance.h"
#include "logic/describe/token_order.h"
#include "pass/forward.h"

namespace vit::gui {

const float* WalkedBlocks::row(int block, int head) const {
    if (block < 0 || block >= done || token < 0) return nullptr;
    const std::vector<float>& r = rows[static_cast<size_t>(block)];
    const size_t at = static_cast<size_t>(head) * static_cast<size_t>(tokens);
    return at + static_cast<size_t>(tokens) <= r.size() ? r.data() + at : nullptr;
}

BlockWalk::BlockWalk(std::shared_ptr<const Model> model, std::shared_ptr<const Trace> stream, int token)
    : model_(std::move(model)), stream_(std::move(stream)), token_(token) {}

WalkedBlocks BlockWalk::empty_result() const {
    WalkedBlocks w;
    w.stream = stream_.get();
    w.token = token_;
    const ModelConfig& c = model_->config;
    w.tokens = c.prefix_tokens() + static_cast<int>(stream_->at({StageKind::Patches}).rows());
    w.rows.resize(static_cast<size_t>(c.depth));
    w.distance.resize(static_cast<size_t>(c.depth));
    return w;
}

bool BlockWalk::step(WalkedBlocks& into, std::mutex& lock) {
    const int depth = model_->config.depth;
    if (next_ >= depth) return false;
    const Trace block = recompute_block(*model_, *stream_, next_, stream_->interventions());
    const Tensor& attn = block.at({StageKind::Attn, next_});
    const int N = static_cast<int>(stream_->at({StageKind::Patches}).rows());
    const int prefix = model_->config.prefix_tokens(), T = prefix + N, H = static_cast<int>(attn.shape[0]);
    const std::vector<int>& kept = stream_->token_patches();
    std::vector<float> square;
    const float* in_order = attn.data.data();
    if (tokens_reordered(kept, N)) {
        square = square_in_image_order(attn, kept, N, prefix);
        in_order = square.data();
    }
    std::vector<float> rows(static_cast<size_t>(H) * T);
    for (int h = 0; h < H; ++h)
        std::copy_n(in_order + (static_cast<size_t>(h) * T + token_) * T, T, rows.begin() + static_cast<size_t>(h) * T);
    std::vector<float> distance = mean_attention_distance(attn, patch_tokens(*stream_, model_->config));
    std::lock_guard<std::mutex> guard(lock);
    into.rows[static_cast<size_t>(next_)] = std::move(rows);
    into.distance[static_cast<size_t>(next_)] = std::move(distance);
    into.done = ++next_;
    return next_ < depth;
}

// One walk on the worker: its blocks land in `walked` as they finish.
class BlockWalkWork : public Job {
public:
    explicit BlockWalkWork(BlockWalk walk) : walk_(std::move(walk)), walked_(walk_.empty_result()) {}
    bool step() override {
        try {
            return walk_.step(walked_, mutex_);
        } catch (const std::exception&) {
            return false;  // the blocks walked so far stay; the screens say how many
        }
    }
    bool walks(const Trace* stream, int token) const { return walked_.stream == stream && walked_.token == token; }
    // The blocks walked so far, copied into `shown` when more have come.
    void copy_new(WalkedBlocks& shown) {
        std::lock_guard<std::mutex> guard(mutex_);
        if (shown.stream == walked_.stream && shown.token == walked_.token && shown.done == walked_.done) return;
        shown = walked_;
    }

private:
    BlockWalk walk_;
    std::mutex mutex_;
    WalkedBlocks walked_;
};

BlockWalkJob::BlockWalkJob(std::shared_ptr<Worker> worker) : worker_(std::move(worker)) {}

BlockWalkJob::~BlockWalkJob() = default;

void BlockWalkJob::request(std::shared_ptr<const Model> model, std::shared_ptr<const Trace> stream, int token) {
    if (!model || !stream || stream->keep() != TraceKeep::Stream) return;
    stream = stream_of(stream);
    if (job_ && job_->walks(stream.get(), token)) return;  // under way or done: the screens ask every frame
    task_.reset();
    job_ = std::make_shared<BlockWalkWork>(BlockWalk(std::move(model), std::move(stream), token));
    task_ = worker_->submit(job_);
}

const WalkedBlocks* BlockWalkJob::poll() {
    if (!job_) return nullptr;
    job_->copy_new(shown_);
    return &shown_;
}

}  // namespace vit::gui
