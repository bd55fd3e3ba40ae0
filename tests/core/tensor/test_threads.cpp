// The thread owner's team sizing (tensor/free_cores.h, tensor/threads.h, tensor/team_tuner.h): the
// team for a pass from two CPU readings, injected here, and the live readings.
#include <catch2/catch.hpp>
#include "tensor/openmp.h"

#include "tensor/free_cores.h"
#include "tensor/team_tuner.h"
#include "tensor/threads.h"

namespace {

// Readings one second apart: `others` cores kept busy by other programs and
// `ours` by this process (both in the machine's busy time).
std::pair<vit::CpuReading, vit::CpuReading> second_with(double others, double ours) {
    const vit::CpuReading from{100.0, 5000.0, 20.0};
    return {from, {from.wall_s + 1.0, from.busy_s + others + ours, from.own_s + ours}};
}

int team(double others, double ours, int cores, int asked) {
    const auto [from, to] = second_with(others, ours);
    return vit::team_for(from, to, cores, asked);
}

}  // namespace

TEST_CASE("a quiet machine gives the pass every thread asked for, however busy the pass itself keeps it") {
    CHECK(team(0.0, 0.0, 2, 2) == 2);
    CHECK(team(0.0, 2.0, 2, 2) == 2);
    CHECK(team(0.1, 1.9, 2, 2) == 2);
    CHECK(team(0.0, 0.0, 16, 8) == 8);
}

TEST_CASE("a core another program keeps busy is taken from the team, never below one thread") {
    CHECK(team(1.0, 1.0, 2, 2) == 1);
    CHECK(team(0.67, 1.33, 2, 2) == 1);  // a spinner beside our team of 2, as /proc/stat sees it
    CHECK(team(2.0, 0.0, 2, 2) == 1);
    CHECK(team(5.0, 0.0, 4, 4) == 1);
    CHECK(team(1.0, 3.0, 4, 4) == 3);
}

TEST_CASE("a core counts as free only when others leave it at least kFreeCoreShare of the time") {
    const double held = 1.0 - vit::kFreeCoreShare;
    CHECK(team(held - 0.05, 0.0, 2, 2) == 2);
    CHECK(team(held + 0.05, 0.0, 2, 2) == 1);
}

TEST_CASE("readings that span no time, or run backwards, keep the asked threads") {
    const auto [from, to] = second_with(1.0, 0.0);
    CHECK(vit::team_for(from, from, 2, 2) == 2);
    CHECK(vit::team_for(to, from, 2, 2) == 2);
}

TEST_CASE("the live readings advance, and a pass's team stays within the asked threads", "[os]") {
    const auto first = vit::read_cpu();
    REQUIRE(first.has_value());  // Linux: /proc/stat
    volatile double sum = 0;
    for (int i = 0; i < 20000000; ++i) sum = sum + i;
    const auto second = vit::read_cpu();
    REQUIRE(second.has_value());
    CHECK(second->wall_s > first->wall_s);
    CHECK(second->own_s > first->own_s);
    CHECK(second->busy_s >= first->busy_s);
    vit::set_threads(0);
    const int team = vit::size_team_for_pass();
    CHECK(team >= 1);
    CHECK(team <= vit::machine_threads());
    CHECK(omp_get_max_threads() == team);
    vit::set_threads(1);
    CHECK(vit::size_team_for_pass() == 1);
    vit::set_threads(0);  // back to the default: all cores
}

TEST_CASE("a block's team is the threads asked when the reading suggests them, with nothing timed") {
    vit::TeamTuner tuner;
    CHECK(tuner.choose(2, 2, 100, 0.0) == 2);
    CHECK(tuner.choose(8, 8, 100, 0.0) == 8);
}

TEST_CASE("where the reading suggests fewer threads, blocks try both teams and keep the faster") {
    vit::TeamTuner tuner;
    // A misjudged quiet machine: the reading says 1, yet 2 threads run a block in half the time.
    REQUIRE(tuner.choose(1, 2, 100, 0.00) == 1);
    tuner.record(1, 100, 0.010, 0.01);
    REQUIRE(tuner.choose(1, 2, 100, 0.01) == 2);
    tuner.record(2, 100, 0.005, 0.015);
    CHECK(tuner.choose(1, 2, 100, 0.02) == 2);
    // A busy machine: the team of 2 stalls on the busy core and the reading's team wins.
    vit::TeamTuner busy;
    busy.record(1, 100, 0.010, 0.01);
    busy.record(2, 100, 0.016, 0.03);
    CHECK(busy.choose(1, 2, 100, 0.04) == 1);
}

TEST_CASE("the team not chosen is tried again after a while that doubles each time it loses") {
    using vit::TeamTuner;
    TeamTuner tuner;
    const double block = 0.001;  // the reading's team runs a block in 1 ms, whenever asked
    tuner.record(1, 100, block, 0.0);
    tuner.record(2, 100, 2 * block, 0.0);  // lost: tried again after 2 × kFirstRetrySeconds
    double wait = 2 * TeamTuner::kFirstRetrySeconds, at = 0.0;
    for (int loss = 0; loss < 8; ++loss) {
        tuner.record(1, 100, block, at + wait - 0.002);
        CHECK(tuner.choose(1, 2, 100, at + wait - 0.001) == 1);
        REQUIRE(tuner.choose(1, 2, 100, at + wait + 0.001) == 2);
        at += wait + 0.001;
        tuner.record(2, 100, 2 * block, at);
        wait = std::min(2 * wait, TeamTuner::kRetrySeconds);
    }
    CHECK(wait == TeamTuner::kRetrySeconds);
    // The machine's load went away: at its next try the asked team wins, and keeps winning.
    tuner.record(1, 100, block, at + wait - 0.002);
    REQUIRE(tuner.choose(1, 2, 100, at + wait + 0.001) == 2);
    tuner.record(2, 100, block / 2, at + wait + 0.002);
    CHECK(tuner.choose(1, 2, 100, at + wait + 0.003) == 2);
}

TEST_CASE("a slow block's team is tried again no sooner than kFirstRetryBlocks of its blocks") {
    vit::TeamTuner tuner;
    tuner.record(1, 100, 0.100, 0.0);  // ViT-L's blocks: 100 ms on one thread, 150 ms on a stalled team of 2
    tuner.record(2, 100, 0.150, 0.2);
    const double retry = 0.2 + 0.150 * vit::TeamTuner::kFirstRetryBlocks;  // 1.2 s, past 2 × kFirstRetrySeconds
    tuner.record(1, 100, 0.100, retry - 0.05);
    CHECK(tuner.choose(1, 2, 100, retry - 0.01) == 1);
    CHECK(tuner.choose(1, 2, 100, retry + 0.01) == 2);
}

TEST_CASE("blocks of other work (another model or size) start afresh") {
    vit::TeamTuner tuner;
    tuner.record(1, 100, 0.010, 0.00);
    tuner.record(2, 100, 0.005, 0.01);
    CHECK(tuner.choose(1, 2, 100, 0.011) == 2);
    CHECK(tuner.choose(1, 2, 999, 0.012) == 1);
}
