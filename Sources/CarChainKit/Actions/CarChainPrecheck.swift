import CarChain
import EthereumPrimitives

/// The checks made before sending a CarChain transaction, where the answer is knowable from the contract's
/// views: each returns the exact reason the contract would revert with (contracts/README.md, RULES), in
/// the contract's order, so a refusal costs no gas. Checks that need state no view shows (an account that
/// already has a user id) are left to the gas estimate, which reports the contract's reason too.
///
/// The seed's contract has only `getUserCredit` and `getUserCar`; on it, only the user checks run.
public struct CarChainPrecheck: Sendable {
    public let contract: CarChainContract
    public let sender: Address
    /// True for the project's contract (it has `manager()`, `getCar`, `isUserRegistered`, `getUserAccount`).
    public let isProject: Bool

    public static func make(contract: CarChainContract, sender: Address) async -> CarChainPrecheck {
        let isProject = (try? await contract.manager()) != nil
        return CarChainPrecheck(contract: contract, sender: sender, isProject: isProject)
    }

    /// The reason `operation` would be refused, or nil when the readable checks pass.
    public func refusal(of operation: CarChainOperation) async throws -> String? {
        switch operation {
        case .registerNewUser(let userId):
            if userId.isEmpty { return "empty user id" }
            if userId.utf8.count > CarChainModel.maxUserIdLength { return "user id too long" }
            if try await isRegistered(userId) { return "user already registered" }
            return nil
        case .registerNewCar(let plate):
            if isProject, try await contract.manager() != sender { return "caller is not the manager" }
            if plate.isEmpty { return "empty plate" }
            if plate.utf8.count > CarChainModel.maxPlateLength { return "plate too long" }
            if plate == CarChainModel.noCar { return "plate \"-\" is reserved" }
            if isProject, try await contract.getCar(plate).registered { return "car already registered" }
            return nil
        case .addCredit(let userId, let credit):
            if let refusal = try await authorization(userId) { return refusal }
            if !(try await isRegistered(userId)) { return "user not registered" }
            let balance = try await contract.getUserCredit(userId)
            let (sum, overflow) = balance.addingReportingOverflow(credit)
            if overflow || sum > CarChainModel.maxCredit { return "credit overflow" }
            return nil
        case .rentCar(let plate, let userId):
            if let refusal = try await authorization(userId) { return refusal }
            if isProject {
                let car = try await contract.getCar(plate)
                if !car.registered { return "car not registered" }
                if !car.renter.isEmpty { return "car already rented" }
            }
            let rented = try await contract.getUserCar(userId)
            if rented.isEmpty { return "user not registered" }
            if try await contract.getUserCredit(userId) < CarChainModel.minimumRentCredit { return "insufficient credit" }
            if rented != CarChainModel.noCar { return "user already renting a car" }
            return nil
        case .returnCar(let plate, let userId):
            if let refusal = try await authorization(userId) { return refusal }
            var renter: String?
            if isProject {
                let car = try await contract.getCar(plate)
                if !car.registered { return "car not registered" }
                if car.renter.isEmpty { return "car not rented" }
                renter = car.renter
            }
            if !(try await isRegistered(userId)) { return "user not registered" }
            if let renter, renter != userId { return "car rented by another user" }
            return nil
        }
    }

    /// Rule 1 of addCredit, rentCar and returnCar: only the manager or the id's bound account may act.
    private func authorization(_ userId: String) async throws -> String? {
        guard isProject else { return nil }
        if try await contract.manager() == sender { return nil }
        let account = try await contract.getUserAccount(userId)
        return account == sender ? nil : "not user's account or manager"
    }

    private func isRegistered(_ userId: String) async throws -> Bool {
        if isProject { return try await contract.isUserRegistered(userId) }
        return !(try await contract.getUserCar(userId)).isEmpty
    }
}
