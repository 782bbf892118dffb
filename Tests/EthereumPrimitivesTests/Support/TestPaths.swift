import Foundation

/// Locations the tests read from.
enum TestPaths {
    /// The package root: the nearest directory above this source file that holds `Package.swift`.
    static func packageRoot(filePath: String = #filePath) -> URL {
        var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                return dir
            }
            dir = dir.deletingLastPathComponent()
        }
        // Not inside a package checkout: fall back to three levels above Tests/<Target>/Support.
        return URL(fileURLWithPath: filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The Ethereum conformance vectors: `$ETHTESTS_DIR`, or `<package root>/../shared/ethtests`.
    static var ethTests: URL {
        if let dir = ProcessInfo.processInfo.environment["ETHTESTS_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return packageRoot().deletingLastPathComponent().appendingPathComponent("shared/ethtests")
    }
}
