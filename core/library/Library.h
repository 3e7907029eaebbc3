#pragma once
// The library: an index of record files in a database (Qt Sql), SQLite in a file by default
// or a shared PostgreSQL database (`postgresql://user@host:port/db`, or `?host=/socket/dir`).
// The same schema and the same statements on both (docs/LIBRARY.md).
//
// The JSON files stay the truth. Each add reads the file with loadRecord, hashes it and stores
// its entry (LibraryEntry) in one transaction, so a crash mid-add leaves the library as before.
// Two processes adding at once: SQLite writers take the write lock up front (BEGIN IMMEDIATE)
// and wait for each other up to the busy timeout; PostgreSQL serialises them itself.
// The schema is versioned (table jb_schema); opening an older library migrates it step by step
// in one transaction; a newer or unreadable one is refused with a message that offers
// `joulebench-cli library rebuild`.
#include <jb/base/Result.h>
#include <jb/library/LibraryEntry.h>
#include <jb/library/LibraryQuery.h>

#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace jb {

struct LibraryLocation {
    enum class Kind { SQLite, PostgreSQL } kind = Kind::SQLite;
    std::string file;  // SQLite
    std::string host, user, password, database;
    int port = -1;
    std::string display;  // for messages: the file, or the URL without its password
};
// A file path, or a postgresql:// (postgres://) URL. The error names what is wrong with it.
Result<LibraryLocation> parseLibraryLocation(const std::string& spec);

// The per-user default: <generic data folder>/joulebench/library.sqlite (on Linux
// ~/.local/share/joulebench/library.sqlite), shared by the dashboard and the CLI.
std::string defaultLibraryPath();
// flag if given, else $JOULEBENCH_LIBRARY if set, else defaultLibraryPath().
std::string librarySpec(const std::string& flag);

enum class AddOutcome { Added, Unchanged, Reindexed, Moved };
const char* addOutcomeName(AddOutcome o);
struct AddResult {
    AddOutcome outcome = AddOutcome::Added;
    std::int64_t id = 0;
    std::string moved_from;  // Moved: the old path
};

// One file added as part of another (a comparison's records): its outcome or why not.
struct AddedMember {
    std::string path;
    std::optional<AddResult> result;
    std::string error;  // when result is empty
};
// What Library::add did with one file.
struct AddedFile {
    LibraryFileKind kind = LibraryFileKind::Record;
    std::optional<AddResult> result;   // a record or a manifest
    std::vector<AddedMember> members;  // a comparison: its records
};

struct RefreshReport {
    int unchanged = 0, reindexed = 0, missing = 0, returned = 0;
    std::vector<std::string> notes;  // one line per changed, missing or unreadable file
};

class Library {
public:
    static constexpr int kSchemaVersion = 2;

    // Opens (creating an empty SQLite file and its folder where there is none) and migrates.
    // With create false, a SQLite file that is not there is an error naming it (a misspelt
    // path read from must not become a new, empty library); PostgreSQL databases are not made.
    static Result<std::unique_ptr<Library>> open(const std::string& spec, bool create = true);
    // For the migration tests: creates a fresh library at an earlier schema version.
    static Status createAtVersion(const std::string& spec, int version);
    ~Library();
    Library(const Library&) = delete;
    Library& operator=(const Library&) = delete;

    const LibraryLocation& location() const { return loc_; }
    int schemaVersionFound() const { return found_version_; }  // before migrating

    // Reads, hashes and indexes one record file. Unchanged (same path and hash): nothing done.
    // Same path, other hash: re-indexed. New path with the hash of an entry whose file is
    // gone: moved. The error names the file (loadRecord's message) or the database's reason.
    Result<AddResult> addFile(const std::string& path);
    // A job manifest (manifest.json of `jobs run` or the Jobs page, or the reference driver's)
    // as one entry (entryFromManifest), with the same rules as addFile.
    Result<AddResult> addManifest(const std::string& path);
    // A comparison record (comparison.json of `measure --out-dir`): the records it names, each
    // as addFile. The error is for the comparison itself (unreadable, not a comparison);
    // a member that cannot be added is reported in its own row.
    Result<std::vector<AddedMember>> addComparison(const std::string& path);
    // Any file JouleBench writes: a record, a comparison record or a job manifest, told apart
    // by its top-level keys (libraryFileKindOf). What the dashboard and `library add` call.
    Result<AddedFile> add(const std::string& path);

    // Stores entries as they are (no file read), all in one transaction (the benchmark).
    Status addEntries(std::vector<LibraryEntry> entries);

    // Entries matching q, oldest first; figures restricted to q.counter when set. rounds:
    // also load the per-round J per decode (check and trend need them; list does not).
    // details false: only what the `list` table and the Library page show (and trend needs) is
    // read: the path, label, host, status, start time, commit and dirty flag, and per counter
    // the round and verdict counts, median/min/max J per decode and s per decode. The sha256,
    // size, meta, counters, host_system/machine, tool, branch and outliers are left empty.
    Result<std::vector<LibraryEntry>> list(const LibraryQuery& q, bool rounds = false, bool details = true);
    Result<std::int64_t> count();

    // Every entry's file hashed again: changed files re-indexed, gone ones marked missing,
    // files that came back unmarked.
    Result<RefreshReport> refresh();

    // Counter profiles (`characterize`, core/counters/CounterProfile): one per host and counter
    // spec, the latest kept, in table jb_profiles (created where missing; it needs no schema
    // version of its own). LibraryProfiles.cpp.
    Status storeProfile(const std::string& host, const std::string& spec, const std::string& measured_at,
                        const std::string& profile_json);
    // The stored profile's JSON text; none where that host and counter have none.
    Result<std::optional<std::string>> profileFor(const std::string& host, const std::string& spec);

private:
    Library() = default;
    Status connect();
    Status prepareSchema();
    Status exec(const std::string& sql);
    Status begin();
    Status commit();
    void rollback();
    Result<AddResult> store(LibraryEntry e, bool allow_move);
    Result<AddResult> storeOne(LibraryEntry e);  // store in its own transaction
    Status insertDetails(const LibraryEntry& e);

    LibraryLocation loc_;
    QString connection_;
    int found_version_ = 0;
};

// For the places that write or open a file (the dashboard's saves and opens; core/run's
// MeasureRun and JobRun, behind `measure`, `jobs run` and the Measure and Jobs pages): opens the library (librarySpec(spec)) and adds path to it (Library::add). The
// error says why not; the caller warns and goes on (a library never costs a record).
Result<AddedFile> addToLibrary(const std::string& path, const std::string& spec = {});

// Rebuilds the library from the files: the paths it lists (read as far as the old file
// allows) plus `paths` (files or folders, recursively). A SQLite file that cannot be opened
// is moved aside to FILE.broken-<time> (kept), then a new one is made; on PostgreSQL the
// jb_ tables are dropped and made again. Returns the lines to show the user.
Result<std::vector<std::string>> rebuildLibrary(const std::string& spec, const std::vector<std::string>& paths);

// The record files under path: path itself if it is a file, else every *.json below it (sorted).
std::vector<std::string> recordFilesUnder(const std::string& path);

}  // namespace jb
