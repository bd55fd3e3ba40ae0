// Claims about loading on the worker: the trace arrives complete, the same
// model is reused for a new image, and a user's mistake comes back as text; on
// the sliced worker (worker.h) the pass comes in bounded pieces, bit for bit
// the synchronous pass, and a newer request replaces the waiting one. A pass too
// large for every stage keeps the stream: the views see the block on screen
// recomputed (block_focus.h), as from the full trace.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <functional>
#include <thread>

#include "loading/toy_model.h"
#include "findings/attention_distance.h"
#include "logic/describe/token_order.h"
#include "logic/jobs/block_focus.h"
#include "logic/jobs/block_walk.h"
#include "logic/jobs/explanation.h"
#include "logic/jobs/loader.h"
#include "logic/jobs/occlusion_job.h"
#include "logic/jobs/worker.h"
#include "logic/state/app_state.h"
#include "pass/forward.h"
#include "pass/trace_budget.h"
#include "train/training.h"

using namespace vit;
using namespace vit::gui;

static LoadOutcome wait_for(Loader& l) {
    for (int i = 0; i < 2000; ++i) {
        if (auto o = l.poll()) return *o;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    FAIL("the loader did not finish in 10 s");
    return {};
}

TEST_CASE("loading the toy model on the worker gives a trace with every stage") {
    Loader l(vit::gui::threaded_worker());
    l.request({"toy-4x4", "", 0}, nullptr, "");
    REQUIRE(l.busy());
    LoadOutcome o = wait_for(l);
    REQUIRE(o.error.empty());
    REQUIRE(o.loaded);
    REQUIRE(o.loaded->trace->size() == vit::stage_ids(1, true).size());
    REQUIRE(o.loaded->picture.width == 4);
    REQUIRE_FALSE(l.busy());
}

TEST_CASE("a rerun that brings its image's input reads no image: the same input, no picture, the same name") {
    const Loaded first = load_and_run({"digits", "", 0}, nullptr, "");
    REQUIRE(first.picture.channels == 1);
    LoadRequest rerun{"digits", "", 0};
    rerun.input = first.input;
    rerun.interventions.mask_patches = {3};
    rerun.original = first.trace;
    const Loaded again = load_and_run(rerun, first.model, "digits");
    CHECK(again.input.get() == first.input.get());
    CHECK(again.picture.channels == 0);  // the app keeps the picture it shows
    CHECK(again.image_name == first.image_name);
    const Loaded decoded = load_and_run(
        [&] {
            LoadRequest r = rerun;
            r.input.reset();
            return r;
        }(),
        first.model, "digits");
    CHECK(again.trace->at(vit::StageRef{vit::StageKind::Logits}).data ==
          decoded.trace->at(vit::StageRef{vit::StageKind::Logits}).data);
}

TEST_CASE("the plain pass asked again on the image shown is the trace it brings, which a new pass gives bit for bit") {
    const Loaded first = load_and_run({"digits", "", 0}, nullptr, "");
    LoadRequest again{"digits", "", 0};
    again.input = first.input;
    again.original = first.trace;
    const Loaded shown = load_and_run(again, first.model, "digits");
    CHECK_FALSE(shown.pass_ran);
    CHECK(shown.trace.get() == first.trace.get());
    CHECK(shown.original.get() == first.trace.get());
    again.original.reset();  // nothing to show again: the pass runs
    const Loaded ran = load_and_run(again, first.model, "digits");
    CHECK(ran.pass_ran);
    REQUIRE(ran.trace->size() == first.trace->size());
    for (size_t i = 0; i < ran.trace->size(); ++i)
        CHECK(ran.trace->stages()[i].tensor.data == first.trace->stages()[i].tensor.data);
}

TEST_CASE("the threaded worker runs jobs side by side, and a later job on a thread kept from an earlier one") {
    // A thread's number, given on its first job: a thread that is kept keeps its
    // thread_local state (as the pass's packing buffers), a new one starts anew.
    static std::atomic<int> threads_seen{0};
    struct ThreadJob : Job {
        int ran_on = 0;
        std::atomic<bool> started{false};
        std::atomic<bool>* hold = nullptr;  // the job waits while it is set
        bool step() override {
            thread_local const int thread_number = ++threads_seen;
            ran_on = thread_number;
            started = true;
            while (hold && hold->load()) std::this_thread::yield();
            return false;
        }
    };
    auto worker = std::make_shared<ThreadedWorker>();
    std::atomic<int> ended{0};
    worker->signal_job_ends([&] { ++ended; });
    const auto wait_until = [](const std::function<bool()>& done) {
        for (int i = 0; i < 2000 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        REQUIRE(done());
    };
    std::atomic<bool> hold{true};
    auto held = std::make_shared<ThreadJob>(), beside = std::make_shared<ThreadJob>();
    held->hold = &hold;
    const std::unique_ptr<Task> held_task = worker->submit(held);
    wait_until([&] { return held->started.load(); });
    {
        const std::unique_ptr<Task> beside_task = worker->submit(beside);  // runs while the first is held
        wait_until([&] { return beside_task->finished(); });
    }
    CHECK(beside->ran_on != held->ran_on);
    hold = false;
    wait_until([&] { return held_task->finished() && ended.load() == 2; });
    auto later = std::make_shared<ThreadJob>();
    const std::unique_ptr<Task> later_task = worker->submit(later);
    wait_until([&] { return later_task->finished() && ended.load() == 3; });
    CHECK((later->ran_on == held->ran_on || later->ran_on == beside->ran_on));  // no new thread
}

TEST_CASE("choosing another image keeps the model already loaded") {
    Loaded first = load_and_run({"toy-4x4", "", 0}, nullptr, "");
    Loaded again = load_and_run({"toy-4x4", "", 0}, first.model, "toy-4x4");
    REQUIRE(again.model.get() == first.model.get());
}

TEST_CASE("a missing image comes back as an error message naming the file, and the loader stays usable") {
    Loader l(vit::gui::threaded_worker());
    l.request({"toy-4x4", "/nonexistent/cat.png", 0}, nullptr, "");
    LoadOutcome o = wait_for(l);
    REQUIRE_FALSE(o.loaded);
    REQUIRE_THAT(o.error, Catch::Contains("cat.png"));
    l.request({"toy-4x4", "", 0}, nullptr, "");
    REQUIRE(wait_for(l).loaded);
}

TEST_CASE("a checkpoint with no image chosen is an error, as in the CLI, not the toy image") {
    auto model = std::make_shared<const vit::Model>(vit::make_toy_model());
    REQUIRE_THROWS_WITH(load_and_run({"/models/vit", "", 0}, model, "/models/vit"), Catch::Contains("no image given"));
}

TEST_CASE("an RGB drawing given to a one-channel model is turned grey by PIL's luma, as decoding does") {
    auto rgb = std::make_shared<vit::Image>();
    rgb->channels = 3;
    rgb->height = rgb->width = 4;
    rgb->data.resize(3 * 16);
    for (int c = 0; c < 3; ++c)
        for (int i = 0; i < 16; ++i) rgb->data[c * 16 + i] = 0.3f * (c + 1);
    LoadRequest req{"toy-4x4", "", 0};
    req.pixels = rgb;
    Loaded l = load_and_run(req, nullptr, "");
    REQUIRE(l.picture.channels == 1);
    REQUIRE(l.picture.data[5] == Approx(0.3f * 0.299f + 0.6f * 0.587f + 0.9f * 0.114f));
}

TEST_CASE("an image size too large for memory comes back with the largest size that fits") {
    Loader l(vit::gui::threaded_worker());
    l.request({"toy-4x4", "", 100000}, nullptr, "");
    LoadOutcome o = wait_for(l);
    REQUIRE_FALSE(o.loaded);
    CHECK_THAT(o.error, Catch::Matchers::Contains("over the limit of 8192 pixels a side"));
    REQUIRE(o.fitting_image_size > 0);
    CHECK(o.fitting_image_size % 2 == 0);  // a whole number of the toy's 2×2 patches
}

namespace {

void require_same_stages(const vit::Trace& a, const vit::Trace& b) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        INFO(vit::stage_id(a.stages()[i].ref()));
        CHECK(a.stages()[i].ref() == b.stages()[i].ref());
        CHECK(a.stages()[i].tensor.data == b.stages()[i].tensor.data);  // bit for bit
    }
}

// Advances `worker` as a page does each frame until `l` finishes; counts the advances.
LoadOutcome advance_until_done(Loader& l, SlicedWorker& worker, double budget_ms, int& advances) {
    for (advances = 0; advances < 10000; ++advances) {
        if (auto o = l.poll()) return *o;
        worker.advance(budget_ms);
    }
    FAIL("the sliced loader did not finish in 10000 advances");
    return {};
}

LoadRequest asked_with_mask() {
    LoadRequest req{"digits", "", 0};
    req.interventions.mask_patches = {3, 9};
    return req;
}

}  // namespace

