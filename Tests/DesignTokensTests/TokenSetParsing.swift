import DesignTokens
import JSON

extension TokenSet {
    /// The set one file of `text` makes, named `file` in its problems and warnings.
    init(parsing text: String, file: String) throws {
        self.init(sources: [TokenSource(root: try JSONParser.parse(Array(text.utf8)), location: TokenLocation(file: file, pointer: ""))])
    }
}
