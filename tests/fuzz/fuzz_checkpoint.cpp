// libFuzzer target: a config.json read beside real weights, through the whole
// checkpoint loader (load_checkpoint). The first byte picks one of the model
// families' fixture checkpoints (tests/fixtures: registers, DIST, no CLS,
// CLIP, DINOv2, Hugging Face), the rest is its config.json: settings the
// weights contradict, position tables that read two ways, pooling the head
// cannot take. Errors must be vit::Error; a model accepted must pass the shape
// check the pass relies on (validate_model_shapes).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "base/error.h"
#include "base/file_io.h"
#include "formats/checkpoint.h"
#include "model/model.h"

namespace {

namespace fs = std::filesystem;

constexpr const char* kFixtures[] = {"timm_reg4",   "timm_deit_distilled", "timm_gap_fcnorm", "timm_clip_quickgelu",
                                     "timm_dinov2", "timm_avg_cls",        "hf_dinov2_reg",   "hf_bf16"};
constexpr size_t kFixtureCount = sizeof kFixtures / sizeof kFixtures[0];

std::string folders[kFixtureCount];

void remove_folders() {
    for (const std::string& folder : folders)
        if (!folder.empty()) fs::remove_all(folder);
}

// A folder per fixture holding a link to its weights, made once (removed at exit); each input writes
// its config.json there.
const std::string& checkpoint_folder(size_t fixture) {
    std::string& folder = folders[fixture];
    if (folder.empty()) {
        static const int registered = std::atexit(remove_folders);
        (void)registered;
        char name[] = "/tmp/vitviz-fuzz-checkpoint.XXXXXX";
        if (!::mkdtemp(name)) __builtin_trap();
        folder = name;
        fs::create_symlink(fs::path(VITVIZ_FIXTURES) / kFixtures[fixture] / "model.safetensors",
                           fs::path(folder) / "model.safetensors");
    }
    return folder;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string& folder = checkpoint_folder(data[0] % kFixtureCount);
    vit::write_whole_file(folder + "/config.json", std::string(reinterpret_cast<const char*>(data + 1), size - 1));
    vit::Model model;
    try {
        model = vit::load_checkpoint(folder);
    } catch (const vit::Error&) {
        return 0;
    }
    try {
        vit::validate_model_shapes(model);
    } catch (const vit::Error&) {
        __builtin_trap();  // the loader accepted a model the pass cannot run
    }
    return 0;
}
