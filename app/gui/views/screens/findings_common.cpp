// The pieces the findings screens share (see findings_common.h).
#include "views/screens/findings_common.h"

#include <algorithm>

namespace vit::gui {

PatchTokens findings_tokens(const ViewContext& ctx) { return patch_tokens(ctx.trace, ctx.model.config); }

bool FindingsBlockChooser(ViewContext& ctx) {
    const Pipeline& p = ctx.pipeline;
    if (p.depth <= 0) {
        ImGui::TextDisabled("This model has no encoder block: nothing to measure.");
        return false;
    }
    int layer = ctx.state.layer;
    ImGui::SetNextItemWidth(std::min(320.f, ImGui::GetContentRegionAvail().x * 0.4f));
    if (ImGui::SliderInt("block", &layer, 0, p.depth - 1)) select_layer(ctx.state, p, layer);
    return true;
}

void FindingsHeading(ViewContext& ctx, const char* text) {
    ImGui::PushFont(ctx.heading());
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
}

void FindingsTitle(ViewContext& ctx, const std::string& title, const std::string& subtitle, float width) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::PushFont(ctx.heading());
    const float lh = ImGui::GetTextLineHeight();
    FittedText(dl, at, width, title, ImGui::GetColorU32(ImGuiCol_Text));
    ImGui::PopFont();
    FittedText(dl, ImVec2(at.x, at.y + lh + 2.f), width, subtitle, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::Dummy(ImVec2(width, lh + ImGui::GetTextLineHeight() + 6.f));
}

void FindingsFormula(ViewContext& ctx, const std::string& formula, const std::string& pytorch) {
    ImGui::PushFont(ctx.mono());
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 220, 140, 255));
    ImGui::TextWrapped("%s", formula.c_str());
    ImGui::PopStyleColor();
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(150, 210, 255, 255));
    ImGui::TextWrapped("PyTorch: %s", pytorch.c_str());
    ImGui::PopStyleColor();
    ImGui::PopFont();
}

float FindingsFormulaHeight(ViewContext& ctx, const std::string& formula, const std::string& pytorch) {
    ImGui::PushFont(ctx.mono());
    const float w = ImGui::GetContentRegionAvail().x;
    const float h = ImGui::CalcTextSize(formula.c_str(), nullptr, false, w).y +
                    ImGui::CalcTextSize(("PyTorch: " + pytorch).c_str(), nullptr, false, w).y;
    ImGui::PopFont();
    return h + 2.f * ImGui::GetStyle().ItemSpacing.y;
}

RgbaImage patch_colour_pixels(const std::vector<Rgb>& colours, const std::vector<uint8_t>& alpha, int grid) {
    RgbaImage img;
    img.width = img.height = grid;
    img.pixels.resize(static_cast<size_t>(grid) * grid * 4);
    for (int p = 0; p < grid * grid; ++p) {
        img.pixels[4 * p] = colours[p].r;
        img.pixels[4 * p + 1] = colours[p].g;
        img.pixels[4 * p + 2] = colours[p].b;
        img.pixels[4 * p + 3] = alpha[p];
    }
    return img;
}

void DrawPatchColours(ViewContext& ctx, const CacheKey& key, const std::function<RgbaImage()>& make, float side,
                      const std::vector<uint8_t>& outlined, ImU32 outline,
                      const std::function<std::string(int)>& tooltip) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + side, p0.y + side);
    dl->AddImage(reinterpret_cast<ImTextureID>(model_picture_texture(ctx).id), p0, p1);
    const CachedTexture over = ctx.cache.get(key, make);
    dl->AddImage(reinterpret_cast<ImTextureID>(over.id), p0, p1);
    const int g = std::max(1, over.width);
    const float cell = side / g;
    for (size_t p = 0; p < outlined.size(); ++p)
        if (outlined[p]) {
            const ImVec2 a(p0.x + (p % g) * cell, p0.y + (p / g) * cell);
            dl->AddRect(a, ImVec2(a.x + cell, a.y + cell), outline, 0.f, 0, std::max(2.f, cell * 0.08f));
        }
    ImGui::PushID(key.id().c_str());
    ImGui::InvisibleButton("patch colours", ImVec2(side, side));
    ImGui::PopID();
    if (!tooltip || !ImGui::IsItemHovered()) return;
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int x = std::clamp(static_cast<int>((m.x - p0.x) / cell), 0, g - 1);
    const int y = std::clamp(static_cast<int>((m.y - p0.y) / cell), 0, g - 1);
    ImGui::SetTooltip("patch %d (row %d, column %d)\n%s", y * g + x, y, x, tooltip(y * g + x).c_str());
}

}  // namespace vit::gui
