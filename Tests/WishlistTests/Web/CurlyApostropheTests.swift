import Foundation
import Testing

/// The pages' prose uses the curly apostrophe (’) throughout, so "can’t" and "Books I’ve read"
/// look the same on every page (issue 57, defect 3). Attributes, template code, comments and
/// scripts keep their straight quotes: only the text a reader sees is checked.
@Suite("Views: curly apostrophes in prose")
struct CurlyApostropheTests {
    /// Each view's text nodes: its comments, template tags and outputs, scripts and styles, and
    /// then its HTML tags (attributes and all) taken out.
    static func textNodes(of template: String) -> [String] {
        var text = template
        // `(?s)`: comments, tags and attributes run over lines.
        for pattern in [#"(?s)\{#.*?#\}"#, #"(?s)\{%.*?%\}"#, #"(?s)\{\{.*?\}\}"#, #"(?s)<script\b.*?</script>"#, #"(?s)<style\b.*?</style>"#, #"<[^>]*>"#] {
            text = text.replacingOccurrences(of: pattern, with: "\n", options: .regularExpression)
        }
        return text.split(separator: "\n").map(String.init)
    }

    @Test func noViewHasAStraightApostropheInItsText() throws {
        let views = repositoryRoot.appendingPathComponent("Views")
        let files = try #require(FileManager.default.enumerator(atPath: views.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".html") }
        #expect(files.count > 50, "the views were not found")
        var straight: [String] = []
        for file in files.sorted() {
            let template = try String(contentsOf: views.appendingPathComponent(file), encoding: .utf8)
            straight += Self.textNodes(of: template).filter { $0.contains("'") }.map { "\(file): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        #expect(straight.isEmpty, "straight apostrophes in prose (write ’): \(straight)")
    }

    @Test func attributesAndTemplateCodeAreNotProse() {
        #expect(Self.textNodes(of: #"<a href='x' title="it's">Books I’ve read</a>{% if a == 'b' %}{{ x | date: 'y' }}{% endif %}{# don't #}"#)
            .allSatisfy { !$0.contains("'") })
        #expect(Self.textNodes(of: "<p>We'll send it</p>").contains("We'll send it"))
    }
}
