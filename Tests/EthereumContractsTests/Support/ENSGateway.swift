import EthereumContracts
import Foundation
import Hummingbird
import Logging

/// The CCIP-read gateway the ENS tests serve on a loopback port, as EIP-3668 has gateways answer:
/// `GET /gateway/{sender}/{data}.json` and `POST /gateway/{sender}.json` with `{"data", "sender"}`, both answering
/// `{"data": "0x…"}` from ``ENSGatewayAnswers``; `GET /fail/500/…` always answers 500 (a gateway down). It counts the
/// requests of each kind, so the tests can tell which URL template a client used.
final class ENSGateway: @unchecked Sendable {
    // @unchecked: `counts` is only touched under `lock`; `task` and `url` are set once in start().
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var task: Task<Void, Never>?
    let answers: ENSGatewayAnswers
    private(set) var url = ""

    private init(answers: ENSGatewayAnswers) { self.answers = answers }

    static func start(answers: ENSGatewayAnswers) async throws -> ENSGateway {
        let gateway = ENSGateway(answers: answers)
        let router = Router()
        router.get("/gateway/:sender/:data") { _, context -> Response in
            gateway.count("GET")
            let data = String((context.parameters.get("data") ?? "").replacingOccurrences(of: ".json", with: ""))
            return gateway.reply(sender: context.parameters.get("sender") ?? "", data: data)
        }
        router.post("/gateway/:sender") { request, _ -> Response in
            gateway.count("POST")
            let body = try await request.body.collect(upTo: 1 << 20)
            guard let json = try? JSONValue(parsing: Array(body.readableBytesView)), case .string(let data)? = json["data"],
                case .string(let sender)? = json["sender"]
            else { return Self.json(400, #"{"message":"the body must be {\"data\", \"sender\"}"}"#) }
            return gateway.reply(sender: sender, data: data)
        }
        router.get("/fail/500/:sender/:data") { _, _ -> Response in
            gateway.count("fail")
            return Self.json(500, #"{"message":"gateway down"}"#)
        }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "ens-gateway")
        logger.logLevel = .critical  // stopping by cancellation logs errors that mean nothing here
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        gateway.task = Task { try? await app.runService(gracefulShutdownSignals: []) }
        var iterator = stream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw GatewayError(description: "the gateway did not start") }
        gateway.url = "http://127.0.0.1:\(port)"
        return gateway
    }

    struct GatewayError: Error, CustomStringConvertible { let description: String }

    func stop() { task?.cancel() }

    /// Requests so far: "GET", "POST", "fail".
    func requests(_ kind: String) -> Int { lock.withLock { counts[kind, default: 0] } }

    private func count(_ kind: String) { lock.withLock { counts[kind, default: 0] += 1 } }

    private func reply(sender: String, data: String) -> Response {
        guard let resolver = try? Address(sender), let callData = try? Hex.decode(data) else {
            return Self.json(400, #"{"message":"bad sender or data"}"#)
        }
        guard let response = answers.respond(sender: resolver, callData: callData) else {
            return Self.json(404, #"{"message":"no such record"}"#)
        }
        return Self.json(200, "{\"data\":\"\(Hex.encode(response))\"}")
    }

    private static func json(_ status: Int, _ body: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
