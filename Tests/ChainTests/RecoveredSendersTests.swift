import Chain
import EthereumPrimitives
import EthereumTransactions
import Testing

/// The hand-over of senders recovered ahead of a batch's submissions (``RecoveredSenders``): whichever of the worker
/// and the submission comes first, the submission gets the sender exactly once, nothing is recovered twice except the
/// one transaction both were on at the same instant, and no entry outlives its submission.
@Suite struct RecoveredSendersTests {
    static func hash(_ i: UInt8) -> Bytes32 { Bytes32([UInt8](repeating: i, count: 32))! }
    static let sender = Address(bytes: [UInt8](repeating: 0xAB, count: 20))!

    @Test func theWorkerFirstHandsTheSenderOver() throws {
        let store = RecoveredSenders()
        #expect(store.enqueue([Self.hash(1), Self.hash(2)]) == [Self.hash(1), Self.hash(2)])
        #expect(store.claim(Self.hash(1)))
        #expect(!store.claim(Self.hash(1)))  // claimed once
        store.finish(Self.hash(1), .success(Self.sender))
        #expect(try store.take(Self.hash(1))?.get() == Self.sender)
        #expect(store.take(Self.hash(1)) == nil)  // taken once
        #expect(store.count == 1)  // hash 2 is still queued
    }

    @Test func theSubmissionFirstTakesItOffTheQueue() {
        let store = RecoveredSenders()
        _ = store.enqueue([Self.hash(1)])
        #expect(store.take(Self.hash(1)) == nil)  // the submission recovers it itself
        #expect(!store.claim(Self.hash(1)))  // so the worker skips it
        #expect(store.count == 0)
    }

    @Test func aSubmissionDuringTheWorkersRecoveryLeavesNothingBehind() {
        let store = RecoveredSenders()
        _ = store.enqueue([Self.hash(1)])
        #expect(store.claim(Self.hash(1)))
        #expect(store.take(Self.hash(1)) == nil)  // the worker is on it: the submission recovers it too
        store.finish(Self.hash(1), .success(Self.sender))
        #expect(store.count == 0)  // the worker's answer is dropped
        #expect(store.take(Self.hash(1)) == nil)
    }

    @Test func aFailedRecoveryIsHandedOverAsTheError() {
        let store = RecoveredSenders()
        _ = store.enqueue([Self.hash(3)])
        #expect(store.claim(Self.hash(3)))
        store.finish(Self.hash(3), .failure(.recoveryFailed))
        #expect(throws: TransactionError.recoveryFailed) { try store.take(Self.hash(3))?.get() }
    }

    @Test func theStoreIsBounded() {
        let store = RecoveredSenders()
        let many = (0..<(RecoveredSenders.capacity + 10)).map { i in
            Bytes32((0..<32).map { UInt8(truncatingIfNeeded: i >> (8 * ($0 % 4))) })!
        }
        #expect(store.enqueue(many).count == RecoveredSenders.capacity)
        #expect(store.count == RecoveredSenders.capacity)
        // A later batch drops what is left: a worker finishing an entry dropped so keeps nothing.
        #expect(store.claim(many[0]))
        #expect(store.enqueue([Self.hash(9)]) == [Self.hash(9)])
        store.finish(many[0], .success(Self.sender))
        #expect(store.count == 1)
        #expect(store.take(many[0]) == nil)
    }
}
