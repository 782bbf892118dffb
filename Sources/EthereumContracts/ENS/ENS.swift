import EthereumABI
import EthereumPrimitives
import EthereumWire

/// The Ethereum Name Service over any ``ContractBackend``: names to addresses (`addr`, and other coins' addresses by
/// SLIP-44 coin type), text records and content hashes, addresses back to names (verified forward), through the
/// registry's resolver — wildcard resolution (ENSIP-10: the nearest ancestor's resolver, asked with
/// `resolve(bytes name, bytes data)`) and CCIP-read (EIP-3668, through ``OffchainLookupBackend``) included.
///
/// Names are normalised under ENSIP-15 first (``ENSName/normalize(_:)``); one that does not normalise throws
/// ``ENSNameError`` naming the label and the character. An unset record is `nil`. A resolver that reverts throws
/// ``ContractError/reverted(_:)``; a gateway that fails throws ``OffchainLookupError``.
public struct ENS: Sendable {
    /// The ENS registry on Ethereum mainnet and its testnets (`0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e`).
    public static let mainnetRegistry = Address(bytes: [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x2E, 0x07, 0x4E, 0xC6, 0x9A, 0x0D, 0xFB, 0x29, 0x97, 0xBA, 0x6C, 0x7D, 0x2E, 0x1E,
    ])!

    /// ENSIP-10's interface id of `resolve(bytes,bytes)`.
    public static let extendedResolverInterface: [UInt8] = [0x90, 0x61, 0xb9, 0x23]

    /// The registry.
    public let registry: Address
    /// The backend calls go through (following CCIP-read unless turned off).
    public let backend: any ContractBackend
    /// The block calls read.
    public let block: BlockTag

    /// ENS on `backend` with its registry at `registry`. `offchainLookup` is the CCIP-read policy (nil: off, and an
    /// offchain resolver's `OffchainLookup` revert is thrown as the revert it is).
    public init(
        backend: any ContractBackend, registry: Address = ENS.mainnetRegistry, offchainLookup: OffchainLookup? = .default,
        block: BlockTag = .latest
    ) {
        self.registry = registry
        self.backend = offchainLookup.map { backend.followingOffchainLookups($0) } ?? backend
        self.block = block
    }

    /// What the registry says about a name's resolver: its address, the name it was set on (the name itself, or the
    /// nearest ancestor that has one) and whether it resolves wildcards (ENSIP-10).
    public struct Resolver: Sendable, Hashable {
        /// The resolver contract.
        public var address: Address
        /// The name (normalised) whose resolver it is: the name looked up, or an ancestor of it.
        public var setOn: String
        /// True when it implements `resolve(bytes,bytes)` (ERC-165 interface `0x9061b923`).
        public var isExtended: Bool
    }

    // MARK: Lookups

    /// The resolver for a name (normalised first): the registry's resolver of the name, else of its nearest ancestor
    /// that has one (ENSIP-10); nil when none has.
    public func resolver(of name: String) async throws -> Resolver? {
        try await findResolver(normalized: try ENSName.normalize(name))
    }

    /// The name's owner in the registry (nil: none).
    public func owner(of name: String) async throws -> Address? {
        let node = try ENSName.node(name)
        let owner = try await registryContract.call(try ContractCall(Self.owner, [.word(node)]) { v throws(ContractError) in try v[0].decodeAddress() },
                                                    options: options)
        return owner == .zero ? nil : owner
    }

    /// The Ethereum address a name points to (`addr(bytes32)`), nil when it has no resolver or no address.
    public func address(of name: String) async throws -> Address? {
        guard let values = try await resolve(name, Self.addr, []), let address = try? values[0].decodeAddress(), address != .zero else { return nil }
        return address
    }

    /// The address of another coin (ENSIP-9, `addr(bytes32,uint256)`, `coinType` as SLIP-44 numbers it: 0 Bitcoin,
    /// 60 Ethereum, `0x80000000 | chainId` for EVM chains (ENSIP-11)) in its binary form; nil when unset.
    public func address(of name: String, coinType: UInt256) async throws -> [UInt8]? {
        guard let values = try await resolve(name, Self.addrCoin, [.uint(coinType)]), let bytes = try? values[0].decodeBytes(), !bytes.isEmpty else { return nil }
        return bytes
    }

    /// A text record (ENSIP-5: `avatar`, `url`, `com.twitter`, …); nil when unset or empty.
    public func text(_ key: String, of name: String) async throws -> String? {
        guard let values = try await resolve(name, Self.text, [.string(key)]), let text = try? values[0].decodeString(), !text.isEmpty else { return nil }
        return text
    }

