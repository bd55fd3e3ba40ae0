// libFuzzer target: the intervention flags (core/pass/intervention_flags.h) and
// the number parsers under them (core/base/parse.h). The first three bytes pick
// a small model (depth, heads) and its patch grid so validation runs; the rest,
// split at newlines, is an argument list: every argument goes to the flag
// parser and, as text, to each function of parse.h. Errors must be one short
// line of vit::Error; what is accepted must lie within the bounds asked for,
// and resolve() must accept its own inverse (InterventionFlags::of).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "base/bounds.h"
#include "base/error.h"
#include "base/parse.h"
#include "pass/intervention_flags.h"

namespace {

void require(bool ok) {
    if (!ok) __builtin_trap();
}

// A refusal is one line of bounded length (values are quoted shortened).
void check_message(const vit::Error& e) {
    const std::string message = e.what();
    require(!message.empty() && message.size() < 600 && message.find('\n') == std::string::npos);
}

std::vector<std::string> split_lines(const uint8_t* data, size_t size) {
    std::vector<std::string> lines(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == '\n') lines.emplace_back();
        else lines.back().push_back(static_cast<char>(data[i]));
    }
    return lines;
}

// Every parse.h function on `text`, each result checked against its bounds.
void parse_each_way(const std::string& text, int max) {
    auto refused = [](auto parse) {
        try {
            parse();
        } catch (const vit::Error& e) {
            check_message(e);
        }
    };
    if (const auto n = vit::to_int(text, -3, max)) require(*n >= -3 && *n <= max);
    refused([&] {
        const int n = vit::parse_int("--top", text, 0);
        require(n >= 0);
    });
    refused([&] {
        const float f = vit::parse_float("--temperature", text, 0.0f);
        require(std::isfinite(f) && f > 0.0f);
    });
    refused([&] {
        const std::vector<int> list = vit::parse_int_list("--mask-patches", text, 0, max);
        require(list.size() <= vit::kMaxListNumbers);
        for (int n : list) require(n >= 0 && n <= max);
    });
    refused([&] {
        for (const auto& [a, b] : vit::parse_pair_list("--ablate-heads", text, 0, max, "BLOCK:HEAD pairs"))
            require(a >= 0 && a <= max && b >= 0 && b <= max);
    });
    refused([&] { require(vit::parse_choice("--screen", text, {"a", "bb", ""}) < 3); });
    refused([&] { vit::parse_backend_is_gpu(text); });
}

// What resolve() accepted fits the model, and resolves again from its own flags.
void check_resolved(const vit::Interventions& iv, const vit::ModelConfig& config, int grid) {
    const int patches = grid * grid;
    for (const auto* list : {&iv.mask_patches, &iv.drop_tokens, &iv.permute_patches})
        for (int n : *list) require(n >= 0 && n < patches);
    for (const vit::HeadRef& h : iv.ablate_heads)
        require(h.block >= 0 && h.block < config.depth && h.head >= 0 && h.head < config.num_heads);
    require(std::isfinite(iv.temperature) && iv.temperature >= vit::kMinTemperature);
    vit::Interventions again = vit::InterventionFlags::of(iv).resolve(config, grid);
    again.temperature = iv.temperature;  // written with %g: its last digits may differ
    require(again == iv);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 3) return 0;
    vit::ModelConfig config;
    config.depth = 1 + data[0] % 12;
    config.num_heads = 1 + data[1] % 12;
    const int grid = 1 + data[2] % 16;
    const std::vector<std::string> args = split_lines(data + 3, size - 3);
    vit::InterventionFlags flags;
    for (size_t i = 0; i < args.size(); ++i) {
        parse_each_way(args[i], grid * grid - 1);
        try {
            flags.take(args, i);
        } catch (const vit::Error& e) {
            check_message(e);
            return 0;
        }
    }
    try {
        check_resolved(flags.resolve(config, grid, data[0] & 0x80), config, grid);
    } catch (const vit::Error& e) {
        check_message(e);
    }
    return 0;
}
