import Codecs
import Foundation
let data = try! Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let out = try! data.withUnsafeBytes { try LZFSE.decompress($0) }
FileManager.default.createFile(atPath: CommandLine.arguments[2], contents: Data(out))
