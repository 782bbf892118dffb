import EthereumABI
import EthereumPrimitives
import Foundation

/// Generates the Swift binding of a contract from its artifact: one type per contract over `EthereumContracts`'
/// ``Contract`` runtime, with a method per function, a struct per tuple, a struct per event (with a filter
/// builder), an enum of the custom errors, `deploy(…)` when the artifact has bytecode, `receive`/`fallback`, and doc
/// comments from the artifact's NatSpec. docs/CONTRACTS.md describes the output; `carchain bindgen` and the
/// `ContractBindings` build plugin both call ``generate(_:options:)``.
public enum BindingGenerator {
    /// How the code is generated.
    public struct Options: Sendable, Hashable {
        /// `public` or `internal` declarations.
        public enum Access: String, Sendable, Hashable, CaseIterable { case `public`, `internal` }
        /// The declarations' access level.
        public var access: Access
        /// The type's name (nil: from the contract's name).
        public var typeName: String?
        /// The input file, named in the header comment.
        public var sourceName: String?

        public init(access: Access = .public, typeName: String? = nil, sourceName: String? = nil) {
            self.access = access
            self.typeName = typeName
            self.sourceName = sourceName
        }
    }

    /// A generated file.
    public struct Output: Sendable, Hashable {
        /// The Swift type generated.
        public var typeName: String
        /// The contract's name in its artifact.
        public var contractName: String
        /// `<TypeName>.swift`.
        public var fileName: String { typeName + ".swift" }
        /// The source text.
        public var source: String
    }

    /// The binding of `artifact`.
    public static func generate(_ artifact: ContractArtifact, options: Options = Options()) -> Output {
        var writer = Writer(artifact: artifact, options: options)
        return Output(typeName: writer.typeName, contractName: artifact.name, source: writer.render())
    }

    /// The import every generated file has, after its header comment.
    public static let importLine = "import EthereumContracts\n"

    /// The type name a contract gets (`erc20-token` → `Erc20Token`; `ERC20` stays).
    public static func typeName(for contractName: String) -> String {
        let parts = contractName.split(whereSeparator: { !($0.isLetter || $0.isNumber) })
        let joined = parts.map { SwiftNames.upperFirst(String($0)) }.joined()
        return SwiftNames.type(joined, fallback: "Contract")
    }
}

/// Writes one binding.
private struct Writer {
    let artifact: ContractArtifact
    let options: BindingGenerator.Options
    let typeName: String
    let acc: String
    let mapper: TypeMapper
    var out = ""

    /// Members of the generated type that functions, events and structs must not take.
    static let fixedMembers: Set<String> = [
        "abi", "bytecode", "contract", "address", "backend", "init", "deploy", "Calls", "Event", "Error", "events", "receive",
        "fallback", "options", "with", "functions",
    ]

    init(artifact: ContractArtifact, options: BindingGenerator.Options) {
        self.artifact = artifact
        self.options = options
        typeName = options.typeName ?? BindingGenerator.typeName(for: artifact.name)
        acc = options.access == .public ? "public " : ""
        mapper = TypeMapper(taken: Writer.fixedMembers.union([typeName]))
    }

    // MARK: Layout

