import Foundation
import NIOCore
import Testing
@testable import WishlistTemplates

/// A views directory in a fresh temporary folder, deleted when released.
final class TemporaryViews {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("wishlist-views-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, contents) in files {
            try write(name, contents)
        }
    }

    func write(_ name: String, _ contents: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
    }

    func library(reloadOnChange: Bool = false) throws -> TemplateLibrary {
        try TemplateLibrary(directory: url, reloadOnChange: reloadOnChange)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Helpers for the template suites, scoped to them so they cannot clash with other tests in the module.
protocol TemplateTestCase {}

extension TemplateTestCase {
    /// Renders `page` as `page.html`, next to the other `files`.
    func render(_ page: String, _ context: TemplateValue = [:], files: [String: String] = [:]) throws -> String {
        try render(template: "page.html", context, files: files.merging(["page.html": page]) { _, page in page })
    }

    /// Renders the template `name` from a directory holding `files`.
    func render(template name: String, _ context: TemplateValue = [:], files: [String: String]) throws -> String {
        let views = try TemporaryViews(files)
        return String(buffer: try views.library().render(name, context))
    }

    /// The description (`file:line:column: message`) of the error compiling `files` throws, if any.
    func compileError(_ files: [String: String]) -> String? {
        do {
            _ = try TemporaryViews(files).library()
            return nil
        } catch let error as TemplateError {
            return error.description
        } catch {
            return "unexpected error: \(error)"
        }
    }

    /// The error compiling a single `page.html` throws, if any.
    func compileError(_ page: String) -> String? {
        compileError(["page.html": page])
    }

    /// Builds a date from UTC calendar fields.
    func utcDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }
}
