import CarChain
import EthereumCrypto
import EthereumPrimitives

/// Whether the code at the CarChain address is CarChain: every answer of the app depends on it, and a dev node's
/// methods (`anvil_setCode`, `anvil_reset`) or a wrong `--contract` can put something else there. Code that carries
/// the selector of every function the app calls (a compiled dispatcher holds them, vyper's and solc's alike) is
/// CarChain; other code (a proxy, say) is accepted when `manager()`, `registeredCars()` and `getCar` answer with
/// CarChain's shapes (a non-zero manager, a count, a `(bool, string)`).
/// The verdict is kept per code hash, so a request costs a hash of code the session read anyway.
actor ContractCodeCheck {
    private var verdicts: [Bytes32: Bool] = [:]

    /// The 4-byte selectors of the functions the app calls.
    static let selectors: [[UInt8]] = {
        let queries: [CarChainQuery] = [
            .getUserCredit(userId: ""), .getUserCar(userId: ""), .isUserRegistered(userId: ""), .getUserAccount(userId: ""),
            .getCar(plate: ""), .registeredUsers, .registeredCars, .rentedCars, .availableCars, .manager,
        ]
        let operations: [CarChainOperation] = [
            .registerNewUser(userId: ""), .registerNewCar(plate: ""), .addCredit(userId: "", credit: .zero),
            .rentCar(plate: "", userId: ""), .returnCar(plate: "", userId: ""),
        ]
        return queries.map { Array($0.calldata.prefix(4)) } + operations.map { Array($0.calldata.prefix(4)) }
    }()

    /// Throws `503 NO_CONTRACT` when `code` (at `contract`'s address) is not CarChain.
    func check(_ contract: CarChainContract, code: [UInt8], chainID: UInt64) async throws {
        let hash = Keccak256.hash(code)
        if let known = verdicts[hash] {
            if known { return }
            throw Self.foreign(contract.address, chainID: chainID)
        }
        var verdict = Self.selectors.allSatisfy { Self.contains(code, $0) }
        if !verdict {
            // Not a dispatcher that names them (a proxy, say): CarChain's answers, of their own shapes.
            let manager = try? await contract.manager()
            let cars = try? await contract.registeredCars()
            let car = try? await contract.getCar("")
            verdict = manager != nil && manager != .zero && cars != nil && car != nil
        }
        // A dev node can cycle through many codes; the table stays small.
        if verdicts.count >= 64 { verdicts.removeAll() }
        verdicts[hash] = verdict
        if !verdict { throw Self.foreign(contract.address, chainID: chainID) }
    }

    static func foreign(_ address: Address, chainID: UInt64) -> AppAPIError {
        AppAPIError(
            status: 503, code: "NO_CONTRACT",
            message: "The code at \(address.checksummed) on chain \(chainID) is not CarChain (the contract was replaced): nothing can be read or sent until CarChain is deployed there again.")
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
