// Folder listings and path classification for the file browser, gallery and drops, and the gallery's models.
#include "logic/state/file_list.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>

#include "base/error.h"
#include "loading/builtin.h"

namespace vit::gui {

namespace fs = std::filesystem;

static std::string lower_ext(const fs::path& p) {
    std::string e = p.extension().string();
    for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return e;
}

bool is_image_path(const std::string& path) {
    std::string e = lower_ext(path);
    return e == ".png" || e == ".jpg" || e == ".jpeg" || e == ".bmp" || e == ".gif" || e == ".tga";
}

static bool is_model_folder(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_regular_file(dir / "config.json", ec)) return false;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (lower_ext(e.path()) == ".safetensors") return true;
    return false;
}

FileKind classify_path(const std::string& path) {
    std::error_code ec;
    fs::path p(path);
    if (fs::is_directory(p, ec)) return is_model_folder(p) ? FileKind::ModelFolder : FileKind::Folder;
    if (lower_ext(p) == ".safetensors") return FileKind::Checkpoint;
    if (is_image_path(path)) return FileKind::Image;
    return FileKind::Other;
}

std::vector<FileEntry> list_folder(const std::string& dir) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) throw Error(dir + ": cannot list folder (" + ec.message() + ")");
    std::vector<FileEntry> folders, files;
    for (const auto& e : it) {
        std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        FileKind k = classify_path(e.path().string());
        FileEntry fe{name, e.path().string(), k};
        if (k == FileKind::Folder || k == FileKind::ModelFolder) folders.push_back(fe);
        else if (k != FileKind::Other) files.push_back(fe);
    }
    auto by_name = [](const FileEntry& a, const FileEntry& b) { return a.name < b.name; };
    std::sort(folders.begin(), folders.end(), by_name);
    std::sort(files.begin(), files.end(), by_name);
    folders.insert(folders.end(), files.begin(), files.end());
    return folders;
}

// Walks `dir` recursively (unreadable folders skipped); `visit` may add the
// entry to `out` and return true to skip the entry's contents. The result is
// sorted by path and cut to `limit` entries.
static std::vector<FileEntry> walk(
    const std::string& dir, size_t limit,
    const std::function<bool(const fs::directory_entry&, std::vector<FileEntry>&)>& visit) {
    std::vector<FileEntry> out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return out;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (visit(*it, out)) it.disable_recursion_pending();
    }
    std::sort(out.begin(), out.end(), [](const FileEntry& a, const FileEntry& b) { return a.path < b.path; });
    if (out.size() > limit) out.resize(limit);
    return out;
}

std::vector<FileEntry> find_images(const std::string& dir, size_t limit) {
    return walk(dir, limit, [](const fs::directory_entry& e, std::vector<FileEntry>& out) {
        std::error_code ec;
        if (e.is_regular_file(ec) && is_image_path(e.path().string()))
            out.push_back({e.path().filename().string(), e.path().string(), FileKind::Image});
        return false;
    });
}

std::vector<FileEntry> find_models(const std::string& dir, size_t limit) {
    return walk(dir, limit, [](const fs::directory_entry& e, std::vector<FileEntry>& out) {
        const FileKind k = classify_path(e.path().string());
        const bool model =
            k == FileKind::ModelFolder || (k == FileKind::Checkpoint && !is_model_folder(e.path().parent_path()));
        if (model) out.push_back({e.path().filename().string(), e.path().string(), k});
        return k == FileKind::ModelFolder;  // a model folder's files are the model
    });
}

std::vector<GalleryModel> gallery_models(const std::string& asset_dir, size_t limit) {
    std::vector<GalleryModel> list;
    for (const BuiltinModel& m : builtin_models())
        list.push_back({std::string(m.name) + "   (built in: " + m.description + ")", m.name});
    for (const FileEntry& e : find_models(asset_dir, limit)) {
        const std::string relative = fs::relative(e.path, asset_dir).string();
        if (!is_builtin_model(relative)) list.push_back({relative, e.path});
    }
    return list;
}

std::string image_for_new_model(const std::string& model, const std::string& current, const std::string& image) {
    return brings_own_image(model) == brings_own_image(current) ? image : "";
}

}  // namespace vit::gui
