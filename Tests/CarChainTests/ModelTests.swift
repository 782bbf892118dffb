import CarChain
import EthereumABI
import EthereumPrimitives
import Testing

/// The rules of contracts/README.md, one by one, on CarChainModel alone (the same opening as
/// tools/tests/test_model.py, which reaches every outcome).
@Suite struct ModelTests {
    let manager = Keys.addresses[0]
    let alice = Keys.addresses[1]
    let bob = Keys.addresses[2]

    @Test func scriptedOpening() throws {
        var m = CarChainModel(manager: manager)
        func expect(_ op: CarChainOperation, from sender: Address, _ outcome: CarChainModel.Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
            let got = m.apply(op, from: sender)
            #expect(got == outcome, "\(op)", sourceLocation: sourceLocation)
        }
        func refused(_ reason: String) -> CarChainModel.Outcome { .reverted(.error(reason)) }
        expect(.registerNewUser(userId: "u1"), from: manager, .success([.userRegistered(userId: "u1", account: .zero)]))
        expect(.registerNewUser(userId: "alice"), from: alice, .success([.userRegistered(userId: "alice", account: alice)]))
        expect(.registerNewUser(userId: "alice2"), from: alice, refused("account already has a user id"))
        expect(.registerNewUser(userId: ""), from: manager, refused("empty user id"))
        expect(.registerNewUser(userId: String(repeating: "x", count: 129)), from: manager, refused("user id too long"))
        expect(.registerNewUser(userId: String(repeating: "y", count: 257)), from: manager, .reverted(.empty))
        expect(.registerNewUser(userId: "u1"), from: manager, refused("user already registered"))
        expect(.registerNewCar(plate: "C1"), from: alice, refused("caller is not the manager"))
        expect(.registerNewCar(plate: ""), from: manager, refused("empty plate"))
        expect(.registerNewCar(plate: String(repeating: "Q", count: 32)), from: manager, refused("plate too long"))
        expect(.registerNewCar(plate: "-"), from: manager, refused(#"plate "-" is reserved"#))
        expect(.registerNewCar(plate: "C1"), from: manager, .success([.carRegistered(plate: "C1")]))
        expect(.registerNewCar(plate: "C1"), from: manager, refused("car already registered"))
        expect(.registerNewCar(plate: "C2"), from: manager, .success([.carRegistered(plate: "C2")]))
        expect(.addCredit(userId: "u1", credit: 1), from: bob, refused("not user's account or manager"))
        expect(.addCredit(userId: "nobody", credit: 1), from: manager, refused("user not registered"))
        expect(.addCredit(userId: "u1", credit: .max), from: manager, refused("credit overflow"))
        expect(.rentCar(plate: "C1", userId: "u1"), from: manager, refused("insufficient credit"))
        expect(.addCredit(userId: "u1", credit: 2), from: manager, .success([.creditAdded(userId: "u1", amount: 2, newBalance: 2)]))
        expect(.addCredit(userId: "alice", credit: 1), from: alice, .success([.creditAdded(userId: "alice", amount: 1, newBalance: 1)]))
        expect(.rentCar(plate: "C9", userId: "u1"), from: manager, refused("car not registered"))
        expect(.returnCar(plate: "C1", userId: "u1"), from: manager, refused("car not rented"))
        expect(.rentCar(plate: "C1", userId: "u1"), from: manager, .success([.carRented(plate: "C1", userId: "u1")]))
        expect(.rentCar(plate: "C1", userId: "alice"), from: alice, refused("car already rented"))
        expect(.rentCar(plate: "C2", userId: "u1"), from: manager, refused("user already renting a car"))
        expect(.returnCar(plate: "C1", userId: "alice"), from: alice, refused("car rented by another user"))
        expect(.returnCar(plate: "C1", userId: "ghost"), from: manager, refused("user not registered"))
        expect(.addCredit(userId: "u1", credit: 1), from: manager, .success([.creditAdded(userId: "u1", amount: 1, newBalance: 2)]))
        expect(.returnCar(plate: "C1", userId: "u1"), from: manager, .success([.carReturned(plate: "C1", userId: "u1")]))
        expect(.addCredit(userId: "u1", credit: 0), from: manager, .success([.creditAdded(userId: "u1", amount: 0, newBalance: 2)]))
        expect(.registerNewCar(plate: "C3"), from: manager, .success([.carRegistered(plate: "C3")]))

        #expect(m.registeredUsers == 2)
        #expect(m.registeredCars == 3)
        #expect(m.rentedCars == 0)
        #expect(m.availableCars == 3)
        #expect(m.getUserCredit("u1") == 2)  // no refund on return
        #expect(m.getUserCar("u1") == "-")
        #expect(m.getUserCar("nobody") == "")
        #expect(m.getUserAccount("alice") == alice)
        #expect(m.getUserAccount("u1") == .zero)
        #expect(m.getCar("C1") == CarInfo(registered: true, renter: ""))
        #expect(m.getCar("C9") == CarInfo(registered: false, renter: ""))
        #expect(m.read(.getUserCredit(userId: String(repeating: "z", count: 257))) == nil)
        #expect(m.read(.getCar(plate: String(repeating: "z", count: 65))) == nil)
        #expect(m.read(.manager) == .account(manager))
        #expect(m.read(.minimumRentCredit) == .number(1))
    }

    @Test func etherAndDecoderBoundsComeFirst() {
        var m = CarChainModel(manager: manager)
        // Even the manager's valid call is refused with empty data when it sends ether.
        #expect(m.apply(.registerNewUser(userId: "u1"), from: manager, value: 1) == .reverted(.empty))
        // A 65-byte plate is refused by the decoder before the manager check.
        #expect(m.apply(.registerNewCar(plate: String(repeating: "P", count: 65)), from: alice) == .reverted(.empty))
        #expect(m.apply(.registerNewCar(plate: String(repeating: "P", count: 64)), from: alice) == .reverted(.error("caller is not the manager")))
        #expect(m.registeredUsers == 0)
    }

    @Test func stringsAreBytes() {
        var m = CarChainModel(manager: manager)
        // Precomposed and decomposed "é" are different ids to the contract.
        #expect(m.apply(.registerNewUser(userId: "\u{e9}"), from: manager).succeeded)
        #expect(m.apply(.registerNewUser(userId: "e\u{301}"), from: manager).succeeded)
        #expect(m.registeredUsers == 2)
        #expect(m.apply(.registerNewUser(userId: String(repeating: "ü", count: 64)), from: manager).succeeded)  // 128 bytes
        #expect(m.apply(.registerNewUser(userId: String(repeating: "ü", count: 64) + "a"), from: manager) == .reverted(.error("user id too long")))
    }

    @Test func rentalsAndReturnsAcrossAccounts() {
        var m = CarChainModel(manager: manager)
        _ = m.apply(.registerNewUser(userId: "alice"), from: alice)
        _ = m.apply(.registerNewUser(userId: "bob"), from: bob)
        _ = m.apply(.registerNewCar(plate: "C1"), from: manager)
        _ = m.apply(.addCredit(userId: "alice", credit: 5), from: alice)
        // Bob may not act for Alice; the manager may.
        #expect(m.apply(.rentCar(plate: "C1", userId: "alice"), from: bob) == .reverted(.error("not user's account or manager")))
        #expect(m.apply(.rentCar(plate: "C1", userId: "alice"), from: manager).succeeded)
        #expect(m.getUserCar("alice") == "C1")
        #expect(m.getCar("C1").renter == "alice")
        #expect(m.apply(.returnCar(plate: "C1", userId: "alice"), from: alice).succeeded)
        #expect(m.apply(.rentCar(plate: "C1", userId: "alice"), from: alice).succeeded)
        #expect(m.getUserCredit("alice") == 3)
        #expect(m.rentedCars == 1)
        #expect(m.availableCars == 0)
    }
}
