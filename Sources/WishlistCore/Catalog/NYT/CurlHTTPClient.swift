import CCurl
import Foundation
import NIOPosix
import Synchronization

/// HTTP GET (and a form POST, for OpenID Connect's token request) over the system libcurl, on threads of its own so a slow API never blocks an event
/// loop: TLS verified, redirects refused, http(s) only, gzip accepted, the body capped. Cancelling
/// the calling task aborts the transfer. With ``ReachableAddresses``, every connection (each
/// address tried, each redirect) is checked against them as libcurl is about to make it.
public final class CurlHTTPClient: Sendable {
    public struct Response: Sendable {
        public let status: Int
        public let body: [UInt8]
    }

    /// Why a request failed, with libcurl's own words (its error buffer) for the log.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case timedOut(String)
        case tooLarge(limit: Int)
        case transport(String)
        /// libcurl refused an option, so the request was not sent rather than sent without it.
        case refusedOption(name: String, reason: String)
        /// The URL, or a redirect, led to an address outside ``ReachableAddresses``: no connection was made.
        case unreachableAddress

        public var description: String {
            switch self {
            case .timedOut(let message): return message
            case .tooLarge(let limit): return "response larger than \(limit) bytes"
            case .transport(let message): return message
            case .refusedOption(let name, let reason): return "libcurl refused option \(name): \(reason)"
            case .unreachableAddress: return "refused to connect to an internal address (loopback, a private network or the like)"
            }
        }
    }

    public struct Limits: Sendable {
        public var connectTimeoutSeconds = 10
        public var totalTimeoutSeconds = 30
        public var maximumBodyBytes = 4 * 1024 * 1024
        /// 0 refuses every redirect (the NYT's API makes none); Open Library's ISBN API and its
        /// covers answer with one, followed over http(s) only.
        public var maximumRedirects = 0

        public init() {}

        public init(connectTimeoutSeconds: Int, totalTimeoutSeconds: Int, maximumBodyBytes: Int, maximumRedirects: Int) {
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.totalTimeoutSeconds = totalTimeoutSeconds
            self.maximumBodyBytes = maximumBodyBytes
            self.maximumRedirects = maximumRedirects
        }
    }

    private let limits: Limits
    /// Where connections may go; nil: anywhere (a service the admin configured).
    private let reachable: ReachableAddresses?
    private let threadPool: NIOThreadPool

    public init(limits: Limits = Limits(), threads: Int = 1, reachable: ReachableAddresses? = nil) {
        Self.initializeCurlOnce
        self.limits = limits
        self.reachable = reachable
        self.threadPool = ThreadPools.process.start(threads: threads)
    }

    deinit {
        ThreadPools.process.close(threadPool)
    }

    /// curl_global_init is not thread-safe; Swift runs a static initialiser exactly once.
    static let initializeCurlOnce: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Throws `CancellationError` when the calling task is cancelled, within about a second:
    /// libcurl asks its progress callback at least that often whether to go on.
    public func get(_ url: String) async throws -> Response {
        try await send(Outgoing(url: url))
    }

    /// POSTs `form` (already `application/x-www-form-urlencoded`) with extra `headers` lines
    /// (`Name: value`), which never reach a log: libcurl's error text names no header.
    public func post(_ url: String, form: String, headers: [String] = []) async throws -> Response {
        try await send(Outgoing(url: url, form: form, headers: ["Content-Type: application/x-www-form-urlencoded"] + headers))
    }

    /// What to send: a GET when `form` is nil.
    struct Outgoing: Sendable {
        var url: String
        var form: String?
        var headers: [String] = []
    }

    /// The total timeout counts from this call, not from when a thread takes the transfer: behind
    /// slower transfers on the client's few threads, a caller would otherwise wait a timeout for
    /// each transfer ahead of it.
    private func send(_ outgoing: Outgoing) async throws -> Response {
        let limits = self.limits
        let deadline = ContinuousClock.now + .seconds(limits.totalTimeoutSeconds)
        let cancellation = TransferCancellation()
        let gate = reachable.map(AddressGate.init)
        return try await withTaskCancellationHandler {
            try await threadPool.runIfActive {
                try Self.perform(outgoing, limits: limits, deadline: deadline, cancellation: cancellation, gate: gate)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Set from the cancelled task, read by libcurl's progress callback on the transfer's thread.
    private final class TransferCancellation: Sendable {
        private let cancelled = Atomic(false)

        var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
        func cancel() { cancelled.store(true, ordering: .relaxed) }
    }

    /// Checks each address libcurl is about to connect to, on the transfer's thread, and remembers
    /// a refusal, which libcurl reports only as a failed connection.
    private final class AddressGate: Sendable {
        let reachable: ReachableAddresses
        private let refusal = Atomic(false)

        init(_ reachable: ReachableAddresses) { self.reachable = reachable }

        var refused: Bool { refusal.load(ordering: .relaxed) }
        func refuse() { refusal.store(true, ordering: .relaxed) }
    }

    /// Collects the body, refusing to grow past the limit (libcurl then stops the transfer).
    private final class BodyBuffer {
        var bytes: [UInt8] = []
        let limit: Int
        var overflowed = false

        init(limit: Int) { self.limit = limit }
    }

    /// Throws a `Failure` naming the option when libcurl refused it: ignoring a refusal could send
    /// a request without TLS checks, time limits or the protocol restriction.
    static func check(_ code: CURLcode, _ option: CURLoption) throws {
        guard code != CURLE_OK else { return }
        let name = ccurl_option_name(option).map { String(cString: $0) } ?? "number \(option.rawValue)"
        throw Failure.refusedOption(name: name, reason: String(cString: curl_easy_strerror(code)))
    }

    private static func perform(
        _ outgoing: Outgoing, limits: Limits, deadline: ContinuousClock.Instant, cancellation: TransferCancellation, gate: AddressGate?
    ) throws -> Response {
        if cancellation.isCancelled { throw CancellationError() }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .milliseconds(1) else {
            throw Failure.timedOut("waited \(limits.totalTimeoutSeconds) s behind other transfers without starting")
        }
        guard let handle = curl_easy_init() else { throw Failure.transport("could not start libcurl") }
        defer { curl_easy_cleanup(handle) }
        let buffer = BodyBuffer(limit: limits.maximumBodyBytes)
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }

        try configure(handle, url: outgoing.url, limits: limits, remainingMilliseconds: Int(remaining / .milliseconds(1)), errorText: errorText)
        let headerList = outgoing.headers.reduce(nil as UnsafeMutablePointer<curl_slist>?) { list, line in curl_slist_append(list, line) }
        defer { curl_slist_free_all(headerList) }
        if !outgoing.headers.isEmpty {
            guard headerList != nil else { throw Failure.transport("could not build the request's headers") }
            try check(ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)
        }
        if let form = outgoing.form {
            // COPYPOSTFIELDS copies the body and makes the request a POST.
            try check(ccurl_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, form), CURLOPT_COPYPOSTFIELDS)
        }
        try receiveBody(handle, into: buffer)
        try abortWhenCancelled(handle, cancellation)
        if let gate { try connectOnlyThrough(gate, handle) }
        let code = withExtendedLifetime((buffer, cancellation, gate)) { curl_easy_perform(handle) }

        if buffer.overflowed { throw Failure.tooLarge(limit: limits.maximumBodyBytes) }
        if code == CURLE_ABORTED_BY_CALLBACK, cancellation.isCancelled { throw CancellationError() }
        if code != CURLE_OK, let gate, gate.refused { throw Failure.unreachableAddress }
        guard code == CURLE_OK else {
            let detail = errorText[0] != 0 ? String(cString: errorText) : String(cString: curl_easy_strerror(code))
            let message = "\(detail) (curl error \(code.rawValue))"
            throw code == CURLE_OPERATION_TIMEDOUT ? Failure.timedOut(message) : Failure.transport(message)
        }
        var status = 0
        guard ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK else {
            throw Failure.transport("libcurl did not report the response's status")
        }
        return Response(status: status, body: buffer.bytes)
    }

    private static func configure(
        _ handle: UnsafeMutableRawPointer, url: String, limits: Limits, remainingMilliseconds: Int, errorText: UnsafeMutablePointer<CChar>
    ) throws {
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText), CURLOPT_ERRORBUFFER)
        try check(ccurl_setopt_string(handle, CURLOPT_URL, url), CURLOPT_URL)
        try check(ccurl_allow_only_http(handle), ccurl_protocols_option())
        try check(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, limits.maximumRedirects > 0 ? 1 : 0), CURLOPT_FOLLOWLOCATION)
        if limits.maximumRedirects > 0 {
            try check(ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, limits.maximumRedirects), CURLOPT_MAXREDIRS)
        }
        try check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), CURLOPT_NOSIGNAL)
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1), CURLOPT_SSL_VERIFYPEER)
        try check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2), CURLOPT_SSL_VERIFYHOST)
        try check(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, limits.connectTimeoutSeconds), CURLOPT_CONNECTTIMEOUT)
        // What is left of the total timeout after waiting for a thread (`send`).
        try check(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, min(remainingMilliseconds, limits.totalTimeoutSeconds * 1000)), CURLOPT_TIMEOUT_MS)
        try check(ccurl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""), CURLOPT_ACCEPT_ENCODING)
        try check(ccurl_setopt_string(handle, CURLOPT_USERAGENT, userAgent), CURLOPT_USERAGENT)
    }

    /// Names the app and its version, as Open Library asks of its callers.
    static let userAgent = "BestsellerWishlist/\(ServerFacts.version) (self-hosted; libcurl)"

    private static func receiveBody(_ handle: UnsafeMutableRawPointer, into buffer: BodyBuffer) throws {
        try check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(buffer).toOpaque()), CURLOPT_WRITEDATA)
        try check(ccurl_setopt_write_function(handle) { data, size, count, context in
            let buffer = Unmanaged<BodyBuffer>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard buffer.bytes.count + length <= buffer.limit else {
                buffer.overflowed = true
                return 0
            }
            buffer.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            return length
        }, CURLOPT_WRITEFUNCTION)
    }

    /// libcurl opens each connection's socket through this callback, with the address it resolved
    /// and is about to connect to: one outside the gate's gets no socket, and libcurl tries the
    /// next address or fails. A proxy from the environment (`http_proxy`) is not used, since the
    /// check would then see the proxy's address and never the one the URL names.
    private static func connectOnlyThrough(_ gate: AddressGate, _ handle: UnsafeMutableRawPointer) throws {
        try check(ccurl_setopt_string(handle, CURLOPT_PROXY, ""), CURLOPT_PROXY)
        try check(ccurl_setopt_pointer(handle, CURLOPT_OPENSOCKETDATA, Unmanaged.passUnretained(gate).toOpaque()), CURLOPT_OPENSOCKETDATA)
        try check(ccurl_setopt_opensocket_function(handle) { context, _, address in
            let gate = Unmanaged<AddressGate>.fromOpaque(context!).takeUnretainedValue()
            guard let address else { return CURL_SOCKET_BAD }
            var bytes = [UInt8](repeating: 0, count: 16)
            var port: Int32 = 0
            let count = Int(ccurl_connect_address(address, &bytes, &port))
            guard count > 0, gate.reachable.allows(address: Array(bytes.prefix(count)), port: Int(port)) else {
                gate.refuse()
                return CURL_SOCKET_BAD
            }
            return ccurl_open_socket(address)
        }, CURLOPT_OPENSOCKETFUNCTION)
    }

    /// libcurl calls the progress callback many times a second while data flows and about once a
    /// second while it waits; a non-zero answer ends the transfer.
    private static func abortWhenCancelled(_ handle: UnsafeMutableRawPointer, _ cancellation: TransferCancellation) throws {
        try check(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(cancellation).toOpaque()), CURLOPT_XFERINFODATA)
        try check(ccurl_setopt_xferinfo_function(handle) { context, _, _, _, _ in
            Unmanaged<TransferCancellation>.fromOpaque(context!).takeUnretainedValue().isCancelled ? 1 : 0
        }, CURLOPT_XFERINFOFUNCTION)
        try check(ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0), CURLOPT_NOPROGRESS)
    }
}
