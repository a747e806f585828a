import Foundation
import Mustache
import NIOCore
import Stencil
import WishlistTemplates

// The list page (Views/lists/show.html in Views/layout.html, 15 books) rendered by our engine,
// by swift-mustache and by Stencil from equivalent templates over the same data. The outputs are
// checked to be the same page (whitespace aside) before anything is timed.
//
// usage: template-bench [--views Views] [--templates Benchmarks/Templates]
//                       [--catalog Sources/WishlistCore/Catalog/SampleCatalog] [--public Public] [--rounds 25]
//                       [--batch-ms 40] [--out .build/bench/templates.md] [--readme Benchmarks/README.md]
//                       [--dump DIR] [--csrf TOKEN] [--user NAME] [--fetched-at 2026-11-21T09:30:00Z]
//                       [--server-page .build/bench/pages/list.html]
//        template-bench --profile ours|swift-mustache|stencil [--mode render|page] --iterations N
//                       (one engine in a loop, for perf; no check, no timing)

var options: [String: String] = [:]
do {
    var arguments = CommandLine.arguments.dropFirst()
    while let flag = arguments.popFirst() {
        guard flag.hasPrefix("--"), let value = arguments.popFirst() else {
            FileHandle.standardError.write(Data("usage: see the comment at the top of main.swift; bad argument \(flag)\n".utf8))
            exit(2)
        }
        options[String(flag.dropFirst(2))] = value
    }
}
func option(_ name: String, _ fallback: String) -> String { options[name] ?? fallback }
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("template-bench: \(message)\n".utf8))
    exit(1)
}

let viewsDirectory = URL(fileURLWithPath: option("views", "Views"), isDirectory: true)
let templatesDirectory = URL(fileURLWithPath: option("templates", "Benchmarks/Templates"), isDirectory: true)
let catalogDirectory = URL(fileURLWithPath: option("catalog", "Sources/WishlistCore/Catalog/SampleCatalog"), isDirectory: true)
let publicDirectory = URL(fileURLWithPath: option("public", "Public"), isDirectory: true)
guard let fetchedAt = ISO8601DateFormatter().date(from: option("fetched-at", "2026-11-21T09:30:00Z")) else { fail("bad --fetched-at") }

// MARK: Data and engines

let data: ListPageData
do {
    data = try ListPageData.sample(
        catalog: catalogDirectory, publicDirectory: publicDirectory, csrfToken: option("csrf", "Jq0bW1n2Xc4vS9eHk3LmP7tYzA5uR8dQ6fG1hK2jN0o"),
        userName: option("user", "bench"), fetchedAt: fetchedAt
    )
} catch { fail("sample data: \(error)") }

let ours: TemplateLibrary
do { ours = try TemplateLibrary(directory: viewsDirectory) } catch { fail("our engine: \(error)") }
let mustache: MustacheLibrary
do {
    mustache = try await MustacheLibrary(directory: templatesDirectory.appendingPathComponent("mustache").path)
} catch { fail("swift-mustache: \(error)") }
let stencil: Template
do {
    let environment = try StencilSetup.environment(directory: templatesDirectory.appendingPathComponent("stencil"))
    stencil = try environment.loadTemplate(name: "lists/show.html")
} catch { fail("Stencil: \(error)") }

let page = "lists/show.html"
let oursContext = data.templateValue
let stencilContext = data.stencilContext
let mustacheContext = data.mustacheContext

/// One way of producing the page. `render` starts from a context built beforehand in the engine's
/// own form; `page` starts from the app's data (ListPageData) and ends with the bytes in a
/// ByteBuffer, as a response body: context building, Mustache's precomputation and the copy of a
/// String into a buffer are all in it.
struct Engine {
    let name: String
    let render: () throws -> Int
    let page: () throws -> Int
    let output: () throws -> String
}

let engines: [Engine] = [
    Engine(
        name: "ours",
        render: { try ours.render(page, oursContext).readableBytes },
        page: { try ours.render(page, data.templateValue).readableBytes },
        output: { String(buffer: try ours.render(page, oursContext)) }
    ),
    Engine(
        name: "swift-mustache 2.1.1",
        render: { mustache.render(mustacheContext, withTemplate: "lists/show")?.utf8.count ?? 0 },
        page: { ByteBuffer(string: mustache.render(data.mustacheContext, withTemplate: "lists/show") ?? "").readableBytes },
        output: { mustache.render(mustacheContext, withTemplate: "lists/show") ?? "" }
    ),
    Engine(
        name: "Stencil 0.15.1",
        render: { try stencil.render(stencilContext).utf8.count },
        page: { ByteBuffer(string: try stencil.render(data.stencilContext)).readableBytes },
        output: { try stencil.render(stencilContext) }
    ),
]

