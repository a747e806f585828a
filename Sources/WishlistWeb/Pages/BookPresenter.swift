import Foundation
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The values the templates read for lists, books, covers, links and placements, built in one
/// place for every controller that shows them.
enum BookPresenter {

    static func listValue(_ list: ListSummary, isFavorite: Bool) -> TemplateValue {
        [
            "name_encoded": .string(list.nameEncoded), "display_name": .string(list.displayName),
            "path": .string(SitePath.list(list.nameEncoded)), "favorite_path": .string(SitePath.favoriteList(list.nameEncoded)),
            "frequency": .string(list.frequency.label), "period": .string(list.frequency.period), "published_date": .string(list.publishedDate),
            "fetched_at": list.fetchedAt.map(TemplateValue.date) ?? .null, "book_count": .int(list.bookCount),
            "is_favorite": .bool(isFavorite),
        ]
    }

    /// External links for `partials/book-links.html`; `translations` word the names the catalog
    /// gives its reading links ("First chapter"), English where they are shown in no language.
    static func linksValue(_ links: [CatalogBook.Link], label: String, in translations: Translations = Translations()) -> TemplateValue {
        .array(links.map { [label: .string(translations.text($0.name)), "url": .string($0.url)] })
    }

    static func placementValue(_ placement: Placement) -> TemplateValue {
        [
            "name_encoded": .string(placement.listNameEncoded), "path": .string(SitePath.list(placement.listNameEncoded)),
            "display_name": .string(placement.displayName), "rank": .int(placement.rank),
        ]
    }

    /// A cover is served by us (`/covers/`, CoversController) at two widths, for `srcset`,
    /// whatever host the image came from. One whose size the API did not give sits in the box of
    /// a typical jacket (the CSS fills it without stretching); no image at all is the placeholder.
    static func coverValue(url: String?, width: Int, height: Int) -> TemplateValue {
        guard let url, !url.isEmpty else { return ["url": "", "width": 128, "height": 193] }
        let key = CoverKey.of(url)
        let (shownWidth, shownHeight) = width > 0 && height > 0 ? (width, height) : (128, 193)
        return [
            "url": .string(SitePath.cover(key, .small)), "large_url": .string(SitePath.cover(key, .large)),
            "width": .int(shownWidth), "height": .int(shownHeight),
        ]
    }