    /// The content hash (ENSIP-7: multicodec-prefixed, e.g. `0xe301…` for IPFS); nil when unset.
    public func contenthash(of name: String) async throws -> [UInt8]? {
        guard let values = try await resolve(name, Self.contenthash, []), let bytes = try? values[0].decodeBytes(), !bytes.isEmpty else { return nil }
        return bytes
    }

    /// The primary name of an address (reverse resolution, ENSIP-3): the `name(bytes32)` record of
    /// `<address>.addr.reverse`, kept only when it normalises and its forward address is the same address (anyone
    /// can claim any name in their own reverse record); nil otherwise.
    public func name(of address: Address) async throws -> String? {
        guard let values = try await resolve(ENSName.reverseName(of: address), Self.name, []), let claimed = try? values[0].decodeString(),
            !claimed.isEmpty, let normal = try? ENSName.normalize(claimed), normal == claimed
        else { return nil }
        return try await self.address(of: claimed) == address ? claimed : nil
    }

    /// Calls a resolver function on a name's resolver (normalised first; the function's first parameter is the
    /// node, `arguments` the rest): directly on the name's own resolver, or through `resolve(bytes,bytes)` on a
    /// wildcard (extended) resolver; nil when there is no resolver for the name. The decoded return values.
    public func resolve(_ name: String, _ function: ABIFunction, _ arguments: [ABIValue]) async throws -> [ABIValue]? {
        let normal = try ENSName.normalize(name)
        guard let resolver = try await findResolver(normalized: normal) else { return nil }
        let node = ENSName.namehash(normal)
        let call = try ContractCall(function, [.word(node)] + arguments)
        let contract = Contract(address: resolver.address, abi: ContractABI(items: [.function(function), .function(Self.resolveFunction)]), backend: backend)
        if resolver.isExtended {
            let wrapped = try ContractCall(Self.resolveFunction, [.bytes(try ENSName.dnsEncode(normal)), .bytes(call.calldata)]) {
                v throws(ContractError) in try v[0].decodeBytes()
            }
            let data = try await contract.call(wrapped, options: options)
            if data.isEmpty { return nil }
            return try call.decode(data)
        }
        // A resolver set on an ancestor that does not resolve wildcards does not answer for its descendants.
        guard resolver.setOn == normal else { return nil }
        return try await contract.call(call, options: options)
    }

    // MARK: Internals

    private var options: CallOptions { CallOptions(block: block) }
    private var registryContract: Contract { Contract(address: registry, abi: ContractABI(items: [.function(Self.resolverOf), .function(Self.owner)]), backend: backend) }

    private func findResolver(normalized name: String) async throws -> Resolver? {
        var labels = name.isEmpty ? [] : name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        while true {
            let candidate = labels.joined(separator: ".")
            let node = ENSName.namehash(candidate)
            let address = try await registryContract.call(
                try ContractCall(Self.resolverOf, [.word(node)]) { v throws(ContractError) in try v[0].decodeAddress() }, options: options)
            if address != .zero {
                return Resolver(address: address, setOn: candidate, isExtended: try await supportsExtended(address))
            }
            if labels.isEmpty { return nil }
            labels.removeFirst()
        }
    }

    private func supportsExtended(_ resolver: Address) async throws -> Bool {
        let contract = Contract(address: resolver, abi: ContractABI(items: [.function(Self.supportsInterface)]), backend: backend)
        do {
            return try await contract.call(
                try ContractCall(Self.supportsInterface, [.fixedBytes(Self.extendedResolverInterface)]) { v throws(ContractError) in try v[0].decodeBool() },
                options: options)
        } catch is ContractError {
            return false  // no ERC-165 (reverts, or answers something else): not an extended resolver
        }
    }

    static func function(_ signature: String) -> ABIFunction {
        guard let f = try? ABIFunction(signature: signature) else { preconditionFailure("bad built-in signature \(signature)") }
        return f
    }

    static let resolverOf = function("function resolver(bytes32 node) view returns (address)")
    static let owner = function("function owner(bytes32 node) view returns (address)")
    static let supportsInterface = function("function supportsInterface(bytes4 interfaceID) view returns (bool)")
    static let resolveFunction = function("function resolve(bytes name, bytes data) view returns (bytes)")
    /// `addr(bytes32)`.
    public static let addr = function("function addr(bytes32 node) view returns (address)")
    /// `addr(bytes32,uint256)`.
    public static let addrCoin = function("function addr(bytes32 node, uint256 coinType) view returns (bytes)")
    /// `text(bytes32,string)`.
    public static let text = function("function text(bytes32 node, string key) view returns (string)")
    /// `contenthash(bytes32)`.
    public static let contenthash = function("function contenthash(bytes32 node) view returns (bytes)")
    /// `name(bytes32)`.
    public static let name = function("function name(bytes32 node) view returns (string)")
}
