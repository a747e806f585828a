import Foundation
import NIOCore
import WishlistTemplates

/// Up to three templates separated by NULs, `page.html`, `layout.html` and `part.html` (so that
/// `extends` and `include` find one another), compiled like a views directory and rendered with
/// a context that holds markup. Whatever the templates, a value's markup never reaches the page
/// as markup, and a compile error points into its file.
@Sendable func fuzzTemplate(_ bytes: [UInt8]) {
    // A views file that is not UTF-8 is refused before the lexer sees it.
    guard let text = String(validating: bytes, as: UTF8.self) else { return }
    let names = ["page.html", "layout.html", "part.html"]
    let texts = text.split(separator: "\0", maxSplits: names.count - 1, omittingEmptySubsequences: false).map(String.init)
    let sources = Dictionary(uniqueKeysWithValues: zip(names, texts))
    do {
        let pages = try TemplateSources.renderAll(sources, context: templateContext)
        let written = texts.joined().lowercased()
        for (name, page) in pages {
            let output = String(buffer: page).lowercased()
            for marker in ["<fuzz>", "\"onfuzz"] where !holds(written, marker) {
                require(!holds(output, marker), "\(name) wrote a value's \(marker) unescaped")
            }
        }
    } catch {
        guard let file = sources[error.file] else { return }
        let lines = file.utf8.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        require((0...lines).contains(error.line) && error.column >= 0, "an error at \(error.line):\(error.column) of a file of \(lines) lines")
    }
}

/// Every kind of value, with markup and a quote where a template might write it unescaped.
private let templateContext: TemplateValue = [
    "title": "<fuzz> \"onfuzz='1' & more",
    "link": "javascript:fuzz()",
    "count": 3,
    "price": 2.5,
    "flag": true,
    "nothing": nil,
    "when": .date(Date(timeIntervalSince1970: 1_780_000_000)),
    "items": ["<fuzz>", "two", 3],
    "user": ["name": "Ada \"onfuzz", "books": [["title": "<fuzz>"], ["title": "Dune"]]],
    "blurb": .html(TrustedHTML(trusted: "<em>trusted</em>")),
]
