// The app: owns the UI state, the loaded model and trace, the worker that
// loads and computes, the texture cache, and lays out the panels each frame
// (toolbar, navigator, stage view or attention screen, side panel, status
// bar). main.cpp owns the window and the ImGui/GL backends and calls
// draw_frame() and after_render() once per frame.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "logic/state/app_state.h"
#include "logic/ask/ask_compare.h"
#include "panels/ask_panel.h"
#include "logic/state/bookmarks.h"
#include "logic/state/derived_cache.h"
#include "panels/draw_panel.h"
#include "logic/jobs/explanation.h"
#include "platform/fonts.h"
#include "controllers/gpu_session.h"
#include "logic/lesson/handout.h"
#include "logic/state/input_queue.h"
#include "logic/state/key_actions.h"
#include "panels/lesson_editor_panel.h"
#include "logic/lesson/lesson_player.h"
#include "logic/jobs/loader.h"
#include "panels/navigator_panel.h"
#include "panels/open_panel.h"
#include "logic/state/options.h"
#include "panels/status_bar.h"
#include "logic/state/texture_cache.h"
#include "logic/state/tour.h"
#include "panels/train_panel.h"
#include "logic/jobs/training_session.h"
#include "controllers/ui_actions.h"

struct GLFWwindow;

namespace vit::gui {

class App {
public:
    App(GLFWwindow* window, Options options, std::string asset_dir);
    ~App();

    void draw_frame();                      // between ImGui::NewFrame() and ImGui::Render()
    void after_render(int fb_width, int fb_height);  // after the draw data is rendered, before the swap
    void on_drop(int count, const char** paths);     // glfwSetDropCallback
    void on_key(int glfw_key, int action, int mods);  // glfwSetKeyCallback: queued, applied in draw_frame
    void on_mouse_button(int button, int action);     // glfwSetMouseButtonCallback: queued
    // Between the backend's NewFrame and ImGui::NewFrame: ImGui sees at most one queued
    // button transition per frame, so a press and release within one frame is still a click.
    void feed_mouse_buttons();

    bool should_close() const { return quit_; }
    bool touring() const { return !options_.tour_dir.empty(); }  // no mouse: screenshots without tooltips
    bool unthrottled() const { return touring() || options_.measure_fps > 0; }  // no vsync
    int exit_code() const { return exit_code_; }
    Fonts& fonts() { return fonts_; }

private:
    void request(const std::string& model, const std::string& image);  // "" = model_image(model)
    std::string model_image(const std::string& model) const;  // the image a model opens on
    void poll_loader();
    void apply(Loaded loaded);
    void handle_keys();
    void advance_tour();                        // --tour: show the planned stage and screen
    void step_fps_measure();                    // --measure-fps: cycle through the stages, then report
    void draw_main_window(UiActions& actions);
    void draw_columns(float body_h);
    void draw_loading(float body_h);
    void draw_why_screen(struct ViewContext& ctx);
    bool why_shown();  // the explanation on screen is for the current trace and class
    void draw_gradient_view(struct ViewContext& ctx);
    void follow_why_class();  // a new trace: explain its top class
    StatusInfo status_info() const;
    void carry_out(const UiActions& actions);
    void carry_out(WindowAction action);
    void set_presenter(bool on);
    void show_error(const std::string& text);
    void show_notice(const std::string& text);
    void export_npy();
    void send_canvas();  // the Draw canvas, MNIST-normalised, to the loader

    GLFWwindow* window_;
    Options options_;
    std::string asset_dir_;
    Fonts fonts_;
    ImGuiStyle base_style_;

    AppState state_;
    Pipeline pipeline_;
    InputQueue input_;
    Bookmarks bookmarks_;
    Loader loader_;
    TextureCache cache_;
    DerivedCache derived_;
    uint64_t generation_ = 0;
    ExplainJob explain_;          // "Why this class?" (W)
    int why_class_ = 0;
    uint64_t why_generation_ = ~0ull;
    DerivedCache grad_derived_;   // numbers the gradient views derive, apart from the values' (derived_)
    uint64_t grad_derived_for_ = ~0ull;  // the (trace, class) they were derived for
    int linked_hover_ = -1;

