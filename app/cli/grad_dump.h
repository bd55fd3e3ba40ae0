// vitviz-cli's gradient dumps: --grad CLASS writes grad.<stage id>.npy and
// grad.param.<timm name>.npy, --relevance CLASS writes relevance.npy, into
// the --dump folder. CLASS is a class index or `top`. Stage files use the
// catalogue's ln1/ln2 where parameter files keep timm's norm1/norm2.
#pragma once
#include <string>

#include "model/model.h"
#include "pass/trace.h"

namespace vit::cli {

struct GradRequest {
    std::string grad;       // --grad CLASS, empty when not asked
    std::string relevance;  // --relevance CLASS, empty when not asked
    std::string dump_dir;   // --dump DIR
    bool gpu = false;       // --backend gpu
    bool bench = false;     // --bench N

    bool any() const { return !grad.empty() || !relevance.empty(); }
};

// The options alone make sense (a dump folder, the CPU backend, no --bench);
// throws vit::Error otherwise. Called before the model is loaded.
void check_grad_request(const GradRequest& request);

// Writes what `request` asks for, from the forward `trace` of `model` (the
// folder already exists: the stages were dumped there). vit::Error for a class
// out of range or a model without a head.
void dump_gradients(const GradRequest& request, const Model& model, const Trace& trace);

}  // namespace vit::cli
