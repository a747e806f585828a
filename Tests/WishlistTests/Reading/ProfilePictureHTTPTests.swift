import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistWeb

@Suite("Profile pictures over HTTP: upload, serve, replace, refuse", .removesTemporaryDirectories)
struct ProfilePictureHTTPTests {
    @Test func anUploadedPictureIsServedSquareAt256And64WithoutItsMetadataAndCachedForAYear() async throws {
        let home = try await Household.make()
        try await home.run { maya, ana, _ in
            let uploaded = try await maya.uploadPicture(PictureSamples.png(width: 600, height: 300, exifText: "GPSLatitude 51.5074 N"))
            #expect(uploaded.status == .seeOther)
            #expect(uploaded.location == "/settings/profile?done=picture")
            let page = try await ana.get("/people/maya")
            let large = try #require(page.text.firstMatch(of: /src="(\/pictures\/[A-Za-z0-9_-]{16}-256\.jpg)"/)?.1)
            let small = large.replacingOccurrences(of: "-256.jpg", with: "-64.jpg")
            for (path, side) in [(String(large), 256), (small, 64)] {
                let picture = try await ana.get(path)
                #expect(picture.status == .ok)
                #expect(picture.headers[.contentType] == "image/jpeg")
                #expect(picture.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(picture.headers[.xContentTypeOptions] == "nosniff")
                let bytes = Array(picture.body.readableBytesView)
                let frame = try #require(PictureSamples.jpegFrame(bytes))
                #expect(frame.width == side && frame.height == side, "square, \(side) px")
                #expect(!frame.hasAPP1, "no EXIF or XMP segment")
                #expect(!String(decoding: bytes, as: UTF8.self).contains("GPS"), "nothing of the camera's data is left")
            }
            // A new picture is a new address; the old one is gone.
            _ = try await maya.uploadPicture(PictureSamples.png(width: 100, height: 100))
            #expect(try await ana.get(String(large)).status == .notFound)
            let removed = try await maya.post("/settings/profile/picture/delete", [])
            #expect(removed.location == "/settings/profile?done=picture-removed")
            #expect(try await ana.get("/people/maya").text.contains("avatar-initials"))
            #expect(try await ana.get("/pictures/nothing-here-256.jpg").status == .notFound)
        }
    }

    @Test func whatIsNotAUsablePictureGetsASentenceAndChangesNothing() async throws {
        let home = try await Household.make()
        let good = PictureSamples.png(width: 40, height: 30)
        let jpeg = picture(.jpeg, width: 300, height: 200)
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            let cases: [(label: String, bytes: [UInt8], type: String?, says: String)] = [
                ("zero bytes", [], "image/png", "That file is empty."),
                ("text", Array("just some words".utf8), "text/plain", "That file is not a JPEG, PNG or WebP picture."),
                ("an SVG", Array(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8), "image/svg+xml", "That file is not a JPEG, PNG or WebP picture."),
                ("a PNG said to be a JPEG", good, "image/jpeg", "That file’s type does not match its contents"),
                ("a bomb", PictureSamples.pngClaiming(width: 50_000, height: 50_000), "image/png", "That picture is over 40 megapixels (it is 50,000 × 50,000)."),
                ("cut short", Array(good.prefix(good.count / 2)), "image/png", "That picture could not be read; it may be damaged or cut short."),
                ("a JPEG cut short", Array(jpeg.prefix(jpeg.count / 2)), "image/jpeg", "That picture could not be read; it may be damaged or cut short."),
                ("a PNG signature on a JPEG", pngSignature + jpeg, "image/png", "That picture could not be read; it may be damaged or cut short."),
                ("a GIF that is also a script", Array("GIF89a/*<script>alert(1)</script>*/".utf8), "image/gif", "That file is not a JPEG, PNG or WebP picture."),
                ("over 8 MB", Array(good) + [UInt8](repeating: 0, count: 8 * 1024 * 1024), "image/png", "That picture is over 8 MB."),
            ]
            for sample in cases {
                let refused = try await maya.uploadPicture(sample.bytes, contentType: sample.type)
                #expect(refused.status == .unprocessableContent, "\(sample.label): \(refused.status)")
                #expect(refused.shows(sample.says), "\(sample.label)")
            }
            let empty = try await maya.uploadPicture([], filename: "", contentType: "application/octet-stream")
            #expect(empty.shows("Choose a picture file, then press Upload picture."))
            #expect(try await home.server.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM profile_picture") } == 0)
        }
    }

    /// The largest picture crosses the body limit, the multipart form (which hands its bytes on
    /// without a copy) and the processor whole; a byte more is the processor's "over 8 MB".
    @Test func aPictureOfExactlyEightMBIsTakenAndOneByteMoreIsNot() async throws {
        let home = try await Household.make()
        let jpeg = picture(.jpeg, width: 300, height: 200)
        // The JPEG, then zeros its decoder never reads, up to the limit.
        let largest = jpeg + [UInt8](repeating: 0, count: PictureProcessor.maximumBytes - jpeg.count)
        let expected = try await PictureProcessor().process(bytes: largest, declaredType: "image/jpeg")
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            let taken = try await maya.uploadPicture(largest, filename: "camera.jpg", contentType: "image/jpeg")
            #expect(taken.status == .seeOther)
            let stored = try await home.server.database.pool.read { try Data.fetchOne($0, sql: "SELECT large FROM profile_picture") }
            #expect(stored == Data(expected.large))
            let refused = try await maya.uploadPicture(largest + [0], filename: "camera.jpg", contentType: "image/jpeg")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.shows("That picture is over 8 MB."))
        }
    }

    @Test func aBodyFarOverTheLimitIsRefusedBeforeItIsRead() async throws {
        let home = try await Household.make()
        try await TestApp.run(home.server) { browser in
            var maya = try await TestBrowser.signedIn("maya", like: browser)
            try await maya.refreshCSRFToken()
            let refused = try await maya.send(
                "/settings/profile/picture", method: .post,
                headers: [.contentType: "multipart/form-data; boundary=x", .contentLength: String(100 * 1024 * 1024)], body: nil
            )
            #expect(refused.status == .contentTooLarge)
            #expect(refused.shows("Pictures can be up to 8 MB. Choose a smaller picture."))
        }
    }
}
