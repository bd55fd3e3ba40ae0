// ExplainController: "Why this class?" (the Why screen, W) and the backward
// walk of the gradients (G). Each new trace is explained for its top class
// until the student picks another; the backward pass runs on the worker
// (logic/jobs/explanation.h) and its numbers are derived once per trace and
// class.
#pragma once
#include <cstdint>
#include <memory>

#include "controllers/app_context.h"
#include "controllers/ask_controller.h"
#include "logic/cache/derived_cache.h"
#include "logic/jobs/explanation.h"

namespace vit::gui {

class ExplainController {
public:
    ExplainController(AppContext& app, const AskController& ask, std::shared_ptr<Worker> worker)
        : app_(app), ask_(ask), explain_(std::move(worker)) {}

    void draw_why_screen(ViewContext& ctx);
    void draw_gradient_view(ViewContext& ctx);
    bool shown();  // the explanation on screen is for the current trace and class

private:
    void follow_class();  // a new trace: explain its top class
    void request();

    AppContext& app_;
    const AskController& ask_;
    ExplainJob explain_;
    int class_ = 0;
    uint64_t class_generation_ = ~0ull;  // the trace generation `class_` was chosen for
    DerivedCache grad_derived_;          // numbers the gradient views derive, apart from the values'
    uint64_t grad_derived_for_ = ~0ull;  // the (trace, class) they were derived for
};

}  // namespace vit::gui
