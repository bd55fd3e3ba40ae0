// Models named on the Hugging Face Hub the way timm names them:
// "hf-hub:ORG/NAME" or "hf-hub:ORG/NAME@REVISION" (a branch, a tag or a
// commit; "main" when none is given). hub_fetch.h turns a name into a folder.
#pragma once
#include <string>

namespace vit {

inline constexpr const char* kHubPrefix = "hf-hub:";

struct HubName {
    std::string repo;          // "ORG/NAME"
    std::string revision;      // "main" unless given
    std::string text() const;  // "hf-hub:ORG/NAME" (and "@REVISION" when not "main")
};

// True when `text` starts with "hf-hub:" (then parse_hub_name must accept it or say why).
bool is_hub_name(const std::string& text);

// The parts of "hf-hub:ORG/NAME[@REVISION]", or vit::Error naming what is wrong: ORG and
// NAME are letters, digits, '-', '_' and '.', at most 96 characters together, without
// "--" or ".."; a revision has no spaces or "..".
HubName parse_hub_name(const std::string& text);

}  // namespace vit
