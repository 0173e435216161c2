// Plain-text tables for the terminal, and the tables memwall prints (cases, ceilings, runs).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "metrics/ceilings.hpp"
#include "results/store.hpp"

namespace memwall::cli {

class Table {
  public:
    explicit Table(std::vector<std::string> header, std::vector<bool> right_aligned = {});
    void add(std::vector<std::string> row);
    void print(std::ostream& os) const;
    bool empty() const { return rows_.empty(); }

  private:
    std::vector<std::string> header_;
    std::vector<bool> right_;
    std::vector<std::vector<std::string>> rows_;
};

std::string format_si(double v, int digits);  // "1.2G", "350M"
std::string format_fixed(double v, int decimals);

// One row per case: time (median, IQR), GFLOP/s, GB/s, FLOP/B, bound, % of roof, byte source.
// cuda-emu times are labelled emulation, never shown as GPU times.
void print_cases(std::ostream& os, const std::vector<CaseRecord>& cases, const Ceilings& ceilings);
// The hierarchical roofline of each timed case: one row per memory level it has bytes at, from
// the preferred source, then the other sources' bytes at that level (marked beside).
void print_levels(std::ostream& os, const std::vector<CaseRecord>& cases, const Ceilings& ceilings);
// The ceilings, a flagged one named "(unreliable)", then unreliable_ceilings_line and, for
// reused ones, the run that measured them.
void print_ceilings(std::ostream& os, const Ceilings& c);
// One line naming the ceilings flagged unreliable, each with why, and how to measure them
// again; empty when none is flagged.
std::string unreliable_ceilings_line(const Ceilings& c);
void print_runs(std::ostream& os, const Store& store);

}  // namespace memwall::cli
