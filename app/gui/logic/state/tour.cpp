// The tour plan and its frame driver.
#include "logic/state/tour.h"

#include <algorithm>
#include <cstdio>

namespace vit::gui {

std::string tour_file_name(int index, const std::string& name) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%02d-", index);
    return buf + name + ".png";
}

// The length of a file's leading number before its '-', 0 when it has none.
static size_t number_length(const std::string& file) {
    size_t n = 0;
    while (n < file.size() && file[n] >= '0' && file[n] <= '9') ++n;
    return n < file.size() && file[n] == '-' ? n : 0;
}

void pad_tour_numbers(std::vector<TourShot>& plan) {
    size_t width = 2;
    for (const TourShot& s : plan) {
        const size_t n = number_length(s.file);
        size_t start = 0;  // the number without its leading zeros
        while (start + 1 < n && s.file[start] == '0') ++start;
        width = std::max(width, n - start);
    }
    for (TourShot& s : plan)
        if (const size_t n = number_length(s.file); n > 0 && n < width) s.file.insert(0, width - n, '0');
}

// The stage the tour shows a screen on (screens.h).
static int tour_stage(const Pipeline& p, TourStage at) {
    switch (at) {
        case TourStage::FirstAttention: return std::max(0, p.index_of(StageRef{StageKind::Attn, 0}));
        case TourStage::LastBlockOutput: return p.index_of(StageRef{StageKind::Out, p.depth - 1});
        case TourStage::Last:
        case TourStage::None: break;
    }
    return p.size() - 1;
}

std::vector<TourShot> tour_plan(const Pipeline& p, bool gpu) {
    std::vector<TourShot> plan;
    auto numbered = [&](const std::string& name) { return tour_file_name(static_cast<int>(plan.size()), name); };
    for (int i = 0; i < p.size(); ++i) plan.push_back({i, Screen::Stage, tour_file_name(i, p.ids[i]), ShotKind::Stage});
    for (const ScreenInfo& screen : screen_table())
        if (screen.tour != TourStage::None && screen_lacks(screen.value, p.parts()).empty())
            plan.push_back({tour_stage(p, screen.tour), screen.value, numbered(screen.name), ShotKind::Screen});
    if (screen_lacks(Screen::Why, p.parts()).empty())  // the backward walk behind the Why screen
        for (const StageRef& s : {StageRef{StageKind::Attn, p.depth - 1}, StageRef{StageKind::Input}}) {
            const int i = p.index_of(s);
            plan.push_back({i, Screen::Stage, numbered("grad-" + p.ids[i]), ShotKind::Gradient});
        }
    if (p.depth > 0) {
        for (const StageKind kind : {StageKind::Scores, StageKind::Fc1, StageKind::Ln1}) {
            const StageRef stage{kind, 0};
            TourShot shot{p.index_of(stage), Screen::Stage, numbered("cell-" + stage_id(stage)),
                          ShotKind::CellProvenance};
            shot.cell = CellRef{stage, kind == StageKind::Scores ? 0 : -1, 1, 1};
            plan.push_back(shot);
        }
    }
    if (gpu)
        plan.push_back({tour_stage(p, TourStage::FirstAttention), Screen::Stage, numbered("gpu-difference"),
                        ShotKind::GpuDifference});
    pad_tour_numbers(plan);
    return plan;
}

TourShot window_shot(const Pipeline& p, ShotKind kind, int index) {
    return {p.depth > 0 ? tour_stage(p, TourStage::LastBlockOutput) : p.size() - 1,
            p.depth > 0 ? Screen::Attention : Screen::Stage,
            tour_file_name(index, kind == ShotKind::Ask ? "ask" : "draw"), kind};
}

void TourSchedule::end_frame() {
    if (done()) return;
    if (++frame_ >= kFramesPerShot) {
        frame_ = 0;
        ++shot_;
    }
}

}  // namespace vit::gui
