// Reading and writing the view's link (see view_link.h). The view's keys go
// through the lesson reader's read_view/write_view, so a link and a lesson step
// spell a view the same way and refuse the same mistakes.
#include "logic/link/view_link.h"

#include <cstdio>
#include <filesystem>

#include "base/error.h"
#include "base/parse.h"
#include "logic/state/json_reader.h"
#include "hub/hub_name.h"
#include "loading/builtin.h"
#include "pass/intervention_flags.h"

namespace vit::gui {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxQueryBytes = 8192;  // far above any view's link

[[noreturn]] void refuse(const std::string& key, const std::string& what) {
    throw Error("link: '" + shortened(key) + "': " + what);
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decoded(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%') {
            const int hi = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1,
                      lo = hi >= 0 ? hex_digit(text[i + 2]) : -1;
            if (lo < 0) throw Error("link: '" + shortened(text) + "' has a '%' not followed by two hex digits");
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string percent_encoded(const std::string& text) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~' || c == ',' || c == ':' || c == '/') {
            out += c;
        } else {
            out += '%';
            out += kHex[u >> 4];
            out += kHex[u & 15];
        }
    }
    return out;
}

bool is_intervention_key(const std::string& key) {
    if (key == flag_key(kNoPosFlag)) return true;
    for (const ValueFlag& f : kValueFlags)
        if (key == flag_key(f.flag)) return true;
    return false;
}

// A link's text as the JSON value a lesson file would hold: numbers and true/false as such.
json value_of(const std::string& text) {
    if (text == "true") return true;
    if (text == "false") return false;
    if (std::optional<int> n = to_int(text, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()))
        return *n;
    return text;
}

// Sets the link's own keys (model, image, lesson, step; hub is the page's); false for a view key.
bool read_own_key(ViewLink& link, const std::string& key, const std::string& value) {
    if (key == "model") link.model = value;
    else if (key == "image") link.image = value;
    else if (key == "lesson") link.lesson = value;
    else if (key == "step") link.step = parse_int("link: 'step'", value, 1, kMaxStatedSize);
    else if (key == "hub") return true;  // the Hub endpoint of the page's script (app/web/hub.js), not the app's
    else return false;
    return true;
}

}  // namespace

ViewLink parse_view_link(const std::string& query) {
    if (query.size() > kMaxQueryBytes) throw Error("link: longer than " + std::to_string(kMaxQueryBytes) + " bytes");
    ViewLink link;
    json view = json::object();
    const std::string text = !query.empty() && query[0] == '?' ? query.substr(1) : query;
    size_t start = 0;
    while (start < text.size()) {
        const size_t amp = std::min(text.find('&', start), text.size());
        const std::string pair = text.substr(start, amp - start);
        start = amp + 1;
        if (pair.empty()) continue;
        const size_t eq = pair.find('=');
        const std::string key = percent_decoded(pair.substr(0, eq));
        const std::string value = eq == std::string::npos ? "" : percent_decoded(pair.substr(eq + 1));
        if (view.contains(key) || (view.contains("interventions") && view["interventions"].contains(key)))
            refuse(key, "given twice");
        if (read_own_key(link, key, value)) continue;
        if (is_intervention_key(key)) view["interventions"][key] = value_of(value);
        else view[key] = value_of(value);
    }
    if (view.empty()) return link;
    const JsonReader r(view, "link");
    r.only({"stage", "screen", "token", "layer", "head", "gradients", "cls_only", "numbers", "colours", "interventions",
            "views_show", "model", "image", "lesson", "step"});
    read_view(r, link.view);
    link.has_view = true;
    return link;
}

std::string view_link_query(const ViewLink& link) {
    std::string query;
    auto put = [&](const std::string& key, const std::string& value) {
        if (value.empty()) return;
        query += (query.empty() ? "?" : "&") + percent_encoded(key) + "=" + percent_encoded(value);
    };
    put("model", link.model);
    put("image", link.image);
    put("lesson", link.lesson);
    if (link.step > 0) put("step", std::to_string(link.step));
    json view = json::object();
    write_view(view, link.view);
    if (view.contains("interventions")) {
        for (const auto& [key, value] : view["interventions"].items()) view[key] = value;
        view.erase("interventions");
    }
    for (const auto& [key, value] : view.items()) put(key, value.is_string() ? value.get<std::string>() : value.dump());
    return query;
}

Options options_from_link(const ViewLink& link, const std::string& asset_dir) {
    Options options;
    if (!link.model.empty() && !is_named_model(link.model))
        refuse("model", "'" + shortened(link.model) + "' is not a built-in model (" + builtin_model_names(", ") +
                            ") or an hf-hub:ORG/NAME model");
    if (is_hub_name(link.model)) parse_hub_name(link.model);  // one line naming what is wrong
    options.model = link.model;
    const fs::path assets(asset_dir);
    if (!link.image.empty()) {
        const fs::path image = fs::path(link.image).lexically_normal();
        if (image.is_absolute() || image.empty() || *image.begin() == ".." || !fs::is_regular_file(assets / image))
            refuse("image", "'" + shortened(link.image) + "' is not a built-in image (such as photos/coffee.jpg)");
        options.image = (assets / image).string();
    }
    if (!link.lesson.empty()) {
        const fs::path file = assets / "lessons" / (link.lesson + ".json");
        if (link.lesson.find('/') != std::string::npos || !fs::is_regular_file(file))
            refuse("lesson", "'" + shortened(link.lesson) + "' is not a built-in lesson (such as pixels-to-tokens)");
        options.lesson = file.string();
        options.lesson_step = link.step;
    }
    if (link.has_view) options.start_view = link.view;
    return options;
}

std::string view_title(const std::string& stage, const std::string& model, int step, int steps) {
    std::string title = stage.empty() ? "" : stage + " · ";
    if (!model.empty()) title += model + " · ";
    title += "ViT Visualizer";
    if (steps > 0) title += " · step " + std::to_string(step) + "/" + std::to_string(steps);
    return title;
}

}  // namespace vit::gui
