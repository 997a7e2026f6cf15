// SPDX-License-Identifier: MIT
#include "ridgeline/core/store/sqlite.h"

#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <sqlite3.h>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ridgeline::core::sqlite {

namespace {

ErrorCode codeFor(int sqliteCode)
{
    switch (sqliteCode & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_FORMAT:
    case SQLITE_SCHEMA:
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_MISMATCH:
        return ErrorCode::BadFile;
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_READONLY:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return ErrorCode::Io;
    default:
        return ErrorCode::Internal;
    }
}

} // namespace

// prepareCached's idle statements by SQL text. Texts that vary (a reader's window clauses, per-table
// queries) could grow it without bound: past kMaxTexts texts, statements of new texts are finalized after use.
struct Database::Cache {
    static constexpr std::size_t kMaxTexts = 256;
    static constexpr std::size_t kMaxIdlePerText = 4;
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
    };
    std::unordered_map<std::string, std::vector<std::unique_ptr<Statement>>, Hash, std::equal_to<>> idle;
};

namespace {

// Before SQLite's first use in the process: no count of its memory in use, which takes a global
// mutex on every allocation it makes (Ridgeline never asks for those counts). Refused, harmlessly,
// when something else in the process started SQLite first.
void configureSqlite()
{
    static const int configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    (void)configured;
}

} // namespace

Result<Database> Database::open(const std::string& path, Mode mode, bool oneThreadAtATime)
{
    configureSqlite();
    int flags = SQLITE_OPEN_NOFOLLOW | (oneThreadAtATime ? SQLITE_OPEN_NOMUTEX : 0);
    switch (mode) {
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::Create:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    }
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
    Database db(raw);
    if (rc != SQLITE_OK) {
        const char* msg = raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
        return makeError(codeFor(rc), fmt::format("cannot open {}: {}", path, msg));
    }
    RIDGELINE_TRY(db.harden());
    return db;
}

Result<Database> Database::openMemory()
{
    configureSqlite();
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    Database db(raw);
    if (rc != SQLITE_OK)
        return makeError(ErrorCode::Internal, "cannot open an in-memory database");
    RIDGELINE_TRY(db.harden());
    return db;
}

Result<Database> Database::openImage(std::string_view image, Mode mode)
{
    configureSqlite();
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    Database db(raw);
    if (rc != SQLITE_OK)
        return makeError(ErrorCode::Internal, "cannot open an in-memory database");
    // SQLite owns (and frees) the copy; an empty image is an empty database.
    const auto size = static_cast<sqlite3_uint64>(image.size());
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(size > 0 ? size : 1));
    if (copy == nullptr)
        return makeError(ErrorCode::Io, "out of memory for an in-memory database");
    if (!image.empty())
        std::memcpy(copy, image.data(), image.size());
    const unsigned flags = SQLITE_DESERIALIZE_FREEONCLOSE
        | (mode == Mode::ReadOnly ? SQLITE_DESERIALIZE_READONLY : SQLITE_DESERIALIZE_RESIZEABLE);
    const int loaded = sqlite3_deserialize(
        raw, "main", copy, static_cast<sqlite3_int64>(size), static_cast<sqlite3_int64>(size), flags);
    if (loaded != SQLITE_OK) // the copy is freed by SQLite even then
        return makeError(codeFor(loaded), fmt::format("cannot load the database image: {}", sqlite3_errmsg(raw)));
    RIDGELINE_TRY(db.harden());
    return db;
}

