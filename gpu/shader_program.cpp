// Compute shader compilation with the driver's log in the error (GPU backend).
#include "shader_program.h"

#include <utility>
#include <vector>

#include "embedded_shaders.h"
#include "base/error.h"

namespace vit::gpu {

namespace {

std::string trimmed(std::string log) {
    while (!log.empty() && (log.back() == '\n' || log.back() == '\r' || log.back() == ' ' || log.back() == '\0'))
        log.pop_back();
    return log.empty() ? "(the driver gave no log)" : log;
}

std::string shader_log(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 0 ? length : 1), '\0');
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    return trimmed(log.data());
}

std::string program_log(GLuint program) {
    GLint length = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(length > 0 ? length : 1), '\0');
    glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
    return trimmed(log.data());
}

}  // namespace

ComputeProgram::~ComputeProgram() {
    if (program_) glDeleteProgram(program_);
}

ComputeProgram::ComputeProgram(ComputeProgram&& other) noexcept
    : name_(std::move(other.name_)),
      program_(std::exchange(other.program_, 0)),
      locations_(std::move(other.locations_)) {}

ComputeProgram& ComputeProgram::operator=(ComputeProgram&& other) noexcept {
    if (this != &other) {
        if (program_) glDeleteProgram(program_);
        name_ = std::move(other.name_);
        program_ = std::exchange(other.program_, 0);
        locations_ = std::move(other.locations_);
    }
    return *this;
}

GLint ComputeProgram::location(const char* uniform) {
    auto it = locations_.find(uniform);
    if (it == locations_.end()) it = locations_.emplace(uniform, glGetUniformLocation(program_, uniform)).first;
    return it->second;
}

void ComputeProgram::set(const char* uniform, int value) { glProgramUniform1i(program_, location(uniform), value); }

void ComputeProgram::set(const char* uniform, float value) { glProgramUniform1f(program_, location(uniform), value); }

void ComputeProgram::dispatch(GLuint groups_x, GLuint groups_y, GLuint groups_z) const {
    if (groups_x == 0 || groups_y == 0 || groups_z == 0) return;
    glUseProgram(program_);
    glDispatchCompute(groups_x, groups_y, groups_z);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

ComputeProgram compile_compute_shader(const std::string& name, const std::string& source) {
    const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    if (!shader) throw Error("shader '" + name + "': the driver could not create a compute shader");
    const char* text = source.c_str();
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok != GL_TRUE) {
        const std::string log = shader_log(shader);
        glDeleteShader(shader);
        throw Error("shader '" + name + "' failed to compile:\n" + log);
    }
    const GLuint program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    glDeleteShader(shader);  // stays alive while attached
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok != GL_TRUE) {
        const std::string log = program_log(program);
        glDeleteProgram(program);
        throw Error("shader '" + name + "' failed to link:\n" + log);
    }
    return ComputeProgram(name, program);
}

ComputeProgram compile_embedded_shader(const std::string& name) {
    return compile_compute_shader(name, embedded_shader(name));
}

}  // namespace vit::gpu
