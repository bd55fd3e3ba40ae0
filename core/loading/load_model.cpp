// load_model: a built-in model, a Hub model or a checkpoint path (load_model.h).
#include "loading/load_model.h"

#include <new>

#include "base/error.h"
#include "base/parse.h"
#include "hub/hub_fetch.h"
#include "hub/hub_name.h"
#include "loading/builtin.h"

namespace vit {

Model load_model(const std::string& name_or_path, const LoadProgress& progress, const HubProgress& downloads) {
    try {
        if (const BuiltinModel* builtin = find_builtin_model(name_or_path)) return builtin->load(progress);
        if (is_hub_name(name_or_path)) return load_checkpoint(hub_model_folder(name_or_path, downloads), progress);
        return load_checkpoint(name_or_path, progress);
    } catch (const std::bad_alloc&) {
        throw Error("'" + shortened(name_or_path) + "': out of memory reading its weights");
    }
}

}  // namespace vit
