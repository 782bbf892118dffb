import EVM
import EthereumPrimitives
import EthereumTransactions

/// Records the accounts and storage slots a call touches, for `eth_createAccessList` (as geth's
/// access-list tracer): slots read or written by SLOAD/SSTORE in any frame whose address is known,
/// and accounts reached by BALANCE, EXTCODE*, CALL* and SELFDESTRUCT except the excluded ones
/// (sender, recipient, precompiles).
struct AccessListTracer: Tracer {
    static var isEnabled: Bool { true }

    private let excluded: Set<Address>
    /// The storage address of each active frame by depth (nil inside init code, whose address the
    /// tracer does not know).
    private var frames: [Address?] = []
    /// The storage address of the frame a CALL/CREATE is about to start.
    private var nextFrame: Address?
    private var order: [Address] = []
    private var slots: [Address: [Bytes32]] = [:]
    private var seenSlots: Set<StorageSlot> = []

    init(recipient: Address?, excluded: Set<Address>) {
        self.excluded = excluded
        self.nextFrame = recipient
    }

    /// The list, in first-touch order.
    var accessList: AccessList {
        order.map { AccessListEntry(address: $0, storageKeys: slots[$0] ?? []) }
    }

    private mutating func add(_ address: Address) {
        if slots[address] == nil {
            slots[address] = []
            order.append(address)
        }
    }

    private mutating func add(_ address: Address, slot: UInt256) {
        add(address)
        if seenSlots.insert(StorageSlot(address: address, key: slot)).inserted {
            slots[address, default: []].append(slot.bytes32)
        }
    }

    mutating func willExecute(
        pc: Int, opcode: UInt8, gas: Int64, depth: Int, refund: Int64, stack: UnsafeBufferPointer<UInt256>,
        memory: UnsafeRawBufferPointer, returnData: [UInt8], address: Address
    ) {
        if depth >= frames.count {
            frames.append(nextFrame)
        } else if depth + 1 < frames.count {
            frames.removeLast(frames.count - depth - 1)
        }
        guard depth < frames.count else { return }
        let current = frames[depth]
        let n = stack.count
        func address(_ fromTop: Int) -> Address? {
            n > fromTop ? Address(bytes32: stack[n - 1 - fromTop].bytes32) : nil
        }
        switch opcode {
        case 0x54, 0x55:  // SLOAD, SSTORE
            if let current, n >= 1 { add(current, slot: stack[n - 1]) }
        case 0x31, 0x3b, 0x3c, 0x3f, 0xff:  // BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT
            if let target = address(0), !excluded.contains(target) { add(target) }
        case 0xf1, 0xf2, 0xf4, 0xfa:  // CALL, CALLCODE, DELEGATECALL, STATICCALL
            guard let target = address(1) else { return }
            if !excluded.contains(target) { add(target) }
            nextFrame = (opcode == 0xf1 || opcode == 0xfa) ? target : current
        case 0xf0, 0xf5:  // CREATE, CREATE2
            nextFrame = nil
        default:
            break
        }
    }

    mutating func didExecute(gasCost: Int64, error: Status?) {}

    mutating func didFinish(result: ExecutionResult, gasUsed: Int64) {}
}
