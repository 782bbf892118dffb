// swift-tools-version: 6.1
// Contract tests as a Swift team writes them: a package of its own that depends on carchain by path, uses the
// EthereumTesting product (the in-process test bench) and the ContractBindings build plugin (typed bindings from
// Tests/ContractTests/ABIs at build time), and tests snekmate's ERC-20 and ERC-4626 and a small vault with a planted
// bug, compiled by the venv's vyper when the tests run. `make example-tests` builds and runs it (README.md).
import PackageDescription

let package = Package(
    name: "ContractTests",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "carchain", path: "../.."),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        .testTarget(
            name: "ContractTests",
            dependencies: [
                .product(name: "EthereumTesting", package: "carchain"),
                .product(name: "EthereumContracts", package: "carchain"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            plugins: [.plugin(name: "ContractBindings", package: "carchain")]
        )
    ]
)
