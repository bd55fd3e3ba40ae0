// The stage side panel.
#include "panels/info_panel.h"

#include <utility>

#include "panels/provenance_panel.h"
#include "logic/describe/stage_info.h"
#include "logic/describe/token_order.h"

namespace vit::gui {

static void Section(const char* name) {
    ImGui::Spacing();
    WrappedWords(name, ImVec4(0.55f, 0.75f, 1.f, 1.f));
}

static void MonoBlock(ViewContext& ctx, const std::string& text, ImVec4 colour) {
    ImGui::PushFont(ctx.mono());
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

// The attention and model-view screens' help: what the maps show and how they are coloured.
static void DrawAttentionHelp(ViewContext& ctx) {
    const bool model_view = ctx.state.screen == Screen::ModelView;
    ImGui::PushFont(ctx.heading());
    ImGui::TextWrapped(model_view ? "Every block, every head" : "Attention over the image");
    ImGui::PopFont();
    Section("What you see");
    ImGui::TextWrapped(
        model_view
            ? "Rows are blocks, columns are heads. Each small map is how much the selected token takes from each "
              "patch in that block and head (its row of the attention matrix, without the CLS column and any DIST "
              "or register columns). Compare "
              "down a column to see a head's job change with depth, across a row to see the heads of one block "
              "split the work. Click a map to open it large on the attention screen; click a patch of the image "
              "to choose the token."
            : "For the chosen layer, one map per head: how much the selected token takes from each patch (its "
              "row of the attention matrix, without the CLS column and any DIST or register columns; the title says "
              "what goes to those). The mean over heads is what the layer does "
              "on average. Click a head's title (or press Z) to enlarge it; H steps through the heads.");
    Section("Colours");
    ImGui::TextWrapped(
        "By default all heads of a layer share one scale, from 0 to their largest weight, so equal "
        "colours mean equal weights. '0 … 100%%' compares layers too; 'each map its own' stretches "
        "every map from its minimum to its maximum, so colours compare only within one map.");
    if (model_view) {
        Section("BertViz");
        ImGui::TextWrapped(
            "This is BertViz's model view (Vig, 2019), drawn over the image instead of over words: "
            "the same question, where does this token look, asked of every head at once.");
    } else {
        Section("Rollout");
        ImGui::TextWrapped(
            "Attention rollout multiplies the head-averaged attention of every layer (plus the "
            "identity for the residual) to follow information from the input patches to the last "
            "layer.");
        Section("DINO");
        if (ctx.pipeline.layout.has_cls())
            ImGui::TextWrapped(
                "'CLS only' shows the CLS token's attention in the last layer: in self-supervised "
                "models such as DINO it outlines the main object without ever being taught what "
                "objects are.");
        else
            ImGui::TextWrapped(
                "This model has no CLS token, so there is no 'CLS only' view: its head reads the "
                "mean of the patch tokens. Pick a patch to see where it looks.");
        if (ctx.model.config.reg_tokens > 0)
            ImGui::TextWrapped(
                "Registers (REG0…) are extra tokens with no patch and no head (Darcet et al. 2024): "
                "they take in the global information that, without them, a few high-norm patch "
                "tokens store, which leaves the CLS attention maps cleaner.");
    }
}

// The Why screen's help: relevance and saliency, as formulas and PyTorch.
static void DrawWhyHelp(ViewContext& ctx) {
    ImGui::PushFont(ctx.heading());
    ImGui::TextWrapped("Why this class?");
    ImGui::PopFont();
    Section("Relevance (Chefer et al. 2021)");
    MonoBlock(ctx,
              "A_b  = attention of block b (H×T×T)\n"
              "dA_b = d logit[c] / d A_b\n"
              "M_b  = mean_h max(0, dA_b ⊙ A_b)\n"
              "R = I;  R = R + M_b · R  (b = 0 … L−1)\n"
              "map = R[0, 1:]  (CLS row, one value per patch)",
              ImVec4(1.f, 0.86f, 0.55f, 1.f));
    Section("PyTorch");
    MonoBlock(ctx,
              "logits[0, c].backward()  # attn kept with retain_grad()\n"
              "cam = (attn.grad * attn).clamp(min=0).mean(1)\n"
              "R = R + cam[0] @ R",
              ImVec4(0.55f, 0.9f, 0.55f, 1.f));
    Section("Saliency");
    ImGui::TextWrapped(
        "The gradient of the class's logit with respect to each input pixel, largest over the colour "
        "channels: the pixels whose change would move this class most. It is noisy; relevance is "
        "the smoother, class-specific picture.");
    Section("Compare");
    ImGui::TextWrapped(
        "Pick another class above the maps: relevance moves to the evidence for it; rollout does not "
        "change, because it never looks at the class.");
}

// The current stage's description: title, formula, backward, shapes, PyTorch, words and teaching note.
static void DrawStageHelp(ViewContext& ctx) {
    // From `tokens` on, the tokens the encoder kept (fewer when the Ask panel drops some).
    const Tensor* kept = ctx.tensor({StageKind::Tokens});
    const int tokens =
        after_token_drop(ctx.stage().kind) && kept ? static_cast<int>(kept->rows()) : ctx.pipeline.tokens;
    StageInfo info = describe_stage(ctx.stage(), ctx.model.config, tokens);
    ImGui::PushFont(ctx.heading());
    ImGui::TextWrapped("%s", info.title.c_str());
    ImGui::PopFont();
    DrawCellProvenance(ctx);
    if (!info.formula.empty()) {
        Section("Formula");
        MonoBlock(ctx, info.formula, ImVec4(1.f, 0.86f, 0.55f, 1.f));
    }
    if (ctx.state.gradients && ctx.tensor({StageKind::Logits})) {
        Section("Backward (the gradient walk)");
        MonoBlock(ctx, stage_def(ctx.stage().kind).backward, ImVec4(1.f, 0.7f, 0.55f, 1.f));
    }
    if (!info.shapes.empty()) {
        Section("Shapes");
        MonoBlock(ctx, info.shapes, ImVec4(0.85f, 0.85f, 0.85f, 1.f));
    }
    if (!info.pytorch.empty()) {
        Section("PyTorch");
        MonoBlock(ctx, info.pytorch, ImVec4(0.6f, 0.95f, 0.6f, 1.f));
    }
    if (!info.explanation.empty()) {
        Section("In words");
        ImGui::TextWrapped("%s", info.explanation.c_str());
    }
    if (!info.notebook_note.empty()) {  // a teaching note, shown on request: not an error of this app
        ImGui::Spacing();
        ImGui::Checkbox("##teaching", &ctx.state.teaching_notes);
        ImGui::SameLine();
        ImGui::TextWrapped("Teaching note: a seed notebook's mistake");
        if (ctx.state.teaching_notes) ImGui::TextWrapped("%s", info.notebook_note.c_str());
    }
}

// The keyboard's keys, one a row: the key, then what it does (wrapped, never cut at the panel's edge).
static void DrawKeys(ViewContext& ctx) {
    Section("Keys");
    static const std::pair<const char*, const char*> kKeys[] = {{"↑ ↓", "token"},
                                                                {"H", "next head"},
                                                                {"Z", "enlarge a head"},
                                                                {"A", "attention"},
                                                                {"W", "why this class"},
                                                                {"G", "gradients"},
                                                                {"L", "model view"},
                                                                {"V", "overview"},
                                                                {"C", "CLS only"},
                                                                {"N", "numbers"},
                                                                {"R", "lesson editor"},
                                                                {"F11 or P", "presenter"},
                                                                {"Ctrl+S", "save a PNG"},
                                                                {"Ctrl+E", "save .npy"},
                                                                {"O", "open an image"},
                                                                {"M", "open a model"},
                                                                {"Ctrl/Alt+1…9", "bookmark the view"},
                                                                {"1…9", "return to a bookmark"}};
    if (!ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit)) return;
    ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
    const auto row = [](const char* key, const char* does) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", key);
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", does);
        ImGui::PopStyleColor();
    };
    row("← →", "stage");
    row("PgUp PgDn", ctx.state.clicker ? "stage (clicker)" : "block");
    for (const auto& [key, does] : kKeys) row(key, does);
    ImGui::EndTable();
}

void DrawInfoPanel(ViewContext& ctx) {
    if (ctx.state.screen == Screen::Attention || ctx.state.screen == Screen::ModelView) DrawAttentionHelp(ctx);
    else if (ctx.state.screen == Screen::Why) DrawWhyHelp(ctx);
    else DrawStageHelp(ctx);
    if (!ctx.state.presenter) DrawKeys(ctx);
}

}  // namespace vit::gui
