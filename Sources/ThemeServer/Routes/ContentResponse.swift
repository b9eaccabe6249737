import BlobStore
import HTTPServer
import HTTPTypes
import Hashing
import ThemeContent
import ThemeVocabulary

/// Answers whose body is content: a stored blob sent from its pack with `sendfile`, or bytes.
/// The ETag is the SHA-256 of exactly the bytes sent, so it is the same on every machine.
enum ContentResponse {
    static func make(_ content: ContentStore.Content, cacheControl: String, status: HTTPResponse.Status = .ok) -> Response {
        let headers: HTTPFields = [
            .contentType: content.contentType,
            .eTag: etag(content.digest),
            .cacheControl: cacheControl,
        ]
        switch content.body {
        case .blob(let blob):
            return Response(status: status, headers: headers,
                            file: FileRegion(descriptor: blob.pack.descriptor, offset: blob.offset, count: blob.count, owner: blob))
        case .bytes(let bytes):
            return Response(status: status, headers: headers, body: bytes)
        }
    }

    /// The content a response carries, when its ETag names its bytes (a blob, a JSON answer).
    static func content(of response: Response) -> ContentStore.Content? {
        guard let contentType = response.headers[.contentType], let digest = digest(response.headers[.eTag]) else { return nil }
        switch response.body {
        case .file(let region):
            guard let blob = region.owner as? BlobStore.Blob, blob.digest == digest else { return nil }
            return ContentStore.Content(blob)
        case .bytes(let bytes):
            return ContentStore.Content(bytes: bytes, contentType: contentType, digest: digest)
        case .stream, .deferred:
            return nil
        }
    }

    static func etag(_ digest: Digest) -> String { "\"\(digest.hex)\"" }

    static func digest(_ etag: String?) -> Digest? {
        guard let etag, etag.count == 66, etag.hasPrefix("\""), etag.hasSuffix("\"") else { return nil }
        return Digest(hex: etag.dropFirst().dropLast())
    }

    /// The `/blobs/` URL of content, with an extension for its type where one is known.
    static func blobPath(_ digest: Digest, contentType: String) -> String {
        let type = contentType.split(separator: ";").first.map(String.init) ?? contentType
        let fileExtension = type == "application/json" ? "json" : ImageFormat.allCases.first { $0.mimeType == type }?.fileExtension
        return "/blobs/\(digest.hex)" + (fileExtension.map { ".\($0)" } ?? "")
    }
}
