// libFuzzer target: a safetensors file's header and layout, through the check
// the loader runs (SafetensorsFile, here on bytes in memory), then every
// readable tensor converted to float32. Errors must be vit::Error; anything
// else (a crash, a sanitizer report, another exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/error.h"
#include "formats/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const vit::SafetensorsFile file(data, size, "fuzz.safetensors");
        std::vector<float> values;
        for (const vit::SafetensorsEntry& entry : file.entries()) {
            if (file.find(entry.name) != &entry) __builtin_trap();  // the index must find every entry
            if (entry.dtype != "F32" && entry.dtype != "F16" && entry.dtype != "BF16") continue;
            values.resize(static_cast<size_t>(entry.numel()));  // bounded by the input: offsets were checked
            file.read_floats(entry, values.data());
        }
    } catch (const vit::Error&) {}
    return 0;
}
