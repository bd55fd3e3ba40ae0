// Claims about vitviz's command line, default model, file lists, the Open window's gallery and tour plan.
#include <catch2/catch.hpp>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "logic/state/app_state.h"
#include "base/error.h"
#include "loading/builtin.h"
#include "logic/state/file_list.h"
#include "logic/state/options.h"
#include "logic/state/tour.h"
#include "pass/trace.h"

using namespace vit::gui;
namespace fs = std::filesystem;

TEST_CASE("vitviz's options are parsed, a bad one is an error that names it") {
    Options o = parse_options({"--model", "digits", "--image", "cat.png", "--image-size", "64", "--tour", "out",
                               "--select-token", "3", "--presenter"});
    REQUIRE(o.model == "digits");
    REQUIRE(o.image == "cat.png");
    REQUIRE(o.image_size == 64);
    REQUIRE(o.tour_dir == "out");
    REQUIRE(o.select_token == 3);
    REQUIRE(o.presenter);
    REQUIRE(parse_options({}).model.empty());
    REQUIRE_THROWS_WITH(parse_options({"--frobnicate"}), Catch::Contains("--frobnicate"));
    REQUIRE_THROWS_WITH(parse_options({"--image-size", "big"}), Catch::Contains("--image-size"));
    REQUIRE_THROWS_WITH(parse_options({"--image-size", "-3"}), Catch::Contains("--image-size"));
    REQUIRE_THROWS_WITH(parse_options({"--model"}), Catch::Contains("--model"));
    REQUIRE_THROWS_AS(parse_options({"--select-token", "-1"}), vit::Error);
}

TEST_CASE("an empty path for the model, image, tour, lesson or hand-out is refused naming the option") {
    for (const char* flag : {"--model", "--image", "--tour", "--lesson", "--handout"})
        REQUIRE_THROWS_WITH(parse_options({flag, ""}), std::string(flag) + ": expected a path, got an empty one");
}

TEST_CASE("with no model folder in assets the app opens the toy, with one it opens the trained model") {
    fs::path dir = fs::temp_directory_path() / "vitviz_test_assets";
    fs::remove_all(dir);
    fs::create_directories(dir);
    REQUIRE(default_model(dir.string()) == kFallbackModel);
    fs::create_directories(dir / kDefaultModel);
    REQUIRE(default_model(dir.string()) == kFallbackModel);  // a folder without weights is not a model
    std::ofstream(dir / kDefaultModel / "config.json") << "{}";
    std::ofstream(dir / kDefaultModel / "model.safetensors") << "x";
    REQUIRE(default_model(dir.string()) == kDefaultModel);
    fs::remove_all(dir);
}

TEST_CASE("the file browser lists folders first, then images and checkpoints, and hides the rest") {
    fs::path dir = fs::temp_directory_path() / "vitviz_test_browse";
    fs::remove_all(dir);
    fs::create_directories(dir / "zoo");
    fs::create_directories(dir / "vit_tiny");
    fs::create_directories(dir / ".hidden");
    std::ofstream(dir / "vit_tiny" / "config.json") << "{}";
    std::ofstream(dir / "vit_tiny" / "model.safetensors") << "x";
    std::ofstream(dir / "cat.JPG") << "x";
    std::ofstream(dir / "weights.safetensors") << "x";
    std::ofstream(dir / "notes.txt") << "x";
    std::vector<FileEntry> l = list_folder(dir.string());
    REQUIRE(l.size() == 4);
    REQUIRE(l[0].name == "vit_tiny");
    REQUIRE(l[0].kind == FileKind::ModelFolder);
    REQUIRE(l[1].name == "zoo");
    REQUIRE(l[1].kind == FileKind::Folder);
    REQUIRE(l[2].name == "cat.JPG");
    REQUIRE(l[2].kind == FileKind::Image);
    REQUIRE(l[3].kind == FileKind::Checkpoint);
    REQUIRE(find_images(dir.string(), 10).size() == 1);
    REQUIRE(find_models(dir.string(), 10).size() == 2);
    REQUIRE_THROWS_AS(list_folder((dir / "missing").string()), vit::Error);
    fs::remove_all(dir);
}

