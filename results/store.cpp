#include "results/store.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/machine.hpp"
#include "results/migrations.hpp"
#include "results/schema_check.hpp"
#include "results/sqlite_statement.hpp"

namespace memwall {

namespace {

constexpr std::array<std::pair<CaseStatus, std::string_view>, 6> kCaseStatusNames{{
    {CaseStatus::ok, "ok"},
    {CaseStatus::wrong_result, "wrong_result"},
    {CaseStatus::failed, "failed"},
    {CaseStatus::timeout, "timeout"},
    {CaseStatus::skipped, "skipped"},
    {CaseStatus::unchecked, "unchecked"},
}};

constexpr std::array<std::pair<RunStatus, std::string_view>, 4> kRunStatusNames{{
    {RunStatus::running, "running"},
    {RunStatus::complete, "complete"},
    {RunStatus::interrupted, "interrupted"},
    {RunStatus::abandoned, "abandoned"},
}};

RunStatus stored_run_status(const std::string& s) {
    if (auto r = run_status_from(s)) return *r;
    throw InputError("unknown run status '" + s + "' in the database");
}

CeilingKind stored_ceiling_kind(const std::string& s) {
    if (auto k = ceiling_kind_from(s)) return *k;
    throw InputError("unknown ceiling kind '" + s + "' in the database");
}

std::string hex32(std::int64_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", static_cast<unsigned>(v & 0xffffffff));
    return buf;
}

// A file: URI for `path`, every byte outside the unreserved set percent-encoded.
std::string file_uri(const std::string& path) {
    const std::string abs = std::filesystem::absolute(path).string();
    std::string uri = "file:";
    for (const unsigned char ch : abs) {
        const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                           ch == '/' || ch == '-' || ch == '.' || ch == '_' || ch == '~';
        if (plain) {
            uri += static_cast<char>(ch);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", ch);
            uri += buf;
        }
    }
    return uri;
}

struct Probe {
    std::int64_t application_id = 0;
    int user_version = 0;
    std::int64_t tables = 0;
};

// Reads the identity of an existing database, and checks the tables of a memwall one, without
// writing anything: no lock, no journal,
// no -wal or -shm file. `immutable=1` reads the main file alone, which is complete unless a
// -wal file exists; then the -wal (and its -shm) already exist and a plain read-only
// connection reads through them.
Probe probe_database(const std::string& path) {
    const bool has_wal = std::filesystem::exists(path + "-wal");
    const std::string uri = file_uri(path) + (has_wal ? "?mode=ro" : "?immutable=1");
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    const std::unique_ptr<sqlite3, int (*)(sqlite3*)> guard(db, sqlite3_close);
    if (rc != SQLITE_OK) throw InputError(path + ": cannot open (" + sqlite3_errstr(rc) + ")");
    Probe p;
    try {
        Statement app(db, "PRAGMA application_id");
        app.step();
        p.application_id = app.int64(0);
        Statement ver(db, "PRAGMA user_version");
        ver.step();
        p.user_version = static_cast<int>(ver.int64(0));
        Statement tables(db, "SELECT count(*) FROM sqlite_schema");
        tables.step();
        p.tables = tables.int64(0);
    } catch (const std::runtime_error&) {
        // A writer killed before its checkpoint leaves changes in the -wal file; reading them
        // needs the -shm index beside it, which a user who cannot write there cannot build.
        const int code = sqlite3_extended_errcode(db) & 0xff;
        if (has_wal && (code == SQLITE_CANTOPEN || code == SQLITE_READONLY))
            throw EnvironmentError(path +
                                   ": cannot read the changes in its -wal file (left by a writer that was "
                                   "killed): reading them needs " +
                                   path +
                                   "-shm, which cannot be made or written "
                                   "here (" +
                                   sqlite3_errmsg(db) +
                                   "); open the database once with write access "
                                   "to it and its directory");
        throw InputError(path + ": unreadable SQLite database (" + sqlite3_errmsg(db) + ")");
    }
    // Here, where nothing can be written, rather than as a failing statement half-way.
    if (p.application_id == Store::kApplicationId && p.user_version > 0 &&
        p.user_version <= Store::kSchemaVersionLatest)
        check_schema(db, p.user_version, path);
    return p;
}

// Refuses, before anything is written, a file that is not a memwall database of a schema this
// build can read. Returns the schema version (0 for an empty file or an empty SQLite database).
int check_existing(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw EnvironmentError(path + ": cannot read (" + std::strerror(errno) + ")");
    std::array<char, 16> magic{};
    in.read(magic.data(), magic.size());
    if (in.gcount() == 0) return 0;  // an empty file becomes a fresh database
    if (in.gcount() != 16 || std::string_view(magic.data(), magic.size()) != std::string_view("SQLite format 3\0", 16))
        throw InputError(path + ": not a SQLite database");
    const Probe p = probe_database(path);
    const bool blank = p.application_id == 0 && p.tables == 0 && p.user_version == 0;
    if (!blank && p.application_id != Store::kApplicationId)
        throw InputError(path + ": not a memwall database (application_id " + hex32(p.application_id) +
                         ", memwall's is " + hex32(Store::kApplicationId) + ")");
    if (p.user_version > Store::kSchemaVersionLatest)
        throw InputError(path + ": written by a newer memwall (schema " + std::to_string(p.user_version) +
                         ", this memwall reads up to " + std::to_string(Store::kSchemaVersionLatest) + ")");
    return p.user_version;
}

// The directory SQLite creates the -wal and -shm files in.
std::string directory_of(const std::string& path) {
    const std::string dir = std::filesystem::path(path).parent_path().string();
    return dir.empty() ? "." : dir;
}

// Refuses, before SQLite fails half-way, a database that cannot be written: a read-only file
// (permission bits, an immutable file, a read-only mount) or a directory where the -wal and
// -shm files cannot be created.
void check_writable(const std::string& path, bool exists) {
    if (exists && ::access(path.c_str(), W_OK) != 0)
        throw EnvironmentError(path + ": cannot write the database (" + std::strerror(errno) + ")");
    const std::string dir = directory_of(path);
    if (::access(dir.c_str(), W_OK) != 0)
        throw EnvironmentError(dir + ": cannot write in the database's directory (" + std::strerror(errno) +
                               "); memwall keeps its -wal and -shm files beside the database");
}

constexpr const char* kRunColumns =
    "id, started_at, finished_at, status, host, backend, device, git_revision, command_line, "
    "memwall_version, sweep, owner_pid, owner_start, heartbeat_at";

RunInfo read_run(const Statement& st) {
    RunInfo r;
    r.id = st.int64(0);
    r.started_at = st.text(1);
    r.finished_at = st.text(2);
    r.status = stored_run_status(st.text(3));
    r.host = st.text(4);
    r.backend = st.text(5);
    r.device = st.text(6);
    r.git_revision = st.text(7);
    r.command_line = st.text(8);
    r.memwall_version = st.text(9);
    r.sweep = st.text(10);
    r.owner = {r.host, st.int64(11), st.text(12)};
    r.heartbeat_at = st.text(13);
    r.status = live_status(r.status, r.owner, r.started_at, r.heartbeat_at);
    return r;
}

std::map<std::string, std::string> read_tags(sqlite3* db, std::int64_t run_id) {
    std::map<std::string, std::string> tags;
    Statement st(db, "SELECT key, value FROM run_tags WHERE run_id = ?1");
    st.bind(1, run_id);
    while (st.step()) tags.emplace(st.text(0), st.text(1));
    return tags;
}

std::vector<RunAxis> read_axes(sqlite3* db, int schema, std::int64_t run_id) {
    std::vector<RunAxis> out;
    if (schema < 4) return out;  // opened read-only, so not migrated: it predates stored axes
    Statement st(db, "SELECT family, name, kind, role, description, choices FROM run_axes WHERE run_id = ?1");
    st.bind(1, run_id);
    while (st.step()) {
        RunAxis a;
        a.family = st.text(0);
        a.name = st.text(1);
        const auto kind = axis_kind_from(st.text(2));
        const auto role = axis_role_from(st.text(3));
        if (!kind || !role) throw InputError("a run's axis has an unknown kind or role in the database");
        a.kind = *kind;
        a.role = *role;
        a.description = st.text(4);
        try {
            a.choices = nlohmann::json::parse(st.text(5)).get<std::vector<std::string>>();
        } catch (const nlohmann::json::exception&) {
            throw InputError("a run's axis has malformed choices in the database");
        }
        out.push_back(std::move(a));
    }
    return out;
}

std::string describe(const CaseKey& k) {
    return k.family + "/" + k.variant + "/" + k.backend + " problem " + k.problem + " config " + k.config;
}

}  // namespace

std::string_view to_string(CaseStatus s) {
    for (const auto& [status, name] : kCaseStatusNames)
        if (status == s) return name;
    return "unknown";
}

std::optional<CaseStatus> case_status_from(std::string_view s) {
    for (const auto& [status, name] : kCaseStatusNames)
        if (name == s) return status;
    return std::nullopt;
}

std::string_view to_string(RunStatus s) {
    for (const auto& [status, name] : kRunStatusNames)
        if (status == s) return name;
    return "unknown";
}

std::optional<RunStatus> run_status_from(std::string_view s) {
    for (const auto& [status, name] : kRunStatusNames)
        if (name == s) return status;
    return std::nullopt;
}

namespace {

std::string utc_timestamp(std::chrono::system_clock::time_point now) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[80];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
}

}  // namespace

