// A fake GPU job for the job queue's tests. Options, applied in this order:
//   --print-env NAME      prints NAME=value (or NAME unset) on stdout
//   --stderr TEXT         prints TEXT on stderr
//   --ignore-term         ignores SIGTERM
//   --gpu-mem BYTES       registers this pid with BYTES of memory on GPU $CUDA_VISIBLE_DEVICES in the
//                         file $JB_FAKE_GPU_PROCS (read by the fake NVML and the fake nvidia-smi)
//   --daemon PIDFILE      double-forks a daemon that ignores SIGTERM, outlives this process and
//                         writes its pid to PIDFILE; with --daemon-setsid it also leaves the session;
//                         --daemon-gpu-mem BYTES registers the daemon's GPU memory too
//   --write FILE          writes a result file (relative to the working folder)
//   --sleep SECONDS
//   --exit CODE
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void sleepSeconds(double s)
{
    timespec end{};
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += time_t(s);
    end.tv_nsec += long((s - double(time_t(s))) * 1e9);
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec += 1;
        end.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, nullptr) == EINTR) {}
}

void registerGpu(long long bytes)
{
    const char* file = std::getenv("JB_FAKE_GPU_PROCS");
    const char* gpu = std::getenv("CUDA_VISIBLE_DEVICES");
    if (!file || !gpu)
        return;
    if (FILE* f = std::fopen(file, "a")) {
        std::fprintf(f, "%s %ld %lld\n", gpu, long(getpid()), bytes);
        std::fclose(f);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    std::string print_env, stderr_text, daemon_pidfile, write_file;
    bool ignore_term = false, daemon_setsid = false;
    long long gpu_mem = -1, daemon_gpu_mem = -1;
    double sleep_s = 0;
    int exit_code = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "jobs_worker: %s needs a value\n", a.c_str());
                std::exit(64);
            }
            return argv[++i];
        };
        if (a == "--print-env")
            print_env = next();
        else if (a == "--stderr")
            stderr_text = next();
        else if (a == "--ignore-term")
            ignore_term = true;
        else if (a == "--gpu-mem")
            gpu_mem = std::atoll(next().c_str());
        else if (a == "--daemon")
            daemon_pidfile = next();
        else if (a == "--daemon-setsid")
            daemon_setsid = true;
        else if (a == "--daemon-gpu-mem")
            daemon_gpu_mem = std::atoll(next().c_str());
        else if (a == "--write")
            write_file = next();
        else if (a == "--sleep")
            sleep_s = std::atof(next().c_str());
        else if (a == "--exit")
            exit_code = std::atoi(next().c_str());
        else {
            std::fprintf(stderr, "jobs_worker: unknown option %s\n", a.c_str());
            return 64;
        }
    }
    if (!print_env.empty()) {
        const char* v = std::getenv(print_env.c_str());
        if (v)
            std::printf("%s=%s\n", print_env.c_str(), v);
        else
            std::printf("%s unset\n", print_env.c_str());
        std::fflush(stdout);
    }
    if (!stderr_text.empty())
        std::fprintf(stderr, "%s\n", stderr_text.c_str());
    if (ignore_term)
        signal(SIGTERM, SIG_IGN);
    if (gpu_mem >= 0)
        registerGpu(gpu_mem);
    if (!daemon_pidfile.empty()) {
        const pid_t child = fork();
        if (child == 0) {
            if (fork() == 0) {
                // The grandchild: reparented once its parent exits, deaf to SIGTERM.
                signal(SIGTERM, SIG_IGN);
                if (daemon_setsid)
                    setsid();
                if (daemon_gpu_mem >= 0)
                    registerGpu(daemon_gpu_mem);
                const std::string tmp = daemon_pidfile + ".tmp";
                if (FILE* f = std::fopen(tmp.c_str(), "w")) {
                    std::fprintf(f, "%ld\n", long(getpid()));
                    std::fclose(f);
                    std::rename(tmp.c_str(), daemon_pidfile.c_str());
                }
                for (;;)
                    pause();
            }
            _exit(0);
        }
        waitpid(child, nullptr, 0);
        // Return only once the daemon is in place, so the test knows its pid.
        for (int i = 0; i < 500 && access(daemon_pidfile.c_str(), F_OK) != 0; ++i)
            sleepSeconds(0.01);
    }
    if (!write_file.empty()) {
        if (FILE* f = std::fopen(write_file.c_str(), "w")) {
            std::fprintf(f, "result of pid %ld\n", long(getpid()));
            std::fclose(f);
        }
    }
    if (sleep_s > 0)
        sleepSeconds(sleep_s);
    return exit_code;
}