    mutating func render() -> String {
        let abi = artifact.abi
        let abiJSON = artifact.abiJSON.arrayValue ?? []
        // JSON entries by kind, in ABI order, for internalType.
        func entries(_ kind: String) -> [JSONValue] {
            abiJSON.filter { ($0["type"]?.stringValue ?? "function") == kind }
        }
        let functionJSON = entries("function")
        let eventJSON = entries("event")
        let errorJSON = entries("error")
        let constructorJSON = entries("constructor").first

        // Names first: events, then errors' cases, then functions (their output structs), so structs named by
        // parameters never take an event's name.
        let eventNames = Writer.disambiguated(abi.events.map { ($0.name, $0.inputs.map(\.type.description)) }).map { SwiftNames.type($0, fallback: "Event") }
        var eventTypeNames: [String] = []
        for name in eventNames { eventTypeNames.append(mapper.claim(name)) }
        let functionNames = Writer.disambiguated(abi.functions.map { ($0.name, $0.inputs.map(\.type.description)) }).map {
            let id = SwiftNames.identifier($0, fallback: "function")
            return Writer.fixedMembers.contains(id) ? id + "_" : id
        }
        let errorNames = Writer.disambiguated(abi.errors.map { ($0.name, $0.inputs.map(\.type.description)) }).map {
            SwiftNames.caseName($0, fallback: "error")
        }

        var body = ""
        // Functions
        var calls = ""
        var methods = ""
        for (i, function) in abi.functions.enumerated() {
            let json = i < functionJSON.count ? functionJSON[i] : nil
            let (call, method) = functionCode(function, index: i, name: functionNames[i], json: json)
            calls += call
            methods += method
        }
        // Events
        var events = ""
        for (i, event) in abi.events.enumerated() {
            events += eventCode(event, index: i, typeName: eventTypeNames[i], json: i < eventJSON.count ? eventJSON[i] : nil)
        }
        let eventEnum = abi.events.isEmpty ? "" : eventEnumCode(abi.events, typeNames: eventTypeNames)
        // Errors
        let errors = errorEnumCode(abi.errors, caseNames: errorNames, json: errorJSON)
        // Deployment
        let deploy = deployCode(abi.constructor, json: constructorJSON)
        // Structs come last: the functions, events and errors above registered them.
        var structs = ""
        for s in mapper.structs { structs += structCode(s) }

        body += members()
        body += deploy
        if !methods.isEmpty { body += "    // MARK: Functions\n\n" + methods }
        body += receiveAndFallback()
        if !calls.isEmpty {
            body += "\n    // MARK: Calls\n\n"
            body += "    /// Each function as a prepared call (calldata and the decoding of its result), for ``Contract/call(_:options:)``,\n"
            body += "    /// ``Contract/send(_:options:)``, ``Contract/estimateGas(_:options:)`` and batching.\n"
            body += "    \(acc)enum Calls {\n" + calls + "    }\n"
        }
        if !structs.isEmpty { body += "\n    // MARK: Structs\n" + structs }
        if !events.isEmpty { body += "\n    // MARK: Events\n" + events + eventEnum }
        if !errors.isEmpty { body += "\n    // MARK: Errors\n" + errors }

        var text = header()
        text += doc(contractDoc(), indent: "")
        text += "\(acc)struct \(typeName): Sendable {\n"
        text += body
        text += "}\n"
        return text
    }

    func header() -> String {
        var source = options.sourceName.map { " from \($0)" } ?? ""
        source += " (\(artifact.format.rawValue), contract \(artifact.name))"
        return """
            // Generated by carchain bindgen\(source).
            // Do not edit: regenerate it (`carchain bindgen`, or the ContractBindings build plugin).

            import EthereumContracts


            """
    }

    func contractDoc() -> [String] {
        let spec = artifact.documentation
        var lines: [String] = []
        if let title = spec.title { lines.append(title) }
        if let notice = spec.notice { lines.append(notice) }
        if let details = spec.details { lines.append(details) }
        if lines.isEmpty { lines.append("The typed binding of the `\(artifact.name)` contract.") }
        if let author = spec.author { lines += ["", "- Author: \(author)"] }
        return lines
    }

    mutating func members() -> String {
        let json = artifact.abi.jsonValue.description
        var hashes = "#"
        while json.contains("\"" + hashes) { hashes += "#" }
        var text = """
                /// The contract's ABI.
                \(acc)static let abi = ContractABI.generated(\(hashes)"\(json)"\(hashes))

            """
        if let bytecode = artifact.bytecode {
            text += """
                    /// The creation code (\(bytecode.count) bytes).
                    \(acc)static let bytecode = [UInt8].generatedBytecode("\(Hex.encode(bytecode))")

                """
        }
        text += """
                /// The bound contract: address, ABI and backend (the dynamic API and events are on it too).
                \(acc)let contract: Contract

                /// The contract's address.
                \(acc)var address: Address { contract.address }

                /// Binds the contract deployed at `address`.
                \(acc)init(address: Address, backend: any ContractBackend) {
                    contract = Contract(address: address, abi: Self.abi, backend: backend)
                }

                /// Binds a ``Contract`` (its ABI is replaced by this binding's).
                \(acc)init(_ contract: Contract) {
                    self.contract = Contract(address: contract.address, abi: Self.abi, backend: contract.backend)
                }

                /// The same contract over another backend (e.g. one signing as another account).
                \(acc)func with(backend: any ContractBackend) -> \(typeName) {
                    \(typeName)(address: address, backend: backend)
                }

            """
        return text
    }

    // MARK: Functions

