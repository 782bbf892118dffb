import Foundation

/// The two kinds of identity provider configuration Identity Platform keeps per project or tenant.
enum ProviderConfigKind: String, Sendable {
    /// `oauthIdpConfigs`: OpenID Connect (`oidc.*`).
    case oidc
    /// `inboundSamlConfigs`: SAML (`saml.*`).
    case saml

    /// The id prefix.
    var prefix: String { self == .oidc ? "oidc." : "saml." }
    /// The collection in paths and list answers.
    var collection: String { self == .oidc ? "oauthIdpConfigs" : "inboundSamlConfigs" }
    /// The query parameter naming a new configuration's id.
    var idQueryName: String { self == .oidc ? "oauthIdpConfigId" : "inboundSamlConfigId" }
    /// The fields a request may set.
    var fields: Set<String> {
        self == .oidc
            ? ["displayName", "enabled", "clientId", "clientSecret", "issuer", "responseType"]
            : ["displayName", "enabled", "idpConfig", "spConfig"]
    }
}

extension String {
    /// `inboundSamlConfigId` → `inbound_saml_config_id` (Google's REST mapping takes either spelling).
    var snakeCased: String {
        var output = ""
        for character in self {
            if character.isUppercase {
                output += "_" + character.lowercased()
            } else {
                output.append(character)
            }
        }
        return output
    }
}

extension AuthEmulator {
    /// `POST /v2/projects/{p}[/tenants/{t}]/oauthIdpConfigs?oauthIdpConfigId=oidc.…` and
    /// `…/inboundSamlConfigs?inboundSamlConfigId=saml.…` (the Admin SDK's `create_oidc_provider_config`,
    /// `create_saml_provider_config`; Firebase's emulator answers 501). Errors: `MISSING_PROVIDER_ID`,
    /// `INVALID_PROVIDER_ID`, `CONFIGURATION_EXISTS` (409), `MISSING_OAUTH_CLIENT_ID`, `MISSING_ISSUER`,
    /// `MISSING_SAML_RELYING_PARTY_CONFIG`, `INVALID_CONFIG`.
    func createProviderConfig(_ kind: ProviderConfigKind, id: String?, _ request: [String: AuthJSON])
        async throws(AuthServiceError) -> [String: AuthJSON]
    {
        guard let id, !id.isEmpty else { throw .badRequest(.missingProviderID) }
        try Self.checkProviderId(id, kind)
        var config = request.filter { kind.fields.contains($0.key) }
        try Self.checkProviderConfig(config, kind, creating: true)
        config["name"] = .string(name(kind, id))
        if config["enabled"] == nil { config["enabled"] = .bool(false) }
        let created = config
        guard try await storeCall({ try await self.store.saveProviderConfig(kind: kind.rawValue, id: id, created, onlyIfNew: true) })
        else {
            throw AuthServiceError(
                httpStatus: 409, code: .configurationExists, message: AuthErrorCode.configurationExists.rawValue,
                reason: "alreadyExists", status: "ALREADY_EXISTS")
        }
        return created
    }

    /// `GET …/oauthIdpConfigs/{id}`, `…/inboundSamlConfigs/{id}`: `CONFIGURATION_NOT_FOUND` (404).
    func providerConfig(_ kind: ProviderConfigKind, id: String) async throws(AuthServiceError) -> [String: AuthJSON] {
        try Self.checkProviderId(id, kind)
        guard let config = try await storeCall({ try await self.store.providerConfig(kind: kind.rawValue, id: id) }) else {
            throw Self.configurationNotFound
        }
        return config
    }

    /// `PATCH …/{id}?updateMask=…`: the masked fields (every field the body has, without a mask).
    func updateProviderConfig(
        _ kind: ProviderConfigKind, id: String, _ request: [String: AuthJSON], updateMask: String?
    ) async throws(AuthServiceError) -> [String: AuthJSON] {
        var config = try await providerConfig(kind, id: id)
        let update = request.filter { kind.fields.contains($0.key) }
        let mask = updateMask.flatMap { $0.isEmpty ? nil : $0 } ?? update.keys.sorted().joined(separator: ",")
        for path in mask.split(separator: ",") {
            guard let head = path.split(separator: ".").first, kind.fields.contains(String(head)) else {
                throw .badRequest(.invalidConfig, "update_mask names an unknown field: \(path.prefix(60))")
            }
        }
        config = Self.applyMask(mask, to: config, from: update)
        try Self.checkProviderConfig(config, kind, creating: false)
        let updated = config
        guard try await storeCall({ try await self.store.saveProviderConfig(kind: kind.rawValue, id: id, updated) }) else {
            throw Self.configurationNotFound
        }
        return updated
    }

