// Training (training.h): init, loss, AdamW, schedule, batches in parallel.
#include "train/training.h"

#include "tensor/openmp.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/error.h"
#include "base/finite.h"
#include "explain/backward.h"
#include "loading/load_model.h"
#include "loading/builtin.h"
#include "pass/forward.h"

namespace vit {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Digit `i` of `set` moved by (dx, dy) pixels (background 0), normalised as
// the model's preprocessing does: the model's 1×28×28 input.
Tensor digit_input(const DigitSet& set, int i, int dx, int dy, const Preprocess& pre) {
    Tensor t({1, kDigitSide, kDigitSide});
    const float* src = set.image(i);
    const float mean = pre.mean[0], inv_std = 1.0f / pre.std[0];
    for (int y = 0; y < kDigitSide; ++y)
        for (int x = 0; x < kDigitSide; ++x) {
            const int sy = y - dy, sx = x - dx;
            const bool inside = sy >= 0 && sy < kDigitSide && sx >= 0 && sx < kDigitSide;
            t.data[y * kDigitSide + x] = ((inside ? src[sy * kDigitSide + sx] : 0.0f) - mean) * inv_std;
        }
    return t;
}

void add_weights(Model& sum, const Model& term) {
    const std::vector<WeightSpan> to = weight_spans(sum);
    const std::vector<ConstWeightSpan> from = weight_spans(term);
    for (size_t w = 0; w < to.size(); ++w)
        for (int64_t i = 0; i < to[w].size; ++i) to[w].data[i] += from[w].data[i];
}

// Refuses step `step` (nothing updated) when its loss or a gradient is NaN or infinite: training
// has diverged, and AdamW would carry the NaN into every weight.
void check_finite_step(double loss, const Model& grads, int step, float lr) {
    size_t bad = 0;
    for (const ConstWeightSpan& g : weight_spans(grads)) bad += count_nonfinite(g.data, static_cast<size_t>(g.size));
    if (std::isfinite(loss) && bad == 0) return;
    char rate[32];
    std::snprintf(rate, sizeof rate, "%g", static_cast<double>(lr));
    throw Error("training stopped at step " + std::to_string(step) + ": " +
                (std::isfinite(loss) ? std::to_string(bad) + " gradients are" : std::string("the loss is")) +
                " no longer finite (the learning rate " + rate + " is too large); the weights are those of step " +
                std::to_string(step - 1));
}

// Uniform integer in [0, n) from the generator's raw bits (the same numbers
// with every standard library, unlike std::uniform_int_distribution).
int uniform_below(std::mt19937& rng, int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); }

}  // namespace

ModelConfig digits_config() { return load_model(kDigitsModel).config; }

Model init_model(const ModelConfig& config, uint32_t seed) {
    const ModelConfig& c = config;
    const int D = c.embed_dim, M = c.mlp_dim, T = 1 + c.pos_grid * c.pos_grid;
    Model m;
    m.config = c;
    m.patch_w = Mat::Zero(D, c.patch_dim()), m.patch_b = Vec::Zero(D), m.cls_token = Vec::Zero(D);
    m.pos_embed = Mat::Zero(T, D);
    for (int b = 0; b < c.depth; ++b) {
        BlockWeights w;
        w.ln1_w = w.ln2_w = Vec::Ones(D);
        w.ln1_b = w.ln2_b = w.proj_b = w.fc2_b = Vec::Zero(D);
        w.qkv_w = Mat::Zero(3 * D, D), w.qkv_b = Vec::Zero(3 * D), w.proj_w = Mat::Zero(D, D);
        w.fc1_w = Mat::Zero(M, D), w.fc1_b = Vec::Zero(M), w.fc2_w = Mat::Zero(D, M);
        m.blocks.push_back(std::move(w));
    }
    m.norm_w = Vec::Ones(D), m.norm_b = Vec::Zero(D);
    m.head_w = Mat::Zero(c.num_classes, D), m.head_b = Vec::Zero(c.num_classes);

    std::mt19937 rng(seed);
    std::normal_distribution<float> normal(0.0f, 0.02f);
    auto fill = [&](float* data, int64_t n) { std::generate(data, data + n, [&] { return normal(rng); }); };
    for (const WeightSpan& w : weight_spans(m))
        if (w.matrix) fill(w.data, w.size);
    fill(m.cls_token.data(), m.cls_token.size());
    fill(m.pos_embed.data(), m.pos_embed.size());
    return m;
}

