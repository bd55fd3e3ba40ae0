// Trace sizes from the stage catalogue's shapes (core/pass/stages.h), and the memory
// budget from sysconf and the address-space limit.
#include "pass/trace_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "base/bounds.h"
#include "base/error.h"
#include "pass/stages.h"

namespace vit {

namespace {

// Floats of every stage of the catalogue (core/pass/stages.h) the pass holds,
// multiplied out in double: a hostile size must not overflow the sum. A Stream
// pass holds the stages it keeps and one block's others.
double trace_floats(const ModelConfig& c, int image_size, TraceKeep keep) {
    const ModelSizes sizes = model_sizes(c, image_size / c.patch_size);
    double floats = 0;
    for (const StageRef& stage : stage_list(c)) {
        if (!keeps(keep, stage.kind) && stage.block > 0) continue;  // block 0's stand for the buffers
        double numel = 1;
        for (int64_t dim : stage_shape(stage.kind, sizes)) numel *= static_cast<double>(dim);
        floats += numel;
    }
    return floats;
}

// The memory the budget is a share of: physical memory, or the address-space limit when lower.
struct Memory {
    double bytes;
    bool limited;  // by the address-space limit
};
Memory usable_memory() {
    const double physical = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        static_cast<double>(limit.rlim_cur) < physical)
        return {static_cast<double>(limit.rlim_cur), true};
    return {physical, false};
}

// "(50% of this machine's memory)", or of the limit that is lower; "…, shared by the N passes the
// app holds at once" where `traces_held` (N) share it.
std::string allowance_text(int traces_held) {
    const Memory m = usable_memory();
    const std::string shared =
        traces_held > 1 ? ", shared by the " + std::to_string(traces_held) + " passes the app holds at once" : "";
    return " (" + std::to_string(static_cast<int>(kMaxTraceMemoryShare * 100)) + "% of " +
           (m.limited ? "the process's address-space limit, " + gigabytes(m.bytes)
                      : std::string("this machine's memory")) +
           shared + ")";
}

std::string tokens_text(const ModelConfig& config, int size) {
    const int64_t grid = size / config.patch_size;
    return std::to_string(grid * grid + config.prefix_tokens()) + " tokens";
}

}  // namespace

std::string gigabytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
    return text;
}

int64_t trace_bytes(const ModelConfig& config, int image_size, TraceKeep keep) {
    const double bytes = trace_floats(config, image_size, keep) * sizeof(float);
    return bytes >= 9e18 ? INT64_MAX : static_cast<int64_t>(bytes);
}

int64_t trace_budget_bytes() { return static_cast<int64_t>(usable_memory().bytes * kMaxTraceMemoryShare); }

Error out_of_memory(const ModelConfig& config, int image_size, TraceKeep keep) {
    const int size = image_size > 0 ? image_size : config.preprocess.image_size;
    return Error(config.name + " at " + std::to_string(size) + "×" + std::to_string(size) + " pixels (" +
                 tokens_text(config, size) + "): out of memory; its trace needs " +
                 gigabytes(static_cast<double>(trace_bytes(config, size, keep))) +
                 " beside its weights (a smaller image size needs less)");
}

TraceKeep keep_that_fits(const ModelConfig& config, int image_size, int64_t budget, int traces_held) {
    const int size = image_size > 0 ? image_size : config.preprocess.image_size;
    return trace_bytes(config, size) <= budget / std::max(1, traces_held) ? TraceKeep::Every : TraceKeep::Stream;
}

int largest_fitting_image_size(const ModelConfig& config, int64_t budget, TraceKeep keep) {
    int largest = 0;
    for (int size = config.patch_size; size <= kMaxImageSide && trace_bytes(config, size, keep) <= budget;
         size += config.patch_size)
        largest = size;
    return largest;
}

void check_input_fits(const ModelConfig& config, int image_size, int64_t budget, int traces_held, TraceKeep keep) {
    budget /= std::max(1, traces_held);
    const int size = image_size > 0 ? image_size : config.preprocess.image_size;
    const int64_t needed = trace_bytes(config, size, keep);
    if (size <= kMaxImageSide && needed <= budget) {  // it fits; over the limit, the messages below come first
        const int P = config.patch_size;
        if (image_size > 0 && size % P != 0)
            throw Error("--image-size " + std::to_string(size) + ": not a whole number of " + config.name + "'s " +
                        std::to_string(P) + "-pixel patches (" + std::to_string(std::max(P, size / P * P)) + " or " +
                        std::to_string((size / P + 1) * P) + " is)");
        return;
    }
    const int largest = largest_fitting_image_size(config, budget, keep);
    const std::string offer = largest > 0 ? "; the largest image size that fits is " + std::to_string(largest) +
                                                " (--image-size " + std::to_string(largest) + ")"
                                          : "; not even one patch fits";
    const std::string input =
        config.name + ": an input of " + std::to_string(size) + "×" + std::to_string(size) + " pixels";
    if (size > kMaxImageSide)
        throw InputTooLarge(input + " is over the limit of " + std::to_string(kMaxImageSide) + " pixels a side" + offer,
                            largest);
    throw InputTooLarge(input + " (" + tokens_text(config, size) + ") needs " + gigabytes(static_cast<double>(needed)) +
                            " for its trace, over the " + gigabytes(static_cast<double>(budget)) + " allowed" +
                            allowance_text(traces_held) + offer,
                        largest);
}

}  // namespace vit
