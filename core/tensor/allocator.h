// Keeps the forward pass's freed working memory (Eigen's GEMM blocks, block
// temporaries) in the process instead of glibc returning it to the kernel and
// faulting it back in on the next pass: ~3,600 page faults per ViT-Ti forward
// otherwise (34.4 → 30.5 ms at 1 thread). Process-wide glibc tuning, done once.
#pragma once

namespace vit {

void keep_working_memory();

}  // namespace vit
