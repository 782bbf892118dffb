import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing
import TestSupport

@Suite struct TransactionEnvelopeTests {
    static let key = try! PrivateKey(hex: "0x4646464646464646464646464646464646464646464646464646464646464646")
    static let recipient = try! Address("0x3535353535353535353535353535353535353535")

    /// The example of EIP-155 ("Example" section): the signing payload, its hash and the signed transaction.
    @Test func eip155Example() throws {
        let tx = Transaction.legacy(LegacyTransaction(
            nonce: 9, gasPrice: 20_000_000_000, gasLimit: 21_000, to: Self.recipient,
            value: 1_000_000_000_000_000_000, chainId: 1))
        #expect(Hex.encode(tx.signingPayload) == "0xec098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a764000080018080")
        #expect(tx.signingHash.hexString == "0xdaf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53")
        let signed = tx.sign(with: Self.key)
        #expect(signed.rawHex == "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83")
        #expect(signed.signature.v == 37)
        #expect(try signed.sender() == Self.key.address)
        #expect(try signed.validate(for: .cancun, chainID: 1) == Self.key.address)
        #expect(signed.hash.hexString == "0x33469b22e9f636356c4160a87eb19df52b7412e8eac32a4a55ffe88ea8350788")
    }

    static func samples() throws -> [Transaction] {
        let slot = try Bytes32(hex: "0x" + String(repeating: "01", count: 32))
        let list: AccessList = [AccessListEntry(address: recipient, storageKeys: [slot, .zero]), AccessListEntry(address: .zero)]
        let auth = Authorization(chainId: 1, address: recipient, nonce: 7).sign(with: key)
        let blobHash = try Bytes32(hex: "0x01" + String(repeating: "ab", count: 31))
        return [
            .legacy(LegacyTransaction(nonce: 0, gasPrice: 1, gasLimit: 21_000, to: recipient, chainId: nil)),
            .legacy(LegacyTransaction(nonce: 5, gasPrice: 7, gasLimit: 100_000, to: nil, data: [0x60, 0x00, 0x00])),
            .accessList(AccessListTransaction(chainId: 1, nonce: 1, gasPrice: 2, gasLimit: 50_000, to: recipient, value: 3, data: [1, 2], accessList: list)),
            .dynamicFee(DynamicFeeTransaction(chainId: 1337, nonce: 2, maxPriorityFeePerGas: 1, maxFeePerGas: .max / 1_000_000, gasLimit: 100_000, to: nil, data: [0, 0, 1], accessList: list)),
            .blob(BlobTransaction(chainId: 1, nonce: 3, maxPriorityFeePerGas: 1, maxFeePerGas: 10, gasLimit: 21_000, to: recipient, maxFeePerBlobGas: 5, blobVersionedHashes: [blobHash, blobHash])),
            .setCode(SetCodeTransaction(chainId: 1, nonce: 4, maxPriorityFeePerGas: 1, maxFeePerGas: 10, gasLimit: 100_000, to: recipient, accessList: list, authorizationList: [auth])),
        ]
    }

