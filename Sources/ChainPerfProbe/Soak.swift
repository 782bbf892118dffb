import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// The soak (`ChainPerfProbe soak`, `make soak`): a long run of automined mixed traffic — value transfers, CarChain
/// rentals and returns with credit top-ups, and ERC-20 transfers (``BenchToken``) — over a fixed set of accounts,
/// cars and token holders, so the state stops growing after the first few thousand transactions and what memory
/// does after that is the chain's own doing. It prints a report line every `reportEvery` transactions: the count,
/// the head, the throughput since the last report, the process's resident memory and the last transaction
/// acknowledged (its block is durable when the line is printed: `sendRawTransaction` has returned).
struct Soak {
    var transactions: Int
    var directory: URL?
    var reportEvery: Int

    static let cars = 200
    static let recipients = 1_000
    /// Transactions signed ahead at a time, on another thread while the previous batch is sent.
    static let signingChunk = 4_096

    func run() async throws {
        let chain = try await DevChain(config: .deterministic(), storage: directory.map { .directory($0) } ?? .memory)
        guard await chain.blockNumber() == 0 else { throw ProbeError("the soak starts on a new chain; \(directory?.path ?? "") holds one") }
        var traffic = try SoakTraffic()
        let setUp = traffic.setUp()
        for raw in setUp.map({ $0.signed() }) { try await chain.sendRawTransaction(raw) }
        print("setup \(setUp.count) transactions, head \(await chain.blockNumber()), rss_kb \(Self.residentKilobytes())")

        var sent = 0
        var lastHash = Bytes32.zero
        var windowStart = ContinuousClock.now
        var windowCount = 0
        var next = Self.sign(traffic.next(Swift.min(Self.signingChunk, transactions)))
        while sent < transactions {
            let batch = await next.value
            let remaining = transactions - sent - batch.count
            if remaining > 0 { next = Self.sign(traffic.next(Swift.min(Self.signingChunk, remaining))) }
            for raw in batch {
                lastHash = try await chain.sendRawTransaction(raw)
                sent += 1
                windowCount += 1
                if sent % reportEvery == 0 || sent == transactions {
                    // Every transaction of the mix succeeds: a failure means the traffic, not the chain, went wrong.
                    guard try await chain.receipt(hash: lastHash)?.status == true else {
                        throw ProbeError("transaction \(sent) (\(lastHash.hexString)) failed")
                    }
                    let elapsed = ContinuousClock.now - windowStart
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    print(
                        "report tx=\(sent) head=\(await chain.blockNumber()) tx_per_s=\(Int(Double(windowCount) / seconds))"
                            + " rss_kb=\(Self.residentKilobytes()) last=\(lastHash.hexString)")
                    windowStart = ContinuousClock.now
                    windowCount = 0
                }
            }
        }
        await chain.close()
    }

    /// Signs `unsigned` on every core, off the sending task.
    static func sign(_ unsigned: [SoakTraffic.Unsigned]) -> Task<[[UInt8]], Never> {
        Task.detached {
            var out = [[UInt8]](repeating: [], count: unsigned.count)
            out.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let slots = buffer
                DispatchQueue.concurrentPerform(iterations: unsigned.count) { i in slots[i] = unsigned[i].signed() }
            }
            return out
        }
    }

    /// The process's resident memory (`/proc/self/statm`), in KiB; 0 where there is no such file.
    static func residentKilobytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}

/// The soak's transactions, from the ten dev accounts: account 0 deploys CarChain (it is the manager) and the token
/// (it holds the supply) and makes the CarChain calls; accounts 1–9 send value and tokens to a fixed set of
/// recipients. A cycle of ten: rent a car, return it, three value transfers, three token transfers, a token
/// transfer from the holder back to a sender, a credit top-up (a rental costs one credit).
struct SoakTraffic {
    /// A transaction to sign.
    struct Unsigned: Sendable {
        var key: PrivateKey
        var transaction: Transaction
        func signed() -> [UInt8] { transaction.sign(with: key).encoded }
    }

    let keys: [PrivateKey]
    var nonces: [UInt64]
    let carChain: Address
    let token: Address
    let recipients: [Address]
    var step = 0

    init() throws {
        keys = DevAccounts.standard.compactMap(\.privateKey)
        guard keys.count == 10 else { throw ProbeError("the dev accounts have no keys") }
        nonces = Array(repeating: 0, count: keys.count)
        carChain = ContractAddress.create(sender: keys[0].address, nonce: 0)
        token = ContractAddress.create(sender: keys[0].address, nonce: 1)
        recipients = (0..<Soak.recipients).map { i in
            Address(bytes: Array(Keccak256.hash(Array("soak recipient \(i)".utf8)).bytes[12...])) ?? .zero
        }
    }

    mutating func transaction(_ sender: Int, to: Address?, value: UInt256 = .zero, data: [UInt8] = [], gas: UInt64) -> Unsigned {
        defer { nonces[sender] += 1 }
        return Unsigned(
            key: keys[sender],
            transaction: .dynamicFee(
                DynamicFeeTransaction(
                    chainId: 4, nonce: nonces[sender], maxPriorityFeePerGas: UInt256(1),
                    maxFeePerGas: UInt256(100_000_000_000 as UInt64), gasLimit: gas, to: to, value: value, data: data)))
    }

