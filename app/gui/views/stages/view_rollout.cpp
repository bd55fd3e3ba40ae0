// Stage `rollout`: attention rollout (heads averaged, identity added, rows
// renormalised, multiplied from the first block to the last) as a T×T matrix,
// and the selected token's row drawn over the image.
#include <algorithm>

#include "views/widgets/views.h"

namespace vit::gui {

void DrawRolloutView(ViewContext& ctx) {
    const Tensor& t = *ctx.tensor({StageKind::Rollout});
    int T = static_cast<int>(t.shape[0]);
    ImVec2 avail = ImGui::GetContentRegionAvail();
    float lh = ImGui::GetTextLineHeightWithSpacing();
    float h = avail.y - 5 * lh;
    float w = avail.x * 0.55f;
    DrawTokenMatrix(ctx, {StageKind::Rollout}, -1, ImVec2(w, h),
                    "rollout " + shape_string(t.shape) + ": token ↓ draws from token →", TokenColumns::KeyToken);
    ImGui::SameLine(0, 30);
    ImGui::BeginGroup();
    int tok = std::clamp(ctx.state.token, 0, T - 1);
    float side = std::min(avail.x - w - 40.f, h - 3 * lh);
    const float y0 = ImGui::GetCursorPosY();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side);
    ImGui::TextWrapped("row of %s over the image", ctx.name_of_token(tok).c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("click a patch to choose another token");
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    side = std::min(side, h - (ImGui::GetCursorPosY() - y0) - lh);  // the words may take more lines in presenter mode
    PictureSpec ps;
    ps.size = ImVec2(side, side);
    // Permuted or dropped tokens (Ask panel): the row over the image in image order, zeros where dropped.
    const int N = ctx.patches(), P = ctx.pipeline.layout.count();
    const float* image_order = image_order_data(ctx, {StageKind::Rollout}, t);
    if (image_order != t.data.data()) {
        tok = std::clamp(ctx.state.token, 0, P + N - 1);
        T = P + N;
    }
    ps.overlay = image_order + static_cast<size_t>(tok) * T + P;  // the patch columns
    ps.overlay_key =
        texture_key(ctx, {StageKind::Rollout}, -1, Colormap::Sequential, Purpose::AttentionRow, {double(tok)});
    DrawModelPicture(ctx, ps);
    ImGui::EndGroup();
    Formula(ctx, StageKind::Rollout);
    Note(
        "Attention rollout follows attention through all the blocks at once: the identity stands for the residual "
        "connection, and multiplying the layers tells how much each input patch flows into each token at the end.");
}

}  // namespace vit::gui
