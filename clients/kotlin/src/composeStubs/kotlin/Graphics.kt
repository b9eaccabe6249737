@file:Suppress("unused")

package androidx.compose.ui.graphics

/** A stub of Compose's Color: an ARGB value (Compose packs colour spaces in too). */
data class Color(val value: Long)

/** Compose's `Color(color: Int)`: an sRGB colour from `0xAARRGGBB`. */
fun Color(color: Int): Color = Color(color.toLong() and 0xFFFFFFFFL)
