@file:Suppress("unused")

package androidx.compose.material3

import androidx.compose.ui.graphics.Color

/**
 * A stub of Material 3 1.2's ColorScheme: its 36 roles (1.2 added surfaceBright, surfaceDim and the
 * five surfaceContainer roles), and `copy` with each as a named argument.
 */
data class ColorScheme(
    val primary: Color,
    val onPrimary: Color,
    val primaryContainer: Color,
    val onPrimaryContainer: Color,
    val inversePrimary: Color,
    val secondary: Color,
    val onSecondary: Color,
    val secondaryContainer: Color,
    val onSecondaryContainer: Color,
    val tertiary: Color,
    val onTertiary: Color,
    val tertiaryContainer: Color,
    val onTertiaryContainer: Color,
    val background: Color,
    val onBackground: Color,
    val surface: Color,
    val onSurface: Color,
    val surfaceVariant: Color,
    val onSurfaceVariant: Color,
    val surfaceTint: Color,
    val inverseSurface: Color,
    val inverseOnSurface: Color,
    val error: Color,
    val onError: Color,
    val errorContainer: Color,
    val onErrorContainer: Color,
    val outline: Color,
    val outlineVariant: Color,
    val scrim: Color,
    val surfaceBright: Color,
    val surfaceContainer: Color,
    val surfaceContainerHigh: Color,
    val surfaceContainerHighest: Color,
    val surfaceContainerLow: Color,
    val surfaceContainerLowest: Color,
    val surfaceDim: Color
)

/** Stand-ins for Material's baseline schemes (their values are not Material's): role n is grey n. */
fun lightColorScheme(): ColorScheme = baseline { n -> 0xFF000000.toInt() or (n * 0x050505) }

fun darkColorScheme(): ColorScheme = baseline { n -> 0xFFFFFFFF.toInt() - (n * 0x050505) }

private fun baseline(grey: (Int) -> Int): ColorScheme = ColorScheme(
    Color(grey(0)),
    Color(grey(1)),
    Color(grey(2)),
    Color(grey(3)),
    Color(grey(4)),
    Color(grey(5)),
    Color(grey(6)),
    Color(grey(7)),
    Color(grey(8)),
    Color(grey(9)),
    Color(grey(10)),
    Color(grey(11)),
    Color(grey(12)),
    Color(grey(13)),
    Color(grey(14)),
    Color(grey(15)),
    Color(grey(16)),
    Color(grey(17)),
    Color(grey(18)),
    Color(grey(19)),
    Color(grey(20)),
    Color(grey(21)),
    Color(grey(22)),
    Color(grey(23)),
    Color(grey(24)),
    Color(grey(25)),
    Color(grey(26)),
    Color(grey(27)),
    Color(grey(28)),
    Color(grey(29)),
    Color(grey(30)),
    Color(grey(31)),
    Color(grey(32)),
    Color(grey(33)),
    Color(grey(34)),
    Color(grey(35))
)
