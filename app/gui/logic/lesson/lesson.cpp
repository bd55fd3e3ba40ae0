// Lesson files: parsing with one message per mistake, saving, and the checks
// and views of a step (see lesson.h).
#include "logic/lesson/lesson.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/bounds.h"
#include "hub/hub_name.h"
#include "loading/builtin.h"
#include "base/error.h"
#include "base/file_io.h"
#include "base/json_parse.h"

namespace vit::gui {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Text of at most `max_bytes`, refused naming the key when longer.
void read_text(const JsonReader& r, const char* key, std::string& out, size_t max_bytes) {
    r.text(key, out);
    if (out.size() > max_bytes)
        r.fail("'" + std::string(key) + "' is " + std::to_string(out.size()) + " bytes long; at most " +
               std::to_string(max_bytes) + " fit on screen");
}

// Text a student reads: its placeholders (narration.h) must parse.
void read_live_text(const JsonReader& r, const char* key, std::string& out, size_t max_bytes) {
    read_text(r, key, out, max_bytes);
    try {
        check_placeholders(out);
    } catch (const Error& e) {
        r.fail("'" + std::string(key) + "' " + e.what());
    }
}

// What `path` (the value of `key`, relative to the lesson's folder) is: not_found when nothing
// is there; a path the system cannot look at (a symbolic link loop, a name too long) is refused.
fs::file_type type_of(const JsonReader& r, const char* key, const std::string& value, const fs::path& folder) {
    std::error_code error;
    const fs::file_type type = fs::status(folder / value, error).type();
    if (error && type != fs::file_type::not_found) {
        std::string reason = error.message();
        if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
        r.fail("'" + std::string(key) + "' " + quoted(json(value)) + " cannot be looked at: " + reason +
               " (looked in " + shortened(folder.string()) + ")");
    }
    return type;
}

// A model that is not named (built in, or hf-hub:ORG/NAME) must be a checkpoint file or folder
// (relative to the lesson's folder).
void check_model_path(const JsonReader& r, const std::string& model, const fs::path& folder) {
    if (vit::is_hub_name(model)) {
        try {
            vit::parse_hub_name(model);
        } catch (const vit::Error& e) {
            r.fail("'model': " + std::string(e.what()));
        }
        return;
    }
    if (model.empty() || vit::is_builtin_model(model) || type_of(r, "model", model, folder) != fs::file_type::not_found)
        return;
    r.fail("'model' " + quoted(json(model)) + " is neither a built-in model (" + vit::builtin_model_names(", ") +
           "), an hf-hub:ORG/NAME model, nor a checkpoint file or folder (looked in " + shortened(folder.string()) +
           ")");
}

// An image, if named, must be a file (relative to the lesson's folder).
void check_image_path(const JsonReader& r, const std::string& image, const fs::path& folder) {
    if (image.empty() || type_of(r, "image", image, folder) == fs::file_type::regular) return;
    r.fail("'image' " + quoted(json(image)) + " is not a file (looked in " + shortened(folder.string()) + ")");
}

// The lesson played instead of one on a Hub model must be a file (relative to the lesson's folder).
void check_otherwise(const JsonReader& r, const Lesson& lesson, const fs::path& folder) {
    if (lesson.otherwise.empty()) return;
    if (!vit::is_hub_name(lesson.model))
        r.fail("'otherwise' names the lesson played when the lesson's Hub model cannot be had, but 'model' " +
               quoted(json(lesson.model)) + " is not an hf-hub:ORG/NAME model");
    if (type_of(r, "otherwise", lesson.otherwise, folder) != fs::file_type::regular)
        r.fail("'otherwise' " + quoted(json(lesson.otherwise)) + " is not a file (looked in " +
               shortened(folder.string()) + ")");
}

Highlight read_highlight(const json& v, const std::string& where) {
    const JsonReader r(v, where + ": 'highlight'");
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
        const auto in_range = [](const json& x) {
            return x.is_number_integer() && x.get<int64_t>() >= 0 && x.get<int64_t>() <= kMaxStatedSize;
        };
        if (!c.is_array() || c.size() != 3 || !in_range(c[0]) || !in_range(c[1]) || !in_range(c[2]))
            r.fail("'cell' must be [head, row, column], got " + quoted(c));
        h.kind = HighlightKind::Cell;
        h.head = c[0].get<int>(), h.row = c[1].get<int>(), h.col = c[2].get<int>();
    }
    return h;
}

