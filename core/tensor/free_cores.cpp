// The free cores from /proc/stat and the process's CPU clock (see free_cores.h).
#include "tensor/free_cores.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <string>

namespace vit {

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::optional<CpuReading> read_cpu() {
    std::ifstream stat("/proc/stat");
    std::string label;
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    if (!(stat >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || label != "cpu")
        return std::nullopt;
    timespec own{};
    const long ticks = sysconf(_SC_CLK_TCK);
    if (ticks <= 0 || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &own) != 0) return std::nullopt;
    return CpuReading{steady_seconds(), (user + system + irq + softirq + steal) / static_cast<double>(ticks),
                      static_cast<double>(own.tv_sec) + own.tv_nsec * 1e-9};
}

int team_for(const CpuReading& from, const CpuReading& to, int cores, int asked) {
    const double span = to.wall_s - from.wall_s;
    if (span <= 0) return asked;
    const double others = std::max(0.0, (to.busy_s - from.busy_s) - (to.own_s - from.own_s)) / span;
    const double free_cores = cores - others;
    const int team = static_cast<int>(std::floor(free_cores + (1.0 - kFreeCoreShare)));
    return std::clamp(team, 1, std::max(asked, 1));
}

}  // namespace vit
