// Class names for a model's classifier rows: the config's own (`id2label`,
// `label_names`), else ImageNet-1k's when there are 1000 classes, else
// "class N". The ImageNet names (torchvision's order) are embedded into the
// library at build time from assets/imagenet_labels.txt, so the binaries work
// from any folder.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace vit {

// The 1000 ImageNet-1k names; empty when assets/imagenet_labels.txt was absent
// when the build was configured.
const std::vector<std::string>& imagenet_labels();

// `num_classes` names, taking `named[i]` where the config gave one.
std::vector<std::string> class_labels(int num_classes, const std::map<int, std::string>& named);

}  // namespace vit