float cross_entropy(const float* logits, int classes, int label, float scale, float* dlogits) {
    const float top = *std::max_element(logits, logits + classes);
    double sum = 0.0;
    for (int k = 0; k < classes; ++k) sum += std::exp(static_cast<double>(logits[k] - top));
    const double log_sum = std::log(sum);
    for (int k = 0; k < classes; ++k) {
        const double p = std::exp(static_cast<double>(logits[k] - top) - log_sum);
        dlogits[k] = static_cast<float>((p - (k == label ? 1.0 : 0.0)) * scale);
    }
    return static_cast<float>(log_sum - (logits[label] - top));
}

void adamw_update(float* p, const float* g, float* m, float* v, int64_t n, double lr, double weight_decay,
                  const AdamWSettings& s, int step) {
    // The scalars as torch computes them (Python doubles, cast to float for the kernels).
    const float decay = static_cast<float>(1.0 - lr * weight_decay);
    const float b1 = static_cast<float>(s.beta1), b2 = static_cast<float>(s.beta2);
    const float a1 = static_cast<float>(1.0 - s.beta1), a2 = static_cast<float>(1.0 - s.beta2);
    const float step_size = static_cast<float>(lr / (1.0 - std::pow(s.beta1, step)));
    const float bc2_sqrt = static_cast<float>(std::sqrt(1.0 - std::pow(s.beta2, step)));
    const float eps = static_cast<float>(s.eps);
    for (int64_t i = 0; i < n; ++i) {
        p[i] *= decay;
        m[i] = m[i] * b1 + a1 * g[i];
        v[i] = v[i] * b2 + a2 * (g[i] * g[i]);
        p[i] += -step_size * (m[i] / (std::sqrt(v[i]) / bc2_sqrt + eps));
    }
}

AdamW::AdamW(const Model& model, const AdamWSettings& settings)
    : settings_(settings), m_(zeros_like(model)), v_(zeros_like(model)) {}

void AdamW::step(Model& model, const Model& grads, double lr) {
    ++steps_;
    const std::vector<WeightSpan> p = weight_spans(model), m = weight_spans(m_), v = weight_spans(v_);
    const std::vector<ConstWeightSpan> g = weight_spans(grads);
    for (size_t w = 0; w < p.size(); ++w)
        adamw_update(p[w].data, g[w].data, m[w].data, v[w].data, p[w].size, lr,
                     p[w].matrix ? settings_.weight_decay : 0.0, settings_, steps_);
}

float scheduled_lr(float peak, int step, int warmup, int total) {
    if (step >= total) return 0.0f;
    if (step < warmup) return peak * static_cast<float>(step + 1) / static_cast<float>(warmup);
    const double progress = static_cast<double>(step - warmup) / std::max(1, total - warmup);
    return static_cast<float>(peak * 0.5 * (1.0 + std::cos(kPi * progress)));
}

