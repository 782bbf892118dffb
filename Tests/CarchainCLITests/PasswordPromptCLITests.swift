import Foundation
import Testing
import TestSupport

/// The no-echo password prompt on a real terminal (a pseudo-terminal driven by Python's `pty`): echo is off
/// while it waits, and Ctrl-C at the prompt ends the command with the terminal's echo back on, so the shell
/// is never left typing blind. Every command that asks for a secret goes through the same prompt.
@Suite struct PasswordPromptCLITests {
    /// Starts `carchain ARGS` on a pseudo-terminal, waits for the prompt, types Ctrl-C, and reports the terminal's
    /// echo flag at the prompt and after the process ended, and how it ended.
    static let driver = #"""
        import os, pty, select, signal, sys, termios, time
        pid, master = pty.fork()
        if pid == 0:
            # As from a login shell: no signal blocked (the test runner's threads block them, and a spawned
            # process inherits that mask).
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
            os.execv(sys.argv[1], sys.argv[1:])
        seen, deadline = b"", time.time() + 60
        while b"Password" not in seen and time.time() < deadline:
            if select.select([master], [], [], 1)[0]:
                try:
                    seen += os.read(master, 1024)
                except OSError:
                    break
        echo_at_prompt = bool(termios.tcgetattr(master)[3] & termios.ECHO)
        time.sleep(0.2)
        os.write(master, b"\x03")
        # Ctrl-C is the line discipline's interrupt character: the kernel sends SIGINT to the prompt's process.
        status, deadline = None, time.time() + 20
        while status is None and time.time() < deadline:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
            else:
                time.sleep(0.05)
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            print("still running 20 s after Ctrl-C")
            sys.exit(0)
        echo_after = bool(termios.tcgetattr(master)[3] & termios.ECHO)
        signal = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
        print(f"prompt={int(b'Password' in seen)} echo_at_prompt={int(echo_at_prompt)} echo_after={int(echo_after)} signal={signal}")
        """#

    @Test(arguments: [
        ["wallet", "new", "--kdf", "light"],
        ["login", "nobody@example.com"],
    ])
    func ctrlCAtThePromptRestoresEcho(arguments: [String]) throws {
        guard let carchain = ProcessRunner.carchainExecutable(),
            let python = Prerequisite.tool("python3", install: "python3", for: "password prompt on a pseudo-terminal")
        else { return }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-prompt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let outcome = try TimedProcess.run(
            python, ["-c", Self.driver, carchain.path] + arguments, environment: ["CARCHAIN_HOME": home.path], timeout: 120)
        #expect(outcome.status == 0, "driver: \(outcome.stderr)")
        #expect(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "prompt=1 echo_at_prompt=0 echo_after=1 signal=2")
    }
}
