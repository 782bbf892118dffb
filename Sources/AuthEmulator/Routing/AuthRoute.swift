/// Every operation the service answers, and who may call it.
public enum AuthOperation: String, Sendable, CaseIterable {
    // Identity Toolkit v1, `accounts:*` (clients with an API key; some also administrators)
    case signUp, signInWithPassword, lookup, update, delete, sendOobCode, resetPassword, signInWithEmailLink
    case signInWithCustomToken, revokeToken, createAuthUri, sendVerificationCode, signInWithPhoneNumber
    case signInWithIdp
    // v1 project information for clients
    case getProjects, getRecaptchaParams, getSessionCookiePublicKeys
    // v1 administrator operations on `projects/{p}[/tenants/{t}]`
    case batchGet, batchDelete, batchCreate, query, createSessionCookie
    // v2: second factors, passkeys
    case mfaEnrollmentStart, mfaEnrollmentFinalize, mfaEnrollmentWithdraw, mfaSignInStart, mfaSignInFinalize
    case passkeyEnrollmentStart, passkeyEnrollmentFinalize, passkeySignInStart, passkeySignInFinalize
    // v2 administration: project configuration, tenants, identity provider configurations
    case getConfig, updateConfig
    case createTenant, listTenants, getTenant, updateTenant, deleteTenant
    case createOAuthIdpConfig, listOAuthIdpConfigs, getOAuthIdpConfig, updateOAuthIdpConfig, deleteOAuthIdpConfig
    case createSAMLConfig, listSAMLConfigs, getSAMLConfig, updateSAMLConfig, deleteSAMLConfig
    // Secure Token API
    case token
    // The emulator's own endpoints
    case clearAccounts, listOobCodes, listVerificationCodes, getEmulatorConfig, updateEmulatorConfig, emailAction
    case idpSignInPage, idpHelperFrame
    // Public keys
    case x509Certificates, jwks, sessionCookieCertificates
    /// A route of Google's API that this service does not implement (answered 501, naming it).
    case notImplemented

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
        case .signUp, .lookup, .update, .delete, .sendOobCode, .signInWithPassword, .signInWithCustomToken,
            .signInWithEmailLink, .resetPassword, .createAuthUri, .sendVerificationCode, .signInWithPhoneNumber,
            .signInWithIdp, .getProjects, .getRecaptchaParams, .mfaEnrollmentStart, .mfaEnrollmentFinalize,
            .mfaEnrollmentWithdraw, .mfaSignInStart, .mfaSignInFinalize, .passkeyEnrollmentStart,
            .passkeyEnrollmentFinalize, .passkeySignInStart, .passkeySignInFinalize:
            return .clientOrAdministrator
        case .revokeToken, .token:
            return .client
        case .batchGet, .batchDelete, .batchCreate, .query, .createSessionCookie, .getConfig, .updateConfig,
            .createTenant, .listTenants, .getTenant, .updateTenant, .deleteTenant, .createOAuthIdpConfig,
            .listOAuthIdpConfigs, .getOAuthIdpConfig, .updateOAuthIdpConfig, .deleteOAuthIdpConfig, .createSAMLConfig,
            .listSAMLConfigs, .getSAMLConfig, .updateSAMLConfig, .deleteSAMLConfig:
            return .administrator
        case .clearAccounts, .listOobCodes, .listVerificationCodes, .getEmulatorConfig, .updateEmulatorConfig,
            .emailAction, .idpSignInPage, .idpHelperFrame, .x509Certificates, .jwks, .sessionCookieCertificates,
            .getSessionCookiePublicKeys, .notImplemented:
            return .open
        }
    }
}

/// A request's route: the operation, and what the path names — the project and tenant, an identity provider
/// configuration's id. Paths are the Firebase emulator's: the production host is the first path component
/// (`https://identitytoolkit.googleapis.com/v1/…` is served at `/identitytoolkit.googleapis.com/v1/…`). The legacy
/// Identity Toolkit v3 paths (`www.googleapis.com/identitytoolkit/v3/relyingparty/<method>` and
/// `identitytoolkit.googleapis.com/v3/relyingparty/<method>`) map onto the v1 operations, as the emulator maps them.
public struct AuthRoute: Sendable, Equatable {
    /// The operation.
    public var operation: AuthOperation
    /// The project named in the path, if any.
    public var project: String?
    /// The tenant named in the path, if any.
    public var tenant: String?
    /// The resource the path names after its collection: an identity provider configuration's id.
    public var resource: String?
    /// For `notImplemented`: the API method's name.
    public var method: String?
    /// Whether the path is a legacy v3 `relyingparty` one.
    public var legacy = false

