// The Train window's background run (app/gui/logic/jobs/training_session.h): paused
// starts and single steps, live batch changes, a run to its end with held-out
// accuracy, a bounded snapshot timeline, and choosing the snapshot to show; on
// the sliced worker (worker.h), a batch a piece, the threaded run's numbers.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <functional>
#include <thread>

#include "logic/jobs/training_session.h"
#include "logic/jobs/worker.h"

using namespace vit;
using namespace vit::gui;

namespace {

// The first `train` training digits and `held` held-out digits of the shipped set.
std::shared_ptr<const DigitSplit> small_split(int train, int held) {
    static const DigitSplit all = load_shipped_digits();
    auto take = [](const DigitSet& from, int n) {
        DigitSet s;
        s.pixels.assign(from.image(0), from.image(0) + static_cast<size_t>(n) * kDigitPixels);
        s.labels.assign(from.labels.begin(), from.labels.begin() + n);
        return s;
    };
    return std::make_shared<const DigitSplit>(DigitSplit{take(all.train, train), take(all.held_out, held)});
}

// Polls until `done` holds (true) or 60 s pass (false).
bool wait_for(const TrainingSession& s, const std::function<bool(const TrainProgress&)>& done) {
    for (int i = 0; i < 6000; ++i) {
        if (done(s.progress())) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

TrainOptions options(int epochs, int batch) {
    TrainOptions o;
    o.epochs = epochs;
    o.batch = batch;
    return o;
}

bool finished(const TrainProgress& p) { return p.phase == TrainPhase::Finished; }

// Advances `worker` as a page does each frame until `done` holds; the advances made.
int advance_until(SlicedWorker& worker, const TrainingSession& s, double budget_ms,
                  const std::function<bool(const TrainProgress&)>& done) {
    int advances = 0;
    for (; !done(s.progress()) && advances < 100000; ++advances) worker.advance(budget_ms);
    return advances;
}

float largest_change(const Model& a, const Model& b) {
    return (a.blocks[0].qkv_w - b.blocks[0].qkv_w).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("a paused run takes exactly the single steps asked for, and publishes each", "[train_session]") {
    TrainingSession session(vit::gui::threaded_worker());
    const Model initial = init_model(digits_config(), 3);
    session.start(initial, small_split(64, 20), options(2, 16), 1, 25, /*paused=*/true);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    TrainProgress p = session.progress();
    CHECK(p.phase == TrainPhase::Paused);
    CHECK(p.step == 0);
    REQUIRE(p.snapshots.size() == 1);
    CHECK(p.snapshots[0].step == 0);

    for (int i = 0; i < 3; ++i) session.step_once();
    REQUIRE(wait_for(session, [](const TrainProgress& q) { return q.step == 3; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // no fourth step follows
    p = session.progress();
    CHECK(p.step == 3);
    CHECK(p.phase == TrainPhase::Paused);
    REQUIRE(p.loss.size() == 3);
    for (const TrainPoint& l : p.loss) CHECK(std::isfinite(l.value));
    CHECK(p.snapshots.back().step == 3);  // paused steps are published at once
    CHECK(largest_change(*session.latest(), initial) > 0.f);
}

TEST_CASE("a run told to pause at a step stops there and publishes that step's weights", "[train_session]") {
    TrainingSession session(vit::gui::threaded_worker());
    session.start(init_model(digits_config(), 4), small_split(64, 20), options(4, 16), 1, 25, /*paused=*/true);
    session.pause_at(6);
    session.resume();
    REQUIRE(wait_for(session, [](const TrainProgress& q) { return q.phase == TrainPhase::Paused && q.step > 0; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // no seventh step follows
    const TrainProgress p = session.progress();
    CHECK(p.step == 6);
    CHECK(p.snapshots.back().step == 6);
    session.resume();  // on to the end (16 steps): the stop was used up
    REQUIRE(wait_for(session, [](const TrainProgress& q) { return q.phase == TrainPhase::Finished; }));
    CHECK(session.progress().step == 16);
}

TEST_CASE("a new batch size is taken before the next batch", "[train_session]") {
    TrainingSession session(vit::gui::threaded_worker());
    session.start(init_model(digits_config(), 1), small_split(64, 20), options(2, 16), 1, 25, true);
    session.set_batch(8);
    session.step_once();
    REQUIRE(wait_for(session, [](const TrainProgress& q) { return q.step == 1; }));
    const TrainProgress p = session.progress();
    CHECK(p.batch == 8);
    CHECK(p.steps_per_epoch == 8);  // 64 digits in batches of 8
    CHECK(p.total_steps == 16);
}

TEST_CASE("a run goes to its end, measuring held-out accuracy twice an epoch", "[train_session]") {
    TrainingSession session(vit::gui::threaded_worker());
    session.start(init_model(digits_config(), 2), small_split(64, 30), options(2, 16), 1);
    REQUIRE(wait_for(session, [](const TrainProgress& q) { return q.phase == TrainPhase::Finished; }));
    const TrainProgress p = session.progress();
    CHECK(p.step == 8);  // 2 epochs of 4 batches
    CHECK(p.loss.size() == 8);
    REQUIRE(p.accuracy.size() == 4);  // every 2 steps
    for (const TrainPoint& a : p.accuracy) CHECK((a.value >= 0.f && a.value <= 1.f));
    CHECK(p.accuracy.back().step == 8);
    CHECK(p.snapshots.back().step == 8);
    CHECK(p.snapshots.back().accuracy == p.accuracy.back().value);
}

TEST_CASE("the snapshot timeline stays bounded and spread over the whole run", "[train_session]") {
    TrainingSession session(vit::gui::threaded_worker());
    session.start(init_model(digits_config(), 4), small_split(100, 10), options(2, 1), 1, /*snapshot_every=*/1);
    REQUIRE(wait_for(session, [](const TrainProgress& q) { return q.phase == TrainPhase::Finished; }));
    const TrainProgress p = session.progress();
    CHECK(p.step == 200);
    CHECK(static_cast<int>(p.snapshots.size()) <= TrainingSession::kMaxSnapshots);
    CHECK(p.snapshots.size() >= 32);
    CHECK(p.snapshots.front().step == 0);
    CHECK(p.snapshots.back().step == 200);
    for (size_t i = 1; i < p.snapshots.size(); ++i) CHECK(p.snapshots[i].step > p.snapshots[i - 1].step);
}

TEST_CASE("the shown snapshot is the newest when following, else the chosen one, clamped", "[train_session]") {
    TrainProgress p;
    CHECK(choose_snapshot(p, true, 0) == nullptr);
    for (int s : {0, 25, 50}) p.snapshots.push_back({s, 0.f, -1.f, nullptr});
    CHECK(choose_snapshot(p, true, 0)->step == 50);
    CHECK(choose_snapshot(p, false, 1)->step == 25);
    CHECK(choose_snapshot(p, false, 9)->step == 50);
    CHECK(choose_snapshot(p, false, -3)->step == 0);
}

TEST_CASE("stopping a running session returns at once and keeps its progress", "[train_session]") {
    TrainingSession session(vit::gui::threaded_worker());
    session.start(init_model(digits_config(), 5), small_split(64, 10), options(50, 4), 1);
    REQUIRE(wait_for(session, [](const TrainProgress& q) { return q.step >= 2; }));
    session.stop();
    const int step = session.progress().step;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(session.progress().step == step);
    CHECK(step < session.progress().total_steps);
}

TEST_CASE("a run on the sliced worker takes a batch a piece and gives the threaded run's numbers", "[train_session]") {
    const auto data = small_split(64, 100);
    TrainingSession threaded(vit::gui::threaded_worker());
    threaded.start(init_model(digits_config(), 6), data, options(1, 16), 1);
    REQUIRE(wait_for(threaded, finished));
    auto worker = std::make_shared<SlicedWorker>();
    TrainingSession sliced(worker);
    sliced.start(init_model(digits_config(), 6), data, options(1, 16), 1);
    const double budget_ms = 0;  // no time: one piece an advance
    // Making the trainer, 4 batches, and the 100 held-out digits twice in 2 pieces each.
    CHECK(advance_until(*worker, sliced, budget_ms, finished) == 1 + 4 + 2 * 2);
    const TrainProgress a = threaded.progress(), b = sliced.progress();
    REQUIRE(b.loss.size() == 4);
    REQUIRE(a.loss.size() == b.loss.size());
    for (size_t i = 0; i < a.loss.size(); ++i) CHECK(a.loss[i].value == b.loss[i].value);  // bit for bit
    REQUIRE(b.accuracy.size() == 2);
    REQUIRE(a.accuracy.size() == b.accuracy.size());
    for (size_t i = 0; i < a.accuracy.size(); ++i) CHECK(a.accuracy[i].value == b.accuracy[i].value);
    CHECK(largest_change(*threaded.latest(), *sliced.latest()) == 0.f);
    CHECK(worker->longest_advance_ms() <= budget_ms + worker->longest_piece_ms() + 5.0);
}

TEST_CASE("on the sliced worker a paused run is idle, and a stopped run is replaced by a new one", "[train_session]") {
    auto worker = std::make_shared<SlicedWorker>();
    TrainingSession session(worker);
    session.start(init_model(digits_config(), 5), small_split(64, 10), options(50, 4), 1, 25, /*paused=*/true);
    worker->advance(1.0);  // makes the trainer, then waits
    CHECK(worker->idle());
    session.step_once();
    CHECK(advance_until(*worker, session, 1.0, [](const TrainProgress& q) { return q.step == 1; }) == 1);
    CHECK(worker->idle());
    session.resume();
    advance_until(*worker, session, 1.0, [](const TrainProgress& q) { return q.step >= 3; });
    session.stop();
    const int step = session.progress().step;
    worker->advance(50.0);
    CHECK(session.progress().step == step);
    CHECK(worker->idle());
    session.start(init_model(digits_config(), 5), small_split(64, 10), options(1, 16), 1);
    advance_until(*worker, session, 5.0, finished);
    const TrainProgress p = session.progress();
    CHECK(p.step == 4);
    CHECK(p.loss.size() == 4);                                                       // the new run's only
    CHECK(worker->longest_advance_ms() <= 50.0 + worker->longest_piece_ms() + 5.0);  // at most a piece over
}
