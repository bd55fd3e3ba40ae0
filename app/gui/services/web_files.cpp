// The browser's files (services/files.h): the assets are preloaded into the
// page's file system at /share/vitviz/assets (app/web/web.cmake); a saved file
// is written there, handed to the browser as a download under its name, and
// removed; files are chosen with the browser's chooser (app/web/shell.html); a
// Hub model is opened by opening the page on its link (app/web/hub.js).
// The JavaScript inside EM_ASM is not C++: clang-format would break it (its arrows).
// clang-format off
#include "services/files.h"

#include <emscripten.h>

#include <cstdio>

#include "base/assets.h"
#include "hub/hub_fetch.h"
#include "hub/hub_gallery.h"
#include "hub/hub_name.h"

namespace vit::gui {

std::string asset_folder() { return asset_dir(); }

void save_file(const std::string& path, const std::function<void()>& write) {
    write();
    EM_ASM(
        {
            const path = UTF8ToString($0);
            const bytes = FS.readFile(path);
            const link = document.createElement('a');
            link.href = URL.createObjectURL(new Blob([bytes]));
            link.download = path.substring(path.lastIndexOf('/') + 1);
            document.body.appendChild(link);
            link.click();
            link.remove();
            setTimeout(() => URL.revokeObjectURL(link.href), 60000);
        },
        path.c_str());
    std::remove(path.c_str());
}

bool has_file_chooser() { return true; }

void choose_files(bool model) { EM_ASM({ vitvizChoose($0 ? 'model' : 'image'); }, model); }

bool open_hub_model_in_page(const std::string& model, HubLink link) {
    if (!vit::is_hub_name(model) || vit::hub_model_cached(model)) return false;
    if (link == HubLink::Keep && vit::hub_model_out_of_reach(model)) return false;
    EM_ASM(
        {
            const query = new URLSearchParams($1 ? window.location.search : "");
            query.set('model', UTF8ToString($0));
            if (Module.vitvizHubEndpoint) query.set('hub', Module.vitvizHubEndpoint);
            window.location.search = '?' + query.toString();
        },
        model.c_str(), link == HubLink::Keep);
    return true;
}

}  // namespace vit::gui
