// The Open window's model gallery (see gallery.h).
#include "logic/state/gallery.h"

#include <filesystem>

#include "logic/state/file_list.h"
#include "model/builtin.h"

namespace vit::gui {

std::vector<GalleryModel> gallery_models(const std::string& asset_dir, size_t limit) {
    std::vector<GalleryModel> list;
    for (const BuiltinModel& m : builtin_models())
        list.push_back({std::string(m.name) + "   (built in: " + m.description + ")", m.name});
    for (const FileEntry& e : find_models(asset_dir, limit)) {
        const std::string relative = std::filesystem::relative(e.path, asset_dir).string();
        if (!is_builtin_model(relative)) list.push_back({relative, e.path});
    }
    return list;
}

}  // namespace vit::gui
