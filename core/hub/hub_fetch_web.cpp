// The page's hub_model_folder (hub_fetch.h) and hub_model_cached (hub_gallery.h):
// the page has no Hugging Face cache or HTTP client of its own, so a model named
// hf-hub: is refused in one line that says how to open its files instead.
#include "hub/hub_fetch.h"

#include "base/error.h"
#include "hub/hub_gallery.h"
#include "hub/hub_name.h"

namespace vit {

bool hub_model_cached(const std::string&) { return false; }

std::string hub_model_folder(const std::string& name, const HubProgress&) {
    const HubName hub = parse_hub_name(name);
    throw Error(hub.text() + ": the page does not download from the Hub yet; download config.json and "
                "model.safetensors from the repository and open them as files");
}

}  // namespace vit
