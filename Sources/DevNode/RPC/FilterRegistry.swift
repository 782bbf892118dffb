import Chain
import EthereumPrimitives

/// The installed `eth_newFilter` / `eth_newBlockFilter` filters: each remembers the last block it
/// reported, so `eth_getFilterChanges` returns only what is new. At most ``maxFilters`` live at once
/// (the oldest is dropped), so a client that never uninstalls cannot grow the node without bound.
actor FilterRegistry {
    enum Kind {
        case logs(LogFilter)
        case blocks
    }

    struct Filter {
        var kind: Kind
        /// The last block whose changes were reported.
        var lastBlock: UInt64
    }

    static let maxFilters = 1024

    private var filters: [String: Filter] = [:]
    private var order: [String] = []
    private var nextID: UInt64 = 1

    /// Installs a filter that reports changes after `head`; returns its id.
    func install(_ kind: Kind, head: UInt64) -> String {
        let id = "0x" + String(nextID, radix: 16)
        nextID += 1
        filters[id] = Filter(kind: kind, lastBlock: head)
        order.append(id)
        if order.count > Self.maxFilters {
            let oldest = order.removeFirst()
            filters[oldest] = nil
        }
        return id
    }

    func filter(_ id: String) -> Filter? { filters[id] }

    /// Marks blocks up to `head` as reported; returns the block range not reported yet (nil if none).
    func advance(_ id: String, to head: UInt64) -> ClosedRange<UInt64>? {
        guard var filter = filters[id] else { return nil }
        let from = filter.lastBlock + 1
        // After evm_revert the head can be below the last report: start over from the new head.
        filter.lastBlock = head
        filters[id] = filter
        return from <= head ? from...head : nil
    }

    func uninstall(_ id: String) -> Bool {
        guard filters.removeValue(forKey: id) != nil else { return false }
        order.removeAll { $0 == id }
        return true
    }
}
