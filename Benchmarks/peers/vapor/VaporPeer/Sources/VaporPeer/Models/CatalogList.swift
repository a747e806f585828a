import Fluent
import Vapor

/// `catalog_list`: one best-seller list and the date of its current edition.
final class CatalogList: Model, @unchecked Sendable {
    static let schema = "catalog_list"

    @ID(custom: "name_encoded", generatedBy: .user)
    var id: String?

    @Field(key: "display_name")
    var displayName: String

    /// "WEEKLY" or "MONTHLY"
    @Field(key: "frequency")
    var frequency: String

    @Field(key: "is_current")
    var isCurrent: Bool

    /// `yyyy-MM-dd`, nil until an edition is stored.
    @OptionalField(key: "published_date")
    var publishedDate: String?

    /// SQLite text as the app writes it: `yyyy-MM-dd HH:mm:ss.SSS`, UTC.
    @OptionalField(key: "fetched_at")
    var fetchedAt: String?

    init() {}
}
