// glibc malloc tuning for repeated forward passes (see allocator.h).
#include "tensor/allocator.h"

#include <malloc.h>

#include <mutex>

namespace vit {

void keep_working_memory() {
    static std::once_flag once;
    std::call_once(once, [] {
        mallopt(M_MMAP_THRESHOLD, 64 << 20);   // blocks up to 64 MB come from the heap, reusable
        mallopt(M_TRIM_THRESHOLD, 256 << 20);  // and up to 256 MB of freed heap stays mapped
    });
}

}  // namespace vit
