// The Open window: gallery, typed path, file browser.
#include "panels/open_panel.h"

#include "services/files.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <filesystem>

#include "base/error.h"
#include "hub/hub_gallery.h"
#include "hub/hub_name.h"
#include "services/gl_texture.h"
#include "formats/image.h"

namespace vit::gui {

namespace fs = std::filesystem;

static void choose(OpenPanelState& panel, UiActions& actions, const std::string& path) {
    if (panel.for_model && panel.as_comparison) actions.compare_model = path;
    else if (panel.for_model) actions.open_model = path;
    else actions.open_image = path;
    if (panel.for_model && !panel.as_comparison && vit::is_hub_name(path))
        panel.awaiting = path;  // stays, with its bar
    else panel.visible = false;
}

// Which gallery models the cache holds, looked up at most every two seconds.
static const std::vector<bool>& cached_gallery_models(OpenPanelState& panel) {
    const double now = ImGui::GetTime();
    if (panel.hub_cached.size() == vit::hub_gallery().size() && now - panel.hub_cached_at < 2.0)
        return panel.hub_cached;
    panel.hub_cached.clear();
    for (const vit::HubGalleryModel& m : vit::hub_gallery()) panel.hub_cached.push_back(vit::hub_model_cached(m.name));
    panel.hub_cached_at = now;
    return panel.hub_cached;
}

// The Hub's models: each a row to choose, with what it was trained on, what it shows and
// its download size (or that it is in the cache and opens with no network).
static void DrawHubGallery(OpenPanelState& panel, UiActions& actions) {
    ImGui::Spacing();
    ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.f, 1.f),
                       "Trained models on the Hugging Face Hub (downloaded once, then "
                       "opened from the cache)");
    if (!ImGui::BeginTable("hub", 3, ImGuiTableFlags_RowBg)) return;
    const float em = ImGui::GetFontSize();
    ImGui::TableSetupColumn("model", ImGuiTableColumnFlags_WidthFixed, em * 13);
    ImGui::TableSetupColumn("download", ImGuiTableColumnFlags_WidthFixed, em * 6);
    ImGui::TableSetupColumn("what it shows, what it learnt from", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const std::vector<bool>& cached = cached_gallery_models(panel);
    for (size_t i = 0; i < vit::hub_gallery().size(); ++i) {
        const vit::HubGalleryModel& m = vit::hub_gallery()[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (ImGui::Selectable(m.title, panel.awaiting == m.name, ImGuiSelectableFlags_SpanAllColumns))
            choose(panel, actions, m.name);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.name);
        ImGui::TableNextColumn();
        if (cached[i]) ImGui::TextColored(ImVec4(0.5f, 0.85f, 0.5f, 1.f), "in the cache");
        else ImGui::Text("%d MB", m.megabytes);
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", m.shows);
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("trained on %s", m.trained_on);
        ImGui::PopStyleColor();
    }
    ImGui::EndTable();
}

// The download under way for the model chosen here: its bar and a Cancel button.
static void DrawDownload(OpenPanelState& panel, UiActions& actions) {
    if (panel.awaiting.empty()) return;
    ImGui::Text("opening %s", panel.awaiting.c_str());
    if (!panel.downloading) return;
    ImGui::ProgressBar(panel.download_progress, ImVec2(-ImGui::GetFontSize() * 6, 0), panel.download_phase.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) actions.cancel_download = true;
}

// An image file as a thumbnail at most `side` pixels across.
static RgbaImage make_thumbnail(const std::string& path, int side) {
    vit::Image img = vit::load_image(path, 3);
    int longest = std::max(img.height, img.width);
    if (longest > side) {
        float s = float(side) / longest;
        img = vit::resize(img, std::max(1, int(img.height * s)), std::max(1, int(img.width * s)), "bilinear");
    }
    return render_picture(img.data.data(), img.channels, img.height, img.width, img.width > 32);
}

