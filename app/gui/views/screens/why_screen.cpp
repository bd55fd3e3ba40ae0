// "Why this class?": for the class picked from the prediction (the top one at
// first), Chefer et al.'s relevance over the image beside attention rollout
// (which is the same for every class) and the input-gradient saliency.
#include <algorithm>
#include <cstdio>
#include <numeric>

#include "views/widgets/views.h"

namespace vit::gui {

// The classes to choose from: the top five, each a selectable line with its probability.
static void DrawClassPicker(ViewContext& ctx, int& chosen) {
    const Tensor* probs = ctx.tensor({StageKind::Probs});
    if (!probs) return;
    const FloatStorage& p = probs->data;
    std::vector<int> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    const int top = std::min<int>(5, static_cast<int>(order.size()));
    std::partial_sort(order.begin(), order.begin() + top, order.end(), [&](int a, int b) { return p[a] > p[b]; });
    const std::vector<std::string>& labels = ctx.model.config.labels;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("explain the class:");
    for (int i = 0; i < top; ++i) {
        const int c = order[i];
        char line[160];
        std::snprintf(line, sizeof line, "%s  %.1f %%",
                      c < static_cast<int>(labels.size()) ? labels[c].c_str() : std::to_string(c).c_str(),
                      100.f * p[c]);
        const float w = ImGui::CalcTextSize(line).x + 8.f;
        SameLineOrWrap(w, 16.f);
        ImGui::PushID(c);
        if (ImGui::Selectable(line, c == chosen, 0, ImVec2(w, 0))) chosen = c;
        ImGui::PopID();
    }
}

static void MapTitle(const std::string& title, const std::string& subtitle, float side) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float lh = ImGui::GetTextLineHeight();
    FittedText(dl, at, side, title, ImGui::GetColorU32(ImGuiCol_Text));
    FittedText(dl, ImVec2(at.x, at.y + lh), side, subtitle, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::Dummy(ImVec2(side, 2 * lh));
}

static void PatchMap(ViewContext& ctx, const std::string& title, const std::string& subtitle, const float* values,
                     const CacheKey& key, float side) {
    ImGui::BeginGroup();
    MapTitle(title, subtitle, side);
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    ps.grid = false;
    ps.overlay = values;
    ps.overlay_key = key;
    ps.overlay_alpha = 0.72f;
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
}

// Rollout's patch rows averaged over the patch columns, from its square in image order (`full` =
// prefix + N tokens): where a model without a class token, whose head reads the mean of the patch
// tokens, draws from. Rows of dropped tokens are zeros there and are left out of the mean.
static const std::vector<float>& mean_patch_rows(ViewContext& ctx, const float* square, int full) {
    return ctx.derived.get(derived_key({StageKind::Rollout}, Purpose::RolloutPatchMean), [&] {
        const int P = ctx.pipeline.layout.count(), N = full - P;
        std::vector<float> mean(static_cast<size_t>(N), 0.f);
        int rows = 0;
        for (int r = P; r < full; ++r) {
            const float* row = square + static_cast<size_t>(r) * full + P;
            if (std::all_of(row, row + N, [](float v) { return v == 0.f; })) continue;
            for (int c = 0; c < N; ++c) mean[c] += row[c];
            ++rows;
        }
        for (float& m : mean) m /= std::max(1, rows);
        return mean;
    });
}

// Rollout over the image, `side` pixels: the CLS row, or the mean of the patch rows for a model without a
// class token (what its averaging head reads); dropped tokens show as zeros. False when the trace has no
// rollout.
static bool DrawRolloutMap(ViewContext& ctx, float side) {
    const Tensor* roll = ctx.tensor({StageKind::Rollout});
    if (!roll) return false;
    const Pipeline& p = ctx.pipeline;
    const bool cls_row = p.layout.has_cls();
    const float* square = image_order_data(ctx, {StageKind::Rollout}, *roll);
    const int full = p.layout.count() + ctx.patches();
    const float* map = cls_row ? square + p.layout.count() : mean_patch_rows(ctx, square, full).data();
    PatchMap(
        ctx, "rollout (any class)",
        (cls_row ? "CLS row" : "mean of the patch rows") + std::string(", blocks 0…") + std::to_string(p.depth - 1),
        map,
        cls_row ? texture_key(ctx, {StageKind::Rollout}, -1, Colormap::Sequential, Purpose::AttentionRow, {0.0})
                : texture_key(ctx, {StageKind::Rollout}, -1, Colormap::Sequential, Purpose::RolloutPatchMean),
        side);
    return true;
}

void DrawWhyScreen(ViewContext& ctx, const Explanation* ex, int& chosen, bool busy) {
    const Pipeline& p = ctx.pipeline;
    const std::vector<std::string>& labels = ctx.model.config.labels;
    auto label_of = [&](int c) {
        return c < static_cast<int>(labels.size()) ? labels[c] : "class " + std::to_string(c);
    };
    ImGui::PushFont(ctx.heading());
    ImGui::Text("Why \"%s\"?", label_of(chosen).c_str());
    ImGui::PopFont();
    if (!ctx.tensor({StageKind::Probs})) {
        ImGui::TextDisabled("This model has no classifier head: there is no class to explain.");
        return;
    }
    Note(
        "Relevance (Chefer, Gur & Wolf 2021) weighs every layer's attention by its gradient for the chosen class, "
        "keeps the positive part and multiplies the layers together like rollout: it changes with the class. Rollout "
        "multiplies the plain attention and is the same for every class. The saliency map is how strongly each input "
        "pixel moves the class's logit (|∂logit/∂pixel|). These three maps do not share a scale (the attention maps' "
        "setting does not apply here): each is coloured from its own minimum to its own maximum.");
    DrawClassPicker(ctx, chosen);
    if (!ex || !ex->answers(ctx.generation, chosen)) {
        ImGui::TextDisabled(busy ? "running the backward pass…" : "waiting for the backward pass…");
        return;
    }
    if (!ex->error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        ImGui::TextWrapped("No explanation: %s", ex->error.c_str());
        ImGui::PopStyleColor();
        const ImVec2 avail = ImGui::GetContentRegionAvail();  // rollout needs no gradients
        DrawRolloutMap(ctx, std::max(60.f, std::min(avail.x, avail.y - 5.f * ImGui::GetTextLineHeightWithSpacing())));
        return;
    }
    if (!ex->relevance_missing.empty()) ImGui::TextDisabled("No relevance map: %s.", ex->relevance_missing.c_str());
    // The three maps in the grid that makes them largest; each needs two title lines and a colour bar.
    const float lh = ImGui::GetTextLineHeightWithSpacing(), gap = 20.f;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int maps = ctx.tensor({StageKind::Rollout}) ? 3 : 2;
    const int cols = best_columns(maps, avail, 1.f, gap, 5.f * lh);
    const int rows = (maps + cols - 1) / cols;
    const float side = std::max(60.f, std::min(avail.x / cols - gap, avail.y / rows - 5.f * lh));
    int placed = 0;
    auto next = [&] {
        if (++placed % cols) ImGui::SameLine(0, gap);
    };
    if (!ex->relevance.empty()) {
        PatchMap(ctx, "relevance for \"" + label_of(chosen) + "\"", "share of the relevance", ex->relevance.data(),
                 texture_key(ctx, {StageKind::Attn, p.depth - 1}, -1, Colormap::Sequential, Purpose::Relevance,
                             {double(chosen)}),
                 side);
        next();
    }
    if (DrawRolloutMap(ctx, side)) next();
    ImGui::BeginGroup();
    MapTitle("saliency |∂logit/∂pixel|", "max over the channels", side);
    DrawPlainMatrix(ctx,
                    texture_key(ctx, {StageKind::Input}, -1, Colormap::Sequential, Purpose::Saliency, {double(chosen)}),
                    ex->saliency.data(), ex->side, ex->side, ImVec2(side, side + 3 * lh), "", "y (pixel)", "x (pixel)",
                    Colormap::Sequential);
    ImGui::EndGroup();
}

}  // namespace vit::gui
