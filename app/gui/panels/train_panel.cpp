// The "Train it yourself" panel's content (see train_panel.h).
#include "panels/train_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "views/widgets/digit_widgets.h"
#include "views/widgets/line_chart.h"

namespace vit::gui {

static const char* phase_name(TrainPhase phase) {
    switch (phase) {
        case TrainPhase::Idle: return "not started";
        case TrainPhase::Running: return "training";
        case TrainPhase::Paused: return "paused";
        case TrainPhase::Finished: return "finished";
        case TrainPhase::Failed: return "failed";
    }
    return "";
}

// The settings of the next run and the Start button.
static void DrawSettings(TrainPanelState& panel, TrainingSession& session, const TrainProgress& progress,
                         TrainActions& actions) {
    const float field = ImGui::GetFontSize() * 7.f;
    ImGui::TextUnformatted("start from");
    ImGui::SameLine();
    if (ImGui::RadioButton("random weights", !panel.from_shipped)) panel.from_shipped = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("the shipped digits model", panel.from_shipped)) panel.from_shipped = true;
    ImGui::SetNextItemWidth(field);
    ImGui::InputInt("epochs", &panel.epochs);
    panel.epochs = std::clamp(panel.epochs, 1, 200);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field);
    ImGui::InputInt("seed", &panel.seed);
    panel.seed = std::max(0, panel.seed);
    // Live: the running session takes them before its next batch.
    ImGui::SetNextItemWidth(field * 1.2f);
    // A batch typed in (Ctrl+click) stays in the slider's range; a rate may go past it, and a run that
    // diverges stops with a message (core/train/training.h).
    if (ImGui::SliderInt("batch", &panel.batch, 1, 128, "%d", ImGuiSliderFlags_AlwaysClamp))
        session.set_batch(panel.batch);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field * 1.2f);
    if (ImGui::SliderFloat("peak learning rate", &panel.lr, 1e-4f, 1e-2f, "%.1e", ImGuiSliderFlags_Logarithmic))
        session.set_peak_lr(panel.lr);
    const bool started = progress.phase != TrainPhase::Idle;
    if (ImGui::Button(started ? "Restart" : "Start training")) actions.start = true;
    ImGui::SameLine();
    if (progress.phase == TrainPhase::Running) {
        if (ImGui::Button("Pause")) session.pause();
    } else if (progress.phase == TrainPhase::Paused) {
        if (ImGui::Button("Resume")) session.resume();
        ImGui::SameLine();
        if (ImGui::Button("One step")) session.step_once();
    }
    if (!started) return;
    ImGui::SameLine(0, 24);
    ImGui::SetNextItemWidth(field * 1.8f);
    ImGui::InputText("##savedir", panel.save_dir, sizeof panel.save_dir);
    ImGui::SameLine();
    if (ImGui::Button("Save")) actions.save = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("saves the shown snapshot as model.safetensors + config.json in this folder");
}

static void DrawStatus(const TrainProgress& progress) {
    if (progress.phase == TrainPhase::Failed) {
        ImGui::TextColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "training failed: %s", progress.error.c_str());
        return;
    }
    // One line, so the strip stays short and the picture above it large: the batch size is on its slider
    // above, the run's length in "step … of …".
    ImGui::TextWrapped("%s · epoch %.2f · step %d of %d · lr %.1e · %.0f ms/step", phase_name(progress.phase),
                       static_cast<float>(progress.step) / std::max(1, progress.steps_per_epoch), progress.step,
                       progress.total_steps, progress.lr, progress.ms_per_step);
}

// Loss (raw batches faint, a running mean bold) and held-out accuracy, side by side in `width`, `height` tall.
static void DrawCurves(const TrainProgress& progress, float marker_epoch, float width, float height) {
    const float epochs =
        std::max(1.f, static_cast<float>(progress.total_steps) / std::max(1, progress.steps_per_epoch));
    std::vector<ImVec2> raw, smooth, accuracy;
    float mean = 0.f, worst = 0.5f;
    for (size_t i = 0; i < progress.loss.size(); ++i) {
        const TrainPoint& p = progress.loss[i];
        mean = i == 0 ? p.value : 0.95f * mean + 0.05f * p.value;
        raw.push_back(ImVec2(p.epoch, p.value));
        smooth.push_back(ImVec2(p.epoch, mean));
        worst = std::max(worst, p.value);
    }
    for (const TrainPoint& p : progress.accuracy) accuracy.push_back(ImVec2(p.epoch, p.value));
    const ImVec2 size((width - ImGui::GetStyle().ItemSpacing.x) * 0.5f, height);
    char title[96] = "cross-entropy loss";
    if (!smooth.empty()) std::snprintf(title, sizeof title, "cross-entropy loss: %.3f", smooth.back().y);
    ChartAxes loss{title,  "epoch",
                   "loss", epochs,
                   0.f,    std::min(std::ceil(worst * 2.f) / 2.f, 3.f),
                   false,  IM_COL32(90, 200, 255, 255)};
    DrawLineChart(loss, raw, smooth, size, marker_epoch);
    ImGui::SameLine();
    if (!accuracy.empty()) std::snprintf(title, sizeof title, "held-out accuracy: %.1f %%", 100.f * accuracy.back().y);
    else std::snprintf(title, sizeof title, "held-out accuracy");
    ChartAxes acc{title, "epoch", "correct", epochs, 0.f, 1.f, true, IM_COL32(110, 220, 120, 255)};
    DrawLineChart(acc, {}, accuracy, size, marker_epoch);
}

