import AuthEmulator
import EthereumPrimitives
import Foundation

/// Errors from reading or writing the saved session.
public enum SessionStoreError: Error, Sendable, CustomStringConvertible {
    /// The file could not be read, written or removed, or has unsafe permissions.
    case file(SecureFileError)
    /// The file is not a saved session.
    case corrupt(path: String, reason: String)

    /// What went wrong and where.
    public var description: String {
        switch self {
        case .file(let error): return "session file: \(error)"
        case .corrupt(let path, let reason): return "session file \(path) is not a saved session (\(reason)); delete it and log in again"
        }
    }
}

/// The signed-in session on disk: `$CARCHAIN_HOME/session.json` (default `~/.carchain/session.json`), mode 0600,
/// holding tokens only, never the password.
public struct SessionStore: Sendable {
    /// The session file.
    public let path: String

    /// A store at an explicit file path.
    public init(path: String) {
        self.path = path
    }

    /// The store in `home` (`<home>/session.json`).
    public init(home: String) {
        self.path = (home as NSString).appendingPathComponent("session.json")
    }

    /// carchain's home directory: `$CARCHAIN_HOME`, else `$HOME/.carchain` (``CarchainHome``).
    public static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        CarchainHome.current(environment: environment).directory.path
    }

    /// The store in `home(environment:)`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SessionStore {
        SessionStore(home: home(environment: environment))
    }

    /// The saved session, or nil when none is saved.
    public func read() throws(SessionStoreError) -> AuthSession? {
        let bytes: [UInt8]?
        do {
            bytes = try SecureFile.read(path)
        } catch {
            throw .file(error)
        }
        guard let bytes else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(AuthSession.self, from: Data(bytes))
        } catch {
            throw .corrupt(path: path, reason: "not the expected JSON")
        }
    }

    /// Saves `session` atomically with mode 0600, creating the directory (mode 0700) when needed.
    public func write(_ session: AuthSession) throws(SessionStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let bytes: Data
        do {
            bytes = try encoder.encode(session)
        } catch {
            throw .corrupt(path: path, reason: "could not encode the session")
        }
        do {
            try SecureFile.createDirectory((path as NSString).deletingLastPathComponent)
            try SecureFile.write([UInt8](bytes), to: path)
        } catch {
            throw .file(error)
        }
    }

    /// Removes the saved session (logout); succeeds when none is saved.
    public func delete() throws(SessionStoreError) {
        do {
            try SecureFile.delete(path)
        } catch {
            throw .file(error)
        }
    }
}
