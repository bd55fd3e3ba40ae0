// The app: owns the UI state, the loaded model and trace, the worker that
// loads and computes, the texture cache, and lays out the panels each frame
// (toolbar, navigator, stage view or attention screen, side panel, status
// bar). Each feature's own state and per-frame work lives in its controller
// (GpuController, AskController, LessonController, TrainingController,
// CompareController, ExplainController, FindingsController), which sees the app through an AppContext. A driver
// (controllers/drivers/driver.h: the tour, the measures, the monkey) runs it
// in place of a person when the command line asks. The platform
// (shell/window.h) owns the window and the ImGui/GL backends and calls
// draw_frame() and after_render() once per frame.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "logic/describe/picture_coverage.h"
#include "logic/state/app_state.h"
#include "logic/state/bookmarks.h"
#include "logic/cache/derived_cache.h"
#include "logic/layout/window_layout.h"
#include "panels/draw_panel.h"
#include "services/fonts.h"
#include "logic/state/input_queue.h"
#include "logic/state/key_actions.h"
#include "logic/jobs/loader.h"
#include "logic/jobs/worker.h"
#include "panels/navigator_panel.h"
#include "panels/open_panel.h"
#include "logic/state/options.h"
#include "panels/status_bar.h"
#include "logic/cache/texture_cache.h"
#include "controllers/app_context.h"
#include "controllers/ask_controller.h"
#include "controllers/compare_controller.h"
#include "controllers/drivers/driver.h"
#include "controllers/explain_controller.h"
#include "controllers/findings_controller.h"
#include "controllers/gpu_controller.h"
#include "controllers/lesson_controller.h"
#include "controllers/training_controller.h"
#include "logic/state/ui_actions.h"

namespace vit::gui {

class App {
public:
    // `worker` runs the long work (passes, explanations, training): the platform's (shell/window.h).
    App(Options options, std::string asset_dir, std::shared_ptr<Worker> worker);
    ~App();

    void draw_frame();                               // between ImGui::NewFrame() and ImGui::Render()
    void after_render(int fb_width, int fb_height);  // after the draw data is rendered, before the swap
    void presented();  // the frame is on screen (swapped; in the page: its frame callback returned)
    void on_drop(int count, const char** paths);  // files dropped on the window
    // A picture the platform decoded itself (a browser's decoders), named `name`, for the model on screen.
    void open_decoded_image(const std::string& name, std::shared_ptr<const Image> picture);
    void on_key(const KeyEvent& e) { input_.push(e); }             // queued, applied in draw_frame
    void on_mouse_button(const MouseEvent& e) { input_.push(e); }  // queued
    // A sideways swipe on a touch screen: forward (1) or back (-1), as the → and ← keys (a lesson's step).
    void on_swipe(int direction);
    void on_pinch(const PinchEvent& e) { pinch_ = e; }  // taken by the next frame's view
    // Between the backend's NewFrame and ImGui::NewFrame: ImGui sees at most one queued
    // button transition per frame, so a press and release within one frame is still a click.
    void feed_mouse_buttons();

    // What the screen shows, in a few words: the page's tests and its first-picture time read it.
    struct ViewSummary {
        bool ready = false;  // a pass is on screen
        std::string model, image, stage, link;
        std::string modified;  // the pass banner's text: what the Ask panel asked ("" for the plain pass)
        int token = 0, top_class = -1;
        int tokens = 0;       // the tokens of the pass on screen (CLS, registers and patches)
        int train_step = -1;  // the training run's steps done; -1 without a run
        float top_probability = 0.f;
        bool drawing = false;  // the "Draw a digit" panel is open (a pass on its canvas names its image "drawn digit")
        bool editor = false;   // the lesson editor is open in the side column
        // The cell of the stage on screen whose inputs the side panel's "Where this number comes from"
        // shows (its row and column in the clicked heatmap); -1 without one.
        int cell_row = -1, cell_col = -1;
        // The last frame's pictures as a share of the window (logic/describe/picture_coverage.h), and the
        // text it cut at an edge (views/widgets/drawn_screen.h): the page tests at each window size read them.
        double picture_share = 0.0;
        std::vector<std::string> clipped;
    };
    ViewSummary view_summary() const;                                   // controllers/app_view_link.cpp
    bool pictured() const { return trace_ && !pipeline_.ids.empty(); }  // a pass is on screen

