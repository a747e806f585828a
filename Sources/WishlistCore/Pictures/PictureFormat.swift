/// The picture formats a profile accepts, known by their first bytes (their magic numbers): the
/// file's name and the type the browser declares are only claims.
package enum PictureFormat: Sendable, Equatable, CaseIterable {
    case jpeg
    case png
    case webp

    /// The format the bytes begin as, or nil for anything else (GIF, SVG, HEIC, text...).
    package init?(sniffing bytes: UnsafeRawBufferPointer) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.count >= 12, bytes.starts(with: "RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// What a browser may declare for this format: the registered type, and the older names
    /// some still send.
    package var mediaTypes: Set<String> {
        switch self {
        case .jpeg: ["image/jpeg", "image/jpg", "image/pjpeg"]
        case .png: ["image/png", "image/x-png"]
        case .webp: ["image/webp"]
        }
    }

    /// For sentences: "a PNG picture".
    package var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }

    /// Whether a declared `Content-Type` agrees with this format. No declaration, an empty one
    /// and `application/octet-stream` (what a browser sends when it does not know) claim
    /// nothing; parameters (`; charset=…`) and case are ignored.
    package func agrees(withDeclaredType declared: String?) -> Bool {
        guard let declared else { return true }
        // A media type has no spaces, so dropping them all only undoes a sloppy "image/png ; q=1".
        let mediaType = declared.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }.lowercased()
        return mediaType.isEmpty || mediaType == "application/octet-stream" || mediaTypes.contains(mediaType)
    }
}
