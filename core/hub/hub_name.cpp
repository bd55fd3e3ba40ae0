// Parsing "hf-hub:ORG/NAME[@REVISION]" (hub_name.h), with huggingface_hub's rules for repository ids.
#include "hub/hub_name.h"

#include <cctype>

#include "base/error.h"

namespace vit {

namespace {

bool id_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; }

bool valid_part(const std::string& part) {
    if (part.empty() || part.front() == '-' || part.front() == '.' || part.back() == '-' || part.back() == '.')
        return false;
    for (char c : part)
        if (!id_char(c)) return false;
    return true;
}

bool valid_revision(const std::string& rev) {
    if (rev.empty() || rev.size() > 256 || rev.find("..") != std::string::npos || rev.front() == '/') return false;
    for (char c : rev)
        if (!(id_char(c) || c == '/')) return false;
    return true;
}

}  // namespace

std::string HubName::text() const { return kHubPrefix + repo + (revision == "main" ? "" : "@" + revision); }

bool is_hub_name(const std::string& text) { return text.rfind(kHubPrefix, 0) == 0; }

HubName parse_hub_name(const std::string& text) {
    const std::string body = text.substr(std::string(kHubPrefix).size());
    const size_t at = body.find('@');
    HubName name{body.substr(0, at), at == std::string::npos ? "main" : body.substr(at + 1)};
    const size_t slash = name.repo.find('/');
    const bool repo_ok = slash != std::string::npos && valid_part(name.repo.substr(0, slash)) &&
                         valid_part(name.repo.substr(slash + 1)) && name.repo.size() <= 96 &&
                         name.repo.find("--") == std::string::npos && name.repo.find("..") == std::string::npos;
    if (!repo_ok)
        throw Error("'" + shortened(text) + "': expected hf-hub:ORG/NAME[@REVISION] (letters, digits, '-', '_', '.')");
    if (!valid_revision(name.revision))
        throw Error("'" + shortened(text) + "': the revision after '@' must be a branch, tag or commit");
    return name;
}

}  // namespace vit
