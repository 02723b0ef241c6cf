// File-name order for directory expansion: runs of digits compare as numbers, so "2.mp4" comes before
// "10.mp4" as a person numbering signage clips expects (plain byte order would put 10 first). Other
// characters compare case-insensitively first, then exactly, so the order is total and stable.

enum NaturalOrder {
    static func isBefore(_ lhs: String, _ rhs: String) -> Bool {
        let order = compare(Array(lhs.lowercased().unicodeScalars), Array(rhs.lowercased().unicodeScalars))
        if order != 0 { return order < 0 }
        // Same ignoring case and leading zeros: fall back to byte order for a deterministic result.
        return Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8))
    }

    /// -1, 0 or 1.
    private static func compare(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                let startA = i
                let startB = j
                while i < a.count, isDigit(a[i]) { i += 1 }
                while j < b.count, isDigit(b[j]) { j += 1 }
                let order = compareDigits(Array(a[startA..<i]), Array(b[startB..<j]))
                if order != 0 { return order }
            } else {
                if a[i] != b[j] { return a[i].value < b[j].value ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        if i < a.count { return 1 }
        if j < b.count { return -1 }
        return 0
    }

    /// Numeric comparison of digit runs of any length (no overflow): strip leading zeros, then longer is
    /// bigger, then digit by digit.
    private static func compareDigits(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        let x = a.drop { $0 == "0" }
        let y = b.drop { $0 == "0" }
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (p, q) in zip(x, y) where p != q { return p.value < q.value ? -1 : 1 }
        return 0
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
}
