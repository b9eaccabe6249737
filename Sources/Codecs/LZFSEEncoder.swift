/// Writes LZFSE containers: `bvx2` blocks (LZ77 matches with finite-state entropy coding), a
/// stored `bvx-` block when compression does not pay, and the `bvx$` end marker.
///
/// Written from the format that `LZFSE` (the decoder) reads: greedy LZ77 with hash chains,
/// then each block's literals and (L, M, D) triples coded with FSE tables normalized from the
/// block's own symbol counts. Blocks hold at most 10,000 matches and 40,000 literals, the limits
/// Apple's decoder allocates for, and matches may reach back into earlier blocks.
public enum LZFSEEncoder {
    public static func compress(_ input: [UInt8]) -> [UInt8] {
        // Empty input is one empty stored block, as Apple's encoder writes it.
        var output = stored([])
        if !input.isEmpty {
            let sequences = MatchFinder(input).sequences()
            var blocks: [UInt8] = []
            var literalStart = 0
            var index = 0
            while index < sequences.count {
                let block = BlockPlan(sequences, from: index)
                blocks += block.encode(input, literalStart: &literalStart, sequences: sequences[index ..< block.end])
                index = block.end
            }
            output = blocks.count < input.count + 8 ? blocks : stored(input)
        }
        return output + Array("bvx$".utf8)
    }

    static func stored(_ input: [UInt8]) -> [UInt8] {
        Array("bvx-".utf8) + le32(input.count) + input
    }

    // MARK: - LZ77

    /// One LZFSE sequence: `literals` bytes copied from the input, then `matchLength` bytes from
    /// `distance` back.
    struct Sequence {
        var literals: Int
        var matchLength: Int
        var distance: Int

        /// Literals alone. The distance still counts: Apple's decoder starts every block with no
        /// previous distance and refuses a sequence that has none, even one that copies nothing;
        /// 1 is valid everywhere after a literal.
        static func literals(_ count: Int) -> Sequence { Sequence(literals: count, matchLength: 0, distance: 1) }
    }

    static let maximumLiterals = 315, maximumMatch = 2359, maximumDistance = 262_139
    static let minimumMatch = 4

    /// Greedy matching over a hash chain of 4-byte prefixes, at most 32 candidates deep.
    struct MatchFinder {
        let input: [UInt8]
        static let hashBits = 16
        static let chainDepth = 32

        init(_ input: [UInt8]) { self.input = input }

        func sequences() -> [Sequence] {
            var sequences: [Sequence] = []
            var head = [Int](repeating: -1, count: 1 << Self.hashBits)
            var previous = [Int](repeating: -1, count: input.count)
            func hash(_ position: Int) -> Int {
                let word = UInt32(input[position]) | UInt32(input[position + 1]) << 8 | UInt32(input[position + 2]) << 16 | UInt32(input[position + 3]) << 24
                return Int((word &* 2_654_435_761) >> UInt32(32 - Self.hashBits))
            }
            func insert(_ position: Int) {
                guard position + 4 <= input.count else { return }
                let key = hash(position)
                previous[position] = head[key]
                head[key] = position
            }
            var position = 0, pendingLiterals = 0
            func emit(_ matchLength: Int?, _ distance: Int) {
                // Literal runs longer than one sequence carries go out as literal-only sequences.
                while pendingLiterals > LZFSEEncoder.maximumLiterals {
                    sequences.append(.literals(LZFSEEncoder.maximumLiterals))
                    pendingLiterals -= LZFSEEncoder.maximumLiterals
                }
                sequences.append(matchLength.map { Sequence(literals: pendingLiterals, matchLength: $0, distance: distance) } ?? .literals(pendingLiterals))
                pendingLiterals = 0
            }
            while position < input.count {
                var bestLength = 0, bestDistance = 0
                if position + 4 <= input.count {
                    var candidate = head[hash(position)]
                    var depth = 0
                    let limit = min(LZFSEEncoder.maximumMatch, input.count - position)
                    while candidate >= 0, depth < Self.chainDepth, position - candidate <= LZFSEEncoder.maximumDistance {
                        var length = 0
                        while length < limit, input[candidate + length] == input[position + length] { length += 1 }
                        if length > bestLength { (bestLength, bestDistance) = (length, position - candidate) }
                        if length == limit { break }
                        candidate = previous[candidate]
                        depth += 1
                    }
                }
                if bestLength >= LZFSEEncoder.minimumMatch {
                    emit(bestLength, bestDistance)
                    for covered in position ..< position + bestLength { insert(covered) }
                    position += bestLength
                } else {
                    insert(position)
                    pendingLiterals += 1
                    position += 1
                }
            }
            if pendingLiterals > 0 { emit(nil, 0) }
            return sequences
        }
    }

    // MARK: - Blocks

    static let matchesPerBlock = 10_000, literalsPerBlock = 40_000

    /// The sequences one block takes, from `start`, within the decoder's per-block limits.
    struct BlockPlan {
        let end: Int

