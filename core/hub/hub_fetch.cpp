// The resolve protocol and the checked download into the cache (hub_fetch.h).
#include "hub/hub_fetch.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "base/error.h"
#include "base/file_io.h"
#include "hub/blob_lock.h"
#include "hub/digest.h"
#include "hub/http.h"
#include "hub/hub_cache.h"
#include "hub/hub_gallery.h"
#include "hub/hub_name.h"

namespace fs = std::filesystem;

namespace vit {

namespace {

constexpr const char* kConfig = "config.json";
constexpr const char* kWeights = "model.safetensors";
constexpr const char* kPreprocessor = "preprocessor_config.json";
constexpr int64_t kMaxHubFileBytes = 64LL << 30;  // no ViT's weights come near

bool offline() {
    std::string v = hub_environment("HF_HUB_OFFLINE");
    for (char& c : v) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return v == "1" || v == "ON" || v == "YES" || v == "TRUE";
}

std::string endpoint() {
    std::string e = hub_environment("HF_ENDPOINT").empty() ? "https://huggingface.co" : hub_environment("HF_ENDPOINT");
    while (!e.empty() && e.back() == '/') e.pop_back();
    return e;
}

// "scheme://host:port" of a URL.
std::string origin(const std::string& url) {
    const size_t scheme = url.find("://");
    const size_t path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    return url.substr(0, path);
}

// The token huggingface_hub would send: HF_TOKEN, else the token file ($HF_TOKEN_PATH, else HF_HOME/token).
std::string token() {
    if (!hub_environment("HF_TOKEN").empty()) return hub_environment("HF_TOKEN");
    const std::string path =
        hub_environment("HF_TOKEN_PATH").empty() ? hub_home_folder() + "/token" : hub_environment("HF_TOKEN_PATH");
    return small_text_file(path, 4096);
}

// The headers for a request to `url`: the token only when it goes to the endpoint.
std::vector<std::string> request_headers(const std::string& url) {
    const std::string t = token();
    if (t.empty() || origin(url) != origin(endpoint())) return {};
    return {"Authorization: Bearer " + t};
}

struct RemoteFile {
    std::string file, commit, etag, url;
    int64_t size = -1;
    bool lfs = false;
};

class HubSession {
public:
    HubSession(const HubName& name, const HubProgress& progress)
        : name_(name), cache_(name.repo), progress_(progress) {}
    std::string download();                     // the snapshot folder, every file checked
    std::optional<std::string> cached() const;  // the snapshot folder when the cache has the model

private:
    std::optional<RemoteFile> head(const std::string& file, const std::string& revision);
    RemoteFile reply_file(const std::string& file, const std::string& url, const HttpReply& reply) const;
    [[noreturn]] void refuse(const std::string& file, const HttpReply& reply) const;
    BlobLock lock_blob(const RemoteFile& f) const;
    void fetch(const RemoteFile& f);
    void receive(const RemoteFile& f, const std::string& temporary);
    void check_whole(const RemoteFile& f, const std::string& temporary) const;
    std::string where(const std::string& file) const { return name_.text() + ": " + file; }