// MARK: Profiling mode: one engine in a loop, nothing else

if let profiled = options["profile"] {
    guard let engine = engines.first(where: { $0.name.lowercased().hasPrefix(profiled.lowercased()) }) else { fail("unknown engine \(profiled)") }
    let iterations = Int(option("iterations", "1000")) ?? 1000
    let body = option("mode", "render") == "page" ? engine.page : engine.render
    var bytes = 0
    for _ in 0..<iterations { bytes &+= try body() }
    print("\(engine.name): \(iterations) × \(option("mode", "render")), \(bytes) bytes")
    exit(0)
}

// MARK: The outputs must be the same page

/// Whitespace runs become one space, and whitespace next to a tag's `<` or `>` goes.
func normalized(_ html: String) -> [UInt8] {
    var out: [UInt8] = []
    var pendingSpace = false
    for byte in html.utf8 {
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            pendingSpace = true
            continue
        }
        if pendingSpace, byte != UInt8(ascii: "<"), let last = out.last, last != UInt8(ascii: ">") { out.append(0x20) }
        pendingSpace = false
        out.append(byte)
    }
    return out
}

let outputs = try engines.map { try $0.output() }
if let directory = options["dump"] {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (engine, output) in zip(engines, outputs) {
        let file = engine.name.split(separator: " ")[0].lowercased() + ".html"
        try output.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8)
    }
}
let reference = normalized(outputs[0])
for (engine, output) in zip(engines, outputs).dropFirst() {
    let other = normalized(output)
    guard other != reference else { continue }
    let index = zip(reference, other).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(reference.count, other.count)
    func around(_ bytes: [UInt8]) -> String {
        String(decoding: bytes[max(0, index - 100)..<min(bytes.count, index + 100)], as: UTF8.self)
    }
    fail("""
        \(engine.name) does not render the same page as ours (whitespace aside); first difference at byte \(index):
          ours:  …\(around(reference))…
          other: …\(around(other))…
        """)
}
let bookCount = outputs[0].components(separatedBy: "<li class=\"book\"").count - 1
guard bookCount == 15 else { fail("expected 15 books on the page, found \(bookCount)") }
print("outputs match (whitespace aside): \(bookCount) books; \(outputs.map { "\($0.utf8.count)" }.joined(separator: " / ")) bytes")

