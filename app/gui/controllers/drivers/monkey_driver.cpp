// MonkeyDriver (controllers/drivers/monkey_driver.h): random input fed to the
// app for `--monkey SECONDS`, and its counts.
#include "controllers/drivers/monkey_driver.h"

#include <imgui.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "base/error.h"
#include "logic/state/file_list.h"
#include "loading/builtin.h"

namespace vit::gui {

namespace fs = std::filesystem;

// ViT-B's forward takes minutes in a sanitizer build: there the monkey leaves it out.
#if defined(__SANITIZE_ADDRESS__)
static constexpr bool kLargeModel = false;
#else
static constexpr bool kLargeModel = true;
#endif

static std::vector<std::string> lesson_files(const std::string& asset_dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (fs::directory_iterator it(fs::path(asset_dir) / "lessons", ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json") files.push_back(it->path().string());
    std::sort(files.begin(), files.end());
    return files;
}

MonkeyDriver::MonkeyDriver(const DriverParts& parts)
    : Driver(false),
      app_(parts.app),
      ask_(parts.ask),
      lessons_(parts.lessons),
      training_(parts.training),
      rng_(static_cast<uint32_t>(parts.app.options.monkey_seed)) {
    images_.push_back("");
    for (const FileEntry& f : find_images((fs::path(parts.asset_dir) / "photos").string(), 16))
        images_.push_back(f.path);
    lessons_files_ = lesson_files(parts.asset_dir);
}

void MonkeyDriver::start() {
    started_ = true;
    const std::string& model = app_.options.model;  // a folder's path stays valid in the working folder below
    models_ = monkey_models(is_named_model(model) ? model : fs::absolute(model).string(), kLargeModel);
    std::string pattern = (fs::temp_directory_path() / "vitviz-monkey-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw Error("--monkey: cannot make a temporary folder in " + fs::temp_directory_path().string());
    folder_ = pattern;
    fs::current_path(folder_);
    setenv("HOME", folder_.c_str(), 1);  // the lesson editor saves a new lesson in the home folder
    const Options& o = app_.options;
    std::printf("monkey: seed %d, %d s on %s, working in %s\nmonkey: replay: vitviz --monkey %d --seed %d --model %s\n",
                o.monkey_seed, o.monkey_seconds, o.model.c_str(), folder_.c_str(), o.monkey_seconds, o.monkey_seed,
                o.model.c_str());
    std::fflush(stdout);
    start_ = std::chrono::steady_clock::now();
}

void MonkeyDriver::feed(InputQueue& input) {
    if (!started_) start();
    if (drag_left_ > 0) continue_drag(input);
    else press(input);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(pointer_x_ * io.DisplaySize.x, pointer_y_ * io.DisplaySize.y);
}

void MonkeyDriver::press(InputQueue& input) {
    event_ = next_monkey_event(rng_);
    const MonkeyEvent& e = event_;
    switch (e.kind) {
        case MonkeyKind::Key:
            input.push(e.key);
            input.push(KeyEvent{e.key.key, false, e.key.ctrl});
            ++counts_.keys;
            break;
        case MonkeyKind::Click:
            pointer_x_ = e.x, pointer_y_ = e.y;
            input.push(MouseEvent{e.button, true});
            input.push(MouseEvent{e.button, false});
            ++counts_.clicks;
            break;
        case MonkeyKind::Drag:
            pointer_x_ = e.x, pointer_y_ = e.y;
            input.push(MouseEvent{e.button, true});
            drag_left_ = e.drag_frames;
            ++counts_.drags;
            break;
        case MonkeyKind::Wheel:
            pointer_x_ = e.x, pointer_y_ = e.y;
            ImGui::GetIO().MouseWheel += e.wheel;
            ++counts_.wheels;
            break;
        default: pending_ = e;  // act() carries it out during the frame
    }
}

void MonkeyDriver::continue_drag(InputQueue& input) {
    --drag_left_;
    const float t = 1.f - static_cast<float>(drag_left_) / static_cast<float>(event_.drag_frames);
    pointer_x_ = event_.x + t * (event_.to_x - event_.x);
    pointer_y_ = event_.y + t * (event_.to_y - event_.y);
    if (drag_left_ == 0) input.push(MouseEvent{event_.button, false});
}

void MonkeyDriver::before_frame(UiActions& actions) {
    ++counts_.frames;
    lessons_.editor().save_path = "monkey-lesson.json";  // the editor's Save stays in the temporary folder
    if (pending_) carry_out(*pending_, actions);
    pending_.reset();
    if (std::chrono::steady_clock::now() - start_ >= std::chrono::seconds(app_.options.monkey_seconds)) report();
}

void MonkeyDriver::carry_out(const MonkeyEvent& e, UiActions& actions) {
    switch (e.kind) {
        case MonkeyKind::Model:
            if (e.target == ModelTarget::Loaded) {
                actions.open_model = models_[e.model];
                ++counts_.models;
            } else {  // the comparison model, or none
                actions.compare_model = e.target == ModelTarget::Comparison ? models_[e.model] : "";
                ++counts_.comparisons;
            }
            return;
        case MonkeyKind::Image:
            actions.open_image = images_[e.pick % images_.size()];
            ++counts_.images;
            return;
        case MonkeyKind::Ask: return ask(e);
        case MonkeyKind::LessonStep: return lesson_step(e.pick);
        case MonkeyKind::Train: return train(e);
        default: return;
    }
}

// A change to the Ask panel's question, as its controls make it; the panel opens to show it.
void MonkeyDriver::ask(const MonkeyEvent& e) {
    AskState& a = app_.state.ask;
    if (a.patches <= 0) return;  // no model yet
    ask_.panel().visible = true;
    switch (e.ask) {
        case AskChange::Paint: paint_patch(a, static_cast<int>(e.pick % static_cast<uint32_t>(a.patches)), e.on); break;
        case AskChange::PaintDrops: set_paint_drops(a, e.on); break;
        case AskChange::SilenceHead:
            if (a.depth <= 0 || a.heads <= 0) return;
            set_head_silenced(
                a, static_cast<int>(e.pick % static_cast<uint32_t>(a.depth)),
                static_cast<int>(e.pick / static_cast<uint32_t>(a.depth) % static_cast<uint32_t>(a.heads)), e.on);
            break;
        case AskChange::NoPositions: a.no_positions = e.on; break;
        case AskChange::Shuffle:
            a.shuffle_seed = e.pick;
            set_shuffle(a, e.on);
            break;
        case AskChange::Temperature: a.temperature = e.temperature; break;
        case AskChange::Show: a.show = static_cast<AskShow>(e.pick % 3); break;
        case AskChange::Reset: reset_ask(a); break;
    }
    ++counts_.interventions;
}

// Opens one of the built-in lessons (now and then, or when none is open), else goes to one of its steps;
// now and then on another screen than the step's, where its live values are read all the same.
void MonkeyDriver::lesson_step(uint32_t pick) {
    if (lessons_files_.empty()) return;
    LessonPlayer* player = lessons_.player();
    if (!player || pick % 8 == 0) lessons_.open(lessons_files_[pick / 8 % lessons_files_.size()]);
    else if (player->steps() > 0) player->go(static_cast<int>(pick / 8 % static_cast<uint32_t>(player->steps())));
    const std::vector<ScreenInfo>& screens = screen_table();
    if (pick % 3 == 0) app_.state.screen = screens[pick / 24 % screens.size()].value;
    ++counts_.lesson_steps;
}

// Opens the Train window with a paused run (a new one now and then) and takes a few batches, its options
// set as a user sets them: typed past the sliders' ends too (a rate that diverges, a thousand epochs).
void MonkeyDriver::train(const MonkeyEvent& e) {
    count_training();
    constexpr float kRates[] = {1e-4f, 1e-3f, 1e-2f, 30.f};
    constexpr int kBatches[] = {1, 16, 128}, kEpochs[] = {1, 20, 1000};
    TrainPanelState& panel = training_.panel();
    panel.lr = kRates[e.pick % 4];
    panel.batch = kBatches[e.pick / 4 % 3];
    panel.epochs = kEpochs[e.pick / 12 % 3];
    training_.session().set_peak_lr(panel.lr);
    training_.session().set_batch(panel.batch);
    if (e.on || !panel.visible) {
        panel.visible = true;
        training_.start(true);
        trained_step_ = 0;
    }
    for (int i = 0; i < e.train_steps; ++i) training_.session().step_once();
}

// The batches the run took since the last count (a new run starts from 0).
void MonkeyDriver::count_training() {
    const int step = training_.session().progress().step;
    counts_.training_steps += std::max(0, step - trained_step_);
    trained_step_ = step;
}

void MonkeyDriver::report() {
    count_training();
    std::printf("%s\n", monkey_summary(counts_).c_str());
    std::fflush(stdout);
    std::error_code ec;
    fs::remove_all(folder_, ec);  // what the app saved; anything it still saves this frame fails harmlessly
    finish(0);
}

}  // namespace vit::gui