LessonTrain read_train(const json& v, const std::string& where) {
    const JsonReader r(v, where + ": 'train'");
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
    const JsonReader r(v, where);
    r.only({"title", "narration", "question", "answer", "model", "image", "stage", "screen", "token", "layer", "head",
            "gradients", "cls_only", "numbers", "colours", "highlight", "interventions", "views_show", "train"});
    LessonStep s;
    read_live_text(r, "title", s.title, kMaxLessonTitleBytes);
    read_live_text(r, "narration", s.narration, kMaxNarrationBytes);
    read_live_text(r, "question", s.question, kMaxLessonTitleBytes);
    read_live_text(r, "answer", s.answer, kMaxNarrationBytes);
    if (!s.answer.empty() && s.question.empty()) r.fail("'answer' answers the step's 'question': give one");
    read_text(r, "model", s.model, kMaxLessonPathBytes);
    check_model_path(r, s.model, folder);
    read_text(r, "image", s.image, kMaxLessonPathBytes);
    read_view(r, s.view);
    if (r.has("highlight")) s.highlight = read_highlight(r.at("highlight"), where);
    if (r.has("train")) s.train = read_train(r.at("train"), where);
    if (s.train.on && (r.has("model") || r.has("image")))
        r.fail("'train' runs the Train window's digits ViT on its probe digit: leave out 'model' and 'image'");
    if (s.title.empty()) r.fail("every step needs a 'title'");
    check_image_path(r, s.image, folder);
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

// The step's view is a block's scores or attention matrices (where a cell highlight is drawn).
bool shows_head_matrix(const ViewSnapshot& s, const Pipeline& p) {
    const int stage = s.stage.empty() ? -1 : p.index_of(s.stage);
    if (s.screen != Screen::Stage || stage < 0) return false;
    const StageKind kind = p.stages[static_cast<size_t>(stage)].kind;
    return kind == StageKind::Scores || kind == StageKind::Attn;
}

std::string step_place(const Lesson& lesson, int index, const std::string& path) {
    return path + ": step " + std::to_string(index + 1) + " (" + shortened(lesson.steps[index].title) + ")";
}

}  // namespace

bool Highlight::operator==(const Highlight& o) const {
    return kind == o.kind && patch == o.patch && row == o.row && head == o.head && col == o.col;
}

bool LessonStep::operator==(const LessonStep& o) const {
    return title == o.title && narration == o.narration && question == o.question && answer == o.answer &&
           model == o.model && image == o.image && view == o.view && highlight == o.highlight && train == o.train;
}

bool LessonTrain::operator==(const LessonTrain& o) const {
    return on == o.on && epochs == o.epochs && until_step == o.until_step && seed == o.seed && window == o.window;
}

bool Lesson::operator==(const Lesson& o) const {
    return title == o.title && model == o.model && image == o.image && otherwise == o.otherwise && steps == o.steps;
}

Lesson parse_lesson(const std::string& text, const std::string& path) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
    const json root = parse_json(bytes, bytes + text.size(), path);
    const JsonReader r(root, path);
    r.only({"title", "model", "image", "otherwise", "steps"});
    Lesson lesson;
    read_text(r, "title", lesson.title, kMaxLessonTitleBytes);
    read_text(r, "model", lesson.model, kMaxLessonPathBytes);
    read_text(r, "image", lesson.image, kMaxLessonPathBytes);
    read_text(r, "otherwise", lesson.otherwise, kMaxLessonPathBytes);
    const fs::path folder = fs::path(path).parent_path();
    check_model_path(r, lesson.model, folder);
    check_image_path(r, lesson.image, folder);
    check_otherwise(r, lesson, folder);
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
        put("answer", s.answer, defaults.answer);
        put("model", s.model, defaults.model);
        put("image", s.image, defaults.image);
        write_view(j, s.view);
        if (s.highlight.kind != HighlightKind::None) j["highlight"] = highlight_json(s.highlight);
        if (s.train.on) j["train"] = train_json(s.train);
        steps.push_back(std::move(j));
    }
    json root = {{"title", lesson.title}, {"model", lesson.model}};
    if (!lesson.image.empty()) root["image"] = lesson.image;
    if (!lesson.otherwise.empty()) root["otherwise"] = lesson.otherwise;
    root["steps"] = std::move(steps);
    return root.dump(2) + "\n";
}

void save_lesson(const Lesson& lesson, const std::string& path) {
    write_whole_file(path, lesson_json(lesson), "the lesson");
}

std::string otherwise_path(const Lesson& lesson, const std::string& lesson_path) {
    if (lesson.otherwise.empty()) return "";
    return (fs::path(lesson_path).parent_path() / lesson.otherwise).lexically_normal().string();
}

std::string step_model(const Lesson& lesson, const std::string& lesson_path, int index) {
    const std::string& own = lesson.steps.at(static_cast<size_t>(index)).model;
    const std::string& model = own.empty() ? lesson.model : own;
    return vit::is_named_model(model) ? model : (fs::path(lesson_path).parent_path() / model).string();
}