    static let identityToolkit = "/identitytoolkit.googleapis.com/"
    static let secureToken = "/securetoken.googleapis.com/v1/token"
    static let emulatorProjects = "/emulator/v1/projects/"
    static let emulatorAction = "/emulator/action"
    static let legacyPrefixes = [
        "/www.googleapis.com/identitytoolkit/v3/relyingparty/", "/identitytoolkit.googleapis.com/v3/relyingparty/",
    ]
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
    public init(
        operation: AuthOperation, project: String? = nil, tenant: String? = nil, resource: String? = nil,
        method: String? = nil
    ) {
        self.operation = operation
        self.project = project
        self.tenant = tenant
        self.resource = resource
        self.method = method
    }

    /// The route of `method` on `path`; nil when the service has no such endpoint (404).
    public init?(method: String, path: String) {
        let method = method.uppercased()
        let route: AuthRoute?
        if path == Self.secureToken {
            route = method == "POST" ? AuthRoute(operation: .token) : nil
        } else if path == Self.x509CertificatesPath || path == Self.jwksPath
            || path == Self.sessionCookieCertificatesPath
        {
            let operation: AuthOperation =
                path == Self.jwksPath ? .jwks : path == Self.x509CertificatesPath ? .x509Certificates : .sessionCookieCertificates
            route = method == "GET" ? AuthRoute(operation: operation) : nil
        } else if let prefix = Self.legacyPrefixes.first(where: path.hasPrefix) {
            route = Self.legacyRoute(name: path.dropFirst(prefix.count))
        } else if path == Self.emulatorAction {
            route = method == "GET" ? AuthRoute(operation: .emailAction) : nil
        } else if path == "/emulator/auth/handler" || path == "/emulator/auth/iframe" {
            route = method == "GET" ? AuthRoute(operation: path.hasSuffix("handler") ? .idpSignInPage : .idpHelperFrame) : nil
        } else if path.hasPrefix(Self.emulatorProjects) {
            route = Self.emulatorRoute(method: method, rest: path.dropFirst(Self.emulatorProjects.count))
        } else if path.hasPrefix(Self.identityToolkit + "v1/") {
            route = Self.v1Route(method: method, rest: path.dropFirst(Self.identityToolkit.count + 3))
        } else if path.hasPrefix(Self.identityToolkit + "v2/") {
            route = Self.v2Route(method: method, rest: path.dropFirst(Self.identityToolkit.count + 3))
        } else {
            route = nil
        }
        guard let route else { return nil }
        self = route
    }

    /// The v3 `relyingparty` methods and the v1 operations they are (Firebase emulator's `registerLegacyRoutes`).
    static let legacyMethods: [String: AuthOperation] = [
        "createAuthUri": .createAuthUri, "deleteAccount": .delete, "emailLinkSignin": .signInWithEmailLink,
        "getAccountInfo": .lookup, "getOobConfirmationCode": .sendOobCode, "getProjectConfig": .getProjects,
        "getRecaptchaParam": .getRecaptchaParams, "resetPassword": .resetPassword,
        "sendVerificationCode": .sendVerificationCode, "setAccountInfo": .update, "signupNewUser": .signUp,
        "verifyAssertion": .signInWithIdp, "verifyCustomToken": .signInWithCustomToken,
        "verifyPassword": .signInWithPassword, "verifyPhoneNumber": .signInWithPhoneNumber,
        "downloadAccount": .batchGet, "uploadAccount": .batchCreate, "publicKeys": .sessionCookieCertificates,
    ]

    private static func legacyRoute(name: Substring) -> AuthRoute? {
        if let operation = legacyMethods[String(name)] {
            var route = AuthRoute(operation: operation)
            route.legacy = true
            return route
        }
        if ["signOutUser", "setProjectConfig"].contains(name) {
            return AuthRoute(operation: .notImplemented, method: String(name))
        }
        return nil
    }

