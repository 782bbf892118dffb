/// What an instruction tells the interpreter loop: keep going, the frame halted (and how), or the
/// frame wants a child frame. A one-byte enum, so the hot loop compares a byte and never throws.
public enum Status: UInt8, Sendable {
    /// Continue with the next instruction.
    case running
    /// STOP, or running off the end of the code.
    case stop
    /// RETURN.
    case returned
    /// REVERT (EIP-140): undo the frame's changes, keep the unused gas, return data.
    case reverted
    /// SELFDESTRUCT (halts the frame successfully).
    case selfDestructed
    /// CALL/CALLCODE/DELEGATECALL/STATICCALL prepared a child frame.
    case call
    /// CREATE/CREATE2 prepared a child frame.
    case create

    // A child message that could not start; its gas goes back to the caller.
    /// The call depth limit (1024) was reached.
    case callDepthExceeded
    /// The caller cannot afford the value transferred.
    case insufficientBalance
    /// CREATE would overflow the creator's nonce (EIP-2681).
    case nonceOverflow

    // Exceptional halts: the frame's changes are undone and all of its gas is consumed.
    /// Not enough gas.
    case outOfGas
    /// An instruction needed more stack items than there were.
    case stackUnderflow
    /// The stack would exceed 1024 items.
    case stackOverflow
    /// JUMP/JUMPI to a byte that is not a JUMPDEST opcode.
    case invalidJump
    /// An opcode not defined in the fork (or INVALID, 0xFE).
    case undefinedInstruction
    /// A state change in a static context (EIP-214).
    case staticStateChange
    /// RETURNDATACOPY past the end of the return data (EIP-211).
    case returnDataOutOfBounds
    /// CREATE/CREATE2 init code longer than the fork allows (EIP-3860).
    case initCodeSizeExceeded
    /// Created code longer than the fork allows (EIP-170).
    case codeSizeExceeded
    /// Created code starting with 0xEF (EIP-3541).
    case invalidCodePrefix
    /// The created contract's address already has code or a nonce (EIP-684).
    case createCollision
    /// A precompiled contract rejected its input.
    case precompileFailure
    /// A frame needed something this build cannot do (e.g. a missing precompile).
    case unsupported
    /// The execution's deadline passed (an `eth_call` over its time limit): every frame stops.
    case aborted

    /// True for the endings that keep the frame's changes: STOP, RETURN, SELFDESTRUCT.
    @inlinable
    public var isSuccess: Bool { self == .stop || self == .returned || self == .selfDestructed }

    /// True for the exceptional halts, which consume all of the frame's gas.
    @inlinable
    public var isExceptional: Bool { rawValue >= Status.outOfGas.rawValue }

    /// A short name for traces and errors, like geth's error strings.
    public var errorDescription: String? {
        switch self {
        case .running, .stop, .returned, .selfDestructed, .call, .create: return nil
        case .reverted: return "execution reverted"
        case .callDepthExceeded: return "max call depth exceeded"
        case .insufficientBalance: return "insufficient balance for transfer"
        case .nonceOverflow: return "nonce uint64 overflow"
        case .outOfGas: return "out of gas"
        case .stackUnderflow: return "stack underflow"
        case .stackOverflow: return "stack limit reached 1024"
        case .invalidJump: return "invalid jump destination"
        case .undefinedInstruction: return "invalid opcode"
        case .staticStateChange: return "write protection"
        case .returnDataOutOfBounds: return "return data out of bounds"
        case .initCodeSizeExceeded: return "max initcode size exceeded"
        case .codeSizeExceeded: return "max code size exceeded"
        case .invalidCodePrefix: return "invalid code: must not begin with 0xef"
        case .createCollision: return "contract address collision"
        case .precompileFailure: return "precompiled contract failed"
        case .unsupported: return "unsupported"
        case .aborted: return "execution aborted"
        }
    }
}
