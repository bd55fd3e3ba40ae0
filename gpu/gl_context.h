// OpenGL context handling for the GPU backend: HiddenGlContext, an invisible
// 1×1 GLFW window with an OpenGL 4.3 core context (for the CLI, the benchmark
// and the tests; the app uses its own window's context), and the check that
// whatever context is current can run compute shaders.
#pragma once
#include <string>

struct GLFWwindow;

namespace vit {

// Creates the window, makes its context current and loads glad. Throws
// vit::Error("no OpenGL 4.3 context: …") with GLFW's reason when the machine
// cannot give one (no display, old driver). Not for use beside the app's own
// GLFW windows: the last HiddenGlContext to go terminates GLFW.
class HiddenGlContext {
public:
    HiddenGlContext();
    ~HiddenGlContext();
    HiddenGlContext(const HiddenGlContext&) = delete;
    HiddenGlContext& operator=(const HiddenGlContext&) = delete;

private:
    GLFWwindow* window_ = nullptr;
};

namespace gpu {

// Loads glad for the current context if needed and checks it is OpenGL ≥ 4.3;
// throws vit::Error("no OpenGL 4.3 context: …") otherwise.
void require_gl43();

// "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 (Core Profile) Mesa 22.3.6".
std::string gl_description();

}  // namespace gpu
}  // namespace vit
