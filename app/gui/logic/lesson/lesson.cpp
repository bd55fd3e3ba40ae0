// Lesson files: parsing with one message per mistake, saving, and the checks
// and views of a step (see lesson.h).
#include "logic/lesson/lesson.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/bounds.h"
#include "formats/checkpoint.h"
#include "base/error.h"
#include "base/file_io.h"
#include "base/json_parse.h"

namespace vit::gui {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::vector<std::pair<const char*, Screen>> kScreens = {
    {"stage", Screen::Stage},       {"attention", Screen::Attention},   {"why", Screen::Why},
    {"overview", Screen::Overview}, {"model-view", Screen::ModelView}};
const std::vector<std::pair<const char*, ColormapMode>> kColours = {
    {"auto", ColormapMode::Auto}, {"diverging", ColormapMode::Diverging}, {"sequential", ColormapMode::Sequential}};
const std::vector<std::pair<const char*, AskShow>> kViewsShow = {
    {"modified", AskShow::Modified}, {"original", AskShow::Original}, {"difference", AskShow::Difference}};

template <typename T>
std::string names_of(const std::vector<std::pair<const char*, T>>& table) {
    std::string all;
    for (const auto& [name, value] : table) all += (all.empty() ? "" : ", ") + std::string(name);
    return all;
}

// One object's keys, each read once with its type checked; where() names the place in messages.
class Reader {
public:
    Reader(const json& object, std::string where) : object_(object), where_(std::move(where)) {
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
                fail("unknown key '" + key + "' (known keys: " + list + ")");
            }
        }
    }
    bool has(const char* key) const { return object_.contains(key); }
    const json& at(const char* key) const { return object_.at(key); }
    void text(const char* key, std::string& out) const {
        if (!has(key)) return;
        const json& v = at(key);
        if (!v.is_string()) fail("'" + std::string(key) + "' must be text, got " + quoted(v));
        out = v.get<std::string>();
    }
    void integer(const char* key, int& out, int lo, int hi) const {
        if (!has(key)) return;
        const json& v = at(key);
        if (!v.is_number_integer() || v.get<int64_t>() < lo || v.get<int64_t>() > hi)
            fail("'" + std::string(key) + "' must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                 "], got " + quoted(v));
        out = v.get<int>();
    }
    void flag(const char* key, bool& out) const {
        if (!has(key)) return;
        const json& v = at(key);
        if (!v.is_boolean()) fail("'" + std::string(key) + "' must be true or false, got " + quoted(v));
        out = v.get<bool>();
    }
    template <typename T>
    void choice(const char* key, T& out, const std::vector<std::pair<const char*, T>>& table) const {
        if (!has(key)) return;
        const json& v = at(key);
        for (const auto& [name, value] : table)
            if (v.is_string() && v.get<std::string>() == name) return void(out = value);
        fail("'" + std::string(key) + "' must be one of " + names_of(table) + ", got " + quoted(v));
    }
    const std::string& where() const { return where_; }

private:
    const json& object_;
    std::string where_;
};

// A model that is not built in must be a checkpoint file or folder (relative to the lesson's folder).
void check_model_path(const Reader& r, const std::string& model, const fs::path& folder) {
    if (model.empty() || vit::is_builtin_model(model) || fs::exists(folder / model)) return;
    r.fail("'model' " + quoted(json(model)) + " is neither a built-in model (toy-4x4, digits, " + vit::kRandomVitB +
           ") nor a checkpoint file or folder (looked in " + folder.string() + ")");
}

Highlight read_highlight(const json& v, const std::string& where) {
    const Reader r(v, where + ": 'highlight'");
    r.only({"patch", "row", "cell"});
    if (v.size() != 1) r.fail("give exactly one of patch, row or cell");
    Highlight h;
    if (r.has("patch")) {
        h.kind = HighlightKind::Patch;
        r.integer("patch", h.patch, 0, kMaxStatedSize);
    } else if (r.has("row")) {
        h.kind = HighlightKind::Row;
        r.integer("row", h.row, 0, kMaxStatedSize);
    } else {
        const json& c = r.at("cell");
        const auto in_range = [](const json& x) { return x.is_number_integer() && x.get<int64_t>() >= 0 && x.get<int64_t>() <= kMaxStatedSize; };
        if (!c.is_array() || c.size() != 3 || !in_range(c[0]) || !in_range(c[1]) || !in_range(c[2]))
            r.fail("'cell' must be [head, row, column], got " + quoted(c));
        h.kind = HighlightKind::Cell;
        h.head = c[0].get<int>(), h.row = c[1].get<int>(), h.col = c[2].get<int>();
    }
    return h;
}

