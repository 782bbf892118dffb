import AuthEmulator
import Foundation
import Testing

/// Email action codes: sending, listing, redeeming (once, before expiry), and the emulator's action page.
@Suite("email actions: reset, verification, sign-in links")
struct AuthEmailActionTests {
    private func code(_ emulator: AuthEmulator, for email: String) async throws -> AuthWire.OobCodeEntry {
        try #require(try await emulator.listOobCodes().oobCodes.last { $0.email == email })
    }

    @Test("password reset: the code is listed with its link, checks, resets once, revokes sessions")
    func passwordReset() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        let session = try await emulator.signUp(.init(email: "rex@example.com", password: "old-password"))
        let context = AuthCallContext(privileged: false, clientAddress: nil, baseURL: "http://127.0.0.1:8545")
        let sent = try await emulator.sendOobCode(.init(requestType: "PASSWORD_RESET", email: "Rex@example.com"), context: context)
        #expect(sent.email == "rex@example.com" && sent.oobCode == nil && sent.oobLink == nil)
        let entry = try await code(emulator, for: "rex@example.com")
        #expect(entry.requestType == "PASSWORD_RESET")
        #expect(entry.oobLink == "http://127.0.0.1:8545/emulator/action?mode=resetPassword&lang=en&oobCode=\(entry.oobCode)&apiKey=fake-api-key")

