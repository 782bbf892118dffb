import CarChain
import CarChainKit
import Foundation

/// The fleet as the map shows it at one chain head: the registry's cars and each one's availability from the
/// contract. Made once per head block (and registry change) and shared by every read until the next one, so a map
/// of 1,000 cars costs 1,000 `getCar` calls per block rather than per request; concurrent reads at a new head
/// wait for one computation.
actor FleetSnapshots {
    /// One snapshot.
    struct Snapshot: Sendable {
        var head: UInt64
        var cars: [FleetCar]
        var availability: [String: CarAvailability]
    }

    /// What a snapshot depends on: the head and the registry file's state.
    private struct Key: Equatable {
        var head: UInt64
        var registry: RegistryStamp
    }

    /// The registry file's modification time and size (a rewrite changes one of them).
    struct RegistryStamp: Equatable {
        var modified: Date?
        var size: Int?
        /// Bumped by the server's own writes, so a write within the file system's time resolution is seen.
        var generation: Int
    }

    private let registry: FleetRegistry
    private var current: (key: Key, task: Task<Snapshot, any Error>)?
    private var generation = 0

    init(registry: FleetRegistry) {
        self.registry = registry
    }

    /// The snapshot at `head`, made with `contract` when the last one is stale.
    func snapshot(head: UInt64, contract: CarChainContract) async throws -> Snapshot {
        let key = Key(head: head, registry: stamp())
        if let current, current.key == key { return try await current.task.value }
        let registry = self.registry
        let task = Task<Snapshot, any Error> {
            let cars = try registry.cars()
            let availability = try await FleetChain.availability(of: cars, contract: contract)
            return Snapshot(head: head, cars: cars, availability: availability)
        }
        current = (key, task)
        do {
            return try await task.value
        } catch {
            // A failed snapshot is not kept: the next read tries again.
            if self.current?.key == key { self.current = nil }
            throw error
        }
    }

    /// Notes a registry write by this server.
    func registryChanged() {
        generation += 1
        current = nil
    }

    private func stamp() -> RegistryStamp {
        let attributes = try? FileManager.default.attributesOfItem(atPath: registry.path)
        return RegistryStamp(
            modified: attributes?[.modificationDate] as? Date, size: (attributes?[.size] as? NSNumber)?.intValue, generation: generation)
    }
}