// The flags' values as they are written on the command line; a number stands for its text
// ("temperature": 0.5). Whether they fit the model is check_step's question.
vit::InterventionFlags read_interventions(const json& v, const std::string& where) {
    const Reader r(v, where + ": 'interventions'");
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
        else r.fail("'" + key + "' must be text as on the command line (such as \"3,5,10-12\") or a number, got " + quoted(value));
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

LessonTrain read_train(const json& v, const std::string& where) {
    const Reader r(v, where + ": 'train'");
    r.only({"epochs", "until_step", "seed", "window"});
    LessonTrain t;
    t.on = true;
    r.integer("epochs", t.epochs, 1, 200);
    r.integer("until_step", t.until_step, 0, kMaxStatedSize);
    r.integer("seed", t.seed, 0, kMaxStatedSize);
    r.flag("window", t.window);
    return t;
}

json train_json(const LessonTrain& t) {
    const LessonTrain defaults;
    json j = json::object();
    if (t.epochs != defaults.epochs) j["epochs"] = t.epochs;
    if (t.until_step != defaults.until_step) j["until_step"] = t.until_step;
    if (t.seed != defaults.seed) j["seed"] = t.seed;
    if (t.window != defaults.window) j["window"] = t.window;
    return j;
}

LessonStep read_step(const json& v, const std::string& where, const fs::path& folder) {
    const Reader r(v, where);
    r.only({"title", "narration", "question", "model", "image", "stage", "screen", "token", "layer", "head",
            "gradients", "cls_only", "numbers", "colours", "highlight", "interventions", "views_show", "train"});
    LessonStep s;
    r.text("title", s.title);
    r.text("narration", s.narration);
    r.text("question", s.question);
    r.text("model", s.model);
    check_model_path(r, s.model, folder);
    r.text("image", s.image);
    r.text("stage", s.stage);
    if (!s.stage.empty() && !parse_stage_id(s.stage)) r.fail("'stage' " + quoted(json(s.stage)) + " is not a stage of the catalogue");
    r.choice("screen", s.screen, kScreens);
    r.integer("token", s.token, 0, kMaxStatedSize);
    r.integer("layer", s.layer, 0, kMaxStatedSize);
    r.integer("head", s.head, -1, kMaxStatedSize);
    r.flag("gradients", s.gradients);
    r.flag("cls_only", s.cls_only);
    r.flag("numbers", s.numbers);
    r.choice("colours", s.colours, kColours);
    if (r.has("highlight")) s.highlight = read_highlight(r.at("highlight"), where);
    if (r.has("interventions")) s.interventions = read_interventions(r.at("interventions"), where);
    r.choice("views_show", s.views_show, kViewsShow);
    if (r.has("train")) s.train = read_train(r.at("train"), where);
    if (s.train.on && (r.has("model") || r.has("image")))
        r.fail("'train' runs the Train window's digits ViT on its probe digit: leave out 'model' and 'image'");
    if (s.title.empty()) r.fail("every step needs a 'title'");
    if (!s.image.empty() && !fs::is_regular_file(folder / s.image))
        r.fail("'image' " + quoted(json(s.image)) + " is not a file (looked in " + folder.string() + ")");
    return s;
}

json highlight_json(const Highlight& h) {
    switch (h.kind) {
        case HighlightKind::Patch: return {{"patch", h.patch}};
        case HighlightKind::Row: return {{"row", h.row}};
        case HighlightKind::Cell: return {{"cell", {h.head, h.row, h.col}}};
        case HighlightKind::None: break;
    }
    return nullptr;
}

template <typename T>
const char* name_in(const std::vector<std::pair<const char*, T>>& table, T value) {
    for (const auto& [name, v] : table)
        if (v == value) return name;
    return table.front().first;
}

// The step's interventions for a model of the pipeline's sizes (square images:
// grid² patches); vit::Error naming the key and its value when they do not fit.
vit::Interventions resolve_interventions(const vit::InterventionFlags& flags, const Pipeline& p) {
    vit::ModelConfig sizes;  // all that validate_interventions reads of the model
    sizes.depth = p.depth;
    sizes.num_heads = p.heads;
    const int grid = static_cast<int>(std::lround(std::sqrt(std::max(0, p.tokens - 1))));
    return flags.resolve(sizes, grid, true);
}

std::string step_place(const Lesson& lesson, int index, const std::string& path) {
    return path + ": step " + std::to_string(index + 1) + " (" + lesson.steps[index].title + ")";
}

}  // namespace

bool Highlight::operator==(const Highlight& o) const {
    return kind == o.kind && patch == o.patch && row == o.row && head == o.head && col == o.col;
}