    /// Parameters with unique Swift names (`options` is the methods' own).
    func parameterNames(_ parameters: [Parameter], reserved: Set<String> = ["options"]) -> [String] {
        var used = reserved
        var names: [String] = []
        for (i, p) in parameters.enumerated() {
            var name = SwiftNames.member(p.name, fallback: "arg\(i)")
            if used.contains(name) { name = used.contains(name + "_") ? "arg\(i)" : name + "_" }
            used.insert(name)
            names.append(name)
        }
        return names
    }

    mutating func functionCode(_ function: ABIFunction, index: Int, name: String, json: JSONValue?) -> (call: String, method: String) {
        let inputs = Parameter.list(function.inputs, json: json?["inputs"])
        let outputs = Parameter.list(function.outputs, json: json?["outputs"])
        let names = parameterNames(inputs)
        let types = inputs.map { mapper.swiftType($0) }
        let signatureParams = zip(names, types).map { "\($0): \($1.name)" }.joined(separator: ", ")
        let arguments = "[" + zip(names, types).map { $1.encode($0) }.joined(separator: ", ") + "]"
        let labels = names.map { "\($0): \($0)" }.joined(separator: ", ")

        // The output type and its decoding.
        let outputType: String
        let decodeBody: String
        let path = "\"\(function.name) returned value\""
        switch outputs.count {
        case 0:
            outputType = "Void"
            decodeBody = "_ in ()"
        case 1:
            let t = mapper.swiftType(outputs[0])
            outputType = t.name
            decodeBody = "(values: [ABIValue]) throws(ContractError) -> \(t.name) in " + t.decode("values[0]", path, 0)
        default:
            let structName = SwiftNames.type(name, fallback: "Function") + "Output"
            let tuple = Parameter(name: structName, type: .tuple(outputs.map(\.type)), components: outputs, internalType: "struct \(structName)", indexed: false)
            outputType = mapper.swiftType(tuple).name
            decodeBody = "(values: [ABIValue]) throws(ContractError) -> \(outputType) in try \(outputType)(abiValue: .tuple(values), path: \(path))"
        }

        let spec = artifact.documentation.functions[function.signature]
        var docLines: [String] = []
        if let notice = spec?.notice { docLines.append(notice) }
        if let details = spec?.details { docLines.append(details) }
        docLines.append("`\(function.signature)`, selector `\(function.selector)`, \(function.stateMutability.rawValue).")
        var call = doc(docLines, indent: "        ")
        call += "        \(acc)static func \(name)(\(signatureParams)) throws(ContractError) -> ContractCall<\(outputType)> {\n"
        call += "            try ContractCall(\(typeName).abi.functions[\(index)], \(arguments)) { \(decodeBody) }\n"
        call += "        }\n\n"

        var methodDoc = docLines
        let parameterDocs = zip(inputs, names).compactMap { p, n in spec?.params[p.name].map { "  - \(n): \($0)" } }
        if !parameterDocs.isEmpty || spec?.returns.isEmpty == false { methodDoc.append("") }
        if !parameterDocs.isEmpty { methodDoc += ["- Parameters:"] + parameterDocs }
        let returns = outputs.enumerated().compactMap { i, o in spec?.returns[o.name.isEmpty ? "_\(i)" : o.name] ?? spec?.returns["_\(i)"] }
        var method = ""
        let separator = signatureParams.isEmpty ? "" : ", "
        if function.isReadOnly {
            if !returns.isEmpty { methodDoc.append("- Returns: " + returns.joined(separator: "; ")) }
            method += doc(methodDoc, indent: "    ")
            method += "    \(acc)func \(name)(\(signatureParams)\(separator)options: CallOptions = .latest) async throws -> \(outputType) {\n"
            method += "        try await contract.call(try Calls.\(name)(\(labels)), options: options)\n"
            method += "    }\n\n"
        } else {
            if !returns.isEmpty { methodDoc.append("- Returns: the receipt (the function's return values, " + returns.joined(separator: "; ") + ", come from `contract.call(Calls.\(name)(…))`)") }
            if function.stateMutability == .payable { methodDoc.append("Payable: send wei with `options: TransactOptions(value: …)`.") }
            method += doc(methodDoc, indent: "    ")
            method += "    @discardableResult\n"
            method += "    \(acc)func \(name)(\(signatureParams)\(separator)options: TransactOptions = .default) async throws -> ContractReceipt {\n"
            method += "        try await contract.send(try Calls.\(name)(\(labels)), options: options)\n"
            method += "    }\n\n"
        }
        return (call, method)
    }