// The data must be the app's: compare with the page the server sent in the last `make bench`
// (same user, same sample catalog, same three books on the wishlist), given its CSRF token and time.
let serverPagePath = option("server-page", ".build/bench/pages/list.html")
if let serverPage = try? String(contentsOfFile: serverPagePath, encoding: .utf8) {
    func attribute(_ pattern: String) -> String? {
        guard let range = serverPage.range(of: pattern, options: .regularExpression) else { return nil }
        return String(serverPage[range]).split(separator: "\"").last.map(String.init)
    }
    if let token = attribute(#"name="csrf_token" value="[^"]*""#),
       // The sample catalog's page shows no fetch time; a synced catalog's does.
       let same = try? ListPageData.sample(
           catalog: catalogDirectory, publicDirectory: publicDirectory, csrfToken: token, userName: data.userName,
           fetchedAt: attribute(#"datetime="[0-9-]+T[^"]*""#).flatMap({ ISO8601DateFormatter().date(from: $0) }) ?? fetchedAt
       ),
       let rendered = try? ours.render(page, same.templateValue) {
        if String(buffer: rendered) == serverPage {
            print("our rendering is byte for byte the page the app served in the last make bench (\(serverPagePath))")
        } else {
            print("note: our rendering differs from \(serverPagePath) (Views/ or the app changed since that make bench?)")
        }
    }
}

// MARK: Timing

/// What else the machine runs, for the report: its load average and how many Swift build and
/// test processes run (on a shared machine, other people's work), read from /proc.
struct MachineLoad {
    static let swiftProcesses: Set<String> = ["swift-build", "swift-test", "swift-frontend", "swiftc"]
    let loadAverage: String
    let swiftProcesses: Int

    static func now() -> MachineLoad {
        let average = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ")
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { $0.allSatisfy(\.isNumber) } ?? []
        let swift = processes.filter {
            let name = (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            return name.map(swiftProcesses.contains) ?? false
        }
        return MachineLoad(loadAverage: average ?? "?", swiftProcesses: swift.count)
    }

    /// This process's nice value (field 19 of /proc/self/stat).
    static var ownNice: String {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else { return "?" }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 16 ? String(fields[16]) : "?"
    }
}

let loadBefore = MachineLoad.now()

let rounds = Int(option("rounds", "25")) ?? 25
let batchNanos = (Double(option("batch-ms", "40")) ?? 40) * 1_000_000
let clock = ContinuousClock()
var sink = 0

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// Nanoseconds per call of `body`, measured over a batch of `count` calls.
func measure(_ count: Int, _ body: () throws -> Int) rethrows -> Double {
    var bytes = 0
    let start = clock.now
    for _ in 0..<count { bytes &+= try body() }
    let elapsed = clock.now - start
    sink &+= bytes
    return nanoseconds(elapsed) / Double(count)
}

// Warm up, and size each batch to about batch-ms.
var batchSizes: [[Int]] = []
for engine in engines {
    var sizes: [Int] = []
    for body in [engine.render, engine.page] {
        var count = 1
        while true {
            let perCall = try measure(count, body)
            if perCall * Double(count) > batchNanos / 4 || count >= 1 << 20 {
                sizes.append(max(1, Int(batchNanos / perCall)))
                break
            }
            count *= 2
        }
    }
    batchSizes.append(sizes)
}

// Rounds interleave the engines, so that whatever else the machine does falls on all of them alike.
var samples = Array(repeating: [[Double](), [Double]()], count: engines.count)
for round in 0..<rounds {
    for offset in engines.indices {
        let index = (round + offset) % engines.count
        let engine = engines[index]
        samples[index][0].append(try measure(batchSizes[index][0], engine.render))
        samples[index][1].append(try measure(batchSizes[index][1], engine.page))
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
func micro(_ nanos: Double) -> String { nanos >= 100_000 ? String(format: "%.0f", nanos / 1000) : String(format: "%.1f", nanos / 1000) }
func ratio(_ value: Double) -> String { String(format: "%.1f×", value) }

let renderMedians = samples.map { median($0[0]) }
let pageMedians = samples.map { median($0[1]) }
let spread = samples.map { (sample: [[Double]]) -> String in
    let sorted = sample[1].sorted()
    return "\(micro(sorted.first!))–\(micro(sorted.last!))"
}

var table = """
    | engine | render, µs (median) | page from data, µs (median) | page, min–max of \(rounds) rounds | ours is faster by (render / page) | bytes |
    |---|---:|---:|---:|---:|---:|

    """
for index in engines.indices {
    let faster = index == 0 ? "—" : "\(ratio(renderMedians[index] / renderMedians[0])) / \(ratio(pageMedians[index] / pageMedians[0]))"
    table += "| \(engines[index].name) | \(micro(renderMedians[index])) | \(micro(pageMedians[index])) | \(spread[index]) | \(faster) | \(outputs[index].utf8.count) |\n"
}
let worst = engines.indices.dropFirst().map { min(renderMedians[$0] / renderMedians[0], pageMedians[$0] / pageMedians[0]) }.min() ?? 0
let verdict = worst >= 3
    ? "Budget (ours ≥ 3× faster than each on the list page): **met**, smallest margin \(ratio(worst))."
    : "Budget (ours ≥ 3× faster than each on the list page): **missed**, smallest margin \(ratio(worst))."

let environment = ProcessInfo.processInfo.environment
let loadAfter = MachineLoad.now()
let command = environment["BENCH_COMMAND"] ?? "make bench-templates"
let stamp = ISO8601DateFormatter().string(from: Date())
let report = """
    Command: `\(command)` · \(stamp) · release build · machine shared: \(ProcessInfo.processInfo.activeProcessorCount) cores, \
    other people's Swift builds and tests running (\(loadBefore.swiftProcesses) swift-build, swift-test, swift-frontend and swiftc \
    processes before the timing, \(loadAfter.swiftProcesses) after), this run at nice \(MachineLoad.ownNice), \
    load average \(loadBefore.loadAverage) before and \(loadAfter.loadAverage) after

    \(table)
    \(verdict)

    """
print("")
print(report)

let outPath = option("out", ".build/bench/templates.md")
try FileManager.default.createDirectory(atPath: (outPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
try report.write(toFile: outPath, atomically: true, encoding: .utf8)
print("written to \(outPath)")

// Replaces what lies between the two markers in the README with the report.
if let readme = options["readme"], !readme.isEmpty, environment["BENCH_UPDATE_README"] != "0" {
    let start = "<!-- template-results:start -->", end = "<!-- template-results:end -->"
    guard let text = try? String(contentsOfFile: readme, encoding: .utf8),
          let from = text.range(of: start), let to = text.range(of: end, range: from.upperBound..<text.endIndex)
    else { fail("\(readme) has no \(start) … \(end) section") }
    let updated = text.replacingCharacters(in: from.upperBound..<to.lowerBound, with: "\n" + report)
    try updated.write(toFile: readme, atomically: true, encoding: .utf8)
    print("updated \(readme)")
}
if sink == 42 { print("") }
