// How every method handler reads its params: by name or by position alike, with one wording for each
// kind of mistake, so that -32602 answers read the same across the API. Fed an RPCRequest's params by
// the dispatcher; hands typed values to the handler. Type errors throw; absent or null gives nil.

/// Typed access to a request's params, named or positional.
///
/// Positional params are mapped to names by `order` (the method's parameter list in the API contract), so
/// `[[1,2]]` and `{"ids":[1,2]}` read the same for `order: ["ids"]`. A `null` counts as absent: an
/// optional parameter may be passed as null, and a required one may not.
public struct ParamReader: Sendable {
    private let values: JSONObject

    /// Throws `invalidParams` for more positional params than `order` names ("expected at most N
    /// parameters", no param) and for a name `order` does not list ("unknown parameter").
    public init(_ params: RPCParams?, order: [String]) throws(RPCError) {
        switch params {
        case nil:
            values = JSONObject()
        case .byName(let members):
            for key in members.keys where !order.contains(key) {
                throw .invalidParams(param: key, reason: "unknown parameter")
            }
            values = members
        case .byPosition(let elements):
            guard elements.count <= order.count else {
                let noun = order.count == 1 ? "parameter" : "parameters"
                throw .invalidParams(param: nil, reason: "expected at most \(order.count) \(noun)")
            }
            values = JSONObject(Array(zip(order, elements)))
        }
    }

    /// Present and not null.
    public func has(_ name: String) -> Bool {
        if let value = values[name] { !value.isNull } else { false }
    }

    /// The value as sent, `.null` included; nil when absent.
    public func raw(_ name: String) -> JSONValue? {
        values[name]
    }

    /// Every param by name (positional ones under their names), for params read as one object.
    public var object: JSONObject { values }

    /// The names that were passed (by name, or mapped from positions), in the order sent.
    public var names: [String] { values.keys }

    public func int(_ name: String) throws(RPCError) -> Int64? {
        try read(name, "must be an integer") { $0.intValue }
    }

    /// Also checks the range: "must be between a and b", or "must be >= a" / "must be <= b" when the other
    /// end is the limit of Int64.
    public func int(_ name: String, in range: ClosedRange<Int64>) throws(RPCError) -> Int64? {
        guard let value = try int(name) else { return nil }
        guard range.contains(value) else {
            throw .invalidParams(param: name, reason: Self.rangeReason(range, lower: .min, upper: .max))
        }
        return value
    }

    public func requiredInt(_ name: String) throws(RPCError) -> Int64 {
        try required(name, try int(name))
    }

    /// Any finite number (an integer too).
    public func double(_ name: String) throws(RPCError) -> Double? {
        try read(name, "must be a number") { value in value.doubleValue.flatMap { $0.isFinite ? $0 : nil } }
    }

    /// Also checks the range, worded as for integers.
    public func double(_ name: String, in range: ClosedRange<Double>) throws(RPCError) -> Double? {
        guard let value = try double(name) else { return nil }
        guard range.contains(value) else {
            let reason = Self.rangeReason(range, lower: -.greatestFiniteMagnitude, upper: .greatestFiniteMagnitude)
            throw .invalidParams(param: name, reason: reason)
        }
        return value
    }

    public func requiredDouble(_ name: String) throws(RPCError) -> Double {
        try required(name, try double(name))
    }

    public func bool(_ name: String) throws(RPCError) -> Bool? {
        try read(name, "must be a boolean") { $0.boolValue }
    }

    public func string(_ name: String) throws(RPCError) -> String? {
        try read(name, "must be a string") { $0.stringValue }
    }

    public func requiredString(_ name: String) throws(RPCError) -> String {
        try required(name, try string(name))
    }

    public func object(_ name: String) throws(RPCError) -> JSONObject? {
        try read(name, "must be an object") { $0.objectValue }
    }

    public func array(_ name: String) throws(RPCError) -> [JSONValue]? {
        try read(name, "must be an array") { $0.arrayValue }
    }

    public func requiredArray(_ name: String) throws(RPCError) -> [JSONValue] {
        try required(name, try array(name))
    }

    public func intArray(_ name: String) throws(RPCError) -> [Int64]? {
        try read(name, "must be an array of integers") { value in
            value.arrayValue.flatMap { elements in Self.all(elements, \.intValue) }
        }
    }

    public func stringArray(_ name: String) throws(RPCError) -> [String]? {
        try read(name, "must be an array of strings") { value in
            value.arrayValue.flatMap { elements in Self.all(elements, \.stringValue) }
        }
    }

    /// A string naming one of `type`'s cases; the error lists them all: "must be one of fit, fill, stretch".
    public func `enum`<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type) throws(RPCError) -> E?
    where E.RawValue == String {
        let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
        return try read(name, "must be one of \(allowed)") { $0.stringValue.flatMap(E.init(rawValue:)) }
    }

    /// nil when absent or null; otherwise `convert`'s value, or `reason` when it gives nil.
    private func read<T>(
        _ name: String, _ reason: @autoclosure () -> String, _ convert: (JSONValue) -> T?
    )
        throws(RPCError) -> T?
    {
        guard let value = values[name], !value.isNull else { return nil }
        guard let converted = convert(value) else { throw .invalidParams(param: name, reason: reason()) }
        return converted
    }

    private func required<T>(_ name: String, _ value: T?) throws(RPCError) -> T {
        guard let value else { throw .invalidParams(param: name, reason: "is required") }
        return value
    }

    /// Every element converted, or nil if any one does not convert.
    private static func all<T>(_ elements: [JSONValue], _ convert: (JSONValue) -> T?) -> [T]? {
        var converted: [T] = []
        converted.reserveCapacity(elements.count)
        for element in elements {
            guard let value = convert(element) else { return nil }
            converted.append(value)
        }
        return converted
    }

    /// "must be between a and b", or one-sided when an end is `lower`/`upper` (the type's own limit).
    private static func rangeReason<T: Comparable>(_ range: ClosedRange<T>, lower: T, upper: T) -> String {
        let from = describe(range.lowerBound)
        let to = describe(range.upperBound)
        if range.upperBound >= upper { return "must be >= \(from)" }
        if range.lowerBound <= lower { return "must be <= \(to)" }
        return "must be between \(from) and \(to)"
    }

    /// Whole doubles without ".0" ("between 0.5 and 2"), so the wording matches the API contract.
    private static func describe<T>(_ bound: T) -> String {
        if let double = bound as? Double, let whole = Int64(exactly: double) { return String(whole) }
        return "\(bound)"
    }
}
