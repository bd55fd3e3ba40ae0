// Depth-bounded JSON parsing in time linear in the text: nlohmann's SAX parser
// feeds a small DOM builder that refuses the first level past kMaxJsonDepth
// (the values nlohmann builds are printed and destroyed recursively, so a file
// nested 100,000 deep must never become one). nlohmann's parse callback is not
// used: its DOM builder scans an object's members at every member that ends,
// which is quadratic in a header of 300,000 tensors.
#include "base/json_parse.h"

#include <vector>

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

// nlohmann's SAX interface, building the parsed value (a key given twice keeps
// its last value, as json::parse does) and refusing nesting past kMaxJsonDepth.
class BoundedBuilder {
public:
    BoundedBuilder(const std::string& invalid, const JsonObserver& observe) : invalid_(invalid), observe_(observe) {}
    json take() { return std::move(root_); }

    bool null() { return put(nullptr); }
    bool boolean(bool v) { return put(v); }
    bool number_integer(json::number_integer_t v) { return put(v); }
    bool number_unsigned(json::number_unsigned_t v) { return put(v); }
    bool number_float(json::number_float_t v, const json::string_t&) { return put(v); }
    bool string(json::string_t& v) { return put(std::move(v)); }
    bool binary(json::binary_t& v) { return put(json::binary(std::move(v))); }
    bool start_object(size_t) { return open(json::object()); }
    bool start_array(size_t) { return open(json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k) {
        if (observe_) observe_(static_cast<int>(open_.size()), json::parse_event_t::key, json(k));
        member_ = &(*open_.back())[std::move(k)];
        return true;
    }
    bool parse_error(size_t, const std::string&, const nlohmann::detail::exception& e) {
        throw Error(invalid_ + json_error_text(e));
    }

private:
    // Places a value where the parser is: the root, the next array element or the last key's member.
    json* place(json&& value) {
        if (open_.empty()) return &(root_ = std::move(value));
        json& parent = *open_.back();
        if (parent.is_array()) return &parent.emplace_back(std::move(value));
        return &(*member_ = std::move(value));
    }
    template <typename V>
    bool put(V&& value) {
        place(json(std::forward<V>(value)));
        return true;
    }
    bool open(json&& empty) {
        if (static_cast<int>(open_.size()) >= kMaxJsonDepth)
            throw Error(invalid_ + "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        open_.push_back(place(std::move(empty)));
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }

    const std::string& invalid_;
    const JsonObserver& observe_;
    json root_;
    std::vector<json*> open_;  // the objects and arrays being filled, outermost first
    json* member_ = nullptr;   // the member the next value of the innermost object goes to
};

}  // namespace

json parse_json(const uint8_t* begin, const uint8_t* end, const std::string& path, const char* what,
                const JsonObserver& observe) {
    const std::string invalid = path + ": invalid " + what + ": ";
    BoundedBuilder builder(invalid, observe);
    try {
        json::sax_parse(begin, end, &builder);
    } catch (const json::exception& e) {
        throw Error(invalid + json_error_text(e));
    }
    return builder.take();
}

std::string quoted(const json& value) { return shortened(value.dump()); }

}  // namespace vit
