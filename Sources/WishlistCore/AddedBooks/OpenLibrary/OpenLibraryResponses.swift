/// Open Library's answers, as far as a look-up reads them. Every field but the key and title may
/// be missing from any answer, so all are optional. `package` so that the fuzz target decodes them
/// (`make fuzz`).
package struct OpenLibrarySearchAnswer: Decodable {
    struct Document: Decodable {
        let key: String?
        let title: String?
        let authorName: [String]?
        let firstPublishYear: Int?
        let isbn: [String]?
        let coverI: Int?

        enum CodingKeys: String, CodingKey {
            case key, title, isbn
            case authorName = "author_name"
            case firstPublishYear = "first_publish_year"
            case coverI = "cover_i"
        }
    }

    let docs: [Document]
}

/// `/books/{id}.json`, where `/isbn/{isbn}.json` redirects.
package struct OpenLibraryEdition: Decodable {
    struct Reference: Decodable {
        let key: String
    }

    let title: String?
    let subtitle: String?
    let authors: [Reference]?
    let works: [Reference]?
    let publishDate: String?
    let publishers: [String]?
    let covers: [Int]?

    enum CodingKeys: String, CodingKey {
        case title, subtitle, authors, works, publishers, covers
        case publishDate = "publish_date"
    }
}

/// `/works/{id}.json`: read for its authors when an edition names none.
package struct OpenLibraryWork: Decodable {
    struct Role: Decodable {
        let author: OpenLibraryEdition.Reference?
    }

    let authors: [Role]?
}

/// `/authors/{id}.json`.
package struct OpenLibraryAuthor: Decodable {
    let name: String?
}