static void DrawThumbnails(OpenPanelState& panel, const std::string& asset_dir, UiActions& actions) {
    if (!panel.thumbnails)
        panel.thumbnails = std::make_unique<TextureCache>(upload_texture, release_texture, size_t(64) << 20);
    const float side = ImGui::GetFontSize() * 6.f;
    int loads_left = 3;  // thumbnails made this frame
    float x_max = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    std::string last_folder;
    for (const FileEntry& e : panel.gallery_images) {
        std::string folder = fs::relative(fs::path(e.path).parent_path(), asset_dir).string();
        if (folder != last_folder) {
            ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.f, 1.f), "%s", folder.c_str());
            last_folder = folder;
        } else if (ImGui::GetItemRectMax().x + side + 12.f < x_max) {
            ImGui::SameLine();
        }
        ImGui::PushID(e.path.c_str());
        ImGui::BeginGroup();
        bool failed = std::find(panel.thumbnail_failed.begin(), panel.thumbnail_failed.end(), e.path) !=
                      panel.thumbnail_failed.end();
        bool clicked = false;
        CacheKey thumbnail;
        thumbnail.purpose = Purpose::Thumbnail;
        thumbnail.file = e.path;
        if (!failed && (panel.thumbnails->contains(thumbnail) || loads_left-- > 0)) {
            try {
                CachedTexture t = panel.thumbnails->get(thumbnail, [&] { return make_thumbnail(e.path, 128); });
                float s = side / std::max(t.width, t.height);
                clicked = ImGui::ImageButton(reinterpret_cast<ImTextureID>(t.id), ImVec2(t.width * s, t.height * s));
            } catch (const Error&) {
                panel.thumbnail_failed.push_back(e.path);
            }
        } else {
            clicked = ImGui::Button(failed ? "?" : "…", ImVec2(side, side));
        }
        std::string name = e.name.size() > 14 ? e.name.substr(0, 13) + "…" : e.name;
        ImGui::TextDisabled("%s", name.c_str());
        ImGui::EndGroup();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.path.c_str());
        ImGui::PopID();
        if (clicked) choose(panel, actions, e.path);
    }
}

// A row to click that wraps its label at the panel's edge instead of running past it.
static bool WrappedSelectable(const std::string& label) {
    const float width = ImGui::GetContentRegionAvail().x;
    const ImVec2 at = ImGui::GetCursorPos();
    const float height = ImGui::CalcTextSize(label.c_str(), nullptr, false, width).y;
    const bool chosen = ImGui::Selectable(("##" + label).c_str(), false, 0, ImVec2(width, height));
    ImGui::SetCursorPos(at);  // the label over the row, wrapped; the cursor then stands below both
    ImGui::PushTextWrapPos(at.x + width);
    ImGui::TextUnformatted(label.c_str());
    ImGui::PopTextWrapPos();
    return chosen;
}

static void DrawGallery(OpenPanelState& panel, const std::string& asset_dir, UiActions& actions) {
    if (!panel.gallery_ready) {
        panel.gallery_images = find_images(asset_dir, 400);
        panel.gallery_models = gallery_models(asset_dir, 100);
        panel.gallery_ready = true;
    }
    if (panel.for_model) {
        for (const GalleryModel& m : panel.gallery_models)
            if (WrappedSelectable(m.label)) choose(panel, actions, m.choice);
        DrawHubGallery(panel, actions);
        ImGui::TextDisabled("Any other model: type hf-hub:ORG/NAME under Path, or open a checkpoint folder.");
    } else {
        if (ImGui::Button("the toy's 4×4 image (0…15), built in")) choose(panel, actions, "");
        DrawThumbnails(panel, asset_dir, actions);
        if (panel.gallery_images.empty()) ImGui::TextDisabled("(no images under %s yet)", asset_dir.c_str());
    }
}

// "[ ] as the comparison model" and, while there is one, its name and a button that clears it.
static void DrawComparisonChoice(OpenPanelState& panel, UiActions& actions) {
    ImGui::Checkbox("open as the comparison model, beside the loaded one", &panel.as_comparison);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "It runs on the same image; the attention and CLS-mask screens show its CLS attention beside");
    if (panel.comparison.empty()) return;
    ImGui::SameLine(0, ImGui::GetFontSize());
    ImGui::TextDisabled("comparing with %s", panel.comparison.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Clear the comparison")) actions.compare_model = "";
}

