import NIOCore

/// A template rendered once, with holes where per-request values go: what a page cache keeps.
///
/// The text between holes is copied as it is; each hole is filled with a value escaped for the
/// place where its slot stood (text, attribute or URL), exactly as a full render would have
/// written it, or with another slotted fragment.
///
/// A render names its holes by their slots' names (`SlottedHTML<String>`). A page that is kept
/// for many requests resolves those names once, with ``mapSlots(_:)``, to keys of its own (an enum
/// case, a book's index), so that a request fills each hole with a `switch` rather than by
/// comparing and hashing names: a list page has about seventy holes.
public struct SlottedHTML<Slot: Sendable>: Sendable {
    @usableFromInline
    struct Hole: Sendable {
        /// Where the hole stands in `text`.
        @usableFromInline let offset: Int
        @usableFromInline let slot: Slot
        @usableFromInline let escaping: OutputEscaping
    }

    /// What fills a hole.
    public enum Fill {
        case value(TemplateValue)
        /// A value that fills many holes, escaped once (``EscapedValue``).
        case escaped(EscapedValue)
        /// Another rendered fragment, filled by the same function. Only in text positions.
        case fragment(SlottedHTML)
    }

    /// The rendered text without its holes.
    @usableFromInline let text: ByteBuffer
    @usableFromInline let holes: [Hole]

    private init(text: ByteBuffer, holes: [Hole]) {
        self.text = text
        self.holes = holes
    }

    /// The slots of the holes, in order.
    public var slots: [Slot] { holes.map(\.slot) }

    /// The bytes of the text around the holes.
    public var byteCount: Int { text.readableBytes }

    /// The same page with each hole's slot replaced by `transform(slot)`, worked out once here.
    public func mapSlots<New>(_ transform: (Slot) throws -> New) rethrows -> SlottedHTML<New> {
        SlottedHTML<New>(text: text, holes: try holes.map { .init(offset: $0.offset, slot: try transform($0.slot), escaping: $0.escaping) })
    }

    /// Writes the text with every hole filled by `fill(slot)`.
    ///
    /// Inlinable so that it is specialised for the page's slot type: the loop runs once per hole
    /// of every page served.
    @inlinable
    public func write(into buffer: inout ByteBuffer, fill: (Slot) -> Fill) {
        // The text is copied from one contiguous region, run by run, without a buffer per run.
        text.withUnsafeReadableBytes { bytes in
            var copied = 0
            for hole in holes {
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[copied..<hole.offset]))
                copied = hole.offset
                switch fill(hole.slot) {
                case .value(let value): buffer.writeOutput(value, escaping: hole.escaping)
                case .escaped(let value): value.write(into: &buffer, escaping: hole.escaping)
                case .fragment(let fragment) where hole.escaping == .text: fragment.write(into: &buffer, fill: fill)
                // Markup in an attribute or a URL would not be escaped: such a hole stays empty.
                case .fragment: break
                }
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[copied...]))
        }
    }
}

/// A value escaped once for the holes it fills: a page has its CSRF token in every form.
///
/// Text and attribute holes get the escaped bytes; a URL hole, and trusted HTML in a text hole,
/// are written as ``SlottedHTML/Fill/value(_:)`` would write them.
public struct EscapedValue: Sendable {
    @usableFromInline let value: TemplateValue
    @usableFromInline let escaped: ByteBuffer

    public init(_ value: TemplateValue) {
        self.value = value
        var escaped = ByteBuffer()
        escaped.writeOutput(value, escaping: .attribute)
        self.escaped = escaped
    }

    @inlinable
    func write(into buffer: inout ByteBuffer, escaping: OutputEscaping) {
        switch (escaping, value) {
        case (.text, .html), (.url, _), (.urlContinuation, _): buffer.writeOutput(value, escaping: escaping)
        case (.text, _), (.attribute, _): buffer.writeImmutableBuffer(escaped)
        }
    }
}

extension SlottedHTML<String> {
    /// Where a render left a hole: the writer index of its buffer, and its slot's name.
    struct RenderedHole {
        let offset: Int
        let name: String
        let escaping: OutputEscaping
    }

    /// The text is copied into a buffer of its own size: the render's buffer was sized for the
    /// template's last render, which for a member's page may have been a list ten times as long,
    /// and a kept page would hold that room for as long as it is kept.
    init(rendered: ByteBuffer, holes: [RenderedHole]) {
        var text = ByteBufferAllocator().buffer(capacity: rendered.readableBytes)
        text.writeImmutableBuffer(rendered)
        let start = rendered.readerIndex
        self.init(text: text, holes: holes.map { Hole(offset: $0.offset - start, slot: $0.name, escaping: $0.escaping) })
    }
}
