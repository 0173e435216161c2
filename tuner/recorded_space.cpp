#include "tuner/recorded_space.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>

#include "core/errors.hpp"
#include "core/input_file.hpp"

namespace memwall {

std::size_t RecordedSpace::ok_count() const {
    return static_cast<std::size_t>(
        std::count_if(results.begin(), results.end(), [](const Evaluation& e) { return e.ok(); }));
}

double RecordedSpace::optimum_seconds() const {
    double best = std::numeric_limits<double>::infinity();
    for (const auto& e : results)
        if (e.ok()) best = std::min(best, e.seconds);
    if (!(best < std::numeric_limits<double>::infinity()))
        throw InputError(origin + ": no configuration ran successfully");
    return best;
}

void set_recorded_rows(RecordedSpace& rs, std::vector<Parameter> parameters, std::vector<RecordedRow> rows,
                       const std::string& rows_named) {
    const auto by_config = [](const RecordedRow& a, const RecordedRow& b) { return a.config < b.config; };
    std::stable_sort(rows.begin(), rows.end(), by_config);
    const auto last = std::unique(rows.begin(), rows.end(),
                                  [](const RecordedRow& a, const RecordedRow& b) { return a.config == b.config; });
    if (last != rows.end()) {
        rs.notes.push_back(std::to_string(rows.end() - last) + " " + rows_named +
                           " repeat a configuration; kept the first");
        rows.erase(last, rows.end());
    }
    std::vector<Config> configs;
    configs.reserve(rows.size());
    rs.results.clear();
    for (RecordedRow& r : rows) {
        configs.push_back(std::move(r.config));
        rs.results.push_back(std::move(r.eval));
    }
    rs.space = TuningSpace(std::move(parameters), std::move(configs));
}

namespace {

// Compressed input expands at most this many times the compressed file's size, or to the floor.
constexpr std::uint64_t kMaxGzipRatio = 64;
constexpr std::uint64_t kGzipFloorBytes = std::uint64_t{64} << 20;

}  // namespace

std::string read_maybe_gzipped(const std::string& path) {
    refuse_special_file(path);
    // gzread passes uncompressed files through unchanged.
    errno = 0;
    std::unique_ptr<gzFile_s, int (*)(gzFile)> f(gzopen(path.c_str(), "rb"), gzclose);
    if (!f) throw InputError(path + ": cannot open: " + (errno ? std::strerror(errno) : "out of memory"));
    // Compressed data may expand at most kMaxGzipRatio times its file's size (at least to
    // kGzipFloorBytes): JSON records compress 5-20x, while a gzip bomb of 10 MB expands to 10 GiB.
    std::error_code ec;
    const auto file_bytes = std::filesystem::file_size(path, ec);
    const std::uint64_t limit = std::max<std::uint64_t>(kGzipFloorBytes, (ec ? 0 : file_bytes) * kMaxGzipRatio);
    std::string out;
    char buf[1 << 16];
    for (;;) {
        if (out.size() > limit && gzdirect(f.get()) == 0)
            throw InputError(path + ": the gzip data expands past " + std::to_string(limit >> 20) + " MiB, more than " +
                             std::to_string(kMaxGzipRatio) + " times its " + std::to_string(file_bytes) +
                             " bytes: refused as a decompression bomb");
        const int n = gzread(f.get(), buf, sizeof buf);
        if (n < 0) {
            int code = 0;
            const char* msg = gzerror(f.get(), &code);
            throw InputError(path + ": cannot read: " + (code == Z_ERRNO ? std::strerror(errno) : msg));
        }
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    // A truncated gzip stream ends without an error from gzread; gzclose reports it.
    const int rc = gzclose(f.release());
    if (rc == Z_BUF_ERROR) throw InputError(path + ": truncated gzip data");
    if (rc != Z_OK) throw InputError(path + ": cannot read (zlib error " + std::to_string(rc) + ")");
    return out;
}

RecordedSpace load_recorded_space(const std::string& path) {
    std::string text = read_maybe_gzipped(path);
    // Both formats name their distinctive keys near the top of the file.
    const std::string_view head(text.data(), std::min<std::size_t>(text.size(), 1 << 16));
    if (head.find("\"tune_params_keys\"") != std::string_view::npos)
        return parse_kernel_tuner_cache(std::move(text), path);
    if (head.find("\"Results\"") != std::string_view::npos || head.find("\"Metadata\"") != std::string_view::npos)
        return parse_ktt_json(text, path);
    throw InputError(path + ": neither a Kernel Tuner cache nor a KTT JSON file");
}

}  // namespace memwall
