// A file on its way down from the Hub, as the CLI and the app show it.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace vit {

struct HubTransfer {
    std::string repo, file;       // "hf-hub:ORG/NAME", "model.safetensors"
    int64_t done = 0, total = 0;  // bytes
    double seconds = 0;           // since this file's request began
};
// Called as bytes arrive; returns false to cancel (the download stops with an error).
using HubProgress = std::function<bool(const HubTransfer&)>;

// "45.1 of 88.2 MB, 12.3 MB/s, 4 s left" (kB and kB/s below a megabyte; the speed and time left once
// a second has passed, until the file is whole).
std::string transfer_text(const HubTransfer& t);

}  // namespace vit
