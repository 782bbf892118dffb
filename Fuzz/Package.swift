// swift-tools-version: 6.1
// carchain's libFuzzer executables: one per harness, each a thin `LLVMFuzzerTestOneInput` over the harness bodies
// in the root package's FuzzHarnesses library (Fuzz/Harnesses), which the regression tests share. A package of its
// own so that its sanitizer build (`swift build --sanitize=fuzzer --sanitize=address`, scratch path .build-fuzz)
// never touches the normal build: `make fuzz`, `make fuzz-smoke` (tools/fuzz.mk) and Fuzz/README.md.
import PackageDescription

let harnesses = ["RLP", "Transaction", "ABI", "Keystore", "JSONRPC", "Node", "Auth"]

let package = Package(
    name: "carchain-fuzz",
    platforms: [.macOS(.v14)],
    // The root package through the symlink carchain-root (-> ..): a path dependency's identity is its directory's
    // name, and the checkout's own name (carchain, main, fuzz…) could be anything, even this package's.
    dependencies: [.package(path: "carchain-root")],
    targets: harnesses.map { name in
        .executableTarget(
            name: "Fuzz\(name)",
            dependencies: [.product(name: "FuzzHarnesses", package: "carchain-root")],
            // No main: libFuzzer's is linked in by -sanitize=fuzzer.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    }
)
