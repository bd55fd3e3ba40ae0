// What the screens over every block (the model view, attention distance) read of a
// Stream trace (TraceKeep in core/pass/trace.h), which keeps no block's attention:
// its blocks recomputed on the worker one at a time (recompute_block, bit for bit the
// full trace's), each read and dropped, a block a piece, so the screens fill in as
// blocks finish. For one token: that token's attention row of every head of every
// block, in image order; and every block's mean attention distance per head.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "logic/jobs/worker.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit::gui {

struct WalkedBlocks {
    const Trace* stream = nullptr;             // the trace walked (by identity; the job holds it alive)
    int token = -1;                            // the token whose rows were kept, in image order
    int tokens = 0;                            // T in image order: the prefix tokens and every patch
    std::vector<std::vector<float>> rows;      // per block, once walked: H×T, head h's row of `token`
    std::vector<std::vector<float>> distance;  // per block, once walked: H mean attention distances (pixels)
    int done = 0;                              // the blocks walked so far, from block 0

    // Head `head`'s row of block `block`, T values in image order; null until walked.
    const float* row(int block, int head) const;
    bool complete() const { return done == static_cast<int>(rows.size()); }
};

// The walk of one stream for one token, a block a piece (synchronous; the job runs it).
class BlockWalk {
public:
    BlockWalk(std::shared_ptr<const Model> model, std::shared_ptr<const Trace> stream, int token);
    // Walks the next block into `into` (under `lock`); false once every block is walked.
    bool step(WalkedBlocks& into, std::mutex& lock);
    WalkedBlocks empty_result() const;

private:
    std::shared_ptr<const Model> model_;
    std::shared_ptr<const Trace> stream_;
    int token_;
    int next_ = 0;
};

class BlockWalkWork;

class BlockWalkJob {
public:
    explicit BlockWalkJob(std::shared_ptr<Worker> worker);
    ~BlockWalkJob();  // cancels the walk under way
    // Walks `stream` for `token` unless that walk is under way or done; a walk of another
    // stream or token is cancelled first. A trace that keeps every stage needs none.
    void request(std::shared_ptr<const Model> model, std::shared_ptr<const Trace> stream, int token);
    // The blocks walked so far of the newest walk (null before the first).
    const WalkedBlocks* poll();

private:
    std::shared_ptr<Worker> worker_;
    WalkedBlocks shown_;  // the UI thread's copy
    std::shared_ptr<BlockWalkWork> job_;
    std::unique_ptr<Task> task_;  // last: destroyed first, cancelling the walk
};

}  // namespace vit::gui