std::string utc_timestamp() { return utc_timestamp(std::chrono::system_clock::now()); }

RunStatus live_status(RunStatus stored, const Owner& owner, const std::string& started_at,
                      const std::string& heartbeat_at) {
    if (stored != RunStatus::running) return stored;
    if (owner.gone()) return RunStatus::abandoned;
    if (owner.pid != 0 && owner.host == host_name()) return RunStatus::running;  // alive here
    // Elsewhere, or from before owners were stored: silence for an hour means no one measures.
    const std::string& last = heartbeat_at.empty() ? started_at : heartbeat_at;
    const std::string hour_ago = utc_timestamp(std::chrono::system_clock::now() - std::chrono::hours(1));
    return last < hour_ago ? RunStatus::abandoned : RunStatus::running;
}

namespace {

// SQLite's unix VFS takes paths of up to 512 bytes and appends "-journal" to the database's.
constexpr std::size_t kMaxPathBytes = 504;

}  // namespace

Store Store::open(const std::string& path, Mode mode) {
    refuse_special_file(path);
    std::error_code ec;
    if (const auto bytes = std::filesystem::absolute(path, ec).string().size(); bytes > kMaxPathBytes)
        throw EnvironmentError(path + ": its absolute path is " + std::to_string(bytes) + " bytes; SQLite opens " +
                               "databases at paths of at most " + std::to_string(kMaxPathBytes) +
                               " (512, its limit, less the \"-journal\" it appends)");
    const bool exists = std::filesystem::exists(path, ec);
    if (!exists && mode != Mode::create) throw InputError(path + ": no such file");
    if (exists && std::filesystem::is_directory(path, ec)) throw EnvironmentError(path + ": is a directory");
    const int version = exists ? check_existing(path) : 0;
    if (mode == Mode::read_only && version < kSchemaVersionLatest) {
        if (version == 0) throw InputError(path + ": not a memwall database (empty)");
        throw InputError(path + ": schema " + std::to_string(version) + " is older than this memwall's " +
                         std::to_string(kSchemaVersionLatest) + "; open it for writing to migrate it");
    }
    if (mode != Mode::read_only) check_writable(path, exists);

    // Reading a WAL database needs its -shm file, which a read-only directory cannot hold. There
    // no process can write the database either (a writer needs a -wal or -journal file beside
    // it), so without a -wal file the main file is complete and is read as immutable.
    const bool immutable = mode == Mode::read_only && !std::filesystem::exists(path + "-wal", ec) &&
                           ::access(directory_of(path).c_str(), W_OK) != 0;
    const int flags = mode == Mode::read_only ? SQLITE_OPEN_READONLY
                      : mode == Mode::create  ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                              : SQLITE_OPEN_READWRITE;
    const std::string name = immutable ? file_uri(path) + "?immutable=1" : path;
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(name.c_str(), &raw, flags | (immutable ? SQLITE_OPEN_URI : 0), nullptr);
    Store store(raw, path);  // owns the handle even when opening failed
    if (rc != SQLITE_OK) throw EnvironmentError(path + ": cannot open (" + sqlite3_errstr(rc) + ")");
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, 10000);
    exec_sql(raw, "PRAGMA foreign_keys = ON");
    if (mode != Mode::read_only) {
        // WAL: readers (the GUI, `memwall show`) never block the sweep that writes. With WAL,
        // synchronous=NORMAL loses no committed case when the process is killed; only a power
        // loss can drop the last transactions, which a benchmark sweep can afford.
        exec_sql(raw, "PRAGMA journal_mode = WAL");
        exec_sql(raw, "PRAGMA synchronous = NORMAL");
        migrate(raw, version, kSchemaVersionLatest);
    }
    return store;
}

