#include "results/merge.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "results/sqlite_statement.hpp"
#include "results/store.hpp"

namespace memwall {

namespace {

namespace fs = std::filesystem;

// The tag that names the sweep (and device, build, job) a run of the output holds, so that a run
// merged again finds its own.
constexpr const char* kMergeKeyTag = "merge_key";
// Tags of one shard's process: kept per shard, never as the merged run's own.
const std::set<std::string> kShardTags{"slurm_job_id", "slurm_array_task_id", "slurm_restart_count"};

std::string fnv1a(const std::string& text) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
    return out;
}

// A copy of `from` at `to` made by SQLite (what its -wal file holds included).
void copy_database(const Store& from, const std::string& to) {
    Statement st(from.handle(), "VACUUM INTO ?1");
    st.bind(1, to).run();
}

// A temporary file beside `path`, removed (with SQLite's files beside it) unless released.
class TempBeside {
  public:
    explicit TempBeside(const std::string& path)
        : path_(path + ".merge-" + std::to_string(::getpid()) + "-" + std::to_string(++count_)) {
        remove_all();
    }
    TempBeside(const TempBeside&) = delete;
    TempBeside& operator=(const TempBeside&) = delete;
    ~TempBeside() {
        if (!released_) remove_all();
    }
    const std::string& path() const { return path_; }
    void release() { released_ = true; }

  private:
    void remove_all() {
        std::error_code ec;
        for (const std::string& f : Store::files(path_)) fs::remove(f, ec);
    }
    static inline int count_ = 0;
    std::string path_;
    bool released_ = false;
};

// A run's sweep and, for one shard of a split sweep, its index and count (the sweep without
// them is the whole sweep every shard shares).
struct SweepOf {
    std::string whole;
    std::size_t shard = 0, shards = 1;
};

SweepOf sweep_of(const RunInfo& run) {
    SweepOf s{run.sweep};
    nlohmann::json j = nlohmann::json::parse(run.sweep, nullptr, false);
    if (j.is_object() && j.contains("shard")) {
        try {
            s.shard = j["shard"].at("index").get<std::size_t>();
            s.shards = j["shard"].at("count").get<std::size_t>();
        } catch (const nlohmann::json::exception&) {
            throw InputError("run " + std::to_string(run.id) + " has a malformed shard in its sweep");
        }
        j.erase("shard");
        s.whole = j.dump();
    }
    return s;
}

std::string tag_or_empty(const RunInfo& run, const std::string& key) {
    const auto it = run.tags.find(key);
    return it == run.tags.end() ? std::string() : it->second;
}

// What a run of the output holds: for a shard, the whole sweep on its device, build and Slurm
// array job; for a whole run, that run itself. `with_device` false: the same, any device.
std::string merge_key(const RunInfo& run, const SweepOf& sweep, bool with_device = true) {
    if (const std::string k = tag_or_empty(run, kMergeKeyTag); !k.empty() && with_device) return k;
    const std::string device = with_device ? run.device : "";
    if (sweep.shards > 1)
        return fnv1a("shards\n" + sweep.whole + "\n" + std::to_string(sweep.shards) + "\n" + run.backend + "\n" +
                     device + "\n" + run.git_revision + "\n" + run.memwall_version + "\n" +
                     tag_or_empty(run, "slurm_array_job_id"));
    return fnv1a("run\n" + run.started_at + "\n" + run.host + "\n" + std::to_string(run.owner.pid) + "\n" +
                 run.owner.start + "\n" + sweep.whole + "\n" + device);
}

std::string ceilings_text(const Ceilings& c) {
    std::string out;
    for (const Ceiling& x : c.items) {
        char value[32];
        std::snprintf(value, sizeof value, "%.4g", x.value);
        out += (out.empty() ? "" : ", ") + x.name + " " + value + " " + x.unit;
        if (!x.reliable()) out += " (unreliable)";
    }
    return out.empty() ? "none" : out;
}

std::string describe(const CaseKey& k) {
    return k.family + "/" + k.variant + "/" + k.backend + " " + k.problem + (k.config == "{}" ? "" : " " + k.config);
}

bool same_results(const CaseRecord& a, const CaseRecord& b) {
    return a.status == b.status && a.message == b.message && a.measured_at == b.measured_at && a.samples == b.samples &&
           a.sampling_stop == b.sampling_stop;
}

// A stored status for a run read back live: a run whose owner is gone, or that is still being
// measured, is stored as interrupted (what its cases hold is what was measured).
RunStatus storable(RunStatus s) { return s == RunStatus::complete ? s : RunStatus::interrupted; }

void set_status(Store& out, std::int64_t run_id, RunStatus status, const std::string& finished_at, const Owner& owner) {
    Statement st(out.handle(),
                 "UPDATE runs SET status = ?1, finished_at = ?2, owner_pid = ?3, owner_start = ?4 WHERE id = ?5");
    st.bind(1, to_string(status)).bind_text_or_null(2, finished_at).bind(3, owner.pid);
    st.bind_text_or_null(4, owner.start).bind(5, run_id).run();
}

class Merger {
  public:
    explicit Merger(Store& out) : out_(out) {
        for (const RunInfo& r : out_.runs()) by_key_[merge_key(r, sweep_of(r))] = r.id;
    }