    // MARK: Deployment, receive, fallback

    mutating func deployCode(_ constructor: ABIConstructor?, json: JSONValue?) -> String {
        let inputs = Parameter.list(constructor?.inputs ?? [], json: json?["inputs"])
        let names = parameterNames(inputs, reserved: ["options", "backend", "bytecode"])
        let types = inputs.map { mapper.swiftType($0) }
        let params = zip(names, types).map { "\($0): \($1.name), " }.joined()
        let arguments = "[" + zip(names, types).map { $1.encode($0) }.joined(separator: ", ") + "]"
        let labels = names.map { "\($0): \($0), " }.joined()
        let spec = artifact.documentation.functions["constructor"]
        var lines = ["Deploys the contract with `bytecode` (e.g. compiled elsewhere) and binds it."]
        if let notice = spec?.notice { lines.append(notice) }
        var text = "\n    // MARK: Deployment\n\n"
        text += doc(lines, indent: "    ")
        text += "    \(acc)static func deploy(bytecode: [UInt8], \(params)backend: any ContractBackend, options: TransactOptions = .default) async throws -> (contract: \(typeName), outcome: TransactionOutcome) {\n"
        text += "        let (contract, outcome) = try await Contract.deploy(bytecode: bytecode, abi: abi, arguments: \(arguments), backend: backend, options: options)\n"
        text += "        return (\(typeName)(contract), outcome)\n"
        text += "    }\n\n"
        if artifact.bytecode != nil {
            text += doc(["Deploys the contract (its creation code is in the artifact this binding was generated from) and binds it."], indent: "    ")
            text += "    \(acc)static func deploy(\(params)backend: any ContractBackend, options: TransactOptions = .default) async throws -> (contract: \(typeName), outcome: TransactionOutcome) {\n"
            text += "        try await deploy(bytecode: bytecode, \(labels)backend: backend, options: options)\n"
            text += "    }\n\n"
        }
        return text
    }

    func receiveAndFallback() -> String {
        var text = ""
        let items = artifact.abi.items
        if items.contains(.receive) {
            text += doc(["Sends `value` wei with no calldata: the contract's `receive()` runs."], indent: "    ")
            text += "    @discardableResult\n"
            text += "    \(acc)func receive(value: UInt256, options: TransactOptions = .default) async throws -> ContractReceipt {\n"
            text += "        var options = options\n        options.value = value\n"
            text += "        return try await contract.sendRaw(calldata: [], options: options)\n    }\n\n"
        }
        if let mutability = items.lazy.compactMap({ item -> StateMutability? in if case .fallback(let m) = item { return m } else { return nil } }).first {
            text += doc(["Sends `calldata` that names no function: the contract's `fallback()` runs (\(mutability.rawValue))."], indent: "    ")
            text += "    @discardableResult\n"
            text += "    \(acc)func fallback(calldata: [UInt8], options: TransactOptions = .default) async throws -> ContractReceipt {\n"
            text += "        try await contract.sendRaw(calldata: calldata, options: options)\n    }\n\n"
        }
        return text
    }

    // MARK: Structs

    func structCode(_ s: TypeMapper.TupleStruct) -> String {
        var text = "\n"
        text += doc(["The ABI tuple `\(s.type)`."], indent: "    ")
        text += "    \(acc)struct \(s.name): ABITuple {\n"
        var types: [SwiftType] = []
        for (name, p) in s.fields {
            let t = mapper.swiftType(p)
            types.append(t)
            text += "        \(acc)var \(name): \(t.name)\n"
        }
        text += "\n        \(acc)static let abiType: ABIType = \(TypeMapper.expression(s.type))\n\n"
        let initParams = zip(s.fields, types).map { "\($0.name): \($1.name)" }.joined(separator: ", ")
        text += "        \(acc)init(\(initParams)) {\n"
        for (name, _) in s.fields { text += "            self.\(name) = \(name)\n" }
        text += "        }\n\n"
        text += "        \(acc)init(abiValue: ABIValue, path: String) throws(ContractError) {\n"
        text += "            let components = try abiValue.decodeTuple(count: \(s.fields.count), path: path)\n"
        for (i, ((name, _), t)) in zip(s.fields, types).enumerated() {
            text += "            \(name) = " + t.decode("components[\(i)]", "path + \".\(name)\"", 0) + "\n"
        }
        text += "        }\n\n"
        text += "        \(acc)var abiValue: ABIValue {\n"
        text += "            .tuple([" + zip(s.fields, types).map { $1.encode($0.name) }.joined(separator: ", ") + "])\n"
        text += "        }\n"
        text += "    }\n"
        return text
    }