std::vector<std::string> Store::files(const std::string& path) {
    return {path, path + "-wal", path + "-shm", path + "-journal"};
}

Store::Store(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

Store::Store(Store&& o) noexcept : db_(std::exchange(o.db_, nullptr)), path_(std::move(o.path_)) {}

Store& Store::operator=(Store&& o) noexcept {
    if (this != &o) {
        sqlite3_close(db_);
        db_ = std::exchange(o.db_, nullptr);
        path_ = std::move(o.path_);
    }
    return *this;
}

Store::~Store() { sqlite3_close(db_); }

int Store::schema_version() const { return user_version(db_); }

std::int64_t Store::begin_run(RunInfo info) {
    if (info.started_at.empty()) info.started_at = utc_timestamp();
    if (info.owner.pid == 0) info.owner = Owner::self();
    Transaction tx(db_);
    Statement st(db_,
                 "INSERT INTO runs (started_at, finished_at, status, host, backend, device, git_revision, "
                 "command_line, memwall_version, sweep, owner_pid, owner_start) "
                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    st.bind(1, info.started_at);
    st.bind_text_or_null(2, info.finished_at);
    st.bind(3, to_string(info.status));
    st.bind(4, info.host);
    st.bind(5, info.backend);
    st.bind(6, info.device);
    st.bind_text_or_null(7, info.git_revision);
    st.bind(8, info.command_line);
    st.bind(9, info.memwall_version);
    st.bind(10, info.sweep);
    st.bind(11, info.owner.pid).bind_text_or_null(12, info.owner.start);
    st.run();
    const std::int64_t id = sqlite3_last_insert_rowid(db_);
    Statement tag(db_, "INSERT INTO run_tags (run_id, key, value) VALUES (?1, ?2, ?3)");
    for (const auto& [k, v] : info.tags) {
        tag.reset();
        tag.bind(1, id).bind(2, k).bind(3, v).run();
    }
    Statement axis(db_,
                   "INSERT INTO run_axes (run_id, family, name, kind, role, description, choices) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    for (const RunAxis& a : info.axes) {
        axis.reset();
        axis.bind(1, id).bind(2, a.family).bind(3, a.name).bind(4, to_string(a.kind)).bind(5, to_string(a.role));
        axis.bind(6, a.description).bind(7, nlohmann::json(a.choices).dump()).run();
    }
    tx.commit();
    return id;
}

void Store::claim_run(std::int64_t run_id) {
    const Owner me = Owner::self();
    Statement st(db_,
                 "UPDATE runs SET status = 'running', finished_at = NULL, host = ?1, owner_pid = ?2, owner_start = ?3, "
                 "heartbeat_at = ?4 WHERE id = ?5");
    st.bind(1, me.host).bind(2, me.pid).bind_text_or_null(3, me.start).bind(4, utc_timestamp()).bind(5, run_id).run();
    if (sqlite3_changes(db_) == 0) throw std::logic_error("claim_run: no run " + std::to_string(run_id));
}

void Store::finish_run(std::int64_t run_id, RunStatus status) {
    Statement st(db_, "UPDATE runs SET finished_at = ?1, status = ?2 WHERE id = ?3");
    st.bind(1, utc_timestamp()).bind(2, to_string(status)).bind(3, run_id).run();
    if (sqlite3_changes(db_) == 0) throw std::logic_error("finish_run: no run " + std::to_string(run_id));
    check_on_disk();
}

void Store::check_on_disk() const {
    int moved = 0;
    if (sqlite3_file_control(db_, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved)
        throw EnvironmentError(path_ +
                               ": the database was deleted or moved while memwall wrote to it; nothing this "
                               "command stored is on disk there");
}

void Store::set_tag(std::int64_t run_id, const std::string& key, const std::string& value) {
    Statement st(db_,
                 "INSERT INTO run_tags (run_id, key, value) VALUES (?1, ?2, ?3) "
                 "ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value");
    st.bind(1, run_id).bind(2, key).bind(3, value);
    if (st.run(true) != SQLITE_DONE) throw std::logic_error("set_tag: no run " + std::to_string(run_id));
}

std::vector<RunInfo> Store::runs() const {
    std::vector<RunInfo> out;
    std::map<std::int64_t, std::size_t> index;
    Statement st(db_, std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY started_at, id");
    while (st.step()) {
        out.push_back(read_run(st));
        index[out.back().id] = out.size() - 1;
    }
    Statement tags(db_, "SELECT run_id, key, value FROM run_tags");
    while (tags.step()) {
        // A foreign key keeps tags to existing runs in a file memwall wrote; a damaged one can break that.
        auto it = index.find(tags.int64(0));
        if (it == index.end())
            throw InputError("a tag in the database names run " + std::to_string(tags.int64(0)) +
                             ", which does not exist");
        out[it->second].tags.emplace(tags.text(1), tags.text(2));
    }
    const int schema = schema_version();
    for (RunInfo& r : out) r.axes = read_axes(db_, schema, r.id);
    return out;
}

std::optional<RunInfo> Store::run(std::int64_t run_id) const {
    Statement st(db_, std::string("SELECT ") + kRunColumns + " FROM runs WHERE id = ?1");
    st.bind(1, run_id);
    if (!st.step()) return std::nullopt;
    RunInfo r = read_run(st);
    r.tags = read_tags(db_, r.id);
    r.axes = read_axes(db_, schema_version(), r.id);
    return r;
}

std::optional<RunInfo> Store::latest_run() const {
    Statement st(db_, "SELECT id FROM runs ORDER BY started_at DESC, id DESC LIMIT 1");
    if (!st.step()) return std::nullopt;
    return run(st.int64(0));
}

std::vector<std::int64_t> Store::runs_tagged(const std::string& key, const std::string& value) const {
    Statement st(db_,
                 "SELECT r.id FROM runs r JOIN run_tags t ON t.run_id = r.id "
                 "WHERE t.key = ?1 AND t.value = ?2 ORDER BY r.started_at, r.id");
    st.bind(1, key).bind(2, value);
    std::vector<std::int64_t> ids;
    while (st.step()) ids.push_back(st.int64(0));
    return ids;
}

void Store::set_run_properties(std::int64_t run_id, const std::map<std::string, std::string>& properties) {
    Transaction tx(db_);
    Statement del(db_, "DELETE FROM run_properties WHERE run_id = ?1");
    del.bind(1, run_id).run();
    Statement ins(db_, "INSERT INTO run_properties (run_id, key, value) VALUES (?1, ?2, ?3)");
    for (const auto& [k, v] : properties) {
        ins.reset();
        ins.bind(1, run_id).bind(2, k).bind(3, v);
        if (ins.run(true) != SQLITE_DONE)
            throw std::logic_error("set_run_properties: no run " + std::to_string(run_id));
    }
    tx.commit();
}

std::map<std::string, std::string> Store::run_properties(std::int64_t run_id) const {
    std::map<std::string, std::string> out;
    Statement st(db_, "SELECT key, value FROM run_properties WHERE run_id = ?1");
    st.bind(1, run_id);
    while (st.step()) out.emplace(st.text(0), st.text(1));
    return out;
}

void Store::save_ceilings(std::int64_t run_id, const Ceilings& c) {
    for (const Ceiling& x : c.items)
        if (!std::isfinite(x.value) || !std::isfinite(x.capacity_bytes))
            throw std::logic_error("save_ceilings: ceiling " + x.name + " is not finite");
    Transaction tx(db_);
    Statement del(db_, "DELETE FROM ceilings WHERE run_id = ?1");
    del.bind(1, run_id).run();
    Statement ins(db_,
                  "INSERT INTO ceilings (run_id, name, kind, value, unit, method, capacity_bytes, unreliable, "
                  "reused_from_run) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    for (const Ceiling& x : c.items) {
        ins.reset();
        ins.bind(1, run_id).bind(2, x.name).bind(3, to_string(x.kind)).bind(4, x.value).bind(5, x.unit);
        ins.bind(6, x.method).bind(7, x.capacity_bytes).bind(8, x.unreliable);
        if (c.reused_from_run > 0)
            ins.bind(9, c.reused_from_run);
        else
            ins.bind_null(9);
        const int rc = ins.run(true);
        if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
            throw std::logic_error("save_ceilings: no run " + std::to_string(run_id));
        if (rc != SQLITE_DONE) throw std::logic_error("save_ceilings: ceiling " + x.name + " given twice");
    }
    tx.commit();
}

Ceilings Store::ceilings(std::int64_t run_id) const {
    Ceilings c;
    Statement st(db_,
                 "SELECT name, kind, value, unit, method, capacity_bytes, unreliable, reused_from_run FROM ceilings "
                 "WHERE run_id = ?1 ORDER BY rowid");
    st.bind(1, run_id);
    while (st.step()) {
        c.items.push_back(Ceiling{st.text(0), stored_ceiling_kind(st.text(1)), st.real(2), st.text(3), st.text(4),
                                  st.real(5), st.text(6)});
        // A run's ceilings come from one measurement, so they share their source run.
        if (!st.is_null(7)) c.reused_from_run = st.int64(7);
    }
    return c;
}

std::optional<std::int64_t> Store::latest_measured_ceilings_run(const std::string& host, const std::string& backend,
                                                                bool reliable_only) const {
    // runs.backend lists the sweep's backends separated by commas.
    Statement st(db_,
                 "SELECT r.id FROM runs r WHERE r.host = ?1 "
                 "AND instr(',' || r.backend || ',', ',' || ?2 || ',') > 0 "
                 "AND EXISTS (SELECT 1 FROM ceilings c WHERE c.run_id = r.id) "
                 "AND NOT EXISTS (SELECT 1 FROM ceilings c WHERE c.run_id = r.id "
                 "    AND (c.reused_from_run IS NOT NULL OR (?3 AND c.unreliable <> ''))) "
                 "ORDER BY r.started_at DESC, r.id DESC LIMIT 1");
    st.bind(1, host).bind(2, backend).bind(3, std::int64_t{reliable_only});
    if (!st.step()) return std::nullopt;
    return st.int64(0);
}

std::int64_t Store::save_case(const CaseRecord& c) {
    Transaction tx(db_);
    const std::int64_t id = insert_case(c);
    tx.commit();
    return id;
}

void Store::replace_cases(const std::vector<CaseRecord>& cases) {
    Transaction tx(db_);
    Statement del(db_,
                  "DELETE FROM cases WHERE run_id = ?1 AND family = ?2 AND variant = ?3 AND backend = ?4 AND "
                  "problem = ?5 AND config = ?6");
    for (const CaseRecord& c : cases) {
        del.reset();
        del.bind(1, c.run_id).bind(2, c.key.family).bind(3, c.key.variant).bind(4, c.key.backend);
        del.bind(5, c.key.problem).bind(6, c.key.config).run();
        insert_case(c);
    }
    tx.commit();
}

std::int64_t Store::insert_case(const CaseRecord& c) {
    std::vector<double> all;
    for (const auto& rep : c.samples) all.insert(all.end(), rep.begin(), rep.end());
    for (double x : all)
        if (!std::isfinite(x)) throw std::logic_error("save_case: non-finite sample in " + describe(c.key));
    for (const Counter& k : c.counters)
        if (!std::isfinite(k.value))
            throw std::logic_error("save_case: counter " + k.name + " is not finite in " + describe(c.key));
    const Summary s = summarize(all);
    const auto timed = [&s](double v) { return s.n == 0 ? std::nullopt : std::optional<double>(v); };

    Statement ins(db_,
                  "INSERT INTO cases (run_id, family, variant, backend, problem, config, status, message, "
                  "measured_at, n_samples, time_median, time_min, time_max, time_mean, time_stddev, time_q1, "
                  "time_q3, sampling_stop) "
                  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)");
    ins.bind(1, c.run_id).bind(2, c.key.family).bind(3, c.key.variant).bind(4, c.key.backend);
    ins.bind(5, c.key.problem).bind(6, c.key.config).bind(7, to_string(c.status)).bind(8, c.message);
    ins.bind(9, c.measured_at.empty() ? utc_timestamp() : c.measured_at);
    ins.bind(10, static_cast<std::int64_t>(s.n));
    ins.bind(11, timed(s.median)).bind(12, timed(s.min)).bind(13, timed(s.max)).bind(14, timed(s.mean));
    ins.bind(15, timed(s.stddev)).bind(16, timed(s.q1)).bind(17, timed(s.q3)).bind(18, c.sampling_stop);
    const int rc = ins.run(true);
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        throw std::logic_error("case already saved in run " + std::to_string(c.run_id) + ": " + describe(c.key));
    if (rc == SQLITE_CONSTRAINT_FOREIGNKEY) throw std::logic_error("save_case: no run " + std::to_string(c.run_id));
    if (rc != SQLITE_DONE) throw_sqlite_error(db_, "save_case");
    const std::int64_t id = sqlite3_last_insert_rowid(db_);

    Statement sample(db_, "INSERT INTO samples (case_id, rep, idx, seconds) VALUES (?1, ?2, ?3, ?4)");
    for (std::size_t r = 0; r < c.samples.size(); ++r) {
        for (std::size_t i = 0; i < c.samples[r].size(); ++i) {
            sample.reset();
            sample.bind(1, id).bind(2, static_cast<std::int64_t>(r)).bind(3, static_cast<std::int64_t>(i));
            sample.bind(4, c.samples[r][i]).run();
        }
    }
    Statement counter(db_, "INSERT INTO counters (case_id, name, value, unit, source) VALUES (?1, ?2, ?3, ?4, ?5)");
    for (const Counter& k : c.counters) {
        counter.reset();
        counter.bind(1, id).bind(2, k.name).bind(3, k.value).bind(4, k.unit).bind(5, to_string(k.source));
        if (counter.run(true) != SQLITE_DONE)
            throw std::logic_error("save_case: counter " + k.name + " (" + std::string(to_string(k.source)) +
                                   ") given twice in " + describe(c.key));
    }
    Statement beat(db_, "UPDATE runs SET heartbeat_at = ?1 WHERE id = ?2");
    beat.bind(1, utc_timestamp()).bind(2, c.run_id).run();
    return id;
}

std::set<CaseKey> Store::case_keys(std::int64_t run_id) const {
    std::set<CaseKey> keys;
    Statement st(db_, "SELECT family, variant, backend, problem, config FROM cases WHERE run_id = ?1");
    st.bind(1, run_id);
    while (st.step()) keys.insert(CaseKey{st.text(0), st.text(1), st.text(2), st.text(3), st.text(4)});
    return keys;
}

std::size_t Store::case_count(std::int64_t run_id) const {
    Statement st(db_, "SELECT count(*) FROM cases WHERE run_id = ?1");
    st.bind(1, run_id);
    st.step();
    return static_cast<std::size_t>(st.int64(0));
}

}  // namespace memwall
