import CarChain
import EthereumABI
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

@Suite struct ArtifactTests {
    /// The generated CarChainArtifact+Embedded.swift must match contracts/CarChain.json; regenerate it
    /// with `python3 tools/embed_artifact.py`.
    @Test func embeddedArtifactMatchesContractsJSON() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.json")
        let file = try CarChainArtifact(contentsOf: url)
        let embedded = CarChainArtifact.project
        #expect(embedded.abi == file.abi, "embedded ABI is stale: run python3 tools/embed_artifact.py")
        #expect(embedded.bytecode == file.bytecode, "embedded bytecode is stale: run python3 tools/embed_artifact.py")
        #expect(embedded.deployedBytecode == file.deployedBytecode, "embedded runtime code is stale: run python3 tools/embed_artifact.py")
        let json = try ConformanceVectors.load(url)
        #expect(json["sourceSha256"]?.stringValue == CarChainArtifact.projectSourceSha256)
        #expect(embedded.flavour == .project)
    }

    @Test func bindingSignaturesMatchTheABI() throws {
        let abi = CarChainArtifact.project.abi
        let operations: [CarChainOperation] = [
            .registerNewUser(userId: ""), .registerNewCar(plate: ""), .addCredit(userId: "", credit: 0),
            .rentCar(plate: "", userId: ""), .returnCar(plate: "", userId: ""),
        ]
        for op in operations {
            let f = try #require(abi.function(named: op.functionName))
            #expect(f.signature == op.signature)
            #expect(f.inputTypes == op.argumentTypes)
            #expect(try f.decodeCall(op.calldata) == op.arguments)
        }
        let queries: [CarChainQuery] = [
            .getUserCredit(userId: ""), .getUserCar(userId: ""), .isUserRegistered(userId: ""), .getUserAccount(userId: ""),
            .getCar(plate: ""), .registeredUsers, .registeredCars, .rentedCars, .availableCars, .minimumRentCredit, .manager,
        ]
        #expect(queries.count + operations.count == abi.functions.count)
        for q in queries {
            let f = try #require(abi.function(named: q.functionName))
            #expect(f.signature == q.signature)
            #expect(f.outputTypes == q.outputTypes)
        }
        #expect(CarChainEvent.definitions == abi.events)
    }

    @Test func seedArtifact() throws {
        guard let url = TestPaths.shared("seed-carchain/CarChain.json", what: "seed artifact") else { return }
        let seed = try CarChainArtifact(contentsOf: url)
        #expect(seed.flavour == .seed)
        #expect(seed.abi.events.isEmpty)
        // Same selectors as the project's contract for every seed function.
        for f in seed.abi.functions {
            #expect(CarChainArtifact.project.abi.function(named: f.name)?.selector == f.selector, "\(f.name)")
        }
        #expect(!seed.bytecode.isEmpty && !seed.deployedBytecode.isEmpty)
    }

    @Test func invalidArtifacts() {
        #expect(throws: CarChainError.self) { try CarChainArtifact(json: Array("[]".utf8)) }
        #expect(throws: CarChainError.self) { try CarChainArtifact(json: Array(#"{"abi":[],"bytecode":"0xzz","deployedBytecode":"0x"}"#.utf8)) }
        #expect(throws: CarChainError.self) { try CarChainArtifact(contentsOf: URL(fileURLWithPath: "/nonexistent/CarChain.json")) }
    }

    @Test func eventsRoundTripThroughLogs() throws {
        let events: [CarChainEvent] = [
            .userRegistered(userId: "alice", account: Keys.addresses[1]), .carRegistered(plate: "C1"),
            .carRented(plate: "C1", userId: "alice"), .carReturned(plate: "C1", userId: "alice"),
            .creditAdded(userId: "alice", amount: 5, newBalance: 7),
        ]
        for e in events {
            let (topics, data) = e.log
            #expect(try CarChainEvent(topics: topics, data: data) == e)
        }
        #expect(try CarChainEvent(topics: [Bytes32.zero], data: []) == nil)
        #expect(CarChainEvent.carRented(plate: "C1", userId: "u1").description == #"CarRented(plate: "C1", userId: "u1")"#)
    }
}
