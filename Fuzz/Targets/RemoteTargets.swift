import Foundation
import WishlistCore

/// A passkey's registration and sign-in messages, which the browser relays from the
/// authenticator: the first byte picks the parser, the rest is its input.
@Sendable func fuzzWebAuthn(_ bytes: [UInt8]) {
    guard let selector = bytes.first else { return }
    let message = Array(bytes.dropFirst())
    switch selector % 4 {
    case 0: _ = try? AttestationObject(bytes: message)
    case 1: _ = try? AuthenticatorData(bytes: message)
    case 2: _ = try? COSEKey(cbor: message)
    default: _ = try? ClientData(json: message)
    }
}

/// The Books API's answers: the overview's lists and a single list, each made into an edition.
@Sendable func fuzzNYTJSON(_ bytes: [UInt8]) {
    let data = Data(bytes)
    if let overview = try? JSONDecoder().decode(NYTOverviewResponse.self, from: data) {
        for list in overview.results.lists {
            check(CatalogEdition(list, publishedDate: overview.results.publishedDate, frequency: .weekly))
        }
    }
    if let answer = try? JSONDecoder().decode(NYTListAnswer.self, from: data) {
        check(CatalogEdition(answer.results, publishedDate: "2026-01-04", frequency: .monthly))
    }
}

/// An edition keeps only books with distinct ranks and http(s) links.
private func check(_ edition: CatalogEdition) {
    let ranks = edition.entries.map(\.rank)
    require(Set(ranks).count == ranks.count, "an edition with a rank twice")
}

private struct NYTListAnswer: Decodable {
    let results: NYTList
}

/// Open Library's search, edition, work and author answers.
@Sendable func fuzzOpenLibraryJSON(_ bytes: [UInt8]) {
    let data = Data(bytes)
    _ = try? JSONDecoder().decode(OpenLibrarySearchAnswer.self, from: data)
    _ = try? JSONDecoder().decode(OpenLibraryEdition.self, from: data)
    _ = try? JSONDecoder().decode(OpenLibraryWork.self, from: data)
    _ = try? JSONDecoder().decode(OpenLibraryAuthor.self, from: data)
}
