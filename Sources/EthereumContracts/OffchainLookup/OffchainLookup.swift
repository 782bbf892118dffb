import AsyncHTTPClient
import EthereumABI
import EthereumPrimitives
import EthereumTransactions
import EthereumWire
import Foundation
import NIOCore
import NIOHTTP1

/// CCIP-read (EIP-3668): a contract that needs data from outside the chain reverts with
/// `OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData)`; the client
/// asks the gateways at `urls` for the answer to `callData`, then calls `callbackFunction(answer, extraData)` on the same
/// contract, whose return value is the call's result.
///
/// Off by default: a call that meets the revert gets ``ContractError/reverted(_:)`` with it, as any revert. Turn it on
/// for any contract by wrapping the backend — `Contract(address:abi:backend: backend.followingOffchainLookups())`, or a
/// binding's `with(backend:)` — so every `eth_call` through it follows lookups under this policy. ``ENS`` turns it on
/// by default (ENSIP-10 resolvers rely on it).
public struct OffchainLookup: Sendable {
    /// Lookups followed in a row before giving up (a callback may revert with another lookup); EIP-3668 leaves the
    /// number to the client, web3.py and ethers use 4.
    public var maxRedirects: Int
    /// Seconds one gateway request may take.
    public var timeout: Double
    /// The largest gateway answer accepted, in bytes.
    public var maxResponseBytes: Int
    /// Whether `http://` gateways are asked (default: `https://` only).
    public var allowHTTP: Bool
    /// Whether gateways on loopback, private or link-local addresses given literally, or `localhost`, are asked
    /// (default: no, so a contract cannot make this process reach its own network). Host names are not resolved for
    /// the check.
    public var allowLocalHosts: Bool
    /// How gateways are reached (default: HTTP through AsyncHTTPClient, redirects not followed).
    public var transport: any OffchainLookupTransport

    public init(
        maxRedirects: Int = 4, timeout: Double = 10, maxResponseBytes: Int = 1 << 20, allowHTTP: Bool = false,
        allowLocalHosts: Bool = false, transport: any OffchainLookupTransport = HTTPOffchainLookupTransport()
    ) {
        self.maxRedirects = max(0, maxRedirects)
        self.timeout = min(max(timeout, 0.001), 3_600)
        self.maxResponseBytes = max(1, maxResponseBytes)
        self.allowHTTP = allowHTTP
        self.allowLocalHosts = allowLocalHosts
        self.transport = transport
    }

    /// 4 redirects, 10 s per request, 1 MiB answers, HTTPS gateways on public hosts.
    public static let `default` = OffchainLookup()

    /// For gateways on this machine (tests, a local gateway): HTTP and loopback hosts allowed.
    public static let local = OffchainLookup(allowHTTP: true, allowLocalHosts: true)
}

/// The `OffchainLookup` revert, decoded.
public struct OffchainLookupRequest: Sendable, Hashable {
    /// `OffchainLookup(address,string[],bytes,bytes4,bytes)`.
    public static let error = ABICustomError(
        name: "OffchainLookup",
        inputs: [
            ABIParameter(name: "sender", type: .address), ABIParameter(name: "urls", type: .array(.string, count: nil)),
            ABIParameter(name: "callData", type: .bytes), ABIParameter(name: "callbackFunction", type: .fixedBytes(4)),
            ABIParameter(name: "extraData", type: .bytes),
        ])

    public var sender: Address
    public var urls: [String]
    public var callData: [UInt8]
    public var callbackFunction: [UInt8]
    public var extraData: [UInt8]

    public init(sender: Address, urls: [String], callData: [UInt8], callbackFunction: [UInt8], extraData: [UInt8]) {
        self.sender = sender
        self.urls = urls
        self.callData = callData
        self.callbackFunction = callbackFunction
        self.extraData = extraData
    }

