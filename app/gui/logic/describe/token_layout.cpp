// Token numbering and names of a model's prefix tokens and patches (see token_layout.h).
#include "logic/describe/token_layout.h"

namespace vit::gui {

TokenLayout token_layout(const ModelConfig& config) {
    TokenLayout layout;
    layout.prefix.clear();
    if (config.class_token) layout.prefix.push_back("CLS");
    if (config.dist_token) layout.prefix.push_back("DIST");
    for (int r = 0; r < config.reg_tokens; ++r) layout.prefix.push_back("REG" + std::to_string(r));
    return layout;
}

std::string token_label(int token, bool reordered, const TokenLayout& layout) {
    if (token >= 0 && token < layout.count()) return layout.prefix[static_cast<size_t>(token)];
    return reordered ? "p" + std::to_string(layout.patch_of(token)) : std::to_string(token);
}

std::string token_name(int token, bool reordered, const TokenLayout& layout) {
    if (token >= 0 && token < layout.count()) return layout.prefix[static_cast<size_t>(token)];
    const std::string patch = "patch " + std::to_string(layout.patch_of(token));
    return reordered ? patch : patch + " (token " + std::to_string(token) + ")";
}

std::string prefix_token_note(const ModelConfig& c) {
    std::string note;
    if (!c.class_token)
        note =
            "This model has no class token (timm class_token=False): nothing holds the image as a whole until "
            "the end.";
    else if (c.global_pool == GlobalPool::Avg)
        note =
            "One extra learned vector, the same for every image. It holds no pixels: through attention it "
            "gathers information from all patches; the head here does not read it.";
    else if (c.num_classes > 0)
        note =
            "One extra learned vector, the same for every image. It holds no pixels: through attention it "
            "gathers information from all patches, and the classifier reads only this row at the end.";
    else
        note =
            "One extra learned vector, the same for every image. It holds no pixels: through attention it "
            "gathers information from all patches, and at the end its row is the image's feature vector.";
    if (c.dist_token)
        note +=
            " DIST, DeiT's distillation token, is trained to agree with a teacher network; a second head reads "
            "its row, and the prediction is the mean of the two heads.";
    if (c.reg_tokens > 0)
        note += " The " + std::to_string(c.reg_tokens) +
                " registers (REG0…) hold no pixels and no head reads them: "
                "scratch space, so that patch tokens need not store global information (Darcet et al. 2024).";
    if (!c.pos_on_prefix) note += " Positions are added to the patch rows only (timm no_embed_class).";
    else if (c.pos_prefix() < c.prefix_tokens())
        note +=
            " The registers take no position: transformers adds the positions to CLS and the patches, then "
            "inserts the registers.";
    if (c.global_pool == GlobalPool::Avg) note += " The head reads " + pooled_tokens(c) + ".";
    return note;
}

std::string prefix_token_list(const ModelConfig& c) {
    std::string list = c.class_token ? "CLS" : "";
    if (c.dist_token) list += list.empty() ? "DIST" : ", DIST";
    if (c.reg_tokens > 0)
        list += (list.empty() ? "" : " and ") + std::to_string(c.reg_tokens) + " registers (REG0 to REG" +
                std::to_string(c.reg_tokens - 1) + ")";
    return list;
}

std::string prefix_kinds(const TokenLayout& layout) {
    std::string kinds;
    for (int t = 0; t < layout.count(); ++t) {
        const std::string kind = layout.is_register(t) ? "REG" : layout.prefix[static_cast<size_t>(t)];
        if (kinds.find(kind) == std::string::npos) kinds += (kinds.empty() ? "" : ", ") + kind;
    }
    return kinds;
}

std::string pooled_tokens(const ModelConfig& config) {
    if (config.global_pool == GlobalPool::Avg) return "the mean of the patch tokens";
    return "the CLS token";
}

}  // namespace vit::gui
