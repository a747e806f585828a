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
        self.page = try PageNumber.parse(page)
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

    /// What the page's template shows: the filter, the counts, and links to the neighbouring pages
    /// of `path`.
    func templateValue<Item>(_ names: PagedList<Item>, path: String, anchor: String = "") -> TemplateValue {
        let filterField = filter.isEmpty ? nil : "q=" + PercentEncoding.encode(filter)
        var fields = names.pagerFields { page in PageNumber.link(path, filterField, page == 1 ? nil : "page=\(page)") + anchor }
        fields["filter"] = .string(filter)
        return .dictionary(fields)
    }
}