    private static func emulatorRoute(method: String, rest: Substring) -> AuthRoute? {
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var project: String
        var tenant: String?
        var resource: String
        switch parts.count {
        case 2: (project, resource) = (parts[0], parts[1])
        case 4 where parts[1] == "tenants": (project, tenant, resource) = (parts[0], parts[2], parts[3])
        default: return nil
        }
        let operation: AuthOperation
        switch (resource, method) {
        case ("accounts", "DELETE"): operation = .clearAccounts
        case ("oobCodes", "GET"): operation = .listOobCodes
        case ("verificationCodes", "GET"): operation = .listVerificationCodes
        case ("config", "GET") where tenant == nil: operation = .getEmulatorConfig
        case ("config", "PATCH") where tenant == nil: operation = .updateEmulatorConfig
        default: return nil
        }
        project = String(project)
        return AuthRoute(operation: operation, project: project, tenant: tenant)
    }

    private static func v1Route(method: String, rest: Substring) -> AuthRoute? {
        let post = method == "POST"
        if rest.hasPrefix("accounts:") {
            let name = rest.dropFirst("accounts:".count)
            let operations: [Substring: AuthOperation] = [
                "signUp": .signUp, "signInWithPassword": .signInWithPassword, "lookup": .lookup, "update": .update,
                "delete": .delete, "sendOobCode": .sendOobCode, "resetPassword": .resetPassword,
                "signInWithEmailLink": .signInWithEmailLink, "signInWithCustomToken": .signInWithCustomToken,
                "revokeToken": .revokeToken, "createAuthUri": .createAuthUri,
                "sendVerificationCode": .sendVerificationCode, "signInWithPhoneNumber": .signInWithPhoneNumber,
                "signInWithIdp": .signInWithIdp,
            ]
            if let operation = operations[name] { return post ? AuthRoute(operation: operation) : nil }
            if ["issueSamlResponse", "signInWithGameCenter", "verifyIosClient"].contains(name) {
                return post ? AuthRoute(operation: .notImplemented, method: "identitytoolkit.accounts.\(name)") : nil
            }
            return nil
        }
        switch rest {
        case "projects": return method == "GET" ? AuthRoute(operation: .getProjects) : nil
        case "recaptchaParams": return method == "GET" ? AuthRoute(operation: .getRecaptchaParams) : nil
        case "sessionCookiePublicKeys": return method == "GET" ? AuthRoute(operation: .getSessionCookiePublicKeys) : nil
        default: break
        }
        guard rest.hasPrefix("projects/"), let (project, tenant, resource) = realmPath(rest.dropFirst("projects/".count))
        else { return nil }
        func route(_ operation: AuthOperation) -> AuthRoute {
            AuthRoute(operation: operation, project: project, tenant: tenant)
        }
        switch (resource, method) {
        case (":createSessionCookie", "POST"): return route(.createSessionCookie)
        case (":queryAccounts", "POST") where tenant == nil: return route(.query)
        case ("/accounts", "POST"): return route(.signUp)
        case ("/accounts:batchCreate", "POST"): return route(.batchCreate)
        case ("/accounts:batchDelete", "POST"): return route(.batchDelete)
        case ("/accounts:batchGet", "GET"): return route(.batchGet)
        case ("/accounts:delete", "POST"): return route(.delete)
        case ("/accounts:lookup", "POST"): return route(.lookup)
        case ("/accounts:query", "POST"): return route(.query)
        case ("/accounts:sendOobCode", "POST"): return route(.sendOobCode)
        case ("/accounts:update", "POST"): return route(.update)
        default: return nil
        }
    }

