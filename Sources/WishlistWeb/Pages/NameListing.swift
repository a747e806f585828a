import WishlistCore
import WishlistTemplates

/// Which page of a list of names (`/admin`'s accounts, `/people`) to show, and the part of a name
/// to find: from the query (`q`, `page`), and carried by the forms on such a page so that their
/// answer returns to it.
struct NameListing {
    var filter = ""
    var page = 1

    init() {}

    /// Parses `q` and `page` as a query carries them; a page that is not a positive number is a 400.
    init(filter: String, page: String) throws {
        self.filter = String(filter.prefix(100))
        guard !page.isEmpty else { return }
        guard page.count <= 6, page.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(page), number > 0 else {
            throw PageError.badRequest("Pages are numbered from 1; “\(page.prefix(40))” is not a page number.")
        }
        self.page = number
    }

    /// The listing a form came from; what does not parse is the first page, since the form's
    /// action itself has been done.
    static func returning(_ form: FormBody) -> NameListing {
        var listing = NameListing()
        listing.filter = (try? form.text("q", maxLength: 100)) ?? ""
        listing.page = (try? form.text("page", maxLength: 6)).flatMap { Int($0) }.map { max(1, $0) } ?? 1
        return listing
    }

    /// `&q=…&page=…` to follow a query that has a first field, empty for the first page unfiltered.
    var query: String {
        (filter.isEmpty ? "" : "&q=" + PercentEncoding.encode(filter)) + (page == 1 ? "" : "&page=\(page)")
    }

    /// What the page's template shows: the counts, and links to the neighbouring pages of `path`.
    func templateValue<Item>(_ names: NamePage<Item>, path: String, anchor: String = "") -> TemplateValue {
        let number = names.number
        let link = { (page: Int) -> String in
            let fields = [filter.isEmpty ? nil : "q=" + PercentEncoding.encode(filter), page == 1 ? nil : "page=\(page)"].compactMap { $0 }
            return path + (fields.isEmpty ? "" : "?" + fields.joined(separator: "&")) + anchor
        }
        return [
            "filter": .string(filter), "page": .int(number), "pages": .int(names.pageCount), "total": .int(names.total),
            "first": .int(names.firstPosition), "last": .int(names.lastPosition),
            "previous": number > 1 ? .string(link(number - 1)) : .null,
            "next": number < names.pageCount ? .string(link(number + 1)) : .null,
        ]
    }
}
