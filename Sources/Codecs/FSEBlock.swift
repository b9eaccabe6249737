import BinaryReading

/// Header of an LZFSE entropy-coded block (`bvx1` or `bvx2`), with its frequency tables.
struct FSEBlockHeader {
    var isV1: Bool
    var rawBytes = 0
    var literalCount = 0
    var matchCount = 0
    var literalPayloadBytes = 0
    var lmdPayloadBytes = 0
    var literalBits = 0
    var lmdBits = 0
    var literalStates: [Int] = []
    var lState = 0
    var mState = 0
    var dState = 0
    var headerSize = 0
    /// 360 frequencies: L (20), M (20), D (64), literal (256).
    var frequencies: [Int] = []

    var blockLength: Int { headerSize + literalPayloadBytes + lmdPayloadBytes }

    static let symbolCounts = (l: 20, m: 20, d: 64, literal: 256)
    static let frequencyCount = 360

    init(_ span: ByteSpan, at offset: Int, isV1: Bool) throws {
        self.isV1 = isV1
        if isV1 { try readV1(span, at: offset) } else { try readV2(span, at: offset) }
        guard literalCount % 4 == 0 else {
            throw span.error(at: offset, "literal count \(literalCount) is not a multiple of 4")
        }
        guard (-7...0).contains(literalBits), (-7...0).contains(lmdBits) else {
            throw span.error(at: offset, "bit counts \(literalBits)/\(lmdBits) are outside -7...0")
        }
        guard literalStates.allSatisfy({ $0 < 1024 }), lState < 64, mState < 64, dState < 256 else {
            throw span.error(at: offset, "initial entropy state out of range")
        }
    }

    private mutating func readV2(_ span: ByteSpan, at offset: Int) throws {
        rawBytes = try span.int32le(offset + 4)
        let v0 = try span.u64le(offset + 8), v1 = try span.u64le(offset + 16), v2 = try span.u64le(offset + 24)
        func field(_ word: UInt64, _ start: UInt64, _ width: UInt64) -> Int { Int((word >> start) & ((1 << width) - 1)) }
        literalCount = field(v0, 0, 20)
        literalPayloadBytes = field(v0, 20, 20)
        matchCount = field(v0, 40, 20)
        literalBits = field(v0, 60, 3) - 7
        literalStates = [field(v1, 0, 10), field(v1, 10, 10), field(v1, 20, 10), field(v1, 30, 10)]
        lmdPayloadBytes = field(v1, 40, 20)
        lmdBits = field(v1, 60, 3) - 7
        headerSize = field(v2, 0, 32)
        lState = field(v2, 32, 10)
        mState = field(v2, 42, 10)
        dState = field(v2, 52, 10)
        guard headerSize >= 32 else { throw span.error(at: offset + 24, "header size \(headerSize) is below 32") }
        let tables = try span.slice(offset + 32, headerSize - 32, as: "LZFSE frequency tables")
        frequencies = try Self.readPackedFrequencies(tables)
    }

    private mutating func readV1(_ span: ByteSpan, at offset: Int) throws {
        rawBytes = try span.int32le(offset + 4)
        literalCount = try span.int32le(offset + 12)
        matchCount = try span.int32le(offset + 16)
        literalPayloadBytes = try span.int32le(offset + 20)
        lmdPayloadBytes = try span.int32le(offset + 24)
        literalBits = Int(Int32(bitPattern: try span.u32le(offset + 28)))
        var states: [Int] = []
        for index in 0..<4 { states.append(Int(try span.u16le(offset + 32 + 2 * index))) }
        literalStates = states
        lmdBits = Int(Int32(bitPattern: try span.u32le(offset + 40)))
        lState = Int(try span.u16le(offset + 44))
        mState = Int(try span.u16le(offset + 46))
        dState = Int(try span.u16le(offset + 48))
        var values: [Int] = []
        for index in 0..<Self.frequencyCount { values.append(Int(try span.u16le(offset + 50 + 2 * index))) }
        frequencies = values
        headerSize = 772
        let payload = try span.int32le(offset + 8)
        guard payload == literalPayloadBytes + lmdPayloadBytes else {
            throw span.error(at: offset + 8, "payload size \(payload) differs from literal + LMD sizes")
        }
    }

