// Lookup of the shaders embedded by embed_shaders.cmake.
#include "embedded_shaders.h"

#include "base/error.h"

namespace vit::gpu {

const char* embedded_shader(const std::string& name) {
    for (int i = 0; i < kEmbeddedShaderCount; ++i)
        if (name == kEmbeddedShaders[i].name) return kEmbeddedShaders[i].source;
    throw Error("no embedded shader '" + name + "' (expected shaders/" + name + ".comp)");
}

std::vector<std::string> embedded_shader_names() {
    std::vector<std::string> names;
    for (int i = 0; i < kEmbeddedShaderCount; ++i) names.push_back(kEmbeddedShaders[i].name);
    return names;
}

}  // namespace vit::gpu
