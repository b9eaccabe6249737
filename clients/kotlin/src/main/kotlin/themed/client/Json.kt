package themed.client

/**
 * A small JSON reader (RFC 8259): what the client needs of themed's answers, with nothing Android
 * lacks. Objects are maps (insertion order kept), arrays lists, numbers doubles, null null.
 * Malformed input throws [JsonException] with the offset where reading stopped.
 */
class JsonException(message: String) : Exception(message)

object Json {
    /** Nesting deeper than this is refused rather than followed (a stack that cannot overflow). */
    private const val MAXIMUM_DEPTH = 64

    fun parse(text: String): Any? {
        val reader = Reader(text)
        val value = reader.value(0)
        reader.skipSpace()
        if (!reader.atEnd()) throw JsonException("trailing characters at offset ${reader.position}")
        return value
    }

    private class Reader(val text: String) {
        var position = 0

        fun atEnd() = position >= text.length

        fun skipSpace() {
            while (!atEnd() && text[position] in " \t\r\n") position++
        }

        fun value(depth: Int): Any? {
            if (depth > MAXIMUM_DEPTH) throw JsonException("nested deeper than $MAXIMUM_DEPTH at offset $position")
            skipSpace()
            if (atEnd()) throw JsonException("a value was expected at offset $position")
            return when (val c = text[position]) {
                '{' -> objectValue(depth)
                '[' -> arrayValue(depth)
                '"' -> string()
                't' -> literal("true", true)
                'f' -> literal("false", false)
                'n' -> literal("null", null)
                else -> if (c == '-' || c in '0'..'9') number() else throw JsonException("unexpected '$c' at offset $position")
            }
        }

        private fun literal(word: String, value: Any?): Any? {
            if (!text.startsWith(word, position)) throw JsonException("unexpected characters at offset $position")
            position += word.length
            return value
        }

        private fun objectValue(depth: Int): Map<String, Any?> {
            position++
            val members = LinkedHashMap<String, Any?>()
            skipSpace()
            if (!atEnd() && text[position] == '}') { position++; return members }
            while (true) {
                skipSpace()
                if (atEnd() || text[position] != '"') throw JsonException("a member name was expected at offset $position")
                val name = string()
                skipSpace()
                expect(':')
                members[name] = value(depth + 1)
                skipSpace()
                if (atEnd()) throw JsonException("the object is not closed")
                val next = text[position++]
                if (next == '}') return members
                if (next != ',') throw JsonException("',' or '}' was expected at offset ${position - 1}")
            }
        }

        private fun arrayValue(depth: Int): List<Any?> {
            position++
            val elements = ArrayList<Any?>()
            skipSpace()
            if (!atEnd() && text[position] == ']') { position++; return elements }
            while (true) {
                elements.add(value(depth + 1))
                skipSpace()
                if (atEnd()) throw JsonException("the array is not closed")
                val next = text[position++]
                if (next == ']') return elements
                if (next != ',') throw JsonException("',' or ']' was expected at offset ${position - 1}")
            }
        }

        private fun expect(c: Char) {
            if (atEnd() || text[position] != c) throw JsonException("'$c' was expected at offset $position")
            position++
        }

        private fun string(): String {
            position++
            val out = StringBuilder()
            while (true) {
                if (atEnd()) throw JsonException("the string is not closed")
                val c = text[position++]
                when {
                    c == '"' -> return out.toString()
                    c == '\\' -> {
                        if (atEnd()) throw JsonException("the string is not closed")
                        when (val escaped = text[position++]) {
                            '"', '\\', '/' -> out.append(escaped)
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                if (position + 4 > text.length) throw JsonException("a \\u escape is cut at offset $position")
                                val code = text.substring(position, position + 4).toIntOrNull(16)
                                    ?: throw JsonException("a \\u escape is not hexadecimal at offset $position")
                                out.append(code.toChar())
                                position += 4
                            }
                            else -> throw JsonException("unknown escape '\\$escaped' at offset ${position - 1}")
                        }
                    }
                    c < ' ' -> throw JsonException("a control character in a string at offset ${position - 1}")
                    else -> out.append(c)
                }
            }
        }

        private fun number(): Double {
            val start = position
            if (text[position] == '-') position++
            while (!atEnd() && (text[position].isDigit() || text[position] in ".eE+-")) position++
            return text.substring(start, position).toDoubleOrNull() ?: throw JsonException("not a number at offset $start")
        }
    }
}
