#include <jb/sampling/Sampler.h>

#include <jb/base/Clock.h>
#include <jb/stats/Statistics.h>

#include <QLoggingCategory>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <pthread.h>
#include <sched.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

Q_LOGGING_CATEGORY(lcSampler, "joulebench.sampler", QtWarningMsg)

namespace jb {

namespace {
// steady_clock is CLOCK_MONOTONIC on Linux and macOS: the same clock as monotonicNs().
std::chrono::steady_clock::time_point toSteady(std::int64_t t_ns)
{
    return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(t_ns));
}
}  // namespace

Sampler::Sampler(std::unique_ptr<EnergyCounter> counter, std::int64_t period_ns, TimeSource& time)
    : time_(time)
    , counter_(std::move(counter))
    , spec_(counter_->spec())
    , period_ns_(std::max<std::int64_t>(period_ns, 1'000'000))
    , store_(std::make_shared<SampleStore>())
{
}

Sampler::~Sampler()
{
    stop();
}

void Sampler::setErrorHandler(std::function<void(const std::string&)> onError)
{
    on_error_ = std::move(onError);
}

Status Sampler::start()
{
    if (running_.load())
        return Ok{};
    auto first = counter_->readNj();
    if (!first)
        return Error{first.error()};
    stop_.store(false);
    running_.store(true);
    prev_nj_ = first.value();
    tp_ = start_ns_ = time_.nowNs();
    k_ = 0;
    previous_error_.clear();
    if (time_.simulated()) {
        sim_timer_ = time_.timer(nullptr, [this] {
            readDue();
            sim_timer_->start(start_ns_ + (k_ + 1) * period_ns_ - time_.nowNs());
        });
        sim_timer_->start(period_ns_);
        return Ok{};
    }
    thread_ = std::thread(&Sampler::loop, this);
    return Ok{};
}

void Sampler::stop()
{
    if (sim_timer_) {
        sim_timer_->stop();
        sim_timer_.reset();
        running_.store(false);
        return;
    }
    if (!thread_.joinable())
        return;
    {
        std::lock_guard lock(wake_mutex_);
        stop_.store(true);
    }
    wake_cv_.notify_all();
    thread_.join();
    running_.store(false);
}

// Wake-ups on time: no timer slack (Linux rounds sleeps up by 50 us by default), and a
// real-time priority where the user may have one (root, CAP_SYS_NICE, rtprio limits); the
// thread sleeps all but a few microseconds a period, so it takes nothing from the workload.
static void tuneSamplerThread()
{
#ifdef __linux__
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
    sched_param sp{};
    sp.sched_priority = sched_get_priority_min(SCHED_FIFO);
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) != 0)
        qCDebug(lcSampler, "no real-time priority for the sampler thread; it runs at normal priority");
}

void Sampler::loop()
{
    tuneSamplerThread();
    while (!stop_.load()) {
        const std::int64_t deadline = start_ns_ + (k_ + 1) * period_ns_;
        {
            std::unique_lock lock(wake_mutex_);
            wake_cv_.wait_until(lock, toSteady(deadline), [this] { return stop_.load(); });
        }
        if (stop_.load())
            break;
        readDue();
    }
}

void Sampler::readDue()
{
    ++k_;
    const std::int64_t deadline = start_ns_ + k_ * period_ns_;
    const std::int64_t woke = time_.nowNs();
    const std::int64_t late = woke - deadline;
    std::int64_t skipped = 0;
    if (late >= period_ns_) {
        // Deadlines passed while we were late: skip them rather than read in a burst.
        skipped = late / period_ns_;
        k_ += skipped;
    }
    auto cur = counter_->readNj();
    const std::int64_t tc = time_.nowNs();
    if (!cur) {
        {
            std::lock_guard lock(fig_mutex_);
            ++read_errors_;
            last_error_ = cur.error();
            if (cur.error().rfind("read fault:", 0) == 0) {
                ++read_faults_;
                last_fault_ = cur.error();
            }
            last_read_ns_ = tc;
            lateness_ns_.push_back(std::max<std::int64_t>(late, 0));
            missed_ += skipped;
        }
        if (cur.error() != previous_error_) {
            qCWarning(lcSampler, "%s: %s", spec_.c_str(), cur.error().c_str());
            if (on_error_)
                on_error_(cur.error());
            previous_error_ = cur.error();
        }
        return;  // the next good read closes an interval spanning the gap
    }
    previous_error_.clear();
    const std::int64_t nj = cur.value() - prev_nj_;
    const double ceiling_w = counter_->plausibleMaxW();
    if (ceiling_w > 0 && tc > tp_ && double(nj) / double(tc - tp_) > ceiling_w) {
        // A jump no hardware could make: a read fault, left out of the figures.
        const std::string msg = "read fault: an interval of " + std::to_string(double(nj) / double(tc - tp_)) +
                                " W, above the " + std::to_string(int(ceiling_w)) +
                                " W this counter's hardware could draw; the interval is left out";
        {
            std::lock_guard lock(fig_mutex_);
            ++read_faults_;
            last_fault_ = msg;
            lateness_ns_.push_back(std::max<std::int64_t>(late, 0));
            missed_ += skipped;
            last_read_ns_ = tc;
        }
        qCWarning(lcSampler, "%s: %s", spec_.c_str(), msg.c_str());
        if (on_error_)
            on_error_(msg);
        prev_nj_ = cur.value();
        tp_ = tc;
        return;
    }
    store_->append({tp_, tc, nj});
    {
        std::lock_guard lock(fig_mutex_);
        lateness_ns_.push_back(std::max<std::int64_t>(late, 0));
        missed_ += skipped;
        last_read_ns_ = tc;
        if (nj != 0)
            change_times_ns_.push_back(tc);
        if (nj > 0 && (min_advance_nj_ == 0 || nj < min_advance_nj_))
            min_advance_nj_ = nj;
    }
    prev_nj_ = cur.value();
    tp_ = tc;
}

