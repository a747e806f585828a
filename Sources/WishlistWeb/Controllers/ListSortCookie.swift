import Foundation
import Hummingbird

/// The orders of a list page: the NYT's rank, weeks on the list, and the household's wishes and
/// ratings (issue 28).
enum ListSort: String, Sendable, CaseIterable {
    case rank, weeks, wanted, rating

    /// Whether the order follows the household's wishes and ratings rather than the NYT's figures.
    var followsHousehold: Bool { self == .wanted || self == .rating }
}

/// Each list's order as a browser last chose it, kept in a cookie: remembering a display choice
/// must not make a GET change anything on the server. The value names the lists not sorted by
/// rank, dot-separated: `name` for weeks (the cookie's first form, still read) or `name:order`.
struct ListSortCookie {
    static let name = "wishlist_sort_weeks"
    private var sorts: [(list: String, sort: ListSort)]

    init(_ value: String?) {
        sorts = (value ?? "").split(separator: ".").compactMap { entry in
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard let list = parts.first, list.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }),
                  let sort = parts.count == 2 ? ListSort(rawValue: parts[1]) : .weeks, sort != .rank
            else { return nil }
            return (list, sort)
        }
    }

    func sort(of list: String) -> ListSort { sorts.last { $0.list == list }?.sort ?? .rank }

    /// Returns whether anything changed.
    mutating func set(_ list: String, _ sort: ListSort) -> Bool {
        guard sort != self.sort(of: list) else { return false }
        sorts.removeAll { $0.list == list }
        if sort != .rank { sorts = Array((sorts + [(list, sort)]).suffix(60)) }
        return true
    }

    func cookie(secure: Bool) -> Cookie {
        Cookie(
            name: Self.name, value: sorts.map { $0.sort == .weeks ? $0.list : "\($0.list):\($0.sort.rawValue)" }.joined(separator: "."),
            maxAge: 365 * 86_400, path: SitePath.catalog, secure: secure, httpOnly: true, sameSite: .lax
        )
    }
}
