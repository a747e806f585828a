/// How an output must be escaped, decided at compile time from its HTML context.
@usableFromInline
enum OutputEscaping: Sendable {
    /// Element content: escape, but write ``TrustedHTML`` verbatim.
    case text
    /// Quoted attribute values and `<title>`/`<textarea>` content: escape everything.
    case attribute
    /// The start of a URL attribute's value: only http(s) or relative URLs get through.
    case url
    /// Inside a URL attribute after other content that has not fixed the scheme yet
    /// (no `/`, `?`, `#` or `:` before it): the output may not introduce a scheme.
    case urlContinuation
}

/// An HTML tokenizer reduced to what escaping needs: it follows the static text of a
/// template and knows, at each `{{ }}`, whether it sits in text, in which attribute's
/// value, or somewhere an expression is unsafe.
///
/// It only ever sees the template's own markup (outputs are escaped so they cannot
/// change the state), which is why a simplified tokenizer is enough.
struct HTMLContext: Equatable, Sendable {
    /// Attributes whose value is fetched or navigated to as a URL.
    private static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "cite", "poster", "data",
        "background", "codebase", "longdesc", "manifest", "ping", "usemap", "xlink:href",
    ]
    /// Elements whose content is not parsed as HTML and is not safe to escape into.
    private static let rawTextElements: Set<String> = ["script", "style", "xmp", "iframe", "noembed", "noframes"]
    /// Elements whose content is text without tags, where escaping still works.
    private static let escapableRawTextElements: Set<String> = ["title", "textarea"]

    struct Tag: Equatable, Sendable {
        let name: String
        let isEndTag: Bool
    }

    enum URLProgress: Equatable, Sendable {
        /// Nothing but whitespace yet.
        case start
        /// Something that may still become a scheme, such as `java` or an earlier output.
        case pending
        /// A `/`, `?`, `#` or `:` has been written: the scheme is settled.
        case fixed
    }

    enum State: Equatable, Sendable {
        case data
        case tagOpen
        case endTagOpen
        case tagName(Tag)
        case beforeAttributeName(Tag)
        case attributeName(Tag, attribute: String)
        case afterAttributeName(Tag, attribute: String)
        case beforeAttributeValue(Tag, attribute: String)
        /// `quote` is nil for an unquoted value; `url` is nil unless it is a URL attribute.
        case attributeValue(Tag, attribute: String, quote: UInt8?, url: URLProgress?)
        /// After `<!`, counting the dashes of a possible `<!--`.
        case markupDeclaration(dashes: Int)
        case comment(dashes: Int)
        /// `<!DOCTYPE …>`, `<?…>` and other markup that ends at `>`.
        case bogusComment
        /// Inside an element such as `<script>`, having matched `matched` bytes of its end tag.
        case rawText(element: String, matched: Int)
        case escapableRawText(element: String, matched: Int)
    }

    private var state: State = .data
    /// How many `<pre>` and `<listing>` elements are open: their text keeps every space.
    private var preformattedDepth = 0
    private static let preformattedElements: Set<String> = ["pre", "listing"]

    init() {}

    private init(state: State, preformattedDepth: Int) {
        self.state = state
        self.preformattedDepth = preformattedDepth
    }

    /// Why an output cannot go where it is.
    struct ForbiddenOutput: Error {
        let message: String
    }

    // MARK: Outputs

    /// The escaping an output needs here, or why there must be no output here.
    func escapingForOutput() throws(ForbiddenOutput) -> OutputEscaping {
        switch state {
        case .data:
            return .text
        case .escapableRawText:
            return .attribute
        case .attributeValue(_, let attribute, .some, let url):
            try Self.checkAttributeAllowsOutput(attribute)
            switch url {
            case nil, .fixed?: return .attribute
            case .start?: return .url
            case .pending?: return .urlContinuation
            }
        case .attributeValue(_, let attribute, nil, _), .beforeAttributeValue(_, let attribute):
            throw ForbiddenOutput(message: "expression not allowed in the unquoted value of attribute '\(attribute)'; quote the value: \(attribute)=\"{{ … }}\"")
        case .tagOpen, .endTagOpen, .tagName:
            throw ForbiddenOutput(message: "expression not allowed in a tag name")
        case .beforeAttributeName(let tag), .attributeName(let tag, _), .afterAttributeName(let tag, _):
            throw ForbiddenOutput(message: "expression not allowed in attribute-name position inside <\(tag.name)>; write the attribute yourself and put the expression in its quoted value")
        case .markupDeclaration, .comment, .bogusComment:
            throw ForbiddenOutput(message: "expression not allowed inside an HTML comment or declaration")
        case .rawText(let element, _):
            throw ForbiddenOutput(message: "expression not allowed inside <\(element)>; pass data through a data-* attribute instead")
        }
    }

    private static func checkAttributeAllowsOutput(_ attribute: String) throws(ForbiddenOutput) {
        if attribute.hasPrefix("on") {
            throw ForbiddenOutput(message: "expression not allowed in event-handler attribute '\(attribute)'; pass data through a data-* attribute instead")
        }
        if attribute == "style" || attribute == "srcdoc" {
            throw ForbiddenOutput(message: "expression not allowed in a '\(attribute)' attribute")
        }
    }

    /// Records that an output was written: in a URL it means the value is no longer at its start.
    mutating func didWriteOutput() {
        if case .attributeValue(let tag, let attribute, let quote, .start?) = state {
            state = .attributeValue(tag, attribute: attribute, quote: quote, url: .pending)
        }
    }

    // MARK: Control flow

    /// The context after a branch point whose paths ended in `self` and `other`,
    /// or nil when they disagree in a way that matters for escaping.
    func merged(with other: HTMLContext) -> HTMLContext? {
        guard preformattedDepth == other.preformattedDepth else { return nil }
        if state == other.state { return self }
        if case let .attributeValue(tag, attribute, quote, url) = state,
           case let .attributeValue(otherTag, otherAttribute, otherQuote, otherURL) = other.state,
           tag == otherTag, attribute == otherAttribute, quote == otherQuote {
            // The stricter check wins: unless both paths settled the scheme, treat it as pending.
            let mergedURL = url == .fixed && otherURL == .fixed ? URLProgress.fixed : url.map { _ in .pending }
            return HTMLContext(state: .attributeValue(tag, attribute: attribute, quote: quote, url: mergedURL), preformattedDepth: preformattedDepth)
        }
        // `<li{% if active %} class="active"{% endif %}>`: both paths are still inside the tag.
        if let tag = betweenAttributes(of: state), tag == betweenAttributes(of: other.state) {
            return HTMLContext(state: .beforeAttributeName(tag), preformattedDepth: preformattedDepth)
        }
        return nil
    }

    /// The tag when the state is inside a tag but outside any attribute value.
    private func betweenAttributes(of state: State) -> Tag? {
        switch state {
        case .tagName(let tag), .beforeAttributeName(let tag), .attributeName(let tag, _), .afterAttributeName(let tag, _): tag
        default: nil
        }
    }

    /// Where the tokenizer is, for error messages.
    var description: String {
        switch state {
        case .data: preformattedDepth > 0 ? "the text of a <pre>" : "text"
        case .tagOpen, .endTagOpen, .tagName: "a tag name"
        case .beforeAttributeName(let tag), .attributeName(let tag, _), .afterAttributeName(let tag, _): "the <\(tag.name)> tag"
        case .beforeAttributeValue(_, let attribute), .attributeValue(_, let attribute, _, _): "the value of attribute '\(attribute)'"
        case .markupDeclaration, .comment, .bogusComment: "an HTML comment"
        case .rawText(let element, _), .escapableRawText(let element, _): "<\(element)>"
        }
    }

    // MARK: Static text

    mutating func consume(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            consume(byte)
        }
    }

    /// `bytes` consumed, and returned with each run of whitespace that holds a line break written
    /// as one line break wherever a browser treats the two alike: in text and between a tag's
    /// name and attributes. The views' indentation is for their readers; the pages go out without it
    /// (docs/decisions/templates-drop-their-indentation.md). An attribute's value, a comment,
    /// `<script>`, `<style>`, `<textarea>`, `<title>` and `<pre>` keep every byte.
    mutating func consumeDroppingIndentation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index].isASCIIWhitespace, collapsesWhitespace else {
                consume(bytes[index])
                kept.append(bytes[index])
                index += 1
                continue
            }
            let run = bytes[index...].prefix(while: \.isASCIIWhitespace)
            consume(run)
            if run.contains(UInt8(ascii: "\n")) {
                kept.append(UInt8(ascii: "\n"))
            } else {
                kept.append(contentsOf: run)
            }
            index = run.endIndex
        }
        return kept
    }

    /// Whether whitespace here is only a separator, which a browser collapses to one space.
    private var collapsesWhitespace: Bool {
        guard preformattedDepth == 0 else { return false }
        switch state {
        case .data, .tagName, .beforeAttributeName, .attributeName, .afterAttributeName: return true
        default: return false
        }
    }

    private mutating func consume(_ byte: UInt8) {
        let isSpace = byte.isASCIIWhitespace
        switch state {
        case .data:
            if byte == UInt8(ascii: "<") { state = .tagOpen }
        case .tagOpen:
            if byte.isASCIILetter {
                state = .tagName(Tag(name: byte.lowercasedCharacter, isEndTag: false))
            } else if byte == UInt8(ascii: "/") {
                state = .endTagOpen
            } else if byte == UInt8(ascii: "!") {
                state = .markupDeclaration(dashes: 0)
            } else if byte == UInt8(ascii: "?") {
                state = .bogusComment
            } else {
                state = .data  // A lone '<' is text.
                consume(byte)
            }
        case .endTagOpen:
            if byte.isASCIILetter {
                state = .tagName(Tag(name: byte.lowercasedCharacter, isEndTag: true))
            } else {
                state = byte == UInt8(ascii: ">") ? .data : .bogusComment
            }
        case .tagName(let tag):
            if isSpace || byte == UInt8(ascii: "/") {
                state = .beforeAttributeName(tag)
            } else if byte == UInt8(ascii: ">") {
                endTag(tag)
            } else {
                state = .tagName(Tag(name: tag.name + byte.lowercasedCharacter, isEndTag: tag.isEndTag))
            }
        case .beforeAttributeName(let tag):
            if byte == UInt8(ascii: ">") {
                endTag(tag)
            } else if !isSpace && byte != UInt8(ascii: "/") {
                state = .attributeName(tag, attribute: byte.lowercasedCharacter)
            }
        case .attributeName(let tag, let attribute):
            consumeAfterAttributeName(byte, tag, attribute) {
                .attributeName(tag, attribute: attribute + byte.lowercasedCharacter)
            }
        case .afterAttributeName(let tag, let attribute):
            consumeAfterAttributeName(byte, tag, attribute) {
                .attributeName(tag, attribute: byte.lowercasedCharacter)
            }
        case .beforeAttributeValue(let tag, let attribute):
            let url: URLProgress? = Self.urlAttributes.contains(attribute) ? .start : nil
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .attributeValue(tag, attribute: attribute, quote: byte, url: url)
            } else if byte == UInt8(ascii: ">") {
                endTag(tag)
            } else if !isSpace {
                state = .attributeValue(tag, attribute: attribute, quote: nil, url: url)
            }
        case .attributeValue(let tag, let attribute, let quote, let url):
            consumeAttributeValue(byte, tag, attribute, quote, url)
        case .markupDeclaration(let dashes):
            if byte == UInt8(ascii: "-") {
                state = dashes == 1 ? .comment(dashes: 0) : .markupDeclaration(dashes: 1)
            } else {
                state = byte == UInt8(ascii: ">") ? .data : .bogusComment
            }
        case .comment(let dashes):
            if byte == UInt8(ascii: "-") {
                state = .comment(dashes: dashes + 1)
            } else {
                state = byte == UInt8(ascii: ">") && dashes >= 2 ? .data : .comment(dashes: 0)
            }
        case .bogusComment:
            if byte == UInt8(ascii: ">") { state = .data }
        case .rawText(let element, let matched):
            consumeRawText(byte, element, matched, escapable: false)
        case .escapableRawText(let element, let matched):
            consumeRawText(byte, element, matched, escapable: true)
        }
    }

    private mutating func consumeAfterAttributeName(_ byte: UInt8, _ tag: Tag, _ attribute: String, otherwise: () -> State) {
        if byte.isASCIIWhitespace {
            state = .afterAttributeName(tag, attribute: attribute)
        } else if byte == UInt8(ascii: "/") {
            state = .beforeAttributeName(tag)
        } else if byte == UInt8(ascii: "=") {
            state = .beforeAttributeValue(tag, attribute: attribute)
        } else if byte == UInt8(ascii: ">") {
            endTag(tag)
        } else {
            state = otherwise()
        }
    }

    private mutating func consumeAttributeValue(_ byte: UInt8, _ tag: Tag, _ attribute: String, _ quote: UInt8?, _ url: URLProgress?) {
        if let quote {
            if byte == quote {
                state = .beforeAttributeName(tag)
                return
            }
        } else if byte.isASCIIWhitespace {
            state = .beforeAttributeName(tag)
            return
        } else if byte == UInt8(ascii: ">") {
            endTag(tag)
            return
        }
        guard let url, url != .fixed else { return }
        let progress: URLProgress
        if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: ":") {
            progress = .fixed
        } else if url == .start && byte <= 0x20 {
            progress = .start  // Browsers strip leading spaces and control characters from URLs.
        } else {
            progress = .pending
        }
        state = .attributeValue(tag, attribute: attribute, quote: quote, url: progress)
    }

    /// Looks for `</element` followed by a space, `/` or `>`; everything else is content.
    private mutating func consumeRawText(_ byte: UInt8, _ element: String, _ matched: Int, escapable: Bool) {
        let endTag = Array("</\(element)".utf8)
        func content(matched: Int) -> State {
            escapable ? .escapableRawText(element: element, matched: matched) : .rawText(element: element, matched: matched)
        }
        if matched == endTag.count {
            if byte.isASCIIWhitespace || byte == UInt8(ascii: "/") {
                state = .beforeAttributeName(Tag(name: element, isEndTag: true))
                return
            }
            if byte == UInt8(ascii: ">") {
                state = .data
                return
            }
        } else if byte.asciiLowercased == endTag[matched] {
            state = content(matched: matched + 1)
            return
        }
        state = content(matched: byte == UInt8(ascii: "<") ? 1 : 0)
    }

    private mutating func endTag(_ tag: Tag) {
        if Self.preformattedElements.contains(tag.name) {
            preformattedDepth = tag.isEndTag ? max(0, preformattedDepth - 1) : preformattedDepth + 1
        }
        if tag.isEndTag {
            state = .data
        } else if Self.rawTextElements.contains(tag.name) {
            state = .rawText(element: tag.name, matched: 0)
        } else if Self.escapableRawTextElements.contains(tag.name) {
            state = .escapableRawText(element: tag.name, matched: 0)
        } else {
            state = .data
        }
    }
}

private extension UInt8 {
    /// The byte as a one-character string, lowercased if it is an ASCII letter; for tag and attribute names.
    var lowercasedCharacter: String {
        String(Character(Unicode.Scalar(asciiLowercased)))
    }
}
