// Parsing of the intervention flags and their checks against the model
// (errors name the flag and its value).
#include "pass/intervention_flags.h"

#include <cstdio>

#include "base/error.h"

namespace vit {

namespace {

// The whole of `text` as a number (std::stoi or std::stof); false if it is not one.
template <typename Number>
bool parse_number(const std::string& text, Number (*convert)(const std::string&, size_t*), Number& out) {
    size_t used = 0;
    try {
        out = convert(text, &used);
    } catch (const std::exception&) {
        return false;
    }
    return !text.empty() && used == text.size();
}

int parse_int(const std::string& text, const std::string& flag, const std::string& value) {
    int n = 0;
    if (!parse_number<int>(text, [](const std::string& t, size_t* used) { return std::stoi(t, used); }, n))
        throw Error(flag + " '" + value + "': '" + text + "' is not a number (lists look like 3,5,10-12)");
    return n;
}

// "3,5,10-12" → "3", "5", "10-12".
std::vector<std::string> split(const std::string& value) {
    std::vector<std::string> items;
    size_t start = 0;
    for (size_t comma; (comma = value.find(',', start)) != std::string::npos; start = comma + 1)
        items.push_back(value.substr(start, comma - start));
    items.push_back(value.substr(start));
    return items;
}

// "3,5,10-12" → 3 5 10 11 12.
std::vector<int> parse_list(const std::string& flag, const std::string& value) {
    std::vector<int> list;
    for (const std::string& item : split(value)) {
        const size_t dash = item.find('-', 1);
        if (dash == std::string::npos) {
            list.push_back(parse_int(item, flag, value));
            continue;
        }
        const int first = parse_int(item.substr(0, dash), flag, value);
        const int last = parse_int(item.substr(dash + 1), flag, value);
        if (last < first || last - first > 1000000)
            throw Error(flag + " '" + value + "': the range '" + item + "' runs backwards or is too long");
        for (int n = first; n <= last; ++n) list.push_back(n);
    }
    return list;
}

std::vector<HeadRef> parse_heads(const std::string& flag, const std::string& value) {
    std::vector<HeadRef> heads;
    for (const std::string& item : split(value)) {
        const size_t colon = item.find(':');
        if (colon == std::string::npos)
            throw Error(flag + " '" + value + "': '" + item + "' is not BLOCK:HEAD (such as 0:1,3:2)");
        heads.push_back({parse_int(item.substr(0, colon), flag, value), parse_int(item.substr(colon + 1), flag, value)});
    }
    return heads;
}

// The core's check of one intervention, its message prefixed with the flag and value.
void check(const std::string& flag, const std::string& value, const Interventions& one, const ModelConfig& config,
           int grid) {
    try {
        validate_interventions(one, config, grid);
    } catch (const Error& e) {
        throw Error(flag + " '" + value + "': " + e.what());
    }
}

float parse_temperature(const std::string& flag, const std::string& value) {
    float t = 0.0f;
    if (!parse_number<float>(value, [](const std::string& v, size_t* used) { return std::stof(v, used); }, t))
        throw Error(flag + " '" + value + "': not a number");
    return t;
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
    take("--ablate-heads", ablate, [&](Interventions& v, const std::string& n) { v.ablate_heads = parse_heads(n, ablate); });
    take("--permute-patches", permute,
         [&](Interventions& v, const std::string& n) { v.permute_patches = parse_list(n, permute); });
    take("--temperature", temperature,
         [&](Interventions& v, const std::string& n) { v.temperature = parse_temperature(n, temperature); });
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
