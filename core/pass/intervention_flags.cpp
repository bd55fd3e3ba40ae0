// Parsing of the intervention flags and their checks against the model
// (errors name the flag and its value).
#include "pass/intervention_flags.h"

#include <cstdio>
#include <limits>

#include "base/error.h"
#include "base/parse.h"

namespace vit {

namespace {

// What a message about one flag's value names: "--mask-patches '3,x'".
std::string flag_and_value(const std::string& flag, const std::string& value) {
    return flag + " '" + shortened(value) + "'";
}

// The largest index a list may name here: validate_interventions checks each against the model.
constexpr int kAnyIndex = std::numeric_limits<int>::max();

// "3,5,10-12" → 3 5 10 11 12.
std::vector<int> parse_list(const std::string& flag, const std::string& value) {
    return parse_int_list(flag_and_value(flag, value), value, 0, kAnyIndex);
}

std::vector<HeadRef> parse_heads(const std::string& flag, const std::string& value) {
    std::vector<HeadRef> heads;
    for (const auto& [block, head] :
         parse_pair_list(flag_and_value(flag, value), value, 0, kAnyIndex, "BLOCK:HEAD pairs such as 0:1,3:2"))
        heads.push_back({block, head});
    return heads;
}

// The core's check of one intervention, its message prefixed with the flag and value.
void check(const std::string& flag, const std::string& value, const Interventions& one, const ModelConfig& config,
           int grid) {
    try {
        validate_interventions(one, config, grid);
    } catch (const Error& e) {
        throw Error(flag_and_value(flag, value) + ": " + e.what());
    }
}

// 3 4 5 9 → "3-5,9".
std::string list_text(const std::vector<int>& list) {
    std::string text;
    for (size_t i = 0; i < list.size();) {
        size_t end = i;
        while (end + 1 < list.size() && list[end + 1] == list[end] + 1) ++end;
        text += (text.empty() ? "" : ",") + std::to_string(list[i]);
        if (end > i) text += "-" + std::to_string(list[end]);
        i = end + 1;
    }
    return text;
}

}  // namespace

const std::array<ValueFlag, 5> kValueFlags = {{{"--mask-patches", &InterventionFlags::mask},
                                               {"--drop-tokens", &InterventionFlags::drop},
                                               {"--ablate-heads", &InterventionFlags::ablate},
                                               {"--permute-patches", &InterventionFlags::permute},
                                               {"--temperature", &InterventionFlags::temperature}}};

std::string flag_key(const std::string& flag) {
    std::string key = flag.substr(flag.find_first_not_of('-'));
    for (char& c : key)
        if (c == '-') c = '_';
    return key;
}

bool InterventionFlags::take(const std::vector<std::string>& args, size_t& i) {
    const std::string& flag = args[i];
    if (flag == kNoPosFlag) return no_pos = true;
    for (const ValueFlag& v : kValueFlags) {
        if (flag != v.flag) continue;
        if (i + 1 >= args.size()) throw Error(flag + " needs a value");
        this->*v.value = args[++i];
        if ((this->*v.value).empty()) throw Error(flag + " needs a value, got ''");
        return true;
    }
    return false;
}

bool InterventionFlags::any() const {
    return !mask.empty() || !drop.empty() || !ablate.empty() || !permute.empty() || !temperature.empty() || no_pos;
}

Interventions InterventionFlags::resolve(const ModelConfig& config, int grid, bool as_keys) const {
    Interventions iv;
    // Parses one flag's value into `iv` (and into a value of its own, checked alone).
    auto take = [&](const std::string& flag, const std::string& value, auto set) {
        if (value.empty()) return;
        const std::string name = as_keys ? flag_key(flag) : flag;
        Interventions one;
        set(iv, name), set(one, name);
        check(name, value, one, config, grid);
    };
    take("--mask-patches", mask, [&](Interventions& v, const std::string& n) { v.mask_patches = parse_list(n, mask); });
    take("--drop-tokens", drop, [&](Interventions& v, const std::string& n) { v.drop_tokens = parse_list(n, drop); });
    take("--ablate-heads", ablate,
         [&](Interventions& v, const std::string& n) { v.ablate_heads = parse_heads(n, ablate); });
    take("--permute-patches", permute,
         [&](Interventions& v, const std::string& n) { v.permute_patches = parse_list(n, permute); });
    take("--temperature", temperature, [&](Interventions& v, const std::string& n) {
        v.temperature = parse_float(flag_and_value(n, temperature), temperature);
    });
    iv.no_positions = no_pos;
    return iv;
}

InterventionFlags InterventionFlags::of(const Interventions& iv) {
    InterventionFlags f;
    f.mask = list_text(iv.mask_patches);
    f.drop = list_text(iv.drop_tokens);
    for (const HeadRef& h : iv.ablate_heads)
        f.ablate += (f.ablate.empty() ? "" : ",") + std::to_string(h.block) + ":" + std::to_string(h.head);
    f.permute = list_text(iv.permute_patches);
    if (iv.temperature != 1.0f) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", static_cast<double>(iv.temperature));
        f.temperature = text;
    }
    f.no_pos = iv.no_positions;
    return f;
}

bool InterventionFlags::operator==(const InterventionFlags& o) const {
    return mask == o.mask && drop == o.drop && ablate == o.ablate && permute == o.permute &&
           temperature == o.temperature && no_pos == o.no_pos;
}

}  // namespace vit
