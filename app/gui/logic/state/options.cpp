// Parsing vitviz's command line and choosing the default model and image.
#include "logic/state/options.h"

#include <filesystem>

#include "base/error.h"
#include "base/file_io.h"
#include "base/parse.h"
#include "loading/builtin.h"
#include "findings/pca.h"
#include "logic/state/export.h"
#include "logic/state/file_list.h"
#include "logic/state/screens.h"

namespace vit::gui {

namespace fs = std::filesystem;

const char* usage() {
    static const std::string text =
        "usage: vitviz [--model " + builtin_model_names("|") +
        "|hf-hub:ORG/NAME|PATH] [--compare-model NAME|PATH]\n"
        "              [--image PATH] [--image-size S] [--keep-stream]\n"
        "              [--tour DIR] [--select-token T] [--presenter] [--clicker] [--open]\n"
        "              [--measure-fps S] [--measure-pass N] [--screen NAME] [--backend cpu|gpu]\n"
        "              [--train [--train-epochs E]] [--lesson FILE [--handout OUT.html]] [--edit-lesson]\n"
        "              [--monkey SECONDS [--seed S]] [--pca-images A,B,C]\n"
        "  --model        built-in model name, hf-hub:ORG/NAME[@REVISION] (a timm or Hugging Face model on the Hub,\n"
        "                 from the Hugging Face cache or downloaded into it), checkpoint folder or .safetensors\n"
        "                 file; the built-in models:\n" +
        builtin_model_lines("                   ") +
        "  --compare-model  a second model (a name or path as for --model) run on the same image at its own\n"
        "                 size: the attention and cls-masks screens show its CLS attention beside the first's\n"
        "  --image        image file (PNG, JPEG, BMP, GIF, TGA)\n"
        "  --image-size   square input size (positional embeddings are interpolated)\n"
        "  --keep-stream  keep only each block's input of a pass and recompute the block on screen, as the app\n"
        "                 does on its own when every stage of a pass would not fit in memory\n"
        "  --tour DIR     save a screenshot of every stage as DIR/NN-<stage id>.png and of every screen\n"
        "                 as DIR/NN-<screen>.png (attention, why, model-view, overview, the findings), then exit\n"
        "  --select-token token selected at start (0 = CLS; patch p is token P + p after the model's P\n"
        "                 prefix tokens: CLS, DIST, REG0...)\n"
        "  --presenter    start in presenter mode (full screen, large font)\n"
        "  --clicker      clicker mode: PageUp/PageDown step one stage instead of one block\n"
        "  --open         start with the Open window (gallery, path, file browser)\n"
        "  --measure-fps S  step through every stage for S seconds, print the frame rate, exit\n"
        "  --measure-pass N  rerun the pass N times as a click in the Ask panel does (to its answer on screen),\n"
        "                 print pass_ms median/min/max beside the core's pass (vitviz-cli --bench), exit\n"
        "  --screen NAME  start on that screen (with --measure-fps: measure it alone), one of\n"
        "                 " +
        screen_names() +
        "\n"
        "  --pca-images A,B,C  up to 3 images the patch-PCA screen fits one PCA over with the image (DINOv2's\n"
        "                 Figure 1); it starts in that joint form (else joint over the gallery's photos, when chosen)\n"
        "  --backend B    cpu (default) or gpu: the OpenGL 4.3 compute shaders, compared with the CPU core\n"
        "  --gpu-fail-test  make the GPU backend's start fail on a broken shader (shows the fallback)\n"
        "  --train        open the Train window and start training a digits ViT from random weights;\n"
        "                 with --tour DIR: save DIR/train-start.png, train-middle.png, train-end.png, then exit\n"
        "  --train-epochs E  epochs of that run (default 20, at most 1000)\n"
        "  --mask-patches LIST  --drop-tokens LIST  --ablate-heads B:H,...  --no-pos\n"
        "  --permute-patches LIST  --temperature T\n"
        "                 ask the model (as vitviz-cli): LIST is 3,5,10-12; with --tour also DIR/NN-ask.png\n"

        "  --lesson FILE  play a lesson (assets/lessons/*.json); with --tour DIR: DIR/NN-step.png per step, then exit\n"
        "  --edit-lesson  open the lesson editor (key R) on --lesson FILE, or on a new lesson; with --lesson FILE\n"
        "                 --tour DIR: DIR/NN-edit.png per step, and NN-halfway.png: the change into it held halfway\n"
        "  --handout OUT.html  with --lesson: write the lesson as one self-contained HTML page (each step's figure\n"
        "                 embedded; as PNGs in OUT-steps/, or in --tour DIR), then exit\n"
        "  --monkey SECONDS  random keys, clicks, drags, wheel, models (the comparison model too), images, Ask\n"
        "                 questions, lesson steps and training steps for SECONDS (in a new temporary working\n"
        "                 folder), then print the counts\n"
        "  --seed S       the monkey's seed (default 1): the same seed and --model replay the same input\n";
    return text.c_str();
}

// --pca-images: each an image file there is (the tour would draw its error on a screenshot and exit 0).
static std::vector<std::string> existing_files(const std::string& flag, const std::vector<std::string>& paths) {
    for (const std::string& p : paths) {
        const std::string kind = non_regular_kind(p);
        if (!kind.empty()) throw Error(flag + ": '" + shortened(p) + "' is " + kind + ", not an image file");
        std::error_code ec;
        if (!fs::exists(p, ec)) throw Error(flag + ": '" + shortened(p) + "': no such file");
    }
    return paths;
}

Options parse_options(const std::vector<std::string>& args) {
    Options o;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) throw Error(a + " needs a value");
            return args[++i];
        };
        if (a == "--model") o.model = parse_path(a, value());
        else if (a == "--compare-model") o.compare_model = parse_path(a, value());
        else if (a == "--image") o.image = parse_path(a, value());
        else if (a == "--pca-images")
            o.pca_images = existing_files(a, parse_path_list(a, value(), kJointPcaImages - 1));
        else if (a == "--image-size") o.image_size = parse_int(a, value(), 1);
        else if (a == "--tour") o.tour_dir = parse_path(a, value());
        else if (a == "--lesson") o.lesson = parse_path(a, value());
        else if (a == "--edit-lesson") o.edit_lesson = true;
        else if (a == "--handout") o.handout = parse_path(a, value());
        else if (a == "--select-token") o.select_token = parse_int(a, value(), 0);  // 0: the first prefix token (CLS)
        else if (a == "--presenter") o.presenter = true;
        else if (a == "--keep-stream") o.keep_stream = true;
        else if (a == "--clicker") o.clicker = true;
        else if (a == "--open") o.open_chooser = true;
        else if (a == "--measure-fps") o.measure_fps = parse_int(a, value(), 1);
        else if (a == "--measure-pass") o.measure_pass = parse_int(a, value(), 1, 100000);
        else if (a == "--screen") {
            std::string name = value();
            if (!parse_screen(name, o.screen))
                throw Error("--screen expects " + screen_names() + ", got '" + name + "'");
            o.fixed_screen = true;
        } else if (a == "--backend") o.gpu = parse_backend_is_gpu(value());
        else if (a == "--gpu-fail-test") o.gpu_fail_test = true;
        else if (a == "--train") o.train = true;
        else if (a == "--train-epochs") o.train_epochs = parse_int(a, value(), 1, kMaxTrainingEpochs);
        else if (a == "--monkey") o.monkey_seconds = parse_int(a, value(), 1);
        else if (a == "--seed") o.monkey_seed = parse_int(a, value(), 0);
        else if (o.interventions.take(args, i)) continue;
        else if (a == "-h" || a == "--help") o.help = true;
        else throw Error("unknown argument '" + a + "' (try --help)");
    }
    if (!o.handout.empty() && o.lesson.empty()) throw Error("--handout needs --lesson FILE");
    if (!o.handout.empty() && o.tour_dir.empty()) o.tour_dir = handout_picture_dir(o.handout);  // the pictures, as PNGs
    if (o.drivers_asked() > 1)
        throw Error(
            "--tour (or --handout), --measure-fps, --measure-pass and --monkey each run the app on their own: give "
            "one");
    return o;
}

std::vector<std::string> Options::inputs() const {
    std::vector<std::string> files = pca_images;
    files.push_back(lesson);
    files.push_back(image);
    return files;
}

std::string default_model(const std::string& asset_dir) {
    return classify_path((fs::path(asset_dir) / kDefaultModel).string()) == FileKind::ModelFolder ? kDefaultModel
                                                                                                  : kFallbackModel;
}

std::optional<StartChoice> start_fallback(const StartChoice& failed, const std::string& model_image) {
    if (failed.image != model_image) return StartChoice{failed.model, model_image};
    if (failed.model != kFallbackModel) return StartChoice{kFallbackModel, ""};
    return std::nullopt;
}

}  // namespace vit::gui
