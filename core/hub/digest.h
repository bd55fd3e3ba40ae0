// The hashes the Hub names its files by, computed over a file on disk with
// OpenSSL: SHA-256 (an LFS file's X-Linked-Etag) and git's blob SHA-1 (a small
// file's ETag: sha1 of "blob <size>\0" and the bytes). Lower-case hex.
#pragma once
#include <string>

namespace vit {

std::string sha256_of_file(const std::string& path);
std::string git_blob_sha1_of_file(const std::string& path);

}  // namespace vit