    /// The cover of a book's own page carried in its HTML, where it is the largest thing shown:
    /// painted with the page, not a round trip later (docs/decisions/book-page-carries-its-cover.md).
    /// `dataURL` is the cover's large file in base64 (``inlineCover(_:)``) or the placeholder
    /// jacket, percent-encoded (``StaticFiles/inlineSVG(_:)``): characters that need no escaping
    /// in an attribute. The element is made here because the template engine writes no `data:`
    /// URL into `src` (``URLSafety``), rightly for any it did not make.
    static func carriedCover(_ dataURL: String, width: Int, height: Int, isPlaceholder: Bool) -> TrustedHTML {
        let classes = isPlaceholder ? "book-cover book-cover-placeholder" : "book-cover"
        return TrustedHTML(trusted: #"<img class="\#(classes)" src="\#(dataURL)" width="\#(width)" height="\#(height)" alt="">"#)
    }

    /// The largest cover file a book's page carries; a larger one is linked, as before. At 16 KiB
    /// the page's transfer on Slow 4G grows by at most about 90 ms against the 562.5 ms round trip
    /// it saves, while a typical jacket's 384 px file (20-50 KB) would cost each view of the page
    /// the whole file again, uncached (docs/decisions/book-page-carries-its-cover.md).
    static let carriedCoverLimit = 16 * 1024

    /// A cover's large file (a JPEG, ``CoverCache``) as a `data:` URL; nil past ``carriedCoverLimit``.
    static func inlineCover(_ jpeg: [UInt8]) -> String? {
        guard jpeg.count <= carriedCoverLimit else { return nil }
        return "data:image/jpeg;base64," + Data(jpeg).base64EncodedString()
    }

    static func movement(_ movement: Movement) -> TemplateValue {
        switch movement {
        case .new: ["kind": "new", "amount": 0]
        case .returning: ["kind": "returning", "amount": 0]
        case .up(let places): ["kind": "up", "amount": .int(places)]
        case .down(let places): ["kind": "down", "amount": .int(places)]
        case .same: ["kind": "same", "amount": 0]
        }
    }

    /// A book's row; `movement` goes with `listed` on a list page.
    static func bookRow(_ book: BookSummary, listed: ListedBook?, movement: Movement = .same, wishlistItem: ItemID?) -> TemplateValue {
        var row: [String: TemplateValue] = [
            "id": .string(book.id), "title": .string(book.title), "author": .string(book.author),
            "byline": bylineValue(author: book.author, contributor: book.contributor),
            "description": .string(book.description), "path": .string(SitePath.book(book.id)),
            "cover": coverValue(url: book.imageURL, width: book.imageWidth, height: book.imageHeight),
            "on_wishlist": .bool(wishlistItem != nil),
            "wishlist_item_path": wishlistItem.map { .string(SitePath.wishlistItem($0)) } ?? .null,
        ]
        if let listed {
            row["rank"] = .int(listed.rank)
            row["weeks_on_list"] = .int(listed.weeksOnList)
            row["movement"] = Self.movement(movement)
        }
        return .dictionary(row)
    }

    /// "New this week on your favourite lists": the entries grouped by list, in the order given.
    static func newEntries(_ entries: [NewEntry]) -> TemplateValue {
        var groups: [(list: NewEntry, books: [TemplateValue])] = []
        for entry in entries {
            let book: TemplateValue = [
                "title": .string(entry.book.title), "author": .string(entry.book.author),
                "path": .string(SitePath.book(entry.book.id)), "rank": .int(entry.rank), "is_returning": .bool(entry.isReturning),
            ]
            if groups.last?.list.listNameEncoded == entry.listNameEncoded { groups[groups.count - 1].books.append(book) } else { groups.append((entry, [book])) }
        }
        return .array(groups.map { group in
            [
                "path": .string(SitePath.list(group.list.listNameEncoded)), "display_name": .string(group.list.displayName),
                "period": .string(group.list.frequency.period), "published_date": .string(group.list.publishedDate),
                "books": .array(group.books),
            ]
        })
    }

    /// A byline's parts for `partials/byline.html`: with `linked`, each name it credits links to
    /// the author's page.
    static func bylineValue(_ byline: Byline, linked: Bool = true) -> TemplateValue {
        .array(byline.parts.map { part in
            switch part {
            case .text(let text): ["text": .string(text), "path": ""]
            case .name(let credited): ["text": .string(credited.name), "path": .string(linked ? SitePath.author(credited.key) : "")]
            }
        })
    }

    /// Bylines read once for every page that shows them: a byline is the same value whoever asks.
    static let bylines = BylineCache()

    /// The byline a book is shown with, on its page and in rows: the NYT's contributor line as it
    /// is ("by A. Illustrated by B"), or "by" and the author field. An author's page shows the
    /// lists' books, so a book a member added links no name (`linked` false): it might have none.
    static func bylineValue(author: String, contributor: String, linked: Bool = true) -> TemplateValue {
        bylines.value(author: author, contributor: contributor, linked: linked) {
            readBylineValue(author: author, contributor: contributor, linked: linked)
        }
    }

    /// ``bylineValue(author:contributor:linked:)`` read from the two fields.
    static func readBylineValue(author: String, contributor: String, linked: Bool) -> TemplateValue {
        let full = Byline(contributor)
        if !full.names.isEmpty { return bylineValue(full, linked: linked) }
        guard case .array(let parts) = bylineValue(Byline(author), linked: linked), !parts.isEmpty else { return .null }
        return .array([["text": "by ", "path": ""]] + parts)
    }

    /// Where to borrow and buy a book ({ name, url }, for `partials/book-links.html` and
    /// `partials/get-links.html`): the configured templates made with its facts (a template that
    /// needs an ISBN the book lacks is left out), the buying ones before the NYT's own (`nytBuyLinks`).
    static func getLinks(
        _ facts: BookLinkTemplate.Facts, templates: BookLinkTemplates, nytBuyLinks: [CatalogBook.Link]
    ) -> (borrow: TemplateValue, buy: TemplateValue) {
        let made = { (templates: [BookLinkTemplate]) -> [TemplateValue] in
            templates.compactMap { template in template.link(for: facts).map { ["name": .string(template.name), "url": .string($0)] } }
        }
        let nyt = nytBuyLinks.map { link -> TemplateValue in ["name": .string(link.name), "url": .string(link.url)] }
        return (.array(made(templates.borrow)), .array(made(templates.buy) + nyt))
    }

    /// What a link template can say of a book: its ISBNs only when its ISBN-13 is one.
    static func linkFacts(isbn13: String, title: String, author: String) -> BookLinkTemplate.Facts {
        let isbn = try? ISBN(isbn13)
        return BookLinkTemplate.Facts(isbn13: isbn?.isbn13 ?? "", isbn10: isbn?.isbn10 ?? "", title: title, author: author)
    }

    /// "New from authors you follow": each book with the list it entered and the author followed.
    static func newFromAuthors(_ entries: [NewFromAuthor]) -> TemplateValue {
        .array(entries.map { new in
            [
                "title": .string(new.entry.book.title), "path": .string(SitePath.book(new.entry.book.id)),
                "author_name": .string(new.authorName), "author_path": .string(SitePath.author(AuthorKey.of(new.authorName))),
                "rank": .int(new.entry.rank), "is_returning": .bool(new.entry.isReturning),
                "list_path": .string(SitePath.list(new.entry.listNameEncoded)), "display_name": .string(new.entry.displayName),
                "published_date": .string(new.entry.publishedDate),
            ]
        })
    }

    /// The NYT's price with its currency, as the page's language writes US dollars ("$28.99",
    /// "28,99 $"). A zero or missing price is stored as none and not shown (`NYTPrice.displayText`).
    static func priceText(_ price: String, in translations: Translations) -> String {
        let amount = price.replacingOccurrences(of: ".", with: translations.language.decimalSeparator)
        return translations.text("${amount}", context: "a price in US dollars", values: ["amount": amount])
    }

    /// A book's fields for its own page; its wishlist mark is the page's `wishlist_mark` slot.
    static func bookDetail(_ book: CatalogBook, in translations: Translations) -> [String: TemplateValue] {
        [
            "id": .string(book.id), "title": .string(book.title), "author": .string(book.author),
            "byline": bylineValue(author: book.author, contributor: book.contributor, linked: !book.isAdded),
            "contributor": .string(book.contributor), "publisher": .string(book.publisher),
            "description": .string(book.description), "price": book.price.map { .string(priceText($0, in: translations)) } ?? .null,
            "isbn13": .string(book.isbn13), "isbn10": .string(book.isbn10),
            "cover": coverValue(url: book.imageURL, width: book.imageWidth, height: book.imageHeight),
            "is_added": .bool(book.isAdded), "first_published": book.firstPublished.map { .int($0) } ?? .null,
        ]
    }
}
