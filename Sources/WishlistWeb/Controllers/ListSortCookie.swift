import Foundation
import Hummingbird

/// Which lists a browser last sorted by weeks on the list, kept in a cookie: remembering a
/// display choice must not make a GET change anything on the server.
struct ListSortCookie {
    static let name = "wishlist_sort_weeks"
    private var lists: [String]

    init(_ value: String?) {
        lists = (value ?? "").split(separator: ".").map(String.init).filter { name in
            name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
    }

    func sortsByWeeks(_ list: String) -> Bool { lists.contains(list) }

    /// Returns whether anything changed.
    mutating func set(_ list: String, byWeeks: Bool) -> Bool {
        guard byWeeks != sortsByWeeks(list) else { return false }
        if byWeeks { lists = Array((lists + [list]).suffix(60)) } else { lists.removeAll { $0 == list } }
        return true
    }

    func cookie(secure: Bool) -> Cookie {
        Cookie(
            name: Self.name, value: lists.joined(separator: "."), maxAge: 365 * 86_400, path: SitePath.catalog,
            secure: secure, httpOnly: true, sameSite: .lax
        )
    }
}
