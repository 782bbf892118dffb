import ArgumentParser
import CarChainKit
import EthereumPrimitives

/// `carchain account …`: what users do to their auth account after signing up.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Change or reset the password, verify the email, delete the account.",
        discussion: """
            The same Firebase Auth REST calls the Firebase JS SDK makes, against the embedded service, a served emulator (--auth-url http://127.0.0.1:8545) or real Firebase (--auth-url https://identitytoolkit.googleapis.com --api-key KEY). An emulator "emails" codes by keeping them; these commands read them back, so a reset or a verification finishes in one step. With real Firebase, run the command again with --code CODE from the email's link.

            Examples:
              carchain account password
              carchain account reset alice@example.com
              carchain account verify-email
              carchain account delete --yes
            """,
        subcommands: [
            AccountPasswordCommand.self, AccountResetCommand.self, AccountVerifyEmailCommand.self,
            AccountDeleteCommand.self,
        ]
    )
}

/// The emulator's project (`--project-id`), for the commands that read emailed codes back.
struct ProjectOption: ParsableArguments {
    @Option(name: .customLong("project-id"), help: ArgumentHelp("The Firebase project whose emailed codes an emulator keeps (default: demo-carchain, the one carchain serves).", valueName: "id"))
    var projectId: String?

    func validate() throws {
        if let projectId,
            projectId.isEmpty || projectId.count > 64
                || !projectId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        {
            throw ValidationError("--project-id must be 1 to 64 letters, digits and hyphens")
        }
    }

    /// `auth`'s configuration with this project.
    func configuration(_ auth: AuthOptions) -> AuthConfiguration {
        var configuration = auth.configuration
        if let projectId { configuration.projectId = projectId }
        return configuration
    }
}

/// A new password: typed twice without echo, or the first line of `--new-password-file`.
struct NewPasswordOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read the new password from the first line of this file.", valueName: "FILE"))
    var newPasswordFile: String?

    func read(prompt: String) throws -> String {
        try Secrets.password(file: newPasswordFile, fileOption: "--new-password-file", stdin: false, prompt: prompt, confirm: true)
    }
}

/// `carchain account password`.
struct AccountPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password",
        abstract: "Change the logged-in user's password (and re-encrypt their account key with it).",
        discussion: """
            Asks for the current password (checked by signing in again, as Firebase asks before a password change, and used to open the account key on this machine), then the new one twice. The key's keystore is re-encrypted with the new password; Firebase signs out the account's other sessions, and the new session is saved. A wrong current password changes nothing.

            Examples:
              carchain account password
              carchain account password --password-file old.txt --new-password-file new.txt --json
            """
    )

    @OptionGroup var auth: AuthOptions
    @OptionGroup var password: PasswordOptions
    @OptionGroup var newPassword: NewPasswordOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        let paths = AppPaths.current()
        let current = try password.read(prompt: "Current password: ")
        let new = try newPassword.read(prompt: "New password: ")
        let report = try await AccountFlow.changePassword(
            paths: paths, auth: auth.configuration, currentPassword: current, newPassword: new)
        report.emit(json: output.json)
    }
}

/// `carchain account reset EMAIL`.
struct AccountResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Reset a forgotten password with an emailed code.",
        discussion: """
            Asks the auth service to email a reset code. An emulator (the embedded service, carchain node, the Firebase emulator) keeps the code instead of emailing it: it is read back and the new password set at once. With real Firebase, the email arrives; run the command again with --code and the oobCode from its link. The account key on this machine stays encrypted with the old password (a reset cannot open it to re-encrypt).

            Examples:
              carchain account reset alice@example.com
              carchain account reset alice@example.com --code CODE --new-password-file new.txt
            """
    )

    @Argument(help: "The account's email address.") var email: String
    @Option(help: ArgumentHelp("The reset code from the email's link (its oobCode parameter).", valueName: "code"))
    var code: String?
    @OptionGroup var auth: AuthOptions
    @OptionGroup var project: ProjectOption
    @OptionGroup var newPassword: NewPasswordOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if let code, code.isEmpty || code.count > 512 { throw ValidationError("--code must be 1 to 512 characters") }
    }

    func run() async throws {
        let paths = AppPaths.current()
        let configuration = project.configuration(auth)
        var code = self.code
        if code == nil {
            code = try await AccountFlow.requestPasswordReset(email: email, paths: paths, auth: configuration)
            guard code != nil else {
                let line = "if \(email) has an account, a reset email is on its way; run `carchain account reset \(email) --code CODE` with the code from its link"
                AccountFlow.Report(
                    lines: [line], json: [("email", .string(email)), ("sent", .bool(true)), ("reset", .bool(false))]
                ).emit(json: output.json)
                return
            }
        }
        guard let code else { return }
        let new = try newPassword.read(prompt: "New password for \(email): ")
        let report = try await AccountFlow.resetPassword(
            email: email, code: code, newPassword: new, paths: paths, auth: configuration)
        report.emit(json: output.json)
    }
}

/// `carchain account verify-email`.
struct AccountVerifyEmailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-email",
        abstract: "Verify the logged-in user's email address.",
        discussion: """
            Sends a verification code to the logged-in user's email. An emulator keeps it: it is read back and applied at once. With real Firebase, run the command again with --code and the oobCode from the email's link.

            Examples:
              carchain account verify-email
              carchain account verify-email --code CODE --json
            """
    )

    @Option(help: ArgumentHelp("The verification code from the email's link (its oobCode parameter).", valueName: "code"))
    var code: String?
    @OptionGroup var auth: AuthOptions
    @OptionGroup var project: ProjectOption
    @OptionGroup var output: JSONOption

    func validate() throws {
        if let code, code.isEmpty || code.count > 512 { throw ValidationError("--code must be 1 to 512 characters") }
    }

    func run() async throws {
        let configuration = project.configuration(auth)
        let report = try await AccountFlow.verifyEmail(paths: AppPaths.current(), auth: configuration, code: code)
        report.emit(json: output.json)
    }
}

/// `carchain account delete`.
struct AccountDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the logged-in user's auth account (the Ethereum account and its key stay).",
        discussion: """
            Asks for the password (a fresh sign-in, as Firebase asks before a deletion), deletes the auth account and logs out. The Ethereum account, its keystore and its registration on chain stay: the key may hold funds, and a chain cannot forget. Deleting is permanent, so --yes is required.

            Example:
              carchain account delete --yes
            """
    )

    @Flag(help: "Confirm the deletion (it cannot be undone).") var yes = false
    @OptionGroup var auth: AuthOptions
    @OptionGroup var password: PasswordOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        guard yes else { throw ValidationError("deleting an account cannot be undone: add --yes to confirm") }
    }

    func run() async throws {
        let paths = AppPaths.current()
        let secret = try password.read(prompt: "Password: ")
        let report = try await AccountFlow.deleteAccount(paths: paths, auth: auth.configuration, password: secret)
        report.emit(json: output.json)
    }
}
