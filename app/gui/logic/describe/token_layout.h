// The tokens of one model as the app numbers and names them: its prefix tokens
// first, in timm's order (CLS, DIST, REG0…; ModelConfig::prefix_tokens), then
// the patches, token prefix + p for patch p. A model may have no class token
// (average pooling): every token is then a patch.
#pragma once
#include <string>
#include <vector>

#include "model/model.h"

namespace vit::gui {

struct TokenLayout {
    std::vector<std::string> prefix{"CLS"};  // the names of the rows before patch 0
    int count() const { return static_cast<int>(prefix.size()); }
    bool has_cls() const { return !prefix.empty() && prefix.front() == "CLS"; }
    bool is_patch(int token) const { return token >= count(); }
    int patch_of(int token) const { return token - count(); }  // negative for a prefix token
    int token_of(int patch) const { return count() + patch; }
    bool is_register(int token) const {  // REG0, REG1…
        return token >= 0 && token < count() && prefix[static_cast<size_t>(token)].rfind("REG", 0) == 0;
    }
};
TokenLayout token_layout(const ModelConfig& config);

// A token for tick labels: its prefix name ("CLS", "REG2"), its number in image
// order, or "p7" (patch 7) where rows are reordered.
std::string token_label(int token, bool reordered, const TokenLayout& layout = {});
// "CLS", "REG0", "patch 3 (token 4)", or "patch 3" where rows are reordered.
std::string token_name(int token, bool reordered, const TokenLayout& layout = {});
// What the prefix tokens are, for the `cls` stage: one sentence per kind.
std::string prefix_token_note(const ModelConfig& config);
// The prefix tokens written out: "CLS, DIST", "CLS and 4 registers (REG0 to REG3)".
std::string prefix_token_list(const ModelConfig& config);
// The kinds of prefix token, registers as one: "CLS", "CLS, DIST", "CLS, REG"; "" without any.
std::string prefix_kinds(const TokenLayout& layout);
// The sentence for what the head reads: "the CLS token", "the mean of the patch tokens".
std::string pooled_tokens(const ModelConfig& config);

}  // namespace vit::gui
