package themed.client.compose

import androidx.compose.material3.darkColorScheme
import androidx.compose.material3.lightColorScheme
import androidx.compose.ui.graphics.Color
import org.junit.Assert.assertEquals
import org.junit.Test
import themed.client.Palette
import themed.client.ThemeColor

/** The Compose glue against the stubs: which role takes which colour. */
class ThemedColorSchemeTest {
    private fun color(hex: String) = ThemeColor(hex, "", "srgb", emptyList())

    @Test
    fun eachRoleThePaletteNamesTakesItsColourTheOthersKeepTheBaseline() {
        val palette = Palette("m3", mapOf("primary" to color("#112233FF"), "onPrimary" to color("#FFFFFF80"), "notARole" to color("#000000FF")))
        val light = ThemedColorScheme.from(palette, dark = false)
        assertEquals(Color(0xFF112233.toInt()), light.primary)
        assertEquals(Color(0x80FFFFFF.toInt()), light.onPrimary)
        assertEquals(lightColorScheme().secondary, light.secondary)
        assertEquals(darkColorScheme().secondary, ThemedColorScheme.from(palette, dark = true).secondary)
        assertEquals(darkColorScheme(), ThemedColorScheme.from(null, dark = true))
        assertEquals(36, ThemedColorScheme.roles.size)
        // Material 3 1.2's surface roles too.
        val surfaces = Palette("m3", mapOf("surfaceContainerHigh" to color("#2B292FFF"), "surfaceBright" to color("#3B383EFF"), "surfaceDim" to color("#141218FF")))
        val dark = ThemedColorScheme.from(surfaces, dark = true)
        assertEquals(Color(0xFF2B292F.toInt()), dark.surfaceContainerHigh)
        assertEquals(Color(0xFF3B383E.toInt()), dark.surfaceBright)
        assertEquals(Color(0xFF141218.toInt()), dark.surfaceDim)
        assertEquals(darkColorScheme().surfaceContainerLowest, dark.surfaceContainerLowest)
    }
}
