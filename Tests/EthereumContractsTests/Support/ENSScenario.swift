import EthereumContracts
import Foundation
import Testing
import TestSupport

/// The contracts the ENS tests deploy: the public resolver, the reverse registrar and its default reverse resolver
/// as ENS published them, and web3.py's ExtendedResolver (ENSIP-10), OffchainResolver and OffchainLookup test contracts
/// (EIP-3668) — all as bytecode read at test time from the venv's packages (web3's ens/contract_data.py and
/// web3/_utils/contract_sources/contract_data, through tools/xcheck/ens_web3.py); plus the EIP-137 registry of
/// testdata/contracts/ens, compiled by the venv's vyper (no installed package ships the registry's bytecode).
enum ENSContracts {
    struct Published: Sendable {
        var artifacts: [String: (bytecode: [UInt8], abi: ContractABI)]
    }

    private static let cache = Cache()

    static func load() async throws -> Published? { try await cache.get() }

    private actor Cache {
        var result: Published?
        var missing = false

        func get() throws -> Published? {
            if let result { return result }
            if missing { return nil }
            guard let python = PythonVenv.python(for: "ENS contract tests") else {
                missing = true
                return nil
            }
            let script = TestPaths.packageRoot.appendingPathComponent("tools/xcheck/ens_web3.py").path
            let out = try ProcessRunner.run(python, [script], stdin: Data(#"{"mode":"contracts"}"#.utf8))
            guard out.status == 0 else { throw PythonVenv.PythonError(description: "ens_web3.py contracts: \(out.stderr.suffix(1500))") }
            let json = try JSONValue(parsing: Array(out.stdout.utf8))
            var artifacts: [String: (bytecode: [UInt8], abi: ContractABI)] = [:]
            for name in ["publicResolver", "reverseRegistrar", "reverseResolver", "extendedResolver", "offchainResolver", "offchainLookup"] {
                guard let item = json[name], case .string(let code)? = item["bytecode"], let abi = item["abi"] else {
                    throw PythonVenv.PythonError(description: "ens_web3.py gave no \(name)")
                }
                artifacts[name] = (try Hex.decode(code), try ContractABI(jsonValue: abi))
            }
            let path = TestPaths.packageRoot.appendingPathComponent("testdata/contracts/ens/ENSRegistry.vy").path
            let registryJSON = try PythonVenv.vyper(path)
            guard let registry = try ContractArtifact.read(json: Array(registryJSON.utf8), fileName: path).first, let code = registry.bytecode else {
                throw PythonVenv.PythonError(description: "vyper gave no registry bytecode")
            }
            artifacts["registry"] = (code, registry.abi)
            let published = Published(artifacts: artifacts)
            result = published
            return published
        }
    }
}

/// A CCIP-read gateway for web3.py's OffchainResolver (ENSIP-10 + EIP-3668): it reads the resolver's
/// `resolve(bytes name, bytes data)` request, answers `addr`, `addr(coin)` and `text` for any name, and signs the
/// answer as the resolver's `resolveWithProof` checks: `keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(request) ‖
/// keccak256(result))` with the signer's key.
struct ENSGatewayAnswers: Sendable {
    let key: PrivateKey

    /// The address the gateway gives a name: the last 20 bytes of keccak256 of the name.
    static func address(for name: String) -> Address { Address(bytes: Keccak256.hash(Array(name.utf8)).bytes.suffix(20))! }

    static func text(_ key: String, for name: String) -> String { "offchain \(key) of \(name)" }

    /// The gateway's response data for a lookup's `callData` sent by `resolver`, or nil for a request it does not serve.
    func respond(sender resolver: Address, callData: [UInt8]) -> [UInt8]? {
        let service = try? ABIFunction(signature: "function resolve(bytes name, bytes data) view returns (bytes, uint64, bytes)")
        guard let service, ABISelector(prefixOf: callData) == service.selector,
            let args = try? service.decodeCall(callData), case .bytes(let dns) = args[0], case .bytes(let inner) = args[1],
            let name = ENSName.dnsDecode(dns), let selector = ABISelector(prefixOf: inner)
        else { return nil }
        let result: [UInt8]
        switch selector {
        case ENS.addr.selector:
            result = (try? ABIEncoder.encode([.address(Self.address(for: name))], as: [.address])) ?? []
        case ENS.addrCoin.selector:
            result = (try? ABIEncoder.encode([.bytes(Self.address(for: name).bytes)], as: [.bytes])) ?? []
        case ENS.text.selector:
            guard let values = try? ENS.text.decodeCall(inner), case .string(let key) = values[1] else { return nil }
            result = (try? ABIEncoder.encode([.string(Self.text(key, for: name))], as: [.string])) ?? []
        default:
            return nil
        }
        let expires: UInt64 = 4_000_000_000
        var expiry = [UInt8](repeating: 0, count: 8)
        for i in 0..<8 { expiry[i] = UInt8(truncatingIfNeeded: expires >> (56 - 8 * UInt64(i))) }
        let hash = Keccak256.hash([0x19, 0x00] + resolver.bytes + expiry + Keccak256.hash(callData).bytes + Keccak256.hash(result).bytes)
        let signature = key.sign(hash: hash).rsv
        return try? ABIEncoder.encode([.bytes(result), .uint(UInt256(expires)), .bytes(signature)], as: [.bytes, .uint(64), .bytes])
    }
}

/// ENS set up on a backend, as an app would find it: the registry; `eth` and `addr.reverse`; `alice.eth` with
/// an address, other coins' addresses, text records and a content hash on the public resolver; `bücher.eth` (a name
/// that needs normalising); reverse records (true, false and none); web3.py's ExtendedResolver on
/// `extended-resolver.eth` (wildcards); and, with a gateway, OffchainResolvers on `offchain.eth` (GET), `offchainpost.eth`
/// (POST) and `offchainretry.eth` (a failing gateway first).
struct ENSScenario {
    let published: ENSContracts.Published
    /// Signing backends: 0 deploys and owns the root, 1 alice, 2 bob, 3 carol.
    let backends: [any ContractBackend]
    let accounts: [Address]
    /// The gateway's base URL (`http://127.0.0.1:port`), nil for no offchain names.
    let gateway: String?
    let gatewaySigner: Address?

    struct Deployed {
        var registry: Address
        var offchainResolver: Address?
    }

    static let btcScript: [UInt8] = [0x76, 0xa9, 0x14] + [UInt8](repeating: 0xab, count: 20) + [0x88, 0xac]
    static let contenthash: [UInt8] = [0xe3, 0x01, 0x01, 0x70, 0x12, 0x20] + Array(Keccak256.hash("site").bytes)

    private func deploy(_ name: String, _ arguments: [ABIValue] = []) async throws -> Contract {
        let artifact = try #require(published.artifacts[name])
        return try await Contract.deploy(bytecode: artifact.bytecode, abi: artifact.abi, arguments: arguments, backend: backends[0]).contract
    }

    func run() async throws -> Deployed {
        let (owner, alice, bob, carol) = (accounts[0], accounts[1], accounts[2], accounts[3])
        let registry = try await deploy("registry")
        let resolver = try await deploy("publicResolver", [.address(registry.address)])
        let reverseResolver = try await deploy("reverseResolver", [.address(registry.address)])
        let reverseRegistrar = try await deploy("reverseRegistrar", [.address(registry.address), .address(reverseResolver.address)])
        let extended = try await deploy("extendedResolver", [.address(registry.address)])
        let root = ABIValue.word(.zero), eth = ENSName.namehash("eth")
        func label(_ l: String) -> ABIValue { .word(ENSName.labelhash(l)) }

        try await registry.send("setSubnodeOwner", [root, label("eth"), .address(owner)])
        try await registry.send("setSubnodeOwner", [.word(eth), label("alice"), .address(alice)])
        try await registry.send("setSubnodeOwner", [.word(eth), label(try ENSName.normalize("Bücher")), .address(bob)])
        try await registry.send("setSubnodeOwner", [.word(eth), label("extended-resolver"), .address(owner)])
        try await registry.send("setResolver", [.word(ENSName.namehash("extended-resolver.eth")), .address(extended.address)])
        try await registry.send("setSubnodeOwner", [root, label("reverse"), .address(owner)])
        try await registry.send("setSubnodeOwner", [.word(ENSName.namehash("reverse")), label("addr"), .address(reverseRegistrar.address)])

        // alice.eth: her records on the public resolver, set by her.
        let aliceNode = ABIValue.word(ENSName.namehash("alice.eth"))
        let asAlice = resolver.with(backend: backends[1])
        try await registry.with(backend: backends[1]).send("setResolver", [aliceNode, .address(resolver.address)])
        try await asAlice.send("setAddr(bytes32,address)", [aliceNode, .address(alice)])
        try await asAlice.send("setAddr(bytes32,uint256,bytes)", [aliceNode, .uint(0), .bytes(Self.btcScript)])
        try await asAlice.send("setText", [aliceNode, .string("url"), .string("https://alice.example")])
        try await asAlice.send("setText", [aliceNode, .string("com.twitter"), .string("alice ✓")])
        try await asAlice.send("setContenthash", [aliceNode, .bytes(Self.contenthash)])
        // bücher.eth: bob's.
        let bookNode = ABIValue.word(ENSName.namehash("bücher.eth"))
        try await registry.with(backend: backends[2]).send("setResolver", [bookNode, .address(resolver.address)])
        try await resolver.with(backend: backends[2]).send("setAddr(bytes32,address)", [bookNode, .address(bob)])
        // Reverse records: alice and bob claim their own names, carol claims alice's.
        try await reverseRegistrar.with(backend: backends[1]).send("setName", [.string("alice.eth")])
        try await reverseRegistrar.with(backend: backends[2]).send("setName", [.string("bücher.eth")])
        try await reverseRegistrar.with(backend: backends[3]).send("setName", [.string("alice.eth")])
        _ = carol

        var offchain: Address?
        if let gateway, let gatewaySigner {
            for (name, urls) in [
                ("offchain", ["\(gateway)/gateway/{sender}/{data}.json", "\(gateway)/gateway/{sender}.json"]),
                ("offchainpost", ["\(gateway)/gateway/{sender}.json"]),
                ("offchainretry", ["\(gateway)/fail/500/{sender}/{data}", "\(gateway)/gateway/{sender}/{data}.json"]),
            ] {
                let contract = try await deploy("offchainResolver", [.array(urls.map { .string($0) }), .array([.address(gatewaySigner)])])
                try await registry.send("setSubnodeOwner", [.word(eth), label(name), .address(owner)])
                try await registry.send("setResolver", [.word(ENSName.namehash("\(name).eth")), .address(contract.address)])
                if name == "offchain" { offchain = contract.address }
            }
        }
        return Deployed(registry: registry.address, offchainResolver: offchain)
    }

    /// The lookups both sides make, and what each must give (`nil`: no record; `"error"`: the lookup fails).
    static func queries(accounts a: [Address], offchain: Bool) -> [(query: [String: String], expected: String?)] {
        var q: [(query: [String: String], expected: String?)] = [
            (["kind": "addr", "name": "alice.eth"], a[1].checksummed),
            (["kind": "addr", "name": "Alice.ETH"], a[1].checksummed),
            (["kind": "addr", "name": "bücher.eth"], a[2].checksummed),
            (["kind": "addr", "name": "BÜCHER.eth"], a[2].checksummed),
            (["kind": "addr", "name": "nobody.eth"], nil),
            (["kind": "addr", "name": "sub.alice.eth"], nil),  // the parent's resolver does not resolve wildcards
            (["kind": "addr", "name": "extended-resolver.eth"], "0x000000000000000000000000000000000000bEEF"),
            (["kind": "addr", "name": "anything.extended-resolver.eth"], "0x000000000000000000000000000000000000dEaD"),
            (["kind": "addr", "name": "a.b.extended-resolver.eth"], "error"),  // ExtendedResolver refuses two levels down
            (["kind": "coin", "name": "alice.eth", "coinType": "0"], Hex.encode(btcScript)),
            (["kind": "coin", "name": "alice.eth", "coinType": "60"], a[1].lowercasedHex),
            (["kind": "coin", "name": "alice.eth", "coinType": "2147483658"], nil),
            (["kind": "text", "name": "alice.eth", "key": "url"], "https://alice.example"),
            (["kind": "text", "name": "alice.eth", "key": "com.twitter"], "alice ✓"),
            (["kind": "text", "name": "alice.eth", "key": "avatar"], nil),
            (["kind": "contenthash", "name": "alice.eth"], Hex.encode(contenthash)),
            (["kind": "contenthash", "name": "bücher.eth"], nil),
            (["kind": "name", "address": a[1].checksummed], "alice.eth"),
            (["kind": "name", "address": a[2].checksummed], "bücher.eth"),
            (["kind": "name", "address": a[3].checksummed], nil),  // claims alice.eth, which does not point back
            (["kind": "name", "address": a[0].checksummed], nil),  // no reverse record
            (["kind": "owner", "name": "Alice.eth"], a[1].checksummed),
            (["kind": "owner", "name": "bücher.eth"], a[2].checksummed),
            (["kind": "owner", "name": "eth"], a[0].checksummed),
            (["kind": "owner", "name": "nobody.eth"], nil),
        ]
        if offchain {
            for name in ["offchain.eth", "offchainpost.eth", "offchainretry.eth", "deep.sub.offchain.eth"] {
                q.append((["kind": "addr", "name": name], ENSGatewayAnswers.address(for: name).checksummed))
            }
            q.append((["kind": "text", "name": "offchain.eth", "key": "url"], ENSGatewayAnswers.text("url", for: "offchain.eth")))
            q.append((["kind": "coin", "name": "offchainpost.eth", "coinType": "60"], ENSGatewayAnswers.address(for: "offchainpost.eth").lowercasedHex))
        }
        return q
    }

    /// The Swift side of one query, in the form the web3.py driver prints.
    static func answer(_ query: [String: String], ens: ENS) async -> String? {
        do {
            let name = query["name"] ?? ""
            switch query["kind"] {
            case "addr": return try await ens.address(of: name)?.checksummed
            case "coin": return try await ens.address(of: name, coinType: UInt256(query["coinType"] ?? "0") ?? .zero).map { Hex.encode($0) }
            case "text": return try await ens.text(query["key"] ?? "", of: name)
            case "contenthash": return try await ens.contenthash(of: name).map { Hex.encode($0) }
            case "name": return try await ens.name(of: try Address(query["address"] ?? ""))
            case "owner": return try await ens.owner(of: name)?.checksummed
            default: return "error: unknown query"
            }
        } catch {
            return "error"
        }
    }
}