SamplerFigures Sampler::figures() const
{
    SamplerFigures f;
    f.period_s = double(period_ns_) / 1e9;
    f.intervals = std::int64_t(store_->size());
    std::lock_guard lock(fig_mutex_);
    if (!lateness_ns_.empty()) {
        std::vector<double> l(lateness_ns_.begin(), lateness_ns_.end());
        f.lateness_p50_ns = std::int64_t(quantile(l, 0.5));
        f.lateness_p99_ns = std::int64_t(quantile(l, 0.99));
        f.lateness_max_ns = *std::max_element(lateness_ns_.begin(), lateness_ns_.end());
    }
    f.missed_deadlines = missed_;
    f.read_errors = read_errors_;
    if (!last_error_.empty())
        f.last_error = last_error_;
    if (change_times_ns_.size() >= 2) {
        std::vector<double> d;
        d.reserve(change_times_ns_.size() - 1);
        for (std::size_t i = 1; i < change_times_ns_.size(); ++i)
            d.push_back(double(change_times_ns_[i] - change_times_ns_[i - 1]) / 1e6);
        f.update_cadence_ms = median(std::move(d));
    }
    return f;
}

nlohmann::ordered_json Sampler::counterInfo() const
{
    nlohmann::ordered_json j = counter_->info();
    const SamplerFigures f = figures();
    j["update_cadence_ms"] = f.update_cadence_ms ? nlohmann::ordered_json(*f.update_cadence_ms)
                                                 : nlohmann::ordered_json(nullptr);
    j["integrity"] = integrity();
    return j;
}

Sampler::StallFigures Sampler::stallFigures() const
{
    StallFigures s;
    if (change_times_ns_.size() < 2)
        return s;
    std::vector<double> d;
    d.reserve(change_times_ns_.size() - 1);
    for (std::size_t i = 1; i < change_times_ns_.size(); ++i)
        d.push_back(double(change_times_ns_[i] - change_times_ns_[i - 1]) / 1e6);
    s.cadence_ms = median(d);
    // Stalled: no advance for 20 cadences (and at least 10 periods and 1 s) after advancing.
    s.threshold_ms = std::max({20.0 * *s.cadence_ms, 10.0 * double(period_ns_) / 1e6, 1000.0});
    for (double g : d) {
        s.longest_stall_ms = std::max(s.longest_stall_ms, g);
        s.stalls += g > s.threshold_ms ? 1 : 0;
    }
    const double tail_ms = double(last_read_ns_ - change_times_ns_.back()) / 1e6;
    if (tail_ms > s.threshold_ms) {
        s.stalled_at_end = true;
        ++s.stalls;
        s.longest_stall_ms = std::max(s.longest_stall_ms, tail_ms);
    }
    return s;
}

double Sampler::neverAdvancedMs() const
{
    if (!change_times_ns_.empty() || store_->size() < 10)
        return 0;
    const auto first = store_->slice(0, 1);
    const double span_ms = first.empty() ? 0 : double(last_read_ns_ - first.front().t0_ns) / 1e6;
    return span_ms >= 2000 ? span_ms : 0;
}

