// headerchild: a test child made with the C++ helper header alone (include/joulebench/child.hpp,
// the standard library only), for tst_childhelpers.
//   headerchild serve   a protocol child: 2 jobs per pass, each in phases "load" and "work"
//                       (with "work/inner" nested in it)
//   headerchild plain   no protocol: the same phases once, then exit (markers go to
//                       JOULEBENCH_MARK_FILE where it is set)
//   headerchild fail    a protocol child whose work throws
#include <joulebench/child.hpp>

#include <cstring>
#include <stdexcept>

namespace {

volatile unsigned long long sink = 0;

void spin()
{
    for (int i = 0; i < 20000; ++i)
        sink = sink + static_cast<unsigned long long>(i);
}

void onePass()
{
    {
        joulebench::Phase p("load");
        spin();
    }
    joulebench::Phase w("work");
    spin();
    joulebench::Phase inner("inner");
    spin();
}

}  // namespace

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "serve";
    if (std::strcmp(mode, "plain") == 0) {
        onePass();
        return 0;
    }
    const bool fail = std::strcmp(mode, "fail") == 0;
    return joulebench::serve(2, [fail](int k) {
        if (fail)
            throw std::runtime_error("asked to fail");
        for (int i = 0; i < 2 * k; ++i)
            onePass();
        return joulebench::Batch{2LL * k, "helper=cpp"};
    });
}
