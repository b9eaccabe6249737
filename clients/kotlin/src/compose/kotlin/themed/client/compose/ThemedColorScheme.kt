package themed.client.compose

import androidx.compose.material3.ColorScheme
import androidx.compose.material3.darkColorScheme
import androidx.compose.material3.lightColorScheme
import androidx.compose.runtime.Composable
import androidx.compose.runtime.DisposableEffect
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.ui.graphics.Color
import themed.client.Palette
import themed.client.ThemedClient

/**
 * A theme's palette as a Material 3 `ColorScheme`, for Jetpack Compose: each role the palette
 * names (a theme with Material roles, `"material": {"seed": ...}` in theme.json, has all of
 * them: `primary`, `onPrimary`, ...) takes its colour; the others keep Material's baseline for
 * the scheme. Source, not part of themed-client.jar (which needs nothing of Compose): copy it into
 * an app. `make kotlin-check` compiles it against stubs with Compose's signatures.
 */
object ThemedColorScheme {
    /** The roles of Material 3's `ColorScheme` (1.2: with the surface container roles) that a palette may name. */
    val roles = listOf("primary", "onPrimary", "primaryContainer", "onPrimaryContainer", "inversePrimary", "secondary", "onSecondary", "secondaryContainer", "onSecondaryContainer", "tertiary", "onTertiary", "tertiaryContainer", "onTertiaryContainer", "background", "onBackground", "surface", "onSurface", "surfaceVariant", "onSurfaceVariant", "surfaceTint", "inverseSurface", "inverseOnSurface", "error", "onError", "errorContainer", "onErrorContainer", "outline", "outlineVariant", "scrim", "surfaceBright", "surfaceContainer", "surfaceContainerHigh", "surfaceContainerHighest", "surfaceContainerLow", "surfaceContainerLowest", "surfaceDim")

    fun from(palette: Palette?, dark: Boolean): ColorScheme {
        val base = if (dark) darkColorScheme() else lightColorScheme()
        if (palette == null) return base
        fun role(name: String, fallback: Color): Color = palette.colors[name]?.let { Color(it.argb) } ?: fallback
        return base.copy(
            primary = role("primary", base.primary),
            onPrimary = role("onPrimary", base.onPrimary),
            primaryContainer = role("primaryContainer", base.primaryContainer),
            onPrimaryContainer = role("onPrimaryContainer", base.onPrimaryContainer),
            inversePrimary = role("inversePrimary", base.inversePrimary),
            secondary = role("secondary", base.secondary),
            onSecondary = role("onSecondary", base.onSecondary),
            secondaryContainer = role("secondaryContainer", base.secondaryContainer),
            onSecondaryContainer = role("onSecondaryContainer", base.onSecondaryContainer),
            tertiary = role("tertiary", base.tertiary),
            onTertiary = role("onTertiary", base.onTertiary),
            tertiaryContainer = role("tertiaryContainer", base.tertiaryContainer),
            onTertiaryContainer = role("onTertiaryContainer", base.onTertiaryContainer),
            background = role("background", base.background),
            onBackground = role("onBackground", base.onBackground),
            surface = role("surface", base.surface),
            onSurface = role("onSurface", base.onSurface),
            surfaceVariant = role("surfaceVariant", base.surfaceVariant),
            onSurfaceVariant = role("onSurfaceVariant", base.onSurfaceVariant),
            surfaceTint = role("surfaceTint", base.surfaceTint),
            inverseSurface = role("inverseSurface", base.inverseSurface),
            inverseOnSurface = role("inverseOnSurface", base.inverseOnSurface),
            error = role("error", base.error),
            onError = role("onError", base.onError),
            errorContainer = role("errorContainer", base.errorContainer),
            onErrorContainer = role("onErrorContainer", base.onErrorContainer),
            outline = role("outline", base.outline),
            outlineVariant = role("outlineVariant", base.outlineVariant),
            scrim = role("scrim", base.scrim),
            surfaceBright = role("surfaceBright", base.surfaceBright),
            surfaceContainer = role("surfaceContainer", base.surfaceContainer),
            surfaceContainerHigh = role("surfaceContainerHigh", base.surfaceContainerHigh),
            surfaceContainerHighest = role("surfaceContainerHighest", base.surfaceContainerHighest),
            surfaceContainerLow = role("surfaceContainerLow", base.surfaceContainerLow),
            surfaceContainerLowest = role("surfaceContainerLowest", base.surfaceContainerLowest),
            surfaceDim = role("surfaceDim", base.surfaceDim)
        )
    }
}

/**
 * The client's palette as a `ColorScheme` that recomposes when a new palette arrives, made once a
 * palette and appearance (the client's listeners must run on the main thread: pass
 * `ContextCompat.getMainExecutor(context)`).
 *
 *     MaterialTheme(colorScheme = rememberThemedColorScheme(client, isSystemInDarkTheme())) { App() }
 */
@Composable
fun rememberThemedColorScheme(client: ThemedClient, dark: Boolean): ColorScheme {
    val palette = remember(client) { mutableStateOf(client.palette) }
    DisposableEffect(client) {
        val handle = client.addListener { updated, _ -> palette.value = updated }
        // A palette published between the first composition and this listener is not lost.
        palette.value = client.palette
        onDispose { handle.close() }
    }
    val shown = palette.value
    return remember(shown, dark) { ThemedColorScheme.from(shown, dark) }
}
