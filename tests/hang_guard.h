// A test that could hang (opening a FIFO blocks until its other end comes)
// holds a HangGuard: should it still run after `seconds`, SIGALRM ends the
// test program, so a regression fails the test instead of hanging it.
#pragma once
#include <unistd.h>

struct HangGuard {
    explicit HangGuard(unsigned seconds = 2) { ::alarm(seconds); }
    ~HangGuard() { ::alarm(0); }
    HangGuard(const HangGuard&) = delete;
    HangGuard& operator=(const HangGuard&) = delete;
};
