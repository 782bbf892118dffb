import CarChain
import EthereumCrypto
import EthereumPrimitives
import Foundation

extension Scenario {
    /// The operations a step's `"op"` may name.
    public static let operationNames = ["registerNewUser", "registerNewCar", "addCredit", "rentCar", "returnCar"]

    /// Reads a scenario file; errors name the file and the field (`busy-day.json: steps[3].plate: missing`).
    public init(contentsOf url: URL) throws(ScenarioError) {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .unreadable(path: url.path, reason: "no such file") }
        let data: [UInt8]
        do { data = try InputFile.read(url.path, limit: InputFile.documentLimit) } catch {
            throw .unreadable(path: url.path, reason: error.reason)
        }
        let base = url.deletingPathExtension().lastPathComponent
        try self.init(json: data, source: url.lastPathComponent, defaultName: base)
    }

    /// Parses a scenario from JSON text. `source` names it in errors; `defaultName` is used when the
    /// document has no `"name"`.
    public init(json: [UInt8], source: String = "scenario", defaultName: String = "scenario") throws(ScenarioError) {
        let document: JSONValue
        do { document = try JSONValue(parsing: json) } catch {
            throw .invalidJSON(source: source, reason: Self.describe(error, json: json))
        }
        var parser = ScenarioParser(source: source)
        self = try parser.scenario(document, defaultName: defaultName)
    }

    /// A readable reason for JSON that does not parse, with its line and column. The wording is Foundation's
    /// where it has one (kept so the CLI says what it always said), else the parser's own.
    private static func describe(_ error: JSONParseError, json: [UInt8]) -> String {
        var message = error.message
        var offset = error.offset
        do {
            _ = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
        } catch let parseError {
            if var text = (parseError as NSError).userInfo[NSDebugDescriptionErrorKey] as? String {
                if text.hasSuffix(".") { text.removeLast() }
                if let range = text.range(of: " around character "), let at = Int(text[range.upperBound...]) {
                    message = text.prefix(1).lowercased() + text[text.index(after: text.startIndex)..<range.lowerBound]
                    offset = at
                }
            }
        }
        var line = 1
        var column = 1
        for byte in json.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return "\(message) at line \(line), column \(column)"
    }
}

/// Checks a decoded JSON document field by field, naming the path of the first problem.
private struct ScenarioParser {
    let source: String

    func fail(_ path: String, _ message: String) -> ScenarioError { .invalid(source: source, path: path, message: message) }

    func object(_ value: JSONValue, _ path: String, allowed: Set<String>) throws(ScenarioError) -> [String: JSONValue] {
        do { return try value.fields(allowed: allowed) } catch .notAnObject {
            throw fail(path, "expected an object, found \(value.kindDescription)")
        } catch { throw fail(path, error.description) }
    }

    func string(_ value: JSONValue?, _ path: String) throws(ScenarioError) -> String {
        guard let value else { throw fail(path, "missing") }
        guard let s = value.stringValue else { throw fail(path, "expected a string, found \(value.kindDescription)") }
        return s
    }

    func optionalString(_ value: JSONValue?, _ path: String) throws(ScenarioError) -> String? {
        guard let value, !value.isNull else { return nil }
        return try string(value, path)
    }

    func gas(_ value: JSONValue?, _ path: String) throws(ScenarioError) -> UInt64? {
        guard let value, !value.isNull else { return nil }
        guard case .number(let text) = value, let n = UInt64(text), n > 0 else {
            throw fail(path, "expected a positive whole number of gas, found \(value.kindDescription)")
        }
        return n
    }

    mutating func scenario(_ document: JSONValue, defaultName: String) throws(ScenarioError) -> Scenario {
        let top = try object(
            document, "(top level)", allowed: ["name", "description", "accounts", "deployer", "gasLimits", "steps"])
        let name = try optionalString(top["name"], "name") ?? defaultName
        let description = try optionalString(top["description"], "description")

        guard let accountsValue = top["accounts"] else {
            throw fail("accounts", "missing (an object of name → \"dev:N\" or a 0x private key)")
        }
        guard let accountMembers = accountsValue.objectValue else {
            throw fail("accounts", "expected an object of name → \"dev:N\" or a 0x private key, found \(accountsValue.kindDescription)")
        }
        guard !accountMembers.isEmpty else { throw fail("accounts", "no accounts") }
        var accounts: [ScenarioAccount] = []
        for (accountName, spec) in accountMembers {
            accounts.append(ScenarioAccount(name: accountName, source: try accountSource(spec, "accounts.\(accountName)")))
        }
        let names = Set(accounts.map(\.name))

        let deployer: String
        if let given = try optionalString(top["deployer"], "deployer") {
            guard names.contains(given) else { throw fail("deployer", "\(JSONValue.quote(given)) is not an account") }
            deployer = given
        } else if names.contains("manager") {
            deployer = "manager"
        } else {
            throw fail("deployer", "missing: name the deploying account, or call one of the accounts \"manager\"")
        }

        var deploymentGasLimit: UInt64?
        var callGasLimit: UInt64?
        if let limits = top["gasLimits"] {
            let fields = try object(limits, "gasLimits", allowed: ["deploy", "call"])
            deploymentGasLimit = try gas(fields["deploy"], "gasLimits.deploy")
            callGasLimit = try gas(fields["call"], "gasLimits.call")
        }

        guard let stepsValue = top["steps"] else { throw fail("steps", "missing (an array of steps)") }
        guard let stepValues = stepsValue.arrayValue else { throw fail("steps", "expected an array, found \(stepsValue.kindDescription)") }
        var steps: [ScenarioStep] = []
        for (i, value) in stepValues.enumerated() {
            steps.append(try step(value, "steps[\(i)]", accounts: names, deployer: deployer))
        }
        return Scenario(
            name: name, description: description, accounts: accounts.sorted { $0.name < $1.name }, deployer: deployer,
            deploymentGasLimit: deploymentGasLimit, callGasLimit: callGasLimit, steps: steps)
    }

