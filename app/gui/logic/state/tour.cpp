// The tour plan and its frame driver.
#include "logic/state/tour.h"

#include <cstdio>

namespace vit::gui {

std::string tour_file_name(int index, const std::string& name) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%02d-", index);
    return buf + name + ".png";
}

std::vector<TourShot> tour_plan(const Pipeline& p, bool gpu) {
    std::vector<TourShot> plan;
    for (int i = 0; i < p.size(); ++i) plan.push_back({i, Screen::Stage, tour_file_name(i, p.ids[i])});
    if (p.depth > 0) {
        plan.push_back({p.size() - 1, Screen::Attention, "attention.png"});
        plan.push_back({p.size() - 1, Screen::ModelView, "model-view.png"});
    }
    int attn = p.index_of(StageRef{StageKind::Attn, 0});
    plan.push_back({attn >= 0 ? attn : 0, Screen::Overview, "overview.png"});
    if (p.depth > 0 && p.index_of(StageRef{StageKind::Logits}) >= 0) {
        plan.push_back({p.size() - 1, Screen::Why, tour_file_name(static_cast<int>(plan.size()), "why")});
        for (const StageRef& s : {StageRef{StageKind::Attn, p.depth - 1}, StageRef{StageKind::Input}}) {
            const int i = p.index_of(s);
            plan.push_back({i, Screen::Stage, tour_file_name(static_cast<int>(plan.size()), "grad-" + p.ids[i]), true});
        }
    }
    if (p.depth > 0) {
        for (const StageKind kind : {StageKind::Scores, StageKind::Fc1, StageKind::Ln1}) {
            const StageRef stage{kind, 0};
            TourShot shot{p.index_of(stage), Screen::Stage, tour_file_name(static_cast<int>(plan.size()), "cell-" + stage_id(stage))};
            shot.cell = CellRef{stage, kind == StageKind::Scores ? 0 : -1, 1, 1};
            plan.push_back(shot);
        }
    }
    if (gpu) {
        plan.push_back({attn >= 0 ? attn : 0, Screen::Stage,
                        tour_file_name(static_cast<int>(plan.size()), "gpu-difference")});
    }
    return plan;
}

void TourDriver::end_frame() {
    if (done()) return;
    if (++frame_ >= kFramesPerShot) {
        frame_ = 0;
        ++shot_;
    }
}

}  // namespace vit::gui