    /// The v2 tables: 360 values, each a prefix code read LSB-first.
    private static func readPackedFrequencies(_ tables: ByteSpan) throws -> [Int] {
        var values = [Int](repeating: 0, count: frequencyCount)
        if tables.isEmpty { return values }
        var accumulator: UInt32 = 0
        var bitCount = 0
        var position = 0
        for index in 0..<frequencyCount {
            while position < tables.count && bitCount + 8 <= 32 {
                accumulator |= UInt32(tables.buffer[position]) << UInt32(bitCount)
                bitCount += 8
                position += 1
            }
            let (value, length) = decodeFrequency(accumulator)
            guard length <= bitCount else { throw tables.error(at: position, "frequency table ends early") }
            values[index] = value
            accumulator >>= UInt32(length)
            bitCount -= length
        }
        guard bitCount < 8, position == tables.count else {
            throw tables.error(at: position, "frequency table does not end at the header size")
        }
        return values
    }

    private static func decodeFrequency(_ bits: UInt32) -> (value: Int, length: Int) {
        if bits & 1 == 0 { return (Int((bits >> 1) & 1), 2) }
        if bits & 3 == 1 { return (2 + Int((bits >> 2) & 1), 3) }
        if bits & 7 == 3 { return (4 + Int((bits >> 3) & 3), 5) }
        if bits & 15 == 7 { return (8 + Int((bits >> 4) & 15), 8) }
        return (24 + Int((bits >> 4) & 1023), 14)
    }
}

/// One state of the literal decoder: read `bits`, add `delta`, emit `symbol`.
struct LiteralEntry {
    var bits: UInt8 = 0
    var symbol: UInt8 = 0
    var delta: Int16 = 0
}

/// One state of an L, M or D decoder: the value is `base` plus `valueBits` extra bits.
struct ValueEntry {
    var totalBits: UInt8 = 0
    var valueBits: UInt8 = 0
    var delta: Int16 = 0
    var base: Int32 = 0
}

/// Reads an FSE bit stream from its end towards its start, as LZFSE writes it.
struct BackwardBitReader {
    let base: UnsafePointer<UInt8>
    var position: Int
    var accumulator: UInt64
    var count: Int

    /// The stream ends at `end` inside `buffer`; `bits` (-7...0) is the header's count of unused
    /// bits in the final byte. Like Apple's decoder, refills near the start of a stream may load
    /// bytes of what precedes it (the header or the literal stream): their bits are never
    /// consumed, so reads are bounded by the block, not by the stream.
    init(_ buffer: UnsafeRawBufferPointer, end: Int, bits: Int) throws {
        guard let pointer = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw FormatError("LZFSE bit stream", at: 0, "empty block")
        }
        base = pointer
        let width = bits == 0 ? 7 : 8
        guard end >= width else { throw FormatError("LZFSE bit stream", at: end, "block is too short for its bit stream") }
        position = end - width
        var value: UInt64 = 0
        for index in (0..<width).reversed() { value = value << 8 | UInt64(pointer[position + index]) }
        accumulator = value
        count = bits + width * 8
        guard count >= 56, count < 64, accumulator >> UInt64(count) == 0 else {
            throw FormatError("LZFSE bit stream", at: position, "stream does not start with a valid bit count")
        }
    }

    /// Tops the accumulator up to at least 56 valid bits.
    @inline(__always)
    mutating func refill() throws {
        let bits = (63 - count) & ~7
        guard bits > 0 else { return }
        let bytes = bits >> 3
        guard position >= bytes else { throw FormatError("LZFSE bit stream", at: position, "read before the start of the block") }
        position -= bytes
        let incoming = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
        accumulator = (accumulator &<< UInt64(bits)) | (UInt64(littleEndian: incoming) & ((1 &<< UInt64(bits)) &- 1))
        count += bits
    }

    /// The next `n` bits (n ≤ count).
    @inline(__always)
    mutating func pull(_ n: Int) -> UInt64 {
        count &-= n
        let result = accumulator &>> UInt64(count)
        accumulator &= (1 &<< UInt64(count)) &- 1
        return result
    }
}

