// "Why this class?" (app/gui/logic/jobs/explanation.h): the relevance map is row 0
// of core's relevance as shares, the saliency is the largest |input gradient|
// over channels, another class gives another map, and the job runs once per
// (trace, class), on the sliced worker (worker.h) too, in pieces, with the
// same numbers. Core's relevance and gradients are checked against PyTorch
// in tests/core; here the app's use of them.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <thread>

#include "explain/backward.h"
#include "logic/jobs/explanation.h"
#include "logic/jobs/worker.h"
#include "pass/forward.h"
#include "pass/interventions.h"
#include "explain/relevance.h"
#include "train/training.h"

using namespace vit;
using namespace vit::gui;

namespace {
struct Case {
    Model model = init_model(digits_config(), 7);
    Tensor input{{1, 28, 28}};
    Trace trace;
    Case() {
        for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = std::sin(0.37f * static_cast<float>(i));
        trace = forward(model, input);
    }
};
}  // namespace

TEST_CASE("the relevance map is the CLS row of Chefer's relevance over the patches, as shares") {
    Case c;
    const Explanation ex = explain_class(c.model, c.trace, 3);
    REQUIRE(ex.error.empty());
    const Gradients g = logit_gradients(c.model, c.trace, 3);
    const Tensor r = relevance(c.trace, g.stages, c.model.config.depth);
    const int N = 16;
    REQUIRE(ex.relevance.size() == static_cast<size_t>(N));
    double total = 0.0;
    for (int n = 0; n < N; ++n) total += r.data[1 + n];
    double sum = 0.0;
    for (int n = 0; n < N; ++n) {
        CHECK(ex.relevance[n] == Approx(r.data[1 + n] / total).margin(1e-6));
        sum += ex.relevance[n];
    }
    CHECK(sum == Approx(1.0).margin(1e-5));
}

TEST_CASE("the backward walk's gradients are core's, for every stage the logit depends on") {
    Case c;
    const Explanation ex = explain_class(c.model, c.trace, 4);
    const Gradients g = logit_gradients(c.model, c.trace, 4);
    REQUIRE(ex.gradients);
    REQUIRE(ex.gradients->stages().size() == g.stages.stages().size());
    for (const Stage& s : g.stages.stages()) {
        const Tensor& mine = ex.gradients->at(s.ref());
        REQUIRE(mine.shape == s.tensor.shape);
        INFO(vit::stage_id(s.ref()));
        CHECK(mine.data == s.tensor.data);  // bit for bit: the same backward pass (aligned storage, tensor.h)
    }
    CHECK(ex.gradients->tensor({StageKind::Probs}) == nullptr);
}

TEST_CASE("the saliency map is the largest input gradient over channels, pixel by pixel") {
    Case c;
    const Explanation ex = explain_class(c.model, c.trace, 5);
    const Gradients g = logit_gradients(c.model, c.trace, 5);
    const Tensor& din = g.stages.at({StageKind::Input});
    REQUIRE(ex.side == 28);
    REQUIRE(ex.saliency.size() == din.data.size());  // one channel
    // Two backward passes agree to rounding, not bit for bit (core/train/training.h says why).
    for (size_t i = 0; i < din.data.size(); ++i)
        CHECK(ex.saliency[i] == Approx(std::fabs(din.data[i])).epsilon(1e-4).margin(1e-9));
}

