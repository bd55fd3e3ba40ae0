// Shader storage buffers and the timer query (GPU backend).
#include "gpu_buffers.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace vit::gpu {

GpuBuffer::GpuBuffer(size_t count, const float* data, GLenum usage) : count_(count) {
    glGenBuffers(1, &id_);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(std::max<size_t>(count, 1) * sizeof(float)),
                 count > 0 ? data : nullptr, usage);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

GpuBuffer::~GpuBuffer() {
    if (id_) glDeleteBuffers(1, &id_);
}

GpuBuffer::GpuBuffer(GpuBuffer&& other) noexcept
    : id_(std::exchange(other.id_, 0)), count_(std::exchange(other.count_, 0)) {}

GpuBuffer& GpuBuffer::operator=(GpuBuffer&& other) noexcept {
    if (this != &other) {
        if (id_) glDeleteBuffers(1, &id_);
        id_ = std::exchange(other.id_, 0);
        count_ = std::exchange(other.count_, 0);
    }
    return *this;
}

void GpuBuffer::upload(const float* data, size_t count, size_t offset) {
    assert(offset + count <= count_);
    if (count == 0) return;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset * sizeof(float)),
                    static_cast<GLsizeiptr>(count * sizeof(float)), data);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

void GpuBuffer::download(float* out, size_t count, size_t offset) const {
    assert(offset + count <= count_);
    if (count == 0) return;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, id_);
    glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset * sizeof(float)),
                       static_cast<GLsizeiptr>(count * sizeof(float)), out);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

GpuBuffer upload_static(const Mat& m) { return GpuBuffer(static_cast<size_t>(m.size()), m.data(), GL_STATIC_DRAW); }

GpuBuffer upload_static(const Vec& v) { return GpuBuffer(static_cast<size_t>(v.size()), v.data(), GL_STATIC_DRAW); }

GpuTimer::GpuTimer() { glGenQueries(1, &query_); }

GpuTimer::~GpuTimer() { glDeleteQueries(1, &query_); }

void GpuTimer::begin() { glBeginQuery(GL_TIME_ELAPSED, query_); }

void GpuTimer::end() {
    glEndQuery(GL_TIME_ELAPSED);
    measured_ = true;
}

double GpuTimer::ms() const {
    if (!measured_) return 0.0;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(query_, GL_QUERY_RESULT, &ns);
    return static_cast<double>(ns) * 1e-6;
}

}  // namespace vit::gpu
