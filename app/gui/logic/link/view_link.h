// The view as a link, as TensorFlow Playground keeps its state in its URL: the
// model, the built-in image, the built-in lesson and its step, and the saved
// view's keys (logic/state/view_snapshot.h: stage, screen, token, layer,
// head, ... and the Ask panel's interventions) as query parameters:
//   ?model=digits&stage=block0.attn&token=5
//   ?lesson=what-attention-looks-at&step=3
// The browser build opens the page's link and keeps the link following the
// view, so "look at this" can be sent as a link. Plain data, no window.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "logic/state/options.h"
#include "logic/state/view_snapshot.h"

namespace vit::gui {

struct ViewLink {
    std::string model;      // a built-in model's name or hf-hub:ORG/NAME; "" = the default
    std::string image;      // a built-in image, relative to the assets ("photos/coffee.jpg"); "" = the model's own
    std::string lesson;     // a built-in lesson's name ("pixels-to-tokens"); "" = none
    int step = 0;           // the lesson's step, from 1; 0 = its first
    bool has_view = false;  // the link names view keys (else the app's own start)
    ViewSnapshot view;
};

// Reads "?key=value&..." (percent-encoded, '+' a space); "" or "?" is the plain
// start. One message per mistake, naming the key: "link: 'token': ...".
ViewLink parse_view_link(const std::string& query);
// The link's query, "?model=...&stage=...", keys at their defaults left out.
std::string view_link_query(const ViewLink& link);

// The options the app starts with for a link: the model and image checked
// against the built-in ones under `asset_dir`, the lesson's file found there.
Options options_from_link(const ViewLink& link, const std::string& asset_dir);

// The page's title for a view: "block0.attn · digits · ViT Visualizer", in a
// lesson "… · step 2/11".
std::string view_title(const std::string& stage, const std::string& model, int step, int steps);

}  // namespace vit::gui
