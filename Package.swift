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
        .executable(name: "carchain", targets: ["carchain"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        // Test-only reference for UInt256 property tests.
        .package(url: "https://github.com/attaswift/BigInt.git", from: "6.0.1"),
        // Auth service (AuthEmulator) and its client (CarChain/Auth).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
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
        .target(name: "EthereumCrypto", dependencies: ["EthereumPrimitives", "CSecp256k1"]),
        .executableTarget(
            name: "carchain",
            dependencies: [
                "EthereumPrimitives",
                "EthereumCrypto",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Shared test helpers: locating ../shared and the conformance vectors, pass-count tallies.
        .target(name: "TestSupport", dependencies: ["EthereumPrimitives"], path: "Tests/TestSupport"),
        .testTarget(
            name: "EthereumPrimitivesTests",
            dependencies: ["EthereumPrimitives", "TestSupport", .product(name: "BigInt", package: "BigInt")]
        ),
        .testTarget(name: "EthereumCryptoTests", dependencies: ["EthereumCrypto", "TestSupport"]),
        .testTarget(name: "CarchainCLITests", dependencies: ["EthereumPrimitives", "TestSupport"]),
        // Auth: a Firebase-Auth-compatible service (REST v1 wire format) and the client the CLI uses.
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
        .target(
            name: "CarChain",
            dependencies: [
                "AuthEmulator",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
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
        .testTarget(
            name: "CarChainTests",
            dependencies: [
                "CarChain",
                "AuthEmulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "CarchainBenchmarks",
            dependencies: [
                "EthereumPrimitives",
                "EthereumCrypto",
                "CSecp256k1",
                "CLibCrypto",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CarchainBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
