// ExplainController (controllers/explain_controller.h): the Why screen and the
// gradient view, over one explanation job.
#include "controllers/explain_controller.h"

#include "views/widgets/views.h"

namespace vit::gui {

void ExplainController::follow_class() {
    if (class_generation_ == app_.generation) return;
    class_generation_ = app_.generation;
    class_ = top_class(*app_.trace);
}

void ExplainController::request() {
    follow_class();
    explain_.request(app_.model, app_.trace, app_.generation, class_, ask_.results().asked);
}

void ExplainController::draw_why_screen(ViewContext& ctx) {
    request();
    DrawWhyScreen(ctx, explain_.poll(), class_, explain_.busy());
}

void ExplainController::draw_gradient_view(ViewContext& ctx) {
    request();
    const uint64_t question = app_.generation << 16 | static_cast<uint64_t>(class_ & 0xffff);
    if (grad_derived_for_ != question) grad_derived_.clear(), grad_derived_for_ = question;
    DrawGradientView(ctx, explain_.poll(), class_, explain_.busy(), grad_derived_);
}

bool ExplainController::shown() {
    const Explanation* ex = explain_.poll();
    return ex && ex->answers(app_.generation, class_);
}

}  // namespace vit::gui