    // MARK: Events

    mutating func eventCode(_ event: ABIEvent, index: Int, typeName eventType: String, json: JSONValue?) -> String {
        let inputs = Parameter.list(event.inputs, json: json?["inputs"])
        let names = parameterNames(inputs, reserved: ["event", "abiValue"])
        let spec = artifact.documentation.events[event.signature]
        var lines: [String] = []
        if let notice = spec?.notice { lines.append(notice) }
        if let details = spec?.details { lines.append(details) }
        lines.append("`\(event.signature)`" + (event.anonymous ? " (anonymous)" : ", topic 0 `\(event.topic0)`") + ".")
        let hashedNote = inputs.contains { $0.indexed && !$0.type.isElementary }
        if hashedNote { lines.append("Indexed `string`, `bytes`, array and tuple parameters are in the log as their keccak256 hash only (`Bytes32` fields).") }
        var text = "\n" + doc(lines, indent: "    ")
        text += "    \(acc)struct \(eventType): ContractEvent {\n"
        var fieldTypes: [String] = []
        var decodes: [String] = []
        for (i, (p, name)) in zip(inputs, names).enumerated() {
            let path = "\"\(event.name).\(name)\""
            if p.indexed && !p.type.isElementary {
                fieldTypes.append("Bytes32")
                decodes.append("try log.values[\(i)].decodeHash(path: \(path))")
            } else {
                let t = mapper.swiftType(p)
                fieldTypes.append(t.name)
                decodes.append(t.decode("log.values[\(i)].decodeValue(path: \(path))", path, 0))
            }
            if let d = spec?.params[p.name] { text += "        /// \(Writer.oneLine(d))\n" }
            text += "        \(acc)var \(name): \(fieldTypes[i])\n"
        }
        text += "\n        \(acc)static var event: ABIEvent { \(typeName).abi.events[\(index)] }\n\n"
        text += "        \(acc)init(" + zip(names, fieldTypes).map { "\($0): \($1)" }.joined(separator: ", ") + ") {\n"
        for name in names { text += "            self.\(name) = \(name)\n" }
        text += "        }\n\n"
        text += "        \(acc)init(decoded log: ABIDecodedLog) throws(ContractError) {\n"
        text += "            guard log.values.count == \(inputs.count) else {\n"
        text += "                throw .unexpectedData(what: \"a \(event.name) log\", reason: \"\\(log.values.count) values, expected \(inputs.count)\")\n"
        text += "            }\n"
        for (name, d) in zip(names, decodes) { text += "            \(name) = \(d)\n" }
        text += "        }\n"
        // The filter builder over the indexed parameters.
        let indexed = zip(inputs, names).filter { $0.0.indexed }
        if !indexed.isEmpty {
            var params: [String] = []
            var values: [String] = []
            for (p, name) in indexed {
                let t = mapper.swiftType(p)
                params.append("\(name): \(t.name)? = nil")
                values.append("\(name).map { [\(t.encode("$0"))] }")
            }
            text += "\n        /// A filter of these logs by their indexed parameters (nil: any value).\n"
            text += "        \(acc)static func filter(\(params.joined(separator: ", "))) throws(ContractError) -> EventFilter<\(eventType)> {\n"
            text += "            try EventFilter(event: event, indexed: [\(values.joined(separator: ", "))])\n"
            text += "        }\n"
        }
        text += "    }\n"
        return text
    }

    func eventEnumCode(_ events: [ABIEvent], typeNames: [String]) -> String {
        var text = "\n    /// Any event of this contract.\n"
        text += "    \(acc)enum Event: Sendable, Hashable {\n"
        let caseNames = typeNames.map { SwiftNames.caseName($0, fallback: "event") }
        for (c, t) in zip(caseNames, typeNames) { text += "        case \(c)(\(typeName).\(t))\n" }
        text += "\n        /// Decodes a log of one of this contract's events; nil when it is none of them.\n"
        text += "        \(acc)init?(log: TransactionLog) throws(ContractError) {\n"
        for (c, t) in zip(caseNames, typeNames) {
            text += "            if let e = try \(typeName).\(t)(log: log) {\n                self = .\(c)(e)\n                return\n            }\n"
        }
        text += "            return nil\n        }\n\n"
        text += "        /// The contract's events in a transaction, in order (logs of other contracts left out).\n"
        text += "        \(acc)static func all(in receipt: ContractReceipt) throws(ContractError) -> [Event] {\n"
        text += "            var out: [Event] = []\n"
        text += "            for log in receipt.outcome.logs where log.address == receipt.contract.address {\n"
        text += "                if let e = try Event(log: log) { out.append(e) }\n            }\n            return out\n        }\n"
        text += "    }\n"
        return text
    }

