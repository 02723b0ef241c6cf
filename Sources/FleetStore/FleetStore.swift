// The fleet console's durable store (SQLite): every proof-of-play record the screens sent, once per
// `(player, seq)` however often the broker delivers it, and every desired document the console pushed (the
// history a rollback picks from). Reports count plays per item, per screen and per day from the records as
// they were sent. Threads: any; every call takes `lock` around the database (SQLite's own file locking keeps
// several processes on one file apart). I/O under our own lock is the point here: the lock is the database's
// only owner, and nothing else waits on it but other store calls.

import JSONText
import SystemSupport

public final class FleetStore: @unchecked Sendable {
    private let lock = ThreadLock()
    // Guarded by `lock`.
    private let database: SQLiteDatabase
    private let insertPlay: SQLiteStatement
    private let insertDocument: SQLiteStatement

    public init(path: String) throws {
        database = try SQLiteDatabase(path: path)
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS plays (
              player TEXT NOT NULL, seq INTEGER NOT NULL, uri TEXT, start TEXT, "end" TEXT, seconds REAL,
              reason TEXT, day TEXT, record TEXT NOT NULL, PRIMARY KEY (player, seq)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS plays_by_day ON plays (day);
            CREATE TABLE IF NOT EXISTS documents (
              target TEXT NOT NULL, rev INTEGER NOT NULL, document TEXT NOT NULL, pushed_at REAL NOT NULL,
              pushed_by TEXT NOT NULL, PRIMARY KEY (target, rev)) WITHOUT ROWID;
            """)
        insertPlay = try database.prepare(
            #"INSERT OR IGNORE INTO plays (player, seq, uri, start, "end", seconds, reason, day, record) VALUES (?,?,?,?,?,?,?,?,?)"#)
        insertDocument = try database.prepare(
            "INSERT INTO documents (target, rev, document, pushed_at, pushed_by) VALUES (?,?,?,?,?)")
    }

    // MARK: proof of play

    /// One record as the broker delivered it: the player, its seq, the daemon's fields.
    public struct Play: Sendable, Equatable {
        public var player: String
        public var seq: Int64
        public var uri: String?
        public var start: String?
        public var end: String?
        public var seconds: Double?
        public var reason: String?
        /// The whole record as sent.
        public var record: JSONValue

        public init(player: String, seq: Int64, record: JSONValue) {
            self.player = player
            self.seq = seq
            self.record = record
            uri = record["uri"]?.stringValue
            start = record["start"]?.stringValue
            end = record["end"]?.stringValue
            seconds = record["seconds"]?.doubleValue
            reason = record["reason"]?.stringValue
        }

        /// The UTC day of its start (its end when it has no start): what reports group by.
        var day: String? { (start ?? end).map { String($0.prefix(10)) } }
    }

    /// Stores `plays` in one transaction; returns how many were new (a repeat of a `(player, seq)` is not).
    @discardableResult
    public func add(_ plays: [Play]) throws -> Int {
        try lock.withLock {
            try database.transaction {
                var added = 0
                for play in plays {
                    try insertPlay.run([
                        .text(play.player), .integer(play.seq), Self.text(play.uri), Self.text(play.start),
                        Self.text(play.end), play.seconds.map(SQLiteValue.real) ?? .null, Self.text(play.reason),
                        Self.text(play.day), .text(String(decoding: JSON.serialize(play.record), as: UTF8.self)),
                    ])
                    added += database.changes
                }
                return added
            }
        }
    }

    /// What a report covers: a range of UTC days (inclusive, `YYYY-MM-DD`), one player, one item.
    public struct Filter: Sendable, Equatable {
        public var from: String?
        public var to: String?
        public var player: String?
        public var uri: String?
        public init(from: String? = nil, to: String? = nil, player: String? = nil, uri: String? = nil) {
            self.from = from
            self.to = to
            self.player = player
            self.uri = uri
        }
    }

    /// One line of a report: plays of `uri` on `player` on `day`, and their seconds on screen.
    public struct ReportLine: Sendable, Equatable {
        public var day: String
        public var player: String
        public var uri: String
        public var plays: Int
        public var seconds: Double
    }

    /// Plays per item, per screen, per day (ordered by day, player, item).
    public func report(_ filter: Filter = Filter()) throws -> [ReportLine] {
        let (clause, values) = Self.whereClause(filter)
        let sql = """
            SELECT coalesce(day, ''), player, coalesce(uri, ''), count(*), coalesce(sum(seconds), 0) FROM plays\(clause)
            GROUP BY day, player, uri ORDER BY day, player, uri
            """
        return try lock.withLock {
            try database.prepare(sql).run(values).map { row in
                ReportLine(
                    day: row[0].string ?? "", player: row[1].string ?? "", uri: row[2].string ?? "",
                    plays: Int(row[3].int ?? 0), seconds: row[4].double ?? 0)
            }
        }
    }

    /// Every record in the filter, as sent (ordered by player and seq), at most `limit`.
    public func records(_ filter: Filter = Filter(), limit: Int = 100_000) throws -> [JSONValue] {
        let (clause, values) = Self.whereClause(filter)
        return try lock.withLock {
            // The player as the topic named it (what a screen may write), not as the record's body says.
            try database.prepare("SELECT record, player FROM plays\(clause) ORDER BY player, seq LIMIT ?")
                .run(values + [.integer(Int64(limit))])
                .compactMap { row in
                    guard var record = row[0].string.flatMap({ try? JSON.parse($0) })?.objectValue else { return nil }
                    record["player"] = row[1].string.map(JSONValue.string) ?? .null
                    return .object(record)
                }
        }
    }

    /// Records stored in all.
    public func playCount() throws -> Int {
        try lock.withLock { Int(try database.prepare("SELECT count(*) FROM plays").run()[0][0].int ?? 0) }
    }

    /// The highest seq stored per player.
    public func lastSeqs() throws -> [String: Int64] {
        try lock.withLock {
            var seqs: [String: Int64] = [:]
            for row in try database.prepare("SELECT player, max(seq) FROM plays GROUP BY player").run() {
                if let player = row[0].string, let seq = row[1].int { seqs[player] = seq }
            }
            return seqs
        }
    }

    private static func whereClause(_ filter: Filter) -> (String, [SQLiteValue]) {
        var terms: [String] = []
        var values: [SQLiteValue] = []
        if let from = filter.from { terms.append("day >= ?"); values.append(.text(from)) }
        if let to = filter.to { terms.append("day <= ?"); values.append(.text(to)) }
        if let player = filter.player { terms.append("player = ?"); values.append(.text(player)) }
        if let uri = filter.uri { terms.append("uri = ?"); values.append(.text(uri)) }
        return (terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND "), values)
    }

    private static func text(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }

    // MARK: documents pushed

    /// A desired document as the console pushed it to `target` (`group/NAME` or a player id).
    public struct PushedDocument: Sendable, Equatable {
        public var target: String
        public var rev: Int64
        public var document: JSONValue
        /// Seconds since 1970.
        public var pushedAt: Double
        public var pushedBy: String

        public init(target: String, rev: Int64, document: JSONValue, pushedAt: Double, pushedBy: String) {
            self.target = target
            self.rev = rev
            self.document = document
            self.pushedAt = pushedAt
            self.pushedBy = pushedBy
        }
    }

    public func recordPush(_ pushed: PushedDocument) throws {
        try lock.withLock {
            try insertDocument.run([
                .text(pushed.target), .integer(pushed.rev),
                .text(String(decoding: JSON.serialize(pushed.document), as: UTF8.self)), .real(pushed.pushedAt),
                .text(pushed.pushedBy),
            ])
        }
    }

    /// The document pushed to `target` as `rev`, if it was.
    public func document(target: String, rev: Int64) throws -> PushedDocument? {
        try history(target: target, rev: rev, limit: 1).first
    }

    /// What was pushed to `target`, newest first, at most `limit`.
    public func history(target: String, rev: Int64? = nil, limit: Int = 50) throws -> [PushedDocument] {
        try lock.withLock {
            try database.prepare(
                "SELECT target, rev, document, pushed_at, pushed_by FROM documents WHERE target = ?"
                    + (rev == nil ? "" : " AND rev = ?") + " ORDER BY rev DESC LIMIT ?"
            ).run([.text(target)] + (rev.map { [SQLiteValue.integer($0)] } ?? []) + [.integer(Int64(limit))]).compactMap { row in
                guard let target = row[0].string, let rev = row[1].int, let text = row[2].string,
                    let document = try? JSON.parse(text)
                else { return nil }
                return PushedDocument(
                    target: target, rev: rev, document: document, pushedAt: row[3].double ?? 0, pushedBy: row[4].string ?? "")
            }
        }
    }
}
