import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// `?page=N` on a page that shows one ``PagedList`` page of a long list (`/people`, `/admin`,
/// a wishlist).
enum PageNumber {
    /// The number a query carries: 1 without one; one that is not a positive number is a 400.
    static func parse(_ text: String) throws -> Int {
        guard !text.isEmpty else { return 1 }
        guard text.count <= 6, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(text), number > 0 else {
            throw PageError.badRequest(
                Translations.marked("Pages are numbered from 1; “{value}” is not a page number."),
                values: ["value": String(text.prefix(40))]
            )
        }
        return number
    }

    /// `path` with the query `fields` that are not nil, joined.
    static func link(_ path: String, _ fields: String?...) -> String {
        let present = fields.compactMap { $0 }
        return present.isEmpty ? path : path + "?" + present.joined(separator: "&")
    }
}

extension PagedList {
    /// What a page's template shows of where it is in the list: the counts, and the links `link`
    /// makes to the neighbouring pages (null at either end).
    func pagerFields(link: (Int) -> String) -> [String: TemplateValue] {
        [
            "page": .int(number), "pages": .int(pageCount), "total": .int(total),
            "first": .int(firstPosition), "last": .int(lastPosition),
            "previous": number > 1 ? .string(link(number - 1)) : .null,
            "next": number < pageCount ? .string(link(number + 1)) : .null,
        ]
    }
}