        let check = try await emulator.resetPassword(.init(oobCode: entry.oobCode))
        #expect(check.requestType == "PASSWORD_RESET" && check.email == "rex@example.com")
        #expect(await serviceError { try await emulator.resetPassword(.init(oobCode: entry.oobCode, newPassword: "123")) }?.code == .weakPassword)
        clock.advance(by: 2)
        _ = try await emulator.resetPassword(.init(oobCode: entry.oobCode, newPassword: "new-password"))
        #expect(await serviceError { try await emulator.resetPassword(.init(oobCode: entry.oobCode, newPassword: "newer-password")) }?.code == .invalidOobCode)
        #expect(await serviceError { try await emulator.refresh(.init(refreshToken: session.refreshToken)) }?.code == .tokenExpired)
        #expect(await serviceError { try await emulator.lookup(.init(idToken: session.idToken)) }?.code == .tokenExpired)
        _ = try await emulator.signInWithPassword(.init(email: "rex@example.com", password: "new-password"))
        #expect(try await emulator.store.user(email: "rex@example.com")?.emailVerified == true)
        #expect(try await emulator.listOobCodes().oobCodes.isEmpty)
    }

    @Test("EXPIRED_OOB_CODE after the code lifetime; expired codes leave the listing")
    func expiry() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        _ = try await emulator.signUp(.init(email: "sue@example.com", password: "old-password"))
        _ = try await emulator.sendOobCode(.init(requestType: "PASSWORD_RESET", email: "sue@example.com"))
        let entry = try await code(emulator, for: "sue@example.com")
        clock.advance(by: 3599)
        _ = try await emulator.resetPassword(.init(oobCode: entry.oobCode))
        clock.advance(by: 1)
        #expect(await serviceError { try await emulator.resetPassword(.init(oobCode: entry.oobCode, newPassword: "new-password")) }?.code == .expiredOobCode)
        #expect(try await emulator.listOobCodes().oobCodes.isEmpty)
        #expect(await serviceError { try await emulator.resetPassword(.init(oobCode: entry.oobCode)) }?.code == .invalidOobCode)
    }

    @Test("email enumeration protection: an unknown email gets the known-email answer, unless turned off")
    func enumeration() async throws {
        let emulator = try await makeEmulator()
        let unknown = try await emulator.sendOobCode(.init(requestType: "PASSWORD_RESET", email: "nobody@example.com"))
        #expect(unknown.email == "nobody@example.com")
        #expect(try await emulator.listOobCodes().oobCodes.isEmpty)
        _ = try await emulator.updateEmulatorConfig(.init(signIn: nil, emailPrivacyConfig: .init(enableImprovedEmailPrivacy: false)))
        #expect(await serviceError { try await emulator.sendOobCode(.init(requestType: "PASSWORD_RESET", email: "nobody@example.com")) }?.code == .emailNotFound)
        #expect(await serviceError { try await emulator.signInWithPassword(.init(email: "nobody@example.com", password: "whatever1")) }?.code == .emailNotFound)
    }

    @Test("sendOobCode errors: MISSING_REQ_TYPE, INSUFFICIENT_PERMISSION, INVALID_CONTINUE_URI, MISSING_EMAIL")
    func sendErrors() async throws {
        let emulator = try await makeEmulator()
        #expect(await serviceError { try await emulator.sendOobCode(.init(requestType: nil, email: "a@example.com")) }?.code == .missingRequestType)
        var link = AuthWire.SendOobCodeRequest(requestType: "EMAIL_SIGNIN", email: "a@example.com")
        link.returnOobLink = true
        #expect(await serviceError { try await emulator.sendOobCode(link) }?.code == .insufficientPermission)
        let admin = try await emulator.sendOobCode(link, context: .administrator)
        #expect(admin.oobLink?.contains("mode=signIn") == true && admin.oobCode != nil)
        #expect(await serviceError { try await emulator.sendOobCode(.init(requestType: "EMAIL_SIGNIN", email: "a@example.com", continueUrl: "/relative")) }?.code == .invalidContinueURI)
        #expect(await serviceError { try await emulator.sendOobCode(.init(requestType: "EMAIL_SIGNIN")) }?.code == .missingEmail)
        #expect(await serviceError { try await emulator.sendOobCode(.init(requestType: "VERIFY_EMAIL")) }?.code == .missingIDToken)
        #expect(await serviceError { try await emulator.sendOobCode(.init(requestType: "NOPE", email: "a@example.com")) }?.code == .invalidArgument)
    }

    @Test("verification: the action page marks the email verified and redirects to continueUrl")
    func verificationPage() async throws {
        let emulator = try await makeEmulator()
        let session = try await emulator.signUp(.init(email: "vee@example.com", password: "secret-pw"))
        _ = try await emulator.sendOobCode(
            .init(requestType: "VERIFY_EMAIL", idToken: session.idToken, continueUrl: "https://app.example.com/ok"))
        let entry = try await code(emulator, for: "vee@example.com")
        let link = try #require(URLComponents(string: entry.oobLink))
        let page = await emulator.handle(AuthHTTPRequest(method: "GET", target: link.path + "?" + (link.percentEncodedQuery ?? "")))
        #expect(page.status == 303)
        #expect(page.headers["location"] == "https://app.example.com/ok")
        #expect(try await emulator.store.user(email: "vee@example.com")?.emailVerified == true)
        let again = await emulator.handle(AuthHTTPRequest(method: "GET", target: link.path + "?" + (link.percentEncodedQuery ?? "")))
        #expect(again.status == 400)
    }

    @Test("email link sign-in: new account, existing account, wrong email, linking to a signed-in account")
    func emailLink() async throws {
        let emulator = try await makeEmulator()
        func sendLink(_ email: String) async throws -> String {
            _ = try await emulator.sendOobCode(.init(requestType: "EMAIL_SIGNIN", email: email, continueUrl: "https://app.example.com"))
            return try await code(emulator, for: email).oobCode
        }
        let code1 = try await sendLink("link@example.com")
        #expect(await serviceError { try await emulator.signInWithEmailLink(.init(email: "other@example.com", oobCode: code1)) }?.code == .invalidEmail)
        let first = try await emulator.signInWithEmailLink(.init(email: "link@example.com", oobCode: code1))
        #expect(first.isNewUser && first.email == "link@example.com")
        let code2 = try await sendLink("link@example.com")
        let second = try await emulator.signInWithEmailLink(.init(email: "LINK@example.com", oobCode: code2))
        #expect(!second.isNewUser && second.localId == first.localId)
        #expect(await serviceError { try await emulator.signInWithEmailLink(.init(email: "link@example.com", oobCode: code2)) }?.code == .invalidOobCode)

        // Linking an email to a password account that has another email is refused when the email is taken.
        let owner = try await emulator.signUp(.init(email: "owner@example.com", password: "secret-pw"))
        let code3 = try await sendLink("link@example.com")
        #expect(await serviceError { try await emulator.signInWithEmailLink(.init(email: "link@example.com", oobCode: code3, idToken: owner.idToken)) }?.code == .emailExists)
        let firstUID = try #require(first.localId)
        let user = try #require(try await emulator.store.user(uid: firstUID))
        #expect(user.emailVerified && user.emailLinkSignin && user.passwordHash == nil)
    }
}
