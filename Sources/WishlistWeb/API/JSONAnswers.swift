import Foundation

// How each of the API's answers writes itself (issue 54): its fields in the order of their
// snake_case names, as `JSONEncoder`'s sorted keys wrote them; a field that may be nil is left out
// when it is, as a synthesized `Encodable` leaves it out. `JSONWriterTests` checks every one
// against the synthesized `Encodable` the types keep for that.

extension APIController.WantFields {
    /// The fields in their order, with a giver's view's own (``APIController/SharedWant``) written
    /// in their places by `afterBookID` and `beforeTitle`, inside the object that holds them.
    func write(
        to json: inout JSONWriter, afterBookID: (inout JSONWriter) -> Void = { _ in }, beforeTitle: (inout JSONWriter) -> Void = { _ in }
    ) {
        json.field("author", author)
        json.fieldIfPresent("book_id", bookId)
        afterBookID(&json)
        json.field("id", id)
        json.field("isbn13", isbn13)
        json.field("lists", lists)
        json.field("note", note)
        json.field("priority", priority)
        beforeTitle(&json)
        json.field("title", title)
    }
}

extension APIController.Want: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("added_at", addedAt)
            fields.write(to: &json)
        }
    }
}

extension APIController.WantsPage: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("page", page)
            json.field("pages", pages)
            json.field("total", total)
            json.field("wants", wants)
        }
    }
}

extension APIController.SharedWant: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            fields.write(
                to: &json, afterBookID: { $0.fieldIfPresent("bought", bought) },
                beforeTitle: { json in
                    json.field("reservation", reservation)
                    json.fieldIfPresent("reserved_by", reservedBy)
                }
            )
        }
    }
}

extension APIController.List: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("id", id)
            json.field("is_default", isDefault)
            json.field("name", name)
            json.field("occasion", occasion)
            json.fieldIfPresent("occasion_date", occasionDate)
            json.field("visibility", visibility)
            json.field("want_count", wantCount)
        }
    }
}

extension APIController.CatalogList: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("book_count", bookCount)
            json.field("display_name", displayName)
            json.field("name", name)
            json.field("published_date", publishedDate)
        }
    }
}

extension APIController.ListedBookBody: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("author", author)
            json.field("book_id", bookId)
            json.field("rank", rank)
            json.field("title", title)
            json.field("weeks_on_list", weeksOnList)
        }
    }
}

extension APIController.CatalogListPage: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("books", books)
            json.field("list", list)
        }
    }
}

extension APIController.Book: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("author", author)
            json.field("description", description)
            json.field("id", id)
            json.field("isbn10", isbn10)
            json.field("isbn13", isbn13)
            json.field("publisher", publisher)
            json.field("title", title)
        }
    }
}

extension APIController.FoundBook: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("author", author)
            json.field("id", id)
            json.field("title", title)
        }
    }
}

extension APIController.SearchPage: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("books", books)
            json.field("page", page)
            json.field("pages", pages)
            json.field("total", total)
        }
    }
}

extension APIController.Person: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("name", name)
            json.field("username", username)
            json.field("want_count", wantCount)
        }
    }
}

extension APIController.PeoplePage: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("page", page)
            json.field("pages", pages)
            json.field("people", people)
            json.field("total", total)
        }
    }
}

extension APIController.PersonBody: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("lists", lists)
            json.field("name", name)
            json.field("username", username)
            json.field("want_count", wantCount)
        }
    }
}

extension APIController.GiftBody: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("author", author)
            json.field("bought", bought)
            json.field("id", id)
            json.field("owner", owner)
            json.field("owner_name", ownerName)
            json.field("reserved_at", reservedAt)
            json.field("state", state)
            json.field("title", title)
            json.fieldIfPresent("want_id", wantId)
        }
    }
}

extension APIController.ReservationBody: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("reservation", reservation)
            json.field("want_id", wantId)
        }
    }
}

extension APIController.ReadingBody: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("author", author)
            json.fieldIfPresent("book_id", bookId)
            json.fieldIfPresent("finished_on", finishedOn)
            json.field("isbn13", isbn13)
            json.fieldIfPresent("rating", rating)
            json.field("review", review)
            json.field("title", title)
            json.field("updated_at", updatedAt)
        }
    }
}

extension APIController.ReadingsPage: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("page", page)
            json.field("pages", pages)
            json.field("readings", readings)
            json.field("total", total)
        }
    }
}
