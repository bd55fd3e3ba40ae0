// OpenGL context handling for the GPU backend: ComputeGlContext, an OpenGL 4.3
// core context for computing without drawing (the CLI, the benchmark and the
// tests; the app uses its own window's context), made with no window where the
// machine allows — EGL's device platform (how NVIDIA's driver offers a GPU on a
// server with no display), then Mesa's surfaceless platform — and from an
// invisible 1×1 GLFW window last; and the check that whatever context is
// current can run compute shaders.
#pragma once
#include <memory>
#include <string>

struct GLFWwindow;

namespace vit {

// Makes the context current and loads glad. Throws vit::Error("no OpenGL 4.3
// context: …") naming each way tried and why it failed. Not for use beside the
// app's own GLFW windows: the last ComputeGlContext to go terminates GLFW.
class ComputeGlContext {
public:
    ComputeGlContext();
    ~ComputeGlContext();
    ComputeGlContext(const ComputeGlContext&) = delete;
    ComputeGlContext& operator=(const ComputeGlContext&) = delete;
    // How the context was made: "EGL device 0", "EGL surfaceless" or "a hidden GLFW window".
    const std::string& source() const { return source_; }

private:
    struct Egl;
    std::unique_ptr<Egl> egl_;
    GLFWwindow* window_ = nullptr;
    std::string source_;
};

namespace gpu {

// Loads glad for the current context (EGL's or GLFW's) if needed and checks it is
// OpenGL ≥ 4.3; throws vit::Error("no OpenGL 4.3 context: …") otherwise.
void require_gl43();

// "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 (Core Profile) Mesa 22.3.6".
std::string gl_description();

}  // namespace gpu
}  // namespace vit
