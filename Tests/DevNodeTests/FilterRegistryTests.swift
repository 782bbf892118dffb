import Chain
import DevNode
import Foundation
import Synchronization
import Testing

/// The filter registry on a manual clock: geth's idle expiry (5 minutes by default) and the capacity bound.
@Suite struct FilterRegistryTests {
    /// A clock the test moves.
    final class ManualClock: Sendable {
        let start = ContinuousClock.now
        let offset = Mutex<Duration>(.zero)
        func advance(_ d: Duration) { offset.withLock { $0 += d } }
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
    }

    @Test func pollingKeepsAFilterAliveAndIdleOnesExpire() async {
        let clock = ManualClock()
        let registry = FilterRegistry(capacity: 10, idleTimeout: .seconds(300), now: { clock.now })
        let idle = await registry.install(.blocks, head: 0)
        let polled = await registry.install(.blocks, head: 0)
        for _ in 0..<10 {
            clock.advance(.seconds(60))
            #expect(await registry.filter(polled) != nil)
        }
        // 600 s after its last use: gone; the polled one was used a moment ago.
        #expect(await registry.filter(idle) == nil)
        #expect(await registry.filter(polled) != nil)
        #expect(await registry.count == 1)
        // Exactly at the timeout a filter still lives; just after it, it does not.
        let edge = await registry.install(.blocks, head: 0)
        clock.advance(.seconds(300))
        #expect(await registry.filter(edge) != nil)
        clock.advance(.seconds(301))
        #expect(await registry.filter(edge) == nil)
    }

    @Test func installingPastCapacityRemovesTheStalest() async {
        let clock = ManualClock()
        let registry = FilterRegistry(capacity: 3, idleTimeout: .seconds(300), now: { clock.now })
        var ids: [String] = []
        for _ in 0..<3 {
            ids.append(await registry.install(.blocks, head: 0))
            clock.advance(.seconds(1))
        }
        _ = await registry.filter(ids[0])  // the oldest is now the most recently used
        clock.advance(.seconds(1))
        _ = await registry.install(.blocks, head: 0)
        #expect(await registry.count == 3)
        #expect(await registry.filter(ids[1]) == nil)
        #expect(await registry.filter(ids[0]) != nil)
        #expect(await registry.filter(ids[2]) != nil)
    }

    @Test func advanceAtTheTopOfTheRangeDoesNotOverflow() async {
        let registry = FilterRegistry()
        let id = await registry.install(.blocks, head: .max)
        #expect(await registry.advance(id, to: .max) == nil)
        #expect(await registry.advance(id, to: 5) == nil)
        #expect(await registry.advance(id, to: 7) == 6...7)
    }

    @Test func idsAre128RandomBits() {
        let ids = (0..<1000).map { _ in FilterRegistry.newID() }
        #expect(Set(ids).count == 1000)
        for id in ids {
            #expect(id.hasPrefix("0x"))
            let digits = id.dropFirst(2)
            #expect(digits.count <= 32 && !digits.hasPrefix("0") && digits.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        // 15 ids in 16 have all 32 digits (a leading zero digit is dropped, as geth does).
        #expect(ids.filter { $0.count == 34 }.count > 800)
    }
}
