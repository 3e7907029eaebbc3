#include <jb/profile/CharacterizeRun.h>

#include <jb/base/Mailbox.h>
#include <jb/library/Library.h>
#include <jb/profile/LoadDriver.h>

#include <QCoreApplication>
#include <QDir>
#include <QSysInfo>

namespace jb {

Result<std::string> keepProfile(const CounterProfile& profile, const std::string& library_flag)
{
    const std::string lib_spec = librarySpec(library_flag);
    auto lib = Library::open(lib_spec);
    if (!lib)
        return Error{lib.error()};
    if (Status st = (*lib)->storeProfile(profile.host, profile.spec, profile.measured_at, profile.toJson().dump()); !st)
        return Error{st.error()};
    return lib_spec;
}

CharacterizeRun::CharacterizeRun(QObject* parent) : QObject(parent), mailbox_(new Mailbox(this)) {}

CharacterizeRun::~CharacterizeRun()
{
    stop();
    joinWorker();
}

void CharacterizeRun::joinWorker()
{
    if (worker_.joinable())
        worker_.join();
}

bool CharacterizeRun::start(const CharacterizeSetup& setup)
{
    if (running_)
        return false;
    joinWorker();  // a run that ended: its thread has returned or is about to
    cancel_.store(false);
    running_ = true;
    spec_ = setup.spec;
    live_.clear();
    worker_ = std::thread([this, setup] { work(setup); });
    return true;
}

void CharacterizeRun::stop()
{
    cancel_.store(true);
}

// On the worker thread: everything it hands over goes through the mailbox as values.
void CharacterizeRun::work(CharacterizeSetup setup)
{
    auto fail = [this](const std::string& e) {
        const bool cancelled = e == kCharacterizeCancelled;
        mailbox_->post([this, e, cancelled] {
            running_ = false;
            emit failed(QString::fromStdString(e), cancelled);
        });
    };
    if (setup.spec == "task") {
        fail("task is read around rounds, not sampled: it has no update period to measure");
        return;
    }
    auto counter = openCounter(setup.spec, setup.counter);
    if (!counter) {
        fail(counter.error());
        return;
    }
    const CounterKind kind = counterKindOf(setup.spec, (*counter)->info());
    std::string load = setup.load.empty() || setup.load == "auto" ? autoLoadFor(setup.spec, kind) : setup.load;
    std::unique_ptr<LoadDriver> driver;
    if (load == "cpu") {
        driver = cpuBurnLoad(setup.threads);
        if (setup.spec == "sim")
            (*counter)->setWorkloadPid(QCoreApplication::applicationPid());  // the sim turns our CPU into power
    } else if (load == "gpu") {
        std::string program = setup.gpu_load_program;
        if (program.empty())
            program = QDir(QCoreApplication::applicationDirPath())
                          .filePath(QStringLiteral("joulebench-gpu-load"))
                          .toStdString();
        driver = gpuProgramLoad(program, {"--jobs", "1", "--buffer-mib", "256", "--iterations", "1024"});
    } else if (load.rfind("file:", 0) == 0 && load.size() > 5) {
        driver = flagFileLoad(load.substr(5));
    } else {
        fail("the load is auto, cpu, gpu or file:PATH, not '" + load + "'");
        return;
    }
    if (Status st = driver->start(); !st) {
        fail(st.error());
        return;
    }
    mailbox_->post([this, spec = setup.spec, d = driver->describe()] {
        emit started(QString::fromStdString(spec), QString::fromStdString(d));
    });
    CharacterizeOptions opt = setup.options;
    if (opt.host.empty())
        opt.host = QSysInfo::machineHostName().toStdString();
    opt.cancel = &cancel_;
    opt.feed = [this](const CharacterizeFeed& f) {
        mailbox_->post([this, f] {
            live_.add(f);
            emit advanced();
        });
    };
    auto profile = characterize(**counter, *driver, opt);
    if (!profile) {
        fail(profile.error());
        return;
    }
    QString kept;
    bool was_kept = false;
    if (setup.keep) {
        auto where = keepProfile(*profile, setup.library);
        was_kept = where.ok();
        kept = QString::fromStdString(where ? *where : where.error());
    }
    mailbox_->post([this, p = *profile, kept, was_kept] {
        running_ = false;
        emit finished(p, kept, was_kept);
    });
}

}  // namespace jb