    void add(const Store& source) {
        for (const RunInfo& run : source.runs()) add_run(source, run);
        const auto count = [&](const char* table) {
            Statement st(source.handle(), std::string("SELECT count(*) FROM ") + table);
            st.step();
            return st.int64(0);
        };
        if (const auto sessions = count("tuning_sessions"), evals = count("tune_evals"); sessions || evals)
            not_carried_.push_back(source.path() + ": " + std::to_string(sessions) + " tuning session(s) and " +
                                   std::to_string(evals) + " tune-eval table(s) are not merged; merge carries runs");
    }

    MergeResult result() {
        MergeResult result;
        for (auto& [id, merged] : touched_) {
            const RunInfo run = *out_.run(id);
            merged.id = id;
            merged.device = run.device;
            if (const std::string n = tag_or_empty(run, "shards"); !n.empty()) {
                std::size_t have = 0;
                for (std::size_t i = 0; i < std::stoul(n); ++i)
                    have += !tag_or_empty(run, "shard." + std::to_string(i) + ".host").empty();
                merged.shards = std::to_string(have) + " of " + n + " shards";
            }
            result.runs.push_back(merged);
        }
        for (const auto& [sweep, devices] : devices_of_sweep_) {
            if (devices.size() < 2) continue;
            std::string line =
                "one sweep's shards were measured on " + std::to_string(devices.size()) + " devices and stay apart:";
            for (const auto& [device, id] : devices) line += " run " + std::to_string(id) + " (" + device + ")";
            result.notes.push_back(line);
        }
        result.notes.insert(result.notes.end(), not_carried_.begin(), not_carried_.end());
        return result;
    }

  private:
    void add_run(const Store& source, const RunInfo& run) {
        const SweepOf sweep = sweep_of(run);
        const std::string key = merge_key(run, sweep);
        std::int64_t id = 0;
        if (const auto it = by_key_.find(key); it != by_key_.end()) {
            id = it->second;
        } else {
            id = create(source, run, sweep, key);
            by_key_[key] = id;
        }
        if (sweep.shards > 1) devices_of_sweep_[merge_key(run, sweep, false)][run.device] = id;
        MergedRun& merged = touched_[id];

        std::map<CaseKey, CaseRecord> have;
        for (CaseRecord& c : out_.cases(id)) have.emplace(c.key, std::move(c));
        for (CaseRecord c : source.cases(run.id)) {
            if (const auto it = have.find(c.key); it != have.end()) {
                if (!same_results(it->second, c))
                    throw InputError("conflicting duplicate: " + describe(c.key) + " of run " + std::to_string(run.id) +
                                     " in " + source.path() + " differs from the one stored in run " +
                                     std::to_string(id) + " on the same device; nothing was merged");
                ++merged.present;
                continue;
            }
            c.run_id = id;
            out_.save_case(c);
            ++merged.added;
        }
        if (sweep.shards > 1) {
            record_shard(source, run, sweep, id);
        } else if (merged.added) {
            set_status(out_, id, storable(run.status), run.finished_at, run.owner);
        }
    }

