import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// `carchain app` and the web app's options on `carchain node`: one-line errors for bad options, the banner's app
/// URL, `--open` handing the URL to the browser (`$BROWSER`), and `carchain app` finding the node that already serves
/// the data directory.
@Suite(.serialized) struct AppCommandCLITests {
    @Test("bad app options are one line and exit 1")
    func badOptions() throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let cases: [([String], String)] = [
            (["node", "--ephemeral", "--port", "0", "--eth-price", "abc"], "carchain: --eth-price must be a decimal number of USD"),
            (["node", "--ephemeral", "--port", "0", "--eth-price", "1.1234567"], "carchain: --eth-price must be a decimal number of USD"),
            (["node", "--ephemeral", "--port", "0", "--no-app", "--open"], "carchain: --no-app serves no app"),
            (["app", "--port", "70000"], "carchain: --port must be 0 to 65535"),
            (["app", "--ephemeral", "--data-dir", "/tmp/x"], "carchain: give --data-dir or --ephemeral, not both"),
        ]
        for (arguments, message) in cases {
            let run = try TimedProcess.run(carchain, arguments, timeout: 60)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
        }
        let help = try ProcessRunner.run(carchain, ["app", "--help"]).stdout
        #expect(help.contains("carchain app --open") && help.contains("--eth-price"))
    }

    @Test("carchain app serves the app and opens it; a second carchain app finds the node and prints its URL")
    func appCommand() async throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-app-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A "browser" that writes down what it was asked to open.
        let opened = scratch.appendingPathComponent("opened.txt")
        let browser = scratch.appendingPathComponent("browser.sh")
        try "#!/bin/sh\necho \"$1\" > \(opened.path)\n".write(to: browser, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser.path)
        let data = scratch.appendingPathComponent("chain")

        let process = Process()
        process.executableURL = carchain
        process.arguments = ["app", "--data-dir", data.path, "--port", "0", "--open", "--eth-price", "3000"]
        var environment = ProcessInfo.processInfo.environment
        environment["BROWSER"] = browser.path
        environment["CARCHAIN_HOME"] = scratch.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        defer {
            process.end()
        }
        // The banner's first line names the URL; the browser gets URL/app/.
        let deadline = Date().addingTimeInterval(120)
        var url: String?
        while url == nil, Date() < deadline {
            if let text = try? String(contentsOf: opened, encoding: .utf8), !text.isEmpty { url = text.trimmingCharacters(in: .whitespacesAndNewlines) }
            try await Task.sleep(for: .milliseconds(50))
        }
        let app = try #require(url, "the browser was never asked to open the app")
        #expect(app.hasPrefix("http://127.0.0.1:") && app.hasSuffix("/app/"))
        let page = try await URLSession.shared.data(from: try #require(URL(string: app))).0
        #expect(String(decoding: page, as: UTF8.self).contains("<title>CarChain</title>"))

        let second = try TimedProcess.run(carchain, ["app", "--data-dir", data.path], environment: ["CARCHAIN_HOME": scratch.path], timeout: 60)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("CarChain app: \(app) (served by the carchain node of \(data.path))"), "\(second.stdout)")

        process.end(signal: SIGINT)
        let banner = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(banner.contains("web app: \(app)"), "\(banner)")
    }
}