bool LessonStep::operator==(const LessonStep& o) const {
    return title == o.title && narration == o.narration && question == o.question && model == o.model &&
           image == o.image && stage == o.stage && screen == o.screen && token == o.token && layer == o.layer &&
           head == o.head && gradients == o.gradients && cls_only == o.cls_only && numbers == o.numbers &&
           colours == o.colours && highlight == o.highlight && interventions == o.interventions &&
           views_show == o.views_show && train == o.train;
}

bool LessonTrain::operator==(const LessonTrain& o) const {
    return on == o.on && epochs == o.epochs && until_step == o.until_step && seed == o.seed && window == o.window;
}

bool Lesson::operator==(const Lesson& o) const {
    return title == o.title && model == o.model && image == o.image && steps == o.steps;
}

Lesson parse_lesson(const std::string& text, const std::string& path) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
    const json root = parse_json(bytes, bytes + text.size(), path);
    const Reader r(root, path);
    r.only({"title", "model", "image", "steps"});
    Lesson lesson;
    r.text("title", lesson.title);
    r.text("model", lesson.model);
    r.text("image", lesson.image);
    const fs::path folder = fs::path(path).parent_path();
    check_model_path(r, lesson.model, folder);
    if (!lesson.image.empty() && !fs::is_regular_file(folder / lesson.image))
        r.fail("'image' " + quoted(json(lesson.image)) + " is not a file (looked in " + folder.string() + ")");
    if (!r.has("steps") || !r.at("steps").is_array() || r.at("steps").empty())
        r.fail("'steps' must be a list of at least one step");
    const json& steps = r.at("steps");
    for (size_t i = 0; i < steps.size(); ++i)
        lesson.steps.push_back(read_step(steps[i], path + ": step " + std::to_string(i + 1), folder));
    return lesson;
}

Lesson load_lesson(const std::string& path) {
    const std::vector<uint8_t> bytes = read_file(path, kMaxConfigBytes);
    return parse_lesson(std::string(bytes.begin(), bytes.end()), path);
}

std::string lesson_json(const Lesson& lesson) {
    const LessonStep defaults;
    json steps = json::array();
    for (const LessonStep& s : lesson.steps) {
        json j = {{"title", s.title}};
        auto put = [&](const char* key, const auto& value, const auto& plain) {
            if (value != plain) j[key] = value;
        };
        put("narration", s.narration, defaults.narration);
        put("question", s.question, defaults.question);
        put("model", s.model, defaults.model);
        put("image", s.image, defaults.image);
        put("stage", s.stage, defaults.stage);
        if (s.screen != defaults.screen) j["screen"] = name_in(kScreens, s.screen);
        put("token", s.token, defaults.token);
        put("layer", s.layer, defaults.layer);
        put("head", s.head, defaults.head);
        put("gradients", s.gradients, defaults.gradients);
        put("cls_only", s.cls_only, defaults.cls_only);
        put("numbers", s.numbers, defaults.numbers);
        if (s.colours != defaults.colours) j["colours"] = name_in(kColours, s.colours);
        if (s.highlight.kind != HighlightKind::None) j["highlight"] = highlight_json(s.highlight);
        if (s.interventions.any()) j["interventions"] = interventions_json(s.interventions);
        if (s.views_show != defaults.views_show) j["views_show"] = name_in(kViewsShow, s.views_show);
        if (s.train.on) j["train"] = train_json(s.train);
        steps.push_back(std::move(j));
    }
    json root = {{"title", lesson.title}, {"model", lesson.model}};
    if (!lesson.image.empty()) root["image"] = lesson.image;
    root["steps"] = std::move(steps);
    return root.dump(2) + "\n";
}

void save_lesson(const Lesson& lesson, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    out << lesson_json(lesson);
    if (!out) throw Error(path + ": cannot write the lesson");
}

std::string step_model(const Lesson& lesson, const std::string& lesson_path, int index) {
    const std::string& own = lesson.steps.at(static_cast<size_t>(index)).model;
    const std::string& model = own.empty() ? lesson.model : own;
    return vit::is_builtin_model(model) ? model : (fs::path(lesson_path).parent_path() / model).string();
}

std::string step_image(const Lesson& lesson, const std::string& lesson_path, int index) {
    const std::string& own = lesson.steps.at(static_cast<size_t>(index)).image;
    const std::string& image = own.empty() ? lesson.image : own;
    return image.empty() ? "" : (fs::path(lesson_path).parent_path() / image).string();
}