/// Decodes `bvx1`/`bvx2` blocks; owns its tables so that a container's blocks reuse them.
struct BlockDecoder {
    private var literalTable = [LiteralEntry](repeating: LiteralEntry(), count: 1024)
    private var lTable = [ValueEntry](repeating: ValueEntry(), count: 64)
    private var mTable = [ValueEntry](repeating: ValueEntry(), count: 64)
    private var dTable = [ValueEntry](repeating: ValueEntry(), count: 256)
    private var literals: [UInt8] = []

    static let lExtraBits: [Int] = Array(repeating: 0, count: 16) + [2, 3, 5, 8]
    static let mExtraBits: [Int] = Array(repeating: 0, count: 16) + [3, 5, 8, 11]
    static let dExtraBits: [Int] = (0..<64).map { $0 / 4 }
    static let lBase = bases(lExtraBits)
    static let mBase = bases(mExtraBits)
    static let dBase = bases(dExtraBits)

    /// Each symbol's base value: the previous base plus the previous symbol's range.
    private static func bases(_ extraBits: [Int]) -> [Int] {
        var result: [Int] = []
        var next = 0
        for bits in extraBits { result.append(next); next += 1 << bits }
        return result
    }

    /// Decodes one block whose bytes are `block` into `output[start ..< start + rawBytes]`.
    /// Error offsets are relative to the block start.
    mutating func decode(_ block: UnsafeRawBufferPointer, header: FSEBlockHeader,
                         into output: UnsafeMutablePointer<UInt8>, start: Int) throws {
        let frequencies = header.frequencies
        try Self.buildValueTable(&lTable, states: 64, frequencies: frequencies[0..<20], extraBits: Self.lExtraBits, bases: Self.lBase)
        try Self.buildValueTable(&mTable, states: 64, frequencies: frequencies[20..<40], extraBits: Self.mExtraBits, bases: Self.mBase)
        try Self.buildValueTable(&dTable, states: 256, frequencies: frequencies[40..<104], extraBits: Self.dExtraBits, bases: Self.dBase)
        try Self.buildLiteralTable(&literalTable, frequencies: frequencies[104..<360])

        let lmdStart = header.headerSize + header.literalPayloadBytes
        let lmdEnd = lmdStart + header.lmdPayloadBytes
        try decodeLiterals(block, header: header, end: lmdStart)
        try decodeMatches(block, header: header, start: lmdStart, end: lmdEnd, into: output, outputStart: start)
    }

