/// How much the owner wants a book, so givers can choose well. Stored as 1, 0 and -1 so that
/// "high first" is a descending sort on an index.
public enum Priority: String, Sendable, CaseIterable {
    case high, normal, low

    public var storedValue: Int {
        switch self {
        case .high: return 1
        case .normal: return 0
        case .low: return -1
        }
    }

    public init(storedValue: Int) {
        self = storedValue > 0 ? .high : storedValue < 0 ? .low : .normal
    }
}
