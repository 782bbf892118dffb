import AuthEmulator
import Foundation
import Testing

/// One RSA key for the whole test run: generating 2048-bit keys is slow, and nothing here depends on a fresh one.
enum TestKeys {
    static let shared = Task { try await TokenSigner.generate() }

    static func signer() async throws -> TokenSigner {
        try await shared.value.signer
    }
}

/// Cheap scrypt (N = 2^10) so the suites run quickly; `PasswordHasherTests` also exercises the default. The
/// password-spraying limit is raised so suites that repeat a wrong password test only the limit they are about
/// (`AuthLimitTests` uses the production limits).
let fastPolicy = AuthPolicy(
    scrypt: ScryptParameters(logN: 10, r: 8, p: 1), passwordSprayLimit: RateLimitPolicy(limit: 1000, window: 900))

func makeEmulator(
    clock: ManualAuthClock = ManualAuthClock(), policy: AuthPolicy = fastPolicy, projectId: String = "demo-carchain"
) async throws -> AuthEmulator {
    try AuthEmulator(
        store: try AuthStore.inMemory(), signer: try await TestKeys.signer(), clock: clock, projectId: projectId,
        policy: policy)
}

/// Runs `body` and returns the `AuthServiceError` it throws; records an issue when it succeeds.
func serviceError<T>(
    _ body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> AuthServiceError? {
    do {
        let value = try await body()
        Issue.record("expected an AuthServiceError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as AuthServiceError {
        return error
    } catch {
        Issue.record("expected an AuthServiceError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A fresh temporary directory.
func temporaryDirectory() throws -> String {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("auth-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func fileMode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// A JSON value for checking response shapes in tests (field names and types, not just values).
enum JSON: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    static func parse(_ bytes: [UInt8]) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: Data(bytes))
    }

    subscript(key: String) -> JSON? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    subscript(index: Int) -> JSON? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    var keys: Set<String> {
        if case .object(let fields) = self { return Set(fields.keys) }
        return []
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .array(let items): return "[" + items.map(\.description).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
                + "}"
        }
    }
}

func jsonBody(_ value: some Encodable) throws -> [UInt8] {
    try AuthWire.encode(value)
}

func post(
    _ emulator: AuthEmulator, _ endpoint: FirebaseAuthEndpoint, json: String, key: String? = "test-key"
) async -> AuthHTTPResponse {
    await emulator.handle(
        AuthHTTPRequest(
            path: endpoint.path, query: key.map { ["key": $0] } ?? [:], headers: ["Content-Type": "application/json"],
            body: Array(json.utf8)))
}
