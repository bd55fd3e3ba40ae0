// FindingsController: the jobs of the screens over more than one pass or
// block. The patch-PCA screen's joint PCA runs the other images' passes
// (--pca-images, else the gallery's photos: logic/jobs/joint_passes.h) while
// it is shown; the model view and attention distance over a Stream trace walk
// its blocks (logic/jobs/block_walk.h).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "controllers/app_context.h"
#include "logic/jobs/block_walk.h"
#include "logic/jobs/joint_passes.h"

namespace vit::gui {

class FindingsController {
public:
    FindingsController(AppContext& app, std::string asset_dir, const std::shared_ptr<Worker>& worker)
        : app_(app), asset_dir_(std::move(asset_dir)), joint_(worker), walk_(worker) {}

    void draw_patch_features(ViewContext& ctx);  // asks for the joint PCA's other images when shown
    // The blocks of `shown` walked so far for the screens over every block (null when the screen needs none).
    const WalkedBlocks* walked_blocks(const std::shared_ptr<const Trace>& shown);
    // The screen has what it shows: the joint PCA all its images, the walk every block.
    bool shown();

private:
    AppContext& app_;
    std::string asset_dir_;
    JointPassJob joint_;
    std::vector<std::string> gallery_;  // the photos the joint PCA fits with when no --pca-images
    BlockWalkJob walk_;
    bool walking_ = false;  // this frame's screen waits for more blocks
};

}  // namespace vit::gui
