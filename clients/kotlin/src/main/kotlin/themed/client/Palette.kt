package themed.client

import java.net.URLEncoder

/** The traits a client asks for, as the query parameters of docs/API.md. */
data class Traits @JvmOverloads constructor(
    /** `light`, `dark`, or null for any. */
    val appearance: String? = null,
    val highContrast: Boolean = false,
    /** Pixels per point, as `dpr` (Android's density: 1.0 mdpi to 4.0 xxxhdpi). */
    val density: Double? = null,
    /** Preferred languages, most preferred first (`fr-CA`, `fr`). */
    val languages: List<String> = emptyList()
) {
    /** Always `resolve=1`, so that a palette comes back resolved. */
    fun query(): String {
        val items = mutableListOf("resolve=1")
        appearance?.let { items += "appearance=" + encode(it) }
        if (highContrast) items += "contrast=high"
        density?.let { items += "dpr=" + (if (it == Math.floor(it)) it.toInt().toString() else it.toString()) }
        if (languages.isNotEmpty()) items += "lang=" + encode(languages.joinToString(","))
        return items.joinToString("&")
    }

    companion object {
        @JvmStatic
        fun encode(text: String): String = URLEncoder.encode(text, "UTF-8").replace("+", "%20")

        /**
         * The traits of an Android `Configuration`: night mode as the appearance, the screen's
         * density, the locales (passed as values, so that this file needs nothing of Android).
         * `uiMode` is `Configuration.uiMode`; `densityDpi` is `Configuration.densityDpi` (160 a dp).
         */
        @JvmStatic
        @JvmOverloads
        fun fromConfiguration(uiMode: Int, densityDpi: Int, locales: List<String>, highContrast: Boolean = false): Traits {
            val night = (uiMode and UI_MODE_NIGHT_MASK) == UI_MODE_NIGHT_YES
            return Traits(if (night) "dark" else "light", highContrast, if (densityDpi > 0) densityDpi / 160.0 else null, locales)
        }

        /** `Configuration.UI_MODE_NIGHT_MASK` and `UI_MODE_NIGHT_YES`. */
        const val UI_MODE_NIGHT_MASK = 0x30
        const val UI_MODE_NIGHT_YES = 0x20
    }
}

/** One resolved colour: `#RRGGBBAA` as themed writes it, and as Android's ARGB int. */
data class ThemeColor(val hex: String, val css: String, val colorSpace: String, val components: List<Double>) {
    /** `0xAARRGGBB`, what `android.graphics.Color` and Compose's `Color(Int)` take. */
    val argb: Int
        get() {
            val digits = hex.removePrefix("#")
            val rgba = digits.toLong(16)
            val alpha = if (digits.length == 8) rgba and 0xFF else 0xFF
            val rgb = if (digits.length == 8) rgba ushr 8 else rgba
            return ((alpha shl 24) or rgb).toInt()
        }
}

/** Every colour of a theme resolved for some traits: what an app draws with. */
data class Palette(val theme: String, val colors: Map<String, ThemeColor>) {
    /** The colour of `name`, or `fallback` when the palette has none. */
    fun color(name: String, fallback: Int): Int = colors[name]?.argb ?: fallback

    companion object {
        /** A palette answer of `GET /themes/{theme}/colors?resolve=1`; a [JsonException] says what is wrong. */
        @JvmStatic
        fun parse(body: String): Palette {
            val root = Json.parse(body) as? Map<*, *> ?: throw JsonException("a palette is an object")
            val theme = root["theme"] as? String ?: throw JsonException("a palette names its theme")
            val colors = root["colors"] as? Map<*, *> ?: throw JsonException("a palette has colors")
            val resolved = LinkedHashMap<String, ThemeColor>()
            for ((name, value) in colors) {
                val color = value as? Map<*, *> ?: throw JsonException("colour $name is not an object")
                val hex = color["hex"] as? String
                val css = color["css"] as? String
                val space = color["colorSpace"] as? String
                val components = (color["components"] as? List<*>)?.map { it as? Double ?: throw JsonException("colour $name: a component is not a number") }
                if (name !is String || hex == null || css == null || space == null || components == null ||
                    !Regex("#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?").matches(hex)) {
                    throw JsonException("colour $name lacks hex, css, colorSpace or components")
                }
                resolved[name] = ThemeColor(hex, css, space, components)
            }
            return Palette(theme, resolved)
        }
    }
}
