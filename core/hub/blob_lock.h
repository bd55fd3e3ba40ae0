// The lock huggingface_hub takes while it downloads a blob: an exclusive flock on
// <cache>/.locks/models--ORG--NAME/<etag>.lock (HubRepoCache::lock_path, hub_cache.h),
// held for a BlobLock's life, so two downloads of one blob, by this app or by Python,
// never write it at once: the second waits, then finds the blob whole.
#pragma once
#include <functional>
#include <string>

namespace vit {

class BlobLock {
public:
    // Takes the lock at `path` (made, with its folder, when missing), asking `keep_waiting` every
    // 0.2 s while another holds it: false gives up. vit::Error when the lock file cannot be made
    // or locked, or the wait was given up.
    BlobLock(const std::string& path, const std::function<bool()>& keep_waiting);
    ~BlobLock();
    BlobLock(const BlobLock&) = delete;
    BlobLock& operator=(const BlobLock&) = delete;

private:
    int fd_ = -1;
};

}  // namespace vit