Result<std::string> Database::image()
{
    sqlite3_int64 size = 0;
    unsigned char* bytes = sqlite3_serialize(m_db, "main", &size, 0);
    if (bytes == nullptr) {
        // An empty database has no pages: SQLite returns nothing for it.
        if (size == 0)
            return std::string();
        return makeError(ErrorCode::Io, "cannot serialise the database (out of memory)");
    }
    std::string out(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
    sqlite3_free(bytes);
    return out;
}

// Every session file may come from someone else: nothing in it may run code, and a
// corrupt file must produce an error rather than undefined reads.
Status Database::harden()
{
    const int options[][2] = {
        { SQLITE_DBCONFIG_DEFENSIVE, 1 },
        { SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0 },
        { SQLITE_DBCONFIG_ENABLE_TRIGGER, 0 },
        { SQLITE_DBCONFIG_ENABLE_VIEW, 0 },
        { SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0 },
        { SQLITE_DBCONFIG_DQS_DML, 0 },
        { SQLITE_DBCONFIG_DQS_DDL, 0 },
    };
    for (const auto& [option, value] : options) {
        int applied = -1;
        if (sqlite3_db_config(m_db, option, value, &applied) != SQLITE_OK || applied != value)
            return makeError(ErrorCode::Internal, fmt::format("SQLite refused hardening option {}", option));
    }
    sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, 64 * 1024 * 1024);
    sqlite3_limit(m_db, SQLITE_LIMIT_SQL_LENGTH, 1024 * 1024);
    sqlite3_limit(m_db, SQLITE_LIMIT_COLUMN, 256);
    sqlite3_limit(m_db, SQLITE_LIMIT_EXPR_DEPTH, 200);
    sqlite3_limit(m_db, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
    sqlite3_limit(m_db, SQLITE_LIMIT_ATTACHED, 2);
    sqlite3_busy_timeout(m_db, 5000);
    RIDGELINE_TRY(exec("PRAGMA cell_size_check=ON; PRAGMA mmap_size=0;"));
    return {};
}

Database::Database(Database&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_cache(std::move(other.m_cache))
{ }

Database& Database::operator=(Database&& other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
        m_cache = std::move(other.m_cache);
    }
    return *this;
}

Database::~Database()
{
    close();
}

void Database::close()
{
    m_cache.reset(); // finalizes the idle statements; one still in use is finalized when it goes
    sqlite3_close_v2(std::exchange(m_db, nullptr));
}

Status Database::exec(const char* sql)
{
    char* msg = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &msg);
    if (rc != SQLITE_OK) {
        Error error = makeError(codeFor(rc), msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return error;
    }
    return {};
}

Result<Statement> Database::prepare(std::string_view sql)
{
    sqlite3_stmt* stmt = nullptr;
    const int rc
        = sqlite3_prepare_v3(m_db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK)
        return lastError("preparing a query");
    return Statement(stmt, m_db);
}

Result<CachedStatement> Database::prepareCached(std::string_view sql)
{
    if (!m_cache)
        m_cache = std::make_shared<Cache>();
    if (auto it = m_cache->idle.find(sql); it != m_cache->idle.end() && !it->second.empty()) {
        auto statement = std::move(it->second.back());
        it->second.pop_back();
        return CachedStatement(m_cache, std::string(sql), std::move(statement));
    }
    auto statement = prepare(sql);
    if (statement.hasError())
        return statement.error();
    return CachedStatement(m_cache, std::string(sql), std::make_unique<Statement>(std::move(statement).value()));
}

Result<std::int64_t> Database::queryInt(std::string_view sql)
{
    auto stmt = prepareCached(sql);
    if (stmt.hasError())
        return stmt.error();
    auto step = stmt.value()->step();
    if (step.hasError())
        return step.error();
    if (step.value() != Statement::Step::Row)
        return makeError(ErrorCode::Internal, fmt::format("no result for: {}", sql));
    return stmt.value()->columnInt(0);
}

CachedStatement::CachedStatement(
    std::weak_ptr<Database::Cache> cache, std::string sql, std::unique_ptr<Statement> statement)
    : m_cache(std::move(cache))
    , m_sql(std::move(sql))
    , m_statement(std::move(statement))
{ }

CachedStatement::~CachedStatement()
{
    auto cache = m_cache.lock();
    if (!m_statement || !cache)
        return; // moved from, or its database is closed: the statement is only finalized
    m_statement->reset();
    m_statement->clearBindings();
    auto it = cache->idle.find(m_sql);
    if (it == cache->idle.end()) {
        if (cache->idle.size() >= Database::Cache::kMaxTexts)
            return;
        it = cache->idle.emplace(std::move(m_sql), std::vector<std::unique_ptr<Statement>>()).first;
    }
    if (it->second.size() < Database::Cache::kMaxIdlePerText)
        it->second.push_back(std::move(m_statement));
}

std::int64_t Database::lastInsertRowid() const
{
    return sqlite3_last_insert_rowid(m_db);
}

std::string Database::errorMessage() const
{
    return sqlite3_errmsg(m_db);
}

int Database::errorCode() const
{
    return sqlite3_extended_errcode(m_db);
}

Error Database::lastError(std::string_view context) const
{
    const int rc = sqlite3_errcode(m_db);
    return makeError(codeFor(rc), fmt::format("{}: {}", context, sqlite3_errmsg(m_db)));
}

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_db(other.m_db)
{ }

Statement& Statement::operator=(Statement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
    }
    return *this;
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

void Statement::bind(int index, std::int64_t value)
{
    sqlite3_bind_int64(m_stmt, index, value);
}

void Statement::bind(int index, double value)
{
    sqlite3_bind_double(m_stmt, index, value);
}

void Statement::bind(int index, std::string_view value)
{
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}

void Statement::bindBlob(int index, std::string_view bytes)
{
    sqlite3_bind_blob64(m_stmt, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
}

std::string_view Statement::columnBlob(int col) const
{
    const void* data = sqlite3_column_blob(m_stmt, col);
    if (!data)
        return {};
    return { static_cast<const char*>(data), static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)) };
}