TEST_CASE("the Open window's gallery lists every built-in model, then the checkpoints under assets/ once each") {
    fs::path dir = fs::temp_directory_path() / "vitviz_test_gallery";
    fs::remove_all(dir);
    for (const char* folder : {vit::kDigitsModel, "vit_tiny"}) {  // assets/digits is the built-in's own folder
        fs::create_directories(dir / folder);
        std::ofstream(dir / folder / "config.json") << "{}";
        std::ofstream(dir / folder / "model.safetensors") << "x";
    }
    const std::vector<GalleryModel> gallery = gallery_models(dir.string(), 10);
    const std::vector<vit::BuiltinModel>& builtins = vit::builtin_models();
    REQUIRE(gallery.size() == builtins.size() + 1);
    for (size_t i = 0; i < builtins.size(); ++i) {
        INFO(builtins[i].name);
        CHECK(gallery[i].choice == builtins[i].name);
        CHECK_THAT(gallery[i].label, Catch::StartsWith(builtins[i].name) && Catch::Contains(builtins[i].description));
    }
    CHECK(gallery.back().label == "vit_tiny");
    CHECK(gallery.back().choice == (dir / "vit_tiny").string());
    CHECK(gallery_models((dir / "missing").string(), 10).size() == builtins.size());
    fs::remove_all(dir);
}

TEST_CASE(
    "the tour names one screenshot per stage NN-<stage id>.png, then attention, why, model-view, overview, the four "
    "findings, two gradients and three cells") {
    Pipeline p = make_pipeline(vit::stage_list(1, true), 5, 2);
    std::vector<TourShot> plan = tour_plan(p);
    REQUIRE(plan.size() == p.ids.size() + 13);
    REQUIRE(plan[0].file == "00-input.png");
    REQUIRE(plan[p.index_of("block0.q")].file == "06-block0.q.png");
    const size_t n = p.ids.size();
    REQUIRE(n == 23);
    const char* screens[] = {"23-attention.png",          "24-why.png",       "25-model-view.png",  "26-overview.png",
                             "27-attention-distance.png", "28-patch-pca.png", "29-token-norms.png", "30-cls-masks.png"};
    const Screen order[] = {Screen::Attention,         Screen::Why,           Screen::ModelView,  Screen::Overview,
                            Screen::AttentionDistance, Screen::PatchFeatures, Screen::TokenNorms, Screen::ClsMasks};
    const int last = p.size() - 1, out = p.index_of("block0.out");
    const int stages[] = {last, last, last, p.index_of("block0.attn"), out, out, out, out};
    for (size_t i = 0; i < 8; ++i) {
        INFO(screens[i]);
        REQUIRE(plan[n + i].file == screens[i]);
        REQUIRE(plan[n + i].screen == order[i]);
        REQUIRE(plan[n + i].stage == stages[i]);
    }
    REQUIRE(plan[n + 8].file == "31-grad-block0.attn.png");
    REQUIRE(plan[n + 8].gradients());
    REQUIRE(plan[n + 8].stage == p.index_of("block0.attn"));
    REQUIRE(plan[n + 9].file == "32-grad-input.png");
    REQUIRE(plan[n + 9].stage == 0);
    REQUIRE(plan[n + 10].file == "33-cell-block0.scores.png");
    REQUIRE(plan[n + 10].stage == p.index_of("block0.scores"));
    const CellRef scores_cell{vit::StageRef{vit::StageKind::Scores, 0}, 0, 1, 1};
    REQUIRE(plan[n + 10].cell == scores_cell);
    REQUIRE(plan[n + 12].file == "35-cell-block0.ln1.png");
    const CellRef ln1_cell{vit::StageRef{vit::StageKind::Ln1, 0}, -1, 1, 1};
    REQUIRE(plan[n + 12].cell == ln1_cell);
    for (size_t i = 0; i < n + 10; ++i) REQUIRE_FALSE(plan[i].cell);
    vit::gui::TokenLayout no_cls;  // a model without a class token has no CLS attention to mask
    no_cls.prefix.clear();
    const std::vector<TourShot> gap_plan = tour_plan(make_pipeline(vit::stage_list(1, true), 4, 2, no_cls));
    REQUIRE(gap_plan.size() == plan.size() - 1);
    REQUIRE(gap_plan[n + 6].file == "29-token-norms.png");
    REQUIRE(gap_plan[n + 7].file == "30-grad-block0.attn.png");
    // A headless model (DINO) has no class to explain.
    Pipeline headless = make_pipeline(vit::stage_list(1, false), 5, 2);
    const std::vector<TourShot> headless_plan = tour_plan(headless);
    REQUIRE(headless_plan.size() == headless.ids.size() + 10);
    REQUIRE(headless_plan[headless.ids.size() + 1].screen == Screen::ModelView);
    REQUIRE(headless_plan[headless.ids.size() + 6].screen == Screen::ClsMasks);
    REQUIRE(headless_plan.back().cell);
    REQUIRE(tour_file_name(7, "block0.q") == "07-block0.q.png");
    REQUIRE(tour_file_name(123, "rollout") == "123-rollout.png");
}