    /// The lookup a revert asks for, or nil when the revert data is not a well-formed `OffchainLookup`.
    public init?(revertData data: [UInt8]) {
        guard data.count >= 4, ABISelector(prefixOf: data) == Self.error.selector,
            let values = try? ABIDecoder.decode(Self.error.inputs.map(\.type), from: data.dropFirst(4)), values.count == 5,
            case .address(let sender) = values[0], case .array(let urls) = values[1], case .bytes(let callData) = values[2],
            case .fixedBytes(let callback) = values[3], case .bytes(let extra) = values[4]
        else { return nil }
        var strings: [String] = []
        for url in urls {
            guard case .string(let s) = url else { return nil }
            strings.append(s)
        }
        self.init(sender: sender, urls: strings, callData: callData, callbackFunction: callback, extraData: extra)
    }

    /// The revert data of this lookup.
    public var revertData: [UInt8] {
        (try? Self.error.encode([.address(sender), .array(urls.map { .string($0) }), .bytes(callData), .fixedBytes(callbackFunction), .bytes(extraData)])) ?? []
    }

    /// The callback's calldata: `callbackFunction ‖ abi.encode(bytes response, bytes extraData)`.
    public func callbackData(response: [UInt8]) -> [UInt8] {
        callbackFunction + ((try? ABIEncoder.encode([.bytes(response), .bytes(extraData)], as: [.bytes, .bytes])) ?? [])
    }
}

/// Why a CCIP-read lookup gave no result. Every gateway failure names the gateway (its URL as the template gave it).
public enum OffchainLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The revert's `sender` is not the contract called: a lookup from a nested call, which EIP-3668 forbids following.
    case senderMismatch(sender: Address, called: Address?)
    /// More lookups in a row than the policy follows.
    case tooManyRedirects(max: Int)
    /// The lookup names no gateway.
    case noGateways
    /// A gateway answered 4xx: EIP-3668 stops there.
    case gatewayRefused(url: String, status: Int, message: String)
    /// No gateway gave an answer; each one's failure, in order.
    case allGatewaysFailed([GatewayFailure])

    /// One gateway's failure.
    public struct GatewayFailure: Sendable, Hashable, CustomStringConvertible {
        public var url: String
        public var reason: String
        public init(url: String, reason: String) {
            self.url = url
            self.reason = reason
        }
        public var description: String { "\(url): \(reason)" }
    }

    public var description: String {
        switch self {
        case .senderMismatch(let sender, let called):
            return "CCIP-read: the OffchainLookup's sender \(sender.checksummed) is not the contract called (\(called?.checksummed ?? "none")): a lookup from a nested call is not followed"
        case .tooManyRedirects(let max):
            return "CCIP-read: more than \(max) OffchainLookup reverts in a row (the callback kept asking for another lookup)"
        case .noGateways:
            return "CCIP-read: the OffchainLookup names no gateway URL"
        case .gatewayRefused(let url, let status, let message):
            return "CCIP-read: the gateway \(url) refused the request with HTTP \(status)\(message.isEmpty ? "" : ": \(message)")"
        case .allGatewaysFailed(let failures):
            return "CCIP-read: no gateway answered (" + failures.map(\.description).joined(separator: "; ") + ")"
        }
    }
}

/// How a gateway is asked: one HTTP request, its status and body. The default is ``HTTPOffchainLookupTransport``;
/// tests and apps may put their own (a proxy, a cache, a recorder).
public protocol OffchainLookupTransport: Sendable {
    /// Sends `GET url` (`body` nil) or `POST url` with a JSON `body`, and returns the status and at most `maxBytes` of
    /// the answer (more is an error).
    func send(url: String, body: [UInt8]?, timeout: Double, maxBytes: Int) async throws -> (status: Int, body: [UInt8])
}

/// Gateway requests over AsyncHTTPClient, through one process-wide client that does not follow HTTP redirects (a
/// gateway that redirects has failed, as EIP-3668's reference clients treat it).
public struct HTTPOffchainLookupTransport: OffchainLookupTransport {
    public init() {}

