// joulebench-demo-decoder: the bundled decoder child. It speaks the protocol of the
// reference harness and does real decoding work: it encodes N generated images as PNG (or
// JPEG) once, then each `go k` decodes all N images k times through QImage. Its one-shot mode
// (`once`) encodes them, decodes each once, prints the checksum and exits: a plain command for
// `measure --exec`.
//
//   joulebench-demo-decoder serve [--jobs N] [--size WxH] [--format png|jpeg]
//   joulebench-demo-decoder once [--jobs N] [--size WxH] [--format png|jpeg]
#include <jb/child/ChildServer.h>
#include <joulebench/child.hpp>  // phases: decode/<format> and checksum per image

#include <QBuffer>
#include <QCoreApplication>
#include <QImage>
#include <QPainter>

#include <cstdio>
#include <cstring>
#include <optional>
#include <iostream>
#include <string>
#include <vector>

namespace {

void usage()
{
    std::fprintf(stderr,
                 "usage: joulebench-demo-decoder serve|once [--jobs N] [--size WxH (default 1920x1080)] [--format png|jpeg]\n"
                 "serve: prints 'ready N', answers 'go K' by decoding its N images K times with\n"
                 "'done <decodes> <wall-ns> checksum=<hex>', and exits on 'exit' or end of input.\n"
                 "once: decodes its N images once, prints 'checksum=<hex>' and exits (for measure --exec).\n");
}

// A deterministic picture with gradients, rings and fine detail, so the codec has work.
QImage makeImage(int w, int h, int seed)
{
    QImage img(w, h, QImage::Format_RGB32);
    std::uint32_t x = 2463534242u + std::uint32_t(seed) * 7919u;
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(y));
        for (int i = 0; i < w; ++i) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            const int ring = ((i - w / 2) * (i - w / 2) + (y - h / 2) * (y - h / 2)) / (64 + seed * 8);
            const int r = (i * 255 / w + ring * 8) & 0xff;
            const int g = (y * 255 / h + seed * 40) & 0xff;
            const int b = (ring * 16 + int(x & 0x1f)) & 0xff;
            line[i] = qRgb(r, g, b);
        }
    }
    return img;
}

std::uint64_t checksum(const QImage& img)
{
    std::uint64_t sum = 1469598103934665603ull;
    for (int y = 0; y < img.height(); y += 7) {
        const uchar* p = img.constScanLine(y);
        for (qsizetype i = 0; i < img.bytesPerLine(); i += 13)
            sum = (sum ^ p[i]) * 1099511628211ull;
    }
    return sum;
}

}  // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const bool once = argc >= 2 && std::strcmp(argv[1], "once") == 0;
    if (argc < 2 || (std::strcmp(argv[1], "serve") != 0 && !once)) {
        usage();
        return (argc >= 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) ? 0 : 2;
    }
    int jobs = 4, w = 1920, h = 1080;
    QByteArray format = "png";
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--jobs" && hasValue) {
            jobs = std::atoi(argv[++i]);
        } else if (a == "--size" && hasValue) {
            if (std::sscanf(argv[++i], "%dx%d", &w, &h) != 2) {
                std::fprintf(stderr, "joulebench-demo-decoder: --size takes WxH, e.g. 1920x1080\n");
                return 2;
            }
        } else if (a == "--format" && hasValue) {
            format = QByteArray(argv[++i]).toLower();
        } else {
            std::fprintf(stderr, "joulebench-demo-decoder: unknown argument '%s'\n", a.c_str());
            usage();
            return 2;
        }
    }
    if (jobs < 1 || w < 16 || h < 16 || w > 16384 || h > 16384) {
        std::fprintf(stderr, "joulebench-demo-decoder: --jobs must be >= 1 and --size between 16x16 and 16384x16384\n");
        return 2;
    }
    if (format == "jpg")
        format = "jpeg";
    if (format != "png" && format != "jpeg") {
        std::fprintf(stderr, "joulebench-demo-decoder: --format must be png or jpeg\n");
        return 2;
    }

    std::vector<QByteArray> encoded;
    for (int j = 0; j < jobs; ++j) {
        QByteArray bytes;
        QBuffer buf(&bytes);
        buf.open(QIODevice::WriteOnly);
        if (!makeImage(w, h, j).save(&buf, format.constData())) {
            std::fprintf(stderr, "joulebench-demo-decoder: this Qt cannot write %s images\n", format.constData());
            return 3;
        }
        encoded.push_back(bytes);
    }
    // Warm up: decode each once so the first round costs what the others cost. In the one-shot
    // mode this is the work itself, its phases marked in JOULEBENCH_MARK_FILE where that is set
    // (measure --exec); serving, the phases are marked on stdout (below).
    const std::string decodePhase = "decode/" + format.toStdString();
    std::uint64_t sum = 0;
    for (const QByteArray& b : encoded) {
        QImage img;
        {
            const std::optional<joulebench::Phase> decode =
                    once ? std::optional<joulebench::Phase>(std::in_place, decodePhase) : std::nullopt;
            img = QImage::fromData(b, format.constData());
        }
        if (img.isNull()) {
            std::fprintf(stderr, "joulebench-demo-decoder: a decode failed\n");
            return 3;
        }
        const std::optional<joulebench::Phase> sumPhase =
                once ? std::optional<joulebench::Phase>(std::in_place, "checksum") : std::nullopt;
        sum ^= checksum(img);
    }
    if (once) {
        std::printf("checksum=%016llx\n", static_cast<unsigned long long>(sum));
        return 0;
    }

    // Markers (JOULEBENCH_MARKS=1 only): each image's decode and checksum as phases.
    const joulebench::AsProtocolChild marks(std::cout);
    return jb::serveChild("joulebench-demo-decoder", jobs,
                          [&](int k) -> jb::Result<jb::ChildBatch> {
                              std::int64_t decodes = 0;
                              for (int pass = 0; pass < k; ++pass) {
                                  for (const QByteArray& b : encoded) {
                                      QImage img;
                                      {
                                          const joulebench::Phase decode(decodePhase);
                                          img = QImage::fromData(b, format.constData());
                                      }
                                      if (img.isNull())
                                          return jb::Error{"a decode failed"};
                                      const joulebench::Phase sumPhase("checksum");
                                      sum ^= checksum(img);
                                      ++decodes;
                                  }
                              }
                              char note[40];
                              std::snprintf(note, sizeof note, "checksum=%016llx", static_cast<unsigned long long>(sum));
                              return jb::ChildBatch{decodes, note};
                          },
                          std::cin, std::cout, std::cerr);
}
