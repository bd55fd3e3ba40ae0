// Where this number comes from (see provenance_panel.h).
#include "panels/provenance_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vit::gui {

static const ImVec4 kHeading(0.55f, 0.75f, 1.f, 1.f), kWorking(1.f, 0.86f, 0.55f, 1.f);

// A term's palette, as the colour-scale policy has it unless the user chose one:
// sequential for numbers that are never negative (exponentials), diverging for signed ones.
static Colormap term_colormap(const std::vector<float>& values, ColormapMode mode) {
    const bool signed_values = std::any_of(values.begin(), values.end(), [](float v) { return v < 0.f; });
    return colormap_for(signed_values ? Palette::Diverging : Palette::Sequential, mode);
}

void DrawCellProvenance(ViewContext& ctx) {
    const ImVec4 dim = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    const StageRef& stage = ctx.stage();
    if (!has_provenance(stage.kind) || ctx.state.gradients) return;
    if (ctx.shows_difference()) {
        WrappedWords(
            "The views show the difference of two passes: show the asked or the plain pass (Ask panel) to "
            "see where a number comes from.",
            dim);
        return;
    }
    const std::optional<CellRef>& cell = ctx.state.cell;
    // The plain pass ran at temperature 1; the asked one at the Ask panel's.
    const float temperature = ctx.ask && !ctx.shows_original() ? ctx.ask->asked.temperature : 1.f;
    const std::optional<CellProvenance> p =
        cell && cell->stage == stage ? cell_provenance(ctx.model, ctx.trace, *cell, temperature) : std::nullopt;
    if (!p) {
        WrappedWords("Click a cell to see where its number comes from.", dim);
        return;
    }
    if (ImGui::SmallButton("×")) ctx.state.cell.reset();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("close: no cell chosen");
    ImGui::SameLine();
    WrappedWords("Where this number comes from", kHeading);
    char value[32];
    std::snprintf(value, sizeof value, "%.5g", p->stored);
    WrappedWords(p->cell + " = " + value, ImGui::GetStyleColorVec4(ImGuiCol_Text));
    WrappedWords(p->formula, dim);
    const float width = ImGui::GetContentRegionAvail().x;
    const float strip_h = ImGui::GetTextLineHeightWithSpacing() * 2.f + std::min(40.f, width / 8.f) + 30.f;
    for (size_t i = 0; i < p->terms.size(); ++i) {
        const ProvenanceTerm& term = p->terms[i];
        const Colormap cmap = term_colormap(term.values, ctx.state.colormap);
        const CacheKey key = texture_key(ctx, cell->stage, cell->slice, cmap, Purpose::Provenance,
                                         {double(cell->row), double(cell->col), double(i)});
        DrawPlainMatrix(ctx, key, term.values.data(), 1, static_cast<int>(term.values.size()), ImVec2(width, strip_h),
                        term.name, "", "element", cmap);
    }
    for (const std::string& line : p->working) WrappedWords(line, kWorking);
    char check[96];
    std::snprintf(check, sizeof check, "recomputed %.6g, the pass %.6g (difference %.1e)", p->recomputed, p->stored,
                  std::fabs(p->recomputed - p->stored));
    WrappedWords(check, dim);
    ImGui::Separator();
}

}  // namespace vit::gui