    public func send(url: String, body: [UInt8]?, timeout: Double, maxBytes: Int) async throws -> (status: Int, body: [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.method = body == nil ? .GET : .POST
        request.headers.add(name: "Accept", value: "application/json")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let nanoseconds = Int64(min(timeout, 3_600) * 1_000_000_000)
        let response = try await offchainLookupClient.execute(request, timeout: .nanoseconds(nanoseconds))
        let collected = try await response.body.collect(upTo: maxBytes)
        return (Int(response.status.code), Array(collected.readableBytesView))
    }
}

private let offchainLookupClient: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()

extension OffchainLookup {
    /// Asks the lookup's gateways in order for the answer to its `callData`, as EIP-3668 says: `{sender}` and `{data}`
    /// in a URL become the lowercase hex of the sender and of the call data; a URL with `{data}` is fetched with GET,
    /// one without with POST of `{"data": …, "sender": …}`; a 2xx answer's JSON `data` is the answer; a 4xx answer stops
    /// the lookup; any other failure moves on to the next URL.
    public func fetch(_ lookup: OffchainLookupRequest) async throws(OffchainLookupError) -> [UInt8] {
        guard !lookup.urls.isEmpty else { throw .noGateways }
        let sender = lookup.sender.lowercasedHex
        let data = Hex.encode(lookup.callData)
        var failures: [OffchainLookupError.GatewayFailure] = []
        for template in lookup.urls {
            let url = template.replacingOccurrences(of: "{sender}", with: sender).replacingOccurrences(of: "{data}", with: data)
            if let why = refusal(for: url) {
                failures.append(.init(url: url, reason: why))
                continue
            }
            let body: [UInt8]? = template.contains("{data}") ? nil : Array("{\"data\":\"\(data)\",\"sender\":\"\(sender)\"}".utf8)
            let answer: (status: Int, body: [UInt8])
            do {
                answer = try await transport.send(url: url, body: body, timeout: timeout, maxBytes: maxResponseBytes)
            } catch {
                failures.append(.init(url: url, reason: "\(error)"))
                continue
            }
            if (400...499).contains(answer.status) {
                throw .gatewayRefused(url: url, status: answer.status, message: Self.message(answer.body))
            }
            guard (200...299).contains(answer.status) else {
                failures.append(.init(url: url, reason: "HTTP \(answer.status)\(Self.message(answer.body).isEmpty ? "" : ": " + Self.message(answer.body))"))
                continue
            }
            do {
                return try Self.data(of: answer.body)
            } catch {
                failures.append(.init(url: url, reason: "\(error)"))
            }
        }
        throw .allGatewaysFailed(failures)
    }

    /// Why a gateway URL is not asked under this policy (scheme, local host), or nil when it is.
    public func refusal(for url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else { return "not a URL" }
        guard scheme == "https" || (scheme == "http" && allowHTTP) else {
            return scheme == "http" ? "http:// gateways are not allowed (OffchainLookup(allowHTTP: true) allows them)" : "the scheme \(scheme) is not allowed"
        }
        guard let host = parsed.host?.lowercased(), !host.isEmpty else { return "no host" }
        if !allowLocalHosts && Self.isLocal(host) {
            return "\(host) is a local address (OffchainLookup(allowLocalHosts: true) allows it)"
        }
        return nil
    }

    /// `localhost`, and literal loopback, private, link-local, unspecified and unique-local addresses.
    static func isLocal(_ host: String) -> Bool {
        let h = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h.hasSuffix(".localhost") { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { UInt8($0) }
        if parts.count == 4 && octets.count == 4 {
            let (a, b) = (octets[0], octets[1])
            return a == 127 || a == 10 || a == 0 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168) || (a == 169 && b == 254)
        }
        if h.contains(":") {
            return h == "::1" || h == "::" || h.hasPrefix("fe8") || h.hasPrefix("fe9") || h.hasPrefix("fea") || h.hasPrefix("feb")
                || h.hasPrefix("fc") || h.hasPrefix("fd") || h.hasPrefix("::ffff:127.") || h.hasPrefix("::ffff:10.") || h.hasPrefix("::ffff:192.168.")
        }
        return false
    }

