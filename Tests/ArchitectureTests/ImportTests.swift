import Foundation
import Testing

/// The layering by code, not only by the table: what each target's files `import` is what
/// Package.swift declares for it. An import of this package's target or of a package product
/// that is not declared builds today only because another dependency pulled the module in; a
/// declaration no file imports is a dependency nobody uses.
@Suite("imports")
struct ImportTests {
    /// The modules each target's Swift files import (`import X`, `@testable import X`,
    /// `import struct X.Y`), by target: the folders of `folder` (`Sources`, or `Tests`).
    static func imports(in folder: String = "Sources") throws -> [String: Set<String>] {
        let sources = LayeringTests.root.appendingPathComponent(folder)
        let statement = try Regex(#"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#).anchorsMatchLineEndings()
        var imports: [String: Set<String>] = [:]
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let folder = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            var modules = Set<String>()
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: statement) {
                    if let module = match.output[1].substring { modules.insert(String(module)) }
                }
            }
            imports[target] = modules
        }
        return imports
    }

    /// The package products each target declares (`.product(name: "HTTPTypes", ...)`: the text
    /// from its declaration to the next one), and every product named anywhere in the manifest.
    static func products() throws -> (byTarget: [String: Set<String>], all: Set<String>) {
        let manifest = try String(contentsOf: LayeringTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try Regex(#"\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let product = try Regex(#"\.product\(name:\s*"([^"]+)""#)
        let declarations = manifest.matches(of: start)
        var byTarget: [String: Set<String>] = [:]
        for (index, match) in declarations.enumerated() {
            guard let name = match.output[1].substring.map(String.init) else { continue }
            let end = index + 1 < declarations.count ? declarations[index + 1].range.lowerBound : manifest.endIndex
            byTarget[name] = Set(manifest[match.range.upperBound..<end].matches(of: product).compactMap { $0.output[1].substring.map(String.init) })
        }
        return (byTarget, Set(manifest.matches(of: product).compactMap { $0.output[1].substring.map(String.init) }))
    }

    /// What is wrong with one target's imports: the undeclared ones and the unused declarations.
    static func faults(of target: String, imports modules: Set<String>, declared: Set<String>, products: Set<String>,
                       packageTargets: Set<String>, packageProducts: Set<String>) -> [String] {
        let undeclared = modules.subtracting([target]).filter {
            (packageTargets.contains($0) && !declared.contains($0)) || (packageProducts.contains($0) && !products.contains($0))
        }
        let unused = declared.union(products).subtracting(modules)
        return (undeclared.isEmpty ? [] : ["\(target) imports \(undeclared.sorted()) without declaring it in Package.swift"])
            + (unused.isEmpty ? [] : ["\(target) declares \(unused.sorted()) in Package.swift, but no file of it imports them"])
    }

    @Test("every import of a target of this package or a package product is declared, and every declared dependency is imported")
    func importsMatchDeclarations() throws {
        let targets = try LayeringTests.targets()
        let (declaredProducts, allProducts) = try Self.products()
        let imports = try Self.imports()
        #expect(imports.count > 30 && allProducts.contains("HTTPTypes"), "the sources and the manifest were read")
        for (target, modules) in imports.sorted(by: { $0.key < $1.key }) {
            guard let declared = targets[target] else { continue }
            let faults = Self.faults(of: target, imports: modules, declared: Set(declared), products: declaredProducts[target] ?? [],
                                     packageTargets: Set(targets.keys), packageProducts: allProducts)
            #expect(faults.isEmpty, "\(faults.joined(separator: "; "))")
        }
    }

    @Test("the test targets too: what their files import is what Package.swift declares for them")
    func testTargetImportsMatchDeclarations() throws {
        let targets = try LayeringTests.targets()
        let testTargets = try LayeringTests.targets(tests: true)
        let (declaredProducts, allProducts) = try Self.products()
        let imports = try Self.imports(in: "Tests")
        #expect(testTargets.count > 20 && imports["ThemeServerTests"]?.contains("ThemeServer") == true, "the tests and the manifest were read")
        // A test target may import this package's targets and the test helpers beside it.
        let importable = Set(targets.keys).union(testTargets.keys)
        for (target, modules) in imports.sorted(by: { $0.key < $1.key }) {
            guard let declared = testTargets[target] ?? targets[target] else { continue }
            let faults = Self.faults(of: target, imports: modules, declared: Set(declared), products: declaredProducts[target] ?? [],
                                     packageTargets: importable, packageProducts: allProducts)
            #expect(faults.isEmpty, "\(faults.joined(separator: "; "))")
        }
    }

    @Test("the check names both faults: an undeclared import and an unused declaration")
    func detectsFaults() {
        let faults = Self.faults(of: "themed", imports: ["Foundation", "HTTPTypes", "Settings"], declared: ["Settings", "CLinux"], products: [],
                                 packageTargets: ["Settings", "CLinux", "themed"], packageProducts: ["HTTPTypes"])
        #expect(faults == ["themed imports [\"HTTPTypes\"] without declaring it in Package.swift",
                           "themed declares [\"CLinux\"] in Package.swift, but no file of it imports them"])
        #expect(Self.faults(of: "JSON", imports: ["Foundation"], declared: [], products: [], packageTargets: ["JSON"], packageProducts: []).isEmpty,
                "modules of the toolchain are no one's declaration")
    }
}
