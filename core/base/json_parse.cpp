// Depth-bounded JSON parsing: nlohmann's parser is iterative, but the values
// it builds are printed and destroyed recursively, so a file nested 100,000
// deep is refused at the first level past kMaxJsonDepth.
#include "base/json_parse.h"

#include "base/bounds.h"
#include "base/error.h"

namespace vit {

using nlohmann::json;

namespace {

// A JSON library error without its "[json.exception.parse_error.101] " prefix.
std::string json_error_text(const std::exception& e) {
    std::string what = e.what();
    if (!what.empty() && what[0] == '[') {
        const size_t close = what.find("] ");
        if (close != std::string::npos) what.erase(0, close + 2);
    }
    return what;
}

}  // namespace

json parse_json(const uint8_t* begin, const uint8_t* end, const std::string& path, const char* what,
                const JsonObserver& observe) {
    const std::string invalid = path + ": invalid " + what + ": ";
    const auto check = [&](int depth, json::parse_event_t event, json& parsed) {
        if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
            depth >= kMaxJsonDepth)
            throw Error(invalid + "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        if (observe) observe(depth, event, parsed);
        return true;
    };
    try {
        return json::parse(begin, end, check);
    } catch (const json::exception& e) {
        throw Error(invalid + json_error_text(e));
    }
}

std::string quoted(const json& value) { return shortened(value.dump()); }

}  // namespace vit
