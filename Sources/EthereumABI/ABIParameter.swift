/// A named, typed parameter of a function, event or error, as a JSON ABI describes it.
///
/// For a tuple type (or an array of tuples), `components` names the tuple's fields, recursively;
/// for other types it is empty. `indexed` is meaningful for event parameters only.
public struct ABIParameter: Hashable, Sendable, CustomStringConvertible {
    /// The parameter's name; empty when unnamed.
    public var name: String
    /// The parameter's type.
    public var type: ABIType
    /// Names of the innermost tuple's components (recursively), when the type is a tuple or an array of
    /// tuples; otherwise empty.
    public var components: [ABIParameter]
    /// For event parameters: whether the value goes into a topic rather than the data.
    public var indexed: Bool

    /// Creates a parameter. When `components` is empty and the type contains a tuple, unnamed
    /// components are derived from the type.
    public init(name: String = "", type: ABIType, components: [ABIParameter] = [], indexed: Bool = false) {
        self.name = name
        self.type = type
        self.indexed = indexed
        if components.isEmpty, case .tuple(let types) = type.innermostElement {
            self.components = types.map { ABIParameter(type: $0) }
        } else {
            self.components = components
        }
    }

    /// The human-readable form, e.g. `string indexed userId` or `(uint256 a, bool b)[] list`.
    public var description: String {
        var out = humanReadableType
        if indexed { out += " indexed" }
        if !name.isEmpty { out += " " + name }
        return out
    }

    /// The type with component names, e.g. `(uint256 a, bool b)[]`.
    var humanReadableType: String {
        guard case .tuple = type.innermostElement else { return type.description }
        let inner = "(" + components.map(\.description).joined(separator: ", ") + ")"
        return inner + type.arraySuffix
    }
}

extension ABIType {
    /// The element type after removing every array level (`(uint8,bool)[2][]` → `(uint8,bool)`).
    public var innermostElement: ABIType {
        var t = self
        while case .array(let element, _) = t { t = element }
        return t
    }

    /// The array suffixes of the type, outermost last (`uint8[2][]` → `"[2][]"`).
    var arraySuffix: String {
        var suffixes: [String] = []
        var t = self
        while case .array(let element, let count) = t {
            suffixes.append(count.map { "[\($0)]" } ?? "[]")
            t = element
        }
        return suffixes.reversed().joined()
    }
}
