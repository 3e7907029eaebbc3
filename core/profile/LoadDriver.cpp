#include <jb/profile/LoadDriver.h>

#include <jb/base/Clock.h>
#include <jb/child/Protocol.h>

#include <QProcess>
#include <QStringList>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

namespace jb {

namespace {

// Sleeps until the monotonic clock reaches t_ns (the last 200 us spinning, for sharp edges), or
// until stop() is true (looked at every 10 ms at most).
template <class Stop>
void waitUntil(std::int64_t t_ns, Stop stop)
{
    for (;;) {
        if (stop())
            return;
        const std::int64_t left = t_ns - monotonicNs();
        if (left <= 0)
            return;
        if (left > 300'000)
            std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<std::int64_t>(left - 200'000, 10'000'000)));
    }
}

class CpuBurn final : public LoadDriver {
public:
    explicit CpuBurn(int threads) : threads_(threads) {}
    ~CpuBurn() override
    {
        {
            std::lock_guard lock(m_);
            quit_ = true;
        }
        cv_.notify_all();
        for (auto& t : workers_)
            t.join();
    }
    Status start() override
    {
        int n = threads_;
        if (n <= 0)
            n = std::max(1, int(std::thread::hardware_concurrency()) - 1);
        for (int i = 0; i < n; ++i)
            workers_.emplace_back([this] { work(); });
        return Ok{};
    }
    Result<Pulse> pulse(double ms) override
    {
        Pulse p;
        {
            std::lock_guard lock(m_);
            on_.store(true, std::memory_order_relaxed);
        }
        cv_.notify_all();
        p.t0_ns = monotonicNs();
        waitUntil(p.t0_ns + std::int64_t(ms * 1e6), [this] { return cancelled(); });
        on_.store(false, std::memory_order_relaxed);
        p.t1_ns = monotonicNs();
        return p;
    }
    std::string describe() const override
    {
        return "CPU burn (" + std::to_string(workers_.size()) + " thread(s))";
    }

private:
    void work()
    {
        volatile double x = 1.0;
        for (;;) {
            {
                std::unique_lock lock(m_);
                cv_.wait(lock, [this] { return quit_ || on_.load(std::memory_order_relaxed); });
                if (quit_)
                    return;
            }
            while (on_.load(std::memory_order_relaxed))
                for (int i = 0; i < 1000; ++i)
                    x = x * 1.0000001 + 1e-9;
        }
    }

    int threads_;
    std::vector<std::thread> workers_;
    std::mutex m_;
    std::condition_variable cv_;
    std::atomic<bool> on_{false};
    bool quit_ = false;
};

class FlagFile final : public LoadDriver {
public:
    explicit FlagFile(std::string path) : path_(std::move(path)) {}
    ~FlagFile() override { std::remove(path_.c_str()); }
    Status start() override
    {
        std::remove(path_.c_str());
        if (!std::ofstream(path_ + ".probe"))
            return Error{"load file '" + path_ + "': cannot write beside it"};
        std::remove((path_ + ".probe").c_str());
        return Ok{};
    }
    Result<Pulse> pulse(double ms) override
    {
        Pulse p;
        p.t0_ns = monotonicNs();
        write(path_, "busy 0 " + std::to_string(p.t0_ns) + "\n");
        waitUntil(p.t0_ns + std::int64_t(ms * 1e6), [this] { return cancelled(); });
        // The flag goes first, so that a reader that only looks whether it exists (the fake
        // NVML's power reading) sees the load end when it ends; then its end time.
        std::remove(path_.c_str());
        p.t1_ns = monotonicNs();
        write(path_ + ".end", std::to_string(p.t1_ns) + " " + std::to_string(p.t0_ns) + "\n");
        return p;
    }
    std::string describe() const override { return "load file " + path_; }

private:
    static void write(const std::string& path, const std::string& text)
    {
        const std::string tmp = path + ".tmp";
        std::ofstream(tmp) << text;
        std::rename(tmp.c_str(), path.c_str());
    }
    std::string path_;
};

class GpuProgram final : public LoadDriver {
public:
    GpuProgram(std::string program, std::vector<std::string> args) : program_(std::move(program)), args_(std::move(args))
    {}
    ~GpuProgram() override
    {
        if (p_.state() != QProcess::NotRunning) {
            p_.write(formatExit().c_str());
            if (!p_.waitForFinished(3000)) {
                p_.kill();
                p_.waitForFinished(3000);
            }
        }
    }
    Status start() override
    {
        QStringList a{QStringLiteral("serve")};
        for (const auto& s : args_)
            a << QString::fromStdString(s);
        p_.setProgram(QString::fromStdString(program_));
        p_.setArguments(a);
        p_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p_.start();
        if (!p_.waitForStarted(10000))
            return Error{"cannot start " + program_ + ": " + p_.errorString().toStdString()};
        auto line = readLine(60000);
        if (!line)
            return Error{line.error()};
        if (auto r = parseReady(*line); !r)
            return Error{program_ + ": " + r.error()};
        // A pass's time: the median of a few single passes (after one to warm up).
        std::vector<double> ms;
        for (int i = 0; i < 6; ++i) {
            auto d = go(1);
            if (!d)
                return Error{d.error()};
            if (i > 0)
                ms.push_back(d->seconds() * 1e3);
        }
        std::sort(ms.begin(), ms.end());
        pass_ms_ = std::max(0.01, ms[ms.size() / 2]);
        return Ok{};
    }
    Result<Pulse> pulse(double ms) override { return go(std::max(1, int(ms / pass_ms_ + 0.5))); }
    double shortestMs() const override { return pass_ms_; }
    std::string describe() const override
    {
        return program_ + " serve (a pass " + std::to_string(pass_ms_) + " ms)";
    }

private:
    Result<std::string> readLine(int timeout_ms)
    {
        const auto deadline = monotonicNs() + std::int64_t(timeout_ms) * 1'000'000;
        while (!p_.canReadLine()) {
            const auto left = (deadline - monotonicNs()) / 1'000'000;
            if (left <= 0 || p_.state() == QProcess::NotRunning)
                return Error{program_ + ": no answer (" +
                             (p_.state() == QProcess::NotRunning ? std::string("it exited") : "timed out") + ")"};
            p_.waitForReadyRead(int(std::min<std::int64_t>(left, 1000)));
        }
        std::string s = p_.readLine().toStdString();
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
            s.pop_back();
        return s;
    }
    Result<Pulse> go(int k)
    {
        const std::int64_t sent = monotonicNs();
        p_.write(formatGo(k).c_str());
        p_.waitForBytesWritten(1000);
        auto line = readLine(600000);
        if (!line)
            return Error{line.error()};
        const std::int64_t got = monotonicNs();
        auto d = parseDone(*line);
        if (!d)
            return Error{program_ + ": " + d.error()};
        Pulse p;
        p.t1_ns = got;
        // The work's own wall time, ending at its answer (a pipe's latency is microseconds, but
        // a loaded machine can leave the answer unread for tens of ms).
        p.t0_ns = std::max(sent, got - d->wall_ns);
        // Where the program says when the work ran (joulebench-gpu-load: ran=<start>,<end> by
        // CLOCK_MONOTONIC, this machine's clock for every process), its stamps, if they fall
        // within the exchange.
        if (auto ran = ranStamps(*d); ran && sent <= ran->start_ns && ran->start_ns <= ran->end_ns && ran->end_ns <= got) {
            p.t0_ns = ran->start_ns;
            p.t1_ns = ran->end_ns;
        }
        return p;
    }

    std::string program_;
    std::vector<std::string> args_;
    QProcess p_;
    double pass_ms_ = 1.0;
};

}  // namespace

std::string autoLoadFor(const std::string& spec, CounterKind kind)
{
    if (spec == "sim")
        return "cpu";
    switch (kind) {
    case CounterKind::NvmlEnergy:
    case CounterKind::NvmlPowerInstant:
    case CounterKind::NvmlPowerAverage:
    case CounterKind::IOReportGpu:
    case CounterKind::HwmonPower:
        return "gpu";
    default:
        return "cpu";
    }
}

std::unique_ptr<LoadDriver> cpuBurnLoad(int threads)
{
    return std::make_unique<CpuBurn>(threads);
}

std::unique_ptr<LoadDriver> flagFileLoad(const std::string& path)
{
    return std::make_unique<FlagFile>(path);
}

std::unique_ptr<LoadDriver> gpuProgramLoad(const std::string& program, const std::vector<std::string>& args)
{
    return std::make_unique<GpuProgram>(program, args);
}

}  // namespace jb
