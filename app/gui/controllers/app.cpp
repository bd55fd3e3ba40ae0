// The app's frame: poll the worker, handle keys and drops, lay out the panels,
// carry out what they asked for, and (after rendering) take screenshots.
#include "controllers/app.h"

#include <imgui.h>

#include <cfloat>
#include <cstdio>
#include <filesystem>

#include "base/error.h"
#include "logic/state/export.h"
#include "services/files.h"
#include "services/gl_texture.h"
#include "services/host_window.h"
#include "logic/ask/pass_banner.h"
#include "logic/state/key_actions.h"
#include "logic/describe/picture_coverage.h"
#include "panels/info_panel.h"
#include "panels/toolbar.h"
#include "views/widgets/docked_panel.h"
#include "views/widgets/drawn_screen.h"
#include "views/widgets/views.h"

namespace vit::gui {

namespace fs = std::filesystem;

// Of each frame, the time a sliced worker (a single-threaded platform) spends on the long work.
constexpr double kWorkBudgetMs = 8.0;

App::App(Options options, std::string asset_dir, std::shared_ptr<Worker> worker)
    : options_(std::move(options)),
      asset_dir_(std::move(asset_dir)),
      worker_(std::move(worker)),
      loader_(worker_, options_.keep_stream),
      cache_(upload_texture, release_texture),
      ctx_{options_,
           state_,
           pipeline_,
           loader_,
           cache_,
           derived_,
           generation_,
           fonts_,
           linked_hover_,
           draw_,
           model_,
           model_name_,
           trace_,
           picture_,
           image_path_,
           image_name_,
           forward_ms_,
           [this](const std::string& model, const std::string& image) { request(model, image); },
           [this] { send_canvas(); },
           [this](bool on) { set_presenter(on); },
           [this](const std::string& text) { show_error(text); },
           [this](const std::string& text) { show_notice(text); },
           [this](const std::string& text) { return fail(text); },
           [this] { return driver_ ? driver_->held_transition() : std::nullopt; }},
      gpu_(ctx_),
      ask_(ctx_, gpu_, worker_),
      training_(ctx_, gpu_, worker_),
      lessons_(ctx_, gpu_, ask_, training_),
      compare_(ctx_, worker_),
      explain_(ctx_, ask_, worker_),
      findings_(ctx_, asset_dir_, worker_),
      driver_(make_driver(DriverParts{ctx_, ask_, lessons_, training_, asset_dir_, [this] { return view_settled(); },
                                      figure_regions_})) {
    load_fonts(fonts_, pixel_ratio());
    if (!fonts_.missing.empty()) std::fprintf(stderr, "vitviz: %s\n", fonts_.missing.c_str());
    base_style_ = ImGui::GetStyle();
    if (options_.model.empty()) options_.model = default_model(asset_dir_);
    if (options_.presenter) set_presenter(true);
    if (options_.gpu) state_.backend = Backend::Gpu;
    state_.clicker = options_.clicker;
    if (options_.fixed_screen) state_.screen = options_.screen;
    state_.findings.joint = !options_.pca_images.empty();
    open_.visible = options_.open_chooser;
    request(options_.model, options_.image);
}

App::~App() = default;

std::string App::model_image(const std::string& model) const {
    if (brings_own_image(model)) return "";
    // A checkpoint has no image of its own: open it on the first photo of the gallery.
    std::vector<FileEntry> photos = find_images((fs::path(asset_dir_) / "photos").string(), 1);
    if (photos.empty()) photos = find_images(asset_dir_, 1);
    return photos.empty() ? "" : photos.front().path;
}

void App::request(const std::string& model, const std::string& image) {
    loader_.request(LoadRequest{model, image.empty() ? model_image(model) : image, options_.image_size}, model_,
                    model_name_);
}

void App::show_error(const std::string& text) {
    const bool repeated =
        message_ && message_->error && message_->text == text;  // a frame failing every frame says it once
    message_ = Message{text, true, ImGui::GetTime()};
    if (!repeated) std::fprintf(stderr, "vitviz: %s\n", text.c_str());
}

bool App::fail(const std::string& text) {
    if (!text.empty()) show_error(text);  // "": the message bar says it already
    if (!driver_) return false;
    driver_->failed();
    return driver_->done();
}

void App::show_notice(const std::string& text) { message_ = Message{text, false, ImGui::GetTime()}; }

void App::poll_loader() {
    std::optional<LoadOutcome> o = loader_.poll();
    if (!o) return;
    if (o->loaded) {
        apply(std::move(*o->loaded));
        return;
    }
    if (o->fitting_image_size > 0 && !(driver_ && driver_->exact())) {
        // Too large for memory: say so and open it at the largest image size that fits.
        show_error(o->error + "; opening it at " + std::to_string(o->fitting_image_size));
        LoadRequest smaller = o->request;
        smaller.image_size = o->fitting_image_size;
        loader_.request(smaller, model_, model_name_);
        return;
    }
    if (o->request.model == open_.awaiting) open_.awaiting.clear();  // the Open window stays, without its bar
    if (lessons_.plays_otherwise_without(o->request.model)) show_error(o->error);  // its lesson gives way
    else if (fail(o->error)) return;
    // Nothing to show yet (a bad --model or --image at start): keep the model on its own image, else the
    // toy; either at its own size, which later requests keep (--image-size was the failed request's).
    if (trace_ || loader_.busy() || o->request.pixels) return;
    if (std::optional<StartChoice> next =
            start_fallback({o->request.model, o->request.image}, model_image(o->request.model))) {
        options_.image_size = 0;
        loader_.request(LoadRequest{next->model, next->image, 0}, model_, model_name_);
    }
}

bool App::downloading() const { return loader_.working() && loader_.phase().rfind("downloading", 0) == 0; }

void App::apply(Loaded loaded) {
    if (loaded.model_name == open_.awaiting) open_.visible = false, open_.awaiting.clear();  // its download is done
    if (loaded.model != model_ && !loaded.model->nonfinite_weights.empty())
        show_error("warning: " + loaded.model->nonfinite_weights + " (running it anyway)");
    ask_.keep_results(loaded);
    compare_.follow(loaded);  // a new image: the comparison model runs on it too
    model_ = loaded.model;
    model_name_ = loaded.model_name;
    trace_ = loaded.trace;
    ctx_.focus.follow(model_);
    if (loaded.picture.channels > 0) picture_ = std::move(loaded.picture);  // else a rerun on the picture shown
    image_path_ = loaded.request.image;
    image_name_ = loaded.image_name;
    if (loaded.pass_ran) forward_ms_ = loaded.forward_ms;  // else the last pass's time stays
    if (loaded.request.pixels) draw_.shown_version = loaded.request.pixels == draw_.preview ? draw_.sent_version : 0;
    else draw_.shown_version = ~0ull;
    // A new model while drawing: run it on the canvas too (the loop in draw_frame resends).
    if (!loaded.request.pixels && draw_.visible && !draw_.canvas.empty()) draw_.sent_version = ~0ull;
    ctx_.new_views();

    const std::string current = shown_stage();
    pipeline_ = trace_pipeline(*trace_, model_->config);
    int same = pipeline_.index_of(current);  // stay on the same stage when it still exists
    if (same >= 0) state_.stage = same;
    clamp_state(state_, pipeline_);
    if (!ctx_.started && !ask_.at_start()) {
        ctx_.started = true;
        if (options_.select_token >= 0) select_token(state_, pipeline_, options_.select_token);
        if (options_.start_view) restore_view(*options_.start_view, state_, pipeline_);
        if (!options_.lesson.empty()) lessons_.open(options_.lesson);
        if (lessons_.player() && options_.lesson_step > 0) lessons_.player()->go(options_.lesson_step - 1);
        if (options_.edit_lesson) lessons_.show_editor(true);
        if (options_.train) {
            training_.panel().visible = true;
            if (pipeline_.depth > 0) {  // the last block's heads as they learn
                state_.screen = Screen::Attention;
                select_layer(state_, pipeline_, pipeline_.depth - 1);
            }
            training_.panel().epochs = options_.train_epochs;
            training_.start();
        }
    }
}

void App::on_drop(int count, const char** paths) {
    for (int i = 0; i < count; ++i) {
        std::string p = paths[i];
        switch (classify_path(p)) {
            case FileKind::Image: request(image_model(), p); break;
            case FileKind::ModelFolder:
            case FileKind::Checkpoint: request(p, image_for_new_model(p, model_name_, image_path_)); break;
            default:
                show_error(p +
                           ": not an image (PNG, JPEG, BMP, GIF, TGA) or a checkpoint (.safetensors, or a folder with "
                           "config.json)");
        }
    }
}

void App::open_decoded_image(const std::string& name, std::shared_ptr<const Image> picture) {
    draw_.visible = false;  // the chosen picture replaces the canvas as the source
    LoadRequest r{image_model(), "", options_.image_size};
    r.pixels = std::move(picture);
    r.pixels_name = name;
    loader_.request(r, model_, model_name_);
}

void App::feed_mouse_buttons() {
    if (driver_) driver_->feed(input_);
    if (driver_ && !driver_->takes_person()) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    const std::array<bool, kMouseButtons>& down = input_.step_mouse();
    ImGuiIO& io = ImGui::GetIO();
    for (int b = 0; b < kMouseButtons; ++b) io.MouseDown[b] = down[b];
}

void App::on_swipe(int direction) {
    const Key key = direction > 0 ? Key::Right : Key::Left;
    input_.push(KeyEvent{key, true});
    input_.push(KeyEvent{key, false});
}

// One queued key press per frame (none while a text field has the keyboard).
void App::handle_keys() {
    if (ImGui::GetIO().WantTextInput) {  // the text field's keys; an Enter there opens the typed path
        open_.enter_queued = input_.take_keys_for_text(Key::Enter) && open_.visible;
        return;
    }
    if (pipeline_.ids.empty()) return;
    if (lesson_key()) return;
    carry_out(apply_next_key(input_, state_, pipeline_, bookmarks_));
}

bool App::lesson_key() {
    if (!lessons_.player()) return false;
    std::optional<KeyEvent> e = input_.next_press();
    if (!e) return true;
    if (lessons_.take_key(*e)) return true;
    carry_out(apply_key(*e, state_, pipeline_, bookmarks_));
    return true;
}

void App::set_presenter(bool on) {
    state_.presenter = on;
    ImGuiStyle& style = ImGui::GetStyle();
    style = base_style_;
    if (on) style.ScaleAllSizes(1.5f);
    if (driver_ && !driver_->takes_person()) return;  // a tour keeps its window as it is
    set_fullscreen(on);
}

void App::export_npy() {
    if (!trace_ || pipeline_.ids.empty()) return;
    const std::string& id = pipeline_.ids[state_.stage];
    try {
        std::string path = unique_export_path(".", id, ".npy");
        save_file(path, [&] { save_npy(path, trace_->at(id)); });
        show_notice("saved " + id + " " + shape_string(trace_->at(id).shape) + " to " + path + "   (numpy.load('" +
                    fs::path(path).filename().string() + "'))");
    } catch (const std::exception& e) {
        show_error(e.what());
    }
}

void App::send_canvas() {
    draw_.preview = std::make_shared<const Image>(to_mnist(draw_.canvas));
    draw_.sent_version = draw_.canvas.version();
    LoadRequest r{model_name_, "", options_.image_size};
    r.pixels = draw_.preview;
    r.pixels_name = kCanvasImageName;
    loader_.request(r, model_, model_name_);
}

void App::carry_out(const UiActions& a) {
    if (a.open_image) draw_.visible = false;  // a chosen image replaces the canvas as the source
    if (a.open_image) request(image_model(), *a.open_image);
    if (a.open_model && !open_hub_model_in_page(*a.open_model))
        request(*a.open_model, image_for_new_model(*a.open_model, model_name_, image_path_));
    if (a.compare_model) compare_.set_model(*a.compare_model);
    if (a.export_png) capture_png_ = true;
    if (a.export_npy) export_npy();
    if (a.toggle_presenter) set_presenter(!state_.presenter);
    if (a.leave_presenter) set_presenter(false);
    if (a.toggle_lesson_editor) lessons_.show_editor(!lessons_.editor().visible);
    if (a.show_open_image) open_.visible = true, open_.for_model = false;
    if (a.show_open_model) open_.visible = true, open_.for_model = true;
    if (a.cancel_download) loader_.cancel_download();
}

void App::draw_frame() {
    worker_->advance(kWorkBudgetMs);  // a sliced worker's pieces; nothing for a threaded one
    lessons_.begin_frame();
    poll_loader();
    compare_.poll();
    lessons_.play();
    gpu_.sync(ask_.results().asked);
    UiActions actions;
    if (driver_) driver_->before_frame(actions);
    if (!driver_ || driver_->takes_person()) handle_keys();
    ask_.sync(lessons_.quotes_occlusion());
    linked_hover_ = state_.hover_token;
    state_.hover_token = -1;

    const ImVec2 window = ImGui::GetIO().DisplaySize;  // text shrinks on a small window (window_layout.h)
    ImFont* font = state_.presenter ? fonts_.big_body : fonts_.body;
    ImGui::GetIO().FontGlobalScale = fonts_.scale * text_scale(window.x, window.y, font->FontSize * fonts_.scale);
    ImGui::PushFont(font);
    draw_main_window(actions);
    open_.comparison = compare_.model();
    open_.downloading = downloading();
    open_.download_progress = loader_.progress();
    open_.download_phase = loader_.phase();
    DrawOpenPanel(open_, asset_dir_, actions);
    if (draw_.visible && model_ && !takes_drawings(model_->config)) draw_.visible = false;  // e.g. the toy sees 4×4
    // While the Draw window is open the canvas is the image source: every change reruns the
    // whole pipeline, one forward at a time (so at most once per frame).
    if (draw_.visible && model_ && !loader_.busy() && draw_.canvas.version() != draw_.sent_version) send_canvas();
    ImGui::PopFont();
    if (driver_) driver_->after_drawn();
    carry_out(actions);
    // A question asked while drawing (a click in the Ask panel) starts its pass before this frame is rendered.
    ask_.sync(lessons_.quotes_occlusion());
    show_view();
}

// The last item's rectangle, as window pixels.
static PixelRect item_rect() {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const ImVec2 o = ImGui::GetMainViewport()->Pos;
    return {a.x - o.x, a.y - o.y, b.x - o.x, b.y - o.y};
}

// The full-window frame: toolbar, message bar, the three columns (or the loading box), status bar.
void App::draw_main_window(UiActions& actions) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##main", nullptr, flags);
    figure_regions_.clear();
    if (!state_.presenter) {
        ToolbarInfo ti;
        ti.busy = loader_.busy();
        ti.gpu_available = gpu_.session().available();
        if (!gpu_.session().status().built) ti.gpu_absent = gpu_.session().status().error;
        if (navigator_folds(ImGui::GetContentRegionAvail().x, full_size_body_px(fonts_), lessons_.player() != nullptr))
            ti.stages_drawer = &nav_.drawer_open;
        DrawToolbar(state_, pipeline_, ti, actions);
        // The windows' switches, on the next row when the toolbar is full.
        SameLineOrWrap(ImGui::CalcTextSize("Draw a digit Train Ask the model Lesson editor").x +
                       8.f * ImGui::GetFrameHeight() + 72.f);
        if (model_ && takes_drawings(model_->config)) {
            ImGui::Checkbox("Draw a digit", &draw_.visible);
            ImGui::SameLine(0, 24);
        }
        ImGui::Checkbox("Train", &training_.panel().visible);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("train a digits ViT from random weights and watch it learn");
        ImGui::SameLine(0, 24);
        ImGui::Checkbox("Ask the model", &ask_.panel().visible);
        ImGui::SameLine(0, 24);
        bool editing = lessons_.editor().visible;
        if (ImGui::Checkbox("Lesson editor", &editing)) lessons_.show_editor(editing);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("record a lesson: add the view on screen as a step, edit, reorder, save (key R)");
    }
    if (message_ && !DrawMessageBar(*message_)) message_.reset();