nlohmann::ordered_json Sampler::integrity() const
{
    using oj = nlohmann::ordered_json;
    std::lock_guard lock(fig_mutex_);
    const StallFigures st = stallFigures();
    oj j;
    j["read_faults"] = read_faults_;
    j["last_fault"] = last_fault_.empty() ? oj(nullptr) : oj(last_fault_);
    j["plausible_max_w"] = counter_->plausibleMaxW() > 0 ? oj(counter_->plausibleMaxW()) : oj(nullptr);
    j["stalls"] = st.stalls;
    j["longest_stall_ms"] = st.longest_stall_ms;
    j["stalled_at_end"] = st.stalled_at_end;
    const std::optional<double> unit_nj = unitResolutionNj(counter_->info());
    j["resolution_nj"] = unit_nj ? oj(*unit_nj) : oj(nullptr);
    j["least_step_nj"] = min_advance_nj_ > 0 ? oj(min_advance_nj_) : oj(nullptr);
    j["update_cadence_ms"] = st.cadence_ms ? oj(*st.cadence_ms) : oj(nullptr);
    const double period_ms = double(period_ns_) / 1e6;
    const bool coarse = st.cadence_ms && *st.cadence_ms > 1.5 * period_ms;
    j["period_shorter_than_cadence"] = coarse;
    j["suggested_sample_ms"] = coarse ? oj(std::ceil(*st.cadence_ms / 10.0) * 10.0) : oj(nullptr);
    j["never_advanced_ms"] = neverAdvancedMs() > 0 ? oj(neverAdvancedMs()) : oj(nullptr);
    return j;
}

std::optional<double> Sampler::leastStepNj(const nlohmann::ordered_json& integrity)
{
    if (!integrity.is_object())
        return std::nullopt;
    // A record that has least_step_nj means it, null included; an older one said resolution_nj.
    const auto it = integrity.find(integrity.contains("least_step_nj") ? "least_step_nj" : "resolution_nj");
    if (it == integrity.end() || !it->is_number())
        return std::nullopt;
    return it->get<double>();
}

std::optional<double> Sampler::unitResolutionNj(const nlohmann::ordered_json& info)
{
    if (!info.is_object())
        return std::nullopt;
    if (const auto it = info.find("resolution_nj"); it != info.end() && it->is_number())
        return it->get<double>();
    const auto it = info.find("unit");
    if (it == info.end() || !it->is_string())
        return std::nullopt;
    const std::string u = it->get<std::string>();
    if (u == "nJ")
        return 1.0;
    if (u == "uJ")
        return 1e3;
    if (u == "mJ")
        return 1e6;
    if (u == "J")
        return 1e9;
    return std::nullopt;
}

std::vector<std::string> Sampler::integrityWarnings() const
{
    const nlohmann::ordered_json j = integrity();
    std::vector<std::string> w;
    if (j["read_faults"].get<std::int64_t>() > 0)
        w.push_back(spec_ + ": " + std::to_string(j["read_faults"].get<std::int64_t>()) +
                    " read fault(s) excluded from the figures (last: " + j["last_fault"].get<std::string>() + ")");
    if (j["stalls"].get<int>() > 0)
        w.push_back(spec_ + ": the counter stalled " + std::to_string(j["stalls"].get<int>()) +
                    " time(s) (longest " + std::to_string(std::llround(j["longest_stall_ms"].get<double>())) +
                    " ms without an advance after it had advanced every " +
                    std::to_string(std::llround(j["update_cadence_ms"].get<double>())) + " ms" +
                    (j["stalled_at_end"].get<bool>() ? "; still stalled at the end" : "") +
                    "): energy in that time is missing");
    if (!j["never_advanced_ms"].is_null()) {
        // The counter may say why (IOReport: frozen at a value, or reading 0).
        const nlohmann::ordered_json info = counter_->info();
        const auto pub = info.find("publication");
        const bool why = pub != info.end() && pub->is_object() && pub->contains("note") &&
            (*pub)["note"].is_string();
        w.push_back(spec_ + ": the counter never advanced in " +
                    std::to_string(std::llround(j["never_advanced_ms"].get<double>())) +
                    " ms of reads: it is frozen, dead or publishes less often than the run lasts, so every "
                    "figure of it is 0 and its energy is missing" +
                    (why ? " (" + (*pub)["note"].get<std::string>() + ")" : std::string()));
    }
    if (j["period_shorter_than_cadence"].get<bool>())
        w.push_back(spec_ + ": the sampling period (" + std::to_string(std::llround(double(period_ns_) / 1e6)) +
                    " ms) is shorter than the counter's update cadence (" +
                    std::to_string(std::llround(j["update_cadence_ms"].get<double>())) +
                    " ms): most intervals see no change; use --sample-ms " +
                    std::to_string(std::llround(j["suggested_sample_ms"].get<double>())) + " or more");
    return w;
}

}  // namespace jb
