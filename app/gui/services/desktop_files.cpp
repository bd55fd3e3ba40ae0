// The desktop's files (services/files.h): the assets folder beside the
// executable, saved files written where the user named them, and no chooser of
// its own (the Open panel types and browses paths).
#include "services/files.h"

#include "base/assets.h"

namespace vit::gui {

std::string asset_folder() { return asset_dir(); }

void save_file(const std::string& /*path: already where the user named it*/, const std::function<void()>& write) {
    write();
}

bool has_file_chooser() { return false; }
bool open_hub_model_in_page(const std::string& /*model: the loader downloads it*/, HubLink) { return false; }
void choose_files(bool /*model*/) {}

}  // namespace vit::gui