        init(_ sequences: [Sequence], from start: Int) {
            var end = start, literals = 0
            while end < sequences.count, end - start < LZFSEEncoder.matchesPerBlock,
                  literals + sequences[end].literals <= LZFSEEncoder.literalsPerBlock - 4 {
                literals += sequences[end].literals
                end += 1
            }
            self.end = end
        }

        func encode(_ input: [UInt8], literalStart: inout Int, sequences: ArraySlice<Sequence>) -> [UInt8] {
            // The block's literals in order, padded to a multiple of 4 (the decoder reads 4 at a time).
            var literals: [UInt8] = []
            var position = literalStart
            var rawBytes = 0
            for sequence in sequences {
                literals += input[position ..< position + sequence.literals]
                position += sequence.literals + sequence.matchLength
                rawBytes += sequence.literals + sequence.matchLength
            }
            literalStart = position
            while literals.count % 4 != 0 { literals.append(0) }

            let l = sequences.map { ValueCode.literalLength.symbol(for: $0.literals) }
            let m = sequences.map { ValueCode.matchLength.symbol(for: $0.matchLength) }
            let d = sequences.map { ValueCode.distance.symbol(for: $0.distance) }
            let lFrequencies = FSETable.normalize(counts: counts(l, 20), states: 64)
            let mFrequencies = FSETable.normalize(counts: counts(m, 20), states: 64)
            let dFrequencies = FSETable.normalize(counts: counts(d, 64), states: 256)
            let literalFrequencies = FSETable.normalize(counts: counts(literals.map(Int.init), 256), states: 1024)

            // Literals: four interleaved states, coded backwards so that the decoder reads forwards.
            let literalTable = FSETable(frequencies: literalFrequencies, states: 1024)
            var literalStream = BitWriter()
            var literalStates = [0, 0, 0, 0]
            for group in stride(from: literals.count - 4, through: 0, by: -4) {
                for lane in (0..<4).reversed() {
                    literalTable.encode(Int(literals[group + lane]), state: &literalStates[lane], into: &literalStream, extra: (0, 0))
                }
                literalStream.flush()
            }
            let literalBits = literalStream.finish(minimumLength: Self.minimumStreamLength)

            // L, M, D: per sequence the decoder reads L, then M, then D, so they are written D, M, L.
            let lTable = FSETable(frequencies: lFrequencies, states: 64)
            let mTable = FSETable(frequencies: mFrequencies, states: 64)
            let dTable = FSETable(frequencies: dFrequencies, states: 256)
            var lmdStream = BitWriter()
            var (lState, mState, dState) = (0, 0, 0)
            for (index, sequence) in sequences.enumerated().reversed() {
                dTable.encode(d[index], state: &dState, into: &lmdStream, extra: ValueCode.distance.extra(for: sequence.distance, symbol: d[index]))
                mTable.encode(m[index], state: &mState, into: &lmdStream, extra: ValueCode.matchLength.extra(for: sequence.matchLength, symbol: m[index]))
                lTable.encode(l[index], state: &lState, into: &lmdStream, extra: ValueCode.literalLength.extra(for: sequence.literals, symbol: l[index]))
                lmdStream.flush()
            }
            let lmdBits = lmdStream.finish(minimumLength: Self.minimumStreamLength)

            let tables = packFrequencies(lFrequencies + mFrequencies + dFrequencies + literalFrequencies)
            let headerSize = 32 + tables.count
            let v0 = UInt64(literals.count) | UInt64(literalStream.bytes.count) << 20 | UInt64(sequences.count) << 40 | UInt64(literalBits + 7) << 60
            var v1 = UInt64(lmdStream.bytes.count) << 40 | UInt64(lmdBits + 7) << 60
            for (lane, state) in literalStates.enumerated() { v1 |= UInt64(state) << UInt64(10 * lane) }
            let v2 = UInt64(headerSize) | UInt64(lState) << 32 | UInt64(mState) << 42 | UInt64(dState) << 52
            return Array("bvx2".utf8) + le32(rawBytes) + le64(v0) + le64(v1) + le64(v2) + tables + literalStream.bytes + lmdStream.bytes
        }

        /// Apple's decoder starts a stream by loading its last 8 (or 7) bytes and refuses to read
        /// before the L, M, D stream, so shorter streams get zero bytes in front. The reader never
        /// reaches them: they lie below the stream's first bit.
        static let minimumStreamLength = 8

        func counts(_ symbols: [Int], _ alphabet: Int) -> [Int] {
            var counts = [Int](repeating: 0, count: alphabet)
            for symbol in symbols { counts[symbol] += 1 }
            return counts
        }

        /// The v2 header's frequency tables: each value a prefix code, packed LSB first.
        func packFrequencies(_ values: [Int]) -> [UInt8] {
            var writer = BitWriter()
            for value in values {
                switch value {
                case 0...1: writer.push(UInt64(value) << 1, 2)
                case 2...3: writer.push(1 | UInt64(value - 2) << 2, 3)
                case 4...7: writer.push(3 | UInt64(value - 4) << 3, 5)
                case 8...23: writer.push(7 | UInt64(value - 8) << 4, 8)
                default: writer.push(15 | UInt64(value - 24) << 4, 14)
                }
                writer.flush()
            }
            _ = writer.finish()
            return writer.bytes
        }
    }

