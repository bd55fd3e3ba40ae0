// The CPU vs GPU panel.
#include "panels/backend_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vit::gui {

static std::string sci(float v) {
    if (std::isinf(v)) return "inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

static void Dim(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

bool BackendPanelVisible(const AppState& state, const GpuStatus& gpu) {
    return state.backend == Backend::Gpu || gpu.failed;
}

static void DrawFailure(ViewContext& ctx, const GpuStatus& st) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.f, 0.45f, 0.4f, 1.f));
    ImGui::TextWrapped("GPU backend unavailable: %s", first_line(st.error).c_str());
    ImGui::PopStyleColor();
    ImGui::TextWrapped("Carrying on with the CPU core (every view works the same).");
    size_t nl = st.error.find('\n');
    if (nl != std::string::npos) {
        ImGui::TextDisabled("compile log:");
        ImGui::PushFont(ctx.mono());
        ImGui::BeginChild("gpu-log", ImVec2(0, 0), true);
        ImGui::PushTextWrapPos(0.f);
        ImGui::TextUnformatted(st.error.c_str() + nl + 1);
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        ImGui::PopFont();
    }
}

void DrawBackendPanel(ViewContext& ctx, const GpuComparison& gpu) {
    ImGui::PushFont(ctx.heading());
    ImGui::TextUnformatted("CPU vs GPU");
    ImGui::PopFont();
    if (gpu.status.failed) {
        DrawFailure(ctx, gpu.status);
        return;
    }
    if (!gpu.has_result) {
        Dim("Choose GPU in the toolbar to run the same pass in compute shaders.");
        return;
    }
    Dim(gpu.device);
    ImGui::TextWrapped("CPU core %.2f ms (Eigen, worker thread)", gpu.cpu_ms);
    ImGui::TextWrapped("GPU %.2f ms (GL timer), %.1f ms with the read-back of every stage", gpu.gpu_ms,
                       gpu.gpu_wall_ms);

    const TraceDiff& d = gpu.diff;
    if (const StageDiff* w = d.worst()) {
        if (!w->problem.empty()) {
            ImGui::TextColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "%s: %s", w->id.c_str(), w->problem.c_str());
        } else {
            ImGui::TextWrapped("largest |gpu - cpu| of all stages: %s in %s %s", sci(w->gpu.max_abs).c_str(),
                               w->id.c_str(), index_string(w->gpu.where).c_str());
        }
    }
    bool ok = d.all_within();
    ImGui::PushStyleColor(ImGuiCol_Text, ok ? ImVec4(0.5f, 0.9f, 0.5f, 1.f) : ImVec4(1.f, 0.6f, 0.3f, 1.f));
    ImGui::TextWrapped("%s %s", ok ? "every stage within" : "some stage is outside", gpu_tolerance_rule().c_str());
    ImGui::PopStyleColor();

    const std::string& id = ctx.stage_id();
    const StageDiff* s = d.find(id);
    ImGui::Separator();
    if (!s) {
        ImGui::TextDisabled("%s: not compared", id.c_str());
        return;
    }
    if (!s->problem.empty()) {
        ImGui::TextColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "%s: %s", id.c_str(), s->problem.c_str());
        return;
    }
    ImGui::TextWrapped("this stage (%s): max |gpu - cpu| %s at %s, %.0f%% of its tolerance", id.c_str(),
                       sci(s->gpu.max_abs).c_str(), index_string(s->gpu.where).c_str(), 100 * s->gpu.tolerance_used);
    char values[64];
    std::snprintf(values, sizeof values, "there: cpu %.7g, gpu %.7g", s->gpu.want, s->gpu.got);
    Dim(values);

    const Tensor* diff = gpu.difference(id);
    if (!diff) return;
    // A stage of matrices (heads, channels): the selected head, else the one holding the largest difference.
    int slice = -1;
    if (diff->rank() == 3) {
        slice = ctx.state.head >= 0 && ctx.state.head < diff->shape[0]
                    ? ctx.state.head
                    : static_cast<int>(s->gpu.where.empty() ? 0 : s->gpu.where[0]);
    }
    MatrixView m = matrix_of(*diff, slice);
    float hi = 0.f;
    for (int i = 0; i < m.rows * m.cols; ++i) hi = std::max(hi, m.data[i]);
    HeatmapSpec h;
    // Of the GPU's pass, not the trace on screen.
    const CacheKey key = stage_key(gpu.pass, ctx.stage(), slice, Colormap::Sequential, Purpose::GpuDifference);
    h.matrix = {key, m.data, m.rows, m.cols, Colormap::Sequential, Range{0.f, hi > 0.f ? hi : 1e-7f}};
    h.labels = {"|gpu - cpu|  " + id + (slice >= 0 ? "  [" + std::to_string(slice) + "]" : std::string()) +
                    (hi == 0.f ? "  (identical)" : ""),
                "row",
                "column",
                {},
                [](float v) { return sci(v); }};
    h.token_rows.enabled = false;
    h.layout.numbers = false;
    h.layout.size = ImGui::GetContentRegionAvail();
    DrawHeatmap(ctx.cache, h);
}

}  // namespace vit::gui
