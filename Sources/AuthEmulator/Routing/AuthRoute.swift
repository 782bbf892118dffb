/// Every operation the service answers, and who may call it.
public enum AuthOperation: String, Sendable, CaseIterable {
    case signUp, signInWithPassword, lookup, update, delete, sendOobCode, resetPassword, signInWithEmailLink
    case signInWithCustomToken, revokeToken, token
    case batchGet, batchDelete, createSessionCookie
    case clearAccounts, listOobCodes, getConfig, updateConfig, emailAction
    case x509Certificates, jwks, sessionCookieCertificates

    /// Who may call an operation.
    public enum Access: Sendable {
        /// A client with an API key, or an administrator (`Bearer owner`) who may set privileged fields.
        case clientOrAdministrator
        /// A client with an API key (sign-in methods, token refresh).
        case client
        /// An administrator only (`Bearer owner`).
        case administrator
        /// Anyone: the emulator's own endpoints and the public keys, as the Firebase emulator and Google serve them.
        case open
    }

    /// Who may call this operation.
    public var access: Access {
        switch self {
        case .signUp, .lookup, .update, .delete, .sendOobCode: return .clientOrAdministrator
        case .signInWithPassword, .resetPassword, .signInWithEmailLink, .signInWithCustomToken, .revokeToken, .token:
            return .client
        case .batchGet, .batchDelete, .createSessionCookie: return .administrator
        case .clearAccounts, .listOobCodes, .getConfig, .updateConfig, .emailAction, .x509Certificates, .jwks,
            .sessionCookieCertificates:
            return .open
        }
    }
}

/// A request's route: the operation and, for `/v1/projects/{project}/…` and `/emulator/v1/projects/{project}/…`,
/// the project the path names. Paths are the emulator's: the production host is the first path component
/// (`https://identitytoolkit.googleapis.com/v1/…` is served at `/identitytoolkit.googleapis.com/v1/…`).
public struct AuthRoute: Sendable, Equatable {
    /// The operation.
    public var operation: AuthOperation
    /// The project named in the path, if any.
    public var project: String?

    static let identityToolkit = "/identitytoolkit.googleapis.com/v1/"
    static let secureToken = "/securetoken.googleapis.com/v1/token"
    static let emulatorProjects = "/emulator/v1/projects/"
    static let emulatorAction = "/emulator/action"
    /// Where Google publishes the ID token certificates (`www.googleapis.com/robot/v1/metadata/x509/…`).
    public static let x509CertificatesPath = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
    /// Where Google publishes the ID token keys as a JWK set.
    public static let jwksPath = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    /// Where Google publishes the session cookie certificates.
    public static let sessionCookieCertificatesPath = "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"

    /// The path prefixes the HTTP routes mount (everything else is left to the router, e.g. JSON-RPC on `/`).
    public static let mountedPrefixes = [
        "/identitytoolkit.googleapis.com", "/securetoken.googleapis.com", "/emulator", "/www.googleapis.com",
    ]

    /// Creates a route.
    public init(operation: AuthOperation, project: String?) {
        self.operation = operation
        self.project = project
    }

    /// The route of `method` on `path`; nil when the service has no such endpoint (404).
    public init?(method: String, path: String) {
        let method = method.uppercased()
        func expect(_ wanted: String, _ operation: AuthOperation, project: String? = nil) -> AuthRoute? {
            method == wanted ? AuthRoute(operation: operation, project: project) : nil
        }
        let route: AuthRoute?
        if path == Self.secureToken {
            route = expect("POST", .token)
        } else if path == Self.emulatorAction {
            route = expect("GET", .emailAction)
        } else if path == Self.x509CertificatesPath {
            route = expect("GET", .x509Certificates)
        } else if path == Self.jwksPath {
            route = expect("GET", .jwks)
        } else if path == Self.sessionCookieCertificatesPath {
            route = expect("GET", .sessionCookieCertificates)
        } else if path.hasPrefix(Self.emulatorProjects) {
            let rest = path.dropFirst(Self.emulatorProjects.count).split(separator: "/", omittingEmptySubsequences: false)
            guard rest.count == 2, !rest[0].isEmpty else { return nil }
            let project = String(rest[0])
            switch (rest[1], method) {
            case ("accounts", "DELETE"): route = AuthRoute(operation: .clearAccounts, project: project)
            case ("oobCodes", "GET"): route = AuthRoute(operation: .listOobCodes, project: project)
            case ("config", "GET"): route = AuthRoute(operation: .getConfig, project: project)
            case ("config", "PATCH"): route = AuthRoute(operation: .updateConfig, project: project)
            default: route = nil
            }
        } else if path.hasPrefix(Self.identityToolkit) {
            route = Self.identityToolkitRoute(method: method, rest: path.dropFirst(Self.identityToolkit.count))
        } else {
            route = nil
        }
        guard let route else { return nil }
        self = route
    }

    private static func identityToolkitRoute(method: String, rest: Substring) -> AuthRoute? {
        if rest.hasPrefix("accounts:") {
            guard method == "POST" else { return nil }
            let name = rest.dropFirst("accounts:".count)
            let clientOperations: [AuthOperation] = [
                .signUp, .signInWithPassword, .lookup, .update, .delete, .sendOobCode, .resetPassword,
                .signInWithEmailLink, .signInWithCustomToken, .revokeToken,
            ]
            guard let operation = clientOperations.first(where: { $0.rawValue == name }) else { return nil }
            return AuthRoute(operation: operation, project: nil)
        }
        guard rest.hasPrefix("projects/") else { return nil }
        let afterProjects = rest.dropFirst("projects/".count)
        // `projects/{p}:createSessionCookie`
        if let colon = afterProjects.firstIndex(of: ":"), !afterProjects[..<colon].contains("/") {
            let project = String(afterProjects[..<colon])
            guard afterProjects[colon...] == ":createSessionCookie", method == "POST", !project.isEmpty else { return nil }
            return AuthRoute(operation: .createSessionCookie, project: project)
        }
        let parts = afterProjects.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        let project = String(parts[0])
        let resource = parts[1]
        if resource == "accounts" { return method == "POST" ? AuthRoute(operation: .signUp, project: project) : nil }
        guard resource.hasPrefix("accounts:") else { return nil }
        let name = resource.dropFirst("accounts:".count)
        let operation: AuthOperation
        switch (name, method) {
        case ("batchGet", "GET"): operation = .batchGet
        case ("batchDelete", "POST"): operation = .batchDelete
        case ("lookup", "POST"): operation = .lookup
        case ("update", "POST"): operation = .update
        case ("delete", "POST"): operation = .delete
        case ("sendOobCode", "POST"): operation = .sendOobCode
        default: return nil
        }
        return AuthRoute(operation: operation, project: project)
    }
}