    // MARK: - Values and their symbols

    /// How L, M and D values map to a symbol and extra bits (the decoder's base tables).
    struct ValueCode {
        let extraBits: [Int]
        let bases: [Int]

        init(extraBits: [Int]) {
            self.extraBits = extraBits
            var next = 0
            bases = extraBits.map { bits in defer { next += 1 << bits }; return next }
        }

        static let literalLength = ValueCode(extraBits: Array(repeating: 0, count: 16) + [2, 3, 5, 8])
        static let matchLength = ValueCode(extraBits: Array(repeating: 0, count: 16) + [3, 5, 8, 11])
        static let distance = ValueCode(extraBits: (0..<64).map { $0 / 4 })

        func symbol(for value: Int) -> Int {
            var low = 0, high = bases.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if bases[middle] <= value { low = middle } else { high = middle - 1 }
            }
            return low
        }

        func extra(for value: Int, symbol: Int) -> (value: UInt64, bits: Int) {
            (UInt64(value - bases[symbol]), extraBits[symbol])
        }
    }

    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) } }
}

/// An FSE coding table for one alphabet, from normalized frequencies (summing to `states`).
struct FSETable {
    private struct Entry {
        var threshold = 0
        var bits = 0
        var deltaHigh = 0
        var deltaLow = 0
    }

    private var entries: [Entry]

    /// Frequencies in proportion to `counts` that sum to `states`, every used symbol at least 1.
    static func normalize(counts: [Int], states: Int) -> [Int] {
        let total = counts.reduce(0, +)
        guard total > 0 else { return counts.map { _ in 0 } }
        var frequencies = counts.map { count in count == 0 ? 0 : max(1, count * states / total) }
        var excess = frequencies.reduce(0, +) - states
        // Give the rounding remainder to, or take the excess from, the most frequent symbols.
        let byCount = counts.indices.sorted { counts[$0] > counts[$1] }
        while excess != 0 {
            for symbol in byCount where counts[symbol] > 0 && excess != 0 {
                if excess < 0 {
                    frequencies[symbol] -= excess
                    excess = 0
                } else if frequencies[symbol] > 1 {
                    let taken = min(excess, frequencies[symbol] - 1)
                    frequencies[symbol] -= taken
                    excess -= taken
                }
            }
        }
        return frequencies
    }

    /// Each symbol with frequency f owns f consecutive decoder states; from a next state `x`,
    /// it writes `bits` low bits of `x` and moves to the state the decoder comes from.
    init(frequencies: [Int], states: Int) {
        entries = [Entry](repeating: Entry(), count: frequencies.count)
        var offset = 0
        for (symbol, frequency) in frequencies.enumerated() where frequency > 0 {
            let k = frequency.leadingZeroBitCount - states.leadingZeroBitCount
            entries[symbol] = Entry(threshold: (frequency << k) - states, bits: k,
                                    deltaHigh: offset - frequency + (states >> k), deltaLow: offset - frequency + (states >> (k - 1)))
            offset += frequency
        }
    }

    /// Codes `symbol` from `state` (the decoder's state after it), with the value's extra bits
    /// below the state bits, as the decoder reads them in one pull.
    func encode(_ symbol: Int, state: inout Int, into writer: inout BitWriter, extra: (value: UInt64, bits: Int)) {
        let entry = entries[symbol]
        let high = state >= entry.threshold
        let bits = high ? entry.bits : entry.bits - 1
        let stateBits = UInt64(state) & ((1 << UInt64(bits)) - 1)
        writer.push(stateBits << UInt64(extra.bits) | extra.value, bits + extra.bits)
        state = (high ? entry.deltaHigh : entry.deltaLow) + (state >> bits)
    }
}

/// Bits pushed above the earlier ones and stored little-endian, so that a reader starting at
/// the end of the bytes meets the last-pushed bits first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var count = 0

    /// Appends the low `n` bits of `value` (n + pending bits ≤ 64: callers flush in between).
    mutating func push(_ value: UInt64, _ n: Int) {
        accumulator |= value << UInt64(count)
        count += n
    }

    /// Moves whole bytes out of the accumulator.
    mutating func flush() {
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            count -= 8
        }
    }

    /// Writes the last partial byte; returns the header's bit count: minus the unused high bits
    /// of that byte (-7...0). A stream shorter than `minimumLength` gets zero bytes in front.
    mutating func finish(minimumLength: Int = 0) -> Int {
        flush()
        var bits = 0
        if count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            bits = count - 8
            accumulator = 0
            count = 0
        }
        if bytes.count < minimumLength { bytes.insert(contentsOf: [UInt8](repeating: 0, count: minimumLength - bytes.count), at: 0) }
        return bits
    }
}
