// Checks of an Interventions value against a model, and the token and head
// lists the forward pass reads from it (interventions.h).
#include "pass/interventions.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "base/bounds.h"
#include "base/error.h"

namespace vit {

namespace {

void check_patch_list(const std::vector<int>& list, const char* what, int patches) {
    for (int n : list)
        if (n < 0 || n >= patches)
            throw Error(std::string(what) + ": patch " + std::to_string(n) + " is out of range (the model has " +
                        std::to_string(patches) + " patches, 0-" + std::to_string(patches - 1) + ")");
}

int distinct(std::vector<int> list) {
    std::sort(list.begin(), list.end());
    return static_cast<int>(std::unique(list.begin(), list.end()) - list.begin());
}

}  // namespace

bool Interventions::empty() const {
    return mask_patches.empty() && drop_tokens.empty() && ablate_heads.empty() && !no_positions &&
           permute_patches.empty() && temperature == 1.0f;
}

bool Interventions::operator==(const Interventions& o) const {
    return mask_patches == o.mask_patches && drop_tokens == o.drop_tokens && ablate_heads == o.ablate_heads &&
           no_positions == o.no_positions && permute_patches == o.permute_patches && temperature == o.temperature;
}

void validate_interventions(const Interventions& iv, const ModelConfig& c, int grid, bool allow_all_masked) {
    const int patches = grid * grid;
    check_patch_list(iv.mask_patches, "mask patches", patches);
    if (!allow_all_masked && patches > 0 && distinct(iv.mask_patches) == patches)
        throw Error("mask patches: masking all " + std::to_string(patches) + " patches leaves no image");
    check_patch_list(iv.drop_tokens, "drop tokens", patches);
    if (patches > 0 && distinct(iv.drop_tokens) == patches)
        throw Error("drop tokens: dropping all " + std::to_string(patches) + " patch tokens leaves only CLS");
    for (const HeadRef& h : iv.ablate_heads) {
        if (h.block < 0 || h.block >= c.depth || h.head < 0 || h.head >= c.num_heads)
            throw Error("ablate heads: head " + std::to_string(h.block) + ":" + std::to_string(h.head) +
                        " does not exist (blocks 0-" + std::to_string(c.depth - 1) + ", heads 0-" +
                        std::to_string(c.num_heads - 1) + ")");
    }
    if (!iv.permute_patches.empty()) {
        std::vector<int> sorted = iv.permute_patches;
        std::sort(sorted.begin(), sorted.end());
        bool ok = static_cast<int>(sorted.size()) == patches;
        for (int n = 0; ok && n < patches; ++n) ok = sorted[n] == n;
        if (!ok)
            throw Error("permute patches: the list of " + std::to_string(iv.permute_patches.size()) +
                        " numbers is not a permutation of 0-" + std::to_string(patches - 1));
    }
    if (!(iv.temperature > 0.0f) || !std::isfinite(iv.temperature))
        throw Error("temperature: " + (std::ostringstream() << iv.temperature).str() + " is not a positive number");
    if (iv.temperature < kMinTemperature)
        throw Error("temperature: " + (std::ostringstream() << iv.temperature).str() + " is below the smallest, " +
                    (std::ostringstream() << kMinTemperature).str());
}

std::vector<int> kept_token_rows(const Interventions& iv, int patches, int prefix) {
    std::vector<bool> dropped(patches, false);
    for (int n : iv.drop_tokens) dropped.at(n) = true;
    std::vector<int> rows(static_cast<size_t>(prefix));
    std::iota(rows.begin(), rows.end(), 0);
    for (int n = 0; n < patches; ++n)
        if (!dropped[n]) rows.push_back(n + prefix);
    return rows;
}

std::vector<int> embedded_patches(const Interventions& iv, int patches) {
    if (!iv.permute_patches.empty()) return iv.permute_patches;
    std::vector<int> order(static_cast<size_t>(patches));
    std::iota(order.begin(), order.end(), 0);
    return order;
}

std::vector<int> kept_patches(const Interventions& iv, int patches) {
    std::vector<int> kept;
    for (int row : kept_token_rows(iv, patches, 0))
        kept.push_back(iv.permute_patches.empty() ? row : iv.permute_patches[row]);
    return kept;
}

std::vector<int> ablated_heads(const Interventions& iv, int block) {
    std::vector<int> heads;
    for (const HeadRef& h : iv.ablate_heads)
        if (h.block == block) heads.push_back(h.head);
    std::sort(heads.begin(), heads.end());
    heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
    return heads;
}

}  // namespace vit
