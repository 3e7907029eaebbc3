// joulebench-exec: any command as a protocol child (`measure --exec -- CMD ARGS...` starts it
// as `joulebench-exec -- CMD ARGS...`). Each `go k` runs the command k times; its logic,
// markers included, is core/child/ExecServer.
//
//   joulebench-exec -- CMD [ARGS...]
#include <jb/child/ExecServer.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

int main(int argc, char** argv)
{
    if (argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
        std::printf("usage: joulebench-exec -- CMD [ARGS...]\n"
                    "Prints 'ready 1' and answers 'go K' by running CMD K times (no shell; its output on\n"
                    "stderr) with 'done K <wall-ns> exec=1'. With JOULEBENCH_MARKS=1 the command gets\n"
                    "JOULEBENCH_MARK_FILE, a FIFO whose 'mark NAME' lines are passed on as markers.\n");
        return 0;
    }
    if (argc < 3 || std::strcmp(argv[1], "--") != 0) {
        std::fprintf(stderr, "usage: joulebench-exec -- CMD [ARGS...]\n");
        return 2;
    }
    jb::ExecOptions o;
    for (int i = 2; i < argc; ++i)
        o.command.emplace_back(argv[i]);
    const char* marks = std::getenv("JOULEBENCH_MARKS");
    o.marks = marks && std::strcmp(marks, "1") == 0;
    std::ios::sync_with_stdio(true);
    return jb::serveExec(o, std::cin, std::cout, std::cerr);
}
