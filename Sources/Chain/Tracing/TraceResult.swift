import EVM
import EthereumPrimitives

/// What a `debug_trace*` request answers for one transaction or call, by tracer (``TracerConfiguration``).
public enum TraceResult: Sendable, Equatable {
    /// The struct logger's steps.
    case structLogs(StructLogTrace)
    /// `callTracer`: the outermost frame, its calls nested inside.
    case callFrame(CallFrame)
    /// `prestateTracer`.
    case prestate(PrestateTrace)
    /// `4byteTracer`: `"0x<selector>-<calldata size after the selector>"` → how many calls.
    case fourByte([String: Int])
    /// `noopTracer`.
    case noop
}

/// One frame of a `callTracer` trace, as geth's call tracer has it: a message (CALL, CALLCODE, DELEGATECALL,
/// STATICCALL, CREATE, CREATE2) or a SELFDESTRUCT, with the gas it was given and used, its input and output, its
/// error and, for a revert, the reason decoded from the revert data.
public struct CallFrame: Sendable, Equatable {
    /// The opcode (or transaction kind) that made the frame.
    public enum Kind: String, Sendable, Equatable {
        case call = "CALL", callCode = "CALLCODE", delegateCall = "DELEGATECALL", staticCall = "STATICCALL"
        case create = "CREATE", create2 = "CREATE2", selfDestruct = "SELFDESTRUCT"
    }

    /// The frame's kind.
    public var type: Kind
    /// The account that made the call (for DELEGATECALL the delegating contract; for SELFDESTRUCT the contract).
    public var from: Address
    /// The callee, the new contract (nil when the creation failed), or the SELFDESTRUCT beneficiary.
    public var to: Address?
    /// The value sent (for DELEGATECALL the value it inherits); nil for STATICCALL, as geth leaves it out.
    public var value: UInt256?
    /// Gas given to the frame; for the outermost frame, the transaction's (or call's) gas limit.
    public var gas: UInt64
    /// Gas the frame used; for the outermost frame, the transaction's gas used after the refund (the receipt's).
    public var gasUsed: UInt64
    /// Call data, or init code.
    public var input: [UInt8]
    /// Return data (for a successful creation the deployed code; for a revert the revert data).
    public var output: [UInt8]
    /// Why the frame failed ("execution reverted", "out of gas", …).
    public var error: String?
    /// A revert's `Error(string)` message or `Panic(uint256)` code, decoded.
    public var revertReason: String?
    /// The frames it started, in order.
    public var calls: [CallFrame]
    /// The logs it emitted (with `withLog`).
    public var logs: [CallFrameLog]

    /// Creates a frame.
    public init(
        type: Kind, from: Address, to: Address?, value: UInt256?, gas: UInt64, gasUsed: UInt64 = 0, input: [UInt8],
        output: [UInt8] = [], error: String? = nil, revertReason: String? = nil, calls: [CallFrame] = [],
        logs: [CallFrameLog] = []
    ) {
        self.type = type
        self.from = from
        self.to = to
        self.value = value
        self.gas = gas
        self.gasUsed = gasUsed
        self.input = input
        self.output = output
        self.error = error
        self.revertReason = revertReason
        self.calls = calls
        self.logs = logs
    }
}

/// A log in a `callTracer` frame (with `withLog`).
public struct CallFrameLog: Sendable, Equatable {
    /// The log itself.
    public var log: Log
    /// Its index among the block's logs (as the receipt will number it).
    public var index: Int
    /// How many calls the frame had made before it: where the log sits among them.
    public var position: Int

    /// Creates a log entry.
    public init(log: Log, index: Int, position: Int) {
        self.log = log
        self.index = index
        self.position = position
    }
}

/// A `prestateTracer` answer: every account the transaction touched as it was before (``accounts``), or in diff
/// mode the accounts it changed, before and after (only the fields that changed are in `post`; an account in
/// `pre` and not in `post` was deleted).
public enum PrestateTrace: Sendable, Equatable {
    case accounts([Address: PrestateAccount])
    case diff(pre: [Address: PrestateAccount], post: [Address: PrestateAccount])
}

/// An account in a `prestateTracer` answer; a nil (or, for the nonce and storage, empty) field is left out.
public struct PrestateAccount: Sendable, Equatable {
    /// The balance.
    public var balance: UInt256?
    /// The code (nil with `disableCode`, or when it has none; in `post`, empty when the code was removed).
    public var code: [UInt8]?
    /// The code hash, for an account with code (in `post`, when it changed).
    public var codeHash: Bytes32?
    /// The nonce (0 is left out).
    public var nonce: UInt64
    /// The slots read or written, with their values (in diff mode, the changed ones).
    public var storage: [UInt256: UInt256]

    /// Creates an account entry.
    public init(
        balance: UInt256? = nil, code: [UInt8]? = nil, codeHash: Bytes32? = nil, nonce: UInt64 = 0,
        storage: [UInt256: UInt256] = [:]
    ) {
        self.balance = balance
        self.code = code
        self.codeHash = codeHash
        self.nonce = nonce
        self.storage = storage
    }
}
