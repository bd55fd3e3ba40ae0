// The two HTTP requests the Hub's resolve protocol needs, over libcurl on the
// desktop (http_curl.cpp); the page fetches with the browser's own fetch (app/web/hub.js).
// Every wait is bounded: 15 s to connect, and a transfer that moves less than
// one byte a second for 30 s is cut.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/error.h"

namespace vit {

struct HttpReply {
    long status = 0;
    std::map<std::string, std::string> headers;  // names in lower case, the last of each
    // The header's value without the quotes (and "W/") an ETag carries; "" when absent.
    std::string header(const std::string& name) const;
};

// The server could not be reached (no network, refused, timed out): a caller may use what it cached.
struct HttpUnreachable : Error {
    using Error::Error;
};

// HEAD `url`, sending `headers` ("Name: value"), redirects not followed.
HttpReply http_head(const std::string& url, const std::vector<std::string>& headers);

// Where a GET's body goes: `write` takes each piece (false: the write failed, stop);
// `progress` hears bytes received and expected, this request's (false: cancel).
struct HttpSink {
    std::function<bool(const char* data, size_t size)> write;
    std::function<bool(int64_t done, int64_t total)> progress;
};

// GET `url` from byte `offset` (a Range request when above 0), redirects followed
// (libcurl sends no Authorization header to another host); only a 2xx answer's body
// reaches the sink. Returns the final reply;
// throws HttpUnreachable, or vit::Error when cancelled, cut short or not written.
HttpReply http_get(const std::string& url, const std::vector<std::string>& headers, int64_t offset,
                   const HttpSink& sink);

}  // namespace vit
