// GPU memory for the backend: a shader storage buffer of floats (RAII), with
// upload and partial read-back, and a GL_TIME_ELAPSED timer query.
#pragma once
#include <glad/gl.h>

#include <cstddef>

#include "tensor/tensor.h"

namespace vit::gpu {

class GpuBuffer {
public:
    GpuBuffer() = default;
    // `count` floats (at least one is allocated), filled from `data` when given.
    explicit GpuBuffer(size_t count, const float* data = nullptr, GLenum usage = GL_DYNAMIC_COPY);
    ~GpuBuffer();
    GpuBuffer(GpuBuffer&& other) noexcept;
    GpuBuffer& operator=(GpuBuffer&& other) noexcept;
    GpuBuffer(const GpuBuffer&) = delete;
    GpuBuffer& operator=(const GpuBuffer&) = delete;

    GLuint id() const { return id_; }
    size_t size() const { return count_; }  // floats
    void upload(const float* data, size_t count, size_t offset = 0);
    // Waits for the GPU; call after glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT).
    void download(float* out, size_t count, size_t offset = 0) const;

private:
    GLuint id_ = 0;
    size_t count_ = 0;
};

// Weights as they are (row-major, PyTorch (out, in)); an empty vector or matrix
// gives a one-float buffer that no shader reads.
GpuBuffer upload_static(const Mat& m);
GpuBuffer upload_static(const Vec& v);

// GPU time of the commands between begin() and end(), from GL_TIME_ELAPSED.
class GpuTimer {
public:
    GpuTimer();
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    void begin();
    void end();
    // Milliseconds; waits for the result (0 before the first end()).
    double ms() const;

private:
    GLuint query_ = 0;
    bool measured_ = false;
};

}  // namespace vit::gpu