TEST_CASE("another class explains differently, impossible questions say why") {
    Case c;
    const Explanation a = explain_class(c.model, c.trace, 1), b = explain_class(c.model, c.trace, 8);
    float differ = 0.f;
    for (size_t i = 0; i < a.relevance.size(); ++i)
        differ = std::max(differ, std::fabs(a.relevance[i] - b.relevance[i]));
    CHECK(differ > 1e-4f);
    CHECK_THAT(explain_class(c.model, c.trace, 10).error, Catch::Contains("10"));  // 10 classes: 0…9
    Interventions drop;
    drop.drop_tokens = {0, 5};
    const Trace dropped = forward(c.model, c.input, drop);
    const Explanation d = explain_class(c.model, dropped, 1);
    CHECK(d.error.empty());
    CHECK(d.relevance.empty());
    CHECK_THAT(d.relevance_missing, Catch::Contains("dropped"));
    REQUIRE(d.gradients);
    CHECK(d.gradients->at({StageKind::Tokens}).rows() == 15);  // the gradients still follow the kept tokens
    const Tensor& dcls = d.gradients->at({StageKind::Cls});    // a dropped token's row gets none (found by the monkey)
    CHECK(dcls.mat().row(1).isZero());
    CHECK(dcls.mat().row(6).isZero());
    CHECK(dcls.mat().row(2) == d.gradients->at({StageKind::Tokens}).mat().row(1));
    Interventions hot;
    hot.temperature = 0.5f;
    CHECK_THAT(explain_class(c.model, forward(c.model, c.input, hot), 1, hot).error, Catch::Contains("temperature"));
    Interventions shuffled;
    shuffled.permute_patches = {1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    CHECK_THAT(explain_class(c.model, forward(c.model, c.input, shuffled), 1).error, Catch::Contains("shuffled"));
    CHECK(top_class(c.trace) == static_cast<int>(std::max_element(c.trace.at({StageKind::Probs}).data.begin(),
                                                                  c.trace.at({StageKind::Probs}).data.end()) -
                                                 c.trace.at({StageKind::Probs}).data.begin()));
}

TEST_CASE("the job explains a (trace, class) once and keeps it until asked for another") {
    Case c;
    auto model = std::make_shared<const Model>(c.model);
    auto trace = std::make_shared<const Trace>(c.trace);
    ExplainJob job(vit::gui::threaded_worker());
    CHECK(job.poll() == nullptr);
    job.request(model, trace, 1, 2);
    const Explanation* ex = nullptr;
    for (int i = 0; i < 2000 && !(ex = job.poll()); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    REQUIRE(ex);
    CHECK(ex->cls == 2);
    CHECK(ex->generation == 1);
    job.request(model, trace, 1, 2);  // the same question: nothing starts
    CHECK_FALSE(job.busy());
    job.request(model, trace, 2, 2);  // a new trace: it starts again
    CHECK(job.busy());
    for (int i = 0; i < 2000 && job.poll()->generation != 2; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(job.poll()->generation == 2);
}

TEST_CASE("on the sliced worker the job explains in pieces, the same numbers as at once, and stops when dropped") {
    Case c;
    auto model = std::make_shared<const Model>(c.model);
    auto trace = std::make_shared<const Trace>(c.trace);
    auto worker = std::make_shared<SlicedWorker>();
    const double budget_ms = 0;  // no time: one piece an advance
    {
        ExplainJob job(worker);
        job.request(model, trace, 1, 6);
        int advances = 0;
        for (; job.busy() && advances < 100; ++advances) {
            worker->advance(budget_ms);
            job.poll();
        }
        CHECK(advances ==
              c.model.config.depth + 4);  // the head, each block, the embedding, the saliency, the relevance
        REQUIRE(job.poll());
        const Explanation& sliced = *job.poll();
        const Explanation at_once = explain_class(c.model, c.trace, 6);
        REQUIRE(sliced.gradients);
        REQUIRE(sliced.gradients->size() == at_once.gradients->size());
        for (size_t i = 0; i < sliced.gradients->size(); ++i)
            CHECK(sliced.gradients->stages()[i].tensor.data == at_once.gradients->stages()[i].tensor.data);
        CHECK(sliced.relevance == at_once.relevance);
        CHECK(sliced.saliency == at_once.saliency);
        CHECK(worker->longest_advance_ms() <= budget_ms + worker->longest_piece_ms() + 5.0);

        job.request(model, trace, 2, 6);  // a new trace: it starts again
        worker->advance(budget_ms);
        CHECK_FALSE(worker->idle());
    }
    CHECK(worker->idle());  // the job went with its owner
}

TEST_CASE("a request for another trace cancels the explanation under way and starts the new one") {
    Case c;
    auto model = std::make_shared<const Model>(c.model);
    auto trace = std::make_shared<const Trace>(c.trace);
    auto worker = std::make_shared<SlicedWorker>();
    ExplainJob job(worker);
    job.request(model, trace, 1, 6);
    worker->advance(0);
    worker->advance(0);  // the head and the last block walked back
    REQUIRE(job.busy());
    job.request(model, trace, 1, 6);  // the same question: it goes on
    worker->advance(0);
    job.request(model, trace, 2, 6);  // a newer trace: the old job is dropped, a new one starts
    int advances = 0;
    for (; job.busy() && advances < 100; ++advances) {
        worker->advance(0);
        job.poll();
    }
    CHECK(advances == c.model.config.depth + 4);  // all of the new job's pieces, none of the old one's
    REQUIRE(job.poll());
    CHECK(job.poll()->generation == 2);
}