    func accountSource(_ spec: JSONValue, _ path: String) throws(ScenarioError) -> ScenarioAccount.Source {
        let text = try string(spec, path)
        if text.hasPrefix("dev:") {
            let count = 10  // the accounts of the test mnemonic a dev chain funds (DevAccounts.standard)
            guard let index = Int(text.dropFirst(4)), index >= 0, index < count else {
                throw fail(path, "\(JSONValue.quote(text)): expected dev:0 … dev:\(count - 1)")
            }
            return .dev(index)
        }
        guard text.hasPrefix("0x") else { throw fail(path, "expected \"dev:N\" or a 0x-prefixed 32-byte private key") }
        do { return .key(try PrivateKey(hex: text)) } catch {
            // The message never repeats the key.
            throw fail(path, "not a valid private key: \(error)")
        }
    }

    func step(_ value: JSONValue, _ path: String, accounts: Set<String>, deployer: String) throws(ScenarioError) -> ScenarioStep {
        let common: Set<String> = ["op", "from", "label", "expect"]
        guard let members = value.objectValue else { throw fail(path, "expected an object, found \(value.kindDescription)") }
        let opName = try string(members.first { $0.key == "op" }?.value, path + ".op")
        let extra: Set<String>
        switch opName {
        case "registerNewUser": extra = ["userId", "user"]
        case "registerNewCar": extra = ["plate"]
        case "addCredit": extra = ["userId", "user", "credit"]
        case "rentCar", "returnCar": extra = ["plate", "userId", "user"]
        default:
            throw fail(path + ".op", "unknown operation \(JSONValue.quote(opName)) (expected one of \(Scenario.operationNames.joined(separator: ", ")))")
        }
        let fields = try object(value, path, allowed: common.union(extra))

        func user() throws(ScenarioError) -> String {
            if fields["userId"] != nil && fields["user"] != nil { throw fail(path, "give either \"userId\" or \"user\", not both") }
            if let v = fields["userId"] { return try string(v, path + ".userId") }
            if let v = fields["user"] { return try string(v, path + ".user") }
            throw fail(path + ".userId", "missing (\(opName) needs a user id: \"userId\" or \"user\")")
        }
        func plate() throws(ScenarioError) -> String {
            guard let v = fields["plate"] else { throw fail(path + ".plate", "missing (\(opName) needs a \"plate\")") }
            return try string(v, path + ".plate")
        }
        let operation: CarChainOperation
        switch opName {
        case "registerNewUser": operation = .registerNewUser(userId: try user())
        case "registerNewCar": operation = .registerNewCar(plate: try plate())
        case "addCredit":
            guard let v = fields["credit"] else { throw fail(path + ".credit", "missing (addCredit needs a \"credit\" amount)") }
            let text: String
            switch v {
            case .number(let n): text = n
            case .string(let s): text = s
            default: throw fail(path + ".credit", "expected a whole number, found \(v.kindDescription)")
            }
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let credit = try? UInt256(parsing: text) else {
                throw fail(path + ".credit", "expected a whole number from 0 to 2^256 - 1, found \(v.kindDescription)")
            }
            operation = .addCredit(userId: try user(), credit: credit)
        case "rentCar": operation = .rentCar(plate: try plate(), userId: try user())
        default: operation = .returnCar(plate: try plate(), userId: try user())
        }

        let from = try optionalString(fields["from"], path + ".from") ?? deployer
        guard accounts.contains(from) else {
            throw fail(path + ".from", "\(JSONValue.quote(from)) is not an account (accounts: \(accounts.sorted().joined(separator: ", ")))")
        }
        let label = try optionalString(fields["label"], path + ".label")
        var expect: ScenarioExpectation?
        if let e = fields["expect"], !e.isNull {
            switch e {
            case .string("success"), .string("ok"): expect = .success
            case .string("revert"): expect = .revert(reason: nil)
            case .object:
                let f = try object(e, path + ".expect", allowed: ["revert"])
                expect = .revert(reason: try string(f["revert"], path + ".expect.revert"))
            default:
                throw fail(path + ".expect", "expected \"success\", \"revert\" or {\"revert\": \"reason\"}, found \(e.kindDescription)")
            }
        }
        return ScenarioStep(label: label, operation: operation, from: from, expect: expect)
    }
}

/// Why a scenario file could not be used.
public enum ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not JSON.
    case invalidJSON(source: String, reason: String)
    /// A field is missing or wrong; `path` is like `steps[3].plate`.
    case invalid(source: String, path: String, message: String)
    /// A step did not do what its `"expect"` says.
    case expectationFailed(scenario: String, step: Int, operation: String, from: String, expected: String, got: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read scenario \(path): \(reason)"
        case .invalidJSON(let source, let reason): return "scenario \(source) is not valid JSON: \(reason)"
        case .invalid(let source, let path, let message): return "scenario \(source): \(path): \(message)"
        case .expectationFailed(let scenario, let step, let operation, let from, let expected, let got):
            return "scenario \(scenario): step \(step) \(operation) from \(from): expected \(expected), got \(got)"
        }
    }
}