    std::shared_ptr<const Model> model_;
    std::string model_name_;
    std::shared_ptr<const Trace> trace_;
    Image picture_;
    std::string image_path_, image_name_;
    double forward_ms_ = 0.0;
    bool first_load_ = true;

    NavigatorState nav_;
    OpenPanelState open_;
    DrawPanelState draw_;
    std::optional<Message> message_;
    std::optional<TourDriver> tour_;
    bool capture_png_ = false;
    double fps_first_ = -1.0;  // --measure-fps: when the trace arrived (its first frame builds the textures)
    double fps_start_ = -1.0;  // after that first frame: the frames counted from here
    long fps_frames_ = 0;
    bool quit_ = false;
    int exit_code_ = 0;
    int windowed_[4] = {100, 100, 1600, 1000};  // x, y, w, h before presenter mode

    // The GPU backend (app_gpu.cpp): runs when the GPU is chosen and the CPU trace changes.
    void sync_gpu();
    const Trace& shown_trace() const;  // the GPU trace when the GPU is chosen and has one
    float gpu_panel_height(float body_h) const;
    void draw_gpu_panel(struct ViewContext& ctx, float body_h);
    GpuSession gpu_;
    bool shown_gpu_ = false;
    bool gpu_error_shown_ = false;

    // The Ask panel (app_ask.cpp): reruns when state_.ask changes, keeps the unmodified pass.
    struct AskSent {
        Interventions interventions;
        bool occlusion = false;
    };
    void keep_ask_results(const Loaded& loaded);
    bool ask_at_start();       // the command line's interventions; true: the first-load steps wait for their pass
    void sync_ask();           // once per frame: rerun when the question changed
    const Trace& views_trace();  // modified (shown_trace), original or their difference, as the panel says
    void draw_ask_panel();
    AskPanelState ask_panel_;
    AskResults ask_;
    LoadRequest ask_request_;  // the request of the trace on screen
    AskSent ask_sent_;         // the last question sent to the loader
    std::shared_ptr<const Trace> difference_;
    AskShow shown_choice_ = AskShow::Modified;
    bool asked_at_start_ = false;

    // Lesson mode (app_lesson.cpp): --lesson FILE, its steps' loads and views, keys and caption,
    // the transitions between steps, and the lesson editor (R).
    void open_lesson(const std::string& path);
    void play_lesson();
    bool lesson_images_ready();  // the step's model and image are on screen (else asked for)
    bool lesson_run_ready();     // a train step's run reached its stop and the view shows it
    void lesson_failed(const std::string& message);
    void place_lesson_train_window();  // inside the view's child: a train step's window covers the view
    bool lesson_key();  // in lesson mode: takes this frame's key press (true); else false
    std::string lesson_answer() const;  // the caption's answer line for the trace on screen
    float lesson_caption_h(float width) const;
    void draw_lesson_caption(float height);
    double lesson_clock() const;  // the transitions' clock (--tour: held still)
    void show_lesson_editor(bool on);
    void draw_lesson_editor();
    std::optional<LessonPlayer> lesson_;
    LessonEditor editor_;

    // The lesson hand-out (app_handout.cpp): --lesson FILE --handout OUT.html.
    void keep_handout_step(const std::string& png_path);  // after a step's screenshot is saved
    void write_lesson_handout();                          // after the last step
    std::vector<HandoutStep> handout_;

    // The Train window (app_train.cpp): a run in the background, its chosen snapshot in the main view.
    void start_training(bool paused = false);
    void save_training(const TrainSnapshot& shot);
    void show_training_snapshot(const TrainSnapshot& shot);
    void draw_train_window();
    void step_train_tour(const TrainProgress& progress);
    void capture_train_tour(int fb_width, int fb_height);
    TrainPanelState train_;
    TrainingSession training_;
    std::shared_ptr<const Model> train_shown_;  // the snapshot the main view was last asked to run
    int train_probe_shown_ = -1;
    int train_tour_shot_ = 0;                   // --train --tour: the next of start, middle, end
    bool capture_train_ = false;
    int train_capture_frames_ = 0;
    std::string train_tour_file_;
};

}  // namespace vit::gui
