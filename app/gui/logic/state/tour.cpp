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

std::vector<TourShot> tour_plan(const Pipeline& p, bool gpu) {
    std::vector<TourShot> plan;
    auto numbered = [&](const std::string& name) { return tour_file_name(static_cast<int>(plan.size()), name); };
    for (int i = 0; i < p.size(); ++i) plan.push_back({i, Screen::Stage, tour_file_name(i, p.ids[i]), ShotKind::Stage});
    auto screen_shot = [&](int stage, Screen screen) {
        plan.push_back({stage, screen, std::string(screen_name(screen)) + ".png", ShotKind::Screen});
    };
    if (p.depth > 0) {
        screen_shot(p.size() - 1, Screen::Attention);
        screen_shot(p.size() - 1, Screen::ModelView);
    }
    const int attn = std::max(0, p.index_of(StageRef{StageKind::Attn, 0}));
    screen_shot(attn, Screen::Overview);
    if (p.depth > 0 && p.index_of(StageRef{StageKind::Logits}) >= 0) {
        plan.push_back({p.size() - 1, Screen::Why, numbered(screen_name(Screen::Why)), ShotKind::Screen});
        for (const StageRef& s : {StageRef{StageKind::Attn, p.depth - 1}, StageRef{StageKind::Input}}) {
            const int i = p.index_of(s);
            plan.push_back({i, Screen::Stage, numbered("grad-" + p.ids[i]), ShotKind::Gradient});
        }
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
    if (p.depth > 0)  // on the last block's output, so the findings of one block show the last block
        for (const Screen screen : findings_screens())
            if (screen != Screen::ClsMasks || p.layout.has_cls())  // no CLS token: no CLS attention to mask
                plan.push_back({p.index_of(StageRef{StageKind::Out, p.depth - 1}), screen,
                                numbered(screen_name(screen)), ShotKind::Screen});
    if (gpu) plan.push_back({attn, Screen::Stage, numbered("gpu-difference"), ShotKind::GpuDifference});
    pad_tour_numbers(plan);
    return plan;
}

TourShot window_shot(const Pipeline& p, ShotKind kind, int index) {
    return {p.size() - 1, p.depth > 0 ? Screen::Attention : Screen::Stage,
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