std::string step_image(const Lesson& lesson, const std::string& lesson_path, int index) {
    const std::string& own = lesson.steps.at(static_cast<size_t>(index)).image;
    const std::string& image = own.empty() ? lesson.image : own;
    return image.empty() ? "" : (fs::path(lesson_path).parent_path() / image).string();
}

LessonText step_text(const Lesson& lesson, int index, const NarrationPasses& passes, const std::string& lesson_path) {
    const LessonStep& s = lesson.steps.at(static_cast<size_t>(index));
    auto live = [&](const char* key, const std::string& text) {
        try {
            return narrate(text, passes);
        } catch (const Error& e) {
            throw Error(step_place(lesson, index, lesson_path) + ": '" + key + "' " + e.what());
        }
    };
    return {live("title", s.title), live("narration", s.narration), live("question", s.question),
            live("answer", s.answer)};
}

bool step_quotes_occlusion(const Lesson& lesson, int index) {
    const LessonStep& s = lesson.steps.at(static_cast<size_t>(index));
    try {
        for (const std::string* text : {&s.title, &s.narration, &s.question, &s.answer})
            if (quotes_occlusion(*text)) return true;
    } catch (const Error&) {  // a placeholder the editor is still writing: step_text reports it
    }
    return false;
}

void check_step(const Lesson& lesson, int index, const Pipeline& p, const std::string& lesson_path) {
    const ViewSnapshot& s = lesson.steps.at(static_cast<size_t>(index)).view;
    const std::string where = step_place(lesson, index, lesson_path);
    auto fail = [&](const std::string& key, const std::string& what) {
        throw Error(where + ": '" + key + "' " + what);
    };
    if (!s.stage.empty() && p.index_of(s.stage) < 0)
        fail("stage", "\"" + s.stage + "\": the model " + step_model(lesson, lesson_path, index) +
                          " has no such stage (" + std::to_string(p.depth) + " blocks" +
                          (p.index_of(StageRef{StageKind::Logits}) < 0 ? ", no head)" : ")"));
    const int patches = p.patches();
    if (s.token >= p.tokens)
        fail("token", std::to_string(s.token) + ": the model sees " + std::to_string(p.tokens) + " tokens (0 = CLS)");
    if (s.layer >= std::max(1, p.depth))
        fail("layer", std::to_string(s.layer) + ": the model has " + std::to_string(p.depth) + " blocks");
    if (s.head >= p.heads)
        fail("head", std::to_string(s.head) + ": the model has " + std::to_string(p.heads) + " heads");
    if (const std::string lacks = screen_lacks(s.screen, p.parts()); !lacks.empty()) fail("screen", lacks);
    const ModelParts cls_attention{true, false, true};  // the CLS token's row of attention: blocks and a CLS token
    if (const std::string lacks = parts_lacking(cls_attention, p.parts()); s.cls_only && !lacks.empty())
        fail("cls_only", lacks);
    const Highlight& h = lesson.steps.at(static_cast<size_t>(index)).highlight;
    if (h.kind == HighlightKind::Patch && h.patch >= patches)
        fail("highlight",
             "patch " + std::to_string(h.patch) + ": the model has " + std::to_string(patches) + " patches");
    if ((h.kind == HighlightKind::Row || h.kind == HighlightKind::Cell) && h.row >= p.tokens)
        fail("highlight", "row " + std::to_string(h.row) + ": the model sees " + std::to_string(p.tokens) + " tokens");
    const std::string cell =
        "cell [" + std::to_string(h.head) + ", " + std::to_string(h.row) + ", " + std::to_string(h.col) + "]";
    if (h.kind == HighlightKind::Cell && (h.head >= p.heads || h.col >= p.tokens))
        fail("highlight", cell + ": the model has " + std::to_string(p.heads) + " heads and " +
                              std::to_string(p.tokens) + " tokens");
    if (h.kind == HighlightKind::Cell && !shows_head_matrix(s, p))
        fail("highlight", cell + " is drawn on a block's scores or attn: give the step such a 'stage'");
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
    restore_view(step.view, s, p);
    const Highlight& h = step.highlight;
    if (h.kind == HighlightKind::Patch) select_patch(s, p, h.patch);
    if (h.kind == HighlightKind::Row || h.kind == HighlightKind::Cell) select_token(s, p, h.row);
    if (h.kind == HighlightKind::Cell) {
        select_head(s, p, h.head);
        s.cell = CellRef{p.stages[static_cast<size_t>(s.stage)], h.head, h.row, h.col};  // outlined in its matrix
    }
    s.cls_only = step.view.cls_only;  // after select_token, which turns it off
    return s;
}

LessonStep step_from_view(const AppState& s, const Pipeline& p, const std::string& model, const std::string& image) {
    LessonStep step;
    step.title = "New step";
    step.model = model;
    step.image = image;
    step.view = capture_view(s, p);
    return step;
}

}  // namespace vit::gui
