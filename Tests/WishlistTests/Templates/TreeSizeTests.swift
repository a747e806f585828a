import Testing
@testable import WishlistLanguages
@testable import WishlistTemplates

/// The server holds every template compiled once per language for its whole life, so a node's
/// width is paid by every node of every tree: a language's data carried inline once made each
/// node about 250 bytes, 18 MB of the server's memory at rest (Benchmarks/history.md).
@Suite("Compiled tree size")
struct TreeSizeTests {
    @Test func aRenderNodeIsNoWiderThanALoop() {
        #expect(MemoryLayout<RenderNode>.stride <= MemoryLayout<LoopNode>.stride + 8)
        #expect(MemoryLayout<RenderNode>.stride <= 64)
    }

    @Test func aFilterCarriesItsLanguageByReference() {
        #expect(MemoryLayout<LanguageData>.stride == MemoryLayout<AnyObject>.stride)
        #expect(MemoryLayout<Filter>.stride <= 40)
    }
}
