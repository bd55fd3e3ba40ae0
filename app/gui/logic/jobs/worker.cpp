// The threaded worker, the factory and Phases (see worker.h); the sliced
// worker is in sliced_worker.cpp.
#include "logic/jobs/worker.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace vit::gui {

namespace {

// One submitted job as its task and the thread running it share it.
struct Run {
    explicit Run(std::shared_ptr<Job> j) : job(std::move(j)) {}
    std::shared_ptr<Job> job;  // dropped by the thread when it lets go of the run
    std::mutex mutex;
    std::condition_variable wake;
    bool cancelled = false;
    bool released = false;  // the thread is done with the job
    std::atomic<bool> finished{false};
};

// The job's pieces back to back, waiting while it is not ready, until it ends or is cancelled.
void execute(Run& run) {
    while (true) {
        {
            std::unique_lock<std::mutex> lock(run.mutex);
            run.wake.wait(lock, [&] { return run.cancelled || run.job->ready(); });
            if (run.cancelled) break;
        }
        if (!run.job->step()) {
            run.finished = true;
            break;
        }
    }
    run.job.reset();
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        run.released = true;
    }
    run.wake.notify_all();
}

}  // namespace

// Threads that outlive their jobs: the next job runs on a thread that is free, so
// that its pass finds the thread's OpenMP team and packing buffers as the last
// pass left them (a new thread per job made both anew, page by page); a new
// thread only when every one is busy.
class ThreadPool {
public:
    ~ThreadPool() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            quitting_ = true;
        }
        queued_.notify_all();
        for (std::thread& t : threads_) t.join();
    }
    void signal_job_ends(std::function<void()> signal) {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ended_ = std::move(signal);
    }
    void start(std::shared_ptr<Run> run) {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(std::move(run));
        if (free_ > 0) {
            --free_;
            queued_.notify_one();
        } else {
            threads_.emplace_back([this] { serve(); });
        }
    }

private:
    void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (true) {
            queued_.wait(lock, [&] { return quitting_ || !queue_.empty(); });
            if (queue_.empty()) return;  // quitting
            std::shared_ptr<Run> run = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            execute(*run);
            run.reset();
            lock.lock();
            ++free_;
            if (job_ended_) job_ended_();
        }
    }

    std::mutex mutex_;
    std::condition_variable queued_;
    std::deque<std::shared_ptr<Run>> queue_;
    int free_ = 0;  // threads waiting that no queued run has claimed
    bool quitting_ = false;
    std::function<void()> job_ended_;
    std::vector<std::thread> threads_;
};

namespace {

class ThreadTask : public Task {
public:
    ThreadTask(ThreadPool& pool, std::shared_ptr<Job> job) : run_(std::make_shared<Run>(std::move(job))) {
        pool.start(run_);
    }
    ~ThreadTask() override {
        std::unique_lock<std::mutex> lock(run_->mutex);
        run_->cancelled = true;
        run_->wake.notify_all();
        run_->wake.wait(lock, [&] { return run_->released; });
    }
    bool finished() const override { return run_->finished.load(); }
    void wake() override {
        { std::lock_guard<std::mutex> lock(run_->mutex); }  // a waiter checks ready() under it: no lost wake-up
        run_->wake.notify_all();
    }

private:
    std::shared_ptr<Run> run_;
};

}  // namespace

ThreadedWorker::ThreadedWorker() : pool_(std::make_unique<ThreadPool>()) {}
ThreadedWorker::~ThreadedWorker() = default;

void ThreadedWorker::signal_job_ends(std::function<void()> signal) { pool_->signal_job_ends(std::move(signal)); }

std::unique_ptr<Task> ThreadedWorker::submit(std::shared_ptr<Job> job) {
    return std::make_unique<ThreadTask>(*pool_, std::move(job));
}

std::shared_ptr<ThreadedWorker> threaded_worker() {
    static const std::shared_ptr<ThreadedWorker> worker = std::make_shared<ThreadedWorker>();
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
