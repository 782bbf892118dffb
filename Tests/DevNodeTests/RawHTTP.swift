import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP connection to a loopback port with plain POSIX sockets, for sending exactly the bytes a test
/// wants (a forged `Host`, half a request) and reading exactly what the server answers.
final class RawConnection {
    let fd: Int32

    /// Connects to 127.0.0.1:`port`; reads give up after `readTimeout`.
    init(port: Int, readTimeout: Double = 10) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw RawHTTPError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw RawHTTPError("connect to port \(port) failed")
        }
        var timeout = timeval()
        timeout.tv_sec = .init(Int(readTimeout))
        timeout.tv_usec = .init(Int((readTimeout - Double(Int(readTimeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { socketSend(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw RawHTTPError("send failed") }
            sent += n
        }
    }

    /// Closes the sending side (a half-close): the server reads the end of the input, and can still answer.
    func shutdownWrite() {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Everything until the server closes the connection (or the read timeout passes: then what came).
    /// `closed` tells which.
    func readAll() -> (bytes: [UInt8], closed: Bool) {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                out += buffer[0..<n]
            } else {
                return (out, n == 0)
            }
        }
    }
}

extension RawConnection {
    /// Reads until `count` whole responses have come (a body by its `Content-Length`; none with 204), and returns
    /// them in order; fewer when the connection ends or a read times out first.
    func readResponses(_ count: Int) -> [RawResponse] {
        var bytes: [UInt8] = []
        var responses: [RawResponse] = []
        var start = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while responses.count < count {
            // Whole responses already received.
            if let split = bytes[start...].firstRange(of: [13, 10, 13, 10]) {
                let head = String(decoding: bytes[start..<split.lowerBound], as: UTF8.self).lowercased()
                let length = head.components(separatedBy: "\r\n")
                    .first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if bytes.count >= split.upperBound + length {
                    let end = split.upperBound + length
                    if let response = RawResponse(Array(bytes[start..<end])) { responses.append(response) }
                    start = end
                    continue
                }
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return responses
    }
}

/// `send(2)` without SIGPIPE (the method of the same name hides the C function inside the class).
private func socketSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    return Darwin.send(fd, bytes, count, 0)
    #endif
}

struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A parsed HTTP/1.1 response.
struct RawResponse {
    var status: Int
    /// Header names lowercased.
    var headers: [String: String]
    var body: String

    init?(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.hasPrefix("HTTP/1.1 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return nil }
        self.status = status
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
        self.body = String(text[split.upperBound...])
    }

    /// An HTTP/1.1 request: `Host`, `headers` (sorted by name), `Content-Type: application/json` and `Content-Length`
    /// unless it is an `OPTIONS` without a body, and `Connection: close` when `close`.
    static func request(
        method: String = "POST", path: String = "/", host: String? = "127.0.0.1", headers: [String: String] = [:],
        body: String = "", close: Bool = false
    ) -> String {
        var lines = ["\(method) \(path) HTTP/1.1"]
        if let host { lines.append("Host: \(host)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { lines.append("\(name): \(value)") }
        if method != "OPTIONS" || !body.isEmpty {
            lines.append("Content-Type: application/json")
            lines.append("Content-Length: \(body.utf8.count)")
        }
        if close { lines.append("Connection: close") }
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    /// Sends one request (with `Connection: close`) and reads the answer.
    static func send(
        port: Int, method: String = "POST", path: String = "/", host: String? = "127.0.0.1", headers: [String: String] = [:],
        body: String = ""
    ) throws -> RawResponse {
        let connection = try RawConnection(port: port)
        try connection.send(request(method: method, path: path, host: host, headers: headers, body: body, close: true))
        let (bytes, _) = connection.readAll()
        guard let response = RawResponse(bytes) else {
            throw RawHTTPError("no HTTP response: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        return response
    }
}
