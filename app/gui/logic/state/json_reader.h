// Reading one JSON object of a hand-written file (a lesson, its steps' views):
// each key read once with its type checked, every mistake one vit::Error that
// names the place ("PATH: step 2: 'token' must be …"). Named choices come from
// tables of {name, value} entries, such as screens.h's.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/json_parse.h"

namespace vit::gui {

template <typename T>
struct NamedValue {
    const char* name;
    T value;
};

// "a, b, c": every name of a table.
template <typename Table>
std::string names_of(const Table& table) {
    std::string all;
    for (const auto& entry : table) all += (all.empty() ? "" : ", ") + std::string(entry.name);
    return all;
}

// The name of `value` in the table (the first entry's when it has none).
template <typename Table, typename T>
const char* name_in(const Table& table, T value) {
    for (const auto& entry : table)
        if (entry.value == value) return entry.name;
    return table.front().name;
}

class JsonReader {
public:
    JsonReader(const nlohmann::json& object, std::string where) : object_(object), where_(std::move(where)) {
        if (!object_.is_object()) fail("expected a JSON object, got " + quoted(object_));
    }
    [[noreturn]] void fail(const std::string& what) const { throw Error(where_ + ": " + what); }
    // Every key must be one of `known`.
    void only(const std::vector<std::string>& known) const {
        for (const auto& [key, value] : object_.items()) {
            bool ok = false;
            for (const std::string& k : known) ok = ok || key == k;
            if (!ok) {
                std::string list;
                for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
                fail("unknown key '" + shortened(key) + "' (known keys: " + list + ")");
            }
        }
    }
    bool has(const char* key) const { return object_.contains(key); }
    const nlohmann::json& at(const char* key) const { return object_.at(key); }
    void text(const char* key, std::string& out) const {
        if (!has(key)) return;
        const nlohmann::json& v = at(key);
        if (!v.is_string()) fail("'" + std::string(key) + "' must be text, got " + quoted(v));
        out = v.get<std::string>();
    }
    void integer(const char* key, int& out, int lo, int hi) const {
        if (!has(key)) return;
        const nlohmann::json& v = at(key);
        if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi)
            fail("'" + std::string(key) + "' must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                 "], got " + quoted(v));
        out = v.get<int>();
    }
    void flag(const char* key, bool& out) const {
        if (!has(key)) return;
        const nlohmann::json& v = at(key);
        if (!v.is_boolean()) fail("'" + std::string(key) + "' must be true or false, got " + quoted(v));
        out = v.get<bool>();
    }
    // One of the table's names.
    template <typename Table, typename T>
    void choice(const char* key, T& out, const Table& table) const {
        if (!has(key)) return;
        const nlohmann::json& v = at(key);
        for (const auto& entry : table)
            if (v.is_string() && v.get<std::string>() == entry.name) return void(out = entry.value);
        fail("'" + std::string(key) + "' must be one of " + names_of(table) + ", got " + quoted(v));
    }
    const std::string& where() const { return where_; }  // the place its messages name

private:
    const nlohmann::json& object_;
    std::string where_;
};

}  // namespace vit::gui
