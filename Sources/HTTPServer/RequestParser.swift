import HTTPTypes

/// Incremental HTTP/1.1 request parsing with limits: takes the bytes received so far and
/// returns a complete request, "need more", or the error status to answer with.
struct RequestParser {
    struct Limits {
        var requestLineBytes: Int
        var headerBytes: Int
        var bodyBytes: Int
    }

    enum Outcome {
        case request(Request, keepAlive: Bool, consumed: Int)
        case incomplete
        /// Answer with this status and close the connection.
        case failure(HTTPResponse.Status, String)
    }

    let limits: Limits

    func parse(_ buffer: ArraySlice<UInt8>, remoteAddress: String) -> Outcome {
        guard let headEnd = Self.find([13, 10, 13, 10], in: buffer) else {
            let firstLineEnd = Self.find([13, 10], in: buffer)
            if firstLineEnd == nil, buffer.count > limits.requestLineBytes { return .failure(.uriTooLong, "request line too long") }
            if buffer.count > limits.requestLineBytes + limits.headerBytes { return .failure(.requestHeaderFieldsTooLarge, "headers too large") }
            return .incomplete
        }
        let start = buffer.startIndex
        guard let requestLineEnd = Self.find([13, 10], in: buffer[start ..< headEnd + 2]) else { return .failure(.badRequest, "empty request") }
        guard requestLineEnd - start <= limits.requestLineBytes else { return .failure(.uriTooLong, "request line too long") }
        guard headEnd - requestLineEnd <= limits.headerBytes else { return .failure(.requestHeaderFieldsTooLarge, "headers too large") }
        // Request line: METHOD SP target SP version, split by index (no intermediate arrays).
        guard let firstSpace = buffer[start ..< requestLineEnd].firstIndex(of: 32),
              let secondSpace = buffer[(firstSpace + 1) ..< requestLineEnd].firstIndex(of: 32),
              buffer[(secondSpace + 1) ..< requestLineEnd].firstIndex(of: 32) == nil,
              let methodName = String(validating: buffer[start ..< firstSpace], as: UTF8.self), let method = HTTPRequest.Method(methodName),
              let target = String(validating: buffer[(firstSpace + 1) ..< secondSpace], as: UTF8.self), target.hasPrefix("/"),
              let version = String(validating: buffer[(secondSpace + 1) ..< requestLineEnd], as: UTF8.self) else {
            return .failure(.badRequest, "malformed request line")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(version.hasPrefix("HTTP/") ? .httpVersionNotSupported : .badRequest, "unsupported version")
        }
        var headers = HTTPFields()
        var lineStart = requestLineEnd + 2
        while lineStart < headEnd {
            let lineEnd = Self.find([13, 10], in: buffer[lineStart ..< headEnd + 2]) ?? headEnd
            let line = buffer[lineStart ..< lineEnd]
            lineStart = lineEnd + 2
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
                  let nameText = String(validating: line[line.startIndex ..< colon], as: UTF8.self),
                  let name = HTTPField.Name(nameText),
                  let value = String(validating: line[line.index(after: colon)...], as: UTF8.self) else {
                return .failure(.badRequest, "malformed header line")
            }
            headers.append(HTTPField(name: name, value: value.trimmingSpaces()))
        }
        if headers[.transferEncoding] != nil { return .failure(.notImplemented, "transfer encodings are not supported") }
        var bodyLength = 0
        if let lengthText = headers[.contentLength] {
            guard let length = Int(lengthText), length >= 0 else { return .failure(.badRequest, "bad Content-Length") }
            guard length <= limits.bodyBytes else { return .failure(.contentTooLarge, "body too large") }
            bodyLength = length
        }
        let bodyStart = headEnd + 4
        guard buffer.endIndex - bodyStart >= bodyLength else { return .incomplete }
        let keepAlive: Bool
        if let connection = headers[.connection] {
            let options = connection.utf8.split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self).trimmingSpaces().lowercased() }
            keepAlive = version == "HTTP/1.1" ? !options.contains("close") : options.contains("keep-alive")
        } else {
            keepAlive = version == "HTTP/1.1"
        }
        do {
            let request = try Request(method: method, target: target, headers: headers,
                                      body: Array(buffer[bodyStart ..< bodyStart + bodyLength]), remoteAddress: remoteAddress)
            return .request(request, keepAlive: keepAlive, consumed: bodyStart + bodyLength - buffer.startIndex)
        } catch {
            return .failure(.badRequest, error.description)
        }
    }

    /// The index where `pattern` starts in `buffer`.
    static func find(_ pattern: [UInt8], in buffer: ArraySlice<UInt8>) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        var index = buffer.startIndex
        let last = buffer.endIndex - pattern.count
        while index <= last {
            if buffer[index] == pattern[0] {
                var matches = true
                for offset in 1 ..< pattern.count where buffer[index + offset] != pattern[offset] {
                    matches = false
                    break
                }
                if matches { return index }
            }
            index += 1
        }
        return nil
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