    std::int64_t create(const Store& source, const RunInfo& run, const SweepOf& sweep, const std::string& key) {
        RunInfo info = run;
        info.id = 0;
        info.sweep = sweep.whole;
        info.tags[kMergeKeyTag] = key;
        if (sweep.shards > 1) {
            for (const std::string& t : kShardTags) info.tags.erase(t);
            info.tags["shards"] = std::to_string(sweep.shards);
            info.owner = {run.host, 0, ""};  // no one process measured it
        }
        const std::int64_t id = out_.begin_run(info);
        out_.set_run_properties(id, source.run_properties(run.id));
        out_.save_ceilings(id, source.ceilings(run.id));
        set_status(out_, id, storable(run.status), run.finished_at, info.owner);  // begin_run made this its owner
        return id;
    }

    // One shard's provenance as the merged run's tags; the run is complete once every shard is.
    void record_shard(const Store& source, const RunInfo& run, const SweepOf& sweep, std::int64_t id) {
        const std::string prefix = "shard." + std::to_string(sweep.shard) + ".";
        const RunInfo merged = *out_.run(id);
        const std::string done_before = tag_or_empty(merged, prefix + "status");
        if (done_before == "complete" && run.status != RunStatus::complete) return;  // an older copy of it
        const Ceilings mine = source.ceilings(run.id);
        const std::string ceilings = ceilings_text(mine);
        std::map<std::string, std::string> tags{
            {"host", run.host},
            {"started_at", run.started_at},
            {"finished_at", run.finished_at},
            {"status", std::string(to_string(storable(run.status)))},
            {"command_line", run.command_line},
            {"source", source.path() + " run " + std::to_string(run.id)},
            {"ceilings", ceilings == ceilings_text(out_.ceilings(id)) ? "as the run's" : ceilings},
        };
        for (const std::string& t : kShardTags) tags[t] = tag_or_empty(run, t);
        for (const auto& [k, v] : tags)
            if (!v.empty()) out_.set_tag(id, prefix + k, v);

        const RunInfo now = *out_.run(id);
        bool complete = true;
        std::string finished;
        for (std::size_t i = 0; i < sweep.shards; ++i) {
            const std::string p = "shard." + std::to_string(i) + ".";
            complete = complete && tag_or_empty(now, p + "status") == "complete";
            finished = std::max(finished, tag_or_empty(now, p + "finished_at"));
        }
        set_status(out_, id, complete ? RunStatus::complete : RunStatus::interrupted, finished, {now.host, 0, ""});
    }

    Store& out_;
    std::map<std::string, std::int64_t> by_key_;
    std::map<std::int64_t, MergedRun> touched_;
    std::map<std::string, std::map<std::string, std::int64_t>> devices_of_sweep_;
    std::vector<std::string> not_carried_;
};

}  // namespace

MergeResult merge_databases(const std::string& out, const std::vector<std::string>& sources) {
    std::error_code ec;
    const bool exists = fs::exists(out, ec);
    std::vector<Store> opened;  // all of them checked before anything is written
    for (const std::string& source : sources) {
        if (exists && fs::equivalent(out, source, ec))
            throw UsageError(source + " is the output itself; merge it into another file");
        opened.push_back(Store::open(source, Store::Mode::read_only));
    }

    TempBeside temp(out);
    if (exists) {
        const Store original = Store::open(out, Store::Mode::read_only);  // refuses a newer or foreign file
        copy_database(original, temp.path());
    }
    MergeResult result;
    {
        Store merged = Store::open(temp.path(), Store::Mode::create);
        Merger merger(merged);
        for (const Store& s : opened) merger.add(s);
        result = merger.result();
        merged.check_on_disk();
    }
    fs::rename(temp.path(), out, ec);
    if (ec) throw EnvironmentError("cannot replace " + out + ": " + ec.message());
    temp.release();
    // The old file's -wal and -shm (what its -wal held is in the copy) would be read into the new one.
    for (const char* beside : {"-wal", "-shm"}) fs::remove(out + beside, ec);
    return result;
}

}  // namespace memwall