TEST_CASE("the tour captures each shot once, after its frames have settled") {
    TourSchedule d({{0, Screen::Stage, "a.png"}, {1, Screen::Stage, "b.png"}});
    int captures = 0, frames = 0;
    while (!d.done() && frames < 100) {
        if (d.capture_this_frame()) ++captures;
        d.end_frame();
        ++frames;
    }
    REQUIRE(captures == 2);
    REQUIRE(frames == 2 * TourSchedule::kFramesPerShot);
}

TEST_CASE("the option --measure-fps takes a positive number of seconds") {
    REQUIRE(parse_options({"--measure-fps", "5"}).measure_fps == 5.0);
    REQUIRE_THROWS_AS(parse_options({"--measure-fps", "0"}), vit::Error);
}

TEST_CASE("the option --measure-pass takes a positive number of reruns") {
    REQUIRE(parse_options({}).measure_pass == 0);
    REQUIRE(parse_options({"--measure-pass", "10"}).measure_pass == 10);
    REQUIRE_THROWS_WITH(parse_options({"--measure-pass", "0"}), Catch::Contains("--measure-pass"));
    REQUIRE_THROWS_AS(parse_options({"--measure-pass", "ten"}), vit::Error);
}

TEST_CASE("one driver at a time: a tour, a hand-out, --measure-fps, --measure-pass and --monkey refuse each other") {
    const std::vector<std::vector<std::string>> pairs = {{"--tour", "t", "--monkey", "3"},
                                                         {"--measure-fps", "2", "--measure-pass", "3"},
                                                         {"--lesson", "l.json", "--handout", "h.html", "--monkey", "3"},
                                                         {"--measure-pass", "3", "--tour", "t"}};
    for (const std::vector<std::string>& args : pairs)
        REQUIRE_THROWS_WITH(parse_options(args), Catch::Contains("each run the app on their own"));
    REQUIRE_NOTHROW(parse_options({"--train", "--tour", "t"}));  // the training run's tour
    REQUIRE_NOTHROW(parse_options({"--lesson", "l.json", "--tour", "t"}));
}

TEST_CASE("the option --screen names the screen to start on, and rejects other names") {
    REQUIRE_FALSE(parse_options({}).fixed_screen);
    Options o = parse_options({"--measure-fps", "5", "--screen", "model-view"});
    REQUIRE(o.fixed_screen);
    REQUIRE(o.screen == Screen::ModelView);
    REQUIRE(parse_options({"--screen", "overview"}).screen == Screen::Overview);
    REQUIRE(parse_options({"--screen", "attention"}).screen == Screen::Attention);
    REQUIRE(parse_options({"--screen", "stage"}).screen == Screen::Stage);
    REQUIRE(parse_options({"--screen", "why"}).screen == Screen::Why);
    REQUIRE(parse_options({"--screen", "token-norms"}).screen == Screen::TokenNorms);
    REQUIRE_THROWS_WITH(
        parse_options({"--screen", "models"}),
        Catch::Contains("--screen expects stage, attention, why, model-view, overview, attention-distance, patch-pca, "
                        "token-norms or cls-masks, got 'models'"));
    REQUIRE_THROWS_AS(parse_options({"--screen", "models"}), vit::Error);
    REQUIRE_THROWS_AS(parse_options({"--screen"}), vit::Error);
}

TEST_CASE("a model without encoder blocks still gets the overview shot, but no attention or model view") {
    Pipeline p = make_pipeline(vit::stage_list(0, true), 5, 2);
    std::vector<TourShot> plan = tour_plan(p);
    REQUIRE(plan.size() == p.ids.size() + 1);
    REQUIRE(plan.back().file == "09-overview.png");
    REQUIRE(plan.back().stage == 0);  // no attention: the first stage
}

