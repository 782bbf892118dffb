import EVM
import EthereumPrimitives

/// An account in the world state: nonce, balance, code and storage.
public struct Account: Sendable, Equatable {
    /// The nonce: transactions sent, or contracts created by a contract.
    public var nonce: UInt64
    /// The balance in wei.
    public var balance: UInt256
    /// The code (empty for externally owned accounts).
    public private(set) var code: [UInt8]
    /// keccak256 of the code.
    public private(set) var codeHash: Bytes32
    /// Storage; slots holding zero are absent.
    public var storage: [UInt256: UInt256]

    /// Creates an account.
    public init(nonce: UInt64 = 0, balance: UInt256 = .zero, code: [UInt8] = [], storage: [UInt256: UInt256] = [:]) {
        self.nonce = nonce
        self.balance = balance
        self.code = code
        self.codeHash = code.isEmpty ? .emptyCodeHash : Keccak256.hash(code)
        self.storage = storage.filter { !$0.value.isZero }
    }

    /// Replaces the code (and its hash).
    public mutating func setCode(_ code: [UInt8]) {
        self.code = code
        codeHash = code.isEmpty ? .emptyCodeHash : Keccak256.hash(code)
    }

    /// Restores code with a known hash (journal undo), without rehashing.
    mutating func restoreCode(_ code: [UInt8], hash: Bytes32) {
        self.code = code
        codeHash = hash
    }

    /// EIP-161: no code, zero nonce and zero balance.
    public var isEmpty: Bool { nonce == 0 && balance.isZero && codeHash == .emptyCodeHash }
}