    // MARK: Errors

    mutating func errorEnumCode(_ errors: [ABICustomError], caseNames: [String], json: [JSONValue]) -> String {
        guard !errors.isEmpty else { return "" }
        var text = "\n    /// The contract's custom errors: `\(typeName).Error(contractError)` reads one from a ``ContractError``.\n"
        text += "    \(acc)enum Error: ContractCustomError, Hashable, CustomStringConvertible {\n"
        var decodeCases = ""
        var descriptions = ""
        for (i, (error, caseName)) in zip(errors, caseNames).enumerated() {
            let inputs = Parameter.list(error.inputs, json: i < json.count ? json[i]["inputs"] : nil)
            let names = parameterNames(inputs, reserved: [])
            let types = inputs.map { mapper.swiftType($0) }
            let spec = artifact.documentation.errors[error.signature]
            var lines: [String] = []
            if let notice = spec?.notice { lines.append(notice) }
            if let details = spec?.details { lines.append(details) }
            lines.append("`\(error.signature)`, selector `\(error.selector)`.")
            text += doc(lines, indent: "        ")
            if inputs.isEmpty {
                text += "        case \(caseName)\n"
                decodeCases += "            case \(i):\n                self = .\(caseName)\n"
                descriptions += "            case .\(caseName): return \"\(error.name)()\"\n"
            } else {
                text += "        case \(caseName)(" + zip(names, types).map { "\($0): \($1.name)" }.joined(separator: ", ") + ")\n"
                decodeCases += "            case \(i):\n"
                decodeCases += "                guard values.count == \(inputs.count) else { return nil }\n"
                for (j, (n, t)) in zip(names, types).enumerated() {
                    decodeCases += "                guard let \(n) = try? { () throws(ContractError) -> \(t.name) in \(t.decode("values[\(j)]", "\"\(error.name).\(n)\"", 0)) }() else { return nil }\n"
                }
                decodeCases += "                self = .\(caseName)(" + names.map { "\($0): \($0)" }.joined(separator: ", ") + ")\n"
                descriptions += "            case .\(caseName)(" + names.map { "let \($0)" }.joined(separator: ", ") + "):\n"
                descriptions += "                return \"\(error.name)(\" + [" + zip(names, types).map { "\"\($0)=\\(\($1.encode($0)).description)\"" }.joined(separator: ", ")
                    + "].joined(separator: \", \") + \")\"\n"
            }
        }
        text += "\n        \(acc)init?(revert: RevertReason) {\n"
        text += "            guard case .custom(let error, let values) = revert,\n"
        text += "                let index = \(typeName).abi.errors.firstIndex(where: { $0.selector == error.selector })\n"
        text += "            else { return nil }\n"
        text += "            switch index {\n" + decodeCases + "            default:\n                return nil\n            }\n        }\n\n"
        text += "        \(acc)var description: String {\n            switch self {\n" + descriptions + "            }\n        }\n"
        text += "    }\n"
        return text
    }

    // MARK: Helpers

    /// Names made unique per kind: overloaded names get their parameter types appended
    /// (`safeTransferFrom_address_address_uint256`).
    static func disambiguated(_ items: [(name: String, types: [String])]) -> [String] {
        var counts: [String: Int] = [:]
        for item in items { counts[item.name, default: 0] += 1 }
        var used: Set<String> = []
        return items.map { item in
            var name = item.name
            if counts[item.name, default: 0] > 1 {
                let suffix = SwiftNames.signatureSuffix(item.types)
                name = suffix.isEmpty ? item.name + "_" : item.name + "_" + suffix
            }
            var unique = name
            var n = 2
            while used.contains(unique) {
                unique = "\(name)\(n)"
                n += 1
            }
            used.insert(unique)
            return unique
        }
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    func doc(_ lines: [String], indent: String) -> String {
        var text = ""
        for line in lines {
            for part in line.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                text += indent + (trimmed.isEmpty ? "///" : "/// " + trimmed) + "\n"
            }
        }
        return text
    }
}