    private static func v2Route(method: String, rest: Substring) -> AuthRoute? {
        let post = method == "POST"
        let accounts: [Substring: AuthOperation] = [
            "accounts:revokeToken": .revokeToken, "accounts/mfaEnrollment:start": .mfaEnrollmentStart,
            "accounts/mfaEnrollment:finalize": .mfaEnrollmentFinalize,
            "accounts/mfaEnrollment:withdraw": .mfaEnrollmentWithdraw, "accounts/mfaSignIn:start": .mfaSignInStart,
            "accounts/mfaSignIn:finalize": .mfaSignInFinalize,
            "accounts/passkeyEnrollment:start": .passkeyEnrollmentStart,
            "accounts/passkeyEnrollment:finalize": .passkeyEnrollmentFinalize,
            "accounts/passkeySignIn:start": .passkeySignInStart,
            "accounts/passkeySignIn:finalize": .passkeySignInFinalize,
        ]
        if let operation = accounts[rest] { return post ? AuthRoute(operation: operation) : nil }
        switch rest {
        case "defaultSupportedIdps", "passwordPolicy", "recaptchaConfig":
            return method == "GET" ? AuthRoute(operation: .notImplemented, method: "identitytoolkit.\(rest)") : nil
        default: break
        }
        guard rest.hasPrefix("projects/"), let (project, tenant, resource) = realmPath(rest.dropFirst("projects/".count))
        else { return nil }
        func route(_ operation: AuthOperation, _ id: String? = nil) -> AuthRoute {
            AuthRoute(operation: operation, project: project, tenant: tenant, resource: id)
        }
        if tenant == nil {
            switch (resource, method) {
            case ("/config", "GET"): return route(.getConfig)
            case ("/config", "PATCH"): return route(.updateConfig)
            case ("/tenants", "POST"): return route(.createTenant)
            case ("/tenants", "GET"): return route(.listTenants)
            case ("/identityPlatform:initializeAuth", "POST"):
                return AuthRoute(operation: .notImplemented, method: "identitytoolkit.projects.identityPlatform.initializeAuth")
            default: break
            }
        } else {
            switch (resource, method) {
            case ("", "GET"): return route(.getTenant)
            case ("", "PATCH"): return route(.updateTenant)
            case ("", "DELETE"): return route(.deleteTenant)
            case (":getIamPolicy", "POST"), (":setIamPolicy", "POST"), (":testIamPermissions", "POST"):
                return AuthRoute(operation: .notImplemented, method: "identitytoolkit.projects.tenants\(resource)")
            default: break
            }
        }
        let collections: [(String, [String: AuthOperation], [String: AuthOperation])] = [
            ("/oauthIdpConfigs", ["POST": .createOAuthIdpConfig, "GET": .listOAuthIdpConfigs],
             ["GET": .getOAuthIdpConfig, "PATCH": .updateOAuthIdpConfig, "DELETE": .deleteOAuthIdpConfig]),
            ("/inboundSamlConfigs", ["POST": .createSAMLConfig, "GET": .listSAMLConfigs],
             ["GET": .getSAMLConfig, "PATCH": .updateSAMLConfig, "DELETE": .deleteSAMLConfig]),
        ]
        for (collection, onCollection, onItem) in collections {
            if resource == collection { return onCollection[method].map { route($0) } }
            if resource.hasPrefix(collection + "/") {
                let id = String(resource.dropFirst(collection.count + 1))
                guard !id.isEmpty, !id.contains("/") else { return nil }
                return onItem[method].map { route($0, id) }
            }
        }
        if resource == "/defaultSupportedIdpConfigs" || resource.hasPrefix("/defaultSupportedIdpConfigs/") {
            return AuthRoute(operation: .notImplemented, method: "identitytoolkit.projects.defaultSupportedIdpConfigs")
        }
        return nil
    }

    /// Splits `{project}[/tenants/{tenant}]<rest>`; `rest` is what follows (`""`, `/accounts:lookup`, `:createSessionCookie`).
    private static func realmPath(_ text: Substring) -> (String, String?, String)? {
        guard let end = text.firstIndex(where: { $0 == "/" || $0 == ":" }) ?? Optional(text.endIndex) else { return nil }
        let project = String(text[..<end])
        guard !project.isEmpty else { return nil }
        var rest = text[end...]
        var tenant: String?
        if rest.hasPrefix("/tenants/") {
            let afterTenants = rest.dropFirst("/tenants/".count)
            let tenantEnd = afterTenants.firstIndex(where: { $0 == "/" || $0 == ":" }) ?? afterTenants.endIndex
            let id = String(afterTenants[..<tenantEnd])
            guard !id.isEmpty else { return nil }
            tenant = id
            rest = afterTenants[tenantEnd...]
        }
        return (project, tenant, String(rest))
    }
}
