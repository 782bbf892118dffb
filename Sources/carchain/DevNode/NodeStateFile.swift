import Chain
import Foundation

/// The files of `--load-state` and `--dump-state`: a ``StateDump`` blob as raw bytes. Written atomically (a
/// temporary file in the same directory, then a rename) with mode 0600, since a state can hold what a
/// developer would not share.
enum NodeStateFile {
    /// The largest file `--load-state` reads: 1 GiB.
    static let maxBytes = 1 << 30

    /// Reads and decodes a state file.
    static func load(_ path: String) throws(CLIError) -> StateDump {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size else { throw CLIError("--load-state \(path): no such file") }
        guard size <= maxBytes else { throw CLIError("--load-state \(path): \(size) bytes is more than the 1 GiB a state file may have") }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw CLIError("--load-state \(path): cannot read it (\(error.localizedDescription))") }
        do { return try StateDump(encoded: [UInt8](data)) } catch { throw CLIError("--load-state \(path): \(error)") }
    }

    /// Writes a state file atomically, mode 0600.
    static func write(_ dump: StateDump, to path: String) throws(CLIError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let bytes = Data(dump.encoded)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CLIError("--dump-state \(path): cannot create a file in \(url.deletingLastPathComponent().path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            try handle.write(contentsOf: bytes)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, url.path) == 0 else {
                throw CLIError("cannot rename into place (errno \(errno))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError("--dump-state \(path): \(error)")
        }
    }

    /// Refuses a `--dump-state` path whose directory does not exist, before the node starts (not at shutdown).
    static func checkWritable(_ path: String) throws(CLIError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: directory)
        else { throw CLIError("--dump-state \(path): the directory \(directory) does not exist or is not writable") }
    }
}
