// Not a test: the Jobs page on a fake GPU machine (tests/jobs/JobsTestSupport.h), with a job
// preserved from an earlier run, an orphaned folder, and fake training jobs (shell loops of
// jobs_worker holding GPU memory) that run, fail, time out and complete. For looking at the
// page and for docs/screenshots/jobs.png:
//   jobspage_preview [--run] [--bad] [--select NAME] [--quit-after SECONDS] [--grab FILE.png]
#include "jobs/JobsPage.h"

#include "JobsTestSupport.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMainWindow>
#include <QTabWidget>
#include <QTimer>

#include <filesystem>

using nlohmann::json;

namespace {

// A training-like job: epochs of a second each, GPU memory growing to a plateau.
json trainingJob(const std::string& name, int epochs, int failAt = 0)
{
    const std::string w = jbtest::workerPath();
    std::string script = "i=1; while [ $i -le " + std::to_string(epochs) +
        " ]; do "
        "mem=$(( (i < 4 ? i : 4) * 2500000000 )); "
        "echo \"epoch $i/" +
        std::to_string(epochs) + "  loss 0.$(( 900 - i * 17 ))  acc 0.$(( 40 + i ))\"; ";
    if (failAt > 0)
        script += "if [ $i -eq " + std::to_string(failAt) +
            " ]; then echo 'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB' >&2; exit 1; fi; ";
    script += "'" + w +
        "' --gpu-mem $mem --sleep 1; i=$((i+1)); done; echo '{}' > {run_dir}/histogram_0.json";
    return {{"name", name}, {"argv", {"/bin/sh", "-c", script}}, {"result_glob", "histogram_*.json"}};
}

}  // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("JouleBenchPreview"));
    QApplication::setApplicationName(QStringLiteral("jobspage_preview"));
    QCommandLineParser cli;
    cli.addHelpOption();
    const QCommandLineOption run(QStringLiteral("run"), QStringLiteral("Press Run All at once."));
    const QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select this job."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption quit(QStringLiteral("quit-after"),
                                  QStringLiteral("Quit after this many seconds."), QStringLiteral("SECONDS"));
    const QCommandLineOption grab(QStringLiteral("grab"),
                                  QStringLiteral("Save the window as PNG before quitting."),
                                  QStringLiteral("FILE"));
    const QCommandLineOption bad(QStringLiteral("bad"),
                                 QStringLiteral("Write a job file with a mistake in it."));
    cli.addOptions({run, bad, select, quit, grab});
    cli.process(app);

    jbtest::FakeGpuMachine gpus("idle_mw 0 61000\nbusy_mw 0 287000\nidle_mw 1 58000\nbusy_mw 1 301000\n");
    const std::string out = gpus.root + "/runs";
    json f = jbtest::baseJobFile(out);
    f["nvml_library"] = JB_FAKE_NVML_LIB;
    f["memory_sampling_period_seconds"] = 0.5;
    f["energy"]["idle_seconds"] = 1.0;
    f["energy"]["sampling_period_seconds"] = 0.1;
    f["defaults"]["timeout_seconds"] = 3600;
    f["defaults"]["grace_seconds"] = 2;
    json vgg = trainingJob("vgg16_bp_seed0", 60);
    vgg["gpu"] = 0;
    json dfa = trainingJob("vgg16_dfa_seed0", 40, 3);
    dfa["gpu"] = 1;
    json ep = trainingJob("minicnn_ep_seed0", 40);
    ep["timeout_seconds"] = 5;
    json ep1 = trainingJob("minicnn_ep_seed1", 3);
    f["jobs"] = {{{"name", "resnet18_bp_seed0"}, {"argv", {"python3", "train.py", "--seed", "0"}}},
                 {{"name", "resnet18_dfa_seed0"}, {"argv", {"python3", "train.py", "--method", "dfa"}}},
                 vgg,
                 dfa,
                 ep,
                 ep1};
    if (cli.isSet(bad))
        f["jobs"][3]["gpu"] = 7;
    const std::string path = gpus.root + "/jobs.json";
    jbtest::writeText(path, f.dump(2));

    // An earlier run's manifest, and a folder whose driver died.
    const std::string done = out + "/resnet18_bp_seed0/driver_2024_05_02_09_14_03";
    std::filesystem::create_directories(done);
    jb::JobManifest m;
    m.job = {{"name", "resnet18_bp_seed0"}, {"timeout_seconds", 3600}};
    m.status = jb::JobStatus::Completed;
    m.return_code = 0;
    m.driver_wall_seconds = 2843.2;
    m.run_directory = done;
    m.hardware.physical_index = 1;
    m.hardware.peak_process_gpu_memory_mib = 9418;
    m.energy = *jb::JobEnergy::fromJson({{"gpu_counter", "nvml:1"},
                {"counters",
                 {{"nvml:1",
                   {{"available", true},
                    {"total_j", 712403.6},
                    {"marginal_j", 548930.1},
                    {"verdict", "clean"},
                    {"busy", {{"mean_w", 250.6}}}}}}}});
    m.logs = {{"stdout", done + "/stdout.log"}, {"stderr", done + "/stderr.log"}};
    jb::writeJsonAtomic(done + "/manifest.json", m.toJson());
    jbtest::writeText(done + "/stdout.log", "epoch 100/100  loss 0.031  acc 0.94\n");
    const std::string orphan = out + "/resnet18_dfa_seed0/driver_2024_05_02_11_40_55";
    std::filesystem::create_directories(orphan);
    jbtest::writeText(orphan + "/driver.json", "{\"pid\": 999999, \"host\": \"elsewhere\"}\n");
    jbtest::writeText(orphan + "/stdout.log", "epoch 1/100  loss 2.301\nepoch 2/100  loss 2.114\n");

    QMainWindow window;
    auto* tabs = new QTabWidget(&window);
    tabs->setDocumentMode(true);
    auto* page = new jb::JobsPage(tabs);
    tabs->addTab(new QWidget(tabs), QStringLiteral("Measure"));
    tabs->addTab(page, QStringLiteral("Jobs"));
    tabs->setCurrentWidget(page);
    window.setCentralWidget(tabs);
    window.setWindowTitle(QStringLiteral("JouleBench"));
    window.resize(1400, 900);
    window.show();
    page->loadJobFile(QString::fromStdString(path));
    if (cli.isSet(run))
        page->runAll();
    if (cli.isSet(select))
        page->showJob(cli.value(select));
    if (cli.isSet(quit))
        QTimer::singleShot(int(cli.value(quit).toDouble() * 1000), &app, [&] {
            if (cli.isSet(grab))
                window.grab().save(cli.value(grab));
            app.quit();
        });
    const int rc = app.exec();
    delete page;  // ends and records running jobs while the fake machine still exists
    return rc;
}