TEST_CASE("a pass on the sliced worker comes a block at a time and is the synchronous pass bit for bit") {
    auto worker = std::make_shared<SlicedWorker>();
    Loader l(worker);
    const LoadRequest req = asked_with_mask();
    l.request(req, nullptr, "");
    int advances = 0;
    const LoadOutcome o = advance_until_done(l, *worker, 0, advances);
    REQUIRE(o.error.empty());
    REQUIRE(o.loaded);
    const Loaded sync = load_and_run(req, nullptr, "");
    require_same_stages(*o.loaded->trace, *sync.trace);
    require_same_stages(*o.loaded->original, *sync.original);
    CHECK(o.loaded->lens == sync.lens);
    // No time: one piece an advance. Two forward passes (asked, unmodified) of
    // 4 blocks, each in 7 pieces (embedding, blocks, head, rollout), and more.
    const int depth = sync.model->config.depth;
    CHECK(advances >= 2 * (depth + 3));
    CHECK(worker->longest_advance_ms() <= worker->longest_piece_ms() + 5.0);
}

TEST_CASE("on the sliced worker a newer request replaces the waiting one, and a dropped loader's work stops") {
    auto worker = std::make_shared<SlicedWorker>();
    {
        Loader l(worker);
        l.request({"toy-4x4", "", 0}, nullptr, "");
        l.request({"digits", "", 0}, nullptr, "");   // waits; the first stops before its first block
        l.request({"toy-4x4", "", 8}, nullptr, "");  // replaces it
        int advances = 0;
        const LoadOutcome newest = advance_until_done(l, *worker, 1.0, advances);  // the only outcome
        CHECK(newest.request.image_size == 8);
        REQUIRE(newest.loaded);
        CHECK(newest.loaded->model_name == "toy-4x4");
        CHECK_FALSE(l.busy());
        l.request(asked_with_mask(), nullptr, "");
        CHECK(worker->longest_advance_ms() <= 1.0 + worker->longest_piece_ms() + 5.0);  // 1 ms, at most a piece more
        worker->advance(0);                                                             // one piece of many
        CHECK_FALSE(worker->idle());
    }
    CHECK(worker->idle());  // the loader went: its job with it
}

