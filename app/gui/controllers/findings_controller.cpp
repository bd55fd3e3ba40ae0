// FindingsController (controllers/findings_controller.h): the joint PCA's
// passes and the block walk, asked for by the screens that show them.
#include "controllers/findings_controller.h"

#include <algorithm>
#include <filesystem>

#include "logic/state/file_list.h"
#include "views/widgets/views.h"

namespace vit::gui {

void FindingsController::draw_patch_features(ViewContext& ctx) {
    if (!app_.state.findings.joint) return DrawPatchFeaturesScreen(ctx, nullptr);
    if (gallery_.empty())
        for (const FileEntry& f : find_images((std::filesystem::path(asset_dir_) / "photos").string(), kJointPcaImages))
            gallery_.push_back(f.path);
    const Options& o = app_.options;
    joint_.request(app_.model, app_.model_name,
                   joint_pca_others(app_.image_path, app_.image_name, o.pca_images, gallery_, kJointPcaImages - 1),
                   o.image_size);
    DrawPatchFeaturesScreen(ctx, joint_.poll());
}

const WalkedBlocks* FindingsController::walked_blocks(const std::shared_ptr<const Trace>& shown) {
    walking_ = false;
    const AppState& state = app_.state;
    const int tokens = app_.pipeline.tokens;
    const bool every_block = screen_info(state.screen).job == ScreenJob::EveryBlock;
    if (!every_block || !shown || shown->keep() != TraceKeep::Stream || tokens <= 0) return nullptr;
    walk_.request(app_.model, shown, std::clamp(state.token, 0, tokens - 1));
    const WalkedBlocks* walked = walk_.poll();
    if (!walked || walked->stream != stream_of(shown).get()) return nullptr;
    walking_ = !walked->complete();
    return walked;
}

bool FindingsController::shown() {
    if (walking_) return false;
    if (screen_info(app_.state.screen).job != ScreenJob::JointPca || !app_.state.findings.joint) return true;
    return joint_.poll() && !joint_.busy();
}

}  // namespace vit::gui
