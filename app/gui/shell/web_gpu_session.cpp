// The GPU session in the browser (controllers/gpu_session.h): the GPU backend
// needs OpenGL 4.3 compute shaders, which WebGL 2 does not have, so it is
// desktop-only: the toolbar's GPU choice is off from the start, its tooltip
// saying why, as on a desktop without OpenGL 4.3, and the CPU core computes.
#include "controllers/gpu_session.h"

namespace vit {
class GpuBackend {};  // never made here: the desktop's is gpu/gpu_backend.h
}  // namespace vit

namespace vit::gui {

GpuSession::GpuSession() {
    status_.built = false;
    status_.error =
        "the GPU backend runs in the desktop app only: it needs OpenGL 4.3 compute shaders, "
        "and a browser has WebGL 2";
}
GpuSession::~GpuSession() = default;

bool GpuSession::update(AppState& state, const std::shared_ptr<const Model>&, const std::shared_ptr<const Trace>&,
                        double, const Interventions&) {
    state.backend = Backend::Cpu;
    return false;
}

const Tensor* GpuSession::difference(const std::string&) { return nullptr; }

}  // namespace vit::gui
