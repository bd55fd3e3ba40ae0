// Class names: the config's, ImageNet-1k's (text generated into the build
// folder by core/CMakeLists.txt), or "class N".
#include "model/labels.h"

#include <sstream>

namespace vit {

extern const char* const kImageNetLabelsText;  // one name per line (assets/imagenet_labels.txt)

const std::vector<std::string>& imagenet_labels() {
    static const std::vector<std::string> labels = [] {
        std::vector<std::string> lines;
        std::istringstream text(kImageNetLabelsText);
        for (std::string line; std::getline(text, line);) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (!line.empty()) lines.push_back(line);
        }
        return lines.size() == 1000 ? lines : std::vector<std::string>{};
    }();
    return labels;
}

std::vector<std::string> class_labels(int num_classes, const std::map<int, std::string>& named) {
    const bool imagenet = num_classes == 1000 && imagenet_labels().size() == 1000;
    std::vector<std::string> labels;
    labels.reserve(static_cast<size_t>(num_classes));
    for (int i = 0; i < num_classes; ++i) {
        const auto it = named.find(i);
        if (it != named.end()) labels.push_back(it->second);
        else labels.push_back(imagenet ? imagenet_labels()[static_cast<size_t>(i)] : "class " + std::to_string(i));
    }
    return labels;
}

}  // namespace vit