    HubName name_;
    HubRepoCache cache_;
    const HubProgress& progress_;
};

std::optional<std::string> HubSession::cached() const {
    const std::optional<std::string> commit = cache_.commit_of(name_.revision);
    if (!commit || !cache_.cached_file(*commit, kConfig) || !cache_.cached_file(*commit, kWeights)) return std::nullopt;
    return cache_.snapshot_folder(*commit);
}

// HEAD of `file` at `revision`, relative redirects (a renamed repository) followed; nullopt for 404.
std::optional<RemoteFile> HubSession::head(const std::string& file, const std::string& revision) {
    std::string url = endpoint() + "/" + name_.repo + "/resolve/" + revision + "/" + file;
    for (int hops = 0; hops < 5; ++hops) {
        const HttpReply reply = http_head(url, request_headers(url));
        if (reply.status == 404) return std::nullopt;
        if (reply.status >= 300 && reply.status < 400 && reply.header("x-linked-etag").empty()) {
            const std::string location = reply.header("location");
            url = location.rfind("http", 0) == 0 ? location : origin(url) + location;
            continue;
        }
        if (reply.status >= 400 || reply.status < 200) refuse(file, reply);
        return reply_file(file, url, reply);
    }
    throw Error(where(file) + ": the Hub redirected more than 5 times");
}

RemoteFile HubSession::reply_file(const std::string& file, const std::string& url, const HttpReply& reply) const {
    RemoteFile f{file, reply.header("x-repo-commit"), reply.header("x-linked-etag"), url};
    f.lfs = !f.etag.empty();
    const std::string size = f.lfs ? reply.header("x-linked-size") : reply.header("content-length");
    if (f.lfs) {
        const std::string location = reply.header("location");
        f.url = location.rfind("http", 0) == 0 ? location : origin(url) + location;
    } else {
        f.etag = reply.header("etag");
    }
    char* end = nullptr;
    f.size = size.empty() ? -1 : std::strtoll(size.c_str(), &end, 10);
    if (!is_commit_hash(f.commit) || f.etag.empty() || f.etag.find('/') != std::string::npos || f.size < 0 ||
        f.size > kMaxHubFileBytes)
        throw Error(where(file) + ": the server's answer lacks the commit, hash or size of the file (is " + endpoint() +
                    " a Hugging Face Hub?)");
    return f;
}

void HubSession::refuse(const std::string& file, const HttpReply& reply) const {
    const std::string status = std::to_string(reply.status);
    if (reply.status == 401 || reply.status == 403)
        throw Error(where(file) + ": the Hub answered " + status + ": the repository is private or gated; " +
                    (token().empty() ? "set HF_TOKEN to a token that may read it"
                                     : "the token given (HF_TOKEN or the token file) may not read it"));
    throw Error(where(file) + ": the Hub answered " + status);
}

// The model's files at one commit: config.json first (its commit names the snapshot),
// then the weights, then a Hugging Face layout's preprocessor_config.json.
std::string HubSession::download() {
    const std::optional<RemoteFile> config = head(kConfig, name_.revision);
    if (!config) throw Error(where(kConfig) + ": not found (404): no such repository, revision or file on the Hub");
    const std::string commit = config->commit;
    fetch(*config);
    const std::optional<RemoteFile> weights = head(kWeights, commit);
    if (!weights) {
        for (const char* pickled : {"pytorch_model.bin", "open_clip_pytorch_model.bin"})
            if (head(pickled, commit))
                throw Error(where(kWeights) + ": the repository has only " + pickled +
                            " (PyTorch's pickle format); only safetensors are read");
        throw Error(where(kWeights) + ": not found (404): the repository has no safetensors weights");
    }
    fetch(*weights);
    if (const std::optional<RemoteFile> preprocessor = head(kPreprocessor, commit)) fetch(*preprocessor);
    cache_.write_ref(name_.revision, commit);
    return cache_.snapshot_folder(commit);
}

// The lock on `f`'s blob; the wait for another download of it can be cancelled as a download can.
BlobLock HubSession::lock_blob(const RemoteFile& f) const {
    try {
        return BlobLock(cache_.lock_path(f.etag), [&] {
            return !progress_ || progress_({name_.text(), f.file, 0, f.size, 0.0});
        });
    } catch (const Error& e) {
        throw Error(where(f.file) + ": " + e.what());
    }
}

// One file into blobs/ (unless its blob is there) and linked from the snapshot; the blob's
// lock held meanwhile, so a second download of it (this app's or Python's) waits, then finds it.
void HubSession::fetch(const RemoteFile& f) {
    const std::string blob = cache_.blob_path(f.etag);
    const BlobLock lock = lock_blob(f);
    std::error_code ec;
    if (!fs::is_regular_file(blob, ec) || static_cast<int64_t>(fs::file_size(blob, ec)) != f.size) {
        make_folder(fs::path(blob).parent_path().string());
        const std::string temporary = blob + ".incomplete";
        receive(f, temporary);
        check_whole(f, temporary);
        fs::rename(temporary, blob, ec);
        if (ec) throw Error("cannot write '" + blob + "': " + ec.message());
    }
    cache_.link_snapshot(f.commit, f.file, f.etag);
}

// The bytes into `temporary`, resuming a download an earlier run left there.
void HubSession::receive(const RemoteFile& f, const std::string& temporary) {
    std::error_code ec;
    int64_t offset = fs::is_regular_file(temporary, ec) ? static_cast<int64_t>(fs::file_size(temporary, ec)) : 0;
    if (offset >= f.size) offset = 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
        std::unique_ptr<FILE, int (*)(FILE*)> out(std::fopen(temporary.c_str(), offset > 0 ? "ab" : "wb"), std::fclose);
        if (!out) throw open_error(temporary, errno);
        const auto start = std::chrono::steady_clock::now();
        int write_errno = 0;
        HttpSink sink{[&](const char* data, size_t size) {
                          if (std::fwrite(data, 1, size, out.get()) == size) return true;
                          write_errno = errno;
                          return false;
                      },
                      [&](int64_t done, int64_t) {
                          const std::chrono::duration<double> s = std::chrono::steady_clock::now() - start;
                          return !progress_ || progress_({name_.text(), f.file, offset + done, f.size, s.count()});
                      }};
        HttpReply reply;
        try {
            reply = http_get(f.url, request_headers(f.url), offset, sink);
        } catch (const Error& e) {
            if (write_errno) fs::remove(temporary, ec);  // a full disk keeps no partial file
            throw Error(where(f.file) + ": " +
                        (write_errno ? "cannot write '" + temporary + "': " + std::strerror(write_errno)
                                     : std::string(e.what())));
        }
        if (std::fclose(out.release()) != 0)
            throw Error(where(f.file) + ": cannot write '" + temporary + "': " + std::strerror(errno));
        if (reply.status == 206 || (reply.status == 200 && offset == 0)) return;
        if (reply.status != 200) refuse(f.file, reply);
        offset = 0;  // the server sent the whole file, not the rest: start again
    }
}

// The size and hash the Hub stated; a file that differs is not kept.
void HubSession::check_whole(const RemoteFile& f, const std::string& temporary) const {
    const int64_t size = static_cast<int64_t>(fs::file_size(temporary));
    if (size < f.size)
        throw Error(where(f.file) + ": the download was cut at " + std::to_string(size) + " of " +
                    std::to_string(f.size) + " bytes (a later run resumes it)");
    std::string hash, kind;
    if (f.lfs) hash = sha256_of_file(temporary), kind = "sha256";
    else if (f.etag.size() == 40) hash = git_blob_sha1_of_file(temporary), kind = "git sha1";
    if (size != f.size || (!kind.empty() && hash != f.etag)) {
        std::error_code ec;
        fs::remove(temporary, ec);
        throw Error(where(f.file) + ": the file that arrived differs from the Hub's (" +
                    (size != f.size ? std::to_string(size) + " bytes, not " + std::to_string(f.size)
                                    : kind + " " + hash.substr(0, 12) + "…, not " + f.etag.substr(0, 12) + "…") +
                    "); not kept");
    }
}

}  // namespace

bool hub_model_cached(const std::string& name) {
    const HubProgress none;
    return HubSession(parse_hub_name(name), none).cached().has_value();
}

bool hub_model_out_of_reach(const std::string& name) { return offline() && !hub_model_cached(name); }

std::string hub_model_folder(const std::string& text, const HubProgress& progress) {
    const HubName name = parse_hub_name(text);
    HubSession session(name, progress);
    if (offline()) {
        if (std::optional<std::string> folder = session.cached()) return *folder;
        throw Error(name.text() + ": not in the cache (" + HubRepoCache(name.repo).folder() +
                    ") and HF_HUB_OFFLINE is set: download it once with the network on");
    }
    try {
        return session.download();
    } catch (const HttpUnreachable& e) {
        if (std::optional<std::string> folder = session.cached()) return *folder;  // the Hub is down: the cached copy
        throw Error(name.text() + ": the Hub cannot be reached (" + e.what() + ") and the model is not in the cache");
    }
}

}  // namespace vit
