// A Stream trace (TraceKeep in core/pass/trace.h) as the views see it: the block on
// screen recomputed (recompute_over in core/pass/forward.h) over the stages the trace
// keeps, so a view reads every stage of that block as from a full trace. A trace that
// keeps every stage is seen as it is. The last few blocks seen stay, so stepping back
// to one is immediate; each holds its stream alive. A block let go that no view holds
// lends its storage to the next block recomputed (no allocation, no page faults).
#pragma once
#include <deque>
#include <memory>

#include "model/model.h"
#include "pass/trace.h"

namespace vit::gui {

class BlockFocus {
public:
    // The model whose traces are seen from now on; forgets the blocks seen of the model before.
    void follow(std::shared_ptr<const Model> model);
    // `trace` with block `block`'s stages (−1: none beyond what it holds), recomputed
    // once and kept while it is among the last few seen.
    std::shared_ptr<const Trace> seen(const std::shared_ptr<const Trace>& trace, int block);

private:
    struct Seen {
        const Trace* stream;
        int block;
        std::shared_ptr<Trace> trace;
    };
    void let_go_of_oldest();

    std::shared_ptr<const Model> model_;
    std::deque<Seen> recent_;  // newest first
    Trace spare_;              // the storage of the last block let go
};

}  // namespace vit::gui
