import EVM
import EthereumPrimitives

/// The runtime code of the protocol's system contracts, as their EIPs deploy them on mainnet (the same
/// bytes as geth's `params.BeaconRootsCode`, `HistoryStorageCode`, `WithdrawalQueueCode` and
/// `ConsolidationQueueCode`). A chain that starts at Prague or later needs them in its genesis: the
/// EIP-7002 and EIP-7251 calls at the end of every block fail without code, and EIP-2935 / EIP-4788 need
/// them to record anything. geth's `--dev` mode puts all four in its genesis alloc (nonce 1, no balance);
/// the dev chain does the same (``genesisAccounts(fork:)``).
public enum SystemContracts {
    /// EIP-4788's beacon roots contract.
    public static let beaconRootsCode = code(
        "3373fffffffffffffffffffffffffffffffffffffffe14604d57602036146024575f5ffd5b5f35801560495762001fff810690815414603c575f5ffd5b62001fff01545f5260205ff35b5f5ffd5b62001fff42064281555f359062001fff015500")
    /// EIP-2935's history storage contract (8191-slot ring of block hashes).
    public static let historyStorageCode = code(
        "3373fffffffffffffffffffffffffffffffffffffffe14604657602036036042575f35600143038111604257611fff81430311604257611fff9006545f5260205ff35b5f5ffd5b5f35611fff60014303065500")
    /// EIP-7002's withdrawal request queue.
    public static let withdrawalRequestsCode = code(
        "3373fffffffffffffffffffffffffffffffffffffffe1460cb5760115f54807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff146101f457600182026001905f5b5f82111560685781019083028483029004916001019190604d565b909390049250505036603814608857366101f457346101f4575f5260205ff35b34106101f457600154600101600155600354806003026004013381556001015f35815560010160203590553360601b5f5260385f601437604c5fa0600101600355005b6003546002548082038060101160df575060105b5f5b8181146101835782810160030260040181604c02815460601b8152601401816001015481526020019060020154807fffffffffffffffffffffffffffffffff00000000000000000000000000000000168252906010019060401c908160381c81600701538160301c81600601538160281c81600501538160201c81600401538160181c81600301538160101c81600201538160081c81600101535360010160e1565b910180921461019557906002556101a0565b90505f6002555f6003555b5f54807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff14156101cd57505f5b6001546002828201116101e25750505f6101e8565b01600290035b5f555f600155604c025ff35b5f5ffd")
    /// EIP-7251's consolidation request queue.
    public static let consolidationRequestsCode = code(
        "3373fffffffffffffffffffffffffffffffffffffffe1460d35760115f54807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff1461019a57600182026001905f5b5f82111560685781019083028483029004916001019190604d565b9093900492505050366060146088573661019a573461019a575f5260205ff35b341061019a57600154600101600155600354806004026004013381556001015f358155600101602035815560010160403590553360601b5f5260605f60143760745fa0600101600355005b6003546002548082038060021160e7575060025b5f5b8181146101295782810160040260040181607402815460601b815260140181600101548152602001816002015481526020019060030154905260010160e9565b910180921461013b5790600255610146565b90505f6002555f6003555b5f54807fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff141561017357505f5b6001546001828201116101885750505f61018e565b01600190035b5f555f6001556074025ff35b5f5ffd")

    /// The system contracts a genesis for `fork` holds (nonce 1, as a deployment leaves them): the four
    /// above from Prague; none before (a Cancun dev chain keeps its genesis, and its EIP-4788 call is a no-op).
    public static func genesisAccounts(fork: Hardfork) -> [Address: Account] {
        fork >= .prague ? pragueAccounts : [:]
    }

    /// Made once: each account hashes its code (a test bench makes a genesis per test).
    private static let pragueAccounts: [Address: Account] = [
        SystemCalls.beaconRoots: Account(nonce: 1, code: beaconRootsCode),
        SystemCalls.historyStorage: Account(nonce: 1, code: historyStorageCode),
        SystemCalls.withdrawalRequests: Account(nonce: 1, code: withdrawalRequestsCode),
        SystemCalls.consolidationRequests: Account(nonce: 1, code: consolidationRequestsCode),
    ]

    private static func code(_ hex: String) -> [UInt8] { (try? Hex.decode(hex)) ?? [] }
}
