// SHA-256 and git blob SHA-1 of a file, through OpenSSL's EVP interface (digest.h).
#include "hub/digest.h"

#include <openssl/evp.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "base/error.h"
#include "base/file_io.h"

namespace vit {

namespace {

// `prefix` and then the file's bytes through `md`, as hex.
std::string digest_of_file(const std::string& path, const EVP_MD* md, const std::string& prefix) {
    std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!file) throw open_error(path, errno);
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (!ctx || EVP_DigestInit_ex(ctx.get(), md, nullptr) != 1) throw Error("cannot start a hash (OpenSSL)");
    EVP_DigestUpdate(ctx.get(), prefix.data(), prefix.size());
    std::vector<unsigned char> buffer(1 << 20);
    size_t n;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0)
        EVP_DigestUpdate(ctx.get(), buffer.data(), n);
    if (std::ferror(file.get())) throw Error("cannot read '" + path + "' to check its hash");
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_DigestFinal_ex(ctx.get(), out, &size);
    static const char* kHex = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) hex += {kHex[out[i] >> 4], kHex[out[i] & 15]};
    return hex;
}

}  // namespace

std::string sha256_of_file(const std::string& path) { return digest_of_file(path, EVP_sha256(), ""); }

std::string git_blob_sha1_of_file(const std::string& path) {
    const std::string header = "blob " + std::to_string(std::filesystem::file_size(path)) + std::string(1, '\0');
    return digest_of_file(path, EVP_sha1(), header);
}

}  // namespace vit
