import JSON

/// What Figma's REST API answers for `GET /v1/files/:key/variables/local` (or its `meta` object
/// alone), read strictly: every member the conversion uses is checked, and a problem names
/// where it is (`variables["VariableID:1:2"].valuesByMode["1:0"]`), so a truncated or edited
/// file is refused whole before anything is written.
public struct FigmaFile: Sendable {
    public struct Mode: Sendable, Equatable {
        public var id: String
        public var name: String
    }

    /// A variable collection: its modes in Figma's order, the default one, and whether it comes
    /// from a linked library (`remote`), whose variables are followed but never written.
    public struct Collection: Sendable {
        public var id: String
        public var name: String
        public var modes: [Mode]
        public var defaultModeID: String
        public var remote: Bool

        public var defaultMode: Mode? { modes.first { $0.id == defaultModeID } }
    }

    /// The four kinds of value a variable holds (`resolvedType`).
    public enum ValueType: String, Sendable {
        case boolean = "BOOLEAN", float = "FLOAT", string = "STRING", color = "COLOR"
    }

    /// One mode's value: a literal of the variable's type, or an alias to another variable.
    public enum Value: Sendable, Equatable {
        case color(red: Double, green: Double, blue: Double, alpha: Double)
        case number(Double)
        case string(String)
        case boolean(Bool)
        case alias(variableID: String)
    }

    public struct Variable: Sendable {
        public var id: String
        public var name: String
        public var collectionID: String
        public var type: ValueType
        public var valuesByMode: [String: Value]
        public var scopes: [String]
        public var description: String
        /// From a linked library: followed for values, not written as a token.
        public var remote: Bool
        /// Deleted in Figma but still the target of an alias: followed, not written.
        public var deletedButReferenced: Bool

        /// Whether the import writes it as a token of its collection.
        public var isLocal: Bool { !remote && !deletedButReferenced }
    }

    public var collections: [String: Collection]
    public var variables: [String: Variable]