// The timeline: which snapshot the main view shows.
static void DrawTimeline(TrainPanelState& panel, const TrainProgress& progress) {
    const int count = static_cast<int>(progress.snapshots.size());
    if (count == 0) return;
    if (panel.follow) panel.snapshot = count - 1;
    panel.snapshot = std::clamp(panel.snapshot, 0, count - 1);
    const TrainSnapshot& s = progress.snapshots[static_cast<size_t>(panel.snapshot)];
    char label[96];
    if (s.accuracy >= 0.f)
        std::snprintf(label, sizeof label, "step %d · epoch %.2f · held-out %.1f %%", s.step, s.epoch,
                      100.f * s.accuracy);
    else std::snprintf(label, sizeof label, "step %d · epoch %.2f", s.step, s.epoch);
    ImGui::SetNextItemWidth(ImGui::CalcItemWidth() - ImGui::CalcTextSize("follow the newest").x -
                            ImGui::GetFontSize() * 3.f);
    if (ImGui::SliderInt("##snapshot", &panel.snapshot, 0, count - 1, label)) panel.follow = false;
    ImGui::SameLine();
    ImGui::Checkbox("follow the newest", &panel.follow);
}

// The probe digit: which held-out digit the main view runs, and what the shown snapshot says.
static void DrawProbe(TrainPanelState& panel, const Trace* trace, const Model* model) {
    if (!panel.data || panel.data->held_out.size() == 0) return;
    const DigitSet& held = panel.data->held_out;
    panel.probe = std::clamp(panel.probe, 0, held.size() - 1);
    ImGui::BeginGroup();
    DrawGreyImage(digit_image(held, panel.probe), std::max(3.f, ImGui::GetFontSize() * 0.22f));
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::Text("probe: held-out digit %d of %d, a %d", panel.probe + 1, held.size(), held.labels[panel.probe]);
    if (ImGui::ArrowButton("##probe_prev", ImGuiDir_Left)) panel.probe = (panel.probe + held.size() - 1) % held.size();
    ImGui::SameLine();
    if (ImGui::ArrowButton("##probe_next", ImGuiDir_Right)) panel.probe = (panel.probe + 1) % held.size();
    ImGui::SameLine();
    ImGui::TextDisabled("every view shows this digit");
    if (trace && model) DrawTopPredictions(*trace, *model, 3, "the shown snapshot predicts");
    ImGui::EndGroup();
}

// Three columns for a strip under the views: the settings, status and timeline; the curves as tall as
// they are; the probe digit where there is room.
void DrawTrainPanel(TrainPanelState& panel, TrainingSession& session, const TrainProgress& progress, const Trace* trace,
                    const Model* model, TrainActions& actions) {
    if (!panel.visible) return;
    const float fs = ImGui::GetFontSize(), settings_w = fs * 30.f, probe_w = fs * 22.f;
    const float left = ImGui::GetCursorPosX();
    ImGui::BeginGroup();
    ImGui::PushItemWidth(settings_w);
    ImGui::PushTextWrapPos(left + settings_w);
    DrawSettings(panel, session, progress, actions);
    if (progress.phase == TrainPhase::Idle) {
        ImGui::TextWrapped(
            "Trains a ViT of the digits model's shape (4 blocks, 4 heads, width 64) on the 8,016 training "
            "digits shipped with the app, and checks it on the 2,004 held-out ones. Watch the heads of "
            "the attention screen go from noise to the strokes of the digit.");
    } else {
        DrawStatus(progress);
        DrawTimeline(panel, progress);
    }
    ImGui::PopTextWrapPos();
    ImGui::PopItemWidth();
    ImGui::EndGroup();
    if (progress.phase == TrainPhase::Idle) return;
    const float height = std::max(fs * 8.f, ImGui::GetItemRectSize().y);
    ImGui::SameLine(0, 24);
    const TrainSnapshot* shown = choose_snapshot(progress, panel.follow, panel.snapshot);
    // A narrow strip (a lesson's large font) keeps the curves readable and leaves out the probe, which the view shows.
    const float rest = ImGui::GetContentRegionAvail().x;
    const bool probe = rest - probe_w - 24.f >= fs * 28.f;
    DrawCurves(progress, shown ? shown->epoch : -1.f, std::max(fs * 20.f, probe ? rest - probe_w - 24.f : rest),
               height);
    if (!probe) return;
    ImGui::SameLine(0, 24);
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + probe_w);
    DrawProbe(panel, trace, model);
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
}

}  // namespace vit::gui