    /// `DELETE …/{id}`: `CONFIGURATION_NOT_FOUND` when absent.
    func deleteProviderConfig(_ kind: ProviderConfigKind, id: String) async throws(AuthServiceError) {
        try Self.checkProviderId(id, kind)
        guard try await storeCall({ try await self.store.deleteProviderConfig(kind: kind.rawValue, id: id) }) else {
            throw Self.configurationNotFound
        }
    }

    /// `GET …/oauthIdpConfigs?pageSize=&pageToken=`: id order, 100 a page by default (at most 100).
    func listProviderConfigs(_ kind: ProviderConfigKind, pageSize: String?, pageToken: String?)
        async throws(AuthServiceError) -> AuthJSON
    {
        let size = try Self.pageSize(pageSize, name: "page_size", default: 100, maximum: 100) ?? 100
        let page = try await storeCall {
            try await self.store.providerConfigs(
                kind: kind.rawValue, after: pageToken.flatMap { $0.isEmpty ? nil : $0 }, limit: size + 1)
        }
        let configs = Array(page.prefix(size))
        var result: [String: AuthJSON] = [kind.collection: .array(configs.map(AuthJSON.object))]
        if page.count > size, let last = configs.last?["name"]?.stringValue {
            result["nextPageToken"] = .string(String(last.split(separator: "/").last ?? ""))
        }
        return .object(result)
    }

    private func name(_ kind: ProviderConfigKind, _ id: String) -> String {
        let realmPath = tenantId.map { "projects/\(projectId)/tenants/\($0)" } ?? "projects/\(projectId)"
        return "\(realmPath)/\(kind.collection)/\(id)"
    }

    static let configurationNotFound = AuthServiceError(
        httpStatus: 404, code: .configurationNotFound, message: AuthErrorCode.configurationNotFound.rawValue,
        reason: "notFound", status: "NOT_FOUND")

    static func checkProviderId(_ id: String, _ kind: ProviderConfigKind) throws(AuthServiceError) {
        let name = id.dropFirst(kind.prefix.count)
        guard id.hasPrefix(kind.prefix), !name.isEmpty, name.count <= 128,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else { throw .badRequest(.invalidProviderID, "provider ids are \(kind.prefix) and a name") }
    }

    /// The fields each kind must have and their shapes.
    static func checkProviderConfig(_ config: [String: AuthJSON], _ kind: ProviderConfigKind, creating: Bool)
        throws(AuthServiceError)
    {
        if let enabled = config["enabled"], enabled.boolValue == nil { throw .badRequest(.invalidConfig, "enabled") }
        if let name = config["displayName"], name.stringValue == nil { throw .badRequest(.invalidConfig, "displayName") }
        switch kind {
        case .oidc:
            guard config["clientId"]?.stringValue?.isEmpty == false else { throw .badRequest(.missingOAuthClientID) }
            guard let issuer = config["issuer"]?.stringValue, !issuer.isEmpty else { throw .badRequest(.missingIssuer) }
            guard isAbsoluteURL(issuer) else { throw .badRequest(.invalidConfig, "issuer must be an absolute URL") }
            if let secret = config["clientSecret"], secret.stringValue == nil {
                throw .badRequest(.invalidConfig, "clientSecret")
            }
            if let types = config["responseType"] {
                guard let object = types.objectValue,
                    object.allSatisfy({ ["idToken", "code", "token"].contains($0.key) && $0.value.boolValue != nil })
                else { throw .badRequest(.invalidConfig, "responseType") }
                if object["code"]?.boolValue == true, config["clientSecret"]?.stringValue?.isEmpty != false {
                    throw .badRequest(.invalidConfig, "the code flow needs a clientSecret")
                }
            }
        case .saml:
            guard let idp = config["idpConfig"]?.objectValue else {
                throw .badRequest(.invalidConfig, "idpConfig is required")
            }
            guard idp["idpEntityId"]?.stringValue?.isEmpty == false else {
                throw .badRequest(.invalidConfig, "idpConfig.idpEntityId is required")
            }
            guard let sso = idp["ssoUrl"]?.stringValue, isAbsoluteURL(sso) else {
                throw .badRequest(.invalidConfig, "idpConfig.ssoUrl must be an absolute URL")
            }
            guard let certificates = idp["idpCertificates"]?.arrayValue, !certificates.isEmpty,
                certificates.allSatisfy({ $0.objectValue?["x509Certificate"]?.stringValue?.isEmpty == false })
            else { throw .badRequest(.invalidConfig, "idpConfig.idpCertificates needs x509Certificate entries") }
            guard let sp = config["spConfig"]?.objectValue else { throw .badRequest(.missingSAMLRelyingPartyConfig) }
            guard sp["spEntityId"]?.stringValue?.isEmpty == false else {
                throw .badRequest(.invalidConfig, "spConfig.spEntityId is required")
            }
            guard let callback = sp["callbackUri"]?.stringValue, isAbsoluteURL(callback) else {
                throw .badRequest(.invalidConfig, "spConfig.callbackUri must be an absolute URL")
            }
        }
    }
}