    @Test func everyTypeRoundTrips() throws {
        for tx in try Self.samples() {
            let signed = tx.sign(with: Self.key)
            #expect(signed.encoded.first == (tx.type == .legacy ? signed.encoded.first : tx.type.rawValue))
            let decoded = try SignedTransaction.decode(signed.encoded)
            #expect(decoded == signed, "\(tx.type)")
            #expect(decoded.transaction == tx)
            #expect(decoded.hash == Keccak256.hash(signed.encoded))
            #expect(try decoded.sender() == Self.key.address)
            #expect(try decoded.validate(for: .prague) == Self.key.address, "\(tx.type)")
            // Block bodies hold typed transactions as byte strings.
            let body = RLP.encode(decoded.blockBodyItem)
            #expect(try SignedTransaction.decode(blockBodyItem: RLP.decode(body)) == signed)
            if tx.type != .legacy { #expect(decoded.blockBodyItem == .bytes(signed.encoded)) }
        }
    }

    @Test func accessorsReadThrough() throws {
        let samples = try Self.samples()
        let dynamic = samples[3].sign(with: Self.key)
        #expect(dynamic.type == .dynamicFee)
        #expect(dynamic.chainId == 1337)
        #expect(dynamic.to == nil && dynamic.isContractCreation)
        #expect(dynamic.gasPrice == nil)
        #expect(dynamic.maxPriorityFeePerGas == 1)
        #expect(dynamic.accessList.count == 2)
        let legacy = samples[0].sign(with: Self.key)
        #expect(legacy.chainId == nil && legacy.signature.v >= 27 && legacy.signature.v <= 28)
        #expect(legacy.gasPrice == 1 && legacy.maxFeePerGas == 1)
        let blob = samples[4]
        #expect(blob.blobGas == 2 * 131_072 && blob.maxFeePerBlobGas == 5 && blob.blobVersionedHashes.count == 2)
        #expect(samples[5].authorizationList.count == 1)
    }

    @Test func effectiveGasPrice() throws {
        let tx = Transaction.dynamicFee(DynamicFeeTransaction(chainId: 1, nonce: 0, maxPriorityFeePerGas: 2, maxFeePerGas: 10, gasLimit: 21_000, to: Self.recipient))
        #expect(tx.effectiveGasPrice(baseFee: 5) == 7)
        #expect(tx.effectiveGasPrice(baseFee: 9) == 10)
        #expect(tx.effectivePriorityFee(baseFee: 9) == 1)
        #expect(tx.effectiveGasPrice(baseFee: 11) == nil)
        #expect(tx.effectiveGasPrice(baseFee: nil) == 10)
        let legacy = Transaction.legacy(LegacyTransaction(nonce: 0, gasPrice: 8, gasLimit: 21_000, to: Self.recipient))
        #expect(legacy.effectiveGasPrice(baseFee: 3) == 8)
        #expect(legacy.effectivePriorityFee(baseFee: 3) == 5)
    }

    // MARK: Strict decoding

    @Test func rejectsMalformedInput() throws {
        let signed = try Self.samples()[2].sign(with: Self.key)
        #expect(throws: TransactionError.empty) { try SignedTransaction.decode([]) }
        // Trailing byte.
        #expect { try SignedTransaction.decode(signed.encoded + [0]) } throws: { error in
            guard case .malformed(let rlp, _, .accessList) = error as? TransactionError else { return false }
            return rlp.kind == .trailingBytes(count: 1)
        }
        // Unknown type byte.
        #expect(throws: TransactionError.unknownType(0x05)) { try SignedTransaction.decode([0x05] + signed.encoded.dropFirst()) }
        #expect(throws: TransactionError.unknownType(0x00)) { try SignedTransaction.decode([0x00, 0xc0]) }
        // A legacy transaction with 8 fields.
        let eightFields = RLP.encode(.list(Array(repeating: RLPItem.bytes([]), count: 8)))
        #expect { try SignedTransaction.decode(eightFields) } throws: { error in
            guard case .malformed(let rlp, nil, .legacy) = error as? TransactionError else { return false }
            return rlp.kind == .wrongFieldCount(expected: 9, actual: 8)
        }
        // A non-canonical integer (leading zero) in the nonce.
        var fields = Array(repeating: RLPItem.bytes([]), count: 9)
        fields[0] = .bytes([0, 1])
        #expect { try SignedTransaction.decode(RLP.encode(.list(fields))) } throws: { error in
            guard case .malformed(let rlp, .nonce, .legacy) = error as? TransactionError else { return false }
            return rlp.kind == .leadingZeroInInteger
        }
        // A nonce of 2^64 does not fit.
        fields[0] = .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect { try SignedTransaction.decode(RLP.encode(.list(fields))) } throws: { error in
            guard case .malformed(let rlp, .nonce, _) = error as? TransactionError, case .integerOverflow = rlp.kind else { return false }
            return true
        }
        // A byte string at the top level is not a transaction.
        #expect(throws: TransactionError.notAList) { try SignedTransaction.decode(RLP.encode(.bytes(Array(repeating: 1, count: 60)))) }
    }

    @Test func typesThreeAndFourRequireRecipient() throws {
        for tx in try Self.samples()[4...] {
            let signed = tx.sign(with: Self.key)
            var items = try RLP.decode(Array(signed.encoded.dropFirst())).listValue ?? []
            items[5] = .bytes([])  // to
            let raw = [tx.type.rawValue] + RLP.encode(.list(items))
            #expect { try SignedTransaction.decode(raw) } throws: { error in
                guard case .malformed(let rlp, .to, _) = error as? TransactionError else { return false }
                return rlp.kind == .wrongByteCount(expected: 20, actual: 0)
            }
        }
    }

    @Test func blobSidecarFormIsRejected() throws {
        let signed = try Self.samples()[4].sign(with: Self.key)
        let body = try RLP.decode(Array(signed.encoded.dropFirst()))
        let wrapped = [UInt8(3)] + RLP.encode(.list([body, .list([]), .list([]), .list([])]))
        #expect(throws: TransactionError.sidecarNotSupported) { try SignedTransaction.decode(wrapped) }
    }

    // MARK: Signatures

    @Test func highSIsRejectedFromHomestead() throws {
        let tx = Transaction.legacy(LegacyTransaction(nonce: 0, gasPrice: 1, gasLimit: 21_000, to: Self.recipient, chainId: nil))
        let signed = tx.sign(with: Self.key)
        // (r, n − s) with the other parity is the same signature in its high-s form.
        let n = UInt256(Secp256k1.curveOrder)
        let flipped = TransactionSignature(v: signed.signature.v == 27 ? 28 : 27, r: signed.signature.r, s: n - signed.signature.s)
        let high = SignedTransaction(transaction: tx, signature: flipped)
        #expect(throws: TransactionError.highS) { try high.sender() }
        #expect(try high.sender(allowHighS: true) == Self.key.address)
        #expect(try high.validate(for: .frontier) == Self.key.address)
        #expect(throws: TransactionError.highS) { try high.validate(for: .homestead) }
        let decoded = try SignedTransaction.decode(high.encoded)
        #expect(throws: TransactionError.highS) { try decoded.sender() }
    }

    @Test func legacyVRules() throws {
        let protected = Transaction.legacy(LegacyTransaction(nonce: 0, gasPrice: 1, gasLimit: 21_000, to: Self.recipient, chainId: 4)).sign(with: Self.key)
        #expect(protected.signature.v == 43 || protected.signature.v == 44)
        #expect(throws: TransactionError.invalidV(protected.signature.v, fork: .homestead)) { try protected.validate(for: .homestead) }
        #expect(try protected.validate(for: .spuriousDragon, chainID: 4) == Self.key.address)
        #expect(throws: TransactionError.invalidChainID(expected: 1, found: 4)) { try protected.validate(for: .london, chainID: 1) }
        let decoded = try SignedTransaction.decode(protected.encoded)
        #expect(decoded.chainId == 4)
        // v = 29 encodes no chain id.
        let bad = SignedTransaction(transaction: protected.transaction, signature: TransactionSignature(v: 29, r: protected.signature.r, s: protected.signature.s))
        #expect(throws: TransactionError.invalidChainID(expected: nil, found: nil)) { try bad.validate(for: .berlin) }
        #expect(throws: TransactionError.invalidV(29, fork: nil)) { try bad.sender() }
        // Typed transactions: y parity must be 0 or 1.
        let typed = try Self.samples()[2].sign(with: Self.key)
        let badParity = SignedTransaction(transaction: typed.transaction, signature: TransactionSignature(v: 2, r: typed.signature.r, s: typed.signature.s))
        #expect(throws: TransactionError.invalidYParity(2)) { try badParity.sender() }
    }

    @Test func authorizationSigning() throws {
        let auth = Authorization(chainId: 0, address: Self.recipient, nonce: 1)
        let signed = auth.sign(with: Self.key)
        #expect(try signed.authority() == Self.key.address)
        // Invalid authorizations do not make the transaction invalid; authority() reports them.
        var bad = signed
        bad.yParity = 2
        #expect(throws: TransactionError.invalidYParity(2)) { try bad.authority() }
        bad = signed
        bad.s = UInt256(Secp256k1.curveOrder) - signed.s
        bad.yParity ^= 1
        #expect(throws: TransactionError.highS) { try bad.authority() }
        // The signed message is keccak256(0x05 ‖ rlp([chainId, address, nonce])).
        let expected = Keccak256.hash([0x05] + RLP.encode(.list([.bytes([]), .bytes(Self.recipient.bytes), .bytes([1])])))
        #expect(auth.signingHash == expected)
    }

    // MARK: Fork rules

    @Test func forkRules() throws {
        let samples = try Self.samples()
        #expect(throws: TransactionError.typeNotSupported(.accessList, fork: .istanbul)) { try samples[2].sign(with: Self.key).validate(for: .istanbul) }
        #expect(throws: TransactionError.typeNotSupported(.dynamicFee, fork: .berlin)) { try samples[3].sign(with: Self.key).validate(for: .berlin) }
        #expect(throws: TransactionError.typeNotSupported(.blob, fork: .shanghai)) { try samples[4].sign(with: Self.key).validate(for: .shanghai) }
        #expect(throws: TransactionError.typeNotSupported(.setCode, fork: .cancun)) { try samples[5].sign(with: Self.key).validate(for: .cancun) }

        func legacy(_ modify: (inout LegacyTransaction) -> Void) -> SignedTransaction {
            var t = LegacyTransaction(nonce: 0, gasPrice: 1, gasLimit: 21_000, to: Self.recipient, chainId: 1)
            modify(&t)
            return Transaction.legacy(t).sign(with: Self.key)
        }
        #expect(throws: TransactionError.nonceTooBig) { try legacy { $0.nonce = .max }.validate(for: .cancun) }
        #expect(throws: TransactionError.intrinsicGasTooLow(gasLimit: 20_999, intrinsicGas: 21_000)) { try legacy { $0.gasLimit = 20_999 }.validate(for: .cancun) }
        #expect(throws: TransactionError.gasLimitPriceProductOverflow) { try legacy { $0.gasPrice = .max }.validate(for: .cancun) }
        let bigInitcode = legacy { $0.to = nil; $0.data = Array(repeating: 0, count: 49_153); $0.gasLimit = 1_000_000 }
        #expect(throws: TransactionError.initcodeTooLarge(size: 49_153, limit: 49_152)) { try bigInitcode.validate(for: .shanghai) }
        #expect(try bigInitcode.validate(for: .paris) == Self.key.address)
        #expect(throws: TransactionError.gasLimitAboveCap(gasLimit: 30_000_000, cap: 1 << 24)) { try legacy { $0.gasLimit = 30_000_000 }.validate(for: .osaka) }
        #expect(try legacy { $0.gasLimit = 30_000_000 }.validate(for: .prague) == Self.key.address)

        let tip = Transaction.dynamicFee(DynamicFeeTransaction(chainId: 1, nonce: 0, maxPriorityFeePerGas: 11, maxFeePerGas: 10, gasLimit: 21_000, to: Self.recipient)).sign(with: Self.key)
        #expect(throws: TransactionError.priorityFeeAboveMaxFee(priority: 11, maxFee: 10)) { try tip.validate(for: .london) }

        func blob(_ hashes: [Bytes32]) -> SignedTransaction {
            Transaction.blob(BlobTransaction(chainId: 1, nonce: 0, maxPriorityFeePerGas: 1, maxFeePerGas: 1, gasLimit: 21_000, to: Self.recipient, maxFeePerBlobGas: 1, blobVersionedHashes: hashes)).sign(with: Self.key)
        }
        let good = try Bytes32(hex: "0x01" + String(repeating: "00", count: 31))
        #expect(throws: TransactionError.noBlobs) { try blob([]).validate(for: .cancun) }
        #expect(throws: TransactionError.tooManyBlobs(count: 7, limit: 6)) { try blob(Array(repeating: good, count: 7)).validate(for: .cancun) }
        #expect(try blob(Array(repeating: good, count: 7)).validate(for: .prague) == Self.key.address)
        #expect(throws: TransactionError.invalidBlobVersionedHash(index: 1)) { try blob([good, .zero]).validate(for: .cancun) }

        let noAuth = Transaction.setCode(SetCodeTransaction(chainId: 1, nonce: 0, maxPriorityFeePerGas: 1, maxFeePerGas: 1, gasLimit: 50_000, to: Self.recipient, authorizationList: [])).sign(with: Self.key)
        #expect(throws: TransactionError.emptyAuthorizationList) { try noAuth.validate(for: .prague) }
    }

    @Test func intrinsicGasByFork() throws {
        let data: [UInt8] = [0, 0, 1, 2] + Array(repeating: 0xff, count: 60)  // 2 zero, 62 non-zero bytes
        let call = Transaction.legacy(LegacyTransaction(nonce: 0, gasPrice: 1, gasLimit: 1_000_000, to: Self.recipient, data: data))
        #expect(call.intrinsicGas(fork: .byzantium).gas == 21_000 + 2 * 4 + 62 * 68)
        #expect(call.intrinsicGas(fork: .istanbul).gas == 21_000 + 2 * 4 + 62 * 16)
        #expect(call.intrinsicGas(fork: .cancun).floor == 0)
        // EIP-7623: floor = 21000 + 10 × (zero bytes + 4 × non-zero bytes).
        let prague = call.intrinsicGas(fork: .prague)
        let pragueGas: UInt64 = 21_000 + 2 * 4 + 62 * 16
        let pragueFloor: UInt64 = 21_000 + 10 * (2 + 4 * 62)
        #expect(prague.gas == pragueGas)
        #expect(prague.floor == pragueFloor)
        let create = Transaction.legacy(LegacyTransaction(nonce: 0, gasPrice: 1, gasLimit: 1_000_000, to: nil, data: data))
        #expect(create.intrinsicGas(fork: .frontier).gas == 21_000 + 2 * 4 + 62 * 68)
        #expect(create.intrinsicGas(fork: .homestead).gas == 53_000 + 2 * 4 + 62 * 68)
        #expect(create.intrinsicGas(fork: .shanghai).gas == 53_000 + 2 * 4 + 62 * 16 + 2 * 2)  // 64 bytes = 2 words
        let listed = try Self.samples()[2]  // 2 addresses, 2 keys, data [1, 2]
        #expect(listed.intrinsicGas(fork: .berlin).gas == 21_000 + 2 * 16 + 2 * 2_400 + 2 * 1_900)
        let setCode = try Self.samples()[5]  // 1 authorization, 2 addresses, 2 keys
        #expect(setCode.intrinsicGas(fork: .prague).gas == 21_000 + 2 * 2_400 + 2 * 1_900 + 25_000)
        // A Prague transaction whose gas limit is below the floor is rejected.
        let floorTx = Transaction.legacy(LegacyTransaction(nonce: 0, gasPrice: 1, gasLimit: 22_000, to: Self.recipient, data: Array(repeating: 1, count: 60))).sign(with: Self.key)
        #expect(try floorTx.validate(for: .cancun) == Self.key.address)
        #expect(throws: TransactionError.floorGasTooLow(gasLimit: 22_000, floor: 23_400)) { try floorTx.validate(for: .prague) }
    }

    /// BasicTests/txtest.json: unprotected legacy transactions with their unsigned and signed encodings.
    @Test func basicTxTest() throws {
        guard let url = TestPaths.ethTest("BasicTests/txtest.json", suite: "BasicTests/txtest") else { return }
        var tally = ConformanceTally(suite: "BasicTests/txtest")
        guard case .array(let cases) = try ConformanceVectors.load(url) else { throw CocoaError(.fileReadCorruptFile) }
        for (i, c) in cases.enumerated() {
            func number(_ name: String) throws -> UInt256 {
                guard case .number(let text)? = c[name] else { throw CocoaError(.fileReadCorruptFile) }
                return try UInt256(decimal: text)
            }
            let key = try PrivateKey(hex: c["key"]?.stringValue ?? "")
            let toText = c["to"]?.stringValue ?? ""
            let tx = Transaction.legacy(LegacyTransaction(
                nonce: try number("nonce").low64, gasPrice: try number("gasprice"), gasLimit: try number("startgas").low64,
                to: toText.isEmpty ? nil : try Address(toText), value: try number("value"),
                data: try Hex.decode(c["data"]?.stringValue ?? ""), chainId: nil))
            let unsigned = SignedTransaction(transaction: tx, signature: TransactionSignature(v: 0, r: 0, s: 0))
            let wantUnsigned = try Hex.decode(c["unsigned"]?.stringValue ?? "")
            tally.check(unsigned.encoded == wantUnsigned, "#\(i) unsigned", firstDifference(unsigned.encoded, wantUnsigned))
            let signed = tx.sign(with: key)
            let wantSigned = try Hex.decode(c["signed"]?.stringValue ?? "")
            let vector = try SignedTransaction.decode(wantSigned)
            // These vectors predate EIP-2: where the vector's s is high, ours (always low) must be its mirror
            // n − s with the other parity, i.e. the same signature normalized.
            let n = UInt256(Secp256k1.curveOrder)
            if vector.signature.s > n / 2 {
                let mirrored = signed.signature.r == vector.signature.r && signed.signature.s == n - vector.signature.s
                    && signed.signature.v != vector.signature.v
                tally.check(mirrored, "#\(i) signed (low-s form of the vector's high-s signature)", "not the normalized signature")
            } else {
                tally.check(signed.encoded == wantSigned, "#\(i) signed", firstDifference(signed.encoded, wantSigned))
            }
            tally.check(try vector.sender(allowHighS: true) == key.address, "#\(i) sender", "recovered another address")
            tally.check(vector.transaction == tx, "#\(i) decoded fields", "decoded fields differ")
        }
        tally.report()
        #expect(tally.failed == 0)
    }
}
