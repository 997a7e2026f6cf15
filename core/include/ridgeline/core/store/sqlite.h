// SPDX-License-Identifier: MIT
// Thin RAII wrappers over the SQLite C API, returning Results instead of codes. Every database
// is opened hardened for untrusted input (defensive mode, no triggers, views or extensions).
#pragma once

#include "ridgeline/core/base/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace ridgeline::core::sqlite {

class Statement;
class CachedStatement;

class Database {
public:
    enum class Mode { ReadOnly, ReadWrite, Create };

    // Opens with every hardening option SQLite offers for untrusted files (see harden()).
    // `oneThreadAtATime`: the caller never uses the connection from two threads at once, so it
    // needs no mutex of its own (SQLITE_OPEN_NOMUTEX; saves a lock per bind and step).
    static Result<Database> open(const std::string& path, Mode mode, bool oneThreadAtATime = false);
    static Result<Database> openMemory();
    // An in-memory database holding a private copy of `image`, the bytes of a database file
    // (sqlite3_deserialize), hardened as open() hardens a file. ReadOnly: nothing can change it;
    // otherwise it can be written and grow. Nothing touches the disk. Errors: BadFile when SQLite
    // refuses the bytes (only once they are read: a query may fail later, as with a file).
    static Result<Database> openImage(std::string_view image, Mode mode);

    Database(Database&&) noexcept;
    Database& operator=(Database&&) noexcept;
    ~Database();

    void close();
    Status exec(const char* sql);
    Result<Statement> prepare(std::string_view sql);
    // The same as prepare(), but the statement is kept for the next use of the same SQL text on this
    // connection: reset and its bindings cleared, not prepared again (compiling SQL is most of the
    // cost of a small query). For the queries a reader runs again and again; nesting is fine (a
    // statement in use is never handed out twice).
    Result<CachedStatement> prepareCached(std::string_view sql);
    // First column of the first row as an integer (PRAGMA user_version and friends).
    Result<std::int64_t> queryInt(std::string_view sql);
    // The bytes a file of the main database would hold (sqlite3_serialize): for in-memory databases.
    Result<std::string> image();

    std::int64_t lastInsertRowid() const;
    std::string errorMessage() const;
    int errorCode() const;
    sqlite3* handle() const { return m_db; }

    // Wraps the current SQLite error of this connection into an Error with context.
    Error lastError(std::string_view context) const;

private:
    friend class CachedStatement;
    explicit Database(sqlite3* db)
        : m_db(db)
    { }
    Status harden();
    struct Cache;
    sqlite3* m_db = nullptr;
    std::shared_ptr<Cache> m_cache; // prepareCached's statements, finalized before the connection closes
};

class Statement {
public:
    enum class Step { Row, Done };

    Statement(Statement&&) noexcept;
    Statement& operator=(Statement&&) noexcept;
    ~Statement();

    void bind(int index, std::int64_t value);
    void bind(int index, int value) { bind(index, static_cast<std::int64_t>(value)); }
    void bind(int index, std::uint32_t value) { bind(index, static_cast<std::int64_t>(value)); }
    void bind(int index, double value);
    void bind(int index, std::string_view value); // copied by SQLite
    void bind(int index, const std::string& value) { bind(index, std::string_view(value)); }
    void bind(int index, const char* value) { bind(index, std::string_view(value)); }
    void bindNull(int index);
    void bindBlob(int index, std::string_view bytes); // copied by SQLite
    template <typename T> void bind(int index, const std::optional<T>& value)
    {
        if (value)
            bind(index, *value);
        else
            bindNull(index);
    }

    Result<Step> step();
    void clearBindings();
    // step() until Done, for statements without results.
    Status run();
    void reset();

    std::int64_t columnInt(int col) const;
    double columnDouble(int col) const;
    std::string columnText(int col) const;
    bool columnIsNull(int col) const;
    // The bytes of a BLOB (or TEXT) column, valid until the next step or reset.
    std::string_view columnBlob(int col) const;
    std::optional<std::int64_t> columnOptionalInt(int col) const;
    std::optional<double> columnOptionalDouble(int col) const;

private:
    friend class Database;
    Statement(sqlite3_stmt* stmt, sqlite3* db)
        : m_stmt(stmt)
        , m_db(db)
    { }
    sqlite3_stmt* m_stmt = nullptr;
    sqlite3* m_db = nullptr;
};

// A statement from Database::prepareCached: used as a Statement, given back (reset, bindings
// cleared) when it goes out of scope. It may outlive its database (it is then only finalized).
class CachedStatement {
public:
    CachedStatement(CachedStatement&&) noexcept = default;
    CachedStatement& operator=(CachedStatement&&) = delete;
    ~CachedStatement();

    Statement& operator*() { return *m_statement; }
    Statement* operator->() { return m_statement.get(); }

private:
    friend class Database;
    CachedStatement(std::weak_ptr<Database::Cache> cache, std::string sql, std::unique_ptr<Statement> statement);
    std::weak_ptr<Database::Cache> m_cache;
    std::string m_sql;
    std::unique_ptr<Statement> m_statement;
};

// Runs a statement body inside BEGIN/COMMIT; rolls back when it fails.
class Transaction {
public:
    static Result<Transaction> begin(Database& db);
    Transaction(Transaction&&) noexcept;
    Transaction& operator=(Transaction&&) = delete;
    ~Transaction();
    Status commit();

private:
    explicit Transaction(Database* db)
        : m_db(db)
    { }
    Database* m_db = nullptr;
};

} // namespace ridgeline::core::sqlite
