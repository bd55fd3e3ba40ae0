// Loading a model by name: a built-in one (builtin.h), a model on the Hugging
// Face Hub ("hf-hub:ORG/NAME[@REVISION]", from the cache or downloaded into it:
// hub/hub_fetch.h), or a checkpoint path (formats/checkpoint.h). The one
// place that knows all three, above the formats and the Hub client.
#pragma once
#include <string>

#include "formats/checkpoint.h"
#include "hub/transfer.h"

namespace vit {

// The model `name_or_path` names, `downloads` hearing each downloaded file's bytes.
// Memory its weights cannot have is vit::Error naming it.
Model load_model(const std::string& name_or_path, const LoadProgress& progress = {}, const HubProgress& downloads = {});

}  // namespace vit