    float status_h = body_px(fonts_) + ImGui::GetStyle().FramePadding.y * 2 + ImGui::GetStyle().ItemSpacing.y + 4.f;
    const bool columns = trace_ && model_ && !pipeline_.ids.empty();
    const std::string modified = trace_ ? modified_pass_text(ask_.results().asked, state_.ask.show) : "";
    const std::string random = model_ ? random_weights_text(model_->config) : "";
    const float body_h =
        ImGui::GetContentRegionAvail().y - status_h - PassBannerHeight(modified) - PassBannerHeight(random);
    DrawPassBanner(random, BannerKind::RandomWeights);  // over every screen that draws its attention
    DrawPassBanner(modified);                           // what was asked, over every screen and in every screenshot
    const float dock_h = columns ? dock_height(body_h) : 0.f;
    // While loading, a lesson's caption takes a strip under the loading box.
    const WindowLayout layout = columns ? window_layout(body_h - dock_h) : WindowLayout{};
    const float caption_h = columns ? layout.caption_below : lessons_.caption_height(ImGui::GetContentRegionAvail().x);
    if (columns) draw_columns(layout, layout.view_h);
    else draw_loading(body_h - caption_h);
    draw_dock(dock_h);
    if (caption_h > 0.f) lessons_.draw_caption(caption_h);
    ImGui::PushFont(fonts_.body);  // the status bar is for the teacher: the normal size, so it fits in presenter mode
    if (DrawStatusBar(status_info())) loader_.cancel_download();
    ImGui::PopFont();
    ImGui::End();
}

