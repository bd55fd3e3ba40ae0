// A saved view: the stage (by id), screen, token, layer, head, gradients,
// CLS-only, numbers, colours, the Ask panel's interventions and which pass the
// views show, as plain data that outlives the model it was taken on. A bookmark
// (bookmarks.h) and a lesson step (logic/lesson/lesson.h) each hold one; in a
// lesson file it is the step's keys of the same names ("stage": "block1.scores").
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "logic/state/app_state.h"
#include "logic/state/json_reader.h"
#include "pass/intervention_flags.h"

namespace vit::gui {

struct ViewSnapshot {
    std::string stage;  // a stage id of the catalogue; empty: the first stage
    Screen screen = Screen::Stage;
    int token = 0, layer = 0, head = -1;
    bool gradients = false, cls_only = false, numbers = true;
    ColormapMode colours = ColormapMode::Auto;
    vit::InterventionFlags interventions;    // as on vitviz-cli's command line; none: the plain pass
    AskShow views_show = AskShow::Modified;  // the pass the views show: modified, original or their difference
    bool operator==(const ViewSnapshot& o) const;
};

ViewSnapshot capture_view(const AppState& s, const Pipeline& p);
// Shows the view on the pipeline's model, clamping what it lacks: a stage it does not
// have is its first, a token, layer or head out of range the nearest, interventions
// that do not fit none (the Ask panel then asks nothing).
void restore_view(const ViewSnapshot& v, AppState& s, const Pipeline& p);

// The interventions for a model of the pipeline's sizes (square images: grid² patches);
// vit::Error naming the lesson key and its value when they do not fit.
vit::Interventions resolve_interventions(const vit::InterventionFlags& flags, const Pipeline& p);

// The view's keys of an object whose keys the caller has checked (JsonReader::only);
// one message per mistake, naming r's place and the key.
void read_view(const JsonReader& r, ViewSnapshot& v);
// The view's keys into `j`, those at their defaults left out.
void write_view(nlohmann::json& j, const ViewSnapshot& v);

}  // namespace vit::gui
