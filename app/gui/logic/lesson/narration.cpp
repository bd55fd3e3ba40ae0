// Live values in a lesson's text (see narration.h).
#include "logic/lesson/narration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "base/error.h"
#include "logic/jobs/explanation.h"

namespace vit::gui {

namespace {

constexpr const char* kNotYet = "\xE2\x80\xA6";  // "…": the pass or the occlusion map is on its way

// The keys named after the stage they read, spelled as the stage catalogue spells them
// (core/pass/stages.h); `cls` (the CLS token's column) is the name of the stage that adds it.
// (Functions: the catalogue is another file's static table, read once it is there.)
std::string attn_key() { return stage_def(StageKind::Attn).name; }
std::string rollout_key() { return stage_def(StageKind::Rollout).name; }
std::string cls_key() { return stage_def(StageKind::Cls).name; }

struct Placeholder {
    std::string text;  // as written, braces included
    bool plain = false;
    std::string key;
    std::vector<std::string> args;
};

[[noreturn]] void fail(const std::string& text, const std::string& why) { throw Error("'" + text + "': " + why); }

bool is_count(const std::string& s) {
    return !s.empty() && s.size() <= 6 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A patch argument: a number, top, least, or (where `cls` is allowed) cls.
void check_patch_arg(const Placeholder& ph, const std::string& arg, bool cls) {
    if (is_count(arg) || arg == "top" || arg == "least" || (cls && arg == cls_key())) return;
    fail(ph.text, "'" + arg + "' is not a patch: give a patch number, top, least" + std::string(cls ? " or cls" : ""));
}

void check_counts(const Placeholder& ph, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
        if (!is_count(ph.args[i])) fail(ph.text, "'" + ph.args[i] + "' is not a whole number");
}

// Checks the key and its arguments (see narration.h for what each takes).
void check_arguments(const Placeholder& ph) {
    const std::string& k = ph.key;
    const size_t n = ph.args.size();
    auto want = [&](bool ok, const char* form) {
        if (!ok) fail(ph.text, std::string("write it as ") + form);
    };
    if (k == "answer") return want(n == 0, "{answer}");
    if (k == "p") return want(n <= 1, "{p} or {p:CLASS}");
    if (k == attn_key()) {
        want(n == 4, "{attn:BLOCK,HEAD,TOKEN,PATCH}");
        check_counts(ph, 0, 3);
        return check_patch_arg(ph, ph.args[3], true);
    }
    if (k == rollout_key() || k == "occ") {
        want(n == 1, k == "occ" ? "{occ:PATCH}" : "{rollout:PATCH}");
        return check_patch_arg(ph, ph.args[0], k == rollout_key());
    }
    if (k == "patch") {
        const bool attn = n == 4 && ph.args[0] == attn_key();
        want(attn || (n == 1 && (ph.args[0] == "occ" || ph.args[0] == rollout_key())),
             "{patch:attn,BLOCK,HEAD,TOKEN}, {patch:rollout} or {patch:occ}");
        if (attn) check_counts(ph, 1, 4);
        return;
    }
    fail(ph.text,
         "unknown placeholder (known: answer, p, attn, rollout, occ, patch; 'plain.' before one reads the unmodified "
         "pass)");
}

Placeholder parse_placeholder(const std::string& text) {
    Placeholder ph;
    ph.text = text;
    std::string inner = text.substr(1, text.size() - 2);
    if (inner.rfind("plain.", 0) == 0) ph.plain = true, inner = inner.substr(6);
    const size_t colon = inner.find(':');
    ph.key = inner.substr(0, colon);
    for (size_t at = colon; at != std::string::npos;) {
        const size_t comma = inner.find(',', at + 1);
        std::string arg = inner.substr(at + 1, comma == std::string::npos ? std::string::npos : comma - at - 1);
        arg.erase(std::remove(arg.begin(), arg.end(), ' '), arg.end());
        ph.args.push_back(arg);
        at = comma;
    }
    check_arguments(ph);
    return ph;
}

// Calls `each` with every placeholder of `text` and the text before it; returns the text after the last.
std::string for_each_placeholder(const std::string& text,
                                 const std::function<void(const std::string&, const Placeholder&)>& each) {
    size_t from = 0;
    for (size_t open; (open = text.find('{', from)) != std::string::npos;) {
        const size_t close = text.find_first_of("{}", open + 1);
        if (close == std::string::npos || text[close] != '}')
            fail(text.substr(open, std::min<size_t>(24, text.size() - open)), "a '{' without its '}'");
        each(text.substr(from, open - from), parse_placeholder(text.substr(open, close - open + 1)));
        from = close + 1;
    }
    return text.substr(from);
}

std::string percent(double share) {
    char s[32];
    std::snprintf(s, sizeof s, "%.1f%%", 100.0 * share);
    return s;
}

const Tensor& stage_tensor(const Placeholder& ph, const Trace& trace, StageRef ref) {
    const Tensor* t = trace.tensor(ref);
    if (!t) fail(ph.text, "the pass has no stage " + stage_id(ref.kind, ref.block));
    return *t;
}

int class_index(const Placeholder& ph, const Trace& trace, const std::vector<std::string>& labels) {
    const Tensor& probs = stage_tensor(ph, trace, StageRef{StageKind::Probs});
    if (ph.args.empty()) return top_class(trace);
    const auto named = std::find(labels.begin(), labels.end(), ph.args[0]);
    if (named != labels.end()) return static_cast<int>(named - labels.begin());
    if (is_count(ph.args[0]) && std::stoi(ph.args[0]) < static_cast<int>(probs.data.size()))
        return std::stoi(ph.args[0]);
    fail(ph.text, "the model has no class '" + ph.args[0] + "'");
}

// One value per patch the pass still holds, with its patch number.
struct PatchValues {
    std::vector<int> patch;
    std::vector<float> value;
    float cls = NAN;  // the CLS column's (attention and rollout)
};

// The index in `v` of the patch `arg` names (a patch number, top or least).
size_t pick(const Placeholder& ph, const PatchValues& v, const std::string& arg) {
    if (v.patch.empty()) fail(ph.text, "the pass holds no patch");
    if (arg == "top") return static_cast<size_t>(std::max_element(v.value.begin(), v.value.end()) - v.value.begin());
    if (arg == "least") return static_cast<size_t>(std::min_element(v.value.begin(), v.value.end()) - v.value.begin());
    const auto at = std::find(v.patch.begin(), v.patch.end(), std::stoi(arg));
    if (at == v.patch.end()) fail(ph.text, "patch " + arg + " is not in the pass (dropped, or beyond its patches)");
    return static_cast<size_t>(at - v.patch.begin());
}

// The share `arg` names (a patch, top, least, cls) as a percentage.
std::string share(const Placeholder& ph, const PatchValues& v, const std::string& arg) {
    if (arg != cls_key()) return percent(v.value[pick(ph, v, arg)]);
    if (std::isnan(v.cls)) fail(ph.text, "the model has no CLS token");
    return percent(v.cls);
}

std::string top_patch(const Placeholder& ph, const PatchValues& v) {
    return std::to_string(v.patch[pick(ph, v, "top")]);
}

int bounded(const Placeholder& ph, const std::string& arg, int64_t size, const char* what) {
    const int i = std::stoi(arg);
    if (i >= size) fail(ph.text, std::string(what) + " " + arg + ": the pass has " + std::to_string(size));
    return i;
}

// Row `token` of an attention matrix [T, T] starting at `rows`, by patch.
PatchValues attention_row(const Placeholder& ph, const Trace& trace, const float* rows, int64_t T,
                          const std::string& token, bool class_token) {
    const int row = bounded(ph, token, T, "token");
    const std::vector<int>& patches = trace.token_patches();
    const int64_t prefix = T - static_cast<int64_t>(patches.size());
    PatchValues v;
    v.patch = patches;
    for (size_t i = 0; i < patches.size(); ++i) v.value.push_back(rows[row * T + prefix + static_cast<int64_t>(i)]);
    if (prefix > 0 && class_token) v.cls = rows[row * T];
    return v;
}

PatchValues head_row(const Placeholder& ph, const NarrationPasses& passes, const Trace& trace, size_t first) {
    const int block = std::stoi(ph.args[first]);
    const Tensor& attn = stage_tensor(ph, trace, StageRef{StageKind::Attn, block});
    const int64_t H = attn.shape[0], T = attn.shape[1];
    const int head = bounded(ph, ph.args[first + 1], H, "head");
    return attention_row(ph, trace, attn.data.data() + head * T * T, T, ph.args[first + 2], passes.class_token);
}

// CLS's row of the rollout.
PatchValues rollout_row(const Placeholder& ph, const NarrationPasses& passes, const Trace& trace) {
    const Tensor& r = stage_tensor(ph, trace, StageRef{StageKind::Rollout});
    if (!passes.class_token) fail(ph.text, "the model has no CLS token, so its rollout has no CLS row");
    return attention_row(ph, trace, r.data.data(), r.shape[0], "0", true);
}

// How much p(answer) falls with each patch the pass holds masked (what the occlusion map draws), by
// patch; "…" until the map is complete. `top` is the patch that costs most, `least` the one that
// costs least; a dropped patch has no value (masking what the encoder never sees changes nothing).
std::string occlusion(const Placeholder& ph, const Trace& trace, const OcclusionMap* map, bool want_patch) {
    stage_tensor(ph, trace, StageRef{StageKind::Probs});  // a model with no head has no occlusion map
    if (!map || !map->complete()) return kNotYet;
    PatchValues cost;
    for (int patch : trace.token_patches())
        if (patch < static_cast<int>(map->probabilities.size()))
            cost.patch.push_back(patch), cost.value.push_back(map->top_probability - map->probabilities[patch]);
    return want_patch ? top_patch(ph, cost) : percent(cost.value[pick(ph, cost, ph.args[0])]);
}

std::string value_of(const Placeholder& ph, const NarrationPasses& passes) {
    const Trace& trace = ph.plain && passes.plain ? *passes.plain : *passes.shown;
    if (ph.key == "answer") {
        const int cls = class_index(ph, trace, passes.labels);
        return cls < static_cast<int>(passes.labels.size()) ? passes.labels[cls] : std::to_string(cls);
    }
    if (ph.key == "p") return percent(trace.at(StageRef{StageKind::Probs}).data[class_index(ph, trace, passes.labels)]);
    if (ph.key == attn_key()) return share(ph, head_row(ph, passes, trace, 0), ph.args[3]);
    if (ph.key == rollout_key()) return share(ph, rollout_row(ph, passes, trace), ph.args[0]);
    if (ph.key == "occ") return occlusion(ph, trace, passes.occlusion, false);
    if (ph.args[0] == attn_key()) return top_patch(ph, head_row(ph, passes, trace, 1));
    if (ph.args[0] == rollout_key()) return top_patch(ph, rollout_row(ph, passes, trace));
    return occlusion(ph, trace, passes.occlusion, true);
}

}  // namespace

void check_placeholders(const std::string& text) {
    for_each_placeholder(text, [](const std::string&, const Placeholder&) {});
}

bool quotes_occlusion(const std::string& text) {
    bool quoted = false;
    for_each_placeholder(text, [&](const std::string&, const Placeholder& ph) {
        quoted = quoted || ph.key == "occ" || (ph.key == "patch" && ph.args[0] == "occ");
    });
    return quoted;
}

std::string narrate(const std::string& text, const NarrationPasses& passes) {
    std::string out;
    const std::string tail = for_each_placeholder(text, [&](const std::string& before, const Placeholder& ph) {
        out += before + (passes.shown ? value_of(ph, passes) : kNotYet);
    });
    return out + tail;
}

}  // namespace vit::gui
