import Foundation

extension AuthEmulator {
    /// `GET /emulator/action`: what following an email action link does, as the Firebase emulator's page does it,
    /// answering JSON (`{"authEmulator":{"success"|"error": …}}`) or, with a `continueUrl`, a 303 redirect there.
    /// - `mode=resetPassword&oobCode=…&newPassword=…`: sets the password (without `newPassword`: says how);
    /// - `mode=verifyEmail&oobCode=…`: marks the email verified;
    /// - `mode=signIn&oobCode=…&continueUrl=…`: redirects to the app with the link's parameters, where the app
    ///   calls `accounts:signInWithEmailLink`.
    func emailAction(query: [String: String]) async -> AuthHTTPResponse {
        guard query["apiKey"]?.isEmpty == false else {
            return Self.page(400, error: "missing apiKey query parameter",
                instructions: "Please modify the URL to specify an apiKey, such as ...&apiKey=YOUR_API_KEY")
        }
        guard let code = query["oobCode"], !code.isEmpty else {
            return Self.page(400, error: "missing oobCode query parameter",
                instructions: "Please modify the URL to specify an oobCode, such as ...&oobCode=YOUR_OOB_CODE")
        }
        let continueURL = query["continueUrl"].flatMap { Self.isAbsoluteURL($0) ? $0 : nil }
        switch query["mode"] {
        case "resetPassword":
            guard let newPassword = query["newPassword"], !newPassword.isEmpty else {
                return Self.page(400, error: "missing newPassword query parameter",
                    instructions: "To reset the password, send an HTTP GET request to this URL with &newPassword=NEW_PASSWORD_HERE added.")
            }
            do throws(AuthServiceError) {
                let result = try await resetPassword(AuthWire.ResetPasswordRequest(oobCode: code, newPassword: newPassword))
                if let continueURL { return Self.redirect(continueURL) }
                return Self.page(200, success: "The password has been successfully updated.", email: result.email)
            } catch {
                if error.code == .weakPassword { return Self.page(400, error: error.message, instructions: nil) }
                return Self.page(400,
                    error: "Your request to reset your password has expired or the link has already been used.",
                    instructions: "Try resetting your password again.")
            }
        case "verifyEmail":
            do throws(AuthServiceError) {
                let result = try await update(AuthWire.UpdateRequest(oobCode: code))
                if let continueURL { return Self.redirect(continueURL) }
                return Self.page(200, success: "The email has been successfully verified.", email: result.email)
            } catch {
                return Self.page(400,
                    error: "Your request to verify your email has expired or the link has already been used.",
                    instructions: "Try verifying your email again.")
            }
        case "verifyAndChangeEmail", "recoverEmail":
            let changing = query["mode"] == "verifyAndChangeEmail"
            do throws(AuthServiceError) {
                let peek = try await validOobCode(code)
                guard peek.requestType == (changing ? .verifyAndChangeEmail : .recoverEmail) else {
                    throw .badRequest(.invalidOobCode)
                }
                let result = try await update(AuthWire.UpdateRequest(oobCode: code))
                if let continueURL { return Self.redirect(continueURL) }
                return Self.page(
                    200, success: changing ? "The email has been successfully changed." : "The email has been successfully reset.",
                    email: changing ? result.newEmail : result.email)
            } catch {
                return Self.page(400,
                    error: changing
                        ? "Your request to change your email has expired or the link has already been used."
                        : "Your request to revert your email has expired or the link has already been used.",
                    instructions: changing
                        ? "Try changing your email again."
                        : "If you're trying to test the reverting email flow, try changing the email again to generate a new link.")
            }
        case "signIn":
            guard let continueURL, var target = URLComponents(string: continueURL) else {
                return Self.page(400, error: "Missing continueUrl query parameter",
                    instructions: "To sign in, append &continueUrl=YOUR_APP_URL to the link.")
            }
            var items = (target.queryItems ?? []).filter { item in query[item.name] == nil || item.name == "continueUrl" }
            for (name, value) in query.sorted(by: { $0.key < $1.key }) where name != "continueUrl" {
                items.append(URLQueryItem(name: name, value: value))
            }
            target.queryItems = items
            return Self.redirect(target.string ?? continueURL)
        default:
            return Self.page(400, error: "Invalid mode", instructions: nil)
        }
    }

    private struct ActionPage: Encodable {
        struct Body: Encodable {
            var success: String?
            var error: String?
            var instructions: String?
            var email: String?
        }
        var authEmulator: Body
    }

    private static func page(
        _ status: Int, success: String? = nil, error: String? = nil, instructions: String?, email: String? = nil
    ) -> AuthHTTPResponse {
        let page = ActionPage(
            authEmulator: .init(success: success, error: error, instructions: instructions, email: email))
        return AuthHTTPResponse(status: status, body: (try? AuthWire.encode(page)) ?? [])
    }

    private static func page(_ status: Int, success: String, email: String?) -> AuthHTTPResponse {
        page(status, success: success, error: nil, instructions: nil, email: email)
    }

    private static func redirect(_ location: String) -> AuthHTTPResponse {
        AuthHTTPResponse(status: 303, headers: ["location": location, "content-type": jsonContentType], body: [])
    }

    private static let jsonContentType = AuthHTTPResponse.jsonContentType
}
