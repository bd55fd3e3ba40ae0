// The page's hub_model_folder (hub_fetch.h) and hub_model_cached (hub_gallery.h):
// the page's script (app/web/hub.js) downloads a model its link names before the
// app starts, into /hub/ORG/NAME/REVISION/ of the page's file system, or writes
// why it could not into /hub/ORG/NAME/REVISION.error; the app opens what is there
// (and, with that file there, knows the model out of reach).
#include "hub/hub_fetch.h"

#include <filesystem>

#include "base/error.h"
#include "hub/hub_cache.h"
#include "hub/hub_gallery.h"
#include "hub/hub_name.h"

namespace vit {

namespace {

std::string page_folder(const HubName& hub) { return "/hub/" + hub.repo + "/" + hub.revision; }

bool downloaded(const std::string& folder) {
    std::error_code ec;
    return std::filesystem::is_regular_file(folder + "/config.json", ec) &&
           std::filesystem::is_regular_file(folder + "/model.safetensors", ec);
}

}  // namespace

bool hub_model_cached(const std::string& name) { return downloaded(page_folder(parse_hub_name(name))); }

bool hub_model_out_of_reach(const std::string& name) {
    const std::string folder = page_folder(parse_hub_name(name));
    std::error_code ec;
    return !downloaded(folder) && std::filesystem::exists(folder + ".error", ec);
}

std::string hub_model_folder(const std::string& name, const HubProgress&) {
    const HubName hub = parse_hub_name(name);
    const std::string folder = page_folder(hub);
    if (downloaded(folder)) return folder;
    const std::string why = small_text_file(folder + ".error", 4096);
    if (!why.empty()) throw Error(why);
    throw Error(hub.text() +
                ": the page downloads a Hub model named in its link: open the page with ?model=" + hub.text());
}

}  // namespace vit