// The strip under the columns for the open Train and Ask panels: what they last asked for, at most 45% of the body.
float App::dock_height(float body_h) {
    const float cap = body_h * 0.45f;
    float wanted = 0.f;
    if (training_.panel().visible) wanted = DockedHeight(docked_.train, cap);
    if (ask_.panel().visible) wanted = std::max(wanted, DockedHeight(docked_.ask, cap));
    return wanted > 0.f ? wanted + ImGui::GetStyle().ItemSpacing.y : 0.f;
}

// The Train and Ask panels side by side in the strip under the columns, opaque and scrollable, over no
// picture. The training run goes on (and a lesson's train step follows it) with its panel closed.
void App::draw_dock(float dock_h) {
    LessonPlayer* lesson = lessons_.player();
    const bool lesson_train = lesson && lesson->steps() > 0 && lesson->step().train.on;
    bool& train = training_.panel().visible;
    bool& ask = ask_.panel().visible;
    if (dock_h <= 0.f) return training_.draw_window(lesson_train);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    figure_regions_.push_back({at.x, at.y, at.x + ImGui::GetContentRegionAvail().x, at.y + dock_h});
    const float gap = train && ask ? ImGui::GetStyle().ItemSpacing.x : 0.f;
    const ImVec2 size((ImGui::GetContentRegionAvail().x - gap) / (train && ask ? 2.f : 1.f),
                      dock_h - ImGui::GetStyle().ItemSpacing.y);
    if (!train) training_.draw_window(lesson_train);
    else {
        BeginDockedPanel("##train_dock", "Train it yourself", &train, size);
        training_.draw_window(lesson_train);
        docked_.train = EndDockedPanel();
        if (ask) ImGui::SameLine();
    }
    if (!ask) return;
    BeginDockedPanel("##ask_dock", "Ask the model", &ask, size);
    ask_.draw_panel();
    docked_.ask = EndDockedPanel();
}

