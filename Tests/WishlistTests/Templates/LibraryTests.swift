import Foundation
import NIOCore
import Testing
@testable import WishlistTemplates

@Suite("Template library")
struct LibraryTests: TemplateTestCase {
    @Test func templatesAreNamedByTheirPathRelativeToTheDirectory() throws {
        let views = try TemporaryViews([
            "layout.html": "", "errors/error.html": "", "partials/deep/cover.html": "",
            "notes.txt": "{{ ignored", ".#layout.html": "{{ ignored", ".drafts/page.html": "{{ ignored",
        ])
        #expect(try views.library().templateNames == ["errors/error.html", "layout.html", "partials/deep/cover.html"])
    }

    @Test func renderIntoAppendsToTheBuffer() throws {
        let views = try TemporaryViews(["errors/error.html": "<h1>{{ status }}</h1>"])
        var buffer = ByteBuffer(string: "<!DOCTYPE html>")
        try views.library().render("errors/error.html", ["status": 404], into: &buffer)
        #expect(String(buffer: buffer) == "<!DOCTYPE html><h1>404</h1>")
    }

    @Test func renderingAnUnknownTemplateThrows() throws {
        let library = try TemporaryViews(["page.html": ""]).library()
        #expect(throws: TemplateError(file: "nothing.html", line: 0, column: 0, message: #"no such template; names are paths relative to the views directory, like "errors/error.html""#)) {
            try library.render("nothing.html", [:])
        }
    }

    @Test func aMissingDirectoryIsAnError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-views-\(UUID().uuidString)")
        let error = #expect(throws: TemplateError.self) { try TemplateLibrary(directory: missing) }
        #expect(error?.file == missing.path)
        #expect(error?.message.hasPrefix("cannot list the views directory") == true)
    }

    @Test func aFileThatIsNotUTF8IsAnError() throws {
        let views = try TemporaryViews([:])
        try Data([0x3C, 0x70, 0x3E, 0xFF, 0xFE]).write(to: views.url.appendingPathComponent("page.html"))
        #expect(throws: TemplateError(file: "page.html", line: 0, column: 0, message: "the file is not valid UTF-8")) {
            try views.library()
        }
    }

    @Test func reloadOnChangePicksUpEditsAndNewFiles() throws {
        let views = try TemporaryViews(["page.html": "v1 {{ x }}"])
        let library = try views.library(reloadOnChange: true)
        #expect(String(buffer: try library.render("page.html", ["x": 1])) == "v1 1")

        try views.write("page.html", "version two {{ x }}")
        #expect(String(buffer: try library.render("page.html", ["x": 1])) == "version two 1")

        // Same size as before: only the modification time tells the edit apart.
        try views.write("page.html", "version 3n {{ x }}")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: views.url.appendingPathComponent("page.html").path)
        #expect(String(buffer: try library.render("page.html", ["x": 1])) == "version 3n 1")

        try views.write("partials/new.html", "new")
        #expect(String(buffer: try library.render("partials/new.html", [:])) == "new")
        #expect(library.templateNames == ["page.html", "partials/new.html"])
    }

    @Test func reloadOnChangeReportsCompileErrorsUntilFixed() throws {
        let views = try TemporaryViews(["page.html": "ok"])
        let library = try views.library(reloadOnChange: true)
        try views.write("page.html", "{% if %}")
        #expect(throws: TemplateError(file: "page.html", line: 1, column: 7, message: "expected a name or a literal before '%}'")) {
            try library.render("page.html", [:])
        }
        try views.write("page.html", "fixed")
        #expect(String(buffer: try library.render("page.html", [:])) == "fixed")
    }

    @Test func withoutReloadOnChangeEditsAreIgnored() throws {
        let views = try TemporaryViews(["page.html": "v1"])
        let library = try views.library()
        try views.write("page.html", "version two")
        #expect(String(buffer: try library.render("page.html", [:])) == "v1")
    }

    @Test(arguments: [false, true])
    func concurrentRendersProduceIdenticalOutput(reloadOnChange: Bool) async throws {
        let views = try TemporaryViews([
            "layout.html": "<html><body>{% block content %}{% endblock %}</body></html>",
            "partials/book.html": #"<li><a href="/books/{{ book.id | urlencode }}">{{ book.title | truncate: 12 }}</a> {{ book.added | date: "MMM d, yyyy" }}{% if loop.last %}.{% endif %}</li>"#,
            "page.html": #"{% extends "layout.html" %}{% block content %}<h1>{{ name | upper }}</h1><ul>{% for book in books %}{% include "partials/book.html" %}{% endfor %}</ul>{% endblock %}"#,
        ])
        let library = try views.library(reloadOnChange: reloadOnChange)
        let books = (1...15).map { index -> TemplateValue in
            ["id": .string("book \(index)"), "title": .string("Book number \(index) & more"), "added": .date(utcDate(2024, 1, index))]
        }
        let context: TemplateValue = ["name": "Summer <reading>", "books": .array(books)]
        let expected = String(buffer: try library.render("page.html", context))
        #expect(expected.contains("<li><a href=\"/books/book%2015\">Book number…</a> Jan 15, 2024.</li>"))

        let outputs = try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    var seen: Set<String> = []
                    for _ in 0..<25 {
                        seen.insert(String(buffer: try library.render("page.html", context)))
                    }
                    return seen
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.formUnion($1) }
        }
        #expect(outputs == [expected])
    }
}
