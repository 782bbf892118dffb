import EthereumPrimitives

/// A contract's NatSpec documentation, merged from the compiler's `userdoc` (`@notice`) and `devdoc` (`@title`,
/// `@author`, `@dev`, `@param`, `@return`) outputs, as solc and vyper write them (the Solidity documentation,
/// "NatSpec Format"). Entries are keyed by canonical signature (`transfer(address,uint256)`).
public struct NatSpec: Sendable, Hashable {
    /// `@title`.
    public var title: String?
    /// `@author`.
    public var author: String?
    /// The contract's `@notice`.
    public var notice: String?
    /// The contract's `@dev`.
    public var details: String?
    /// Functions (and `constructor`) by canonical signature.
    public var functions: [String: NatSpecEntry]
    /// Events by canonical signature.
    public var events: [String: NatSpecEntry]
    /// Custom errors by canonical signature.
    public var errors: [String: NatSpecEntry]

    /// Empty documentation.
    public init(
        title: String? = nil, author: String? = nil, notice: String? = nil, details: String? = nil,
        functions: [String: NatSpecEntry] = [:], events: [String: NatSpecEntry] = [:], errors: [String: NatSpecEntry] = [:]
    ) {
        self.title = title
        self.author = author
        self.notice = notice
        self.details = details
        self.functions = functions
        self.events = events
        self.errors = errors
    }

    /// True when nothing is documented.
    public var isEmpty: Bool {
        title == nil && author == nil && notice == nil && details == nil && functions.isEmpty && events.isEmpty && errors.isEmpty
    }

    /// Reads `userdoc` and `devdoc` objects (either may be nil). Members of unexpected shapes are skipped:
    /// documentation never makes an artifact unreadable.
    public init(userdoc: JSONValue?, devdoc: JSONValue?) {
        self.init()
        for doc in [userdoc, devdoc].compactMap({ $0 }) {
            title = title ?? doc["title"]?.stringValue
            author = author ?? doc["author"]?.stringValue
            notice = notice ?? doc["notice"]?.stringValue
            details = details ?? doc["details"]?.stringValue
            NatSpec.merge(doc["methods"], into: &functions)
            NatSpec.merge(doc["events"], into: &events)
            NatSpec.merge(doc["errors"], into: &errors)
        }
    }

    private static func merge(_ section: JSONValue?, into table: inout [String: NatSpecEntry]) {
        guard case .object(let members)? = section else { return }
        for (signature, value) in members {
            // Errors are documented as an array of entries (one per declaration of the same signature).
            let entries: [JSONValue]
            if case .array(let list) = value { entries = list } else { entries = [value] }
            for entry in entries {
                var merged = table[signature] ?? NatSpecEntry()
                merged.merge(entry)
                table[signature] = merged
            }
        }
    }
}

/// The NatSpec of one function, event or error.
public struct NatSpecEntry: Sendable, Hashable {
    /// `@notice`.
    public var notice: String?
    /// `@dev`.
    public var details: String?
    /// `@param` by parameter name.
    public var params: [String: String]
    /// `@return` by output name, or `_0`, `_1`, … for unnamed outputs.
    public var returns: [String: String]

    /// An empty entry.
    public init(notice: String? = nil, details: String? = nil, params: [String: String] = [:], returns: [String: String] = [:]) {
        self.notice = notice
        self.details = details
        self.params = params
        self.returns = returns
    }

    mutating func merge(_ json: JSONValue) {
        if let s = json.stringValue {
            // Old solc wrote a bare string for a method's notice.
            notice = notice ?? s
            return
        }
        notice = notice ?? json["notice"]?.stringValue
        details = details ?? json["details"]?.stringValue
        if case .object(let members)? = json["params"] {
            for (name, text) in members { if let text = text.stringValue { params[name] = text } }
        }
        if case .object(let members)? = json["returns"] {
            for (name, text) in members { if let text = text.stringValue { returns[name] = text } }
        } else if let text = json["return"]?.stringValue {
            returns["_0"] = text
        }
    }
}