// The lesson editor at the head of the side column, at most 60% of its height.
void App::draw_docked_editor(float body_h) {
    bool open = true;
    BeginDockedPanel("##editor_dock", lessons_.editor_title().c_str(), &open,
                     ImVec2(0.f, DockedHeight(docked_.editor, body_h * 0.6f)));
    lessons_.draw_editor();
    docked_.editor = EndDockedPanel();
    if (!open) lessons_.show_editor(false);
}

// The room the main window's columns share (logic/layout/window_layout.h), `body_h` high.
WindowLayout App::window_layout(float body_h) {
    LayoutRoom room;
    room.width = ImGui::GetContentRegionAvail().x;
    room.height = body_h;
    room.font = full_size_body_px(fonts_);
    room.navigator = NavigatorWidth(pipeline_, fonts_);
    room.gap = ImGui::GetStyle().ItemSpacing.x;
    room.presenter = state_.presenter;
    room.lesson = lessons_.player() != nullptr;
    room.caption_below_h = room.lesson ? lessons_.caption_height(room.width) : 0.f;
    // Presenter mode gives the attention screen's maps the whole width (its side text is the same on every layer).
    const bool side_text = !room.lesson && !(state_.presenter && state_.screen == Screen::Attention);
    room.side_panel = side_text || draw_.visible || gpu_.panel_height(body_h) > 0 || lessons_.editor().visible;
    room.drawer_open = nav_.drawer_open;
    return lay_out_window(room);
}

