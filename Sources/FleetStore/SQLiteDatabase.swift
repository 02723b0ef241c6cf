// One SQLite database file: opened, statements prepared and stepped, errors as Swift errors, the handle and
// each statement finalized in `deinit`. Hand-written over Debian's libsqlite3 rather than GRDB: the store
// needs a handful of fixed statements, and this thin wrapper is the C boundary the project keeps everywhere
// else (GRDB's Linux build would add minutes to every CI run for what these ~150 lines do).
// Threads: not thread-safe by itself; its owner (FleetStore) uses it from one thread at a time under a lock.

import CSQLite

public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite error \(code): \(message)" }
}

/// A value bound to or read from a statement.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public var int: Int64? { if case .integer(let value) = self { value } else { nil } }
    public var double: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
    public var string: String? { if case .text(let value) = self { value } else { nil } }
}

/// SQLite's destructor meaning "copy the bytes now" (SQLITE_TRANSIENT, a macro Swift cannot import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

public final class SQLiteDatabase {
    private var handle: OpaquePointer?

    /// Opens (creating) `path`, in WAL mode with a busy timeout, so a reader never blocks the writer.
    public init(path: String) throws(SQLiteError) {
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw SQLiteError(code: rc, message: "\(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5000)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` (one or more statements, no parameters).
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        guard rc == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "failed"
            sqlite3_free(error)
            throw SQLiteError(code: rc, message: message)
        }
    }

    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw lastError(rc) }
        return SQLiteStatement(statement, database: self)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    func lastError(_ rc: Int32) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }
}

public final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// Runs the statement with `values` bound in order and returns every row (each its columns in order).
    @discardableResult
    public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (index, value) in values.enumerated() {
            let place = Int32(index + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, place)
            case .integer(let number): rc = sqlite3_bind_int64(statement, place, number)
            case .real(let number): rc = sqlite3_bind_double(statement, place, number)
            case .text(let text): rc = sqlite3_bind_text(statement, place, text, -1, transient)
            }
            guard rc == SQLITE_OK else { throw database.lastError(rc) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                let error = database.lastError(rc)
                sqlite3_reset(statement)
                throw error
            }
            rows.append((0..<sqlite3_column_count(statement)).map(column))
        }
        sqlite3_reset(statement)
        return rows
    }

    private func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, index))
        case SQLITE_NULL: .null
        default: .text(sqlite3_column_text(statement, index).map { String(cString: $0) } ?? "")
        }
    }
}
