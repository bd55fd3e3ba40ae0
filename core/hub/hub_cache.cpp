// The Hugging Face cache's folders, links and refs (hub_cache.h).
#include "hub/hub_cache.h"

#include <cstdlib>
#include <filesystem>

#include "base/error.h"
#include "base/file_io.h"

namespace fs = std::filesystem;

namespace vit {

std::string hub_environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

bool is_commit_hash(const std::string& text) {
    if (text.size() != 40) return false;
    for (char c : text)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

std::string small_text_file(const std::string& path, size_t max_bytes) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return "";
    const std::vector<uint8_t> bytes = read_file(path, max_bytes);
    std::string text(bytes.begin(), bytes.end());
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    return text;
}

std::string hub_home_folder() {
    if (!hub_environment("HF_HOME").empty()) return hub_environment("HF_HOME");
    if (!hub_environment("XDG_CACHE_HOME").empty()) return hub_environment("XDG_CACHE_HOME") + "/huggingface";
    return hub_environment("HOME") + "/.cache/huggingface";
}

std::string hub_cache_folder() {
    if (!hub_environment("HF_HUB_CACHE").empty()) return hub_environment("HF_HUB_CACHE");
    if (!hub_environment("HUGGINGFACE_HUB_CACHE").empty())  // huggingface_hub's older name
        return hub_environment("HUGGINGFACE_HUB_CACHE");
    return hub_home_folder() + "/hub";
}

HubRepoCache::HubRepoCache(const std::string& repo) {
    std::string flat = "models--" + repo;
    const size_t slash = flat.find('/');
    if (slash != std::string::npos) flat.replace(slash, 1, "--");
    folder_ = (fs::path(hub_cache_folder()) / flat).string();
}

std::string HubRepoCache::lock_path(const std::string& etag) const {
    const fs::path folder(folder_);
    return (folder.parent_path() / ".locks" / folder.filename() / (etag + ".lock")).string();
}

std::optional<std::string> HubRepoCache::commit_of(const std::string& revision) const {
    if (is_commit_hash(revision) && fs::is_directory(snapshot_folder(revision))) return revision;
    const std::string commit = small_text_file((fs::path(folder_) / "refs" / revision).string(), 256);
    if (!is_commit_hash(commit)) return std::nullopt;
    return commit;
}

std::optional<std::string> HubRepoCache::cached_file(const std::string& commit, const std::string& file) const {
    const fs::path path = fs::path(snapshot_folder(commit)) / file;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;  // follows the link: its blob must be there
    return path.string();
}

std::string HubRepoCache::blob_path(const std::string& etag) const {
    return (fs::path(folder_) / "blobs" / etag).string();
}

std::string HubRepoCache::snapshot_folder(const std::string& commit) const {
    return (fs::path(folder_) / "snapshots" / commit).string();
}

void HubRepoCache::link_snapshot(const std::string& commit, const std::string& file, const std::string& etag) const {
    const fs::path link = fs::path(snapshot_folder(commit)) / file;
    make_folder(link.parent_path().string());
    const fs::path target = fs::relative(blob_path(etag), link.parent_path());
    const fs::path temporary = link.string() + ".linking";
    std::error_code ec;
    fs::remove(temporary, ec);
    fs::create_symlink(target, temporary, ec);
    if (!ec) fs::rename(temporary, link, ec);  // the link appears whole
    if (ec) throw Error("cannot write the link '" + link.string() + "': " + ec.message());
}

void HubRepoCache::write_ref(const std::string& revision, const std::string& commit) const {
    if (revision == commit) return;
    const fs::path ref = fs::path(folder_) / "refs" / revision;
    make_folder(ref.parent_path().string());
    const std::string temporary = ref.string() + ".writing";
    write_whole_file(temporary, commit, "the ref");
    std::error_code ec;
    fs::rename(temporary, ref, ec);
    if (ec) throw Error("cannot write the ref '" + ref.string() + "': " + ec.message());
}

}  // namespace vit