// Navigator | stage view or attention screen | side panel (or a lesson's caption) over the GPU panel.
void App::draw_columns(const WindowLayout& layout, float body_h) {
    const std::shared_ptr<const Trace> shown = ask_.views_trace();
    ViewContext ctx = ctx_.views(shown);
    ctx.walked = findings_.walked_blocks(shown);
    ctx.ask = &ask_.results();
    ctx.ask_open = &ask_.panel().visible;
    ctx.comparison = compare_.side(ctx);
    if (LessonPlayer* lesson = lessons_.player()) ctx.transition = &lesson->transition;
    ctx.pinch = pinch_ ? &*pinch_ : nullptr;
    const bool lesson = lessons_.player() != nullptr;
    const bool editing = lessons_.editor().visible && lesson;
    const float nav_w = layout.navigator, info_w = layout.side;
    if (nav_w > 0) {
        ImGui::BeginChild("navigator", ImVec2(nav_w, body_h), true);
        DrawNavigator(nav_, state_, pipeline_, fonts_);
        ImGui::EndChild();
        ImGui::SameLine();
    }
    ImGui::BeginChild("view", ImVec2(layout.view_w, body_h), true,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    switch (state_.screen) {
        case Screen::Attention: DrawAttentionScreen(ctx); break;
        case Screen::Why: explain_.draw_why_screen(ctx); break;
        case Screen::Overview: DrawOverviewScreen(ctx); break;
        case Screen::ModelView: DrawModelView(ctx); break;
        case Screen::AttentionDistance: DrawAttentionDistanceScreen(ctx); break;
        case Screen::PatchFeatures: findings_.draw_patch_features(ctx); break;
        case Screen::TokenNorms: DrawTokenNormsScreen(ctx); break;
        case Screen::ClsMasks: DrawClsMaskScreen(ctx); break;
        case Screen::Stage:
            if (state_.gradients && model_->config.num_classes > 0) explain_.draw_gradient_view(ctx);
            else DrawStageView(ctx);
            break;
    }
    ImGui::EndChild();
    pinch_.reset();
    figure_regions_.push_back(item_rect());
    if (info_w <= 0) return;
    ImGui::SameLine();
    ImGui::BeginGroup();
    const float top = ImGui::GetCursorPosY();
    if (draw_.visible) {  // the Draw panel sits above the side panel, over no picture
        ImGui::BeginGroup();
        DrawDrawPanel(draw_, trace_.get(), model_.get(), loader_.busy());
        ImGui::EndGroup();
    }
    if (editing) draw_docked_editor(body_h);
    const float used = ImGui::GetCursorPosY() - top;
    const float rest = std::max(ImGui::GetFrameHeight() * 3, body_h - used - gpu_.panel_height(body_h));
    if (lesson && layout.caption_below <= 0.f) {
        lessons_.draw_caption(rest);
    } else {
        ImGui::BeginChild("info", ImVec2(0, rest), true);
        DrawInfoPanel(ctx);
        ImGui::EndChild();
    }
    gpu_.draw_panel(ctx, body_h);
    ImGui::EndGroup();
}

void App::draw_loading(float body_h) {
    ImGui::BeginChild("loading", ImVec2(0, body_h), true);
    ImGui::Text("Loading %s …", options_.model.c_str());
    ImGui::ProgressBar(loader_.progress(), ImVec2(ImGui::GetFontSize() * 20, 0), loader_.phase().c_str());
    ImGui::EndChild();
}

StatusInfo App::status_info() const {
    StatusInfo si;
    if (model_) {
        const ModelConfig& c = model_->config;
        si.model = c.name.empty() ? model_name_ : c.name;
        si.embed_dim = c.embed_dim;
        si.heads = c.num_heads;
        si.depth = c.depth;
    }
    si.image = image_name_;
    si.fonts_missing = !fonts_.missing.empty();
    si.loaded = model_ && trace_ && !pipeline_.ids.empty();
    if (!model_) si.model = options_.model;
    if (si.loaded) si.prediction = prediction_text(*trace_, model_->config);
    si.tokens = pipeline_.tokens;
    if (const Tensor* kept = trace_ ? trace_->tensor({StageKind::Tokens}) : nullptr)
        si.kept_tokens = static_cast<int>(kept->rows());
    si.forward_ms = gpu_.shown() ? gpu_.session().gpu_ms() : forward_ms_;
    si.textures = cache_.size();
    si.uploads = cache_.uploads();
    si.busy = loader_.busy();
    si.downloading = downloading();
    si.progress = loader_.progress();
    si.phase = loader_.phase();
    si.backend = gpu_.shown() ? "GPU" : "CPU";  // who computed the trace on screen
    si.compact = state_.presenter;
    return si;
}

void App::presented() {
    if (driver_) driver_->presented();
}

void App::after_render(int fb_width, int fb_height) {
    if (capture_png_) {
        capture_png_ = false;
        try {
            std::string path = unique_export_path(".", view_export_stem(state_, pipeline_), ".png");
            save_framebuffer_png(path, fb_width, fb_height);
            show_notice("saved the view to " + path);
        } catch (const std::exception& e) {
            show_error(e.what());
        }
    }
    if (driver_) driver_->after_render(fb_width, fb_height);
}

bool App::view_settled() {
    if (draw_.visible && draw_.shown_version != draw_.canvas.version()) return false;  // the drawing's forward
    if (loader_.busy() || ask_.mapping() || compare_.working())
        return false;  // the passes it shows (the Ask panel's reruns, the comparison), and its map
    if (lessons_.player() && lessons_.player()->pending) return false;  // a step: its model and view
    if (!lessons_.values_ready()) return false;                         // the occlusion map its text quotes
    const ScreenJob job = screen_info(state_.screen).job;
    if ((job == ScreenJob::Explanation || state_.gradients) && !explain_.shown()) return false;  // the backward
    return findings_.shown();  // the joint PCA's other images' passes; the walk over every block of a Stream trace
}

}  // namespace vit::gui