float train_step(Model& model, AdamW& optimizer, const std::vector<Tensor>& inputs, const std::vector<int>& labels,
                 float lr) {
    const int batch = static_cast<int>(inputs.size()), classes = model.config.num_classes;
    const int teams = std::max(1, std::min(omp_get_max_threads(), batch));
    std::vector<Gradients> sums(static_cast<size_t>(teams));
    for (Gradients& sum : sums) sum.params = zeros_like(model);  // zeros too for a team OpenMP does not start
    std::vector<double> losses(static_cast<size_t>(teams), 0.0);
#pragma omp parallel num_threads(teams)
    {
        // Thread t sums its share of the samples (thread_share) in order: the
        // same runs, so the same sums, at a fixed thread count.
        const int t = omp_get_thread_num();
        const ThreadShare samples = thread_share(batch);
        Trace trace;
        Tensor dlogits({classes});
        for (int64_t i = samples.begin; i < samples.end; ++i) {
            forward_into(model, inputs[i], trace);
            const Tensor& logits = trace.at({StageKind::Logits});
            losses[t] += cross_entropy(logits.data.data(), classes, labels[i], 1.0f / batch, dlogits.data.data());
            backward_into(model, trace, dlogits, sums[t]);
        }
    }
    for (int t = 1; t < teams; ++t) add_weights(sums[0].params, sums[t].params);
    double loss = 0.0;
    for (double l : losses) loss += l;
    check_finite_step(loss / batch, sums[0].params, optimizer.steps() + 1, lr);
    optimizer.step(model, sums[0].params, lr);
    model.config.random_weights = false;  // trained now: its weights are no longer the random ones
    return static_cast<float>(loss / batch);
}

Trainer::Trainer(Model model, const DigitSplit& data, const TrainOptions& options)
    : model_(std::move(model)), data_(data), options_(options), optimizer_(model_, options.adamw), rng_(options.seed) {
    order_.resize(static_cast<size_t>(data_.train.size()));
    shuffle();
}

int Trainer::steps_per_epoch() const { return (data_.train.size() + options_.batch - 1) / options_.batch; }

void Trainer::shuffle() {
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<int>(i);
    for (size_t i = order_.size(); i > 1; --i)
        std::swap(order_[i - 1], order_[uniform_below(rng_, static_cast<int>(i))]);
    next_ = 0;
}

float Trainer::step() {
    if (next_ >= order_.size()) shuffle();
    const size_t end = std::min(order_.size(), next_ + static_cast<size_t>(options_.batch));
    std::vector<Tensor> inputs;
    std::vector<int> labels;
    const int shifts = 2 * options_.max_shift + 1;
    for (; next_ < end; ++next_) {
        const int i = order_[next_];
        const int dx = uniform_below(rng_, shifts) - options_.max_shift;
        const int dy = uniform_below(rng_, shifts) - options_.max_shift;
        inputs.push_back(digit_input(data_.train, i, dx, dy, model_.config.preprocess));
        labels.push_back(data_.train.labels[i]);
    }
    return train_step(model_, optimizer_, inputs, labels, next_lr());
}

float Trainer::next_lr() const {
    return scheduled_lr(options_.lr, optimizer_.steps(), options_.warmup_epochs * steps_per_epoch(), total_steps());
}

float Trainer::epoch() {
    double sum = 0.0;
    int batches = 0;
    do {
        sum += step();
        ++batches;
    } while (next_ < order_.size());
    return static_cast<float>(sum / batches);
}

float Trainer::held_out_accuracy() const {
    const DigitSet& set = data_.held_out;
    return set.size() > 0 ? static_cast<float>(held_out_correct(0, set.size())) / set.size() : 0.0f;
}

int Trainer::held_out_correct(int begin, int end) const {
    const DigitSet& set = data_.held_out;
    int correct = 0;
#pragma omp parallel reduction(+ : correct)
    {
        Trace trace;
#pragma omp for schedule(static)
        for (int i = begin; i < end; ++i) {
            forward_into(model_, digit_input(set, i, 0, 0, model_.config.preprocess), trace);
            const FloatStorage& logits = trace.at({StageKind::Logits}).data;
            correct += std::max_element(logits.begin(), logits.end()) - logits.begin() == set.labels[i];
        }
    }
    return correct;
}

}  // namespace vit
