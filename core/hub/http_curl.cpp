// HEAD and GET over libcurl (http.h).
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

#include "hub/http.h"

namespace vit {

namespace {

struct CurlHandle {
    CurlHandle() {
        static std::once_flag once;
        std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
        handle = curl_easy_init();
        if (!handle) throw Error("cannot start an HTTP client (libcurl)");
    }
    ~CurlHandle() {
        curl_easy_cleanup(handle);
        curl_slist_free_all(headers);
    }
    CURL* handle;
    curl_slist* headers = nullptr;
};

size_t on_header(char* data, size_t size, size_t count, void* user) {
    auto* reply = static_cast<HttpReply*>(user);
    const std::string line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) reply->headers.clear();  // a new response (after a redirect)
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
        std::string name = line.substr(0, colon), value = line.substr(colon + 1);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        const size_t first = value.find_first_not_of(" \t"), last = value.find_last_not_of(" \t\r\n");
        reply->headers[name] = first == std::string::npos ? "" : value.substr(first, last - first + 1);
    }
    return size * count;
}

struct GetState {
    const HttpSink* sink;
    CURL* handle;
    bool write_failed = false;
};

// The body of a 2xx answer goes to the sink; an error page's is dropped (the caller sees the status).
size_t on_body(char* data, size_t size, size_t count, void* user) {
    auto* state = static_cast<GetState*>(user);
    long status = 0;
    curl_easy_getinfo(state->handle, CURLINFO_RESPONSE_CODE, &status);
    if (status < 200 || status >= 300) return size * count;
    if (!state->sink->write(data, size * count)) {
        state->write_failed = true;
        return 0;
    }
    return size * count;
}

int on_progress(void* user, curl_off_t total, curl_off_t done, curl_off_t, curl_off_t) {
    auto* state = static_cast<GetState*>(user);
    return state->sink->progress && !state->sink->progress(done, total) ? 1 : 0;
}

void common_options(CurlHandle& c, const std::string& url, const std::vector<std::string>& headers, HttpReply& reply) {
    for (const std::string& h : headers) c.headers = curl_slist_append(c.headers, h.c_str());
    curl_easy_setopt(c.handle, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c.handle, CURLOPT_HTTPHEADER, c.headers);
    curl_easy_setopt(c.handle, CURLOPT_USERAGENT, "vitviz");
    curl_easy_setopt(c.handle, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c.handle, CURLOPT_HEADERDATA, &reply);
    curl_easy_setopt(c.handle, CURLOPT_CONNECTTIMEOUT, 15L);
    curl_easy_setopt(c.handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c.handle, CURLOPT_LOW_SPEED_TIME, 30L);
    curl_easy_setopt(c.handle, CURLOPT_NOSIGNAL, 1L);
}

// The result of a transfer: a reply, or the error it is.
void check(CURLcode code, const std::string& url, const GetState* state) {
    if (code == CURLE_OK) return;
    if (state && state->write_failed) throw Error("the download from " + url + " could not be written");
    if (code == CURLE_ABORTED_BY_CALLBACK) throw Error("the download was cancelled");
    if (code == CURLE_PARTIAL_FILE) throw Error("the download was cut short (a later run resumes it)");
    if (code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_CONNECT || code == CURLE_OPERATION_TIMEDOUT ||
        code == CURLE_COULDNT_RESOLVE_PROXY || code == CURLE_SSL_CONNECT_ERROR)
        throw HttpUnreachable(url + ": " + curl_easy_strerror(code));
    throw Error(url + ": " + curl_easy_strerror(code));
}

}  // namespace

std::string HttpReply::header(const std::string& name) const {
    const auto it = headers.find(name);
    if (it == headers.end()) return "";
    std::string value = it->second;
    if (value.rfind("W/", 0) == 0) value = value.substr(2);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return value;
}

HttpReply http_head(const std::string& url, const std::vector<std::string>& headers) {
    CurlHandle c;
    HttpReply reply;
    common_options(c, url, headers, reply);
    curl_easy_setopt(c.handle, CURLOPT_NOBODY, 1L);
    check(curl_easy_perform(c.handle), url, nullptr);
    curl_easy_getinfo(c.handle, CURLINFO_RESPONSE_CODE, &reply.status);
    return reply;
}

HttpReply http_get(const std::string& url, const std::vector<std::string>& headers, int64_t offset,
                   const HttpSink& sink) {
    CurlHandle c;
    HttpReply reply;
    GetState state{&sink, c.handle};
    common_options(c, url, headers, reply);
    curl_easy_setopt(c.handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c.handle, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(c.handle, CURLOPT_FAILONERROR, 0L);
    curl_easy_setopt(c.handle, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c.handle, CURLOPT_WRITEDATA, &state);
    curl_easy_setopt(c.handle, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c.handle, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c.handle, CURLOPT_XFERINFODATA, &state);
    if (offset > 0) curl_easy_setopt(c.handle, CURLOPT_RANGE, (std::to_string(offset) + "-").c_str());
    check(curl_easy_perform(c.handle), url, &state);
    curl_easy_getinfo(c.handle, CURLINFO_RESPONSE_CODE, &reply.status);
    return reply;
}

}  // namespace vit