    /// A file or member that cannot be read as the API's answer, with where it is.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public var location: String
        public var reason: String
        public var description: String { location.isEmpty ? reason : "\(location): \(reason)" }
    }

    /// Reads the API's answer from its bytes.
    public init(bytes: [UInt8]) throws(Malformed) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw Malformed(location: "", reason: "not JSON (\(error)); was the file cut short?")
        }
        try self.init(json: root)
    }

    public init(json root: JSONValue) throws(Malformed) {
        // The REST answer wraps the collections and variables in `meta`; the object alone is taken too.
        let meta = root["meta"].flatMap { if case .object = $0 { $0 } else { nil } } ?? root
        guard case .object(let collectionMembers)? = meta["variableCollections"] else {
            throw Malformed(location: "meta.variableCollections", reason: "missing: not an answer of GET /v1/files/:key/variables/local")
        }
        guard case .object(let variableMembers)? = meta["variables"] else {
            throw Malformed(location: "meta.variables", reason: "missing: not an answer of GET /v1/files/:key/variables/local")
        }
        var collections: [String: Collection] = [:]
        for (id, member) in collectionMembers {
            let collection = try Self.collection(member, at: Reader(location: "variableCollections[\"\(id)\"]"))
            guard collection.id == id else { throw Malformed(location: "variableCollections[\"\(id)\"].id", reason: "is \(collection.id), not its key") }
            collections[id] = collection
        }
        var variables: [String: Variable] = [:]
        for (id, member) in variableMembers {
            let variable = try Self.variable(member, at: Reader(location: "variables[\"\(id)\"]"))
            guard variable.id == id else { throw Malformed(location: "variables[\"\(id)\"].id", reason: "is \(variable.id), not its key") }
            variables[id] = variable
        }
        (self.collections, self.variables) = (collections, variables)
    }

    private static func collection(_ value: JSONValue, at reader: Reader) throws(Malformed) -> Collection {
        let modes = try reader.array("modes", in: value)
        var read: [Mode] = []
        for (offset, mode) in modes.enumerated() {
            let at = reader.inside("modes[\(offset)]")
            read.append(Mode(id: try at.string("modeId", in: mode), name: try at.string("name", in: mode)))
        }
        let collection = Collection(id: try reader.string("id", in: value), name: try reader.string("name", in: value), modes: read,
                                    defaultModeID: try reader.string("defaultModeId", in: value), remote: try reader.bool("remote", in: value) ?? false)
        guard !read.isEmpty else { throw reader.malformed("modes", "a collection has at least one mode") }
        guard collection.defaultMode != nil else { throw reader.malformed("defaultModeId", "\(collection.defaultModeID) is none of its modes") }
        return collection
    }

    private static func variable(_ value: JSONValue, at reader: Reader) throws(Malformed) -> Variable {
        let typeName = try reader.string("resolvedType", in: value)
        guard let type = ValueType(rawValue: typeName) else { throw reader.malformed("resolvedType", "\(typeName) is none of BOOLEAN, FLOAT, STRING, COLOR") }
        guard case .object(let byMode)? = value["valuesByMode"] else { throw reader.malformed("valuesByMode", "missing or not an object") }
        var values: [String: Value] = [:]
        for (mode, member) in byMode {
            values[mode] = try Self.value(member, of: type, at: reader.inside("valuesByMode[\"\(mode)\"]"))
        }
        var scopes: [String] = []
        if let listed = value["scopes"] {
            guard case .array(let items) = listed else { throw reader.malformed("scopes", "not an array") }
            for item in items {
                guard case .string(let scope) = item else { throw reader.malformed("scopes", "holds a value that is not a string") }
                scopes.append(scope)
            }
        }
        return Variable(id: try reader.string("id", in: value), name: try reader.string("name", in: value),
                        collectionID: try reader.string("variableCollectionId", in: value), type: type, valuesByMode: values,
                        scopes: scopes, description: try reader.optionalString("description", in: value) ?? "",
                        remote: try reader.bool("remote", in: value) ?? false,
                        deletedButReferenced: try reader.bool("deletedButReferenced", in: value) ?? false)
    }

    private static func value(_ value: JSONValue, of type: ValueType, at reader: Reader) throws(Malformed) -> Value {
        if case .object = value, case .string("VARIABLE_ALIAS")? = value["type"] {
            return .alias(variableID: try reader.string("id", in: value))
        }
        switch (type, value) {
        case (.color, .object):
            let red = try reader.unit("r", in: value), green = try reader.unit("g", in: value), blue = try reader.unit("b", in: value)
            let alpha = value["a"] == nil ? 1 : try reader.unit("a", in: value)
            return .color(red: red, green: green, blue: blue, alpha: alpha)
        case (.float, .int(let number)): return .number(Double(number))
        case (.float, .double(let number)) where number.isFinite: return .number(number)
        case (.string, .string(let text)): return .string(text)
        case (.boolean, .bool(let flag)): return .boolean(flag)
        default: throw reader.malformed("", "not a \(type.rawValue) value nor a VARIABLE_ALIAS")
        }
    }

    /// Typed reads of one object's members, each failure naming the member.
    struct Reader {
        var location: String

        func inside(_ member: String) -> Reader { Reader(location: "\(location).\(member)") }

        func malformed(_ member: String, _ reason: String) -> Malformed {
            Malformed(location: member.isEmpty ? location : "\(location).\(member)", reason: reason)
        }

        func string(_ member: String, in value: JSONValue) throws(Malformed) -> String {
            guard let text = try optionalString(member, in: value) else { throw malformed(member, "missing") }
            return text
        }

        func optionalString(_ member: String, in value: JSONValue) throws(Malformed) -> String? {
            switch value[member] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw malformed(member, "not a string")
            }
        }

        func bool(_ member: String, in value: JSONValue) throws(Malformed) -> Bool? {
            switch value[member] {
            case nil, .null?: return nil
            case .bool(let flag)?: return flag
            default: throw malformed(member, "not true or false")
            }
        }

        func array(_ member: String, in value: JSONValue) throws(Malformed) -> [JSONValue] {
            guard case .array(let items)? = value[member] else { throw malformed(member, "missing or not an array") }
            return items
        }

        /// A colour channel: a number from 0 to 1.
        func unit(_ member: String, in value: JSONValue) throws(Malformed) -> Double {
            let number: Double
            switch value[member] {
            case .int(let whole)?: number = Double(whole)
            case .double(let fraction)?: number = fraction
            default: throw malformed(member, "missing or not a number")
            }
            guard number.isFinite, (0...1).contains(number) else { throw malformed(member, "\(number) is outside 0...1") }
            return number
        }
    }
}
