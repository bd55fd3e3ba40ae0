// The stride-P convolution, written out as the four nested sums of Conv2d,
// compared with the patch_embed stage (see conv_check.h).
#include "explain/conv_check.h"

#include <algorithm>
#include <cmath>

namespace vit {

float patch_embed_conv_difference(const Model& model, const Trace& trace) {
    const ModelConfig& c = model.config;
    const Tensor& in = trace.at(StageRef{StageKind::Input});
    const Tensor& embed = trace.at(StageRef{StageKind::PatchEmbed});
    const int64_t C = c.channels, P = c.patch_size, S = in.shape[2], grid = S / P, D = c.embed_dim;
    float max_diff = 0.f;
    for (int64_t p = 0; p < std::min<int64_t>(grid * grid, embed.rows()); ++p) {
        const int64_t y0 = (p / grid) * P, x0 = (p % grid) * P;
        for (int64_t d = 0; d < D; ++d) {
            double acc = model.patch_b(d);
            for (int64_t ch = 0; ch < C; ++ch)
                for (int64_t ky = 0; ky < P; ++ky)
                    for (int64_t kx = 0; kx < P; ++kx)
                        acc += double(model.patch_w(d, (ch * P + ky) * P + kx)) *
                               in.data[static_cast<size_t>((ch * S + y0 + ky) * S + x0 + kx)];
            max_diff = std::max(max_diff, std::fabs(float(acc) - embed.data[static_cast<size_t>(p * D + d)]));
        }
    }
    return max_diff;
}

}  // namespace vit