    private mutating func decodeLiterals(_ block: UnsafeRawBufferPointer, header: FSEBlockHeader, end: Int) throws {
        var reader = try BackwardBitReader(block, end: end, bits: header.literalBits)
        if literals.count < header.literalCount + 64 { literals = [UInt8](repeating: 0, count: header.literalCount + 64) }
        var s0 = header.literalStates[0], s1 = header.literalStates[1]
        var s2 = header.literalStates[2], s3 = header.literalStates[3]
        let count = header.literalCount
        try literalTable.withUnsafeBufferPointer { table throws in
            try literals.withUnsafeMutableBufferPointer { literalBuffer throws in
                guard let table = table.baseAddress, let out = literalBuffer.baseAddress else { return }
                @inline(__always) func next(_ state: inout Int) -> UInt8 {
                    let entry = table[state]
                    state = Int(entry.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(entry.bits)))
                    return entry.symbol
                }
                var index = 0
                while index < count {
                    try reader.refill()
                    out[index] = next(&s0)
                    out[index + 1] = next(&s1)
                    out[index + 2] = next(&s2)
                    out[index + 3] = next(&s3)
                    index += 4
                }
            }
        }
    }

    private mutating func decodeMatches(_ block: UnsafeRawBufferPointer, header: FSEBlockHeader, start: Int, end: Int,
                                        into output: UnsafeMutablePointer<UInt8>, outputStart: Int) throws {
        var reader = try BackwardBitReader(block, end: end, bits: header.lmdBits)
        var lState = header.lState, mState = header.mState, dState = header.dState
        var distance = 0
        var produced = outputStart
        let outputEnd = outputStart + header.rawBytes
        var literalPosition = 0
        let literalCount = header.literalCount
        try lTable.withUnsafeBufferPointer { l throws in
            try mTable.withUnsafeBufferPointer { m throws in
                try dTable.withUnsafeBufferPointer { d throws in
                    try literals.withUnsafeBufferPointer { literalBuffer throws in
                        guard let l = l.baseAddress, let m = m.baseAddress, let d = d.baseAddress,
                              let literals = literalBuffer.baseAddress else { return }
                        @inline(__always) func next(_ state: inout Int, _ table: UnsafePointer<ValueEntry>) -> Int {
                            let entry = table[state]
                            let bits = reader.pull(Int(entry.totalBits))
                            state = Int(entry.delta) &+ Int(truncatingIfNeeded: bits &>> UInt64(entry.valueBits))
                            return Int(entry.base) &+ Int(truncatingIfNeeded: bits & ((1 &<< UInt64(entry.valueBits)) &- 1))
                        }
                        for _ in 0..<header.matchCount {
                            try reader.refill()
                            let literalLength = next(&lState, l)
                            let matchLength = next(&mState, m)
                            let newDistance = next(&dState, d)
                            if newDistance != 0 { distance = newDistance }
                            guard literalLength <= literalCount - literalPosition else {
                                throw FormatError("LZFSE matches", at: reader.position, "\(literalLength) literals requested, \(literalCount - literalPosition) left")
                            }
                            guard literalLength + matchLength <= outputEnd - produced else {
                                throw FormatError("LZFSE matches", at: reader.position, "output exceeds the block's \(header.rawBytes) bytes")
                            }
                            copyLiterals(output + produced, from: literals + literalPosition, count: literalLength)
                            produced += literalLength
                            literalPosition += literalLength
                            if matchLength > 0 {
                                guard distance > 0, distance <= produced else {
                                    throw FormatError("LZFSE matches", at: reader.position, "match distance \(distance) reaches before the output start")
                                }
                                copyMatch(output, at: produced, distance: distance, count: matchLength)
                                produced += matchLength
                            }
                        }
                    }
                }
            }
        }
        guard produced == outputEnd else {
            throw FormatError("LZFSE matches", at: start, "decoded \(produced - outputStart) bytes, header promises \(header.rawBytes)")
        }
    }

    /// The FSE decoding table as Apple's decoder builds it: each symbol with frequency f takes the
    /// next f states; state j reads `bits` bits and adds `delta` to reach the next state.
    /// Calls `entry(state, symbol, bits, delta)` for every state; states past the frequencies'
    /// sum stay as initialised (a malformed table cannot make decoding read outside it).
    private static func forEachState(states: Int, frequencies: ArraySlice<Int>, table: String,
                                     _ entry: (_ state: Int, _ symbol: Int, _ bits: Int, _ delta: Int) -> Void) throws {
        var filled = 0
        for (symbol, frequency) in frequencies.enumerated() where frequency > 0 {
            guard frequency <= states - filled else { throw FormatError("LZFSE \(table) table", at: 0, "frequencies sum past \(states)") }
            let k = frequency.leadingZeroBitCount - states.leadingZeroBitCount
            let j0 = ((2 * states) >> k) - frequency
            for j in 0..<frequency {
                if j < j0 {
                    entry(filled, symbol, k, ((frequency + j) << k) - states)
                } else {
                    entry(filled, symbol, k - 1, (j - j0) << (k - 1))
                }
                filled += 1
            }
        }
    }

    private static func buildLiteralTable(_ table: inout [LiteralEntry], frequencies: ArraySlice<Int>) throws {
        for index in table.indices { table[index] = LiteralEntry() }
        try forEachState(states: 1024, frequencies: frequencies, table: "literal") { state, symbol, bits, delta in
            table[state] = LiteralEntry(bits: UInt8(bits), symbol: UInt8(symbol), delta: Int16(delta))
        }
    }

    private static func buildValueTable(_ table: inout [ValueEntry], states: Int, frequencies: ArraySlice<Int>,
                                        extraBits: [Int], bases: [Int]) throws {
        for index in table.indices { table[index] = ValueEntry() }
        try forEachState(states: states, frequencies: frequencies, table: "value") { state, symbol, bits, delta in
            table[state] = ValueEntry(totalBits: UInt8(bits + extraBits[symbol]), valueBits: UInt8(extraBits[symbol]),
                                      delta: Int16(delta), base: Int32(bases[symbol]))
        }
    }
}
