#pragma once
// `characterize` for the dashboard: opens the counter and its load and runs the measurement on a
// thread of its own, handing its live feed to the thread this object lives on through a Mailbox
// (the worker never touches the caller's objects), folded into live(); at the end it keeps the
// profile in the record library per host and counter, as the CLI's `characterize` does
// (keepProfile). stop() sets characterize's cancel flag: the run ends within about a pulse; the
// destructor stops and joins.
#include <jb/base/Result.h>
#include <jb/counters/CounterProfile.h>
#include <jb/counters/CounterRegistry.h>
#include <jb/profile/Characterize.h>
#include <jb/profile/CharacterizeLive.h>

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

namespace jb {

class Mailbox;

// Keeps a measured profile in the record library (librarySpec(library_flag): the flag, else
// $JOULEBENCH_LIBRARY, else the user's library), one per host and counter, the latest kept.
// Returns the library's spec; the error says why it could not be kept.
Result<std::string> keepProfile(const CounterProfile& profile, const std::string& library_flag = "");

struct CharacterizeSetup {
    std::string spec = "sim";
    CounterOptions counter;
    CharacterizeOptions options;  // its feed and cancel are the run's own
    std::string load = "auto";    // auto (autoLoadFor), cpu, gpu or file:PATH
    int threads = 0;              // CPU burn threads (0: all cores but one)
    std::string gpu_load_program; // joulebench-gpu-load (empty: beside this program)
    bool keep = true;             // keep the profile in the record library
    std::string library;          // keepProfile's library_flag
};

class CharacterizeRun : public QObject {
    Q_OBJECT
public:
    explicit CharacterizeRun(QObject* parent = nullptr);
    ~CharacterizeRun() override;

    // False (nothing started) while a run is under way.
    bool start(const CharacterizeSetup& setup);
    // Asks the run to end; finishedWithError("cancelled") follows.
    void stop();
    bool running() const { return running_; }
    const CharacterizeLive& live() const { return live_; }
    const std::string& spec() const { return spec_; }

signals:
    void started(const QString& spec, const QString& load);  // the counter and its load are open
    void advanced();                                          // live() has grown
    // The measured profile; kept: the library it was kept in, or why it was not ("": not asked).
    void finished(const jb::CounterProfile& profile, const QString& kept, bool was_kept);
    void failed(const QString& error, bool cancelled);

private:
    void work(CharacterizeSetup setup);
    void joinWorker();

    Mailbox* mailbox_ = nullptr;
    std::thread worker_;
    std::atomic<bool> cancel_{false};
    bool running_ = false;
    std::string spec_;
    CharacterizeLive live_;
};

}  // namespace jb
