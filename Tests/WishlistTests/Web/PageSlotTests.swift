import Testing
@testable import WishlistWeb

/// The names a shared page's render leaves in its holes, resolved once to the keys a request
/// fills them by: a name resolved wrongly would put one book's mark under another.
@Suite("Page slots: hole names resolved to keys when a page is kept")
struct PageSlotTests {
    typealias ListSlot = PageSlot<ListPage.Slot>

    @Test func theLayoutsSlotsComeFirstAndAnUnknownNameStaysEmpty() {
        let never = { (_: String) -> ListPage.Slot? in
            Issue.record("a layout name went to the page")
            return nil
        }
        #expect(ListSlot("stylesheet", own: never) == .stylesheet)
        #expect(ListSlot("csrf_token", own: never) == .csrfToken)
        #expect(ListSlot("flash_html", own: never) == .flash)
        #expect(ListSlot("user.name", own: never) == .name)
        #expect(ListSlot("user.wishlist_count", own: never) == .wishlistCount)
        #expect(ListSlot("user.wishlist_noun", own: never) == .wishlistNoun)
        #expect(ListSlot("no_such_slot", own: { _ in nil }) == .unknown)
    }

    @Test func aListPagesBookSlotsAreNumberedByTheBooksPlaceInThePage() {
        let indexes = ["9780000000001": 0, "9780000000002": 1]
        let slot = { (name: String) in ListSlot(name, own: { ListPage.Slot($0, indexes: indexes) }) }
        #expect(slot("mark:9780000000002") == .own(.mark(1)))
        #expect(slot("item:9780000000001") == .own(.item(0)))
        #expect(slot("return_to") == .own(.returnTo))
        #expect(slot("new_this_week") == .own(.newThisWeek))
        // A book that is not on the page, or a name that only starts like a book's slot.
        #expect(slot("mark:9780000000003") == .unknown)
        #expect(slot("marks:9780000000001") == .unknown)
        #expect(slot("item:") == .unknown)
    }

    @Test func aBookPageKnowsOnlyItsOwnBooksItem() {
        #expect(BookPage.Slot("item:9780000000001", bookID: "9780000000001") == .item)
        #expect(BookPage.Slot("item:9780000000002", bookID: "9780000000001") == nil)
        #expect(BookPage.Slot("wishlist_mark", bookID: "9780000000001") == .wishlistMark)
        #expect(BookPage.Slot("return_to", bookID: "9780000000001") == .returnTo)
    }
}
