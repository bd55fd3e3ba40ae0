// The status bar's and the modified-pass banner's words (see pass_banner.h).
#include "logic/ask/pass_banner.h"

#include <algorithm>
#include <cstdio>

#include "logic/describe/stage_info.h"

namespace vit::gui {

std::string prediction_text(const Trace& trace, const ModelConfig& config) {
    const Tensor* probs = trace.tensor({StageKind::Probs});
    if (!probs || probs->data.empty() || config.num_classes <= 0) return "prediction: n/a (no classifier)";
    const auto top = std::max_element(probs->data.begin(), probs->data.end());
    const size_t cls = static_cast<size_t>(top - probs->data.begin());
    const std::string label = cls < config.labels.size() ? config.labels[cls] : "class " + std::to_string(cls);
    return "prediction: " + label + " (" + percent(*top) + ")";
}

static std::string counted(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string random_weights_text(const ModelConfig& config) {
    if (!config.random_weights) return "";
    return "RANDOM WEIGHTS: this model was never trained, so its attention and answers show no learned pattern";
}

std::string modified_pass_text(const Interventions& asked, AskShow show) {
    if (asked.empty()) return "";
    std::string out = "MODIFIED PASS:";
    const auto add = [&](const std::string& part) { out += (out.back() == ':' ? " " : " · ") + part; };
    if (asked.temperature != 1.f) {
        char b[32];
        std::snprintf(b, sizeof b, "attention temperature %.3g", asked.temperature);
        add(b);
    }
    if (!asked.mask_patches.empty()) add(counted(asked.mask_patches.size(), "patch masked", "patches masked"));
    if (!asked.drop_tokens.empty()) add(counted(asked.drop_tokens.size(), "token dropped", "tokens dropped"));
    if (!asked.ablate_heads.empty()) {
        std::string heads;
        for (const HeadRef& h : asked.ablate_heads)
            heads += (heads.empty() ? "" : ", ") + std::to_string(h.block) + "." + std::to_string(h.head);
        add(std::string(asked.ablate_heads.size() == 1 ? "head " : "heads ") + heads + " silenced (block.head)");
    }
    if (asked.no_positions) add("no positional embedding");
    if (!asked.permute_patches.empty()) add("patches permuted");
    if (show == AskShow::Original) add("showing the unmodified pass");
    if (show == AskShow::Difference) add("showing modified − unmodified");
    return out;
}

std::string status_model_text(const std::string& name, bool loaded, int embed_dim, int heads, int depth) {
    if (!loaded) return "loading model " + name + " …";
    return "model " + name + "  (D=" + std::to_string(embed_dim) + ", " + std::to_string(heads) + " heads, " +
           std::to_string(depth) + " blocks)";
}

}  // namespace vit::gui
