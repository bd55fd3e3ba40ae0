// The one way the app runs its long work (passes, explanations, training) away
// from the drawing of frames. A Job is cut into bounded pieces (step()); a
// Worker runs the jobs submitted to it either each on its own thread
// (ThreadedWorker: the desktop app) or piece by piece on the UI thread
// (SlicedWorker: a single-threaded page calls advance() once per frame with a
// time budget, so the page stays live). Owners (Loader, ExplainJob,
// TrainingSession) take the worker when they are made; threaded by default.
#pragma once
#include <functional>
#include <memory>
#include <vector>

namespace vit::gui {

class Job {
public:
    virtual ~Job() = default;
    // Whether step() has work now; false while the job waits on its owner (a
    // paused training run). Owners call Task::wake() when that changes.
    virtual bool ready() const { return true; }
    // Does one bounded piece of the work; false once the job is over. Must not throw.
    virtual bool step() = 0;
};

// A submitted job as its owner holds it. Destroying it cancels the job between
// pieces (a threaded worker waits for the piece under way) and drops it.
class Task {
public:
    virtual ~Task() = default;
    // The job's step() returned false: its results are the owner's to read.
    virtual bool finished() const = 0;
    // The job may have become ready().
    virtual void wake() = 0;
};

class Worker {
public:
    virtual ~Worker() = default;
    virtual std::unique_ptr<Task> submit(std::shared_ptr<Job> job) = 0;
    // Runs pieces of the submitted jobs for about `budget_ms`; nothing for a threaded worker.
    virtual void advance(double budget_ms) = 0;
};

class ThreadPool;

// Each job on a thread of its own, its pieces back to back (waiting while not
// ready()); the threads are kept for the jobs after (worker.cpp's ThreadPool).
class ThreadedWorker : public Worker {
public:
    ThreadedWorker();
    ~ThreadedWorker() override;
    // `signal` is called on a job's thread after each job ends (the desktop wakes
    // its wait for events with it, instead of polling for the job's end).
    void signal_job_ends(std::function<void()> signal);
    std::unique_ptr<Task> submit(std::shared_ptr<Job> job) override;
    void advance(double) override {}

private:
    std::unique_ptr<ThreadPool> pool_;
};

// The jobs' pieces run from advance(), round robin over the ready jobs, until
// the budget is spent (at least one piece when a job is ready): an advance()
// overruns its budget by at most one piece. For one thread only.
class SlicedWorker : public Worker {
public:
    std::unique_ptr<Task> submit(std::shared_ptr<Job> job) override;
    void advance(double budget_ms) override;
    bool idle() const;                                                 // no job is ready
    double longest_advance_ms() const { return longest_advance_ms_; }  // over every advance()
    double longest_piece_ms() const { return longest_piece_ms_; }      // over every piece

    struct Entry;

private:
    std::vector<std::shared_ptr<Entry>> entries_;
    size_t next_ = 0;  // round robin
    double longest_advance_ms_ = 0, longest_piece_ms_ = 0;
};

enum class WorkerKind { Threaded, Sliced };
std::shared_ptr<Worker> make_worker(WorkerKind kind);

// The desktop's default: a threaded worker (it keeps no state: one serves every owner).
std::shared_ptr<ThreadedWorker> threaded_worker();

// A job as a run of phases, each called until it returns false (a phase that
// is one piece returns false at once); the job's pieces are its phases' calls.
class Phases {
public:
    void add(std::function<bool()> phase) { phases_.push_back(std::move(phase)); }
    // One piece; false once every phase is done.
    bool step();
    void run() {
        while (step()) {}
    }

private:
    std::vector<std::function<bool()>> phases_;
    size_t at_ = 0;
};

}  // namespace vit::gui
