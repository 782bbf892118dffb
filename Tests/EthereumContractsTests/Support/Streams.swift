import EthereumContracts
import Foundation

/// What a stream delivered so far, read while it keeps running.
actor Collected<Element: Sendable> {
    private(set) var items: [Element] = []
    private var failure: (any Error)?
    private var ended = false

    func append(_ item: Element) { items.append(item) }
    func end(_ error: (any Error)?) {
        ended = true
        failure = error
    }

    /// Waits until `count` items came (true), or the stream ended or `seconds` passed (false).
    func wait(for count: Int, seconds: Double = 30) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while items.count < count && !ended && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return items.count >= count
    }

    var error: (any Error)? { failure }
}

enum Streams {
    /// Iterates `stream` in a task of its own into a ``Collected``; cancel the task to stop it.
    static func collect<Element: Sendable>(_ stream: AsyncThrowingStream<Element, any Error>) -> (Collected<Element>, Task<Void, Never>) {
        let box = Collected<Element>()
        let task = Task {
            do {
                for try await item in stream { await box.append(item) }
                await box.end(nil)
            } catch {
                await box.end(error)
            }
        }
        return (box, task)
    }
}
