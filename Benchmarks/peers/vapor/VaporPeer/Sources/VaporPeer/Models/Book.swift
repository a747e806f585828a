import Fluent
import Vapor

/// `book`: a catalog book, keyed by its ISBN.
final class Book: Model, @unchecked Sendable {
    static let schema = "book"

    @ID(custom: "id", generatedBy: .user)
    var id: String?

    @Field(key: "title")
    var title: String

    @Field(key: "author")
    var author: String

    @Field(key: "description")
    var description: String

    @OptionalField(key: "image_url")
    var imageURL: String?

    @Field(key: "image_width")
    var imageWidth: Int

    @Field(key: "image_height")
    var imageHeight: Int

    init() {}
}
