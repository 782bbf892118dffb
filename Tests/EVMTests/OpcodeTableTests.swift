import EVM
import EthereumPrimitives
import Testing

/// The opcode metadata table and the per-fork instruction tables derived from it.
@Suite struct OpcodeTableTests {
    @Test func tableHas256EntriesWithUniqueNames() {
        #expect(Opcodes.table.count == 256)
        let names = Opcodes.table.compactMap { $0?.name }
        #expect(Set(names).count == names.count)
        #expect(Opcodes.byte(named: "push0") == 0x5f)
        #expect(Opcodes.name(0x0c) == "opcode 0x0c")
    }

    @Test func pushDupSwapShapes() throws {
        for n in 1...32 {
            let info = try #require(Opcodes.info(UInt8(0x5f + n)))
            #expect(info.name == "PUSH\(n)" && info.immediateSize == n && info.stackOutputs == 1)
        }
        for n in 1...16 {
            let dup = try #require(Opcodes.info(UInt8(0x7f + n)))
            #expect(dup.stackInputs == n && dup.stackOutputs == n + 1)
            let swap = try #require(Opcodes.info(UInt8(0x8f + n)))
            #expect(swap.stackInputs == n + 1 && swap.stackOutputs == n + 1)
        }
    }

    /// One definition per operation and per byte: the loop's switch over Operation reaches each
    /// definition's body, and the analysed code maps every byte to its definition's operation.
    @Test func definitionsAndOperationsCorrespondOneToOne() {
        var seen: [Operation: UInt8] = [:]
        for definition in Opcodes.definitions {
            #expect(seen[definition.operation] == nil, "\(definition.name) shares \(definition.operation)")
            seen[definition.operation] = definition.byte
            #expect(Opcodes.operationByByte[Int(definition.byte)] == definition.operation)
            #expect(Opcodes.info(definition.byte) == definition)
        }
        #expect(Set(seen.keys) == Set(Operation.allCases), "an operation without a definition, or the reverse")
        let undefined = (0..<256).filter { Opcodes.table[$0] == nil }
        #expect(undefined.allSatisfy { Opcodes.operationByByte[$0] == .invalid })
        #expect(Opcodes.definitions.count == 150)
    }

    /// Each record's gas history: fork order, an EIP for every repricing, and the per-fork tables derived
    /// from it (each fork patches the previous one).
    @Test func gasHistoryPerRecord() throws {
        for definition in Opcodes.definitions {
            #expect(zip(definition.gas, definition.gas.dropFirst()).allSatisfy { $0.fork < $1.fork })
            #expect(definition.gas.dropFirst().allSatisfy { $0.eip != nil }, "\(definition.name): repricing without EIP")
            for fork in Hardfork.allCases {
                let entry = InstructionTable.forFork(fork)[opcode: definition.byte]
                #expect(entry.isDefined == (definition.isExecutable && fork >= definition.introduced))
                if entry.isDefined { #expect(Int64(entry.staticGas) == definition.staticGas(in: fork)) }
            }
        }
        let extcodehash = try #require(Opcodes.info(0x3f))
        #expect(extcodehash.introduced == .constantinople && extcodehash.introducedBy == 1052)
        #expect(extcodehash.staticGas(in: .petersburg) == 400)  // EIP-1052
        #expect(extcodehash.staticGas(in: .muirGlacier) == 700)  // EIP-1884
        #expect(extcodehash.staticGas(in: .osaka) == 100)  // EIP-2929
        #expect(extcodehash.staticGas(in: .byzantium) == nil)
        #expect(Opcodes.info(0xff)?.staticGas(in: .homestead) == 0)
        #expect(Opcodes.info(0xff)?.staticGas(in: .spuriousDragon) == 5_000)  // EIP-150
        #expect(Opcodes.info(0x1e)?.introducedBy == 7939 && Opcodes.info(0x1e)?.introduced == .osaka)
    }

    @Test func instructionTableBoundsAndGas() {
        let cancun = InstructionTable(fork: .cancun)
        #expect(cancun[opcode: 0x01] == InstructionCost(staticGas: 3, minStack: 2, maxStack: 1024))
        #expect(cancun[opcode: 0x60].maxStack == 1023)  // PUSH1 grows the stack by one
        #expect(cancun[opcode: 0x54].staticGas == 100)  // SLOAD warm (EIP-2929)
        #expect(!cancun[opcode: 0xfe].isDefined)  // INVALID is never executable
        #expect(!InstructionTable(fork: .shanghai)[opcode: 0x5c].isDefined)  // TLOAD before Cancun
        #expect(InstructionTable(fork: .istanbul)[opcode: 0x54].staticGas == 800)  // EIP-1884
        #expect(InstructionTable(fork: .tangerineWhistle)[opcode: 0xf1].staticGas == 700)  // EIP-150
        #expect(InstructionTable(fork: .frontier)[opcode: 0x31].staticGas == 20)
    }

    /// Every opcode the table defines has an implementation: run each one (with enough zero
    /// operands) in the newest fork and check it is not reported undefined; and in every fork an
    /// opcode introduced later is undefined.
    @Test func everyDefinedOpcodeIsImplemented() {
        for op in 0..<256 {
            guard op != 0xfe, let info = Opcodes.table[op] else { continue }
            for fork in [Hardfork.frontier, .byzantium, .constantinople, .istanbul, .london, .shanghai, .cancun, .osaka] {
                var code = [UInt8](repeating: 0x60, count: 0)
                for _ in 0..<info.stackInputs { code += [0x60, 0x00] }  // PUSH1 0
                code.append(UInt8(op))
                code += [UInt8](repeating: 0, count: info.immediateSize)
                code.append(0x00)
                let (result, _) = EVMTest.run(code, fork: fork, gas: 100_000)
                if info.isDefined(in: fork) {
                    #expect(result.status != .undefinedInstruction, "\(info.name) in \(fork)")
                } else {
                    #expect(result.status == .undefinedInstruction, "\(info.name) before \(info.introduced), in \(fork)")
                }
            }
        }
    }

    @Test func undefinedBytesHalt() {
        for op: UInt8 in [0x0c, 0x21, 0x4b, 0xa5, 0xef, 0xfe] {
            let (result, _) = EVMTest.run([op], fork: .cancun, gas: 10_000)
            #expect(result.status == .undefinedInstruction)
            #expect(result.gasLeft == 0)
        }
    }
}