static void DrawBrowser(OpenPanelState& panel, UiActions& actions) {
    if (panel.folder.empty()) {
        std::error_code ec;
        panel.folder = fs::current_path(ec).string();
    }
    if (panel.listed_folder != panel.folder) {
        panel.listed_folder = panel.folder;
        panel.listing_error.clear();
        try {
            panel.listing = list_folder(panel.folder);
        } catch (const Error& e) {
            panel.listing.clear();
            panel.listing_error = e.what();
        }
    }
    if (ImGui::Button("↑ up")) panel.folder = fs::path(panel.folder).parent_path().string();
    ImGui::SameLine();
    ImGui::TextWrapped("%s", panel.folder.c_str());
    if (!panel.listing_error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", panel.listing_error.c_str());
    ImGui::BeginChild("listing", ImVec2(0, 0), true);
    for (const FileEntry& e : panel.listing) {
        ImGui::PushID(e.path.c_str());
        switch (e.kind) {
            case FileKind::Folder:
                if (ImGui::Selectable(("[folder] " + e.name).c_str())) panel.folder = e.path;
                break;
            case FileKind::ModelFolder:
                if (ImGui::Selectable(("[model]  " + e.name).c_str())) {
                    if (panel.for_model) choose(panel, actions, e.path);
                    else panel.folder = e.path;
                }
                break;
            case FileKind::Checkpoint:
                if (panel.for_model) {
                    if (ImGui::Selectable(("[weights] " + e.name).c_str())) choose(panel, actions, e.path);
                } else {
                    ImGui::TextDisabled("[weights] %s", e.name.c_str());
                }
                break;
            case FileKind::Image:
                if (!panel.for_model) {
                    if (ImGui::Selectable(("[image]  " + e.name).c_str())) choose(panel, actions, e.path);
                } else {
                    ImGui::TextDisabled("[image]  %s", e.name.c_str());
                }
                break;
            case FileKind::Other: break;
        }
        ImGui::PopID();
    }
    ImGui::EndChild();
}

void DrawOpenPanel(OpenPanelState& panel, const std::string& asset_dir, UiActions& actions) {
    if (!panel.visible) return;
    ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
                            ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(vp->WorkSize.x * 0.5f, vp->WorkSize.y * 0.6f), ImGuiCond_Appearing);
    const char* title = panel.for_model ? "Open a model###open" : "Open an image###open";
    ImGui::SetNextWindowBgAlpha(1.f);
    if (!ImGui::Begin(title, &panel.visible, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", panel.for_model ? "A built-in model, a model on the Hugging Face Hub (hf-hub:ORG/NAME), a "
                                               "checkpoint folder (config.json + .safetensors) or a .safetensors file."
                                             : "PNG, JPEG, BMP, GIF or TGA. You can also drop a file onto the window.");
    ImGui::PopStyleColor();
    if (panel.for_model) DrawDownload(panel, actions);
    if (panel.for_model) DrawComparisonChoice(panel, actions);
    if (ImGui::BeginTabBar("open_tabs")) {
        if (ImGui::BeginTabItem("Gallery")) {
            ImGui::BeginChild("gallery", ImVec2(0, 0), true);
            DrawGallery(panel, asset_dir, actions);
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        if (has_file_chooser() && ImGui::BeginTabItem("This computer")) {
            if (ImGui::Button(panel.for_model ? "Choose the model's files…" : "Choose an image…")) {
                choose_files(panel.for_model);
                panel.visible = false;
            }
            if (panel.for_model)
                ImGui::TextWrapped(
                    "Select the .safetensors file together with its config.json (and "
                    "preprocessor_config.json when it has one).");
            ImGui::EndTabItem();
        }
        if (!has_file_chooser() && ImGui::BeginTabItem("Path")) {
            ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
            bool enter = ImGui::InputText("##path", &panel.typed, ImGuiInputTextFlags_EnterReturnsTrue);
            enter = enter || (panel.enter_queued && ImGui::IsItemActive());  // a tap Dear ImGui 1.86 did not see
            panel.enter_queued = false;
            ImGui::SameLine();
            if ((ImGui::Button("Open") || enter) && !panel.typed.empty()) choose(panel, actions, panel.typed);
            ImGui::EndTabItem();
        }
        if (!has_file_chooser() && ImGui::BeginTabItem("Browse")) {
            DrawBrowser(panel, actions);
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    ImGui::End();
}

}  // namespace vit::gui