void check_step(const Lesson& lesson, int index, const Pipeline& p, const std::string& lesson_path) {
    const LessonStep& s = lesson.steps.at(static_cast<size_t>(index));
    const std::string where = step_place(lesson, index, lesson_path);
    auto fail = [&](const std::string& key, const std::string& what) {
        throw Error(where + ": '" + key + "' " + what);
    };
    if (!s.stage.empty() && p.index_of(s.stage) < 0)
        fail("stage", "\"" + s.stage + "\": the model " + step_model(lesson, lesson_path, index) + " has no such stage (" +
                          std::to_string(p.depth) + " blocks" + (p.index_of(StageRef{StageKind::Logits}) < 0 ? ", no head)" : ")"));
    const int patches = p.tokens - 1;
    if (s.token >= p.tokens) fail("token", std::to_string(s.token) + ": the model sees " + std::to_string(p.tokens) + " tokens (0 = CLS)");
    if (s.layer >= std::max(1, p.depth)) fail("layer", std::to_string(s.layer) + ": the model has " + std::to_string(p.depth) + " blocks");
    if (s.head >= p.heads) fail("head", std::to_string(s.head) + ": the model has " + std::to_string(p.heads) + " heads");
    if ((s.screen != Screen::Stage && s.screen != Screen::Overview) && p.depth == 0)
        fail("screen", "needs attention, and the model has no blocks");
    if (s.cls_only && p.depth == 0) fail("cls_only", "needs attention, and the model has no blocks");
    const Highlight& h = s.highlight;
    if (h.kind == HighlightKind::Patch && h.patch >= patches)
        fail("highlight", "patch " + std::to_string(h.patch) + ": the model has " + std::to_string(patches) + " patches");
    if ((h.kind == HighlightKind::Row || h.kind == HighlightKind::Cell) && h.row >= p.tokens)
        fail("highlight", "row " + std::to_string(h.row) + ": the model sees " + std::to_string(p.tokens) + " tokens");
    if (h.kind == HighlightKind::Cell && (h.head >= p.heads || h.col >= p.tokens))
        fail("highlight", "cell [" + std::to_string(h.head) + ", " + std::to_string(h.row) + ", " + std::to_string(h.col) +
                              "]: the model has " + std::to_string(p.heads) + " heads and " + std::to_string(p.tokens) + " tokens");
    try {
        resolve_interventions(s.interventions, p);
    } catch (const Error& e) {
        fail("interventions", e.what());
    }
}

void check_train(const Lesson& lesson, int index, int total_steps, const std::string& lesson_path) {
    const LessonTrain& t = lesson.steps.at(static_cast<size_t>(index)).train;
    if (t.until_step > total_steps)
        throw Error(step_place(lesson, index, lesson_path) + ": 'train' until_step " + std::to_string(t.until_step) +
                    ": a run of " + std::to_string(t.epochs) + (t.epochs == 1 ? " epoch" : " epochs") + " has " +
                    std::to_string(total_steps) + " steps");
}

AppState step_view(const LessonStep& step, const Pipeline& p, AppState base) {
    AppState s = base;
    go_to_stage(s, p, step.stage.empty() ? 0 : std::max(0, p.index_of(step.stage)));
    s.screen = step.screen;
    s.gradients = step.gradients;
    s.show_numbers = step.numbers;
    s.colormap = step.colours;
    select_layer(s, p, step.layer);
    select_head(s, p, step.head);
    select_token(s, p, step.token);
    const Highlight& h = step.highlight;
    if (h.kind == HighlightKind::Patch) select_patch(s, p, h.patch);
    if (h.kind == HighlightKind::Row || h.kind == HighlightKind::Cell) select_token(s, p, h.row);
    if (h.kind == HighlightKind::Cell) select_head(s, p, h.head);
    s.cls_only = step.cls_only;  // after select_token, which turns it off
    fit_ask(s.ask, p.tokens - 1, p.depth, p.heads);
    set_interventions(s.ask, resolve_interventions(step.interventions, p));
    s.ask.show = step.views_show;
    return s;
}

LessonStep step_from_view(const AppState& s, const Pipeline& p, const std::string& model, const std::string& image) {
    LessonStep step;
    step.title = "New step";
    step.model = model;
    step.image = image;
    step.stage = p.ids.empty() ? "" : p.ids[static_cast<size_t>(s.stage)];
    step.screen = s.screen;
    step.token = s.token;
    step.layer = s.layer;
    step.head = s.head;
    step.gradients = s.gradients;
    step.cls_only = s.cls_only;
    step.numbers = s.show_numbers;
    step.colours = s.colormap;
    step.interventions = vit::InterventionFlags::of(to_interventions(s.ask));
    step.views_show = s.ask.show;
    return step;
}

}  // namespace vit::gui
