// The choices a picture is drawn under, shared by the describers and the UI
// state: the colour map and how it is chosen, the attention maps' colour
// scale, and who computes the trace. logic/state/app_state.h holds the state
// that makes these choices; a describer includes this header, not that one.
#pragma once
#include "pass/stages.h"

namespace vit::gui {

enum class ColormapMode { Auto, Diverging, Sequential };
using Colormap = Palette;         // Diverging: blue-white-red around 0, Sequential: viridis-like
enum class Backend { Cpu, Gpu };  // who computes the Trace (GPU: gpu/)
// Attention maps' colours: one scale for all heads of a layer, 0–100%, or each map its own (attention_scale.h).
enum class AttentionScale { LayerMax, Percent, EachMap };

}  // namespace vit::gui
