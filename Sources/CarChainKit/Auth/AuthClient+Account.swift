import AuthEmulator
import Foundation

/// The account operations a signed-in user (or someone who forgot their password) performs, each the REST call
/// the Firebase JS SDK makes for it: `updatePassword`, `sendPasswordResetEmail` + `confirmPasswordReset`,
/// `sendEmailVerification` + `applyActionCode`, `deleteUser`. Against an emulator, the codes it "emailed" are read
/// back from its `oobCodes` endpoint, as the Firebase emulator suite's own UI does.
extension AuthClient {
    /// What an email action code is for (`requestType` on the wire).
    public enum EmailAction: String, Sendable {
        case passwordReset = "PASSWORD_RESET"
        case verifyEmail = "VERIFY_EMAIL"
    }

    /// Sets a new password for the session's account (`accounts:update` with `returnSecureToken`). Firebase revokes
    /// the account's other sessions on a password change, so the answer is the session to keep from now on.
    /// Errors: `WEAK_PASSWORD`, `INVALID_ID_TOKEN`, `TOKEN_EXPIRED`, `USER_NOT_FOUND`, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`.
    public func changePassword(_ session: AuthSession, to newPassword: String) async throws(AuthClientError)
        -> AuthSession
    {
        let issuedAt = clock.now()
        var request = AuthWire.UpdateRequest()
        request.idToken = session.idToken
        request.password = newPassword
        request.returnSecureToken = true
        let response = try await call(.update, request, as: AuthWire.UpdateResponse.self)
        guard let idToken = response.idToken, let refreshToken = response.refreshToken,
            let expiresIn = response.expiresIn
        else {
            throw .malformedResponse(endpoint: FirebaseAuthEndpoint.update.path, reason: "no new tokens after a password change")
        }
        return try self.session(
            uid: response.localId, email: response.email ?? session.email, idToken: idToken, refreshToken: refreshToken,
            expiresIn: expiresIn, issuedAt: issuedAt, endpoint: .update)
    }

    /// Asks the service to email a password-reset code to `email` (`accounts:sendOobCode`, `PASSWORD_RESET`). With
    /// email enumeration protection on, an unknown email gets the same answer and no code. Errors: `INVALID_EMAIL`,
    /// `EMAIL_NOT_FOUND` (protection off), `MISSING_EMAIL`.
    public func sendPasswordReset(email: String) async throws(AuthClientError) {
        _ = try await call(
            .sendOobCode, AuthWire.SendOobCodeRequest(requestType: EmailAction.passwordReset.rawValue, email: email),
            as: AuthWire.SendOobCodeResponse.self)
    }

    /// Asks the service to email a verification code for the session's address (`accounts:sendOobCode`,
    /// `VERIFY_EMAIL` with the ID token).
    public func sendEmailVerification(_ session: AuthSession) async throws(AuthClientError) {
        _ = try await call(
            .sendOobCode,
            AuthWire.SendOobCodeRequest(requestType: EmailAction.verifyEmail.rawValue, idToken: session.idToken),
            as: AuthWire.SendOobCodeResponse.self)
    }

    /// Sets `newPassword` with a reset code (`accounts:resetPassword`); returns the account's email. Errors:
    /// `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, `WEAK_PASSWORD`, `USER_DISABLED`.
    public func resetPassword(code: String, newPassword: String) async throws(AuthClientError) -> String? {
        try await call(
            .resetPassword, AuthWire.ResetPasswordRequest(oobCode: code, newPassword: newPassword),
            as: AuthWire.ResetPasswordResponse.self
        ).email
    }

    /// Applies a verification code (`accounts:update` with `oobCode`, the JS SDK's `applyActionCode`); returns the
    /// verified email. Errors: `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`.
    public func applyEmailVerification(code: String) async throws(AuthClientError) -> String? {
        var request = AuthWire.UpdateRequest()
        request.oobCode = code
        return try await call(.update, request, as: AuthWire.UpdateResponse.self).email
    }

    /// Deletes the session's account (`accounts:delete` with the ID token). Errors: `INVALID_ID_TOKEN`,
    /// `USER_NOT_FOUND`, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`.
    public func deleteAccount(_ session: AuthSession) async throws(AuthClientError) {
        _ = try await call(.delete, AuthWire.DeleteRequest(idToken: session.idToken), as: AuthWire.KindResponse.self)
    }

    /// The newest code of kind `action` the emulator "emailed" to `email` (`GET /emulator/v1/projects/{project}/
    /// oobCodes`); nil when it holds none. Real Firebase sends real email and has no such endpoint: asking it
    /// throws `invalidConfiguration` saying to pass the code from the email instead.
    public func emailedCode(_ action: EmailAction, to email: String, projectId: String) async throws(AuthClientError)
        -> String?
    {
        if (transport as? HTTPAuthTransport)?.isProduction == true {
            throw .invalidConfiguration("real Firebase emails the code: pass it with --code CODE (the oobCode in the link)")
        }
        let project = (transport as? InProcessAuthTransport)?.emulator.projectId ?? projectId
        guard project.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }), !project.isEmpty else {
            throw .invalidConfiguration("project id \(project.prefix(64)) is not letters, digits and hyphens")
        }
        let codes = try await exchange(
            method: "GET", path: "/emulator/v1/projects/\(project)/oobCodes", as: AuthWire.OobCodesResponse.self)
        let wanted = EmailAddress.normalize(email)
        return codes.oobCodes.last { $0.requestType == action.rawValue && EmailAddress.normalize($0.email) == wanted }?
            .oobCode
    }
}
