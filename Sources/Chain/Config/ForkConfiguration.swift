import EVM
import EthereumPrimitives

/// One fork's configuration as EIP-7910's `eth_config` reports it: what a client must agree on with the rest of
/// the network for the fork (activation time, blob schedule, chain id, EIP-6122 fork hash, precompiles and
/// system contracts). A dev chain runs one fork from genesis, so its `current` has activation time 0 and there
/// is no `next` or `last` fork (both null on the wire).
public struct ForkConfiguration: Sendable, Hashable {
    /// A contract EIP-7910 names: a precompile or a system contract.
    public struct NamedContract: Sendable, Hashable {
        /// The EIP's name (e.g. `P256VERIFY`, `HISTORY_STORAGE_ADDRESS`).
        public var name: String
        /// Its address.
        public var address: Address
    }

    /// The fork.
    public var fork: Hardfork
    /// Unix seconds at which the fork activated (0: at genesis).
    public var activationTime: UInt64
    /// EIP-7840's blob parameters (nil before Cancun, which has no blobs).
    public var blobSchedule: BlobSchedule?
    /// The chain id.
    public var chainId: UInt64
    /// EIP-6122's FORK_HASH: CRC-32 of the genesis hash followed by each past fork's activation (none here).
    public var forkId: UInt32
    /// Active precompiles by their EIP-7910 name.
    public var precompiles: [NamedContract]
    /// System contracts by their EIP name (empty before Cancun, where EIP-7910 omits the member).
    public var systemContracts: [NamedContract]

    /// The configuration of `fork` active since genesis on chain `chainId` whose genesis block hash is `genesisHash`.
    public init(fork: Hardfork, chainId: UInt64, genesisHash: Bytes32) {
        self.init(fork: fork, schedule: .fixed(fork), chainId: chainId, genesisHash: genesisHash, genesisTime: 0)
    }

    /// The configuration of `fork` on a chain with `schedule`: its activation time, its blob parameters, and the
    /// EIP-6122 fork hash over every activation up to it (block numbers, then timestamps; those at genesis
    /// and repeats add nothing, as EIP-2124 says).
    public init(fork: Hardfork, schedule: ForkSchedule, chainId: UInt64, genesisHash: Bytes32, genesisTime: UInt64) {
        self.fork = fork
        if case .time(let time)? = schedule.activation(of: fork) { activationTime = time } else { activationTime = 0 }
        blobSchedule = schedule.blobSchedule(for: fork)
        self.chainId = chainId
        var blocks: [UInt64] = []
        var times: [UInt64] = []
        for (scheduled, activation) in schedule.activations where scheduled <= fork {
            switch activation {
            case .block(let number) where number > 0: blocks.append(number)
            case .time(let time) where time > genesisTime: times.append(time)
            default: break
            }
        }
        var bytes = genesisHash.bytes
        for value in Array(Set(blocks)).sorted() + Array(Set(times)).sorted() {
            bytes += value.bigEndianBytes
        }
        forkId = CRC32.checksum(bytes)
        precompiles = Precompiles.addresses(for: fork).compactMap { address in
            Self.precompileNames[address].map { NamedContract(name: $0, address: address) }
        }.sorted { $0.name < $1.name }
        systemContracts = Self.systemContracts(for: fork, depositContract: schedule.depositContract)
    }

    /// EIP-7910's names of the precompiles (Cancun's ten, Prague's BLS12-381 seven, Osaka's P256VERIFY).
    static let precompileNames: [Address: String] = {
        let names: [(UInt16, String)] = [
            (0x01, "ECREC"), (0x02, "SHA256"), (0x03, "RIPEMD160"), (0x04, "ID"), (0x05, "MODEXP"), (0x06, "BN254_ADD"),
            (0x07, "BN254_MUL"), (0x08, "BN254_PAIRING"), (0x09, "BLAKE2F"), (0x0a, "KZG_POINT_EVALUATION"),
            (0x0b, "BLS12_G1ADD"), (0x0c, "BLS12_G1MSM"), (0x0d, "BLS12_G2ADD"), (0x0e, "BLS12_G2MSM"),
            (0x0f, "BLS12_PAIRING_CHECK"), (0x10, "BLS12_MAP_FP_TO_G1"), (0x11, "BLS12_MAP_FP2_TO_G2"),
            (0x100, "P256VERIFY"),
        ]
        var table: [Address: String] = [:]
        for (number, name) in names {
            let bytes = [UInt8](repeating: 0, count: 18) + [UInt8(number >> 8), UInt8(number & 0xff)]
            if let address = Address(bytes: bytes) { table[address] = name }
        }
        return table
    }()

    /// The system contracts EIP-7910 lists, sorted by name: EIP-4788's beacon roots (Cancun); Prague adds
    /// EIP-7251's consolidation and EIP-7002's withdrawal request predeploys, EIP-6110's deposit contract
    /// (mainnet's address; a dev chain has no other) and EIP-2935's history storage. Osaka adds none.
    static func systemContracts(
        for fork: Hardfork, depositContract: Address = ExecutionRequests.mainnetDepositContract
    ) -> [NamedContract] {
        var list: [NamedContract] = []
        if fork >= .cancun { list.append(NamedContract(name: "BEACON_ROOTS_ADDRESS", address: SystemCalls.beaconRoots)) }
        if fork >= .prague {
            list += [
                NamedContract(name: "CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS", address: SystemCalls.consolidationRequests),
                NamedContract(name: "DEPOSIT_CONTRACT_ADDRESS", address: depositContract),
                NamedContract(name: "HISTORY_STORAGE_ADDRESS", address: SystemCalls.historyStorage),
                NamedContract(name: "WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS", address: SystemCalls.withdrawalRequests),
            ]
        }
        return list
    }
}

/// IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320), the checksum EIP-2124 fork ids use.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension DevChain {
    /// EIP-7910's `current` configuration: the fork of the head block.
    public func forkConfiguration() -> ForkConfiguration {
        forkConfigurations().current
    }

    /// EIP-7910's three configurations: the head's fork, the next scheduled one, the last scheduled one (nil
    /// when none is scheduled after the head; a dev chain schedules none).
    public func forkConfigurations() -> (current: ForkConfiguration, next: ForkConfiguration?, last: ForkConfiguration?) {
        let genesisHash = ((try? blockHash(base)) ?? nil) ?? .zero
        let genesisTime = genesisTimestamp
        func configuration(_ fork: Hardfork) -> ForkConfiguration {
            ForkConfiguration(fork: fork, schedule: schedule, chainId: chainId, genesisHash: genesisHash, genesisTime: genesisTime)
        }
        let currentFork = fork(of: head)
        let later = schedule.activations.filter { entry in
            if case .time(let time) = entry.activation { return entry.fork > currentFork && time > head.timestamp }
            return false
        }
        return (configuration(currentFork), later.first.map { configuration($0.fork) }, later.last.map { configuration($0.fork) })
    }
}
