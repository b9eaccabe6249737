// Stubs of the Compose types the glue uses, with Compose's names and signatures (runtime,
// ui-graphics, material3 1.2's ColorScheme): `make kotlin-check` compiles ThemedColorScheme.kt
// against them, as the Compose export's check does. Not shipped.
@file:Suppress("unused", "UNUSED_PARAMETER")

package androidx.compose.runtime

annotation class Composable

interface State<T> { val value: T }
interface MutableState<T> : State<T> { override var value: T }

fun <T> mutableStateOf(value: T): MutableState<T> = object : MutableState<T> { override var value: T = value }

@Composable
fun <T> remember(key1: Any?, calculation: () -> T): T = calculation()

@Composable
fun <T> remember(key1: Any?, key2: Any?, calculation: () -> T): T = calculation()

interface DisposableEffectResult { fun dispose() }

class DisposableEffectScope {
    fun onDispose(onDisposeEffect: () -> Unit): DisposableEffectResult = object : DisposableEffectResult { override fun dispose() = onDisposeEffect() }
}

@Composable
fun DisposableEffect(key1: Any?, effect: DisposableEffectScope.() -> DisposableEffectResult) {
    DisposableEffectScope().effect()
}
