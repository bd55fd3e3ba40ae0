// Capturing, restoring and reading/writing a saved view (see view_snapshot.h).
#include "logic/state/view_snapshot.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "base/bounds.h"

namespace vit::gui {

using nlohmann::json;

namespace {

const std::vector<NamedValue<ColormapMode>> kColours = {
    {"auto", ColormapMode::Auto}, {"diverging", ColormapMode::Diverging}, {"sequential", ColormapMode::Sequential}};
const std::vector<NamedValue<AskShow>> kViewsShow = {
    {"modified", AskShow::Modified}, {"original", AskShow::Original}, {"difference", AskShow::Difference}};

// The flags' values as they are written on the command line; a number stands for its text
// ("temperature": 0.5). Whether they fit the model is a question for resolve_interventions.
vit::InterventionFlags read_interventions(const json& v, const std::string& where) {
    const JsonReader r(v, where + ": 'interventions'");
    std::vector<std::string> keys;
    for (const vit::ValueFlag& f : vit::kValueFlags) keys.push_back(vit::flag_key(f.flag));
    keys.push_back(vit::flag_key(vit::kNoPosFlag));
    r.only(keys);
    vit::InterventionFlags flags;
    for (const vit::ValueFlag& f : vit::kValueFlags) {
        const std::string key = vit::flag_key(f.flag);
        if (!r.has(key.c_str())) continue;
        const json& value = r.at(key.c_str());
        if (value.is_number()) flags.*f.value = value.dump();
        else if (value.is_string() && !value.get<std::string>().empty()) flags.*f.value = value.get<std::string>();
        else
            r.fail("'" + key + "' must be text as on the command line (such as \"3,5,10-12\") or a number, got " +
                   quoted(value));
    }
    r.flag(vit::flag_key(vit::kNoPosFlag).c_str(), flags.no_pos);
    return flags;
}

json interventions_json(const vit::InterventionFlags& flags) {
    json j = json::object();
    for (const vit::ValueFlag& f : vit::kValueFlags) {
        const std::string& text = flags.*f.value;
        if (text.empty()) continue;
        // A plain number (a temperature, a single patch) is written as one.
        const json number = json::parse(text, nullptr, false);
        j[vit::flag_key(f.flag)] = number.is_number() && number.dump() == text ? number : json(text);
    }
    if (flags.no_pos) j[vit::flag_key(vit::kNoPosFlag)] = true;
    return j;
}

// What the Ask panel asks on this model: nothing where the flags do not fit it.
vit::Interventions fitting_interventions(const vit::InterventionFlags& flags, const Pipeline& p) {
    try {
        return resolve_interventions(flags, p);
    } catch (const Error&) {
        return {};
    }
}

}  // namespace

bool ViewSnapshot::operator==(const ViewSnapshot& o) const {
    return stage == o.stage && screen == o.screen && token == o.token && layer == o.layer && head == o.head &&
           gradients == o.gradients && cls_only == o.cls_only && numbers == o.numbers && colours == o.colours &&
           interventions == o.interventions && views_show == o.views_show;
}

ViewSnapshot capture_view(const AppState& s, const Pipeline& p) {
    ViewSnapshot v;
    v.stage = s.stage >= 0 && s.stage < p.size() ? p.ids[static_cast<size_t>(s.stage)] : "";
    v.screen = s.screen;
    v.token = s.token;
    v.layer = s.layer;
    v.head = s.head;
    v.gradients = s.gradients;
    v.cls_only = s.cls_only;
    v.numbers = s.show_numbers;
    v.colours = s.colormap;
    v.interventions = vit::InterventionFlags::of(to_interventions(s.ask));
    v.views_show = s.ask.show;
    return v;
}

void restore_view(const ViewSnapshot& v, AppState& s, const Pipeline& p) {
    go_to_stage(s, p, v.stage.empty() ? 0 : std::max(0, p.index_of(v.stage)));
    s.screen = v.screen;
    s.gradients = v.gradients;
    s.show_numbers = v.numbers;
    s.colormap = v.colours;
    select_layer(s, p, v.layer);
    select_head(s, p, v.head);
    select_token(s, p, v.token);
    s.cls_only = v.cls_only && p.layout.has_cls();  // after select_token, which turns it off
    fit_ask(s.ask, p.patches(), p.depth, p.heads);
    set_interventions(s.ask, fitting_interventions(v.interventions, p));
    s.ask.show = v.views_show;
}

vit::Interventions resolve_interventions(const vit::InterventionFlags& flags, const Pipeline& p) {
    vit::ModelConfig sizes;  // all that validate_interventions reads of the model
    sizes.depth = p.depth;
    sizes.num_heads = p.heads;
    const int grid = static_cast<int>(std::lround(std::sqrt(p.patches())));
    return flags.resolve(sizes, grid, true);
}

void read_view(const JsonReader& r, ViewSnapshot& v) {
    r.text("stage", v.stage);
    if (!v.stage.empty() && !parse_stage_id(v.stage))
        r.fail("'stage' " + quoted(json(v.stage)) + " is not a stage of the catalogue");
    r.choice("screen", v.screen, screen_table());
    r.integer("token", v.token, 0, kMaxStatedSize);
    r.integer("layer", v.layer, 0, kMaxStatedSize);
    r.integer("head", v.head, -1, kMaxStatedSize);
    r.flag("gradients", v.gradients);
    r.flag("cls_only", v.cls_only);
    r.flag("numbers", v.numbers);
    r.choice("colours", v.colours, kColours);
    if (r.has("interventions")) v.interventions = read_interventions(r.at("interventions"), r.where());
    r.choice("views_show", v.views_show, kViewsShow);
}

void write_view(json& j, const ViewSnapshot& v) {
    const ViewSnapshot defaults;
    auto put = [&](const char* key, const auto& value, const auto& plain) {
        if (value != plain) j[key] = value;
    };
    put("stage", v.stage, defaults.stage);
    if (v.screen != defaults.screen) j["screen"] = screen_name(v.screen);
    put("token", v.token, defaults.token);
    put("layer", v.layer, defaults.layer);
    put("head", v.head, defaults.head);
    put("gradients", v.gradients, defaults.gradients);
    put("cls_only", v.cls_only, defaults.cls_only);
    put("numbers", v.numbers, defaults.numbers);
    if (v.colours != defaults.colours) j["colours"] = name_in(kColours, v.colours);
    if (v.interventions.any()) j["interventions"] = interventions_json(v.interventions);
    if (v.views_show != defaults.views_show) j["views_show"] = name_in(kViewsShow, v.views_show);
}

}  // namespace vit::gui
