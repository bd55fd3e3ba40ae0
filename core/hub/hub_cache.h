// The Hugging Face cache on disk, shared with huggingface_hub (and so with timm
// and transformers): a repository's files live in
//   <cache>/models--ORG--NAME/blobs/<etag>                 the bytes, named by their hash
//   <cache>/models--ORG--NAME/snapshots/<commit>/<file>    a relative link into blobs/
//   <cache>/models--ORG--NAME/refs/<revision>              the commit a branch or tag was at
// <cache> is $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub, as huggingface_hub finds it. Files enter blobs/ only whole and
// checked (hub_fetch.cpp), under a temporary name until then, so a snapshot link never
// points at a partial file.
#pragma once
#include <optional>
#include <string>

namespace vit {

// An environment variable's value; "" when it is not set.
std::string hub_environment(const char* name);
// A 40-digit hexadecimal commit hash.
bool is_commit_hash(const std::string& text);
// A small text file (a ref, the token file) with its trailing whitespace cut; "" when there is none.
std::string small_text_file(const std::string& path, size_t max_bytes);

// The cache folder, from the environment as huggingface_hub reads it.
std::string hub_cache_folder();
// $HF_HOME, else $XDG_CACHE_HOME/huggingface, else ~/.cache/huggingface (the token file lives there).
std::string hub_home_folder();

class HubRepoCache {
public:
    explicit HubRepoCache(const std::string& repo);  // "ORG/NAME"

    const std::string& folder() const { return folder_; }
    // The commit `revision` names here: refs/<revision>'s content, or `revision` itself when
    // it is a 40-digit commit with a snapshot; nullopt when the cache does not know it.
    std::optional<std::string> commit_of(const std::string& revision) const;
    // snapshots/<commit>/<file> when it exists (a link whose blob is there, or a file).
    std::optional<std::string> cached_file(const std::string& commit, const std::string& file) const;
    std::string blob_path(const std::string& etag) const;  // blobs/<etag>
    // <cache>/.locks/models--ORG--NAME/<etag>.lock: the file huggingface_hub locks (flock) while it
    // downloads that blob, so this app and Python never write one blob at once.
    std::string lock_path(const std::string& etag) const;
    // Links snapshots/<commit>/<file> to blobs/<etag> (relative, as huggingface_hub does).
    void link_snapshot(const std::string& commit, const std::string& file, const std::string& etag) const;
    // refs/<revision> = commit (not for a commit asked by its hash).
    void write_ref(const std::string& revision, const std::string& commit) const;
    std::string snapshot_folder(const std::string& commit) const;

private:
    std::string folder_;
};

}  // namespace vit
