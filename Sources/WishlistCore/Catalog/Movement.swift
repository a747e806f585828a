/// How a book moved since the list's edition before: what the list page shows beside its rank.
public enum Movement: Sendable, Equatable {
    case new
    /// Back on the list after at least one edition off it.
    case returning
    case up(Int)
    case down(Int)
    case same

    /// The API's `rank_last_week` when it has one; when it is 0 (the API's "not last week", also
    /// sent for books that were), the stored history decides: a book on the edition just before
    /// moved from its rank there, a book seen earlier is returning, and so is one the API counts
    /// more than one week on the list.
    public init(_ listed: ListedBook, earlier: EarlierAppearance?, previousEdition: String?) {
        switch listed.rankLastWeek {
        case 0:
            if let earlier, earlier.date == previousEdition {
                self = Self.between(earlier.rank, listed.rank)
            } else {
                self = earlier != nil || listed.weeksOnList > 1 ? .returning : .new
            }
        case let last:
            self = Self.between(last, listed.rank)
        }
    }

    private static func between(_ before: Int, _ now: Int) -> Movement {
        before > now ? .up(before - now) : before < now ? .down(now - before) : .same
    }
}