    bool should_close() const { return driver_ && driver_->done(); }  // the driver's run is over
    // The pass or the occlusion map is running on the worker: frames can wait (shell/window.h).
    bool waiting_on_work() const { return loader_.working() || ask_.mapping() || compare_.working(); }
    int exit_code() const { return driver_ ? driver_->exit_code() : 0; }
    // A frame's work threw: the message bar says what; a driver's exact run stops with exit code 1.
    void frame_failed(const std::string& what) { fail(what); }

private:
    void request(const std::string& model, const std::string& image);  // "" = model_image(model)
    std::string model_image(const std::string& model) const;           // the image a model opens on
    const std::string& image_model() const {
        return model_name_.empty() ? options_.model : model_name_;
    }                                 // an image opens on
    int shown_index() const;          // the stage on screen's place in the pipeline (a pipeline there)
    std::string shown_stage() const;  // the stage on screen's id ("" before the first pass)
    void poll_loader();
    bool downloading() const;  // the loader is downloading a model (hf-hub:) for the request under way
    void show_view();          // the window title and the page link follow the view (controllers/app_view_link.cpp)
    void apply(Loaded loaded);
    void handle_keys();
    void draw_main_window(UiActions& actions);
    WindowLayout window_layout(float body_h);  // the room the columns share
    void draw_columns(const WindowLayout& layout, float body_h);
    void draw_loading(float body_h);
    float dock_height(float body_h);  // the strip under the columns for the Train and Ask panels
    void draw_dock(float dock_h);
    void draw_docked_editor(float body_h);
    bool view_settled();  // every pass, map and walk the screen shows has arrived (a tour's shot waits for it)
    StatusInfo status_info() const;
    void carry_out(const UiActions& actions);  // the panels', the keys' and the driver's
    bool lesson_key();                         // in lesson mode: takes this frame's key press (true); else false
    void set_presenter(bool on);
    void show_error(const std::string& text);
    bool fail(const std::string& text);  // AppContext::fail
    void show_notice(const std::string& text);
    void export_npy();
    void send_canvas();  // the Draw canvas, MNIST-normalised, to the loader

    Options options_;
    std::string asset_dir_;
    std::shared_ptr<Worker> worker_;  // before every owner of work it runs
    Fonts fonts_;
    ImGuiStyle base_style_;

    AppState state_;
    Pipeline pipeline_;
    InputQueue input_;
    std::optional<PinchEvent> pinch_;  // a pinch since the last frame, for its view
    Bookmarks bookmarks_;
    Loader loader_;
    TextureCache cache_;
    DerivedCache derived_;
    uint64_t generation_ = 0;
    int linked_hover_ = -1;

    std::shared_ptr<const Model> model_;
    std::string model_name_;
    std::shared_ptr<const Trace> trace_;
    Image picture_;
    std::string image_path_, image_name_;
    double forward_ms_ = 0.0;
    std::string shown_title_, shown_link_;  // what the window's title and the page's link say (show_view)

    NavigatorState nav_;
    OpenPanelState open_;
    DrawPanelState draw_;
    struct DockedHeights {  // the height each docked panel's content asked for last frame
        float train = 0.f, ask = 0.f, editor = 0.f;
    } docked_;
    std::optional<Message> message_;
    std::vector<PixelRect> figure_regions_;  // this frame's view and dock: where a hand-out's figure is cut from
    bool capture_png_ = false;

    AppContext ctx_;  // after everything it refers to
    GpuController gpu_;
    AskController ask_;
    TrainingController training_;
    LessonController lessons_;
    CompareController compare_;       // --compare-model: a second model beside the loaded one
    ExplainController explain_;       // "Why this class?" and the gradients
    FindingsController findings_;     // the joint PCA's passes and the block walk
    std::unique_ptr<Driver> driver_;  // after what it drives; nullptr when a person drives
};

}  // namespace vit::gui
