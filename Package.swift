// swift-tools-version: 6.1
// carchain — a Linux-first Ethereum toolkit for Swift. Module layers (dependencies point down only) and the
// module graph generated from this file: docs/ARCHITECTURE.md (`python3 tools/module_graph.py --write`).
import PackageDescription

let package = Package(
    name: "carchain",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "EthereumPrimitives", targets: ["EthereumPrimitives"]),
        .library(name: "EthereumCrypto", targets: ["EthereumCrypto"]),
        .library(name: "EthereumTransactions", targets: ["EthereumTransactions"]),
        .library(name: "EthereumABI", targets: ["EthereumABI"]),
        .library(name: "EthereumTrie", targets: ["EthereumTrie"]),
        .library(name: "EthereumWire", targets: ["EthereumWire"]),
        .library(name: "EthereumRPC", targets: ["EthereumRPC"]),
        .library(name: "EVM", targets: ["EVM"]),
        .library(name: "Chain", targets: ["Chain"]),
        .library(name: "Conformance", targets: ["Conformance"]),
        .library(name: "AuthEmulator", targets: ["AuthEmulator"]),
        .library(name: "DevNode", targets: ["DevNode"]),
        // Contracts from Swift (docs/CONTRACTS.md): the runtime every binding uses, its in-process backend, and the
        // build plugin generating typed bindings from ABI files.
        .library(name: "EthereumContracts", targets: ["EthereumContracts"]),
        .library(name: "EthereumContractsLocal", targets: ["EthereumContractsLocal"]),
        // Ready-made ERC-20, ERC-721 and ERC-1155 bindings (generated from contracts/standards).
        .library(name: "EthereumTokens", targets: ["EthereumTokens"]),
        // Testing any contract in process (docs/TESTING.md): cheatcodes, expectations, fuzzing, invariants, gas.
        .library(name: "EthereumTesting", targets: ["EthereumTesting"]),
        .plugin(name: "ContractBindings", targets: ["ContractBindings"]),
        .library(name: "CarChain", targets: ["CarChain"]),
        .library(name: "CarChainKit", targets: ["CarChainKit"]),
        .library(name: "CarChainApp", targets: ["CarChainApp"]),
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
        // WebSocket on the dev node's port (eth_subscribe): Hummingbird's own upgrade and frame handling.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // HTTP parts as HTTPTypes in NIO pipelines (NIOHTTPTypes, Hummingbird's own): the node's JSON-RPC endpoint.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Property-based testing (generators, shrinking, seeds) on Swift Testing: EthereumTesting's fuzz and invariant runs.
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // DocC: `swift package generate-documentation --target EthereumContracts` (a command plugin; no target depends on
        // it). The catalogs are Sources/<Module>/<Module>.docc; `make docs` checks them from the release build (tools/docs.mk).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System libraries, found through pkg-config: libsecp256k1 (Debian: libsecp256k1-dev), GNU MP for
        // MODEXP (libgmp-dev), and OpenSSL's libcrypto (libssl-dev), a reference for the Keccak benchmarks only.
        .systemLibrary(name: "CSecp256k1", pkgConfig: "libsecp256k1", providers: [.apt(["libsecp256k1-dev"])]),
        .systemLibrary(name: "CGMP", pkgConfig: "gmp", providers: [.apt(["libgmp-dev"])]),
        .systemLibrary(name: "CLibCrypto", path: "Benchmarks/CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // Keccak-f[1600] on 4 or 8 states at once (AVX2 / AVX-512, chosen at run time from CPUID), for hashing many
        // messages side by side: a trie's changed nodes, level by level. C, because Swift has no per-function target
        // features and the package is built for generic x86-64.
        .target(name: "CKeccakMultiway"),
        // Hex, Bytes32, UInt256, Keccak, RLP, Address, units, Hardfork, JSON (one strict parser), secret files.
        .target(name: "EthereumPrimitives", dependencies: ["CKeccakMultiway"]),
        // secp256k1 keys and signatures, keystores, BIP-39/32/44, EIP-191/712, RIPEMD-160.
        .target(
            name: "EthereumCrypto",
            dependencies: [
                "EthereumPrimitives", "CSecp256k1",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Transactions: envelopes (types 0–4), signing, hashing, sender recovery, intrinsic gas, call requests.
        .target(name: "EthereumTransactions", dependencies: ["EthereumPrimitives", "EthereumCrypto"]),
        // ABI codec: JSON ABIs, signatures, strict decoder, events, revert reasons and panics, custom errors.
        .target(name: "EthereumABI", dependencies: ["EthereumPrimitives"]),
        // Merkle-Patricia trie.
        .target(name: "EthereumTrie", dependencies: ["EthereumPrimitives"]),
        // What client and server share on the wire: JSON-RPC 2.0 messages and error codes, the transport
        // protocol, quantities, block tags, and the JSON forms of blocks, receipts, logs and call requests.
        .target(name: "EthereumWire", dependencies: ["EthereumPrimitives", "EthereumTransactions"]),
        // JSON-RPC 2.0 client: HTTP and WebSocket transports, typed eth_* methods, batching, errors, retries, sending,
        // fee suggestions, subscriptions (newHeads, logs, pending transactions) with reconnection.
        .target(
            name: "EthereumRPC",
            dependencies: [
                "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions", "EthereumABI", "EthereumWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // Subscriptions (eth_subscribe over ws://, wss://): the WebSocket client of the library the node
                // serves WebSocket with (its client alone: no server).
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // EVM: interpreter, fork schedule and gas tables, Host protocol, and the precompiled contracts (Precompiles/).
        .target(
            name: "EVM",
            dependencies: ["EthereumPrimitives", "EthereumCrypto", "CGMP", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The chain: world state and journal, transaction execution, blocks, receipts, mining, SQLite store.
        .target(
            name: "Chain",
            dependencies: [
                "EthereumPrimitives", "EthereumCrypto", "EthereumTrie", "EthereumTransactions", "EthereumABI", "EVM",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API under GRDB, to bind the block writer's cached statements directly (ChainStore).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SHA-256 for the EIP-7685 requests hash.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The conformance runners: Ethereum state tests (legacy and EEST formats), their fixtures and gate.
        .target(name: "Conformance", dependencies: ["Chain", "EVM", "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions"]),
        // Auth: a Firebase-Auth-compatible service (REST v1 wire format); its client lives in CarChainKit/Auth.
        .target(
            name: "AuthEmulator",
            dependencies: [
                "EthereumPrimitives",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Dev node: JSON-RPC handler over a DevChain, in-process transport, Hummingbird server with the auth routes.
        .target(
            name: "DevNode",
            dependencies: [
                "Chain", "EthereumWire", "AuthEmulator", "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions", "EVM",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ]
        ),
        // Contracts from Swift (docs/CONTRACTS.md). The runtime: a contract = address + ABI over a backend protocol,
        // typed calls, sends, estimates, deployments, events, log queries and decoded reverts, the dynamic API, and
        // the JSON-RPC backend; CCIP-read (EIP-3668: gateways over AsyncHTTPClient) and ENS (ENSIP-15 names,
        // resolution). Light: no EVM, chain, database or server.
        .target(
            name: "EthereumContracts",
            dependencies: [
                "EthereumPrimitives", "EthereumCrypto", "EthereumABI", "EthereumTransactions", "EthereumWire", "EthereumRPC",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // Ready-made bindings of the token standards: ERC-20, ERC-721, ERC-1155, generated by the project's generator
        // from the standards' ABIs written in contracts/standards (`make token-bindings`; a test checks they are current).
        .target(name: "EthereumTokens", dependencies: ["EthereumContracts"]),
        // The in-process backend (a DevChain in this process: no node, no network); the one part that needs the chain.
        .target(
            name: "EthereumContractsLocal",
            dependencies: ["EthereumContracts", "Chain", "EthereumCrypto", "EthereumPrimitives", "EthereumRPC", "EthereumTransactions", "EthereumWire"]
        ),
        // The test bench (docs/TESTING.md): a TestChain over the in-process backend with Foundry's cheatcodes, expected
        // reverts and events, call traces, gas records and snapshots, generators and invariant runs (PropertyBased).
        .target(
            name: "EthereumTesting",
            dependencies: [
                "EthereumContracts", "EthereumContractsLocal", "Chain", "EthereumABI", "EthereumCrypto", "EthereumPrimitives",
                "EthereumTransactions", "EthereumWire", "ContractScenarios", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Scenario files for any contract (docs/SCENARIOS.md): deploy artifacts, call by signature with typed arguments,
        // expected outcomes; run through any backend (`carchain gas-report --scenario`, EthereumTesting's TestChain).
        .target(name: "ContractScenarios", dependencies: ["EthereumContracts", "EthereumABI", "EthereumCrypto", "EthereumPrimitives", "Chain"]),
        // The binding generator (`carchain bindgen`, the build plugin's tool), on the ABI codec alone.
        .target(name: "ContractBindingsGenerator", dependencies: ["EthereumABI", "EthereumPrimitives"]),
        .executableTarget(name: "carchain-bindgen", dependencies: ["ContractBindingsGenerator"]),
        .plugin(name: "ContractBindings", capability: .buildTool(), dependencies: ["carchain-bindgen"]),
        // The CarChain binding, light: artifact, the generated typed contract (Generated/) and the facade over it,
        // reference model, events, errors, operations and queries, on the EthereumContracts runtime. No EVM,
        // database or server (docs/ARCHITECTURE.md).
        .target(name: "CarChain", dependencies: ["EthereumPrimitives", "EthereumABI", "EthereumContracts"]),
        // Above the binding: the backends (dev chain, JSON-RPC), connections, accounts and sessions, the auth
        // client, fleet, history, gas reports, scenarios and simulation — the flows the CLI and an app share.
        .target(
            name: "CarChainKit",
            dependencies: [
                "CarChain", "EthereumPrimitives", "EthereumABI", "EthereumCrypto", "EthereumTransactions", "EthereumWire",
                "EthereumRPC", "Chain", "DevNode", "AuthEmulator", "EthereumContracts", "EthereumContractsLocal", "ContractScenarios",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The web app `carchain node` serves at /app/: its pages (HTML, CSS, JavaScript modules in Web/, package
        // resources) and its JSON API over CarChainKit's flows, mounted on the node's router (docs/APP.md).
        .target(
            name: "CarChainApp",
            dependencies: [
                "CarChainKit", "CarChain", "DevNode", "AuthEmulator", "EthereumPrimitives", "EthereumCrypto", "EthereumRPC",
                "EthereumWire", "EthereumTransactions",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The app served on its own (a real network): its HTTP server's channel and log.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Web")]
        ),
        // The CLI: parses, calls the libraries, prints.
        .executableTarget(
            name: "carchain",
            dependencies: [
                "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions", "EthereumABI", "EthereumWire", "EthereumRPC",
                "EVM", "Chain", "Conformance", "DevNode", "AuthEmulator", "CarChain", "CarChainKit", "CarChainApp",
                "EthereumContracts", "EthereumContractsLocal", "ContractBindingsGenerator", "ContractScenarios",
                // `carchain simulate --spec`: any contract's invariants through EthereumTesting's InvariantTest.
                "EthereumTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test helper for the chain's crash-safety test: sends transactions to a data dir until killed.
        .executableTarget(name: "ChainCrashHelper", dependencies: ["Chain", "EthereumPrimitives", "EthereumTransactions"]),
        // Perf probe: automined CarChain throughput per window of 200 blocks (a tool, not a test).
        .executableTarget(name: "ChainPerfProbe", dependencies: ["Chain", "EVM", "EthereumABI", "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions"]),

        // Shared test helpers: ../shared and the vectors, the venv, built binaries, tallies, strict mode.
        .target(name: "TestSupport", dependencies: ["EthereumPrimitives"], path: "Tests/TestSupport"),
        .testTarget(
            name: "EthereumPrimitivesTests",
            dependencies: ["EthereumPrimitives", "TestSupport", .product(name: "BigInt", package: "BigInt")]
        ),
        .testTarget(
            name: "EthereumCryptoTests",
            dependencies: ["EthereumCrypto", "TestSupport", .product(name: "CryptoExtras", package: "swift-crypto")]
        ),
        .testTarget(name: "EthereumTransactionsTests", dependencies: ["EthereumTransactions", "EthereumCrypto", "TestSupport"]),
        .testTarget(name: "EthereumABITests", dependencies: ["EthereumABI", "TestSupport"]),
        .testTarget(name: "EthereumTrieTests", dependencies: ["EthereumTrie", "TestSupport"]),
        .testTarget(name: "EthereumWireTests", dependencies: ["EthereumWire", "EthereumPrimitives", "EthereumTransactions", "TestSupport"]),
        .testTarget(
            name: "EthereumRPCTests",
            dependencies: [
                "EthereumRPC", "EthereumWire", "EthereumABI", "EthereumCrypto", "EthereumTransactions", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "EVMTests", dependencies: ["EVM", "EthereumPrimitives", "TestSupport"]),
        .testTarget(
            name: "EVMPrecompilesTests",
            dependencies: ["EVM", "EthereumPrimitives", "EthereumCrypto", "TestSupport", .product(name: "BigInt", package: "BigInt")]
        ),
        .testTarget(
            name: "ChainTests",
            dependencies: [
                "Chain", "EVM", "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions", "TestSupport", "ChainCrashHelper",
            ]
        ),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "Chain", "EVM", "EthereumPrimitives", "TestSupport"]),
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
            name: "DevNodeTests",
            dependencies: [
                "DevNode", "Chain", "EVM", "EthereumWire", "EthereumRPC", "EthereumPrimitives", "EthereumCrypto",
                "EthereumTransactions", "EthereumABI", "CarChain", "TestSupport", "AuthEmulator",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                // The IPC tests' client.
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "CarChainTests",
            dependencies: ["CarChain", "EthereumABI", "TestSupport", "Chain", "EthereumCrypto", "EVM", "EthereumTransactions"]
        ),
        .testTarget(
            name: "CarChainKitTests",
            dependencies: [
                "CarChainKit", "CarChain", "AuthEmulator", "Chain", "ContractScenarios", "EthereumCrypto", "EthereumPrimitives", "TestSupport",
                // Fork tests: a node answered in process (DevNode) behind the fork's JSON-RPC remote.
                "DevNode", "EthereumRPC", "EthereumWire", "EthereumTransactions", "EthereumContractsLocal",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "CarChainAppTests",
            dependencies: [
                "CarChainApp", "CarChainKit", "CarChain", "DevNode", "AuthEmulator", "Chain", "EthereumCrypto", "EthereumPrimitives",
                "EthereumRPC", "EthereumTransactions", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "CarchainCLITests", dependencies: ["EthereumPrimitives", "TestSupport"]),
        // The contract runtime and generator: artifacts, generated bindings (the ContractBindings plugin over ABIs/,
        // a link to testdata/abi) for snekmate's contracts driven in process and on `carchain node` against web3.py,
        // and for widely used Solidity ABIs compiled and called.
        .testTarget(
            name: "EthereumContractsTests",
            dependencies: [
                "EthereumContracts", "EthereumContractsLocal", "EthereumTokens", "ContractBindingsGenerator", "Chain", "EthereumCrypto",
                "CarChain",  // GeneratedBindingTests: the committed CarChain binding is what the generator makes now
                "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),  // the ENS tests' CCIP-read gateway
            ],
            exclude: ["ABIs/README.md"],
            plugins: ["ContractBindings"]
        ),
        // EthereumTesting on snekmate's ERC-20 and ERC-4626 and a small vulnerable bank (testdata/contracts/testing),
        // through bindings the ContractBindings plugin generates (ABIs/ links to testdata/abi).
        .testTarget(
            name: "EthereumTestingTests",
            dependencies: [
                "EthereumTesting", "EthereumContracts", "EthereumContractsLocal", "Chain", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["ABIs/README.md"],
            plugins: ["ContractBindings"]
        ),
        // docs/ARCHITECTURE.md's module graph matches this file; CarChain's closure stays light.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupport"]),

        .executableTarget(
            name: "CarchainBenchmarks",
            dependencies: [
                "EthereumPrimitives", "EthereumCrypto", "EthereumTransactions", "EthereumABI", "EthereumWire", "EthereumRPC",
                "EVM", "Chain", "Conformance", "DevNode", "CSecp256k1", "CLibCrypto", "CarChainKit", "CarChainApp", "AuthEmulator",
                "EthereumContracts", "EthereumTesting",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Benchmark", package: "benchmark"),
                // The WebSocket fan-out benchmark's subscribers.
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
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

// Test targets are compiled without optimization, also in release: `make test` builds everything in release (the
// code under test runs optimized, as users run it), and optimizing the tests' own code took about a quarter of the
// build on 2 cores while their run time is spent in the libraries they call.
for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}
