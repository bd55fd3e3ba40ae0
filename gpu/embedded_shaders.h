// The compute shaders of shaders/*.comp, built into the binary (the source is
// generated at build time by embed_shaders.cmake), looked up by file name
// without the extension: embedded_shader("matmul_bias").
#pragma once
#include <string>
#include <vector>

namespace vit::gpu {

struct EmbeddedShader {
    const char* name;    // "matmul_bias" for gpu/shaders/matmul_bias.comp
    const char* source;  // the GLSL text
};

extern const EmbeddedShader kEmbeddedShaders[];
extern const int kEmbeddedShaderCount;

// The source of shaders/<name>.comp; throws vit::Error for an unknown name.
const char* embedded_shader(const std::string& name);
std::vector<std::string> embedded_shader_names();

}  // namespace vit::gpu
