@file:Suppress("unused")

package androidx.compose.material3

import androidx.compose.ui.graphics.Color

/** A stub of Material 3's ColorScheme: its roles, and `copy` with each as a named argument. */
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
    val scrim: Color
)

/** Stand-ins for Material's baseline schemes (their values are not Material's). */
fun lightColorScheme(): ColorScheme = ColorScheme(Color(0xFF000000.toInt()), Color(0xFF101010.toInt()), Color(0xFF202020.toInt()), Color(0xFF303030.toInt()), Color(0xFF404040.toInt()), Color(0xFF505050.toInt()), Color(0xFF606060.toInt()), Color(0xFF707070.toInt()), Color(0xFF808080.toInt()), Color(0xFF909090.toInt()), Color(0xFFA0A0A0.toInt()), Color(0xFFB0B0B0.toInt()), Color(0xFFC0C0C0.toInt()), Color(0xFFD0D0D0.toInt()), Color(0xFFE0E0E0.toInt()), Color(0xFF000000.toInt()), Color(0xFF101010.toInt()), Color(0xFF202020.toInt()), Color(0xFF303030.toInt()), Color(0xFF404040.toInt()), Color(0xFF505050.toInt()), Color(0xFF606060.toInt()), Color(0xFF707070.toInt()), Color(0xFF808080.toInt()), Color(0xFF909090.toInt()), Color(0xFFA0A0A0.toInt()), Color(0xFFB0B0B0.toInt()), Color(0xFFC0C0C0.toInt()), Color(0xFFD0D0D0.toInt()))

fun darkColorScheme(): ColorScheme = ColorScheme(Color(0xFFF0F0F0.toInt()), Color(0xFFE0E0E0.toInt()), Color(0xFFD0D0D0.toInt()), Color(0xFFC0C0C0.toInt()), Color(0xFFB0B0B0.toInt()), Color(0xFFA0A0A0.toInt()), Color(0xFF909090.toInt()), Color(0xFF808080.toInt()), Color(0xFF707070.toInt()), Color(0xFF606060.toInt()), Color(0xFF505050.toInt()), Color(0xFF404040.toInt()), Color(0xFF303030.toInt()), Color(0xFF202020.toInt()), Color(0xFF101010.toInt()), Color(0xFFF0F0F0.toInt()), Color(0xFFE0E0E0.toInt()), Color(0xFFD0D0D0.toInt()), Color(0xFFC0C0C0.toInt()), Color(0xFFB0B0B0.toInt()), Color(0xFFA0A0A0.toInt()), Color(0xFF909090.toInt()), Color(0xFF808080.toInt()), Color(0xFF707070.toInt()), Color(0xFF606060.toInt()), Color(0xFF505050.toInt()), Color(0xFF404040.toInt()), Color(0xFF303030.toInt()), Color(0xFF202020.toInt()))