TEST_CASE("a pass reports its blocks, and a newer request stops it at the next block, reusing the model read") {
    auto worker = std::make_shared<SlicedWorker>();
    Loader l(worker);
    l.request(asked_with_mask(), nullptr, "");
    std::vector<std::string> phases;
    for (int i = 0; i < 1000 && phases.size() < 3; ++i) {  // into the forward pass: two blocks run
        worker->advance(0);
        const std::string phase = l.phase();
        if (phase.rfind("forward pass: block", 0) == 0 && (phases.empty() || phases.back() != phase))
            phases.push_back(phase);
    }
    REQUIRE(phases.size() == 3);
    CHECK(phases[0] == "forward pass: block 1 of 4");
    CHECK(phases[2] == "forward pass: block 3 of 4");
    CHECK(l.progress() > 0.5f);  // the digits model was read first: the pass fills the second half
    CHECK(l.progress() < 1.0f);
    LoadRequest newer{"digits", "", 0};
    l.request(newer, nullptr, "");  // stops the masked pass at its next block
    std::optional<LoadOutcome> o;
    int advances = 0;
    bool read_again = false;
    for (; advances < 1000 && !o; ++advances) {
        worker->advance(0);
        read_again |= l.phase() == "reading the model";
        o = l.poll();
    }
    REQUIRE(o);
    CHECK(o->request.interventions.empty());  // the newer request's outcome, the only one
    REQUIRE(o->loaded);
    CHECK_FALSE(read_again);  // the model the stopped request read serves the newer one
    CHECK(advances < 2 * (o->loaded->model->config.depth + 3));  // no second pass of the stopped request
    CHECK_FALSE(l.busy());
}