    /// Deployments, cars, users with credit, and tokens for accounts 1–9.
    mutating func setUp() -> [Unsigned] {
        var out = [transaction(0, to: nil, data: CarChainArtifact.bytecode, gas: 3_000_000)]
        let supply = UInt256(1) << 200
        out.append(transaction(0, to: nil, data: BenchToken.bytecode + supply.bigEndianBytes, gas: 1_000_000))
        for i in 0..<Soak.cars {
            out.append(transaction(0, to: carChain, data: encodeCall("registerNewCar(string)", ["SOAK-\(i)"]), gas: 200_000))
            out.append(transaction(0, to: carChain, data: encodeCall("registerNewUser(string)", ["soak-\(i)"]), gas: 200_000))
            out.append(
                transaction(
                    0, to: carChain, data: encodeCall("addCredit(string,uint256)", ["soak-\(i)"], uint: UInt256(1_000)),
                    gas: 200_000))
        }
        for sender in 1..<keys.count {
            out.append(transaction(0, to: token, data: BenchToken.transfer(keys[sender].address, UInt256(1) << 190), gas: 100_000))
        }
        return out
    }

    /// The next `count` transactions of the mix.
    mutating func next(_ count: Int) -> [Unsigned] { (0..<count).map { _ in next() } }

    mutating func next() -> Unsigned {
        defer { step += 1 }
        let cycle = step / 10
        let car = cycle % Soak.cars
        let sender = 1 + step % 9
        let recipient = recipients[(step &* 7919) % Soak.recipients]
        switch step % 10 {
        case 0: return transaction(0, to: carChain, data: encodeCall("rentCar(string,string)", ["SOAK-\(car)", "soak-\(car)"]), gas: 200_000)
        case 1: return transaction(0, to: carChain, data: encodeCall("returnCar(string,string)", ["SOAK-\(car)", "soak-\(car)"]), gas: 200_000)
        case 2, 3, 4: return transaction(sender, to: recipient, value: UInt256(1_000), gas: 21_000)
        case 5, 6, 7: return transaction(sender, to: token, data: BenchToken.transfer(recipient, UInt256(3)), gas: 100_000)
        case 8: return transaction(0, to: token, data: BenchToken.transfer(keys[sender].address, UInt256(1)), gas: 100_000)
        default:
            return transaction(
                0, to: carChain, data: encodeCall("addCredit(string,uint256)", ["soak-\(car)"], uint: UInt256(1)), gas: 200_000)
        }
    }
}

/// testdata/soak/BenchToken.vy, compiled (Vyper 0.4.3, `--evm-version cancun`): a minimal ERC-20 whose constructor
/// takes the supply.
enum BenchToken {
    static let bytecode: [UInt8] = (try? Hex.decode(hex.joined())) ?? []
    private static let hex = [
        "346100675760206103815f395f515f336020525f5260405f205560206103815f395f51600255335f7fddf252ad1be2c89b69c2b068fc37",
        "8daa952ba7f163c4a11628f55a4df523b3ef602061038160403960206040a36102e061006b610000396102e0610000f35b5f80fd5f3560",
        "e01c60026007820660011b6102d201601e395f51565b63a9059cbb81186102ca576044361034176102ce576004358060a01c6102ce5760",
        "40525f336020525f5260405f2080546024358082038281116102ce57905090508155505f6040516020525f5260405f2080546024358082",
        "018281106102ce5790509050815550604051337fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef602435",
        "60605260206060a3600160605260206060f35b63095ea7b381186102ca576044361034176102ce576004358060a01c6102ce5760405260",
        "24356001336020525f5260405f20806040516020525f5260405f20905055604051337f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0",
        "f7b2291e5b200ac8c7c3b92560243560605260206060a3600160605260206060f35b6323b872dd81186102ca576064361034176102ce57",
        "6004358060a01c6102ce576040526024358060a01c6102ce5760605260016040516020525f5260405f2080336020525f5260405f209050",
        "80546044358082038281116102ce57905090508155505f6040516020525f5260405f2080546044358082038281116102ce579050905081",
        "55505f6060516020525f5260405f2080546044358082018281106102ce57905090508155506060516040517fddf252ad1be2c89b69c2b0",
        "68fc378daa952ba7f163c4a11628f55a4df523b3ef60443560805260206080a3600160805260206080f35b6370a0823181186102ca5760",
        "24361034176102ce576004358060a01c6102ce576040525f6040516020525f5260405f205460605260206060f35b63dd62ed3e81186102",
        "ca576044361034176102ce576004358060a01c6102ce576040526024358060a01c6102ce5760605260016040516020525f5260405f2080",
        "6060516020525f5260405f2090505460805260206080f35b6318160ddd81186102ca57346102ce5760025460405260206040f35b5f5ffd",
        "5b5f80fd021c00ba0137001802ca02ae02568558203dbf456fb8669eea007b25e6d8664517b44450b8277bd6d57d5947035c58ff8b1902",
        "e0810e00a1657679706572830004030036",
    ]

    /// `transfer(address,uint256)` call data.
    static func transfer(_ to: Address, _ amount: UInt256) -> [UInt8] {
        Array(Keccak256.hash("transfer(address,uint256)").bytes[0..<4]) + [UInt8](repeating: 0, count: 12) + to.bytes
            + amount.bigEndianBytes
    }
}
