import Synchronization

/// The server's counters and histograms, kept in memory and written in Prometheus' text format
/// (version 0.0.4) for `GET /metrics`.
///
/// Ours rather than swift-metrics' global `MetricsSystem`: that can be bootstrapped once per
/// process, while the tests build many servers in one, each of which must count only its own.
public final class MetricsRegistry: Sendable {
    /// A metric's name, kind and help line; every series is declared once, in `Metric`.
    public struct Metric: Sendable, Hashable {
        public enum Kind: String, Sendable { case counter, gauge, histogram }

        public let name: String
        public let kind: Kind
        public let help: String
    }

    /// Label names and values, in a fixed order.
    typealias Labels = [LabelPair]

    struct LabelPair: Hashable, Comparable {
        let name: String
        let value: String
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.name < rhs.name }
    }

    struct Histogram {
        var bucketCounts: [Int]
        var count = 0
        var sum = 0.0
    }

    /// Upper bounds of the latency buckets, in seconds: from a cached page to a slow Argon2 wait.
    static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var counters: [Metric: [Labels: Double]] = [:]
        var histograms: [Metric: [Labels: Histogram]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func increment(_ metric: Metric, _ labels: [(String, String)] = [], by amount: Double = 1) {
        let key = Self.labels(labels)
        state.withLock { $0.counters[metric, default: [:]][key, default: 0] += amount }
    }

    public func observe(_ metric: Metric, _ labels: [(String, String)] = [], value: Double) {
        let key = Self.labels(labels)
        state.withLock { state in
            var histogram = state.histograms[metric, default: [:]][key] ?? Histogram(bucketCounts: Array(repeating: 0, count: Self.latencyBuckets.count))
            for (index, bound) in Self.latencyBuckets.enumerated() where value <= bound {
                histogram.bucketCounts[index] += 1
            }
            histogram.count += 1
            histogram.sum += value
            state.histograms[metric, default: [:]][key] = histogram
        }
    }

    /// Every counter and histogram, then `gauges` (read when the page is asked for), as text.
    public func render(gauges: [(Metric, Double)]) -> String {
        let (counters, histograms) = state.withLock { ($0.counters, $0.histograms) }
        var output = ""
        for metric in counters.keys.sorted(by: { $0.name < $1.name }) {
            Self.header(metric, into: &output)
            for (labels, value) in counters[metric]!.sorted(by: { $0.key.description < $1.key.description }) {
                output += "\(metric.name)\(Self.format(labels)) \(Self.format(value))\n"
            }
        }
        for metric in histograms.keys.sorted(by: { $0.name < $1.name }) {
            Self.header(metric, into: &output)
            for (labels, histogram) in histograms[metric]!.sorted(by: { $0.key.description < $1.key.description }) {
                for (bound, count) in zip(Self.latencyBuckets, histogram.bucketCounts) {
                    output += "\(metric.name)_bucket\(Self.format(labels + [LabelPair(name: "le", value: Self.format(bound))])) \(count)\n"
                }
                output += "\(metric.name)_bucket\(Self.format(labels + [LabelPair(name: "le", value: "+Inf")])) \(histogram.count)\n"
                output += "\(metric.name)_sum\(Self.format(labels)) \(Self.format(histogram.sum))\n"
                output += "\(metric.name)_count\(Self.format(labels)) \(histogram.count)\n"
            }
        }
        for (metric, value) in gauges {
            Self.header(metric, into: &output)
            output += "\(metric.name) \(Self.format(value))\n"
        }
        return output
    }

    // MARK: Text format

    private static func labels(_ pairs: [(String, String)]) -> Labels {
        pairs.map { LabelPair(name: $0.0, value: $0.1) }.sorted()
    }

    private static func header(_ metric: Metric, into output: inout String) {
        output += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.kind.rawValue)\n"
    }

    private static func format(_ labels: Labels) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.name)=\"\(escaped($0.value))\"" }.joined(separator: ",") + "}"
    }

    /// Label values escape `\`, `"` and line feeds; nothing else.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension MetricsRegistry.LabelPair: CustomStringConvertible {
    var description: String { "\(name)=\(value)" }
}

extension MetricsRegistry.Metric {
    public static let httpRequests = Self(name: "wishlist_http_requests_total", kind: .counter, help: "HTTP requests answered, by method, route pattern and status.")
    public static let httpDuration = Self(name: "wishlist_http_request_duration_seconds", kind: .histogram, help: "Time to answer a request, by route pattern.")
    public static let signIns = Self(name: "wishlist_sign_ins_total", kind: .counter, help: "Sign-in attempts by outcome: success, rejected (wrong name or password), throttled.")
    public static let throttled = Self(name: "wishlist_throttled_total", kind: .counter, help: "Requests refused for too many attempts, by action.")
    public static let catalogRefreshes = Self(name: "wishlist_catalog_refreshes_total", kind: .counter, help: "Scheduled catalog refreshes by outcome: success, failure, cancelled.")
    public static let hashQueue = Self(name: "wishlist_argon2_admitted", kind: .gauge, help: "Password hashes running or waiting for a thread.")
    public static let catalogAge = Self(name: "wishlist_catalog_last_success_age_seconds", kind: .gauge, help: "Seconds since the catalog was last refreshed successfully (-1: never).")
    public static let catalogFailures = Self(name: "wishlist_catalog_consecutive_failures", kind: .gauge, help: "Catalog refreshes that failed in a row.")
    public static let apiRequestsToday = Self(name: "wishlist_nyt_requests_last_day", kind: .gauge, help: "NYT API requests made in the last 24 hours.")
    public static let pageCacheLookups = Self(name: "wishlist_page_cache_lookups_total", kind: .counter, help: "Lookups of pages rendered once for every visitor, by page (list, book) and result (hit, miss).")
    public static let pageReadMemoLookups = Self(name: "wishlist_page_read_memo_lookups_total", kind: .counter, help: "Signed-in requests answered from the same request’s earlier read, the database unchanged since (hit), or read again (miss).")
    public static let pageCacheBytes = Self(name: "wishlist_page_cache_bytes", kind: .gauge, help: "Bytes of the pages kept rendered for every visitor (list, book, wishlist and member pages).")
    public static let databaseWriteWait = Self(name: "wishlist_database_write_wait_seconds", kind: .histogram, help: "Time a write waited for the database’s one writer before it began.")
    public static let databaseBytes = Self(name: "wishlist_database_bytes", kind: .gauge, help: "Size of the database file and its write-ahead log.")
}