TEST_CASE("the occlusion job fills the map in a piece at a time, and cancel or a new request stops it") {
    auto worker = std::make_shared<SlicedWorker>();
    const LoadRequest req{"digits", "", 0};
    const Loaded pass = load_and_run(req, nullptr, "");
    REQUIRE(pass.input);
    vit::Interventions asked;
    asked.mask_patches = {4};
    const vit::OcclusionMap whole = vit::occlusion_map(*pass.model, *pass.input, asked);
    const int patches = static_cast<int>(whole.probabilities.size());

    OcclusionJob job(worker);
    CHECK(job.poll() == nullptr);
    job.request(pass.model, pass.input, asked, 1);
    worker->advance(0);  // the unmasked pass
    worker->advance(0);  // the first patches
    const OcclusionProgress* part = job.poll();
    REQUIRE(part);
    const int computed = part->map.computed;
    REQUIRE(computed > 0);
    REQUIRE(computed < patches);
    for (int n = 0; n < patches; ++n) {
        if (n < computed) CHECK(part->map.probabilities[n] == whole.probabilities[n]);
        else CHECK(std::isnan(part->map.probabilities[n]));
    }

    job.cancel();
    CHECK_FALSE(job.busy());
    for (int i = 0; i < 5; ++i) worker->advance(0);
    CHECK(worker->idle());
    REQUIRE(job.poll());
    CHECK(job.poll()->map.computed == computed);  // what was computed stays, nothing more
    CHECK(job.poll()->generation == 1);

    job.request(pass.model, pass.input, asked, 2);
    worker->advance(0);
    job.request(pass.model, pass.input, {}, 3);  // a newer pass: the map of 2 stops
    const vit::OcclusionMap plain = vit::occlusion_map(*pass.model, *pass.input);
    for (int i = 0; i < 1000 && job.busy(); ++i) {
        worker->advance(0);
        job.poll();
    }
    REQUIRE(job.poll());
    CHECK(job.poll()->generation == 3);
    CHECK(job.poll()->map.probabilities == plain.probabilities);
    CHECK(job.poll()->error.empty());
}

namespace {

struct StreamCase {
    std::shared_ptr<const Model> model = std::make_shared<const Model>(init_model(digits_config(), 7));
    Tensor input{{1, 28, 28}};
    Trace full;
    std::shared_ptr<const Trace> stream;
    StreamCase() {
        for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = std::sin(0.37f * static_cast<float>(i));
        full = forward(*model, input);
        stream = std::make_shared<const Trace>(forward(*model, input, {}, TraceKeep::Stream));
    }
};
}  // namespace

TEST_CASE("a Stream trace's pipeline lists every stage of the full trace's") {
    StreamCase c;
    CHECK(trace_pipeline(*c.stream, c.model->config).ids == trace_pipeline(c.full, c.model->config).ids);
}

TEST_CASE("the views see the block on screen recomputed, once, as in the full trace") {
    StreamCase c;
    BlockFocus focus;
    focus.follow(c.model);
    const auto every = std::make_shared<const Trace>(c.full);
    CHECK(focus.seen(every, 1) == every);  // a full trace is seen as it is
    const std::shared_ptr<const Trace> b1 = focus.seen(c.stream, 1);
    REQUIRE(b1 != c.stream);
    for (const Stage& s : c.full.stages()) {
        INFO(s.id);
        const Tensor* seen = b1->tensor(s.ref());
        if (s.block >= 0 && s.block != 1 && !keeps(TraceKeep::Stream, s.kind)) CHECK(seen == nullptr);
        else REQUIRE((seen && seen->data == s.tensor.data));
    }
    CHECK(focus.seen(c.stream, 1) == b1);  // the same block again: not recomputed
    CHECK(focus.seen(b1, 1) == b1);        // asked through the block seen: the same
    const std::shared_ptr<const Trace> b0 = focus.seen(c.stream, 0);
    CHECK(b0->tensor({StageKind::Attn, 0}));
    CHECK(focus.seen(c.stream, 1) == b1);         // stepping back: kept
    CHECK(focus.seen(c.stream, -1) == c.stream);  // outside the blocks: as it is
}