void Statement::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
}

Result<Statement::Step> Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return Step::Row;
    if (rc == SQLITE_DONE)
        return Step::Done;
    const int code = sqlite3_extended_errcode(m_db);
    return makeError(codeFor(code), sqlite3_errmsg(m_db));
}

Status Statement::run()
{
    for (;;) {
        auto result = step();
        if (result.hasError()) {
            reset();
            return result.error();
        }
        if (result.value() == Step::Done)
            break;
    }
    reset();
    return {};
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
}

void Statement::clearBindings()
{
    sqlite3_clear_bindings(m_stmt);
}

std::int64_t Statement::columnInt(int col) const
{
    return sqlite3_column_int64(m_stmt, col);
}

double Statement::columnDouble(int col) const
{
    return sqlite3_column_double(m_stmt, col);
}

std::string Statement::columnText(int col) const
{
    const auto* text = sqlite3_column_text(m_stmt, col);
    if (!text)
        return {};
    return std::string(
        reinterpret_cast<const char*>(text), static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col)));
}

bool Statement::columnIsNull(int col) const
{
    return sqlite3_column_type(m_stmt, col) == SQLITE_NULL;
}

std::optional<std::int64_t> Statement::columnOptionalInt(int col) const
{
    if (columnIsNull(col))
        return std::nullopt;
    return columnInt(col);
}

std::optional<double> Statement::columnOptionalDouble(int col) const
{
    if (columnIsNull(col))
        return std::nullopt;
    return columnDouble(col);
}

Result<Transaction> Transaction::begin(Database& db)
{
    RIDGELINE_TRY(db.exec("BEGIN IMMEDIATE"));
    return Transaction(&db);
}

Transaction::Transaction(Transaction&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
{ }

Transaction::~Transaction()
{
    if (m_db)
        (void)m_db->exec("ROLLBACK");
}

Status Transaction::commit()
{
    Database* db = std::exchange(m_db, nullptr);
    auto status = db->exec("COMMIT");
    if (status.hasError())
        (void)db->exec("ROLLBACK");
    return status;
}

} // namespace ridgeline::core::sqlite
