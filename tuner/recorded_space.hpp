// A recorded space: every configuration of a tuning space measured by someone else (Kernel
// Tuner cache files, KTT JSON output), with time, counters and failures, so strategies can be
// replayed and compared without the hardware. Its valid set is its recorded configurations.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/objective.hpp"
#include "tuner/tuning_space.hpp"

namespace memwall {

struct RecordedSpace {
    std::string origin;  // the file it came from
    std::string format;  // "kerneltuner" or "ktt"
    std::string device;
    std::string kernel;
    TuningSpace space;
    std::vector<Evaluation> results;  // parallel to space's configurations
    std::vector<std::string> notes;   // what the importer repaired or skipped, for the user

    std::size_t ok_count() const;
    // The best (lowest) time of an ok result; throws InputError when none is ok.
    double optimum_seconds() const;
};

// One configuration an importer read, with its result.
struct RecordedRow {
    Config config;
    Evaluation eval;
};

// Sets rs.space and rs.results from the rows: in parameter order (as a nested loop, and
// exhaustive search, walks them), the first row of a repeated configuration kept, with a note
// saying how many `rows_named` ("entries", "trials") repeated one.
void set_recorded_rows(RecordedSpace& rs, std::vector<Parameter> parameters, std::vector<RecordedRow> rows,
                       const std::string& rows_named);

// Reads a Kernel Tuner cache (.json or .json.gz; either error encoding; a file left
// unterminated by an interrupted run is repaired as Kernel Tuner does) or a KTT JSON output
// file (.json or .json.gz), telling them apart by content. Throws InputError with one line
// naming the file on anything malformed.
RecordedSpace load_recorded_space(const std::string& path);

// The importers behind load_recorded_space, for text already in memory; `origin` names the
// source in messages.
RecordedSpace parse_kernel_tuner_cache(std::string text, std::string_view origin);
RecordedSpace parse_ktt_json(std::string_view text, std::string_view origin);

// The whole content of a file, gunzipped when it is gzip-compressed; throws InputError.
std::string read_maybe_gzipped(const std::string& path);

}  // namespace memwall
