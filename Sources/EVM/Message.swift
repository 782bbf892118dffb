import EthereumPrimitives

/// The kind of a message: one of the four call opcodes or a contract creation.
public enum CallKind: UInt8, Sendable, Equatable {
    /// CALL, or a transaction to an address.
    case call
    /// CALLCODE: runs the callee's code in the caller's context with a value.
    case callCode
    /// DELEGATECALL (EIP-7): the callee's code in the caller's context with the caller's caller and value.
    case delegateCall
    /// STATICCALL (EIP-214): a call that may not change state.
    case staticCall
    /// CREATE, or a contract-creation transaction.
    case create
    /// CREATE2 (EIP-1014).
    case create2

    /// True for CREATE and CREATE2.
    @inlinable
    public var isCreate: Bool { self == .create || self == .create2 }
}

/// A message: the input of a call or create frame.
public struct Message: Sendable {
    /// The kind of frame.
    public var kind: CallKind
    /// CALLER inside the frame.
    public var caller: Address
    /// The account whose storage and balance the frame acts on (ADDRESS); ignored for creates,
    /// whose address is derived.
    public var recipient: Address
    /// The account whose code runs (differs from `recipient` for CALLCODE and DELEGATECALL).
    public var codeAddress: Address
    /// CALLVALUE inside the frame.
    public var value: UInt256
    /// Call data, or the init code of a create.
    public var input: [UInt8]
    /// Gas available to the frame.
    public var gas: Int64
    /// True inside STATICCALL (EIP-214).
    public var isStatic: Bool
    /// The call depth (0 for the transaction's own frame).
    public var depth: Int
    /// CREATE2's salt.
    public var salt: UInt256

    /// A call message.
    public static func call(
        from caller: Address, to recipient: Address, value: UInt256 = .zero, input: [UInt8] = [], gas: Int64
    ) -> Message {
        Message(
            kind: .call, caller: caller, recipient: recipient, codeAddress: recipient, value: value, input: input,
            gas: gas, isStatic: false, depth: 0, salt: .zero)
    }

    /// A contract-creation message (the address is derived from the caller's nonce).
    public static func create(from caller: Address, value: UInt256 = .zero, initCode: [UInt8], gas: Int64) -> Message {
        Message(
            kind: .create, caller: caller, recipient: .zero, codeAddress: .zero, value: value, input: initCode, gas: gas,
            isStatic: false, depth: 0, salt: .zero)
    }

    /// Creates a message with every field given.
    public init(
        kind: CallKind, caller: Address, recipient: Address, codeAddress: Address, value: UInt256, input: [UInt8],
        gas: Int64, isStatic: Bool, depth: Int, salt: UInt256
    ) {
        self.kind = kind
        self.caller = caller
        self.recipient = recipient
        self.codeAddress = codeAddress
        self.value = value
        self.input = input
        self.gas = gas
        self.isStatic = isStatic
        self.depth = depth
        self.salt = salt
    }
}

/// The outcome of executing a message.
public struct ExecutionResult: Sendable {
    /// How the frame ended: `.stop`, `.returned` or `.selfDestructed` for success, `.reverted`, or
    /// an exceptional halt.
    public var status: Status
    /// Gas left over (0 after an exceptional halt).
    public var gasLeft: Int64
    /// The refund counter at the end (before the fork's cap is applied).
    public var gasRefund: Int64
    /// Return or revert data (for a successful create, empty; the code is in the state).
    public var output: [UInt8]
    /// The new contract's address, for a successful create.
    public var createdAddress: Address?
    /// Set when some frame needed something this build cannot do (e.g. a precompile without a sound
    /// implementation): the whole result is then not trustworthy.
    public var unsupportedReason: String?

    /// True when the frame succeeded.
    @inlinable
    public var isSuccess: Bool { status.isSuccess }

    /// Creates a result.
    public init(
        status: Status, gasLeft: Int64, gasRefund: Int64, output: [UInt8], createdAddress: Address? = nil,
        unsupportedReason: String? = nil
    ) {
        self.status = status
        self.gasLeft = gasLeft
        self.gasRefund = gasRefund
        self.output = output
        self.createdAddress = createdAddress
        self.unsupportedReason = unsupportedReason
    }
}