TEST_CASE("a missing --image keeps the chosen model on its own image, only a failing model falls back to the toy") {
    std::optional<StartChoice> next = start_fallback({"digits", "missing.png"}, "");
    REQUIRE(next);
    REQUIRE(next->model == "digits");
    REQUIRE(next->image.empty());
    next = start_fallback({"/ckpt", "missing.png"}, "photos/chelsea.jpg");
    REQUIRE(next->model == "/ckpt");
    REQUIRE(next->image == "photos/chelsea.jpg");
    next = start_fallback({"/ckpt", "photos/chelsea.jpg"}, "photos/chelsea.jpg");
    REQUIRE(next->model == kFallbackModel);
    REQUIRE_FALSE(start_fallback({kFallbackModel, ""}, ""));
}

TEST_CASE("each tour shot says what it shows, so the driver need not read file names") {
    const Pipeline p = make_pipeline(vit::stage_list(4, true), 17, 4);
    const std::vector<TourShot> plan = tour_plan(p, true);
    const size_t n = p.ids.size();
    for (size_t i = 0; i < n; ++i) REQUIRE(plan[i].kind == ShotKind::Stage);
    for (size_t i = n; i < n + 8; ++i) REQUIRE(plan[i].kind == ShotKind::Screen);  // the screens, findings too
    REQUIRE(plan[n + 1].screen == Screen::Why);
    REQUIRE(plan[n + 8].kind == ShotKind::Gradient);
    REQUIRE(plan[n + 9].kind == ShotKind::Gradient);
    for (size_t i = n + 10; i < n + 13; ++i) REQUIRE(plan[i].kind == ShotKind::CellProvenance);
    REQUIRE(plan.back().kind == ShotKind::GpuDifference);
    for (const TourShot& shot : plan) REQUIRE(shot.gradients() == (shot.kind == ShotKind::Gradient));

    const TourShot ask = window_shot(p, ShotKind::Ask, 33), draw = window_shot(p, ShotKind::Draw, 34);
    REQUIRE(ask.file == "33-ask.png");
    REQUIRE(ask.kind == ShotKind::Ask);
    REQUIRE(ask.screen == Screen::Attention);
    REQUIRE(draw.file == "34-draw.png");
    REQUIRE(draw.kind == ShotKind::Draw);
    const Pipeline blockless = make_pipeline(vit::stage_list(0, true), 5, 1);
    REQUIRE(window_shot(blockless, ShotKind::Ask, 3).screen == Screen::Stage);
}

TEST_CASE("the option --compare-model takes a model as --model does, and refuses an empty one naming the option") {
    REQUIRE(parse_options({"--compare-model", "vit-b-random"}).compare_model == "vit-b-random");
    REQUIRE(parse_options({"--model", "digits"}).compare_model.empty());
    REQUIRE_THROWS_WITH(parse_options({"--compare-model", ""}), "--compare-model: expected a path, got an empty one");
    REQUIRE_THROWS_WITH(parse_options({"--compare-model"}), Catch::Contains("--compare-model"));
}

TEST_CASE("a model change opens the model's own image: ViT-B's photo does not stay behind on the digits") {
    const std::string photo = "assets/photos/astronaut.jpg";
    CHECK(image_for_new_model("digits", "vit-b-random", photo).empty());                // the digits' own 7
    CHECK(image_for_new_model("vit-b-random", "digits", "").empty());                   // ViT-B's default photo
    CHECK(image_for_new_model("vit-b-random", "/ckpt/vit-s", photo) == photo);          // a photo model keeps the photo
    CHECK(image_for_new_model("toy-4x4", "digits", "my-digit.png") == "my-digit.png");  // chosen for such a model
}

TEST_CASE("a tour of more than 100 shots pads its numbers so the files sort in the tour's order") {
    const Pipeline p = make_pipeline(vit::stage_list(12, true), 197, 12);
    std::vector<TourShot> plan = tour_plan(p);
    REQUIRE(plan.size() > 100);
    CHECK(plan[0].file == "000-input.png");
    plan.push_back(window_shot(p, ShotKind::Ask, static_cast<int>(plan.size())));
    pad_tour_numbers(plan);
    std::vector<std::string> numbered;
    for (const TourShot& s : plan)
        if (s.file[0] >= '0' && s.file[0] <= '9') numbered.push_back(s.file);
    CHECK(std::is_sorted(numbered.begin(), numbered.end()));  // as a file manager lists them
    CHECK(numbered.back().substr(0, 4) == std::to_string(plan.size() - 1) + "-");
}
