// Training a ViT from scratch on the shipped digits: timm's random init,
// softmax cross-entropy, AdamW (torch.optim.AdamW's update), a linear warm-up
// then cosine learning-rate schedule, light random shifts, and batches whose
// samples run forward and backward in parallel (OpenMP, the core's thread
// count). One seed gives one run: the same batches, shifts and init, and the
// gradients summed in a fixed order (each thread a fixed run of samples in
// order, threads in order). Bit for bit: Tensor storage is aligned (tensor.h),
// so Eigen's vectorised sums split their work the same way in every run.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "train/digit_set.h"
#include "model/model.h"
#include "tensor/tensor.h"

namespace vit {

// The built-in digits model's config, read from the shipped
// assets/digits/config.json (28×28×1, patch 7, width 64, 4 blocks, 4 heads,
// MLP 128, labels "0".."9"); vit::Error when the assets are missing.
ModelConfig digits_config();

// timm's init (as tools/train_digits.py): matrices, CLS token and positions
// normal(0, 0.02) (trunc_normal_(std=0.02) cuts at ±2 in value, 100σ: never
// reached), LayerNorm weights 1, biases 0. Labels "0".."9" kept from config.
Model init_model(const ModelConfig& config, uint32_t seed);

// -log softmax(logits)[label] for one sample; writes its gradient with respect
// to the logits times `scale` (1/batch for a batch mean) to `dlogits`.
float cross_entropy(const float* logits, int classes, int label, float scale, float* dlogits);

struct AdamWSettings {
    // Doubles, as torch's Python-side hyperparameters are.
    double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    // Decoupled decay, applied to the matrices only (Linear and patch
    // weights); biases, LayerNorm, CLS and positions are not decayed.
    double weight_decay = 0.05;
};

// torch.optim.AdamW's update of n values at step `step` (1 for the first):
//   p ← p·(1 − lr·wd);  m ← β1·m + (1−β1)·g;  v ← β2·v + (1−β2)·g²
//   p ← p − lr/(1−β1^step) · m / (√v/√(1−β2^step) + eps)
void adamw_update(float* p, const float* g, float* m, float* v, int64_t n, double lr, double weight_decay,
                  const AdamWSettings& s, int step);

class AdamW {
public:
    AdamW(const Model& model, const AdamWSettings& settings);
    // One step on every weight of `model` with the gradients `grads` (same shape).
    void step(Model& model, const Model& grads, double lr);
    int steps() const { return steps_; }

private:
    AdamWSettings settings_;
    Model m_, v_;
    int steps_ = 0;
};

// Linear warm-up over steps 0..warmup−1 (peak·(step+1)/warmup), then cosine
// from `peak` down to 0 at `total`; 0 after `total`.
float scheduled_lr(float peak, int step, int warmup, int total);

struct TrainOptions {
    // The CLI's defaults: ≥ 95% held-out in under 10 minutes on 2 loaded cores.
    int epochs = 20;
    int batch = 16;
    float lr = 1e-3f;
    uint32_t seed = 0;
    int warmup_epochs = 1;
    int max_shift = 2;  // random shift of each training digit, in pixels, each way
    AdamWSettings adamw;
};

// A training run over a DigitSplit; step() and epoch() can be interleaved
// (the app's single steps), the schedule spans options.epochs epochs.
class Trainer {
public:
    Trainer(Model model, const DigitSplit& data, const TrainOptions& options);
    // One batch (the next of the epoch's shuffled order); the batch's mean loss.
    float step();
    // The rest of the current epoch; the mean loss over its batches.
    float epoch();
    float held_out_accuracy() const;
    // How many of held-out digits begin…end−1 the model gets right (the
    // accuracy in pieces, for the app's sliced worker).
    int held_out_correct(int begin, int end) const;
    const Model& model() const { return model_; }
    int steps_per_epoch() const;
    // epochs × steps per epoch: both bounded (base/bounds.h), so the product fits an int.
    int total_steps() const { return options_.epochs * steps_per_epoch(); }
    int steps_done() const { return optimizer_.steps(); }
    // The learning rate the next step uses (the schedule at steps_done()).
    float next_lr() const;
    // Live changes (the app's Train panel): the peak of the schedule, and the
    // batch size from the next batch on (the schedule then spans the epochs at it).
    void set_peak_lr(float lr) { options_.lr = lr; }
    void set_batch(int batch) { options_.batch = batch > 0 ? batch : 1; }

private:
    void shuffle();

    Model model_;
    const DigitSplit& data_;
    TrainOptions options_;
    AdamW optimizer_;
    std::mt19937 rng_;
    std::vector<int> order_;
    size_t next_ = 0;  // position in order_
};

// One optimisation step on a batch of inputs (C×S×S each) and labels: the
// mean cross-entropy's gradients, summed deterministically, then AdamW.
// Returns the batch's mean loss. (Trainer uses it; exposed for benchmarks.)
float train_step(Model& model, AdamW& optimizer, const std::vector<Tensor>& inputs, const std::vector<int>& labels,
                 float lr);

}  // namespace vit
