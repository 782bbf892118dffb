// swift-tools-version: 6.1
// carchain — a Linux-first Ethereum toolkit for Swift. Module layers (dependencies point down only):
// see docs/ARCHITECTURE.md.
import PackageDescription

let package = Package(
    name: "carchain",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "EthereumPrimitives", targets: ["EthereumPrimitives"]),
        .library(name: "EthereumCrypto", targets: ["EthereumCrypto"]),
        .library(name: "EthereumRPC", targets: ["EthereumRPC"]),
        .library(name: "EthereumTrie", targets: ["EthereumTrie"]),
        .library(name: "EthereumTransactions", targets: ["EthereumTransactions"]),
        .library(name: "EthereumABI", targets: ["EthereumABI"]),
        .library(name: "EVM", targets: ["EVM"]),
        .library(name: "Chain", targets: ["Chain"]),
        .library(name: "AuthEmulator", targets: ["AuthEmulator"]),
        .library(name: "CarChain", targets: ["CarChain"]),
        .executable(name: "carchain", targets: ["carchain"]),
        // The fuzz harness bodies, for the libFuzzer executables of the Fuzz/ package and the regression tests.
        .library(name: "FuzzHarnesses", targets: ["FuzzHarnesses"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        // Test-only reference for UInt256 property tests.
        .package(url: "https://github.com/attaswift/BigInt.git", from: "6.0.1"),
        // SHA-2, HMAC, PBKDF2, scrypt and AES-CTR for keystores, BIP-39/BIP-32 and auth; SHA-256 for the precompile.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // JSON-RPC over HTTP(S) (EthereumRPC, auth client); swift-nio for the RPC tests' scripted HTTP server.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // SQLite persistence for the local chain (Chain) and the auth service's users.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // HTTP server for the dev node and the auth service; RS256 ID tokens; logging.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // libsecp256k1 from the system (Debian: libsecp256k1-dev), found through pkg-config.
        .systemLibrary(
            name: "CSecp256k1",
            pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"])]
        ),
        // OpenSSL's libcrypto (Debian: libssl-dev), a reference for the Keccak benchmarks only.
        .systemLibrary(
            name: "CLibCrypto",
            path: "Benchmarks/CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "EthereumPrimitives"),
        .target(
            name: "EthereumCrypto",
            dependencies: [
                "EthereumPrimitives", "CSecp256k1",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Transactions: envelopes (types 0–4), signing, hashing, sender recovery, intrinsic gas.
        .target(name: "EthereumTransactions", dependencies: ["EthereumPrimitives", "EthereumCrypto"]),
        .testTarget(
            name: "EthereumTransactionsTests",
            dependencies: ["EthereumTransactions", "EthereumCrypto", "TestSupport"]
        ),
        // World state, transaction execution and the state-test runner.
        .target(
            name: "Chain",
            dependencies: [
                "EthereumPrimitives", "EthereumCrypto", "EthereumTrie", "EthereumTransactions", "EVM",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Test helper for the chain's crash-safety test: sends transactions to a data dir until killed.
        .executableTarget(name: "ChainCrashHelper", dependencies: ["Chain", "EthereumPrimitives", "EthereumTransactions"]),
        // Perf probe: automined CarChain throughput per window of 200 blocks (tools, not tests).
        .executableTarget(name: "ChainPerfProbe", dependencies: ["Chain", "EVM", "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions"]),
        .testTarget(name: "EVMTests", dependencies: ["EVM", "EthereumPrimitives", "TestSupport"]),
        .testTarget(
            name: "ChainTests",
            dependencies: [
                "Chain", "EVM", "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions", "TestSupport",
                "ChainCrashHelper",
            ]
        ),
        // JSON-RPC 2.0 client: transports, typed eth_* methods, batching, errors, retries, sending.
        .target(
            name: "EthereumRPC",
            dependencies: [
                "EthereumPrimitives",
                "EthereumCrypto",
                "EthereumTransactions",
                "EthereumABI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "EthereumRPCTests",
            dependencies: [
                "EthereumRPC",
                "EthereumABI",
                "EthereumCrypto",
                "EthereumTransactions",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "carchain",
            dependencies: [
                "EthereumPrimitives",
                "EthereumCrypto",
                "EthereumTransactions",
                "EthereumABI",
                "CarChain",
                "EVM",
                "Chain",
                "EthereumRPC",
                "DevNode",
                "AuthEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Shared test helpers: locating ../shared and the conformance vectors, pass-count tallies.
        .target(name: "TestSupport", dependencies: ["EthereumPrimitives"], path: "Tests/TestSupport"),
        .testTarget(
            name: "EthereumPrimitivesTests",
            dependencies: ["EthereumPrimitives", "TestSupport", .product(name: "BigInt", package: "BigInt")]
        ),
        .testTarget(
            name: "EthereumCryptoTests",
            dependencies: ["EthereumCrypto", "TestSupport", .product(name: "CryptoExtras", package: "swift-crypto")]
        ),
        .testTarget(name: "CarchainCLITests", dependencies: ["EthereumPrimitives", "TestSupport"]),
        // Merkle-Patricia trie (h-precompiles).
        .target(name: "EthereumTrie", dependencies: ["EthereumPrimitives"]),
        .testTarget(name: "EthereumTrieTests", dependencies: ["EthereumTrie", "TestSupport"]),
        // GNU MP from the system (Debian: libgmp-dev), for MODEXP (h-precompiles).
        .systemLibrary(name: "CGMP", pkgConfig: "gmp", providers: [.apt(["libgmp-dev"])]),
        // EVM: interpreter, fork schedule and gas tables, Host protocol, and the precompiled contracts (Precompiles/).
        .target(
            name: "EVM",
            dependencies: [
                "EthereumPrimitives", "EthereumCrypto", "CGMP", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "EVMPrecompilesTests",
            dependencies: ["EVM", "EthereumPrimitives", "EthereumCrypto", "TestSupport", .product(name: "BigInt", package: "BigInt")]
        ),
        // ABI codec (JSON ABIs, signatures, strict decoder, events, revert data) and the CarChain binding + model.
        .target(name: "EthereumABI", dependencies: ["EthereumPrimitives"]),
        .target(
            name: "CarChain",
            dependencies: [
                "EthereumPrimitives", "EthereumABI", "AuthEmulator",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // h-gas: DevChainBackend (in-process chain), gas reports, scenarios, simulation.
                "Chain", "EthereumCrypto", "EthereumTransactions",
            ]
        ),
        .testTarget(name: "EthereumABITests", dependencies: ["EthereumABI", "TestSupport"]),
        .testTarget(
            name: "CarChainTests",
            dependencies: [
                "CarChain", "EthereumABI", "TestSupport", "AuthEmulator", "Chain", "EthereumCrypto", "EVM",
                "EthereumTransactions",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        // Auth: a Firebase-Auth-compatible service (REST v1 wire format); its client lives in CarChain/Auth.
        .target(
            name: "AuthEmulator",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "AuthEmulatorTests",
            dependencies: [
                "AuthEmulator",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        // Dev node: JSON-RPC handler over a DevChain, in-process transport, Hummingbird server with the auth routes.
        .target(
            name: "DevNode",
            dependencies: [
                "Chain", "EthereumRPC", "AuthEmulator", "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions",
                "EVM",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "DevNodeTests",
            dependencies: [
                "DevNode", "Chain", "EthereumRPC", "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions",
                "EthereumABI", "CarChain", "TestSupport",
            ]
        ),
        .executableTarget(
            name: "CarchainBenchmarks",
            dependencies: [
                "EthereumPrimitives",
                "EthereumCrypto",
                "EthereumTransactions",
                "EthereumABI",
                "EthereumRPC",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "CSecp256k1",
                "CLibCrypto",
                "EVM",
                "Chain",
                "DevNode",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CarchainBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Fuzz harness bodies (Fuzz/README.md): the libFuzzer executables in Fuzz/ and the regression tests replay
        // inputs through the same functions.
        .target(
            name: "FuzzHarnesses",
            dependencies: [
                "EthereumPrimitives", "EthereumTransactions", "EthereumABI", "EthereumCrypto", "Chain", "DevNode",
                "AuthEmulator",
            ],
            path: "Fuzz/Harnesses"
        ),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzHarnesses", "TestSupport"]),
    ]
)
