/// Where accounts live: a Firebase project, or a tenant of one (Identity Platform multi-tenancy). Each realm has its
/// own accounts, sessions, email action and phone codes, settings and sign-in counters, as each project of the
/// Firebase emulator's multi-project mode and each of its tenants has; the same uid or email may exist in two realms.
public struct AuthRealm: Hashable, Sendable, CustomStringConvertible {
    /// The project id (`aud` of the realm's ID tokens).
    public let projectId: String
    /// The tenant id, nil for the project itself.
    public let tenantId: String?

    /// The project the CLI and the web app use, `demo-carchain` (`demo-` ids are emulator-only at Firebase).
    public static let defaultProject = AuthRealm(projectId: "demo-carchain")

    /// A realm; check the ids with `isValidProjectId` / `isValidTenantId` first when they come from a request.
    public init(projectId: String, tenantId: String? = nil) {
        self.projectId = projectId
        self.tenantId = tenantId
    }

    /// The project this realm belongs to (itself for a project).
    public var project: AuthRealm { AuthRealm(projectId: projectId) }

    /// The key of the realm's rows in the store: `project` or `project/tenant` (neither id contains `/`).
    var key: String { tenantId.map { "\(projectId)/\($0)" } ?? projectId }

    /// The realm of a row's key.
    init(key: String) {
        let parts = key.split(separator: "/", maxSplits: 1)
        self.init(projectId: String(parts.first ?? ""), tenantId: parts.count > 1 ? String(parts[1]) : nil)
    }

    /// `project` or `project/tenants/tenant`.
    public var description: String { tenantId.map { "\(projectId)/tenants/\($0)" } ?? projectId }

    /// Whether `id` can name a project: 1–128 characters of letters, digits and `-_.:` (Google's project ids are
    /// 6–30 lowercase letters, digits and hyphens; legacy domain-scoped ones contain `.` and `:`).
    public static func isValidProjectId(_ id: some StringProtocol) -> Bool {
        (1...128).contains(id.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }
    }

    /// Whether `id` can name a tenant: 1–128 letters, digits and hyphens (Identity Platform's tenant ids are
    /// `name-xxxxx`; the emulator makes 28 alphanumerics).
    public static func isValidTenantId(_ id: some StringProtocol) -> Bool {
        (1...128).contains(id.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}
