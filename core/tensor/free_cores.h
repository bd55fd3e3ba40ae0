// How many threads a pass can use without waiting on a busy core: the cores
// other programs leave free, measured between two readings of the machine's
// CPU time (Linux's /proc/stat) and this process's own (threads.cpp sizes
// each pass's team with it).
#pragma once
#include <optional>

namespace vit {

// One reading, in seconds: the steady clock, the time all the machine's cores
// spent busy since boot (user, system, interrupts, steal; niced time left out:
// a niced program yields its core to ours), and this process's CPU time.
struct CpuReading {
    double wall_s = 0, busy_s = 0, own_s = 0;
};

// The steady clock a reading's wall_s is read from, in seconds.
double steady_seconds();

// The reading now, or nullopt where /proc/stat cannot be read (not Linux, the browser).
std::optional<CpuReading> read_cpu();

// The team for `asked` threads on `cores` cores, from two readings: the cores
// other programs kept busy between them (the machine's busy time less ours,
// over the time between) taken from the cores; a core counts when at least
// kFreeCoreShare of it was free. From 1 to `asked`; `asked` when the readings
// span no time.
int team_for(const CpuReading& from, const CpuReading& to, int cores, int asked);

// The share of a core others must leave free for it to take a team member: a
// member on a core that others hold more than a quarter of the time is
// descheduled often enough to stall every barrier of the pass.
constexpr double kFreeCoreShare = 0.75;

}  // namespace vit
