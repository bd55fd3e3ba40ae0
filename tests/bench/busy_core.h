// The other program of vitviz-bench's contended rows: a child process that
// keeps one core busy, spinning from its start until the object goes.
#pragma once
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vit_bench {

class BusyCore {
public:
    BusyCore() : pid_(fork()) {
        if (pid_ != 0) return;
        for (volatile unsigned long spins = 0;; spins = spins + 1) {}
    }
    ~BusyCore() {
        if (pid_ <= 0) return;
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    BusyCore(const BusyCore&) = delete;
    BusyCore& operator=(const BusyCore&) = delete;

private:
    pid_t pid_;
};

}  // namespace vit_bench
