import CCurl
import Foundation
import NIOPosix

/// HTTP GET over the system libcurl, on threads of its own so a slow API never blocks an event
/// loop: TLS verified, redirects refused, http(s) only, gzip accepted, the body capped.
public final class CurlHTTPClient: Sendable {
    public struct Response: Sendable {
        public let status: Int
        public let body: [UInt8]
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case timedOut
        case tooLarge(limit: Int)
        case transport(String)

        public var description: String {
            switch self {
            case .timedOut: return "timed out"
            case .tooLarge(let limit): return "response larger than \(limit) bytes"
            case .transport(let message): return message
            }
        }
    }

    public struct Limits: Sendable {
        public var connectTimeoutSeconds = 10
        public var totalTimeoutSeconds = 30
        public var maximumBodyBytes = 4 * 1024 * 1024

        public init() {}
    }

    private let limits: Limits
    private let threadPool: NIOThreadPool

    public init(limits: Limits = Limits(), threads: Int = 1) {
        Self.initializeCurlOnce
        self.limits = limits
        self.threadPool = NIOThreadPool(numberOfThreads: threads)
        self.threadPool.start()
    }

    deinit {
        threadPool.shutdownGracefully { _ in }
    }

    /// curl_global_init is not thread-safe; Swift runs a static initialiser exactly once.
    private static let initializeCurlOnce: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    public func get(_ url: String) async throws -> Response {
        let limits = self.limits
        return try await threadPool.runIfActive { try Self.perform(url: url, limits: limits) }
    }

    /// Collects the body, refusing to grow past the limit (libcurl then stops the transfer).
    private final class BodyBuffer {
        var bytes: [UInt8] = []
        let limit: Int
        var overflowed = false

        init(limit: Int) { self.limit = limit }
    }

    private static func perform(url: String, limits: Limits) throws -> Response {
        guard let handle = curl_easy_init() else { throw Failure.transport("could not start libcurl") }
        defer { curl_easy_cleanup(handle) }
        let buffer = BodyBuffer(limit: limits.maximumBodyBytes)

        ccurl_setopt_string(handle, CURLOPT_URL, url)
        ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, limits.connectTimeoutSeconds)
        ccurl_setopt_long(handle, CURLOPT_TIMEOUT, limits.totalTimeoutSeconds)
        ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        ccurl_setopt_string(handle, CURLOPT_USERAGENT, "BestsellerWishlist/1.0 (libcurl)")
        ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(buffer).toOpaque())
        ccurl_setopt_write_function(handle) { data, size, count, context in
            let buffer = Unmanaged<BodyBuffer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard buffer.bytes.count + length <= buffer.limit else {
                buffer.overflowed = true
                return 0
            }
            buffer.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            return length
        }

        let code = withExtendedLifetime(buffer) { curl_easy_perform(handle) }
        if buffer.overflowed { throw Failure.tooLarge(limit: limits.maximumBodyBytes) }
        switch code {
        case CURLE_OK: break
        case CURLE_OPERATION_TIMEDOUT: throw Failure.timedOut
        default: throw Failure.transport(String(cString: curl_easy_strerror(code)))
        }
        var status = 0
        ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return Response(status: status, body: buffer.bytes)
    }
}
