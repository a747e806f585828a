import NIOCore

/// A template rendered once, with holes where per-request values go: what a page cache keeps.
///
/// The text between holes is copied as it is; each hole is filled with a value escaped for the
/// place where its slot stood (text, attribute or URL), exactly as a full render would have
/// written it, or with another slotted fragment.
public struct SlottedHTML: Sendable {
    struct Hole: Sendable {
        let offset: Int
        let name: String
        let escaping: OutputEscaping
    }

    /// What fills a hole.
    public enum Fill {
        case value(TemplateValue)
        /// Another rendered fragment, filled by the same function. Only in text positions.
        case fragment(SlottedHTML)
    }

    /// The rendered text without its holes, and where each hole stood in it.
    private let text: ByteBuffer
    private let holes: [(offset: Int, name: String, escaping: OutputEscaping)]

    init(rendered: ByteBuffer, holes: [Hole]) {
        var text = rendered
        text.discardReadBytes()
        let start = rendered.readerIndex
        self.text = text
        self.holes = holes.map { ($0.offset - start, $0.name, $0.escaping) }
    }

    /// The names of the holes, in order.
    public var slotNames: [String] { holes.map(\.name) }

    /// The bytes of the text around the holes.
    public var byteCount: Int { text.readableBytes }

    /// Writes the text with every hole filled by `fill(name)`.
    public func write(into buffer: inout ByteBuffer, fill: (String) -> Fill) {
        // The text is copied from one contiguous region, run by run, without a buffer per run.
        text.withUnsafeReadableBytes { bytes in
            var copied = 0
            for hole in holes {
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[copied..<hole.offset]))
                copied = hole.offset
                switch fill(hole.name) {
                case .value(let value): buffer.writeOutput(value, escaping: hole.escaping)
                case .fragment(let fragment) where hole.escaping == .text: fragment.write(into: &buffer, fill: fill)
                // Markup in an attribute or a URL would not be escaped: such a hole stays empty.
                case .fragment: break
                }
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[copied...]))
        }
    }
}
