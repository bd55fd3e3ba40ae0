// App::show_view: the window's title names the view ("block0.attn · digits ·
// ViT Visualizer", in a lesson "… · step 2/11") and a page's link follows it
// (logic/link/view_link.h), both set only when they change; App::view_summary
// says what the screen shows in a few words, with how much of it is pictures and what text it cut.
#include <imgui.h>

#include <algorithm>
#include <filesystem>

#include "controllers/app.h"
#include "logic/ask/pass_banner.h"
#include "logic/jobs/explanation.h"
#include "logic/link/view_link.h"
#include "loading/builtin.h"
#include "services/host_window.h"
#include "views/widgets/drawn_screen.h"

namespace vit::gui {

namespace fs = std::filesystem;

// `path` relative to `folder` when it is inside it; "" otherwise.
static std::string inside(const std::string& path, const std::string& folder) {
    if (path.empty() || folder.empty()) return "";
    const fs::path relative = fs::path(path).lexically_normal().lexically_relative(fs::path(folder).lexically_normal());
    return relative.empty() || *relative.begin() == ".." ? "" : relative.generic_string();
}

void App::show_view() {
    if (!trace_ || pipeline_.ids.empty()) return;
    const LessonPlayer* lesson = lessons_.player();
    const bool in_lesson = lesson && lesson->steps() > 0;
    ViewLink link;
    if (in_lesson) {
        const std::string file = inside(lesson->path, (fs::path(asset_dir_) / "lessons").string());
        link.lesson = file.empty() ? "" : fs::path(file).stem().string();
        link.step = lesson->index + 1;
    }
    if (!in_lesson || link.lesson.empty()) {  // a built-in lesson's step says the rest
        link.model = is_named_model(model_name_) ? model_name_ : "";
        if (image_path_ != model_image(model_name_)) link.image = inside(image_path_, asset_dir_);
        link.view = capture_view(state_, pipeline_);
    }
    const std::string& model = is_named_model(model_name_) ? model_name_ : model_->config.name;
    std::string title =
        view_title(shown_stage(), model, in_lesson ? lesson->index + 1 : 0, in_lesson ? lesson->steps() : 0);
    if (title != shown_title_) set_window_title(shown_title_ = title);
    std::string query = view_link_query(link);
    if (query != shown_link_) show_view_link(shown_link_ = query);
}

int App::shown_index() const { return std::min(state_.stage, pipeline_.size() - 1); }

std::string App::shown_stage() const { return pipeline_.ids.empty() ? "" : pipeline_.ids[shown_index()]; }

App::ViewSummary App::view_summary() const {
    ViewSummary v;
    if (!pictured()) return v;
    v.ready = true;
    v.model = model_name_;
    v.image = image_name_;
    v.stage = shown_stage();
    v.token = state_.token;
    v.tokens = pipeline_.tokens;
    v.link = shown_link_;
    v.modified = modified_pass_text(ask_.results().asked, state_.ask.show);
    if (training_.session().latest()) v.train_step = training_.session().progress().step;
    v.drawing = draw_.visible;
    v.editor = lessons_.editor().visible;
    if (const std::optional<CellRef>& c = state_.cell;
        c && c->stage == pipeline_.stages[shown_index()] && !state_.gradients)
        v.cell_row = c->row, v.cell_col = c->col;
    if (const Tensor* probs = trace_->tensor({StageKind::Probs}); probs && !probs->data.empty()) {
        v.top_class = top_class(*trace_);
        v.top_probability = probs->data[static_cast<size_t>(v.top_class)];
    }
    const ImVec2 window = ImGui::GetIO().DisplaySize;
    v.picture_share = covered_share(drawn_rects(ImGui::GetDrawData(), Drawn::Pictures), int(window.x), int(window.y));
    v.clipped = clipped_text();
    return v;
}

}  // namespace vit::gui
