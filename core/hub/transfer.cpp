// A download's progress as one line of text (transfer.h).
#include "hub/transfer.h"

#include <cstdio>

namespace vit {

std::string transfer_text(const HubTransfer& t) {
    const bool large = t.total >= 1000000;
    const double unit = large ? 1e6 : 1e3, rate = t.seconds >= 1 ? static_cast<double>(t.done) / t.seconds : 0;
    char text[128];
    const int n = std::snprintf(text, sizeof text, "%.1f of %.1f %s", static_cast<double>(t.done) / unit,
                                static_cast<double>(t.total) / unit, large ? "MB" : "kB");
    if (rate > 0 && n > 0 && t.done < t.total)
        std::snprintf(text + n, sizeof text - static_cast<size_t>(n), ", %.1f %s, %.0f s left",
                      rate >= 1e6 ? rate / 1e6 : rate / 1e3, rate >= 1e6 ? "MB/s" : "kB/s",
                      static_cast<double>(t.total - t.done) / rate);
    return text;
}

}  // namespace vit
