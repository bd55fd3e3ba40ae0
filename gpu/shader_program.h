// Compiling a GLSL compute shader into a program, and setting its uniforms.
// A shader that fails to compile or link is a vit::Error carrying the shader's
// name and the driver's log (the app shows it and falls back to the CPU core).
#pragma once
#include <glad/gl.h>

#include <string>
#include <unordered_map>

namespace vit::gpu {

class ComputeProgram {
public:
    ComputeProgram() = default;
    ComputeProgram(std::string name, GLuint program) : name_(std::move(name)), program_(program) {}
    ~ComputeProgram();
    ComputeProgram(ComputeProgram&& other) noexcept;
    ComputeProgram& operator=(ComputeProgram&& other) noexcept;
    ComputeProgram(const ComputeProgram&) = delete;
    ComputeProgram& operator=(const ComputeProgram&) = delete;

    GLuint id() const { return program_; }
    const std::string& name() const { return name_; }
    // Uniforms the compiler removed as unused are ignored, as GL does.
    void set(const char* uniform, int value);
    void set(const char* uniform, float value);
    // glUseProgram, glDispatchCompute, then a shader-storage barrier so the next
    // dispatch sees what this one wrote.
    void dispatch(GLuint groups_x, GLuint groups_y = 1, GLuint groups_z = 1) const;

private:
    GLint location(const char* uniform);

    std::string name_;
    GLuint program_ = 0;
    std::unordered_map<std::string, GLint> locations_;
};

// Compiles and links one compute shader; throws vit::Error
// "shader 'NAME' failed to compile:\n<log>" (or "to link") on failure.
ComputeProgram compile_compute_shader(const std::string& name, const std::string& source);

// The embedded shaders/<name>.comp, compiled.
ComputeProgram compile_embedded_shader(const std::string& name);

}  // namespace vit::gpu
