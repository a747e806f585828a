import Foundation
import Testing

/// No emoji or pictographic symbols in the interface (issue 36): a "★" or "✓" is drawn by each
/// font its own way, some as an empty box, so pages use `partials/icon.html`'s SVG instead. The
/// templates' text may use ASCII and the typographic marks below, nothing else; comments
/// (`{# … #}`) are not shown, so they are not checked. A new emoji in a template fails here.
@Suite("Interface characters")
struct InterfaceCharactersTests {
    /// Curly quotes and apostrophes, the en and em dash, the ellipsis, the middle dot between
    /// facts, the no-break space, and the arrow naming a menu path ("My Books → Import"), which
    /// every font draws.
    static let allowed: Set<Unicode.Scalar> = ["\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2013}", "\u{2014}", "\u{2026}", "\u{00B7}", "\u{00A0}", "\u{2192}"]

    @Test func templatesShowOnlyASCIIAndTypographicMarks() throws {
        let views = repositoryRoot.appendingPathComponent("Views")
        let files = try #require(FileManager.default.enumerator(at: views, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "html" }
        #expect(files.count > 40, "the templates were not found")
        for file in files {
            let shown = try String(contentsOf: file, encoding: .utf8).replacing(/\{#.*?#\}/.dotMatchesNewlines(), with: "")
            let strangers = Set(shown.unicodeScalars.filter { !$0.isASCII && !Self.allowed.contains($0) })
            #expect(strangers.isEmpty, "\(file.lastPathComponent) shows \(strangers.map { "U+" + String($0.value, radix: 16, uppercase: true) })")
        }
    }

    @Test func theCheckCatchesAStar() {
        let shown = #"<span class="stars">★★★★</span> ✓ done"#
        #expect(Set(shown.unicodeScalars.filter { !$0.isASCII && !Self.allowed.contains($0) }) == ["★", "✓"])
    }
}
