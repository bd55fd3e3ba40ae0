// Parsing JSON from files (config.json, preprocessor_config.json, safetensors
// headers) with bounded nesting, and quoting parsed values in messages.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace vit {

// Sees every object key (event parse_event_t::key, the key as a JSON string)
// at its depth, 1 for the outermost object's, as nlohmann's parser callback
// does (for checks the JSON library leaves out, such as keys given twice).
using JsonObserver = std::function<void(int depth, nlohmann::json::parse_event_t event, const nlohmann::json& parsed)>;

// The JSON text [begin, end) of `path`; throws vit::Error "PATH: invalid
// JSON: …" (`what` in place of JSON) for bad syntax and for nesting deeper
// than kMaxJsonDepth. Linear in the text.
nlohmann::json parse_json(const uint8_t* begin, const uint8_t* end, const std::string& path, const char* what = "JSON",
                          const JsonObserver& observe = {});

// A value as JSON text, shortened for a message.
std::string quoted(const nlohmann::json& value);

}  // namespace vit
