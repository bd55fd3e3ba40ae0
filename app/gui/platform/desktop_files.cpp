// The desktop's files (platform/files.h): the assets folder beside the
// executable, and saved files written where the user named them.
#include "platform/files.h"

#include "base/assets.h"

namespace vit::gui {

std::string asset_folder() { return asset_dir(); }

void save_file(const std::string& /*path: already where the user named it*/, const std::function<void()>& write) { write(); }

}  // namespace vit::gui
