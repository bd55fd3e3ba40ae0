// The patch-PCA screen's joint form (DINOv2's Figure 1): one PCA fitted on the
// chosen block's patch tokens of this image and the other images together
// (core/findings/pca.h: joint_patch_pca_colours), each image's colour map above
// its picture (half as wide), side by side, so the same part gets the same colour in every image.
#include <algorithm>
#include <cstdio>
#include <functional>

#include "views/screens/findings_common.h"
#include "views/screens/findings_pca.h"

namespace vit::gui {

namespace {

// While the other images' passes run, or when one failed: what the screen says instead.
bool Waiting(const JointPasses* joint) {
    if (!joint) return ImGui::TextDisabled("Reading the other images…"), true;
    if (!joint->error.empty()) {
        ImGui::TextColored(ImVec4(1.f, 0.45f, 0.4f, 1.f), "The joint PCA has no other image: %s", joint->error.c_str());
        return true;
    }
    if (joint->paths.empty())
        return ImGui::TextDisabled("No other image to fit jointly with (add photos, or --pca-images)."), true;
    if (joint->complete()) return false;
    const float done = static_cast<float>(joint->images.size()) / joint->paths.size();
    ImGui::TextDisabled("Running the model on the other images: %zu of %zu done", joint->images.size(),
                        joint->paths.size());
    ImGui::ProgressBar(done, ImVec2(std::min(400.f, ImGui::GetContentRegionAvail().x), 0));
    return true;
}

struct Column {
    std::string name;
    const Tensor* input = nullptr;  // null: the model's picture (this image)
};

}  // namespace

void DrawJointPatchFeatures(ViewContext& ctx, const StageRef& stage, const Tensor& x, const PatchTokens& tokens,
                            const JointPasses* joint) {
    if (Waiting(joint)) return;
    std::vector<const Tensor*> xs{&x};
    std::vector<PatchTokens> layouts{tokens};
    std::vector<Column> columns{{"this image", nullptr}};
    std::string paths;
    for (const auto& image : joint->images) {
        if (stage.block >= static_cast<int>(image->outs.size()))
            return (void)ImGui::TextDisabled("The other passes are of another model.");
        xs.push_back(&image->outs[stage.block]);
        layouts.push_back(image->tokens);
        columns.push_back({image->name, &image->input});
    }
    for (const std::string& p : joint->paths) paths += p + "\n";  // and the passes' model and size: one key, one set
    paths += joint->model_name + "\n" + std::to_string(joint->image_size);
    const FindingsOptions& o = ctx.state.findings;
    const std::vector<double> options = {o.two_step ? 1.0 : 0.0, o.threshold};
    const uint64_t image_set = std::hash<std::string>()(paths);
    const auto of_the_set = [&](CacheKey key) {
        key.content = image_set;
        return key;
    };
    const std::vector<PatchColours> colours =
        cached_pca_colours(ctx, of_the_set(derived_key(stage, Purpose::PatchPca, options)), layouts,
                           [&] { return joint_patch_pca_colours(xs, layouts, o.two_step, o.threshold); });
    const int n = static_cast<int>(columns.size());
    const float gap = 16.f, lh = ImGui::GetTextLineHeightWithSpacing();
    FindingsTitle(
        ctx,
        "One PCA fitted jointly over the patch tokens of " + std::to_string(n) + " images (" + stage_id(stage) + ")",
        (o.two_step ? "black: background (joint component 1 < t); " : "") + pca_shares_line(colours[0]) +
            ": the same colour means the same component in every image",
        ImGui::GetContentRegionAvail().x);
    const float formula_h = FindingsFormulaHeight(ctx, kPcaFormula, kPcaPytorch) + lh;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // Each column: the image's name, its colour map, the picture the model saw beneath at half the side.
    const float side = std::max(60.f, std::min((avail.x - gap * (n - 1)) / n, (avail.y - formula_h - 2.f * lh) / 1.5f));
    for (int i = 0; i < n; ++i) {
        if (i > 0) ImGui::SameLine(0, gap);
        ImGui::BeginGroup();
        FittedText(ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), side, columns[i].name,
                   ImGui::GetColorU32(ImGuiCol_Text));
        ImGui::Dummy(ImVec2(side, lh));
        const CacheKey key = of_the_set(texture_key(ctx, stage, i, Colormap::Sequential, Purpose::PatchPca, options));
        DrawPatchColours(
            ctx, key, [&] { return pca_colour_pixels(colours[i], layouts[i].grid); }, side, {}, 0,
            [&](int p) { return pca_patch_tooltip(colours[i], p); });
        ImGui::Dummy(ImVec2(side, 4.f));
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + side / 4);
        if (!columns[i].input) {
            PictureSpec ps;
            ps.size = ImVec2(side / 2, side / 2);
            ps.clickable = false;
            DrawModelPicture(ctx, ps);
        } else {
            const CachedTexture picture = ctx.cache.get(
                of_the_set(texture_key(ctx, {StageKind::Input}, i, Colormap::Sequential, Purpose::JointPcaInput)),
                [&] { return input_picture_pixels(*columns[i].input, ctx.model.config.preprocess); });
            ImGui::Image(reinterpret_cast<ImTextureID>(picture.id), ImVec2(side / 2, side / 2));
        }
        ImGui::EndGroup();
    }
    FindingsFormula(ctx, kPcaFormula, kPcaPytorch);
}

}  // namespace vit::gui
