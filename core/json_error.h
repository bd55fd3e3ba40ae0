// The text of a JSON library error without its "[json.exception.parse_error.101] "
// prefix, so loaders can say "config.json: invalid JSON: parse error at line 3, ...".
#pragma once
#include <exception>
#include <string>

namespace vit {

inline std::string json_error_text(const std::exception& e) {
    std::string what = e.what();
    if (!what.empty() && what[0] == '[') {
        const size_t close = what.find("] ");
        if (close != std::string::npos) what.erase(0, close + 2);
    }
    return what;
}

}  // namespace vit
