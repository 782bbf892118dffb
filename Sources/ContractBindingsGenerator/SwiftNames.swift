import Foundation

/// Turning Solidity and Vyper names into Swift identifiers, the same way every time: `$` becomes `_`, a leading
/// digit gets `_`, Swift keywords get a trailing `_`, parameters lose their leading and trailing underscores
/// (`_owner` → `owner`, `name_` → `name`).
enum SwiftNames {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol", "some", "any",
        "async", "borrowing", "consuming", "package",
    ]

    /// A valid identifier for `name` (which may be empty: then `fallback`).
    static func identifier(_ name: String, fallback: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || scalar == "_" {
                out.unicodeScalars.append(scalar)
            } else {
                out += "_"
            }
        }
        if out.isEmpty || out.allSatisfy({ $0 == "_" }) { return fallback }
        if let first = out.first, first.isNumber { out = "_" + out }
        if keywords.contains(out) { out += "_" }
        return out
    }

    /// A parameter or field name: underscores trimmed, first letter lowercased when the rest is not all caps.
    static func member(_ name: String, fallback: String) -> String {
        var trimmed = Substring(name)
        while trimmed.first == "_" { trimmed = trimmed.dropFirst() }
        while trimmed.last == "_" { trimmed = trimmed.dropLast() }
        return identifier(lowerFirst(String(trimmed)), fallback: fallback)
    }

    /// A type name: first letter uppercased.
    static func type(_ name: String, fallback: String) -> String {
        var trimmed = Substring(name)
        while trimmed.first == "_" { trimmed = trimmed.dropFirst() }
        let id = identifier(upperFirst(String(trimmed)), fallback: fallback)
        return id
    }

    /// An enum case name: the leading capitals lowercased, so a case never equals a type name (`URI` → `uri`,
    /// `EIP712DomainChanged` → `eip712DomainChanged`, `UUPSUnauthorizedCallContext` → `uupsUnauthorizedCallContext`).
    static func caseName(_ name: String, fallback: String) -> String {
        var trimmed = Substring(name)
        while trimmed.first == "_" { trimmed = trimmed.dropFirst() }
        let scalars = Array(trimmed)
        var run = 0
        while run < scalars.count, scalars[run].isUppercase { run += 1 }
        // Keep the last capital of a run that starts a word ("UUPSUnauthorized": the "U" of "Unauthorized").
        if run > 1, run < scalars.count, scalars[run].isLowercase { run -= 1 }
        let lowered = String(scalars[..<run]).lowercased() + String(scalars[run...])
        return identifier(lowered, fallback: fallback)
    }

    /// `transfer` → `Transfer`.
    static func upperFirst(_ s: String) -> String {
        guard let first = s.first else { return s }
        return first.uppercased() + s.dropFirst()
    }

    /// `Transfer` → `transfer`; `URI` stays `URI`, `DOMAIN_SEPARATOR` stays.
    static func lowerFirst(_ s: String) -> String {
        guard let first = s.first else { return s }
        let rest = s.dropFirst()
        if first.isUppercase, let second = rest.first, second.isUppercase || second == "_" || second.isNumber { return s }
        return first.lowercased() + rest
    }

    /// The suffix naming an overload by its parameter types: `(address,uint256[],(bool,bytes))` →
    /// `address_uint256Array_tuple`.
    static func signatureSuffix(_ types: [String]) -> String {
        if types.isEmpty { return "" }
        return types.map { type in
            var t = type
            if t.hasPrefix("(") {
                // The tuple's own text goes; its array suffixes stay.
                var depth = 0
                var end = t.startIndex
                for i in t.indices {
                    if t[i] == "(" { depth += 1 } else if t[i] == ")" { depth -= 1; if depth == 0 { end = i; break } }
                }
                t = "tuple" + t[t.index(after: end)...]
            }
            return t.replacingOccurrences(of: "[", with: "Array").replacingOccurrences(of: "]", with: "")
        }.joined(separator: "_")
    }
}
