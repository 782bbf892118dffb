import EthereumABI
import EthereumPrimitives
import EthereumRPC
import EthereumWire

/// One function call, prepared: the function, its encoded calldata, and how its return values become `Output`.
/// Generated bindings make one per function (`ERC20.Calls.balanceOf(owner)`); ``Contract`` calls, sends or
/// estimates it. It is also what batching (Multicall3) and test benches take: a call that knows how to read its
/// own answer.
public struct ContractCall<Output: Sendable>: Sendable {
    /// The function.
    public let function: ABIFunction
    /// The arguments, as ABI values.
    public let arguments: [ABIValue]
    /// The selector and the encoded arguments.
    public let calldata: [UInt8]
    /// Wei sent along (payable functions only).
    public var value: UInt256
    private let decodeOutput: @Sendable ([ABIValue]) throws(ContractError) -> Output

    /// Prepares a call; the arguments are checked against the parameters and encoded now.
    public init(
        _ function: ABIFunction, _ arguments: [ABIValue], value: UInt256 = .zero,
        decode: @escaping @Sendable ([ABIValue]) throws(ContractError) -> Output
    ) throws(ContractError) {
        self.function = function
        self.arguments = arguments
        self.value = value
        self.decodeOutput = decode
        do { calldata = try function.encodeCall(arguments) } catch {
            throw .invalidArguments(function: function.signature, error)
        }
    }

    /// Reads return data: decoded strictly as the function's outputs, then converted.
    public func decode(_ data: [UInt8]) throws(ContractError) -> Output {
        let values: [ABIValue]
        do { values = try function.decodeOutput(data) } catch {
            throw .unexpectedData(what: "\(function.signature) returned \(data.count) bytes", reason: "\(error)")
        }
        return try decodeOutput(values)
    }

    /// The same call with `value` wei attached.
    public func sending(value: UInt256) -> ContractCall<Output> {
        var copy = self
        copy.value = value
        return copy
    }
}

extension ContractCall where Output == [ABIValue] {
    /// A call whose output is the decoded values as they are (the dynamic API).
    public init(_ function: ABIFunction, _ arguments: [ABIValue], value: UInt256 = .zero) throws(ContractError) {
        try self.init(function, arguments, value: value) { values throws(ContractError) in values }
    }
}

/// Where and as whom a call runs.
public struct CallOptions: Sendable, Hashable {
    /// `msg.sender` (nil: the backend's default sender, else the zero address).
    public var from: Address?
    /// The block whose state the call reads.
    public var block: BlockTag
    /// A gas limit for the call (nil: the node's default, usually the block gas limit).
    public var gasLimit: UInt64?
    /// Wei the call pretends to send (for simulating a payable function).
    public var value: UInt256?

    public init(from: Address? = nil, block: BlockTag = .latest, gasLimit: UInt64? = nil, value: UInt256? = nil) {
        self.from = from
        self.block = block
        self.gasLimit = gasLimit
        self.value = value
    }

    /// The latest block, the default sender.
    public static let latest = CallOptions()

    /// At another block.
    public static func at(_ block: BlockTag) -> CallOptions { CallOptions(block: block) }
}

/// As whom and how a transaction is sent (fees, nonces and confirmations are the backend's settings).
public struct TransactOptions: Sendable, Hashable {
    /// The sender (nil: the backend's default sender).
    public var from: Address?
    /// Wei sent along; added to the call's own value (the `value:` argument of a payable function).
    public var value: UInt256
    /// A fixed gas limit (nil: the backend's policy, usually the estimate with a margin).
    public var gasLimit: UInt64?

    public init(from: Address? = nil, value: UInt256 = .zero, gasLimit: UInt64? = nil) {
        self.from = from
        self.value = value
        self.gasLimit = gasLimit
    }

    /// The backend's default sender, no value.
    public static let `default` = TransactOptions()

    /// From another account.
    public static func from(_ sender: Address) -> TransactOptions { TransactOptions(from: sender) }
}