TEST_CASE("a block the views let go of lends its storage to the next one recomputed, same numbers") {
    StreamCase c;
    BlockFocus focus;
    focus.follow(c.model);
    std::vector<std::shared_ptr<const Trace>> streams;  // one pass each: blocks kept per stream
    for (int i = 0; i < 3; ++i) streams.push_back(std::make_shared<const Trace>(*c.stream));
    const int depth = c.model->config.depth;
    // Where each stage of a block seen lies, in order: the same list for two blocks means one
    // was written over the other's storage.
    const auto storage = [](const Trace& t) {
        std::vector<const float*> at;
        for (const Stage& s : t.stages()) at.push_back(s.tensor.data.data());
        return at;
    };
    const std::vector<const float*> first = storage(*focus.seen(streams[0], 0));
    bool lent = false;
    for (int n = 1; n < 3 * depth; ++n) {
        const int b = n % depth;
        const std::shared_ptr<const Trace> seen = focus.seen(streams[static_cast<size_t>(n / depth)], b);
        lent = lent || storage(*seen) == first;
        for (const Stage& s : c.full.stages())
            if (s.block == b) CHECK(seen->at(s.ref()).data == s.tensor.data);
    }
    REQUIRE(3 * depth > 5);  // more blocks than BlockFocus keeps: the first was let go
    CHECK(lent);
}

TEST_CASE("the Why numbers of a Stream trace are those of its full trace") {
    StreamCase c;
    const Explanation want = explain_class(*c.model, c.full, 3);
    const Explanation got = explain_class(*c.model, *c.stream, 3);
    REQUIRE(got.error.empty());
    CHECK(got.relevance == want.relevance);
    CHECK(got.saliency == want.saliency);
    REQUIRE(got.gradients);
    CHECK(got.gradients->at({StageKind::Attn, 0}).data == want.gradients->at({StageKind::Attn, 0}).data);
}

TEST_CASE("a pass keeps every stage when the app's traces fit, else only the stream") {
    const ModelConfig c = digits_config();
    const int64_t full = trace_bytes(c, c.preprocess.image_size);
    CHECK(keep_that_fits(c, 0, 4 * full, 4) == TraceKeep::Every);
    CHECK(keep_that_fits(c, 0, 4 * full - 1, 4) == TraceKeep::Stream);
}

TEST_CASE("a Stream trace's blocks walked give the full trace's rows and distances, dropped tokens too") {
    StreamCase c;
    Interventions dropped;
    dropped.drop_tokens = {2, 5};
    for (const Interventions& iv : {Interventions{}, dropped}) {
        const Trace full = forward(*c.model, c.input, iv);
        const auto stream = std::make_shared<const Trace>(forward(*c.model, c.input, iv, TraceKeep::Stream));
        const int token = 4, N = 16, T = 17;
        BlockWalk walk(c.model, stream, token);
        WalkedBlocks walked = walk.empty_result();
        std::mutex lock;
        int pieces = 1;
        while (walk.step(walked, lock)) ++pieces;
        CHECK(pieces == c.model->config.depth);
        REQUIRE(walked.complete());
        for (int b = 0; b < c.model->config.depth; ++b) {
            INFO("block " << b << ", " << iv.drop_tokens.size() << " dropped");
            const Tensor& attn = full.at({StageKind::Attn, b});
            CHECK(walked.distance[b] == mean_attention_distance(attn, patch_tokens(full, c.model->config)));
            const std::vector<float> square = square_in_image_order(attn, full.token_patches(), N);
            for (int h = 0; h < c.model->config.num_heads; ++h) {
                const float* want = tokens_reordered(full.token_patches(), N)
                                        ? square.data() + (static_cast<size_t>(h) * T + token) * T
                                        : attn.data.data() + (static_cast<size_t>(h) * T + token) * T;
                REQUIRE(walked.row(b, h));
                CHECK(std::vector<float>(walked.row(b, h), walked.row(b, h) + T) == std::vector<float>(want, want + T));
            }
        }
        CHECK_FALSE(walked.row(c.model->config.depth, 0));
    }
}
