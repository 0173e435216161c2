// memwall-gui [DATABASE]: the result explorer. With --screenshots DIR it opens the database,
// saves the window with each view (its newest run against the run before; the tuning study with
// the most sessions) as PNGs in DIR, and exits: how docs/images is made, reproducibly.
#include <algorithm>
#include <cstdio>

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QTimer>

#include "gui/app/main_window.hpp"

namespace {

using memwall::gui::MainWindow;

// Waits for `signal` of `sender`, at most `ms`.
template <class Sender, class Signal>
void wait_for(Sender* sender, Signal signal, int ms) {
    QEventLoop loop;
    QObject::connect(sender, signal, &loop, &QEventLoop::quit);
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

int screenshots(MainWindow& window, const QString& database, const QString& dir) {
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "memwall-gui: cannot create %s\n", qPrintable(dir));
        return 2;
    }
    window.resize(1400, 900);
    window.show();
    if (!window.open_database(database)) {
        std::fprintf(stderr, "memwall-gui: %s\n", qPrintable(window.last_error()));
        return 2;
    }
    if (window.loading()) wait_for(&window, &MainWindow::loaded, 60000);
    const auto& studies = window.tuning()->studies();
    const auto most = std::max_element(studies.begin(), studies.end(), [](const auto& a, const auto& b) {
        return a.sessions.size() < b.sessions.size();
    });
    if (most != studies.end()) window.tuning()->show_study(static_cast<int>(most - studies.begin()));
    const char* const names[] = {"roofline", "compare", "parameter-map", "tuner"};
    for (int tab = 0; tab < window.tabs()->count(); ++tab) {
        window.tabs()->setCurrentIndex(tab);
        window.refresh_now();
        if (window.compare()->loading())
            wait_for(window.compare(), &memwall::gui::ComparePanel::comparisonReady, 60000);
        QCoreApplication::processEvents();
        const QString path = QDir(dir).filePath(QStringLiteral("gui-%1.png").arg(QLatin1String(names[tab])));
        if (!window.grab().save(path)) {
            std::fprintf(stderr, "memwall-gui: cannot write %s\n", qPrintable(path));
            return 2;
        }
        std::printf("%s\n", qPrintable(path));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("memwall"));
    QApplication::setApplicationName(QStringLiteral("memwall-gui"));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Explore memwall results: rooflines, comparisons, parameter maps, tuning traces"));
    parser.addHelpOption();
    const QCommandLineOption shots(QStringLiteral("screenshots"),
                                   QStringLiteral("save the window with each view as PNGs in <dir>, then exit"),
                                   QStringLiteral("dir"));
    parser.addOption(shots);
    parser.addPositionalArgument(QStringLiteral("database"),
                                 QStringLiteral("a memwall database (default: none; File > Open)"));
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    MainWindow window;
    if (parser.isSet(shots)) {
        if (args.isEmpty()) {
            std::fprintf(stderr, "memwall-gui: --screenshots needs a database\n");
            return 2;
        }
        return screenshots(window, args.front(), parser.value(shots));
    }
    window.show();
    if (!args.isEmpty()) window.open_database(args.front());
    return QApplication::exec();
}
