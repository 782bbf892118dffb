import AuthEmulator
import Chain
import Foundation

/// Where the auth service is: the embedded service on the data dir by default, a served emulator or real
/// Firebase by URL (with its web API key).
public struct AuthConfiguration: Sendable {
    /// A served auth emulator (e.g. http://127.0.0.1:8545) or https://identitytoolkit.googleapis.com; nil for
    /// the embedded service.
    public var url: String?
    /// The Firebase web API key (needed for real Firebase).
    public var apiKey: String?
    /// The Firebase project (`--project-id`): an emulator keeps its emailed codes per project. The embedded service
    /// and `carchain node` serve ``AuthEmulator/defaultProjectId``.
    public var projectId: String

    public init(url: String? = nil, apiKey: String? = nil, projectId: String? = nil) {
        self.url = url
        self.apiKey = apiKey
        self.projectId = projectId ?? AuthEmulator.defaultProjectId
    }

    /// Whether the service is an emulator, whose "emailed" codes can be read back (real Firebase sends email).
    public var holdsEmailedCodes: Bool {
        guard let url, let host = URLComponents(string: url)?.host?.lowercased() else { return true }
        return !host.hasSuffix("googleapis.com")
    }

    /// The client: ``url``, else `savedURL` (a saved session's service), else the `carchain node` serving the
    /// data dir (its auth emulator, over HTTP), else the service in-process on the data dir's `auth/`.
    public func client(paths: AppPaths, savedURL: String? = nil) async throws -> AuthClient {
        let served = ChainLock.owner(of: paths.dataDirectory)?.url
        return try await AuthClient.resolve(authURL: url ?? savedURL ?? served, apiKey: apiKey) {
            try await AuthEmulator.open(dataDirectory: paths.authDirectory.path)
        }
    }
}
