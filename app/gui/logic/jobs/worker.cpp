// The threaded worker, the factory and Phases (see worker.h); the sliced
// worker is in sliced_worker.cpp.
#include "logic/jobs/worker.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace vit::gui {

namespace {

class ThreadTask : public Task {
public:
    explicit ThreadTask(std::shared_ptr<Job> job) : thread_([this, job] { run(*job); }) {}
    ~ThreadTask() override {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            cancelled_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    bool finished() const override { return finished_.load(); }
    void wake() override {
        { std::lock_guard<std::mutex> lock(mutex_); }  // a waiter checks ready() under it: no lost wake-up
        wake_.notify_all();
    }

private:
    void run(Job& job) {
        while (true) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return cancelled_ || job.ready(); });
                if (cancelled_) break;
            }
            if (!job.step()) break;
        }
        finished_ = true;
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    bool cancelled_ = false;
    std::atomic<bool> finished_{false};
    std::thread thread_;  // last: it starts once the rest is made
};

}  // namespace

std::unique_ptr<Task> ThreadedWorker::submit(std::shared_ptr<Job> job) {
    return std::make_unique<ThreadTask>(std::move(job));
}

std::shared_ptr<Worker> threaded_worker() {
    static const std::shared_ptr<Worker> worker = std::make_shared<ThreadedWorker>();
    return worker;
}

std::shared_ptr<Worker> make_worker(WorkerKind kind) {
    if (kind == WorkerKind::Sliced) return std::make_shared<SlicedWorker>();
    return threaded_worker();
}

bool Phases::step() {
    if (at_ < phases_.size() && !phases_[at_]()) ++at_;
    return at_ < phases_.size();
}

}  // namespace vit::gui
