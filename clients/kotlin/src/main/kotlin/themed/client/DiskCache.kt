package themed.client

import java.io.File
import java.security.MessageDigest

/**
 * Answers kept on disk by URL with their ETag: what lets an app start offline from the last good
 * values and revalidate instead of downloading again. One file an entry (the URL, so that a hash
 * collision is a miss, the ETag, then the body), written to a temporary file and renamed into
 * place: a crash leaves the old entry or the new one, never a body with another body's ETag.
 */
internal class DiskCache(val directory: File) {
    class Entry(val body: String, val etag: String?)

    fun entry(url: String): Entry? {
        val text = runCatching { file(url).readText() }.getOrNull() ?: return null
        val lines = text.split("\n", limit = 4)
        if (lines.size < 4 || lines[0] != FORMAT || lines[1] != url) return null
        return Entry(lines[3], lines[2].takeIf { it.isNotEmpty() })
    }

    /** When the entry for `url` was written (ms since the epoch); null when there is none. */
    fun written(url: String): Long? = file(url).takeIf { it.isFile }?.lastModified()

    fun store(url: String, body: String, etag: String?) = write(file(url), "$FORMAT\n$url\n${etag ?: ""}\n$body")

    /** A small file of the client's own beside the answers (the client id, an alias's assignment). */
    fun kept(name: String): String? = runCatching { File(directory, name).readText() }.getOrNull()

    fun keep(name: String, text: String) = write(File(directory, name), text)

    private fun write(file: File, text: String) {
        try {
            directory.mkdirs()
            val temporary = File(directory, file.name + ".tmp")
            temporary.writeText(text)
            if (!temporary.renameTo(file)) throw java.io.IOException("cannot rename ${temporary.path}")
        } catch (error: Exception) {
            throw ThemedClientException(ThemedClientException.Kind.CACHE, "cannot write ${file.name} in ${directory.path}: ${error.message}", cause = error)
        }
    }

    private fun file(url: String): File {
        val key = MessageDigest.getInstance("SHA-256").digest(url.toByteArray()).joinToString("") { "%02x".format(it) }
        return File(directory, "$key.answer")
    }

    companion object {
        const val FORMAT = "themed-answer 1"
    }
}
