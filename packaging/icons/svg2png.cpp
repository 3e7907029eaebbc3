// jb_svg2png: renders the one SVG of resources/ to square PNGs at build time, so the hicolor
// icons, the .app's icon and the window icon all come from a single drawing and the build
// needs nothing beyond Qt (no rsvg-convert, no ImageMagick).
//   jb_svg2png IN.svg OUT_DIR NAME SIZE...   writes OUT_DIR/SIZExSIZE/NAME.png for each SIZE
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QString>
#include <QSvgRenderer>

#include <cstdio>
#include <cstdlib>

namespace {

int fail(const QString& what)
{
    std::fprintf(stderr, "jb_svg2png: %s\n", qPrintable(what));
    return 1;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 5) {
        std::fprintf(stderr, "usage: jb_svg2png IN.svg OUT_DIR NAME SIZE...\n");
        return 2;
    }
    const QString in = QString::fromLocal8Bit(argv[1]);
    const QString out_dir = QString::fromLocal8Bit(argv[2]);
    const QString name = QString::fromLocal8Bit(argv[3]);

    // No QGuiApplication: raster painting of plain shapes needs no platform plugin, which keeps
    // the tool usable in a headless build (the SVG has no text, so no fonts are needed).
    QSvgRenderer svg(in);
    if (!svg.isValid())
        return fail(QStringLiteral("%1: not a valid SVG file (or missing)").arg(in));
    if (svg.defaultSize().width() != svg.defaultSize().height())
        return fail(QStringLiteral("%1: the icon must be square, it is %2x%3")
                        .arg(in)
                        .arg(svg.defaultSize().width())
                        .arg(svg.defaultSize().height()));

    for (int i = 4; i < argc; ++i) {
        char* end = nullptr;
        const long size = std::strtol(argv[i], &end, 10);
        if (end == argv[i] || *end != '\0' || size < 8 || size > 4096)
            return fail(QStringLiteral("size '%1' is not a whole number of pixels from 8 to 4096")
                            .arg(QString::fromLocal8Bit(argv[i])));
        const int px = static_cast<int>(size);
        QImage img(px, px, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::transparent);
        {
            QPainter p(&img);
            p.setRenderHint(QPainter::Antialiasing);
            p.setRenderHint(QPainter::SmoothPixmapTransform);
            svg.render(&p, QRectF(0, 0, px, px));
        }
        const QString dir = out_dir + QStringLiteral("/%1x%1").arg(size);
        if (!QDir().mkpath(dir))
            return fail(QStringLiteral("cannot create the folder %1").arg(dir));
        const QString path = dir + QLatin1Char('/') + name + QStringLiteral(".png");
        if (!img.save(path, "PNG"))
            return fail(QStringLiteral("cannot write %1").arg(path));
    }
    return 0;
}