    struct ResponseError: Error, CustomStringConvertible { let description: String }

    /// The `data` of a gateway's JSON answer.
    static func data(of body: [UInt8]) throws -> [UInt8] {
        let json: JSONValue
        do { json = try JSONValue(parsing: body) } catch { throw ResponseError(description: "the answer is not JSON (\(body.count) bytes)") }
        guard case .object = json, let value = json["data"] else {
            throw ResponseError(description: "the answer has no \"data\" field")
        }
        guard case .string(let hex) = value, let bytes = try? Hex.decode(hex) else {
            throw ResponseError(description: "the answer's \"data\" is not a hex string")
        }
        return bytes
    }

    /// A gateway's error message (`{"message": …}`, as EIP-3668 suggests), else the start of its body.
    static func message(_ body: [UInt8]) -> String {
        if let json = try? JSONValue(parsing: body), case .string(let m)? = json["message"] { return String(m.prefix(300)) }
        let text = String(decoding: body.prefix(300), as: UTF8.self)
        return text.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" }) ? text.trimmingCharacters(in: .whitespacesAndNewlines) : ""
    }
}

/// A ``ContractBackend`` that follows CCIP-read: a call reverting with `OffchainLookup` from the contract called is
/// answered through its gateways and the callback, up to the policy's redirects; everything else goes to the backend
/// it wraps unchanged. Make one with ``ContractBackend/followingOffchainLookups(_:)``.
public struct OffchainLookupBackend: ContractBackend {
    /// The backend calls go to.
    public let base: any ContractBackend
    /// The policy.
    public let policy: OffchainLookup

    public init(_ base: any ContractBackend, policy: OffchainLookup = .default) {
        self.base = (base as? OffchainLookupBackend)?.base ?? base
        self.policy = policy
    }

    public var defaultSender: Address? { base.defaultSender }
    public func chainID() async throws -> UInt64 { try await base.chainID() }
    public func estimateGas(_ request: CallRequest, at block: BlockTag) async throws -> GasEstimate { try await base.estimateGas(request, at: block) }
    public func send(_ request: TransactionRequest, from: Address?) async throws -> TransactionOutcome { try await base.send(request, from: from) }
    public func logs(_ filter: LogFilter) async throws -> [RPCLog] { try await base.logs(filter) }
    public func code(at address: Address, block: BlockTag) async throws -> [UInt8] { try await base.code(at: address, block: block) }

    /// The call; an `OffchainLookup` revert from the contract called is followed (see ``OffchainLookup``), and the
    /// callback's outcome returned (a revert of the callback is a revert of the call).
    public func call(_ request: CallRequest, at block: BlockTag) async throws -> CallOutcome {
        var current = request
        var redirects = 0
        while true {
            let outcome = try await base.call(current, at: block)
            guard case .reverted(let data) = outcome, let lookup = OffchainLookupRequest(revertData: data) else { return outcome }
            guard lookup.sender == request.to else { throw OffchainLookupError.senderMismatch(sender: lookup.sender, called: request.to) }
            guard redirects < policy.maxRedirects else { throw OffchainLookupError.tooManyRedirects(max: policy.maxRedirects) }
            redirects += 1
            let response = try await policy.fetch(lookup)
            current.data = lookup.callbackData(response: response)
        }
    }
}

extension ContractBackend {
    /// This backend with CCIP-read (EIP-3668) followed in calls, under `policy`.
    public func followingOffchainLookups(_ policy: OffchainLookup = .default) -> OffchainLookupBackend {
        OffchainLookupBackend(self, policy: policy)
    }
}
