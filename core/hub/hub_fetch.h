// A model named "hf-hub:ORG/NAME[@REVISION]" as a folder on disk: the snapshot
// in the Hugging Face cache (hub_cache.h) holding config.json and
// model.safetensors (and preprocessor_config.json where the repository has
// one, as Hugging Face layouts do), downloaded first when the cache lacks them.
// It speaks huggingface_hub's resolve protocol: HEAD
// {endpoint}/{repo}/resolve/{revision}/{file} gives the commit (X-Repo-Commit),
// the file's hash and size (ETag, or X-Linked-Etag and X-Linked-Size with a
// redirect to where a large file lives), then GET fetches it. Each file is
// written under a temporary name, its size and hash checked, and only then
// renamed into blobs/ and linked from the snapshot. The environment as
// huggingface_hub reads it: HF_ENDPOINT (default https://huggingface.co),
// HF_HUB_OFFLINE (the cache only), HF_TOKEN or the token file under HF_HOME
// (sent to the endpoint only, never written or printed).
#pragma once
#include <string>

#include "hub/transfer.h"

namespace vit {

// The snapshot folder of `name`, from the cache or downloaded into it. vit::Error, one
// line naming the repository and the file, for every failure: no such repository or
// file (404), a private or gated one without a token that may read it (401, 403), a
// repository with no safetensors weights, a download cut short, a wrong size or hash,
// a full disk, no network with nothing cached.
std::string hub_model_folder(const std::string& name, const HubProgress& progress = {});

// True when `name` cannot be opened now, known without asking the Hub: it is not in
// the cache and the Hub is out of reach (HF_HUB_OFFLINE; in the page, its download failed).
bool hub_model_out_of_reach(const std::string& name);

}  // namespace vit
