// CompareController: the comparison model beside the loaded one (vitviz
// --compare-model, the Open window's "as the comparison model"). It owns the
// comparison's pass (logic/jobs/compare_pass.h) and what its views need apart
// from the loaded model's: its pipeline, its own textures and derived numbers,
// and a copy of the display settings with its block at the same relative depth
// as the loaded model's (comparison_layer), its token the CLS token. A
// comparison pass that keeps only the residual stream has its shown block
// recomputed as the loaded model's is (BlockFocus). The attention and CLS-mask
// screens draw its half from side().
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "controllers/app_context.h"
#include "logic/jobs/compare_pass.h"

namespace vit::gui {

class CompareController {
public:
    CompareController(AppContext& app, std::shared_ptr<Worker> worker);

    void set_model(const std::string& model) { pass_.set_model(model); }  // "" clears it
    const std::string& model() const { return pass_.model(); }
    void follow(const Loaded& shown) { pass_.follow(shown); }  // the loaded model shows a new pass
    // Once per frame: a finished pass becomes the views' (an error goes to the message bar; a tour ends with 1).
    void poll();
    bool working() const { return pass_.working(); }
    // This frame's comparison half for the loaded model's views `main`; null with no comparison model.
    const ComparisonSide* side(const ViewContext& main);

private:
    AppContext& app_;
    ComparePass pass_;
    TextureCache cache_;
    DerivedCache derived_;
    Pipeline pipeline_;
    uint64_t generation_ = ~0ull;  // pass_'s generation the views were made for
    AppState state_;
    BlockFocus focus_;
    std::optional<ViewContext> views_;
    ComparisonSide side_;
};

}  // namespace vit::gui
