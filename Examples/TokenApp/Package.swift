// swift-tools-version: 6.1
// An app that uses carchain as a user would: by path, the EthereumContracts products, and the ContractBindings build
// plugin generating `Token` from Sources/TokenApp/ABIs/Token.json (contracts/Token.vy compiled by vyper 0.4.3 with
// `-f combined_json`) at build time.
import PackageDescription

let package = Package(
    name: "TokenApp",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "carchain", path: "../..")],
    targets: [
        .executableTarget(
            name: "TokenApp",
            dependencies: [
                .product(name: "EthereumContracts", package: "carchain"),
                .product(name: "EthereumContractsLocal", package: "carchain"),
            ],
            plugins: [.plugin(name: "ContractBindings", package: "carchain")]
        )
    ]
)
