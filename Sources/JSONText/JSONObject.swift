// A JSON object's members. Order is kept because what we write should read the way we built it
// ("jsonrpc" first, then "result", then "id") and because a round trip should not shuffle a client's keys.

/// Insertion-ordered members with unique keys.
///
/// - Assigning to an existing key replaces its value in place; assigning `nil` removes the member.
/// - A key repeated in parsed text or in `init(_:)` keeps its first position and its last value
///   ("last one wins", as most JSON parsers do; RFC 8259 leaves it open).
/// - Equality and hashing ignore member order: `{"a":1,"b":2} == {"b":2,"a":1}`, as for JSON objects.
///
/// Lookup is a linear scan while the object is small (wire messages have a handful of members, and a scan
/// of a few short strings beats hashing) and goes through a key → position dictionary once it grows past
/// `indexThreshold`, so parsing an object with thousands of members stays linear.
public struct JSONObject: Sendable {
    public typealias Member = (key: String, value: JSONValue)

    /// Above this many members, lookups go through `index`.
    static let indexThreshold = 16

    private var members: [Member] = []
    /// key → position in `members`; nil while the object is small. Rebuilt after removals.
    private var index: [String: Int]?

    public init() {}

    /// Members in the given order; a repeated key keeps its first position and its last value.
    public init(_ members: [(String, JSONValue)]) {
        self.members.reserveCapacity(members.count)
        for (key, value) in members {
            self[key] = value
        }
    }

    /// Members from the parser's parallel stacks. Same rules as `init(_:)`, sized up front because
    /// every parsed object comes through here.
    init(keys: ArraySlice<String>, values: ArraySlice<JSONValue>) {
        members.reserveCapacity(keys.count)
        for (key, value) in zip(keys, values) {
            self[key] = value
        }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }
    public var values: [JSONValue] { members.map(\.value) }

    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].value
        }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append((key, newValue))
                if index != nil {
                    index?[key] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    /// Whether a member named `key` exists (its value may be `.null`).
    public func contains(_ key: String) -> Bool {
        position(of: key) != nil
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(members.count)
        for (position, member) in members.enumerated() {
            index[member.key] = position
        }
        self.index = index
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    public var underestimatedCount: Int { members.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Keys are unique on both sides, so equal counts plus every lhs member found in rhs is equality.
        return lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==: a commutative sum of per-member hashes.
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }
}

extension JSONObject: CustomStringConvertible {
    public var description: String { JSON.string(.object(self)) }
}
